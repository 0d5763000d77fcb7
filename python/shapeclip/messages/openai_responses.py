"""OpenAI Responses input items: a `function_call` item per call, a `function_call_output` item
per result naming its call by `call_id`, and `reasoning` items (custom tools' `custom_tool_call`
and `custom_tool_call_output` work the same way). The shell tools' calls carry their command in
an `action` instead of arguments: `local_shell_call` an argv, whose `local_shell_call_output`
is a string (naming its call by `call_id`, as the OpenAI Agents SDK sends it, or by `id`, as
the API reference has it); `shell_call` a list of command lines, whose `shell_call_output`
holds one entry per command, each with its `stdout`, `stderr` and outcome.

Items are flat, so a tool turn is read as a run of items the model produced together:
reasoning, assistant messages and calls, up to the next item that is not the model's (a result,
a user message). Reasoning models tie the ids of a response's items to its reasoning item: an
item sent back with its id but without that reasoning is refused ("provided without its
required 'reasoning' item"), so where reasoning goes, the ids of its run go with it (they are
optional in input; `call_id` is what pairs a result with its call).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .conversation import Clearing, Transcript, TranscriptBuilder
from .items import arguments_of, field, updated, with_pieces

#: The shell tools' call types, and the tool each is (the name their calls do not carry).
SHELL_CALLS = {"local_shell_call": "local_shell", "shell_call": "shell"}
CALL_TYPES = frozenset({"function_call", "custom_tool_call", *SHELL_CALLS})
OUTPUT_TYPES = frozenset(
    {"function_call_output", "custom_tool_call_output", "local_shell_call_output", "shell_call_output"}
)


def _call_of(item: Any) -> tuple[Any, Any, Any]:
    """A call item's id, tool name and arguments (a shell call's `action`)."""
    kind = field(item, "type")
    if kind in SHELL_CALLS:
        return field(item, "call_id"), SHELL_CALLS[kind], field(item, "action")
    return field(item, "call_id"), field(item, "name"), arguments_of(item)


def _call_id(item: Any) -> Any:
    """The id of the call an item is or answers."""
    call_id = field(item, "call_id")
    if call_id is None and field(item, "type") == "local_shell_call_output":
        return field(item, "id")
    return call_id


def _is_model_item(item: Any) -> bool:
    kind = field(item, "type")
    if kind == "reasoning" or (kind in (None, "message") and field(item, "role") == "assistant"):
        return True
    # Every item type the model emits for a tool, built in or not, is named `*_call`.
    return isinstance(kind, str) and kind.endswith("_call")


def _runs(items: Sequence[Any]) -> Iterator[range]:
    """The maximal runs of items the model produced together."""
    start = None
    for index, item in enumerate(items):
        if _is_model_item(item):
            start = index if start is None else start
        elif start is not None:
            yield range(start, index)
            start = None
    if start is not None:
        yield range(start, len(items))


class OpenAIResponses:
    name = "openai_responses"

    def recognises(self, item: Any) -> bool:
        kind = field(item, "type")
        return kind == "reasoning" or kind in CALL_TYPES or kind in OUTPUT_TYPES

    def scan(self, messages: Sequence[Any]) -> Transcript:
        found = TranscriptBuilder()
        for run in _runs(messages):
            made = [(i, messages[i]) for i in run if field(messages[i], "type") in CALL_TYPES]
            if made:
                found.turn(run.start, [(i, *_call_of(c)) for i, c in made])
        for index, item in enumerate(messages):
            if field(item, "type") in OUTPUT_TYPES:
                found.result(index, None, _call_id(item), field(item, "output"))
        return found.transcript()

    def with_results(self, item: Any, pieces: Mapping[int | None, Sequence[str]]) -> Any:
        return updated(item, {"output": with_pieces(field(item, "output"), pieces[None])})

    def strip_reasoning(self, items: Sequence[Any]) -> list[Any]:
        stripped = list(items)
        for run in _runs(items):
            if not any(field(items[index], "type") == "reasoning" for index in run):
                continue
            for index in run:
                item = items[index]
                if field(item, "type") == "reasoning":
                    stripped[index] = None
                elif field(item, "id") is not None:
                    stripped[index] = updated(item, {}, drop=["id"])
        return stripped

    def clear_pairs(self, items: Sequence[Any], clearing: Clearing) -> list[Any]:
        cleared = []
        for item in items:
            kind = field(item, "type")
            if _call_id(item) not in clearing.call_ids or (kind not in CALL_TYPES and kind not in OUTPUT_TYPES):
                cleared.append(item)
            elif clearing.placeholders is None:
                cleared.append(None)
            elif kind == "shell_call_output":
                # Its entries stay, with their outcomes: the placeholder takes the first's text.
                placeholder = [clearing.placeholders[_call_id(item)]]
                cleared.append(updated(item, {"output": with_pieces(field(item, "output"), placeholder)}))
            elif kind in OUTPUT_TYPES:
                cleared.append(updated(item, {"output": clearing.placeholders[_call_id(item)]}))
            else:
                cleared.append(item)
        return cleared
