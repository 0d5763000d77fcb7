"""`compress_messages` on random conversations in all three formats: the input is never changed,
only compressed results are new objects (keeping every other key), budgets per result and per
turn hold against a reference, compressing again changes nothing, and results appended one at a
time get the very bytes they get appended together."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from conversations import FORMATS, RENDER, Conversation, conversations
from readers import exempt_by_default, get, results, text_chars
from shapeclip import Budget, Digest, Store, budget_for, compress_messages, microcompact
from shapeclip.messages import MIN_SHARE

formats = st.sampled_from(FORMATS)
budgets = st.builds(
    Budget,
    st.integers(40, 6000),
    st.integers(40, 20_000),
    st.sampled_from([{}, {"read_file": 300}, {"grep": 9000}]),
)
RESULT_KEY = {"openai_chat": "content", "openai_responses": "output", "anthropic": "content"}


def calls_in_turns(conversation: Conversation) -> list[list[Any]]:
    return [list(turn.calls) for exchange in conversation.exchanges for turn in exchange.turns]


def other_keys_kept(old: Any, new: Any, fmt: str) -> None:
    key = RESULT_KEY[fmt]
    assert {k: v for k, v in old.items() if k != key} == {k: v for k, v in new.items() if k != key}
    if fmt != "anthropic":
        return
    assert len(old["content"]) == len(new["content"])
    for was, now in zip(old["content"], new["content"], strict=True):
        if get(was, "type") == "tool_result":
            assert {k: v for k, v in was.items() if k != "content"} == {k: v for k, v in now.items() if k != "content"}
        else:
            assert now is was


@given(conversation=conversations, fmt=formats, models=st.booleans(), budget=budgets, data=st.data())
def test_only_compressed_results_change_and_the_input_never_does(
    conversation: Conversation, fmt: str, models: bool, budget: Budget, data: st.DataObject
) -> None:
    messages = RENDER[fmt](conversation, models)
    snapshot, identities = copy.deepcopy(messages), [id(item) for item in messages]
    start = data.draw(st.integers(0, len(messages)))
    out, report = compress_messages(messages, start=start, budget=budget)
    assert messages == snapshot and [id(item) for item in messages] == identities
    assert len(out) == len(messages)
    changed = {result.index for result in report.results if result.action == "compressed"}
    assert all(index >= start for index in changed)
    for index, (old, new) in enumerate(zip(messages, out, strict=True)):
        if index in changed:
            other_keys_kept(old, new, fmt)
        else:
            assert new is old
    again, second = compress_messages(out, start=start, budget=budget)
    assert all(new is old for new, old in zip(again, out, strict=True))
    assert all(result.action in ("fits", "exempt") for result in second.results)


@given(conversation=conversations, fmt=formats, budget=budgets, data=st.data())
def test_every_result_keeps_within_its_budget_and_its_turns_share(
    conversation: Conversation, fmt: str, budget: Budget, data: st.DataObject
) -> None:
    messages = RENDER[fmt](conversation)
    start = data.draw(st.integers(0, len(messages)))
    out = compress_messages(messages, start=start, budget=budget).messages
    before = {call_id: (index, content) for index, call_id, content in results(messages, fmt)}
    after = {call_id: content for _, call_id, content in results(out, fmt)}
    for turn in calls_in_turns(conversation):
        spent = 0  # the reference: first come, first served, never below MIN_SHARE
        for call in turn:
            index, content = before[call.id]
            if exempt_by_default(call.tool, call.arguments):
                assert after[call.id] == content
                continue
            if index < start:
                spent += text_chars(content)
                continue
            may_keep = min(budget.for_tool(call.tool), max(MIN_SHARE, budget.per_turn - spent))
            kept = text_chars(after[call.id])
            assert kept <= may_keep
            if text_chars(content) <= may_keep:
                assert after[call.id] is content
            spent += kept


@given(conversation=conversations, fmt=formats, budget=budgets)
def test_results_appended_one_at_a_time_get_the_bytes_of_a_whole_turn(
    conversation: Conversation, fmt: str, budget: Budget
) -> None:
    messages = RENDER[fmt](conversation)
    whole = compress_messages(messages, budget=budget).messages
    grown: list[Any] = []
    for item in messages:
        grown = compress_messages([*grown, item], start=len(grown), budget=budget).messages
    assert grown == whole


def test_a_result_is_compressed_under_its_tools_name_and_marked() -> None:
    log = "".join(f"step {i} ok\n" for i in range(3000)) + "error: the build failed\n"
    messages = [
        {"role": "user", "content": "build it"},
        {"role": "assistant", "content": None, "tool_calls": [_chat_call("c1", "bash", '{"command": "make"}')]},
        {"role": "tool", "tool_call_id": "c1", "content": log, "name": "bash"},
    ]
    out, report = compress_messages(messages, budget=2000)
    (result,) = report.results
    assert (result.tool, result.action, result.shape, result.chars_in) == ("bash", "compressed", "log", len(log))
    assert len(out[2]["content"]) == result.chars_out <= 2000 and out[2]["name"] == "bash"
    assert "error: the build failed" in out[2]["content"] and "sed -n" in out[2]["content"]
    assert report.tokens_saved == result.tokens_in - result.tokens_out > 0


def test_images_and_other_blocks_of_a_result_stay_where_they_were() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": [image, {"type": "text", "text": "x\n" * 5000}]}
    messages = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "screenshot", "input": {}}]},
        {"role": "user", "content": [result, {"type": "text", "text": "and now?"}]},
    ]
    out = compress_messages(messages, budget=1000).messages
    blocks = out[1]["content"]
    assert blocks[0]["content"][0] is image and len(blocks[0]["content"][1]["text"]) <= 1000
    assert blocks[1] is messages[1]["content"][1]


def test_shapeclips_own_retrieval_command_is_exempt_and_exempt_can_be_changed() -> None:
    show = '{"command": "shapeclip show 3fa2 --lines 1:5000"}'
    messages = [
        {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": show},
        {"type": "function_call_output", "call_id": "c1", "output": "y\n" * 5000},
    ]
    assert compress_messages(messages, budget=1000).messages[1] is messages[1]
    assert len(compress_messages(messages, budget=1000, exempt=()).messages[1]["output"]) <= 1000


def test_budget_for_scales_with_the_window_between_floor_and_cap() -> None:
    assert budget_for(128_000) == Budget(16_000, 64_000) == shapeclip.messages.DEFAULT_MESSAGE_BUDGET
    assert budget_for(200_000).per_result == 25_000
    assert budget_for(8_000) == Budget(2_000, 8_000)
    assert budget_for(2_000_000) == Budget(50_000, 200_000)
    assert Budget(tools={" Read_File": 900}).for_tool("READ_FILE") == 900
    with pytest.raises(ValueError):
        Budget(tools={"bash": 0})


def test_a_digest_is_written_into_a_compressed_result() -> None:
    messages = [
        {"role": "assistant", "content": None, "tool_calls": [_chat_call("c1", "bash", "{}")]},
        {"role": "tool", "tool_call_id": "c1", "content": "".join(f"line {i}\n" for i in range(20_000))},
    ]
    out, report = compress_messages(
        messages, budget=4000, digest=Digest(lambda text, tool: "all lines count up", cache={})
    )
    assert "all lines count up" in out[1]["content"] and len(out[1]["content"]) <= 4000
    digest = report.results[0].compressions[0].digest
    assert digest is not None and not digest.fell_back


def test_the_async_form_awaits_an_async_digest_and_agrees() -> None:
    async def digest(text: str, tool: str) -> str:
        return "counted lines"

    messages = [
        {"role": "assistant", "content": None, "tool_calls": [_chat_call("c1", "bash", "{}")]},
        {"role": "tool", "tool_call_id": "c1", "content": "".join(f"line {i}\n" for i in range(20_000))},
    ]
    cache: dict[str, str] = {}
    awaited = asyncio.run(shapeclip.acompress_messages(messages, budget=4000, digest=Digest(digest, cache=cache)))
    assert "counted lines" in awaited.messages[1]["content"]
    assert compress_messages(messages, budget=4000, digest=Digest(digest, cache=cache)).messages == awaited.messages


def test_with_a_store_a_compressed_result_points_into_its_stored_copy(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    output = "".join(f"line {i}\n" for i in range(20_000))
    messages = [
        {"type": "function_call", "call_id": "c1", "name": "bash", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": output},
    ]
    out, report = compress_messages(messages, budget=4000, store=store)
    stored = report.results[0].compressions[0].stored
    assert stored is not None and store.get(stored.id) == output
    assert f"shapeclip show {stored.id}" in out[1]["output"] and len(out[1]["output"]) <= 4000
    assert compress_messages(out, budget=4000, store=store).messages[1] is out[1]
    with pytest.raises(TypeError):
        compress_messages(messages, store=str(tmp_path))  # type: ignore[arg-type]


def test_a_list_without_tool_traffic_comes_back_as_it_was() -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    out, report = compress_messages(messages)
    assert out == messages and out is not messages and report.results == ()


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"messages": "hello"}, TypeError),
        ({"start": -1}, ValueError),
        ({"start": 1.5}, TypeError),
        ({"budget": 0}, ValueError),
        ({"budget": "big"}, TypeError),
        ({"exempt": "memory"}, TypeError),
        ({"digest": "yes"}, TypeError),
        ({"digest_timeout": 5}, TypeError),  # replaced by Digest(fn, timeout=...)
    ],
)
def test_bad_arguments_raise_before_anything_is_done(kwargs: dict[str, Any], error: type[Exception]) -> None:
    arguments: dict[str, Any] = {"messages": [{"role": "user", "content": "hi"}], **kwargs}
    with pytest.raises(error):
        compress_messages(**arguments)


def test_a_list_that_mixes_formats_is_refused() -> None:
    messages = [
        {"role": "tool", "tool_call_id": "a", "content": "x"},
        {"type": "function_call_output", "call_id": "b", "output": "y"},
    ]
    with pytest.raises(ValueError, match="mix two formats"):
        compress_messages(messages)


def _chat_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _chat_turn(call_id: str, name: object, output: str) -> list[dict[str, Any]]:
    call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "content": output},
    ]


def test_a_result_answers_the_latest_call_before_it_with_its_id() -> None:
    # Some servers number calls afresh each turn: `call_0` of turn 2 is another call.
    log = "".join(f"line {i} of a long log\n" for i in range(2_000))
    messages = [*_chat_turn("call_0", "memory", log), *_chat_turn("call_0", "bash", log)]
    together = compress_messages(messages)
    apart = compress_messages(messages[:2]).messages + compress_messages(messages, start=2).messages[2:]
    assert [(r.tool, r.action) for r in together.report.results] == [("memory", "exempt"), ("bash", "compressed")]
    assert together.messages == apart and together.messages[1]["content"] == log


def test_a_call_whose_name_is_not_a_string_names_no_tool() -> None:
    log = "".join(f"line {i} of a long log\n" for i in range(2_000))
    for name in (7, None, ["bash"], {"x": 1}):
        compressed = compress_messages(_chat_turn("c1", name, log))
        assert compressed.report.results[0].tool is None and len(compressed.messages[1]["content"]) < len(log)


@pytest.mark.parametrize("tools", [{1: 100}, ["bash"], "bash"])
def test_a_tools_budget_that_is_no_mapping_of_names_is_a_clear_error(tools: Any) -> None:
    with pytest.raises(TypeError, match="tools must map tool names"):
        Budget(tools=tools)


def test_blocks_joined_into_one_pass_their_other_keys_to_it() -> None:
    # A prompt-cache breakpoint on the last of many text blocks must survive their joining.
    blocks: list[dict[str, Any]] = [{"type": "text", "text": f"row {i} " * 60} for i in range(60)]
    blocks[-1]["cache_control"] = {"type": "ephemeral"}
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}}
    messages = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "ci_log", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [*blocks, image]}]},
    ]
    content = compress_messages(messages, budget=Budget(4_000, 16_000)).messages[1]["content"][0]["content"]
    assert len(content) == 2 and content[1] == image
    assert content[0]["cache_control"] == {"type": "ephemeral"} and len(content[0]["text"]) <= 4_000


def _shell_turn(stdout: str, stderr: str = "") -> list[dict[str, Any]]:
    """A Responses history with one `shell_call` and its `shell_call_output`, as the API takes them."""
    action = {"commands": ["python -m pytest -q"], "timeout_ms": 60_000}
    entry = {"stdout": stdout, "stderr": stderr, "outcome": {"type": "exit", "exit_code": 1}}
    return [
        {"role": "user", "content": "run the tests"},
        {"type": "shell_call", "call_id": "sh1", "action": action, "status": "completed"},
        {"type": "shell_call_output", "call_id": "sh1", "output": [entry], "max_output_length": 100_000},
    ]


def test_a_responses_shell_calls_streams_are_compressed_and_its_outcome_kept() -> None:
    from openai.types.responses.response_input_item_param import ShellCallOutput
    from pydantic import TypeAdapter

    log = "".join(f"tests/test_m{i}.py ........ [{i % 100}%]\n" for i in range(2000))
    log += "FAILED tests/test_m7.py::test_parse - ValueError: x\n1 failed, 2000 passed in 9.1s\n"
    messages = _shell_turn(log, stderr="warning: slow\n")
    out, report = compress_messages(messages, budget=2000)
    (result,) = report.results
    assert (result.tool, result.action, result.shape) == ("shell", "compressed", "log")
    (entry,) = out[2]["output"]
    assert len(entry["stdout"]) <= 2000 and "1 failed, 2000 passed" in entry["stdout"]
    assert entry["stderr"] == "warning: slow\n" and entry["outcome"] == {"type": "exit", "exit_code": 1}
    assert out[2]["max_output_length"] == 100_000 and out[1] is messages[1]
    TypeAdapter(ShellCallOutput).validate_python(out[2])


def test_a_local_shell_call_is_paired_by_call_id_or_id_and_read_by_its_command() -> None:
    source = "".join(f"def handler_{i}(event):\n    return route(event, {i})\n\n" for i in range(600))
    call = {
        "type": "local_shell_call",
        "id": "lsh_1",
        "call_id": "call_1",
        "action": {"type": "exec", "command": ["bash", "-lc", "cat app/handlers.py"], "env": {}},
        "status": "completed",
    }
    for pairing in ({"call_id": "call_1"}, {"id": "call_1"}):
        output = {"type": "local_shell_call_output", **pairing, "output": source}
        out, report = compress_messages([call, output], budget=2000)
        (result,) = report.results
        assert (result.tool, result.shape) == ("local_shell", "read"), pairing
        assert out[1]["output"].startswith("def handler_0(event):") and len(out[1]["output"]) <= 2000


def test_microcompact_clears_a_shell_call_output_and_keeps_each_entrys_outcome() -> None:
    messages = _shell_turn("ok\n" * 3000, stderr="warning\n" * 100)
    first = dict(messages[2])
    first["output"] = [*messages[2]["output"], {"stdout": "x", "stderr": "", "outcome": {"type": "timeout"}}]
    later = _shell_turn("done\n")
    later[1] = {**later[1], "call_id": "sh2"}
    later[2] = {**later[2], "call_id": "sh2"}
    cleared = microcompact([*messages[:2], first, *later], keep_last=1).messages
    entries = cleared[2]["output"]
    assert [e["outcome"] for e in entries] == [{"type": "exit", "exit_code": 1}, {"type": "timeout"}]
    assert "shell" in entries[0]["stdout"] and len(entries[0]["stdout"]) < 200
    assert [entries[0]["stderr"], entries[1]["stdout"], entries[1]["stderr"]] == ["", "", ""]
    assert cleared[5] is later[2]


def test_codexs_exec_command_is_a_shell_and_its_cmd_the_command() -> None:
    source = "".join(f"def handler_{i}(event):\n    return route(event, {i})\n\n" for i in range(600))
    arguments = '{"cmd": "sed -n 1,2000p app/handlers.py", "yield_time_ms": 1000}'
    messages = [
        {"role": "assistant", "content": None, "tool_calls": [_chat_call("c1", "exec_command", arguments)]},
        {"role": "tool", "tool_call_id": "c1", "content": source},
    ]
    out, report = compress_messages(messages, budget=2000)
    (result,) = report.results
    assert (result.tool, result.shape) == ("exec_command", "read")
    assert "re-run | sed -n" in out[1]["content"]


def test_shapeclips_own_retrieval_run_by_a_responses_shell_tool_is_exempt() -> None:
    show = "shapeclip show 3fa2 --lines 1:5000"
    entry = {"stdout": "x\n" * 5000, "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
    shell = [
        {"type": "shell_call", "call_id": "a", "action": {"commands": [show]}},
        {"type": "shell_call_output", "call_id": "a", "output": [entry]},
    ]
    argv = {"type": "exec", "command": ["bash", "-lc", show], "env": {}}
    local = [
        {"type": "local_shell_call", "id": "l", "call_id": "a", "action": argv, "status": "completed"},
        {"type": "local_shell_call_output", "call_id": "a", "output": "x\n" * 5000},
    ]
    for messages in (shell, local):
        out, report = compress_messages(messages, budget=1000)
        assert [r.action for r in report.results] == ["exempt"] and out[1] is messages[1]
