"""Anthropic Messages: calls are `tool_use` blocks of an assistant message, results are
`tool_result` blocks of the next user message naming their call by `tool_use_id`, reasoning is
`thinking` and `redacted_thinking` blocks.

A result's content is a string or a list of blocks; only its text blocks are text, and images,
documents and any other block stay as they are. A message whose last block goes is dropped
rather than sent empty, which the API refuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .conversation import Clearing, Transcript, TranscriptBuilder
from .items import field, updated, with_pieces

REASONING_BLOCKS = frozenset({"thinking", "redacted_thinking"})


def _blocks(item: Any) -> list[Any]:
    content = field(item, "content")
    return list(content) if isinstance(content, (list, tuple)) else []


def _with_blocks(item: Any, blocks: list[Any], before: list[Any]) -> Any:
    """`item` with `blocks` for content: itself when nothing went, None when nothing is left."""
    if len(blocks) == len(before) and all(new is old for new, old in zip(blocks, before, strict=True)):
        return item
    return updated(item, {"content": blocks}) if blocks else None


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

    def strip_reasoning(self, items: Sequence[Any]) -> list[Any]:
        stripped = []
        for item in items:
            blocks = _blocks(item)
            if field(item, "role") != "assistant":
                stripped.append(item)
                continue
            stripped.append(_with_blocks(item, [b for b in blocks if field(b, "type") not in REASONING_BLOCKS], blocks))
        return stripped

    def clear_pairs(self, items: Sequence[Any], clearing: Clearing) -> list[Any]:
        cleared = []
        for item in items:
            blocks = _blocks(item)
            kept = []
            for block in blocks:
                kind = field(block, "type")
                call_id = field(block, "id" if kind == "tool_use" else "tool_use_id")
                if kind not in ("tool_use", "tool_result") or call_id not in clearing.call_ids:
                    kept.append(block)
                elif clearing.placeholders is None:
                    continue
                elif kind == "tool_result":
                    kept.append(updated(block, {"content": clearing.placeholders[call_id]}))
                else:
                    kept.append(block)
            cleared.append(_with_blocks(item, kept, blocks))
        return cleared
