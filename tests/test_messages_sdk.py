"""Histories that `compress_messages` and `microcompact` made, sent through the official `openai`
and `anthropic` SDK clients to the loopback server, which refuses any request whose history
breaks the APIs' rules (a result without its call, a call without its result, an item without
the reasoning its id ties it to)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conversations import FORMATS, RENDER, Conversation, conversations
from llm_server import serve
from shapeclip import compress_messages, microcompact


@pytest.fixture(scope="module")
def clients() -> Iterator[tuple[openai.OpenAI, anthropic.Anthropic]]:
    """One client of each SDK for the module: making one costs a tenth of a second."""
    with serve() as running:
        host, port = running.server_address
        yield (
            openai.OpenAI(api_key="test", base_url=f"http://{host}:{port}/v1", max_retries=0),
            anthropic.Anthropic(api_key="test", base_url=f"http://{host}:{port}", max_retries=0),
        )


def send(clients: tuple[openai.OpenAI, anthropic.Anthropic], fmt: str, history: list[Any]) -> None:
    """Sends `history` as the SDK sends it; the server answers 400, and the SDK raises, if the
    history breaks the API's rules."""
    openai_client, anthropic_client = clients
    if fmt == "anthropic":
        anthropic_client.messages.create(model="normal", max_tokens=64, messages=history)
    elif fmt == "openai_chat":
        openai_client.chat.completions.create(model="normal", messages=history)
    else:
        openai_client.responses.create(model="normal", input=history)


@given(
    conversation=conversations,
    fmt=st.sampled_from(FORMATS),
    models=st.booleans(),
    per_result=st.integers(100, 5000),
    keep_last=st.integers(0, 3),
    mode=st.sampled_from(["placeholder", "remove"]),
    data=st.data(),
)
def test_every_history_made_is_one_the_api_accepts(
    clients: tuple[openai.OpenAI, anthropic.Anthropic],
    conversation: Conversation,
    fmt: str,
    models: bool,
    per_result: int,
    keep_last: int,
    mode: str,
    data: st.DataObject,
) -> None:
    messages = RENDER[fmt](conversation, models)
    send(clients, fmt, messages)  # the conversations drawn are valid to begin with
    start = data.draw(st.integers(0, len(messages)))
    compressed = compress_messages(messages, start=start, budget=per_result).messages
    send(clients, fmt, compressed)
    cleared = microcompact(compressed, keep_last=keep_last, mode=mode).messages  # type: ignore[arg-type]
    send(clients, fmt, cleared)


def test_the_server_refuses_a_result_without_its_call(clients: tuple[openai.OpenAI, anthropic.Anthropic]) -> None:
    orphan = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "nowhere", "content": "x"}]
    with pytest.raises(openai.BadRequestError, match="must respond to a preceding"):
        send(clients, "openai_chat", orphan)
    unanswered = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]},
    ]
    with pytest.raises(anthropic.BadRequestError, match="without tool_result"):
        send(clients, "anthropic", unanswered)
    untied = [
        {"role": "user", "content": "hi"},
        {"type": "function_call", "id": "fc_1_rs_9", "call_id": "c1", "name": "bash", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"},
    ]
    with pytest.raises(openai.BadRequestError, match="required 'reasoning' item"):
        send(clients, "openai_responses", untied)
