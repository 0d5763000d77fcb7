"""`compress_messages`: compress the new tool results of a message list, once, as they arrive.

The list is read (its format detected, each result matched to its call for the tool's name and
turn), every result at `start` or later that exceeds what it may keep is compressed by
`compress`, and a new list is returned in which only those messages are new objects. A result
that fits is left alone, so compressing the list again changes nothing; that is what lets the
compressed history be the one the prompt cache sees.

The walk is written once as a generator that asks for each compression and is sent its result,
so the sync and async entry points share every rule and differ only in how they compress.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, cast

from .. import api
from ..digest.request import Digest, aapply, apply
from ..digest.run import DigestFn
from ..fit import shares
from ..result import Compressed
from ..store import Store
from .budgets import (
    DEFAULT_MESSAGE_BUDGET,
    EXEMPT_TOOLS,
    Budget,
    TokenEstimates,
    as_budget,
    exempt_names,
    is_exempt,
    turn_share,
)
from .conversation import Result, checked_messages
from .formats import detect
from .items import command_in


@dataclass(frozen=True)
class ResultReport(TokenEstimates):
    """What happened to one tool result at `start` or later."""

    #: Index of the message or item that carries it.
    index: int
    call_id: str
    #: The tool's name from its call; None when no call in the list has its id.
    tool: str | None
    #: "compressed", "fits" (left as it was) or "exempt" (its tool is never compressed).
    action: Literal["compressed", "fits", "exempt"]
    chars_in: int
    chars_out: int
    #: Characters it could keep: its tool's budget, less what its turn had left; None if exempt.
    budget: int | None
    #: The compression of each of its text pieces that was cut, in order.
    compressions: tuple[Compressed, ...] = ()

    @property
    def shape(self) -> str:
        """How it was compressed: the planner, as `Compressed.shape` names it (several joined by
        "+"), or the action when it was not."""
        shapes = dict.fromkeys(compressed.shape for compressed in self.compressions)
        return "+".join(shapes) if shapes else self.action


@dataclass(frozen=True)
class CompressReport:
    """The results `compress_messages` looked at, in order."""

    results: tuple[ResultReport, ...]

    @property
    def chars_saved(self) -> int:
        return sum(result.chars_in - result.chars_out for result in self.results)

    @property
    def tokens_saved(self) -> int:
        return sum(result.tokens_in - result.tokens_out for result in self.results)


class CompressedMessages(NamedTuple):
    """The new message list and what was done to it; unpacks as `messages, report`."""

    messages: list[Any]
    report: CompressReport


@dataclass(frozen=True)
class _Job:
    """One text piece to compress."""

    text: str
    tool: str | None
    budget: int
    #: The command a shell call ran, which says whether it printed a file.
    command: str | None


@dataclass(frozen=True)
class _PassedOn:
    """The checked arguments that every compression of one call gets."""

    digest: Digest | None
    store: Store | None

    def _planned(self, job: _Job) -> Compressed:
        return api.compress_detailed(
            job.text, job.tool, job.budget, digest=self.digest, store=self.store, command=job.command
        )

    def compressed(self, job: _Job) -> Compressed:
        """The job's piece compressed, with its digest written in when one is due."""
        result = self._planned(job)
        return result if self.digest is None else apply(result, self.digest)

    async def acompressed(self, job: _Job) -> Compressed:
        """`compressed`, awaiting the digest."""
        result = self._planned(job)
        return result if self.digest is None else await aapply(result, self.digest)


_Walk = Generator[_Job, Compressed, CompressedMessages]


def _walk(messages: Sequence[Any], start: int, budget: Budget, exempt: Collection[str]) -> _Walk:
    form = detect(messages)
    if form is None:
        return CompressedMessages(list(messages), CompressReport(()))
    transcript = form.scan(messages)
    spent: dict[int, int] = {}  # characters kept so far by the results of each turn
    changed: dict[int, dict[int | None, list[str]]] = {}
    reports = []
    for result in transcript.results:
        call = result.call
        tool = None if call is None else call.name
        if is_exempt(tool, None if call is None else call.arguments, exempt):
            if result.index >= start:
                chars = result.chars
                reports.append(ResultReport(result.index, result.call_id, tool, "exempt", chars, chars, None))
            continue
        if result.index < start:  # in the history as it will stay; its turn's budget counts it
            if call is not None:
                spent[call.turn] = spent.get(call.turn, 0) + result.chars
            continue
        keep = budget.for_tool(tool)
        if call is not None:
            keep = turn_share(keep, spent.get(call.turn, 0), budget)
        command = None if call is None else command_in(call.arguments)
        pieces, compressions = yield from _compressed_pieces(result, tool, command, keep)
        chars_out = sum(map(len, pieces))
        if compressions:
            changed.setdefault(result.index, {})[result.slot] = pieces
        action: Literal["compressed", "fits"] = "compressed" if compressions else "fits"
        reports.append(
            ResultReport(result.index, result.call_id, tool, action, result.chars, chars_out, keep, compressions)
        )
        if call is not None:
            spent[call.turn] = spent.get(call.turn, 0) + chars_out
    rebuilt = list(messages)
    for index, pieces_by_slot in changed.items():
        rebuilt[index] = form.with_results(messages[index], pieces_by_slot)
    return CompressedMessages(rebuilt, CompressReport(tuple(reports)))


