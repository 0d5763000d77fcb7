"""Codex CLI: a `PostToolUse` hook that replaces what the shell and MCP tools returned.

The hook decides nothing about what runs. It used to rewrite shell commands from PreToolUse,
which Codex accepts only together with `permissionDecision: "allow"` (codex-rs/hooks,
`permission_decision_allow_can_update_input`), so every rewritten command, `rm -rf build`
among them, skipped Codex's own approval. That answer is gone, and no answer of this hook
carries a permission decision.

Codex has no `updatedToolOutput` (openai/codex#38135 asks for it; #20703 was closed unmerged,
and an `updatedMCPToolOutput` answer fails the hook). What it has: a PostToolUse answer
`decision: "block"` with a `reason` "replaces the tool result with that feedback" (Codex's
hooks docs; `codex-rs/core/src/tools/registry.rs` puts `FunctionToolOutput::from_text(reason)`
in place of the result). So when the output does not fit, the answer is that, with the
compressed text as the reason: the model reads the compressed output and nothing else. The
cost: Codex shows and logs the call as blocked by a hook. The command itself has already run;
a block undoes nothing.

Codex hands a shell tool's output as a plain string, and an MCP tool's as the MCP call result
(`{"content": [...]}`), whose text blocks are compressed together as one text.
"""

from __future__ import annotations

import json

from ..fit import fits
from .output import Settings, compressed_text

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Any

NAME = "codex"


def _text(response: object) -> str | None:
    """The text the model would read: a shell tool's string, or an MCP result's text blocks."""
    if isinstance(response, str):
        return response
    content = response.get("content") if isinstance(response, dict) else None
    if not isinstance(content, list):
        return None
    texts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    # Blocks that are not text (images) cannot be put in a reason: such a result is left alone.
    return "\n".join(texts) if texts and len(texts) == len(content) else None


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    if event.get("hook_event_name") != "PostToolUse" or not isinstance(tool, str):
        return {}
    text = _text(event.get("tool_response"))
    if text is None or fits(len(text), settings.budget):
        return {}
    kind = "bash" if tool == "Bash" else tool
    return {"decision": "block", "reason": compressed_text(text, kind, settings.budget)}


def config(hook_command: str) -> str:
    """The contents of ~/.codex/hooks.json (or a trusted project's .codex/hooks.json)."""
    entry = [{"type": "command", "command": hook_command}]
    return json.dumps({"hooks": {"PostToolUse": [{"matcher": "Bash|mcp__.*", "hooks": entry}]}}, indent=2)
