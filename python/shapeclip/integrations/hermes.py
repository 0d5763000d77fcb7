"""A Hermes agent plugin: tool results are compressed before they enter the context.

Hermes loads it through the `hermes_agent.plugins` entry point that shapeclip declares, once
it is enabled (`hermes plugins enable shapeclip`, or `plugins: {enabled: [shapeclip]}` in
config.yaml). It registers two of Hermes' hooks (hermes_cli/plugins.py, VALID_HOOKS):

- `transform_terminal_output`, handed a shell command's raw output before Hermes cuts it to
  its own limit (tools/terminal_tool.py), so the cut is shapeclip's, planned as shell output;
- `transform_tool_result`, handed every other tool's final result string
  (model_tools.py); the terminal tool's result is left to the first hook.

Each returns the compressed text, or None to leave the output as it is: Hermes takes the
first string a plugin returns. Whole outputs are kept in the default `Store`, so the markers
say how to read the omitted lines back with `shapeclip show`.
"""

from __future__ import annotations

from typing import Any

from ..api import compress
from ..defaults import DEFAULT_BUDGET
from ..store import Store

#: The name Hermes gives its shell tool.
TERMINAL_TOOL = "terminal"


def transform_terminal_output(output: object = None, command: object = None, **_: Any) -> str | None:
    """The `transform_terminal_output` hook: `output` compressed as shell output (a file's read,
    when `command` printed one), or None."""
    if not isinstance(output, str) or len(output) <= DEFAULT_BUDGET:
        return None
    ran = command if isinstance(command, str) else None
    return compress(output, TERMINAL_TOOL, DEFAULT_BUDGET, store=Store(), command=ran)


def transform_tool_result(tool_name: object = None, result: object = None, **_: Any) -> str | None:
    """The `transform_tool_result` hook: `result` compressed for its tool, or None."""
    if tool_name == TERMINAL_TOOL or not isinstance(result, str) or len(result) <= DEFAULT_BUDGET:
        return None
    return compress(result, tool_name if isinstance(tool_name, str) else None, DEFAULT_BUDGET, store=Store())


def register(ctx: Any) -> None:
    """Hermes calls this with its `PluginContext` when it loads the plugin."""
    ctx.register_hook("transform_terminal_output", transform_terminal_output)
    ctx.register_hook("transform_tool_result", transform_tool_result)
