"""One page of `shapeclip show`: the rows that fit its budget, and the closing marker that
names what it left out, by its numbers in the stored file, with the exact `shapeclip show`
commands that print it. A row longer than a page is cut, and its rest named by characters
(`--chars`), so following the markers gives back exactly what was asked, a page at a time,
and a page never grows past its budget.
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .defaults import DEFAULT_BUDGET
from .show_rows import SEPARATOR, Piece


@dataclass(frozen=True)
class Request:
    """What `show` was asked, which the commands in its markers ask again for other lines."""

    prefix: str
    lines: tuple[int, int] | None
    chars: tuple[int, int] | None
    grep: str | None
    fixed: bool
    pattern: re.Pattern[str] | None
    context: int
    budget: int

    @property
    def first(self) -> int:
        return self.lines[0] if self.lines else 1


def paged(pieces: Iterator[Piece], budget: int, rows_room: int, cut_room: int) -> tuple[list[Piece], list[Piece]]:
    """The pieces to print, and those read but left out (none when all fit `budget`). When not
    all fit, the page keeps the whole rows that fit `rows_room`, the budget less the marker
    that names rows; where not even the first does, the first characters of it that fit
    `cut_room`, the budget less the marker that names a row's rest too."""
    page: list[Piece] = []
    used = 0
    for piece in pieces:
        page.append(piece)
        used += piece.chars()
        if used > budget:
            break
    else:
        return page, []
    kept = len(page)
    while kept and used > rows_room:
        kept -= 1
        used -= page[kept].chars()
    if kept:
        return page[:kept], page[kept:]
    first = page[0]
    cut = first.start + cut_room - len(first.separator())
    if cut <= first.start:
        return [], page
    return [replace(first, stop=cut)], [replace(first, start=cut), *page[1:]]


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def lines_words(first: int, last: int, grouping: str = ",") -> str:
    return f"line {first:{grouping}}" if first == last else f"lines {first:{grouping}}-{last:{grouping}}"


@dataclass(frozen=True)
class _Rest:
    """The characters `first` to `last` (1-based, inclusive) of the row of line `line`, which
    a page cut."""

    line: int
    first: int
    last: int


@dataclass(frozen=True)
class _Rows:
    """The whole rows a page left out, to the end of the selection: the rows of lines `first`
    to `last`."""

    first: int
    last: int
    count: int
    chars: int
    matches: int

    @classmethod
    def of(cls, pieces: Iterator[Piece], first: int) -> _Rows | None:
        piece = next(pieces, None)
        if piece is None:
            return None
        last, count, chars, matches = piece.row.number, 1, piece.chars(), int(piece.row.match)
        for piece in pieces:
            last, count, chars, matches = piece.row.number, count + 1, chars + piece.chars(), matches + piece.row.match
        return cls(first, last, count, chars, matches)


@dataclass(frozen=True)
class LeftOut:
    """What a page left out: the rest of a row it cut, the whole rows after, their characters."""

    rest: _Rest | None
    rows: _Rows | None
    chars: int

    def lines(self) -> tuple[int, int]:
        """The first and the last line of what was left out."""
        if self.rows is None:
            assert self.rest is not None, "a page leaves out the rest of a row, rows after, or both"
            return self.rest.line, self.rest.line
        return (self.rest.line if self.rest else self.rows.first), self.rows.last


def left_out(page: list[Piece], held: list[Piece], unread: Iterator[Piece], first: int) -> LeftOut | None:
    """What the page left out of a selection that starts at line `first`. The rows after it
    are named from the line after the last one the page printed, so that their command
    prints the `--` that may come before them."""
    if not held:
        return None
    cut = held[0]
    rest = _Rest(cut.row.number, cut.start + 1, cut.stop) if cut.start > 0 else None
    after = page[-1].row.number if page else first - 1
    rows = _Rows.of(itertools.chain(held[1:] if rest else held, unread), after + 1)
    chars = (cut.chars() if rest else 0) + (rows.chars if rows else 0)
    return LeftOut(rest, rows, chars)


class Marker:
    """The closing marker of a page that left something out: what, by its numbers in the
    stored file, and the `shapeclip show` commands that print it."""

    def __init__(self, entry_id: str, request: Request) -> None:
        self._id = entry_id
        self._request = request

    def _command(self, lines: tuple[int, int], chars: tuple[int, int] | None) -> str:
        request = self._request
        words = ["shapeclip", "show", self._id]
        if request.grep is not None:
            # `=` and quoting: a PATTERN that starts with `-` or holds spaces reads back as itself.
            words += ["-F"] if request.fixed else []
            words.append("--grep=" + shlex.quote(request.grep))
            words += ["-C", str(request.context)] if request.context else []
        words += ["--lines", f"{lines[0]}:{lines[1]}"]
        words += ["--chars", f"{chars[0]}:{chars[1]}"] if chars else []
        words += [] if request.budget == DEFAULT_BUDGET else ["--budget", str(request.budget)]
        return " ".join(words)

    def render(self, left: LeftOut) -> str:
        what, commands = [], []
        if left.rest is not None:
            rest = left.rest
            row = "" if self._request.grep is None else "'s row"
            what.append(f"characters {rest.first:,}-{rest.last:,} of line {rest.line:,}{row}")
            commands.append(self._command((rest.line, rest.line), (rest.first, rest.last)))
        if left.rows is not None:
            rows = left.rows
            lines = lines_words(rows.first, rows.last)
            if self._request.grep is not None:
                lines = f"{plural(rows.count, 'row')} ({rows.matches:,} matching) of {lines}"
            what.append(lines)
            commands.append(self._command((rows.first, rows.last), None))
        return (
            f"[shapeclip: {' and '.join(what)} not shown ({plural(left.chars, 'char')}): over the budget of "
            f"{self._request.budget:,} characters. To see them, run {', then '.join(commands)}]\n"
        )

    @staticmethod
    def terse(left: LeftOut) -> str:
        return f"[{lines_words(*left.lines(), '')} not shown{' in part' if left.rest else ''}]\n"

    def reserves(self, size: int) -> tuple[_Reserve, _Reserve]:
        """What the marker may take for an output of `size` bytes, whatever it names: when it
        names whole rows, and when it names the rest of a row a page cut too."""
        # No number a marker names passes this: a line has a byte at least, and its row adds
        # its number, `:`, a newline and the `--` before it.
        widest = (size + 1) * (len(str(size + 1)) + 6)
        rows = _Rows(widest, widest, widest, widest, widest)
        rest = _Rest(widest, widest, widest)
        # `--chars` asks for one row: nothing comes after its rest.
        return self._reserve(LeftOut(None, rows, widest)), self._reserve(
            LeftOut(rest, None if self._request.chars else rows, widest)
        )

    def _reserve(self, most: LeftOut) -> _Reserve:
        full = len(self.render(most))
        # Only the full marker can be followed: it is worth all but the room for a character
        # and the `--` before it.
        if full + len(SEPARATOR) < self._request.budget:
            return _Reserve(full, True)
        terse = len(self.terse(most))
        return _Reserve(terse if terse < self._request.budget else 1, False)


@dataclass(frozen=True)
class _Reserve:
    """The characters a page keeps for its marker, and whether that is the full marker (else
    the terse one, or for a budget too small for that, an ellipsis)."""

    chars: int
    full: bool
