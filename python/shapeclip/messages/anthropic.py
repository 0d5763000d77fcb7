"""Anthropic Messages: calls are `tool_use` blocks of an assistant message, results are
`tool_result` blocks of the next user message naming their call by `tool_use_id`, reasoning is
`thinking` and `redacted_thinking` blocks.

A result's content is a string or a list of blocks; only its text blocks are text, and images,
documents and any other block stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .conversation import Transcript, TranscriptBuilder
from .items import field, updated, with_pieces

REASONING_BLOCKS = frozenset({"thinking", "redacted_thinking"})


def _blocks(item: Any) -> list[Any]:
    content = field(item, "content")
    return list(content) if isinstance(content, (list, tuple)) else []


class AnthropicMessages:
    name = "anthropic"

    def recognises(self, item: Any) -> bool:
        kinds = {"tool_use", "tool_result"} | REASONING_BLOCKS
        return any(field(block, "type") in kinds for block in _blocks(item))

    def scan(self, messages: Sequence[Any]) -> Transcript:
        found = TranscriptBuilder()
        for index, item in enumerate(messages):
            blocks = _blocks(item)
            if field(item, "role") == "assistant":
                uses = [block for block in blocks if field(block, "type") == "tool_use"]
                if uses:
                    found.turn(index, [(index, field(u, "id"), field(u, "name"), field(u, "input")) for u in uses])
            elif field(item, "role") == "user":
                for slot, block in enumerate(blocks):
                    if field(block, "type") == "tool_result":
                        found.result(index, slot, field(block, "tool_use_id"), field(block, "content"))
        return found.transcript()

    def with_results(self, item: Any, pieces: Mapping[int | None, Sequence[str]]) -> Any:
        blocks = _blocks(item)
        for slot, new in pieces.items():
            assert slot is not None  # Anthropic results are always blocks
            blocks[slot] = updated(blocks[slot], {"content": with_pieces(field(blocks[slot], "content"), new)})
        return updated(item, {"content": blocks})
