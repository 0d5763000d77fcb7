"""Claude Code: a `PreToolUse` hook on Bash, a `PostToolUse` hook on MCP tools.

The Bash tool's output cannot be replaced after it ran: Claude Code ignores a PostToolUse
`updatedToolOutput` for Bash (anthropics/claude-code#54196, #67442, #68951), and cuts Bash
output itself at 30,000 characters. So the command is rewritten before it runs
(`hookSpecificOutput.updatedInput`, which replaces the whole tool input) to run under
shapeclip. Claude Code's permission rules would then see the rewritten command, so the
answer carries the decision Claude Code would have made for the original one
(`claude_permissions`): "allow" only where the user's rules or mode allow it, "ask" (which
Claude Code takes with `updatedInput` since 2.1.0: "hooks as middleware while still requesting
user consent") where it would have prompted, and no answer at all where a deny or ask rule
could apply. An MCP tool's output is replaced after it ran
(`hookSpecificOutput.updatedMCPToolOutput`, "for MCP tools only: replaces the tool's output
with the provided value" in the hooks reference, code.claude.com/docs/en/hooks).
"""

from __future__ import annotations

import json
import os
from typing import Any

from . import claude_permissions, command
from .output import Settings, compressed_and_stored

NAME = "claude-code"


def rewritten_input(event: dict[str, Any], settings: Settings) -> dict[str, Any] | None:
    """The tool input that runs `tool_input.command` under shapeclip, every other field kept;
    None when the command is to be left as it is."""
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return None
    # A background command's output is read later, in pieces; it is no output to compress now.
    if tool_input.get("run_in_background") or command.why_not_wrapped(tool_input["command"]) is not None:
        return None
    return {**tool_input, "command": command.wrapped(tool_input["command"], settings.budget, settings.argv)}


def _permission_rules(event: dict[str, Any]) -> claude_permissions.Rules:
    cwd = event.get("cwd")
    cwd = cwd if isinstance(cwd, str) and cwd else None
    project = os.environ.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd()
    return claude_permissions.load(os.path.expanduser("~"), project, cwd)


def rewrite_bash(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """The PreToolUse answer that runs the Bash command under shapeclip with the permission
    decision Claude Code would have made for it, or {} to leave it to Claude Code."""
    new_input = rewritten_input(event, settings)
    if new_input is None:
        return {}
    mode = event.get("permission_mode")
    original = event["tool_input"]["command"]
    rules = _permission_rules(event)
    decision = claude_permissions.decide(original, mode if isinstance(mode, str) and mode else "default", rules)
    if decision is None:
        return {}
    out = {"hookEventName": "PreToolUse", "permissionDecision": decision, "updatedInput": new_input}
    if decision == "ask":  # shown in the prompt, above a command the user did not write
        out["permissionDecisionReason"] = f"shapeclip compresses the output of: {original}"
    return {"hookSpecificOutput": out}


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    kind = event.get("hook_event_name")
    if kind == "PreToolUse" and tool == "Bash":
        return rewrite_bash(event, settings)
    if kind == "PostToolUse" and isinstance(tool, str) and tool.startswith("mcp__"):
        replaced = compressed_and_stored(event.get("tool_response"), tool, settings.budget)
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
