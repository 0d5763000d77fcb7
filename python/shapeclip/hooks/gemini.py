"""Gemini CLI: an `AfterTool` hook on the shell tool and MCP tools.

The hook decides nothing about what runs: it never rewrites a command before it runs (a
`BeforeTool` rewrite would put a command the user did not write in front of Gemini CLI's own
confirmation), and it answers only after the tool ran.

As google-gemini/gemini-cli docs/hooks/reference.md and
packages/core/src/core/coreToolHookTriggers.ts have them (August 2026), the hook is handed
`tool_response.llmContent`, and a blocking decision with a `reason` replaces the result sent
to the model. The shell tool's `llmContent` is a string; an MCP tool's is a list of parts
(`{"text": ...}`, and `{"inlineData": ...}` for images: `transformMcpContentToParts` in
packages/core/src/tools/mcp-tool.ts), whose texts are compressed together as one text, since a
reason is one string; a result with an image is left alone. The answer says `"block"`, the
reference's alias of `"deny"`, which Gemini CLI reads the same (`isBlockingDecision` in
packages/core/src/hooks/types.ts takes either): no answer of this hook uses a permission's
words (allow, ask, deny), since none decides what runs. The model then reads `Tool result
blocked: ` and the reason, and the call is marked failed, so this is answered only when
something was cut. (A `hookSpecificOutput.tool_output` that would replace it plainly was
proposed in google-gemini/gemini-cli#19505, which was closed without being merged.)
"""

from __future__ import annotations

import json

from .output import Settings, compressed_and_stored, joined_text, shell_command

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Any

NAME = "gemini"
SHELL_TOOL = "run_shell_command"


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    if event.get("hook_event_name") == "AfterTool" and isinstance(tool, str):
        response = event.get("tool_response")
        text = joined_text(response.get("llmContent") if isinstance(response, dict) else None)
        kind = "bash" if tool == SHELL_TOOL else tool
        command = shell_command(event) if tool == SHELL_TOOL else None
        replaced = None if text is None else compressed_and_stored(text, kind, settings.budget, command)
        if isinstance(replaced, str):
            return {"decision": "block", "reason": replaced}
    return {}


def config(hook_command: str) -> str:
    """The `hooks` block of ~/.gemini/settings.json (or a project's .gemini/settings.json)."""
    entry = [{"name": "shapeclip", "type": "command", "command": hook_command}]
    return json.dumps({"hooks": {"AfterTool": [{"matcher": f"{SHELL_TOOL}|mcp_.*", "hooks": entry}]}}, indent=2)
