"""Hypothesis strategies for agent conversations, written once and rendered in each provider
format, and readers that check a rendered list without shapeclip's own code.

A conversation is a system prompt and exchanges: a user message, tool turns (the assistant's
text and reasoning, parallel calls, each result text and sometimes an image), and an answer.
Renderers give OpenAI Chat Completions messages, OpenAI Responses input items or Anthropic
messages, as plain dicts or, where an agent would append what the SDK returned, SDK objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anthropic.types as at
import openai.types.chat as oc
import openai.types.responses as orsp
from hypothesis import strategies as st

from strategies import outputs

FORMATS = ("openai_chat", "openai_responses", "anthropic")
IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


@dataclass(frozen=True)
class ToolCall:
    id: str
    tool: str
    arguments: Mapping[str, Any]
    #: ("text", text) or ("image", "") parts; one text part is sent as a plain string.
    result: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ToolTurn:
    text: str | None
    reasoning: str | None
    calls: tuple[ToolCall, ...]


@dataclass(frozen=True)
class Exchange:
    user: str
    turns: tuple[ToolTurn, ...]
    answer: str | None
    reasoning: str | None


@dataclass(frozen=True)
class Conversation:
    system: str
    exchanges: tuple[Exchange, ...]


def _numbered(line: str, count: int) -> str:
    return "".join(f"{line} {i}\n" for i in range(count))


words = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=30)
#: Results under and over any budget the tests use.
result_texts = st.one_of(
    st.text(max_size=40),
    outputs,
    st.builds(
        _numbered, st.sampled_from(["ok compiling module", "src/a.py:12: error: bad", "x"]), st.integers(200, 2500)
    ),
)
tools = st.sampled_from(["bash", "read_file", "grep", "web_fetch", "memory", "todo_write", "my_tool"])
commands = st.sampled_from(["make -k", "ls -la", "shapeclip show 3fa2 --lines 5:90", "/usr/bin/shapeclip show 3fa2"])
parts = st.lists(
    st.one_of(result_texts.map(lambda text: ("text", text)), st.just(("image", ""))), min_size=1, max_size=3
)
results = st.one_of(result_texts.map(lambda text: (("text", text),)), parts.map(tuple))


@st.composite
def tool_calls(draw: st.DrawFn) -> ToolCall:
    tool = draw(tools)
    arguments = {"command": draw(commands)} if tool == "bash" else {"path": draw(words)}
    return ToolCall("", tool, arguments, draw(results))


maybe_text = st.one_of(st.none(), words)
tool_turns = st.builds(ToolTurn, maybe_text, maybe_text, st.lists(tool_calls(), min_size=1, max_size=4).map(tuple))
exchanges = st.builds(Exchange, words, st.lists(tool_turns, max_size=3).map(tuple), maybe_text, maybe_text)


def _with_ids(conversation: Conversation) -> Conversation:
    counter = iter(range(10_000))
    return Conversation(
        conversation.system,
        tuple(
            Exchange(
                exchange.user,
                tuple(
                    ToolTurn(
                        turn.text, turn.reasoning, tuple(_renamed(call, f"call_{next(counter)}") for call in turn.calls)
                    )
                    for turn in exchange.turns
                ),
                exchange.answer,
                exchange.reasoning,
            )
            for exchange in conversation.exchanges
        ),
    )


def _renamed(call: ToolCall, call_id: str) -> ToolCall:
    return ToolCall(call_id, call.tool, call.arguments, call.result)


conversations = st.builds(Conversation, words, st.lists(exchanges, min_size=1, max_size=4).map(tuple)).map(_with_ids)


# --- OpenAI Chat Completions ---------------------------------------------------------------


def _chat_reasoning(text: str) -> dict[str, Any]:
    # The keys servers use differ; cycle through them so each is seen.
    key = ("reasoning_content", "reasoning", "reasoning_details")[len(text) % 3]
    return {key: [{"type": "reasoning.text", "text": text}] if key == "reasoning_details" else text}


def _chat_assistant(text: str | None, reasoning: str | None, calls: tuple[ToolCall, ...], models: bool) -> Any:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.tool, "arguments": json.dumps(c.arguments)}}
            for c in calls
        ]
    if reasoning is not None:
        message.update(_chat_reasoning(reasoning))
    return oc.ChatCompletionMessage.model_validate(message) if models else message


def _chat_result(call: ToolCall) -> dict[str, Any]:
    texts = [text for kind, text in call.result if kind == "text"] or [""]  # tool messages carry text only
    content: Any = texts[0] if len(texts) == 1 else [{"type": "text", "text": text} for text in texts]
    return {"role": "tool", "tool_call_id": call.id, "content": content}


def openai_chat(conversation: Conversation, models: bool = False) -> list[Any]:
    messages: list[Any] = [{"role": "system", "content": conversation.system}]
    for exchange in conversation.exchanges:
        messages.append({"role": "user", "content": exchange.user})
        for turn in exchange.turns:
            messages.append(_chat_assistant(turn.text, turn.reasoning, turn.calls, models))
            messages.extend(_chat_result(call) for call in turn.calls)
        if exchange.answer is not None:
            messages.append(_chat_assistant(exchange.answer, exchange.reasoning, (), models))
    return messages


# --- OpenAI Responses ------------------------------------------------------------------------


def _responses_part(kind: str, text: str) -> dict[str, Any]:
    if kind == "text":
        return {"type": "input_text", "text": text}
    return {"type": "input_image", "image_url": f"data:image/png;base64,{IMAGE}", "detail": "auto"}


def _responses_model(item: dict[str, Any], models: bool) -> Any:
    if not models:
        return item
    kind = {"reasoning": orsp.ResponseReasoningItem, "function_call": orsp.ResponseFunctionToolCall}[item["type"]]
    return kind.model_validate(item)


def _responses_reasoning(text: str, item_id: str, models: bool) -> Any:
    item = {"type": "reasoning", "id": item_id, "summary": [{"type": "summary_text", "text": text}]}
    return _responses_model(item, models)


def openai_responses(conversation: Conversation, models: bool = False) -> list[Any]:
    items: list[Any] = [{"role": "developer", "content": conversation.system}]
    for exchange in conversation.exchanges:
        items.append({"role": "user", "content": exchange.user})
        for turn_number, turn in enumerate(exchange.turns):
            tag = f"{len(items)}_{turn_number}"
            if turn.reasoning is not None:
                items.append(_responses_reasoning(turn.reasoning, f"rs_{tag}", models))
            if turn.text is not None:
                items.append({"role": "assistant", "content": turn.text})
            # As the API does, an item's id ties it to the reasoning before it (here by its suffix).
            tie = "" if turn.reasoning is None else f"_rs_{tag}"
            for call in turn.calls:
                function_call = {
                    "type": "function_call",
                    "id": f"fc_{call.id}{tie}",
                    "call_id": call.id,
                    "name": call.tool,
                    "arguments": json.dumps(call.arguments),
                }
                items.append(_responses_model(function_call, models))
            for call in turn.calls:
                output: Any = (
                    call.result[0][1]
                    if call.result[0][0] == "text" and len(call.result) == 1
                    else [_responses_part(kind, text) for kind, text in call.result]
                )
                items.append({"type": "function_call_output", "call_id": call.id, "output": output})
        if exchange.answer is not None:
            message = {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": exchange.answer}],
            }
            if exchange.reasoning is not None:
                items.append(_responses_reasoning(exchange.reasoning, f"rs_{len(items)}", models))
                message["id"] = f"msg_{len(items)}_rs_{len(items) - 1}"
            items.append(message)
    return items


# --- Anthropic Messages ----------------------------------------------------------------------


def _anthropic_part(kind: str, text: str) -> dict[str, Any]:
    if kind == "text":
        return {"type": "text", "text": text}
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": IMAGE}}


def _anthropic_block(block: dict[str, Any], models: bool) -> Any:
    if not models:
        return block
    kind = {"text": at.TextBlock, "thinking": at.ThinkingBlock, "tool_use": at.ToolUseBlock}[block["type"]]
    return kind.model_validate(block)


def _anthropic_assistant(text: str | None, reasoning: str | None, calls: tuple[ToolCall, ...], models: bool) -> Any:
    blocks: list[dict[str, Any]] = []
    if reasoning is not None:
        # Redacted thinking arrives now and then in place of thinking.
        redacted = len(reasoning) % 4 == 0
        blocks.append(
            {"type": "redacted_thinking", "data": "EmwKAhgB"}
            if redacted
            else {"type": "thinking", "thinking": reasoning, "signature": "c2ln"}
        )
    if text:
        blocks.append({"type": "text", "text": text})
    blocks.extend({"type": "tool_use", "id": c.id, "name": c.tool, "input": dict(c.arguments)} for c in calls)
    return {
        "role": "assistant",
        "content": [_anthropic_block(b, models and b["type"] != "redacted_thinking") for b in blocks],
    }


def _tool_result(call: ToolCall) -> dict[str, Any]:
    if len(call.result) == 1 and call.result[0][0] == "text":
        return {"type": "tool_result", "tool_use_id": call.id, "content": call.result[0][1]}
    return {"type": "tool_result", "tool_use_id": call.id, "content": [_anthropic_part(k, t) for k, t in call.result]}


def anthropic_messages(conversation: Conversation, models: bool = False) -> list[Any]:
    """Anthropic takes the system prompt apart; the first user message carries it here. A user
    message that follows tool results joins their message, after them, as the API wants."""
    messages: list[Any] = []
    for number, exchange in enumerate(conversation.exchanges):
        user = {"type": "text", "text": exchange.user if number else f"{conversation.system}\n{exchange.user}"}
        if messages and messages[-1]["role"] == "user":
            messages[-1]["content"].append(user)
        else:
            messages.append({"role": "user", "content": [user]})
        for turn in exchange.turns:
            messages.append(_anthropic_assistant(turn.text, turn.reasoning, turn.calls, models))
            messages.append({"role": "user", "content": [_tool_result(call) for call in turn.calls]})
        if exchange.answer or exchange.reasoning:
            messages.append(_anthropic_assistant(exchange.answer or "…", exchange.reasoning, (), models))
    return messages


RENDER: dict[str, Callable[..., list[Any]]] = {
    "openai_chat": openai_chat,
    "openai_responses": openai_responses,
    "anthropic": anthropic_messages,
}


def make_chat(output: str, call_id: str = "c1") -> list[dict[str, Any]]:
    """Chat Completions messages of one `make` call whose result is `output`."""
    call = {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": '{"command": "make"}'}}
    return [
        {"role": "user", "content": "build it"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "content": output},
    ]
