"""`shapeclip show`: the lines of a stored output, as stored, numbered as its markers number
them, one page at a time.

A marker sends an agent here, so what `show` prints must be followable in turn: it prints
the asked lines (or, with `--grep`, the rows `grep -n -C N` prints of the whole output, for
the asked lines) in order until the budget (16,000 characters unless told) would be passed,
then one marker naming what it left out by its numbers in the stored file and the exact
`shapeclip show` that prints it. A row longer than a page is printed a page of characters at
a time (`--chars`). Following the markers gives back exactly what was asked, and nothing but
`show`'s own markers looks like one: a look-alike in the stored text has its bracket rounded,
as the compressor's (`lookalike`). Nothing is planned or re-cut, since a planner would read
`N:` row numbers as part of the output and number its own markers from the page.

Characters are counted as Python's `len` counts the output decoded as UTF-8 with a byte that
is not UTF-8 as one character (`surrogateescape`), so that any run of them is printed back
byte for byte. The rows are read in `show_rows`, and paged and marked in `show_page`; this
module reads the arguments, finds the entry and says what went wrong.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from collections.abc import Iterator
from typing import BinaryIO

from .cli_numbers import positive
from .defaults import DEFAULT_BUDGET
from .show_page import Marker, Request, left_out, lines_words, paged, plural
from .show_rows import READ_BYTES, Piece, Row, grep_rows, line_rows
from .store import EVICTED, Ambiguous, Damaged, Evicted, Store, Unknown

#: The fewest digits of an ID `Store.resolve` takes.
_SHORTEST_PREFIX = 4
_HEX = re.compile("[0-9a-f]+")


def _span(value: str, unit: str) -> tuple[int, int]:
    """`A:B`, or `A` for `A:A`: 1-based, in order, in ASCII digits (as `-C` and `--budget`)."""
    first, sep, last = value.partition(":")
    numbers = (first, last) if sep else (first,)
    if not all(number.isascii() and number.isdigit() for number in numbers):
        raise argparse.ArgumentTypeError(f"must be A:B, two {unit} numbers in digits 0-9, got {value!r}")
    a, b = int(first), int(numbers[-1])
    if a < 1 or b < a:
        raise argparse.ArgumentTypeError(f"must be 1-based and in order, got {value!r}")
    return a, b


def _line_span(value: str) -> tuple[int, int]:
    return _span(value, "line")


def _char_span(value: str) -> tuple[int, int]:
    return _span(value, "character")


def _count(value: str) -> int:
    if not (value.isascii() and value.isdigit()):
        raise argparse.ArgumentTypeError(f"must be a whole number of lines, got {value!r}")
    return int(value)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip show",
        description="Print lines of a stored output, numbered as in the marker that names it, a page at a time: "
        "a closing marker says how to print what the budget left out.",
    )
    parser.add_argument("id", metavar="ID", help="the entry's ID as the marker prints it, or a unique start of it")
    parser.add_argument("--lines", metavar="A:B", type=_line_span, help="lines A to B (1-based, inclusive)")
    parser.add_argument(
        "--chars",
        metavar="A:B",
        type=_char_span,
        help="characters A to B (1-based, inclusive) of the one row that --lines N:N selects",
    )
    parser.add_argument(
        "--grep", metavar="PATTERN", help="the rows grep -n prints of lines matching a Python regular expression"
    )
    parser.add_argument(
        "-F", "--fixed-strings", dest="fixed", action="store_true", help="PATTERN is a string, as grep -F takes it"
    )
    parser.add_argument("-C", metavar="N", dest="context", type=_count, help="context lines for --grep")
    parser.add_argument(
        "--budget",
        metavar="N",
        type=positive("characters"),
        default=DEFAULT_BUDGET,
        help=f"characters printed at most, the closing marker included (default {DEFAULT_BUDGET})",
    )
    return parser


def _without_pattern(argv: list[str]) -> tuple[list[str], str | None]:
    """`argv` without `--grep PATTERN` (or `--grep=PATTERN`), and that PATTERN: grep takes the
    word after `-e` as the pattern whatever it is, where argparse would read one such as
    `-Werror` as an option, and `--` as no value at all."""
    words, pattern = [], None
    rest = iter(argv)
    for word in rest:
        if word.startswith("--grep="):
            pattern = word.removeprefix("--grep=")
        elif word == "--grep" and (following := next(rest, None)) is not None:
            pattern = following
        else:
            words.append(word)
    return words, pattern


def _request(argv: list[str]) -> Request:
    parser = _parser()
    words, pattern = _without_pattern(argv)
    args = parser.parse_args(words)
    grep = args.grep if pattern is None else pattern
    if grep is None and args.context is not None:
        parser.error("-C N is context around the matches of --grep: give it with --grep")
    if grep is None and args.fixed:
        parser.error("-F says how to read the PATTERN of --grep: give it with --grep")
    if args.chars is not None and (args.lines is None or args.lines[0] != args.lines[1]):
        parser.error("--chars A:B cuts one row: give it with --lines N:N")
    compiled = None if grep is None else _compiled(parser, grep, args.fixed)
    return Request(args.id, args.lines, args.chars, grep, args.fixed, compiled, args.context or 0, args.budget)


def _compiled(parser: argparse.ArgumentParser, grep: str, fixed: bool) -> re.Pattern[str]:
    try:
        return re.compile(re.escape(grep) if fixed else grep)
    except re.error as exc:
        parser.error(f"argument --grep: is not a valid regular expression ({exc}); -F takes it as a string")


class _Nothing(Exception):
    """`show` has nothing to print: the message says why."""


def _pieces(file: BinaryIO, request: Request) -> Iterator[Piece]:
    first, last = request.lines if request.lines else (1, None)
    if request.pattern is None:
        rows = line_rows(file, first, last)
    else:
        rows = grep_rows(file, first, last, request.pattern, request.context)
    if request.chars is None:
        return (Piece.whole(row) for row in rows)
    return _cut(rows, request.chars, "line" if request.pattern is None else "the row of line")


def _cut(rows: Iterator[Row], chars: tuple[int, int], what: str) -> Iterator[Piece]:
    """The asked characters of the one row (none where a grep has no row)."""
    row = next(rows, None)
    if row is None:
        return
    a, b = chars
    if a > len(row.text):
        size = plural(len(row.text), "character")
        raise _Nothing(f"{what} {row.number:,} has {size}: --chars {a}:{b} starts past its end")
    yield Piece(row, a - 1, min(b, len(row.text)))


def _shown(entry_id: str, size: int, file: BinaryIO, request: Request) -> str:
    marker = Marker(entry_id, request)
    whole, cut = marker.reserves(size)
    pieces = _pieces(file, request)
    page, held = paged(pieces, request.budget, request.budget - whole.chars, request.budget - cut.chars)
    if not page and not held:
        raise _Nothing(_why_nothing(entry_id, file.fileno(), size, request))
    text = "".join(piece.text() for piece in page)
    left = left_out(page, held, pieces, request.first)
    if left is None:
        return text
    reserve = cut if left.rest else whole
    if not reserve.full:
        return text + (marker.terse(left) if reserve.chars > 1 else "\u2026")
    return text + marker.render(left)


def _line_count(fd: int, size: int) -> int:
    newlines = sum(os.pread(fd, READ_BYTES, offset).count(b"\n") for offset in range(0, size, READ_BYTES))
    return newlines + (size > 0 and os.pread(fd, 1, size - 1) != b"\n")


def _why_nothing(entry_id: str, fd: int, size: int, request: Request) -> str:
    lines = _line_count(fd, size)
    if request.first > lines:
        asked = f": --lines {request.lines[0]}:{request.lines[1]} starts past its end" if request.lines else ""
        return f"the output stored as {entry_id} has {plural(lines, 'line')}{asked}"
    assert request.grep is not None, "only a grep selects none of the lines an output has"
    where = f"{lines_words(*request.lines)} of {entry_id}" if request.lines else entry_id
    near = f" or within {plural(request.context, 'line')} of them" if request.context else ""
    return f"no match of {shlex.quote(request.grep)} in {where}{near}"


def _resolve(store: Store, prefix: str) -> str:
    """The ID that `prefix` starts, which may be in upper case. Raises `_Nothing` for what
    cannot start one, and `Store.resolve`'s errors."""
    lowered = prefix.lower() if prefix.isascii() else prefix
    if not _HEX.fullmatch(lowered):
        raise _Nothing(f"no entry in {store.path} has, or recently had, an ID starting {prefix}: IDs are hex digits")
    if len(lowered) < _SHORTEST_PREFIX:
        raise _Nothing(f"{prefix} is too short to name an entry: give at least {_SHORTEST_PREFIX} digits of its ID")
    return store.resolve(lowered)


