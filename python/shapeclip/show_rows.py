"""What `shapeclip show` prints of a stored output, row by row: its lines as stored, or the
rows `grep -n -C N` prints of the whole output (`N:line` for a match, `N-line` around one,
`--` between groups), for the lines asked; and pieces of a row, for a page that cuts one.

A row's text is decoded with `surrogateescape`, so a byte that is not UTF-8 is one character
and any run of characters is written back byte for byte; a look-alike of shapeclip's own
marker has its bracket rounded, as the compressor's (`lookalike`).
"""

from __future__ import annotations

import io
import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

from .lookalike import disarm
from .store.store import numbered

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: What grep prints between groups of rows that do not touch.
SEPARATOR = "--\n"
#: Bytes `show` reads at a time where it reads by itself (`pread`) rather than by lines.
READ_BYTES = 1 << 20


@dataclass(frozen=True)
class Row:
    """What is printed for one line of the stored output: the line, or its `grep -n` row."""

    number: int
    text: str
    match: bool = False
    #: grep prints `--` before it: a row came before, and not from the line just before it.
    opens_group: bool = False


@dataclass(frozen=True)
class Piece:
    """Characters `start` to `stop` (0-based, half-open) of a row, and the `--` before it if
    the piece begins a row that has one."""

    row: Row
    start: int
    stop: int

    @classmethod
    def whole(cls, row: Row) -> Piece:
        return cls(row, 0, len(row.text))

    def separator(self) -> str:
        return SEPARATOR if self.row.opens_group and self.start == 0 else ""

    def chars(self) -> int:
        return len(self.separator()) + self.stop - self.start

    def text(self) -> str:
        return self.separator() + self.row.text[self.start : self.stop]


def decoded(raw: bytes) -> str:
    return disarm(raw.decode("utf-8", "surrogateescape"))


def line_rows(file: BinaryIO, first: int, last: int | None) -> Iterator[Row]:
    return (Row(number, decoded(raw)) for number, raw in numbered(file, first, last))


class _Pread(io.RawIOBase):
    """The file open at `fd`, read from its start with `pread`, which leaves the descriptor's
    position to its other reader."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._offset = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = os.pread(self._fd, len(view), self._offset)
        view[: len(data)] = data
        self._offset += len(data)
        return len(data)


def _matches(pattern: re.Pattern[str], body: bytes) -> bool:
    """Whether a line, without its newline, matches: read decoded, as the compressor reads it."""
    return pattern.search(body.decode("utf-8", "replace")) is not None


def _row_spans(fd: int, pattern: re.Pattern[str], context: int, first: int, last: int | None) -> Iterator[range]:
    """The lines `grep -n -C context` prints rows of, from line `first - 1` to `last`, as runs
    of lines that touch, each with no row just before or after it. It reads on its own
    (`_Pread`), holding no line, so a context of any size costs no memory; `grep_rows` reads
    the lines it prints."""
    start = max(first - 1 - context, 1)
    stop = None if last is None else last + context
    lines = itertools.islice(enumerate(io.BufferedReader(_Pread(fd), READ_BYTES), 1), start - 1, stop)
    span: range | None = None
    for number, raw in lines:
        if not _matches(pattern, raw.removesuffix(b"\n")):
            continue
        if span is not None and number - context > span.stop:
            yield span
            span = None
        span = range(span.start if span else max(number - context, 1), number + context + 1)
    if span is not None:
        yield span


def grep_rows(file: BinaryIO, first: int, last: int | None, pattern: re.Pattern[str], context: int) -> Iterator[Row]:
    """The rows that `grep -n -C context` prints of the whole output, of lines `first` to
    `last`, so a row may be context of a match outside them: `N:line` for a match, `N-line`
    around one. `--` opens each group of rows, the first too when the line before `first` is
    a row and `first` is not, so that following pages join as one grep's rows."""
    spans = _row_spans(file.fileno(), pattern, context, first, last)
    span = next(spans, range(0))
    while span and span.stop <= first - 1:
        span = next(spans, range(0))
    previous = first - 1 if first - 1 in span else None
    for number, raw in numbered(file, first, last):
        while span and span.stop <= number:
            span = next(spans, range(0))
        if number not in span:
            continue
        body = raw.removesuffix(b"\n")
        match = _matches(pattern, body)
        text = f"{number}{':' if match else '-'}{decoded(body)}\n"
        opens = context > 0 and previous is not None and number > previous + 1
        yield Row(number, text, match, opens)
        previous = number
