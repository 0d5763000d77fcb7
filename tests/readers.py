"""Readers of rendered message lists, written apart from shapeclip's own, for the tests to check
its results against: where the calls and results are, what text the people and the assistant
wrote, where reasoning is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def _blocks(item: Any) -> list[Any]:
    content = get(item, "content")
    return list(content) if isinstance(content, list) else []


def calls(messages: Sequence[Any], fmt: str) -> list[tuple[int, str, str]]:
    """(index, call id, tool name) of every call."""
    found = []
    for index, item in enumerate(messages):
        if fmt == "openai_chat":
            for call in get(item, "tool_calls") or []:
                found.append((index, get(call, "id"), get(get(call, "function"), "name")))
        elif fmt == "openai_responses":
            if get(item, "type") == "function_call":
                found.append((index, get(item, "call_id"), get(item, "name")))
        elif get(item, "role") == "assistant":
            found.extend((index, get(b, "id"), get(b, "name")) for b in _blocks(item) if get(b, "type") == "tool_use")
    return found


def results(messages: Sequence[Any], fmt: str) -> list[tuple[int, str, Any]]:
    """(index, call id, content) of every result."""
    found = []
    for index, item in enumerate(messages):
        if fmt == "openai_chat":
            if get(item, "role") == "tool":
                found.append((index, get(item, "tool_call_id"), get(item, "content")))
        elif fmt == "openai_responses":
            if get(item, "type") == "function_call_output":
                found.append((index, get(item, "call_id"), get(item, "output")))
        elif get(item, "role") == "user":
            found.extend(
                (index, get(b, "tool_use_id"), get(b, "content"))
                for b in _blocks(item)
                if get(b, "type") == "tool_result"
            )
    return found


def orphans(messages: Sequence[Any], fmt: str) -> list[str]:
    """Ids of results without an earlier call, and of calls without a later result."""
    call_at = {call_id: index for index, call_id, _ in calls(messages, fmt)}
    result_at = {call_id: index for index, call_id, _ in results(messages, fmt)}
    lonely = [i for i, at in result_at.items() if i not in call_at or call_at[i] >= at]
    return lonely + [i for i in call_at if i not in result_at]


def text_chars(content: Any) -> int:
    """Characters of a result's text: a string's, or its text parts' together."""
    if isinstance(content, str):
        return len(content)
    return sum(len(get(part, "text")) for part in content or [] if get(part, "type") in ("text", "input_text"))


def texts(messages: Sequence[Any], fmt: str) -> list[tuple[str, str]]:
    """(role, text) of everything the system, the user and the assistant wrote, in order."""
    found = []
    for item in messages:
        role = get(item, "role")
        if role not in ("system", "developer", "user", "assistant"):
            continue
        content = get(item, "content")
        if isinstance(content, str):
            found.append((role, content))
        for part in _blocks(item):
            if get(part, "type") in ("text", "input_text", "output_text"):
                found.append((role, get(part, "text")))
    return found


def reasoning_indexes(messages: Sequence[Any], fmt: str) -> list[int]:
    """Indexes of the items that carry reasoning."""
    found = []
    for index, item in enumerate(messages):
        if fmt == "openai_chat":
            carries = any(get(item, key) is not None for key in ("reasoning", "reasoning_content", "reasoning_details"))
        elif fmt == "openai_responses":
            carries = get(item, "type") == "reasoning"
        else:
            carries = any(get(b, "type") in ("thinking", "redacted_thinking") for b in _blocks(item))
        if carries:
            found.append(index)
    return found


def exempt_by_default(tool: str, arguments: Mapping[str, str]) -> bool:
    """The default exemptions, restated: the tools by name, and any call with an argument that
    runs the retrieval command (its directory dropped)."""
    for value in arguments.values():
        words = value.split()
        if words[:2] and words[0].rsplit("/", 1)[-1] == "shapeclip" and words[1:2] == ["show"]:
            return True
    return tool in ("memory", "todo_write")
