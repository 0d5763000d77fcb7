"""`shapeclip show`: the lines of a stored output, byte for byte, numbered as its markers
number them, one page at a time.

A marker sends an agent here, so what `show` prints must be followable in turn: it prints
the asked lines (or, with `--grep`, matching lines as `grep -n` does, with `-C` lines of
context) whole and in order until the budget (16,000 characters unless told) would be
passed, then one marker naming the lines not shown by their numbers in the stored file and
the exact `shapeclip show` that prints them. Following the markers gives back exactly what
was asked. Nothing is planned or re-cut, since a planner would read `N:` row numbers as part
of the output and number its own markers from the page.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from .cli_numbers import positive
from .defaults import DEFAULT_BUDGET
from .store import EVICTED, Ambiguous, Evicted, Store, Unknown
from .store.store import numbered


def _line_range(value: str) -> tuple[int, int]:
    first, sep, last = value.partition(":")
    try:
        a = int(first)
        b = int(last) if sep else a
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be A:B, two line numbers, got {value!r}") from None
    if a < 1 or b < a:
        raise argparse.ArgumentTypeError(f"must be 1-based and in order, got {value!r}")
    return a, b


def _pattern(value: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"is not a valid regular expression: {exc}") from None


def _count(value: str) -> int:
    if not (value.isascii() and value.isdigit()):
        raise argparse.ArgumentTypeError(f"must be a whole number of lines, got {value!r}")
    return int(value)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip show",
        description="Print lines of a stored output, numbered as in the marker that names it, a page at a time: "
        "a closing marker says how to print the lines the budget left out.",
    )
    parser.add_argument("id", metavar="ID", help="the entry's ID as the marker prints it, or a unique start of it")
    parser.add_argument("--lines", metavar="A:B", type=_line_range, help="lines A to B (1-based, inclusive)")
    parser.add_argument("--grep", metavar="PATTERN", type=_pattern, help="lines matching a Python regular expression")
    parser.add_argument("-C", metavar="N", dest="context", type=_count, default=0, help="context lines for --grep")
    parser.add_argument(
        "--budget",
        metavar="N",
        type=positive("characters"),
        default=DEFAULT_BUDGET,
        help=f"characters printed at most, the closing marker included (default {DEFAULT_BUDGET})",
    )
    return parser


@dataclass(frozen=True)
class _Row:
    """What is printed for one line of the stored output."""

    number: int
    data: bytes
    match: bool = False
    #: Shown only as context after a match, which a page must not end before (see `_page`).
    after: bool = False

    def chars(self) -> int:
        return len(self.data.decode("utf-8", "replace"))


def grep_lines(lines: Iterable[tuple[int, bytes]], pattern: re.Pattern[str], context: int) -> Iterator[_Row]:
    """`grep -n -C context` over numbered lines: `N:line` for a match, `N-line` around one,
    and with context, `--` before a group that does not touch the one before (grep prints
    none without). The pattern reads each line decoded; the row keeps its bytes."""
    before: deque[tuple[int, bytes]] = deque(maxlen=context)
    after = 0
    last_shown = 0
    for number, raw in lines:
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if pattern.search(body.decode("utf-8", "replace")):
            for held_number, held in before:
                yield _row(held_number, held, last_shown, context, "before")
                last_shown = held_number
            before.clear()
            yield _row(number, body, last_shown, context, "match")
            last_shown, after = number, context
        elif after > 0:
            yield _row(number, body, last_shown, context, "after")
            last_shown, after = number, after - 1
        elif context:
            before.append((number, body))


def _row(number: int, body: bytes, last_shown: int, context: int, kind: str) -> _Row:
    """The row of a line that is a match, or context `before` or `after` one."""
    gap = b"--\n" if context and last_shown and number > last_shown + 1 else b""
    sep = b":" if kind == "match" else b"-"
    return _Row(number, gap + str(number).encode() + sep + body + b"\n", kind == "match", kind == "after")


def _page(rows: Iterator[_Row], budget: int, reserve: int) -> tuple[list[_Row], list[_Row]]:
    """The rows to print, and the rows read but left out (none when all fit `budget`): when
    not all fit, the page keeps what fits `budget - reserve`, the marker's room. A page does
    not end inside the context after a match, which a following `--lines A:B` would not show
    as context: it ends before that match instead, unless the match opens the page."""
    page: list[_Row] = []
    used = 0
    for row in rows:
        page.append(row)
        used += row.chars()
        if used > budget:
            break
    else:
        return page, []
    cut = len(page)
    while cut and used > budget - reserve:
        cut -= 1
        used -= page[cut].chars()
    if cut < len(page) and page[cut].after:
        opening = max((i for i in range(cut) if page[i].match), default=0)
        cut = opening or cut
    return page[:cut], page[cut:]


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


@dataclass(frozen=True)
class _LeftOut:
    """The rows a page left out, counted to the end of the selection."""

    first: _Row
    last: int
    rows: int
    chars: int
    matches: int

    @classmethod
    def count(cls, rows: Iterator[_Row]) -> _LeftOut | None:
        first = next(rows, None)
        if first is None:
            return None
        last, count, chars, matches = first.number, 1, first.chars(), int(first.match)
        for row in rows:
            last, count, chars, matches = row.number, count + 1, chars + row.chars(), matches + row.match
        return cls(first, last, count, chars, matches)


class _Marker:
    """The closing marker of a page that left rows out: what they are, by their numbers in
    the stored file, and the `shapeclip show` that prints them."""

    def __init__(self, entry_id: str, args: argparse.Namespace) -> None:
        self._id = entry_id
        self._args = args

    def render(self, left_out: _LeftOut, budget: int) -> str:
        first, last = left_out.first.number, left_out.last
        again = f"shapeclip show {self._id}"
        if self._args.grep is not None:
            what = f"{_plural(left_out.rows, 'row')} ({left_out.matches:,} matching) of lines {first:,}-{last:,}"
            context = f" -C {self._args.context}" if self._args.context else ""
            again += f" --grep {shlex.quote(self._args.grep.pattern)}{context}"
        else:
            what = f"lines {first:,}-{last:,}"
        again += f" --lines {first}:{last}" + ("" if budget == DEFAULT_BUDGET else f" --budget {budget}")
        return (
            f"[shapeclip: {what} not shown ({_plural(left_out.chars, 'char')}): over the budget of "
            f"{self._args.budget:,} characters. To see them, run {again}]\n"
        )

    @staticmethod
    def terse(left_out: _LeftOut) -> str:
        return f"[lines {left_out.first.number}-{left_out.last} not shown]\n"

    def reserve(self, size: int) -> tuple[int, bool]:
        """Characters the marker may take for an output of `size` bytes, whichever rows it
        names, and whether that is the full marker (else the terse one, or an ellipsis)."""
        widest = max(size + 1, self._args.budget)
        for _ in range(2):  # its own length is part of the budget it may name
            most = _LeftOut(_Row(widest, b""), widest, widest, widest, widest)
            full = len(self.render(most, widest))
            widest = max(widest, size + 32 + full)
        # Only the full marker can be followed: it is worth all but a row's room.
        if full < self._args.budget:
            return full, True
        terse = len(self.terse(most))
        return (terse if terse < self._args.budget else 1), False


def _selection(args: argparse.Namespace, file: BinaryIO) -> Iterator[_Row]:
    first, last = args.lines if args.lines else (1, None)
    lines = numbered(file, first, last)
    if args.grep is None:
        return (_Row(number, raw) for number, raw in lines)
    # Context past the budget could never be printed; a bounded one keeps memory bounded.
    return grep_lines(lines, args.grep, min(args.context, args.budget))


def _shown(entry_id: str, size: int, file: BinaryIO, args: argparse.Namespace) -> bytes:
    marker = _Marker(entry_id, args)
    reserve, full = marker.reserve(size)
    rows = _selection(args, file)
    page, held = _page(rows, args.budget, reserve)
    text = b"".join(row.data for row in page)
    left_out = _LeftOut.count(itertools.chain(held, rows))
    if left_out is None:
        return text
    if not full:
        return text + (marker.terse(left_out) if reserve > 1 else "\u2026").encode()
    # The first row left out must fit the page that the marker's command prints.
    budget = max(args.budget, left_out.first.chars() + reserve)
    return text + marker.render(left_out, budget).encode()


def show(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    store = Store()
    try:
        entry_id = store.resolve(args.id)
        with store.opened(entry_id) as (entry, file):
            # The file's own size bounds every number a marker states, whatever its metadata says.
            text = _shown(entry_id, os.fstat(file.fileno()).st_size, file, args)
    except Evicted as exc:
        sys.stderr.write(f"shapeclip show: no entry {exc.args[0]} in {store.path}: {EVICTED}\n")
        return 1
    except Unknown:
        sys.stderr.write(f"shapeclip show: no entry in {store.path} has, or recently had, an ID starting {args.id}\n")
        return 1
    except Ambiguous as exc:
        sys.stderr.write(f"shapeclip show: {exc}; give more of the ID\n")
        return 1
    sys.stdout.buffer.write(text)
    sys.stdout.buffer.flush()
    from . import savings  # what was cut and is read after all was not saved

    savings.gave_back(entry.tool, "cli", len(text.decode("utf-8", "replace")), entry=entry_id)
    return 0