def _compressed_pieces(
    result: Result, tool: str | None, command: str | None, keep: int
) -> Generator[_Job, Compressed, tuple[list[str], tuple[Compressed, ...]]]:
    """The result's text pieces within `keep` characters together, and the compressions made.
    When a piece's share would be too small for a marker and a few lines (an MCP result of
    hundreds of text blocks), the pieces are joined by newlines and compressed as one piece, so
    that one marker says what was cut and where it is kept."""
    rooms = shares([len(p) for p in result.pieces], keep)
    if rooms is None:
        compressed = yield _Job("\n".join(result.pieces), tool, keep, command)
        return [compressed.text], (compressed,)
    pieces, compressions = [], []
    for piece, share in zip(result.pieces, rooms, strict=True):
        if len(piece) <= share:
            pieces.append(piece)
            continue
        compressed = yield _Job(piece, tool, share, command)
        pieces.append(compressed.text)
        compressions.append(compressed)
    return pieces, tuple(compressions)


def _start(
    messages: object,
    start: object,
    budget: object,
    exempt: object,
    digest: object,
    store: object,
) -> tuple[_Walk, _PassedOn]:
    """The walk over checked arguments, and what it passes on to each compression: a bad
    argument raises here, before anything is compressed."""
    listed = checked_messages(messages)
    if isinstance(start, bool) or not isinstance(start, int):
        raise TypeError(f"start must be an int (an index into messages), not {type(start).__name__}")
    if start < 0:
        raise ValueError(f"start must be 0 or more, got {start}")
    if not isinstance(budget, (Budget, int)):
        raise TypeError(f"budget must be a Budget or an int, not {type(budget).__name__}")
    passed_on = _PassedOn(*api.check_options(digest, store))
    return _walk(listed, start, as_budget(budget), exempt_names(exempt)), passed_on


def compress_messages(
    messages: Sequence[Any],
    *,
    start: int = 0,
    budget: Budget | int = DEFAULT_MESSAGE_BUDGET,
    exempt: Collection[str] = EXEMPT_TOOLS,
    digest: Digest | DigestFn | None = None,
    store: Store | None = None,
) -> CompressedMessages:
    """Compresses every tool result at index `start` or later that is longer than it may keep,
    and returns the new list with a report; `messages` itself is never changed.

    `messages` is a list in the OpenAI Chat Completions, OpenAI Responses or Anthropic Messages
    format (told apart by its items; dicts or the SDKs' objects). Each result is compressed
    with `compress`, under the name of the tool its call names, to at most
    `budget.for_tool(name)` characters and to what its turn has left of `budget.per_turn`
    (see `Budget`; an int is a per-result budget). Results of tools in `exempt` (lower-case
    names, or commands such as "shapeclip show") stay whole. Only the text of a result is
    compressed (images and other parts are kept), and a compressed result's message is a new
    dict with every other key kept; every other item is the very object it was. Compressing the
    returned list again changes nothing. `digest` and `store` work as in `compress`: each
    compressed result's digest is asked and written in (its call is in the report), and with a
    store each compressed result is kept whole and its markers say how to read it back.
    """
    walk, passed_on = _start(messages, start, budget, exempt, digest, store)
    try:
        job = next(walk)
        while True:
            job = walk.send(passed_on.compressed(job))
    except StopIteration as done:
        return cast(CompressedMessages, done.value)


async def acompress_messages(
    messages: Sequence[Any],
    *,
    start: int = 0,
    budget: Budget | int = DEFAULT_MESSAGE_BUDGET,
    exempt: Collection[str] = EXEMPT_TOOLS,
    digest: Digest | DigestFn | None = None,
    store: Store | None = None,
) -> CompressedMessages:
    """`compress_messages` that awaits its digests: use it with async SDK clients."""
    walk, passed_on = _start(messages, start, budget, exempt, digest, store)
    try:
        job = next(walk)
        while True:
            job = walk.send(await passed_on.acompressed(job))
    except StopIteration as done:
        return cast(CompressedMessages, done.value)