def show(argv: list[str]) -> int:
    request = _request(argv)
    store = Store()
    try:
        entry_id = _resolve(store, request.prefix)
        with store.opened(entry_id) as (entry, file):
            text = _shown(entry_id, entry.size, file, request).encode("utf-8", "surrogateescape")
    except Evicted as exc:
        sys.stderr.write(f"shapeclip show: no entry {exc.args[0]} in {store.path}: {EVICTED}\n")
        return 1
    except Damaged as exc:
        sys.stderr.write(
            f"shapeclip show: the entry {exc.args[0]} in {store.path} is damaged: {exc.why}. Run the command again; "
            "shapeclip store --prune removes damaged entries\n"
        )
        return 1
    except Unknown:
        sys.stderr.write(
            f"shapeclip show: no entry in {store.path} has, or recently had, an ID starting {request.prefix}\n"
        )
        return 1
    except Ambiguous as exc:
        sys.stderr.write(f"shapeclip show: {exc}; give more of the ID\n")
        return 1
    except _Nothing as exc:
        sys.stderr.write(f"shapeclip show: {exc}\n")
        return 1
    sys.stdout.buffer.write(text)
    sys.stdout.buffer.flush()
    from . import savings  # what was cut and is read after all was not saved

    savings.gave_back(entry.tool, "cli", len(text.decode("utf-8", "replace")), entry=entry_id)
    return 0
