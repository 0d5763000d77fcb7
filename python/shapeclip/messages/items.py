"""Reading and rebuilding the items of a message list, whatever the agent keeps in it.

Agents append plain dicts they built and SDK objects they got back (an `openai`
`ChatCompletionMessage`, an `anthropic` `ToolUseBlock`), often in the same list. Everything
here reads both alike, and builds a changed item as a new dict, dumped the way the SDKs dump a
model into a request, so an item that is not changed is never copied and keeps its identity.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..json_text import parse

#: Content parts whose `text` is the text of a tool result, in the formats handled here.
TEXT_PART_TYPES = frozenset({"text", "input_text"})


def field(item: Any, key: str) -> Any:
    """`item[key]` of a mapping or `item.key` of an object; None when it has none."""
    if isinstance(item, Mapping):
        return item.get(key)
    return getattr(item, key, None)


def as_dict(item: Any) -> dict[str, Any]:
    """A new dict with `item`'s keys: a mapping's own, or an SDK model's as its client would send them."""
    if isinstance(item, Mapping):
        return dict(item)
    dump = getattr(item, "model_dump", None)
    if dump is None:
        raise TypeError(f"cannot rebuild a message item of type {type(item).__name__}: use dicts or SDK models")
    dumped: dict[str, Any] = dump(
        exclude_unset=True, mode="json", by_alias=True, exclude=getattr(item, "__api_exclude__", None)
    )
    return dumped


def updated(item: Any, changes: Mapping[str, Any], drop: Sequence[str] = ()) -> dict[str, Any]:
    """`item` as a new dict with `changes` applied and the keys in `drop` removed."""
    new = as_dict(item)
    for key in drop:
        new.pop(key, None)
    new.update(changes)
    return new


def arguments_of(call: Any) -> Any:
    """A call's arguments: a function's JSON text, or a custom tool's free-form `input`."""
    arguments = field(call, "arguments")
    return field(call, "input") if arguments is None else arguments


#: What a shell tool's output entry captured (OpenAI Responses `shell_call_output`, one entry
#: per command run), in the order each entry gives it.
STREAMS = ("stdout", "stderr")


def text_pieces(content: Any) -> tuple[str, ...]:
    """The text of a tool result's content: the string itself, or the text of each text part in
    order, or each shell output entry's streams in turn. Images, files and other parts have
    none."""
    if isinstance(content, str):
        return (content,)
    if not isinstance(content, (list, tuple)):
        return ()
    pieces: list[str] = []
    for part in content:
        if _is_shell_entry(part):
            pieces.extend(field(part, stream) for stream in STREAMS)
        elif (part_text := _part_text(part)) is not None:
            pieces.append(part_text)
    return tuple(pieces)


def _is_shell_entry(part: Any) -> bool:
    return field(part, "type") is None and all(isinstance(field(part, stream), str) for stream in STREAMS)


def _part_text(part: Any) -> str | None:
    text = field(part, "text")
    return text if field(part, "type") in TEXT_PART_TYPES and isinstance(text, str) else None


def with_pieces(content: Any, pieces: Sequence[str]) -> Any:
    """`content` with its text pieces (as `text_pieces` lists them) replaced by `pieces`, in
    order; a text part left without one (the pieces were joined) is dropped, and the part that
    holds the joined text takes over the keys of the dropped ones that it lacks (a prompt-cache
    breakpoint, `cache_control`, on the last block, say). A part whose text is unchanged stays
    the same object, and every other part stays where it was. A shell output entry is never
    dropped, as its outcome (the command's exit status) is no text: a stream left without a
    piece is emptied."""
    if isinstance(content, str):
        return pieces[0]
    replacements = iter(pieces)
    parts: list[Any] = []
    last_text, carried = None, {}
    for part in content:
        if _is_shell_entry(part):
            streams = {stream: next(replacements, "") for stream in STREAMS}
            changes = {stream: text for stream, text in streams.items() if text != field(part, stream)}
            parts.append(updated(part, changes) if changes else part)
            continue
        old = _part_text(part)
        new = old if old is None else next(replacements, None)
        if old is not None and new is None:
            carried.update({k: v for k, v in as_dict(part).items() if k not in ("type", "text")})
            continue
        if old is not None:
            last_text = len(parts)
        parts.append(part if new is old else updated(part, {"text": new}))
    if carried and last_text is not None:
        kept = as_dict(parts[last_text])
        parts[last_text] = {**kept, **{k: v for k, v in carried.items() if k not in kept}}
    return parts


def strings_in(arguments: Any) -> Iterator[str]:
    """Every string in a call's arguments (a JSON text, or what it encodes), depth first; a list
    of strings is also given joined by spaces, as an argv is a command line. A model may nest
    arguments deeper than Python recurses: JSON too deep to decode is read as plain text, and
    the walk keeps its own stack."""
    if isinstance(arguments, str):
        try:
            arguments = parse(arguments)
        except ValueError:
            yield arguments
            return
    stack = [arguments]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, Mapping):
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, (list, tuple)):
            if value and all(isinstance(inner, str) for inner in value):
                yield " ".join(value)
            stack.extend(reversed(value))


def command_in(arguments: Any) -> str | None:
    """The command line a shell call ran: its `command` (or `cmd`) argument, a string or an argv
    (Codex's `["bash", "-lc", "..."]`, quoted back into one line), or its one `commands` line;
    None when it has none."""
    if isinstance(arguments, str):
        try:
            arguments = parse(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, Mapping):
        return None
    for key in ("command", "cmd"):
        value = arguments.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value and all(isinstance(word, str) for word in value):
            return shlex.join(value)
    # A shell tool's list of command lines (OpenAI Responses `shell_call`): one of them is the
    # command; of several, the output is no one command's.
    commands = arguments.get("commands")
    if isinstance(commands, list) and len(commands) == 1 and isinstance(commands[0], str):
        return commands[0]
    return None


def json_chars(item: Any) -> int:
    """Characters of `item` as compact JSON: what it adds to a request, for reports."""
    try:
        return len(json.dumps(item, ensure_ascii=False, separators=(",", ":"), default=_jsonable))
    except RecursionError:  # nested deeper than `json` goes: counted with a stack of our own
        return _deep_json_chars(item)


def _deep_json_chars(item: Any) -> int:
    total = 0
    stack = [item]
    while stack:
        value = stack.pop()
        if hasattr(value, "model_dump"):
            value = as_dict(value)
        if isinstance(value, Mapping):
            # Braces, commas, and each key with its colon, as json writes a key of any type.
            total += 1 + max(len(value), 1) + sum(len(_compact({key: 0})) - 3 for key in value)
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            total += 1 + max(len(value), 1)
            stack.extend(value)
        else:
            total += len(_compact(value))
    return total


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return as_dict(value)
    return str(value)
