"""`microcompact`: clear old tool results and reasoning from a message list, on purpose.

Compressing at append time never changes the history; this does, for when the window fills up
anyway. Everything from the first of the last `keep_last` tool turns on stays as it is. Before
that point, the model's reasoning goes, and each tool call whose result is also there loses its
result to a one-line placeholder that names the tool (or, with `mode="remove"`, the call and
its result both go). Text of the user, the system and the assistant is never removed, a result
is never separated from its call, and exempt tools keep theirs. No LLM is asked: it is instant,
free and deterministic. Given a store, each cleared result is kept in it first, and its
placeholder says how to read it back.

Every clean-up breaks the prompt cache from the first changed item on, so the report says where
that is, and `clear_at_least` refuses a clean-up too small to pay for it (as the server-side
`clear_tool_uses` edit of Anthropic's API does).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from ..store import Entry, Store
from ..store.writer import ID_DIGITS, OUT
from .budgets import EXEMPT_TOOLS, estimate_tokens, exempt_names, is_exempt
from .conversation import Clearing, Format, Result, Transcript, checked_messages
from .formats import detect
from .items import json_chars

log = logging.getLogger("shapeclip")


@dataclass(frozen=True)
class ClearedResult:
    """One tool result microcompact cleared."""

    #: Index, in the list given, of the message or item that carried it.
    index: int
    call_id: str
    tool: str | None
    #: Its content's characters, as compact JSON.
    chars: int
    #: Where its text was stored, when a store was given and took it.
    stored: Entry | None = None


@dataclass(frozen=True)
class MicrocompactReport:
    """What a microcompaction cleared, or would have."""

    #: False when it would have saved fewer than `clear_at_least` tokens: nothing was changed.
    applied: bool
    #: Index of the first message or item changed (where the prompt cache breaks); None if none.
    first_changed: int | None
    #: The results cleared, in order.
    cleared: tuple[ClearedResult, ...]
    #: Messages or items taken out whole.
    removed: int
    #: Characters of reasoning removed (as compact JSON, like every count here).
    reasoning_chars: int
    #: Characters of the items changed or taken out, before.
    chars_before: int
    #: Characters of those items after (the taken out ones have none).
    chars_after: int

    @property
    def chars_saved(self) -> int:
        """Characters the list is shorter by, reasoning and tool pairs together."""
        return self.chars_before - self.chars_after

    @property
    def tokens_saved(self) -> int:
        """Estimated tokens saved: `chars_saved` / 4, rounded up."""
        return estimate_tokens(self.chars_saved)


class Microcompacted(NamedTuple):
    """The new message list and the report; unpacks as `messages, report`."""

    messages: list[Any]
    report: MicrocompactReport


def placeholder(tool: str | None, stored: Entry | None = None) -> str:
    """What a cleared result of `tool` says instead: how to read it back when it was `stored`."""
    return _placeholder(tool, None if stored is None else (stored.id, stored.path))


def _placeholder(tool: str | None, stored: tuple[str, Path] | None) -> str:
    name = tool or "tool"
    way_back = f"call {name} again if it is needed"
    if stored is not None:
        way_back = f"to see it again, run shapeclip show {stored[0]}, or read {stored[1]}"
    return f"[shapeclip: this old {name} result was cleared to save context; {way_back}]"


def _likely_entry(store: Store | None) -> tuple[str, Path] | None:
    """What a result stored in `store` is most likely named: an ID of the usual length (a
    longer one only when another entry shares its digits)."""
    if store is None:
        return None
    entry_id = "0" * ID_DIGITS
    return entry_id, store.path / (entry_id + OUT)


#: A result some microcompaction cleared already: clearing it again would change it for nothing.
_CLEARED = re.compile(r"\[shapeclip: this old .* result was cleared to save context; [^\]]*\]")


def _cut(turn_starts: Sequence[int], keep_last: int, length: int) -> int:
    """Where the kept part begins: the first item of the `keep_last`-th last tool turn."""
    if keep_last == 0:
        return length
    return turn_starts[-keep_last] if len(turn_starts) >= keep_last else 0


def _clearing(
    transcript: Transcript, cut: int, exempt: Collection[str], remove: bool, stored: tuple[str, Path] | None
) -> Clearing:
    """The pairs before `cut` to clear: both halves before it, the tool not exempt, and (when
    placeholders replace results) a result longer than its placeholder, which names where it
    is `stored` when a store is given. Pairs are cleared by their call's id, so an id several
    calls carry is left alone: clearing it could take an exempt tool's result, or a kept one."""
    results: dict[str, list[Result]] = {}
    for result in transcript.results:
        results.setdefault(result.call_id, []).append(result)
    chosen, placeholders = set(), {}
    for call in transcript.calls.values():
        found = results.get(call.id, [])
        if call.id in transcript.reused or call.index >= cut or not found:
            continue
        if any(result.index >= cut for result in found):
            continue
        if is_exempt(call.name, call.arguments, exempt):
            continue
        text = _placeholder(call.name, stored)
        if remove or any(_clearable(result.content, text) for result in found):
            chosen.add(call.id)
            placeholders[call.id] = text
    return Clearing(frozenset(chosen), None if remove else placeholders)


def _clearable(content: Any, text: str) -> bool:
    already = isinstance(content, str) and _CLEARED.fullmatch(content) is not None
    return not already and json_chars(content) > len(text)


