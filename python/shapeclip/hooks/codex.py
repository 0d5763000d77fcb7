"""Codex CLI: a `PostToolUse` hook, for the day Codex takes a replaced output.

The hook decides nothing about what runs. It used to rewrite shell commands from PreToolUse,
which Codex accepts only together with `permissionDecision: "allow"` (codex-rs/hooks,
`permission_decision_allow_can_update_input`), so every rewritten command, `rm -rf build`
among them, skipped Codex's own approval. That answer is gone, and no answer of this hook
carries a permission decision.

Codex does not yet replace a tool's output from `PostToolUse` (openai/codex#38135: it rejects
`updatedMCPToolOutput` and has no `updatedToolOutput`; #20703, which would add the latter, was
not merged). A PostToolUse event gets the answer #20703 specifies, `updatedToolOutput` in the
shape of `tool_response`, which Codex today reports as unsupported and ignores: the call goes
on unchanged, and so does the output the model reads.
"""

from __future__ import annotations

import json
from typing import Any

from .output import Settings, compressed_and_stored

NAME = "codex"


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    if event.get("hook_event_name") == "PostToolUse" and isinstance(tool, str):
        replaced = compressed_and_stored(event.get("tool_response"), tool, settings.budget)
        if replaced is not None:
            return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": replaced}}
    return {}


def config(hook_command: str) -> str:
    """The contents of ~/.codex/hooks.json (or a trusted project's .codex/hooks.json)."""
    hooks = {"PostToolUse": [{"matcher": ".*", "hooks": [{"type": "command", "command": hook_command}]}]}
    return json.dumps({"hooks": hooks}, indent=2)
