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

Codex saves hook feedback of more than 2,500 of its tokens (a token being 4 bytes) to a file
and shows the model only a head and a tail of it (`HOOK_OUTPUT_TOKEN_LIMIT` in
codex-rs/hooks/src/output_spill.rs, applied to PostToolUse feedback in
codex-rs/hooks/src/engine/mod.rs), which would cut the compressed text again, blindly. So a
reason is held to 10,000 bytes of UTF-8 as well as to the budget.

Codex hands a shell tool's output as a plain string without its exit status, which only the
model's own copy carries (`post_tool_use_response` of the exec output in
codex-rs/core/src/tools/context.rs), and an MCP tool's as
the MCP call result (`{"content": [...]}`), whose text blocks are compressed together as one
text. A block replaces the whole result, status line and all, and the hook cannot put it back:
a cut shell result says so in its last line, so that the model does not take it for a success.
"""

from __future__ import annotations

import json

from ..fit import fits
from .output import Settings, compressed_text, joined_text, shell_command

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Any

NAME = "codex"


#: The most bytes of feedback Codex hands the model whole.
REASON_BYTES = 10_000
#: The last line of a cut shell result, in place of the status the block drops.
NO_STATUS = "\n[shapeclip: Codex hands hooks no exit status, so this result cannot show it]"


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    if event.get("hook_event_name") != "PostToolUse" or not isinstance(tool, str):
        return {}
    response = event.get("tool_response")
    text = joined_text(response.get("content") if isinstance(response, dict) else response)
    if text is None or fits(len(text), settings.budget):
        return {}
    shell = isinstance(response, str)
    note = NO_STATUS if shell else ""
    room = max(settings.budget - len(note), 1)
    reason = compressed_text(
        text, "bash" if tool == "Bash" else tool, room, REASON_BYTES - len(note), command=shell_command(event)
    )
    return {"decision": "block", "reason": reason + note}


def config(hook_command: str) -> str:
    """The contents of ~/.codex/hooks.json (or a trusted project's .codex/hooks.json)."""
    entry = [{"type": "command", "command": hook_command}]
    return json.dumps({"hooks": {"PostToolUse": [{"matcher": "Bash|mcp__.*", "hooks": entry}]}}, indent=2)
