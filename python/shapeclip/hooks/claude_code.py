"""Claude Code: a `PreToolUse` hook on Bash, a `PostToolUse` hook on MCP tools.

The Bash tool's output cannot be replaced after it ran: Claude Code ignores a PostToolUse
`updatedToolOutput` for Bash (anthropics/claude-code#54196, #67442, #68951), and cuts Bash
output itself at 30,000 characters. So the command is rewritten before it runs
(`hookSpecificOutput.updatedInput`, which replaces the whole tool input, with
`permissionDecision: "allow"`) to run under shapeclip. An MCP tool's output is replaced after
it ran (`hookSpecificOutput.updatedMCPToolOutput`, "for MCP tools only: replaces the tool's
output with the provided value" in the hooks reference, code.claude.com/docs/en/hooks).
"""

from __future__ import annotations

import json
from typing import Any

from ..store import Store
from . import command
from .output import Settings, compressed_output

NAME = "claude-code"


def rewrite_shell(event: dict[str, Any], settings: Settings, event_name: str) -> dict[str, Any]:
    """The PreToolUse answer that runs `tool_input.command` under shapeclip, or {} to leave it."""
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return {}
    # A background command's output is read later, in pieces; it is no output to compress now.
    if tool_input.get("run_in_background") or command.why_not_wrapped(tool_input["command"]) is not None:
        return {}
    new = command.wrapped(tool_input["command"], settings.budget, settings.argv)
    return {
        "hookSpecificOutput": {
            "hookEventName": event_name,
            "permissionDecision": "allow",
            "updatedInput": {**tool_input, "command": new},
        }
    }


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    kind = event.get("hook_event_name")
    if kind == "PreToolUse" and tool == "Bash":
        return rewrite_shell(event, settings, "PreToolUse")
    if kind == "PostToolUse" and isinstance(tool, str) and tool.startswith("mcp__"):
        replaced = compressed_output(event.get("tool_response"), tool, settings.budget, Store())
        if replaced is not None:
            return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedMCPToolOutput": replaced}}
    return {}


def config(hook_command: str) -> str:
    """The `hooks` block of ~/.claude/settings.json (or a project's .claude/settings.json)."""
    entry = [{"type": "command", "command": hook_command}]
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": entry}],
        "PostToolUse": [{"matcher": "mcp__.*", "hooks": entry}],
    }
    return json.dumps({"hooks": hooks}, indent=2)