def _stored(clearing: Clearing, transcript: Transcript, store: Store) -> dict[str, Entry]:
    """The cleared results' text, kept in `store` by call id; a result the store refuses (or one
    with no text, or one no longer than the placeholder naming its entry) is left out, and its
    placeholder says nothing of a way back."""
    entries = {}
    for result in transcript.results:
        if result.call_id not in clearing.call_ids or not result.pieces:
            continue
        tool = transcript.tool_name(result.call_id)
        try:
            entry = store.put("\n".join(result.pieces), tool)
        except Exception as exc:  # fail-open, as compress's store is: the plain placeholder
            log.debug("shapeclip: a cleared result is not stored: %s", exc)
            continue
        printable = str(entry.path).isprintable() and not {"[", "]"} & set(str(entry.path))
        if printable and _clearable(result.content, placeholder(tool, entry)):
            entries[result.call_id] = entry
    return entries


def _cleared_pairs(form: Format, stripped: list[Any], clearing: Clearing) -> list[Any]:
    """`stripped` with `clearing` applied to the items that are still there."""
    present = [index for index, item in enumerate(stripped) if item is not None]
    after = list(stripped)
    for index, item in zip(present, form.clear_pairs([stripped[i] for i in present], clearing), strict=True):
        after[index] = item
    return after


def _check(messages: object, keep_last: object, clear_at_least: object, mode: object) -> None:
    checked_messages(messages)
    for name, value in (("keep_last", keep_last), ("clear_at_least", clear_at_least)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{name} must be 0 or more, got {value}")
    if mode not in ("placeholder", "remove"):
        raise ValueError(f"mode must be 'placeholder' or 'remove', got {mode!r}")


def microcompact(
    messages: Sequence[Any],
    *,
    keep_last: int = 3,
    exempt: Collection[str] = EXEMPT_TOOLS,
    clear_at_least: int = 0,
    mode: Literal["placeholder", "remove"] = "placeholder",
    store: Store | None = None,
) -> Microcompacted:
    """Clears tool results and reasoning from all but the last `keep_last` tool turns, and
    returns the new list with a report; `messages` itself is never changed.

    `messages` is in any of the formats `compress_messages` takes. Before the first of the last
    `keep_last` tool turns (everything, when `keep_last` is 0), reasoning is removed
    (`reasoning`, `reasoning_content` and `reasoning_details` keys, `reasoning` items,
    `thinking` and `redacted_thinking` blocks), and every tool call whose result is there too
    and whose tool is not in `exempt` is cleared: in "placeholder" mode its result's content
    becomes `placeholder(tool)` (when that is shorter), in "remove" mode the call and its result
    are taken out, with any message left empty. With a `store`, each cleared result's text is
    kept in it and its placeholder says how to read it back; a result no longer than that
    placeholder is not cleared. Unless all that saves at least `clear_at_least` estimated
    tokens, nothing is changed. Items not changed are the very objects given.
    """
    _check(messages, keep_last, clear_at_least, mode)
    if store is not None and not isinstance(store, Store):
        raise TypeError(f"store must be a shapeclip.Store or None, not {type(store).__name__}")
    names = exempt_names(exempt)
    form = detect(messages)
    if form is None:
        return Microcompacted(list(messages), MicrocompactReport(clear_at_least == 0, None, (), 0, 0, 0, 0))
    transcript = form.scan(messages)
    cut = _cut(transcript.turn_starts, keep_last, len(messages))
    before = messages[:cut]
    # Judged with the placeholders it will most likely write, so that one naming a stored copy
    # never replaces a result shorter than itself.
    likely = _likely_entry(store)
    clearing = _clearing(transcript, cut, names, mode == "remove", likely)

    stripped = form.strip_reasoning(before)
    after = _cleared_pairs(form, stripped, clearing)
    changed = [index for index, (old, new) in enumerate(zip(before, after, strict=True)) if new is not old]
    chars_before = sum(json_chars(before[index]) for index in changed)
    applied = estimate_tokens(chars_before - _chars(after, changed)) >= clear_at_least
    entries: dict[str, Entry] = {}
    if applied and store is not None and clearing.placeholders:
        # The same items change, their placeholders naming the entries the results got.
        entries = _stored(clearing, transcript, store)
        named = {call: placeholder(transcript.tool_name(call), entries.get(call)) for call in clearing.call_ids}
        after = _cleared_pairs(form, stripped, Clearing(clearing.call_ids, named))
    chars_after = _chars(after, changed)
    cleared = tuple(
        ClearedResult(
            result.index,
            result.call_id,
            transcript.tool_name(result.call_id),
            json_chars(result.content),
            entries.get(result.call_id),
        )
        for result in transcript.results
        if result.call_id in clearing.call_ids
    )
    report = MicrocompactReport(
        applied,
        changed[0] if changed and applied else None,
        cleared,
        sum(item is None for item in after),
        _shrinkage(before, stripped),
        chars_before,
        chars_after,
    )
    if not applied:
        return Microcompacted(list(messages), report)
    return Microcompacted([item for item in after if item is not None] + list(messages[cut:]), report)


def _chars(items: Sequence[Any], indexes: Sequence[int]) -> int:
    """Characters (as compact JSON) of the items at `indexes` that are still there."""
    return sum(json_chars(items[index]) for index in indexes if items[index] is not None)


def _shrinkage(old: Sequence[Any], new: Sequence[Any]) -> int:
    """Characters (as compact JSON) by which the changed items of `new` are shorter than `old`'s."""
    return sum(
        json_chars(was) - (0 if now is None else json_chars(now))
        for was, now in zip(old, new, strict=True)
        if now is not was and was is not None
    )
