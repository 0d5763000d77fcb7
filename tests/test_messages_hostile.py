"""`compress_messages` and `microcompact` on what a model or a tool may make of a history:
arguments nested deeper than Python recurses, a result of hundreds of text blocks, a clean-up
whose stored copies' placeholders would be longer than what they replace."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from shapeclip import compress_messages, microcompact

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
