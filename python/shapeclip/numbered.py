"""A file read whose lines a viewer numbered with the file's own numbers (`cat -n`, Claude Code's
Read, SWE-agent's window): the offset a marker gives a file-reading tool is the file's number of
the line. The same rule as the core's, `rust/numbered.rs`, which says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADER_LINES = 3
_TRAILER_LINES = 3
_U64_MAX = 2**64 - 1
_NUMBER = re.compile(r" *([0-9]+)[\t:\u2192]")


@dataclass(frozen=True)
class Numbered:
    """How the output's lines map to the file's: the first and last numbered lines and the
    distance."""

    first: int
    last: int
    shift: int

    def file_line(self, line: int) -> int:
        """The file's number of output line `line`, or of the first numbered line above it."""
        return min(max(max(line, self.first) + self.shift, 1), _U64_MAX)

    def printed(self, first: int, last: int) -> tuple[int, int] | None:
        """The viewer's numbers of output lines `first` and `last`, where both are numbered."""
        if self.first <= first <= last <= self.last:
            return first + self.shift, last + self.shift
        return None

    def widest(self) -> int:
        """The largest number `printed` gives: the viewer's on its last numbered line."""
        return self.last + self.shift


def _number(line: str) -> int | None:
    match = _NUMBER.match(line)
    if match is None:
        return None
    n = int(match.group(1))
    return n if n <= _U64_MAX else None


def read_numbered(head: str, tail: str, lines: int) -> Numbered | None:
    """How an output whose first characters are `head`, last `tail` and lines `lines` is
    numbered, where a viewer numbered every line but a few above and below; else `None`."""
    # The head's last piece and the tail's first may be parts of lines.
    head_lines = head.split("\n")[:-1]
    at = next((i for i, line in enumerate(head_lines[: _HEADER_LINES + 1]) if _number(line) is not None), None)
    if at is None:
        return None
    first = at + 1
    shift = (_number(head_lines[at]) or 0) - first

    def agrees(no: int, line: str) -> bool:
        n = _number(line)
        return n is not None and n - no == shift

    tail_lines = (tail[:-1] if tail.endswith("\n") else tail).split("\n")[1:]
    below = next(
        (i for i, line in enumerate(tail_lines[::-1][: _TRAILER_LINES + 1]) if _number(line) is not None),
        None,
    )
    if below is None:
        return None
    numbered = len(tail_lines) - below
    # The output's last numbered line: in an output little longer than the budget, the head
    # reaches the lines below it.
    last = lines - below
    start = last + 1 - numbered
    head_agrees = all(no > last or agrees(no, line) for no, line in enumerate(head_lines[at:], first))
    tail_agrees = all(no < first or agrees(no, line) for no, line in enumerate(tail_lines[:numbered], start))
    return Numbered(first, last, shift) if first <= last and head_agrees and tail_agrees else None
