"""`compress_messages` and `microcompact` on what a model or a tool may make of a history:
arguments nested deeper than Python recurses, a result of hundreds of text blocks, a clean-up
whose stored copies' placeholders would be longer than what they replace."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from shapeclip import Store, compress_messages, microcompact
from shapeclip.messages import placeholder

DEPTH = sys.getrecursionlimit() * 2


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"command": "make test"}
    for _ in range(depth):
        value = {"a": value}
    return value


def _chat(arguments: str, content: Any) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": arguments}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": content},
        {"role": "assistant", "content": "done"},
    ]


def _anthropic(arguments: Any, content: Any) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": arguments}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": content}]},
        {"role": "assistant", "content": "done"},
    ]


@pytest.mark.parametrize(
    "messages",
    [
        _chat("[" * DEPTH, "x" * 20_000),
        _chat("[" * DEPTH + "]" * DEPTH, "x" * 20_000),
        _chat(json.dumps(["make"])[:-1] + ", " + "[" * DEPTH, "x" * 20_000),
        _anthropic(_nested(DEPTH), "y" * 20_000),
    ],
    ids=["chat-open-brackets", "chat-closed-brackets", "chat-argv-then-brackets", "anthropic-nested-input"],
)
def test_issue_27_item_19_arguments_nested_past_the_recursion_limit_are_read(messages: list[Any]) -> None:
    _, report = compress_messages(messages, budget=2_000)
    assert [r.action for r in report.results] == ["compressed"] and report.tokens_saved > 0
    cleared, cleaning = microcompact(messages, keep_last=0)
    assert cleaning.applied and len(cleaning.cleared) == 1 and cleaning.chars_saved > 19_000
    assert cleared[1] is messages[1]


def test_issue_27_item_20_a_stored_clean_up_never_makes_a_history_longer(tmp_path: Path) -> None:
    store = Store(tmp_path / "a store with a long enough name to matter" / ("deeper " * 8))
    plain = len(placeholder("bash"))
    for extra in (1, 40, 120, 400):
        messages = _chat("{}", "z" * (plain + extra))
        before = len(json.dumps(messages, separators=(",", ":"), ensure_ascii=False))
        cleared, report = microcompact(messages, keep_last=0, store=store)
        after = len(json.dumps(cleared, separators=(",", ":"), ensure_ascii=False))
        assert report.chars_saved == before - after >= 0 and report.tokens_saved >= 0, extra
        assert report.applied and (report.chars_saved > 0) == (report.cleared != ()), extra
        for entry in (c.stored for c in report.cleared):
            assert entry is None or store.get(entry.id) == "z" * (plain + extra)


def test_issue_27_item_20_a_result_of_many_text_blocks_keeps_a_marker_and_a_way_back(tmp_path: Path) -> None:
    blocks = [{"type": "text", "text": f"block {i} " * 10} for i in range(300)]
    messages = _chat("{}", blocks)
    compressed, report = compress_messages(messages, budget=1_000, store=Store(tmp_path / "s"))
    texts = [part["text"] for part in compressed[2]["content"]]
    joined = "".join(texts)
    assert len(texts) == 1 and report.results[0].chars_out == len(joined)
    assert len(joined) <= 1_000 and "shapeclip show" in joined and "\u2026\n" not in joined
    assert joined.startswith("block 0 ") and "block 299 " in joined
    again, second = compress_messages(compressed, budget=1_000)
    assert again[2] is compressed[2] and [r.action for r in second.results] == ["fits"]
