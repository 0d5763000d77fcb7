"""Compressing a tool's output where a post-tool hook is handed it, in the shape it came in.

Harnesses check a replacement against the original: Claude Code validates a replaced output
against the tool's own output schema and silently keeps the original when it does not match
(anthropics/claude-code#84439). So a string comes back a string, a list of MCP content
blocks a list with the same blocks, and an MCP result object (`{"content": [...]}`) the same
object with new text in its text blocks. Images and other blocks are never touched.
"""

from __future__ import annotations

from ..fit import fits, shares

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:  # it and `compress` are imported where there is output: a PreToolUse hook has none
    from typing import Any

    from ..store import Store


class Settings:
    """What every hook answer needs: the per-call budget. (A plain class, not a dataclass or a
    named tuple, so that a hook's start imports neither `dataclasses` nor `typing`.)"""

    __slots__ = ("budget",)

    def __init__(self, budget: int) -> None:
        self.budget = budget


class Cut:
    """An output a hook cut, for the savings ledger (`shapeclip.savings`)."""

    __slots__ = ("chars_in", "chars_out", "entry", "tool")

    def __init__(self, tool: str, chars_in: int, chars_out: int, entry: str | None) -> None:
        self.tool = tool
        self.chars_in = chars_in
        self.chars_out = chars_out
        #: The store entry that keeps it whole, when there is one.
        self.entry = entry


#: What the hook cut while answering one event, while `hooks.answer` collects it: it records
#: them with the harness's name and the event's directory, which the helpers here are not told.
#: None otherwise, so that a long-lived caller of `compressed_output` collects nothing.
cuts: list[Cut] | None = None


def note_cut(tool: str, chars_in: int, chars_out: int, entry: str | None) -> None:
    if cuts is not None:
        cuts.append(Cut(tool, chars_in, chars_out, entry))


def _compressed(
    text: str, tool: str, budget: int, store: Store | None, max_bytes: int | None = None, command: str | None = None
) -> str:
    """`compress(text, tool, budget, store=store, command=command)`, held to `max_bytes` bytes of
    UTF-8 too when that is given, noting what it cut."""
    from ..api import compress_detailed

    result = compress_detailed(text, tool, budget, store=store, command=command)
    while max_bytes is not None and budget > 1 and (size := len(result.text.encode("utf-8"))) > max_bytes:
        # Characters outside ASCII take several bytes: a budget smaller in proportion, and
        # always smaller, until the bytes fit.
        budget = max(min(budget - 1, budget * max_bytes // size), 1)
        result = compress_detailed(text, tool, budget, store=store, command=command)
    if result.shape != "passthrough":
        note_cut(tool, len(text), len(result.text), None if result.stored is None else result.stored.id)
    return result.text


def _text_blocks(blocks: list[Any]) -> list[int]:
    return [
        i for i, block in enumerate(blocks)
        if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)
    ]  # fmt: skip


def _compressed_blocks(blocks: list[Any], tool: str, budget: int, store: Store | None) -> list[Any] | None:
    """The blocks with their texts cut to `budget` in all, as `fit.shares` shares it; texts
    that would each be cut to almost nothing are joined into the first text block instead."""
    indices = _text_blocks(blocks)
    lengths = [len(blocks[i]["text"]) for i in indices]
    if not indices or fits(sum(lengths), budget):
        return None
    rooms = shares(lengths, budget)
    if rooms is None:
        joined = _compressed("\n".join(blocks[i]["text"] for i in indices), tool, budget, store)
        # The block that holds the joined text takes over the keys it lacks of those dropped.
        first = {**blocks[indices[0]], "text": joined}
        for i in indices[1:]:
            first.update({k: v for k, v in blocks[i].items() if k not in first})
        dropped = set(indices[1:])
        return [first if i == indices[0] else b for i, b in enumerate(blocks) if i not in dropped]
    out = list(blocks)
    for i, room in zip(indices, rooms, strict=True):
        if not fits(len(blocks[i]["text"]), room):
            out[i] = {**blocks[i], "text": _compressed(blocks[i]["text"], tool, room, store)}
    return out


def joined_text(value: object) -> str | None:
    """The text of a tool result that is text alone, as one string: `value` itself, or the texts
    of a list of blocks (MCP's `{"type": "text", "text": ...}`, Gemini's parts `{"text": ...}`)
    joined by line breaks; None when any block is not text (an image cannot go in a string)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not value:
        return None
    texts = []
    for block in value:
        if not isinstance(block, dict) or not isinstance(block.get("text"), str) or block.get("type", "text") != "text":
            return None
        texts.append(block["text"])
    return "\n".join(texts)


def compressed_output(
    value: object, tool: str, budget: int, store: Store | None, command: str | None = None
) -> object | None:
    """`value` with its text compressed to `budget` characters in all, in the same shape; None
    when it already fits or has no shape this knows (it is then left as the tool gave it). A
    shell's output comes with the `command` that printed it, when the harness says."""
    if isinstance(value, str):
        return None if fits(len(value), budget) else _compressed(value, tool, budget, store, command=command)
    if isinstance(value, list):
        return _compressed_blocks(value, tool, budget, store)
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        blocks = _compressed_blocks(value["content"], tool, budget, store)
        return None if blocks is None else {**value, "content": blocks}
    return None


def compressed_text(
    text: str, tool: str, budget: int, max_bytes: int | None = None, command: str | None = None
) -> str:
    """`text` compressed to `budget` characters, and to `max_bytes` bytes of UTF-8 when that is
    given, the whole of it kept in the default store."""
    from ..store import Store

    return _compressed(text, tool, budget, Store(), max_bytes, command)


def stored_way_back(text: str, tool: str) -> tuple[str, str | None]:
    """How to read `text` back whole: `shapeclip show ID` after storing it in the default store,
    or, where it cannot be stored, to read the file again; and the ID, when it was stored."""
    from ..store import Refused, Store

    try:
        entry = Store().put(text, tool)
    except (OSError, Refused) as exc:
        return f"not stored ({type(exc).__name__}); read the file again with an offset", None
    return f"shapeclip show {entry.id} --lines A:B", entry.id


def compressed_and_stored(value: object, tool: str, budget: int, command: str | None = None) -> object | None:
    """`compressed_output` with the whole output kept in the default store, as a hook keeps it."""
    from ..store import Store

    return compressed_output(value, tool, budget, Store(), command)


def shell_command(event: dict[str, Any]) -> str | None:
    """The command a shell tool ran, as the event's `tool_input` gives it (Claude Code, Codex and
    Gemini CLI all name it `command`), or None."""
    given = event.get("tool_input")
    command = given.get("command") if isinstance(given, dict) else None
    return command if isinstance(command, str) else None
