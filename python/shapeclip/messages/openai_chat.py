"""OpenAI Chat Completions messages: calls in an assistant message's `tool_calls`, each result a
`role: "tool"` message naming its call by `tool_call_id`, reasoning in extra assistant keys.

The content of a tool message is a string or a list of text parts. Reasoning arrives under
several keys depending on the server (`reasoning_content` from DeepSeek-style servers,
`reasoning` and `reasoning_details` from OpenRouter); all three are the model's own thinking and
none is assistant text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .conversation import Clearing, Transcript, TranscriptBuilder
from .items import arguments_of, field, updated, with_pieces

REASONING_KEYS = ("reasoning", "reasoning_content", "reasoning_details")


def _tool_calls(item: Any) -> list[Any]:
    calls = field(item, "tool_calls") if field(item, "role") == "assistant" else None
    return list(calls) if calls else []


class OpenAIChat:
    name = "openai_chat"

    def recognises(self, item: Any) -> bool:
        role = field(item, "role")
        if role == "tool":
            return True
        return role == "assistant" and (
            bool(_tool_calls(item)) or any(field(item, key) is not None for key in REASONING_KEYS)
        )

    def scan(self, messages: Sequence[Any]) -> Transcript:
        found = TranscriptBuilder()
        for index, item in enumerate(messages):
            made = _tool_calls(item)
            if made:
                # A custom tool's call has its name and input under `custom`, a function's under `function`.
                specs = [(field(call, "id"), field(call, "function") or field(call, "custom")) for call in made]
                found.turn(index, [(index, call_id, field(s, "name"), arguments_of(s)) for call_id, s in specs])
            elif field(item, "role") == "tool":
                found.result(index, None, field(item, "tool_call_id"), field(item, "content"))
        return found.transcript()

    def with_results(self, item: Any, pieces: Mapping[int | None, Sequence[str]]) -> Any:
        return updated(item, {"content": with_pieces(field(item, "content"), pieces[None])})

    def strip_reasoning(self, items: Sequence[Any]) -> list[Any]:
        stripped = []
        for item in items:
            present = [key for key in REASONING_KEYS if field(item, key) is not None]
            keep = field(item, "role") != "assistant" or not present
            stripped.append(item if keep else updated(item, {}, drop=present))
        return stripped

    def clear_pairs(self, items: Sequence[Any], clearing: Clearing) -> list[Any]:
        cleared = []
        for item in items:
            if field(item, "role") == "tool" and field(item, "tool_call_id") in clearing.call_ids:
                placeholders = clearing.placeholders
                text = None if placeholders is None else placeholders[field(item, "tool_call_id")]
                cleared.append(None if text is None else updated(item, {"content": text}))
                continue
            made = _tool_calls(item)
            kept = [call for call in made if field(call, "id") not in clearing.call_ids]
            if clearing.placeholders is not None or len(kept) == len(made):
                cleared.append(item)
            elif kept:
                cleared.append(updated(item, {"tool_calls": kept}))
            elif field(item, "content"):  # assistant text stays, whatever else goes
                cleared.append(updated(item, {}, drop=["tool_calls"]))
            else:
                cleared.append(None)
        return cleared
