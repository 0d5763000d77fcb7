"""Codex CLI: a `PreToolUse` hook on its shell tool.

Codex hands every shell-like tool to hooks as `Bash` with `tool_input: {"command": ...}` and
accepts `updatedInput` only together with `permissionDecision: "allow"` (openai/codex#20527;
codex-rs/hooks/src/events/pre_tool_use.rs, test `permission_decision_allow_can_update_input`),
the same answer as Claude Code's.

Codex does not replace a tool's output from `PostToolUse` (as of openai/codex#38135, open
August 2026: it rejects `updatedMCPToolOutput` and has no `updatedToolOutput`; #20703, which
would add it, was not merged), so a PostToolUse event gets the answer that #20703 specifies,
`updatedToolOutput` in the shape of `tool_response`, which Codex today reports as
unsupported and ignores: the call goes on unchanged. The printed config leaves it out.
"""

from __future__ import annotations

import json
from typing import Any

from .claude_code import rewritten_input
from .output import Settings, compressed_and_stored

NAME = "codex"


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    kind = event.get("hook_event_name")
    if kind == "PreToolUse" and tool == "Bash":
        new_input = rewritten_input(event, settings)
        if new_input is None:
            return {}
        decision = {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": new_input}
        return {"hookSpecificOutput": decision}
    if kind == "PostToolUse" and isinstance(tool, str):
        replaced = compressed_and_stored(event.get("tool_response"), tool, settings.budget)
        if replaced is not None:
            return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": replaced}}
    return {}


def config(hook_command: str) -> str:
    """The contents of ~/.codex/hooks.json (or a trusted project's .codex/hooks.json)."""
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": hook_command}]}]}
    return json.dumps({"hooks": hooks}, indent=2)
