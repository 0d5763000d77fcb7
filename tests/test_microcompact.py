"""`microcompact` on random conversations in all three formats: the input is never changed, the
last tool turns stay the very objects they were, nothing before them keeps reasoning or a
clearable result, no call or result is left alone, what people and the assistant wrote is all
still there, exempt results are whole, the report's figures are exact, and running it again
changes nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conversations import FORMATS, RENDER, Conversation, conversations
from readers import calls, exempt_by_default, orphans, reasoning_indexes, results, texts
from shapeclip import Store, microcompact
from shapeclip.messages import placeholder

formats = st.sampled_from(FORMATS)
modes = st.sampled_from(["placeholder", "remove"])


def kept_from(conversation: Conversation, messages: list[Any], fmt: str, keep_last: int) -> int:
    """Index of the first item of the `keep_last`-th last tool turn, found from the conversation."""
    turns = [turn for exchange in conversation.exchanges for turn in exchange.turns]
    if keep_last == 0:
        return len(messages)
    if len(turns) < keep_last:
        return 0
    turn = turns[-keep_last]
    index = next(index for index, call_id, _ in calls(messages, fmt) if call_id == turn.calls[0].id)
    if fmt == "openai_responses":  # reasoning and text are items of their own before the calls
        index -= (turn.reasoning is not None) + (turn.text is not None)
    return index


def json_chars(items: list[Any]) -> int:
    def plain(value: Any) -> Any:
        return value.model_dump(exclude_unset=True, mode="json", by_alias=True)

    return sum(len(json.dumps(item, ensure_ascii=False, separators=(",", ":"), default=plain)) for item in items)


@given(conversation=conversations, fmt=formats, models=st.booleans(), keep_last=st.integers(0, 4), mode=modes)
def test_old_turns_are_cleared_and_nothing_else_is_touched(
    conversation: Conversation, fmt: str, models: bool, keep_last: int, mode: str
) -> None:
    messages = RENDER[fmt](conversation, models)
    snapshot = copy.deepcopy(messages)
    out, report = microcompact(messages, keep_last=keep_last, mode=mode)  # type: ignore[arg-type]
    assert messages == snapshot
    assert not orphans(messages, fmt) and not orphans(out, fmt)
    assert texts(out, fmt) == texts(messages, fmt)

    cut = kept_from(conversation, messages, fmt, keep_last)
    kept = len(messages) - cut
    assert all(new is old for new, old in zip(out[len(out) - kept :], messages[cut:], strict=True))
    assert all(index >= len(out) - kept for index in reasoning_indexes(out, fmt))

    tools = {call.id: call for exchange in conversation.exchanges for turn in exchange.turns for call in turn.calls}
    before = {call_id: content for index, call_id, content in results(messages, fmt) if index < cut}
    after = {call_id: content for _, call_id, content in results(out, fmt)}
    for call_id, content in before.items():
        call = tools[call_id]
        if exempt_by_default(call.tool, call.arguments):
            assert after[call_id] == content
        elif mode == "remove":
            assert call_id not in after
        else:
            assert after[call_id] in (content, placeholder(call.tool))
    cleared = {result.call_id for result in report.cleared}
    assert cleared == {call_id for call_id in before if call_id not in after or after[call_id] != before[call_id]}

    assert report.applied and report.chars_saved == json_chars(messages) - json_chars(out)
    assert report.removed == len(messages) - len(out)
    first = report.first_changed
    unchanged = len(messages) if first is None else first
    assert all(new is old for new, old in zip(out[:unchanged], messages[:unchanged], strict=True))
    assert first is None or first == len(out) or out[first] is not messages[first]

    again, second = microcompact(out, keep_last=keep_last, mode=mode)  # type: ignore[arg-type]
    assert second.first_changed is None and len(again) == len(out)
    assert all(new is old for new, old in zip(again, out, strict=True))


@given(conversation=conversations, fmt=formats, threshold=st.integers(0, 30_000))
def test_a_clean_up_below_clear_at_least_changes_nothing(conversation: Conversation, fmt: str, threshold: int) -> None:
    messages = RENDER[fmt](conversation)
    out, report = microcompact(messages, keep_last=1, clear_at_least=threshold)
    assert report.applied == (report.tokens_saved >= threshold)
    if not report.applied:
        assert report.first_changed is None and all(new is old for new, old in zip(out, messages, strict=True))
        assert len(out) == len(messages)


def test_a_cleared_chat_result_says_which_tool_it_was() -> None:
    messages = [
        {"role": "user", "content": "look"},
        {
            "role": "assistant",
            "content": "Reading it.",
            "reasoning_content": "I should read the file first.",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "x" * 5000},
        {"role": "assistant", "content": "It is all x."},
    ]
    out, report = microcompact(messages, keep_last=0)
    assert out[2] == {"role": "tool", "tool_call_id": "c1", "content": placeholder("read_file")}
    assert "reasoning_content" not in out[1] and out[1]["content"] == "Reading it." and out[1]["tool_calls"]
    assert report.first_changed == 1 and [r.tool for r in report.cleared] == ["read_file"]
    assert report.tokens_saved == -(-report.chars_saved // 4) > 1000

    removed, gone = microcompact(messages, keep_last=0, mode="remove")
    assert removed == [messages[0], {"role": "assistant", "content": "Reading it."}, messages[3]]
    assert gone.removed == 1


@pytest.mark.parametrize("mode", ["placeholder", "remove"])
def test_an_id_several_calls_carry_is_left_alone(mode: str) -> None:
    # Some servers number calls afresh each turn: both old calls here are "call_0", the first
    # to an exempt tool. Which result is whose, only order says; neither may be cleared by id.
    def turn(call_id: str, tool: str, output: str) -> list[dict[str, Any]]:
        call = {"id": call_id, "type": "function", "function": {"name": tool, "arguments": "{}"}}
        return [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": output},
        ]

    messages = [{"role": "user", "content": "go"}, *turn("call_0", "todo_write", "1. fix the parser " * 200)]
    messages += turn("call_0", "bash", "y" * 3000) + turn("c1", "bash", "z" * 3000)
    for n in range(3):
        messages += turn(f"k{n}", "bash", "ok")
    out, report = microcompact(messages, keep_last=3, mode=mode)
    assert [r.call_id for r in report.cleared] == ["c1"]
    assert out[:5] == messages[:5]


def test_responses_items_lose_their_ids_with_their_reasoning() -> None:
    """A reasoning model refuses an item whose id ties it to a reasoning item that is not sent."""
    items = [
        {"role": "user", "content": "hi"},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "memory", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "remembered"},
        {"type": "reasoning", "id": "rs_2", "summary": []},
        {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
        {"role": "user", "content": "thanks"},
        {"type": "message", "id": "msg_2", "role": "assistant", "content": [{"type": "output_text", "text": "np"}]},
    ]
    out, report = microcompact(items, keep_last=0)
    assert out == [
        items[0],
        {"type": "function_call", "call_id": "c1", "name": "memory", "arguments": "{}"},
        items[3],
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
        items[6],
        items[7],
    ]
    assert out[5] is items[7] and report.cleared == () and report.removed == 2


def test_an_anthropic_message_left_empty_is_dropped_but_text_is_never() -> None:
    messages = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hmm", "signature": "s"},
                {"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "ls"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "a\n" * 300},
                {"type": "text", "text": "and?"},
            ],
        },
    ]
    out, report = microcompact(messages, keep_last=0, mode="remove")
    assert out == [messages[0], {"role": "user", "content": [{"type": "text", "text": "and?"}]}]
    assert report.removed == 1 and report.reasoning_chars > 0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"messages": b"x"}, TypeError),
        ({"keep_last": -1}, ValueError),
        ({"keep_last": "3"}, TypeError),
        ({"clear_at_least": -5}, ValueError),
        ({"mode": "drop"}, ValueError),
        ({"exempt": "memory"}, TypeError),
    ],
)
def test_bad_arguments_raise(kwargs: dict[str, Any], error: type[Exception]) -> None:
    arguments: dict[str, Any] = {"messages": [], **kwargs}
    with pytest.raises(error):
        microcompact(**arguments)


def test_with_a_store_a_cleared_result_says_how_to_read_it_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    output = "".join(f"line {i}\n" for i in range(2000))
    messages = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": output}]},
        {"role": "assistant", "content": "Read it."},
    ]
    out, report = microcompact(messages, keep_last=0, store=store)
    (cleared,) = report.cleared
    assert cleared.stored is not None and store.get(cleared.stored.id) == output
    assert out[1]["content"][0]["content"] == placeholder("bash", cleared.stored)
    assert f"shapeclip show {cleared.stored.id}" in placeholder("bash", cleared.stored)
    again, second = microcompact(out, keep_last=0, store=store)
    assert second.first_changed is None and again[1] is out[1]


def test_a_refused_clean_up_stores_nothing_and_a_failing_store_leaves_the_plain_placeholder(tmp_path: Path) -> None:
    messages = [
        {"type": "function_call", "call_id": "c1", "name": "grep", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "a.py:1:x\n" * 500},
    ]
    store = Store(tmp_path / "store")
    assert not microcompact(messages, keep_last=0, clear_at_least=10**9, store=store).report.applied
    assert not store.path.exists()
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    out, report = microcompact(messages, keep_last=0, store=Store(blocked))
    assert out[1]["output"] == placeholder("grep") and report.cleared[0].stored is None
