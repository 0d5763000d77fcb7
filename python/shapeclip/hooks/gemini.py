"""Gemini CLI: a `BeforeTool` hook on `run_shell_command`, an `AfterTool` hook on MCP tools.

Both as google-gemini/gemini-cli docs/hooks/reference.md and
packages/core/src/core/coreToolHookTriggers.ts have them (August 2026):

- BeforeTool: `hookSpecificOutput.tool_input` "merges with and overrides the model's
  arguments before execution", so `{"command": ...}` rewrites the shell command. Gemini CLI
  then appends a line to the result saying the `command` parameter was modified by a hook.
- AfterTool: the hook is handed `tool_response.llmContent`; `decision: "deny"` with a
  `reason` replaces the result sent to the model. The model then reads `Tool result blocked: `
  and the reason, and the call is marked failed, so this is answered only when something was
  cut. (A `hookSpecificOutput.tool_output` that would replace it plainly was proposed in
  google-gemini/gemini-cli#19505, which was closed without being merged.)
"""

from __future__ import annotations

import json
from typing import Any

from . import command
from .output import Settings, compressed_and_stored

NAME = "gemini"
SHELL_TOOL = "run_shell_command"


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    kind = event.get("hook_event_name")
    if kind == "BeforeTool" and tool == SHELL_TOOL:
        tool_input = event.get("tool_input")
        if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
            return {}
        if command.why_not_wrapped(tool_input["command"]) is not None:
            return {}
        new = command.wrapped(tool_input["command"], settings.budget, settings.argv)
        return {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": new}}}
    if kind == "AfterTool" and isinstance(tool, str):
        response = event.get("tool_response")
        content = response.get("llmContent") if isinstance(response, dict) else None
        replaced = compressed_and_stored(content, tool, settings.budget) if isinstance(content, str) else None
        if isinstance(replaced, str):
            return {"decision": "deny", "reason": replaced}
    return {}


def config(hook_command: str) -> str:
    """The `hooks` block of ~/.gemini/settings.json (or a project's .gemini/settings.json)."""
    entry = [{"name": "shapeclip", "type": "command", "command": hook_command}]
    hooks = {
        "BeforeTool": [{"matcher": SHELL_TOOL, "hooks": entry}],
        "AfterTool": [{"matcher": "mcp_.*", "hooks": entry}],
    }
    return json.dumps({"hooks": hooks}, indent=2)
