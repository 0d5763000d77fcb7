"""Where a line may be cut: between what a reader sees as characters, never inside one.

The pure-Python twin of the core's `rust/text/cut.rs`, which explains the rules; the two must cut
identically, so they share one table of extenders and read escape sequences alike. Positions
here are indices of code points, as `str` counts them. `sgr_open` says whether text leaves a
colour on, so that a marker after it can be preceded by `SGR_RESET`.
"""

from __future__ import annotations

from bisect import bisect_right

from ._extenders import EXTENDERS

#: Characters a cut moves at most to keep a cluster or an escape sequence whole.
MAX_SHIFT = 32
#: Turns every colour and style off.
SGR_RESET = "\x1b[0m"

_STARTS = tuple(first for first, _ in EXTENDERS)
_ZWJ = "\u200d"


def _extends(c: str) -> bool:
    i = bisect_right(_STARTS, ord(c)) - 1
    return i >= 0 and ord(c) <= EXTENDERS[i][1]


def _regional_indicator(c: str) -> bool:
    return "\U0001f1e6" <= c <= "\U0001f1ff"


def _run(text: str, at: int, step: int) -> int:
    """Regional indicators in a row from `at` on, going `step` (1 or -1)."""
    n = 0
    while 0 <= at < len(text) and _regional_indicator(text[at]):
        n, at = n + 1, at + step
    return n


def _splits(text: str, at: int, whole_before: bool) -> bool:
    """Whether a cut at `at` (0 < at < len) splits a cluster or an escape sequence. Flags pair
    from the start of their run when the text before the cut is whole, else from its end."""
    a, b = text[at - 1], text[at]
    if _extends(b) or a == _ZWJ:
        return True
    if _regional_indicator(a) and _regional_indicator(b):
        run = _run(text, at - 1, -1) if whole_before else _run(text, at, 1)
        return run % 2 == 1
    esc = text.rfind("\x1b", max(0, at - MAX_SHIFT), at)
    return esc >= 0 and not _ends_by(text, esc, at)


def _ends_by(text: str, esc: int, at: int) -> bool:
    """Whether the escape sequence starting at `esc` ends at or before `at`."""
    after = text[esc + 1 : esc + 2]
    if after in ("[", "]"):
        return any(_closes(text, k, after) for k in range(esc + 2, at))
    if after in ("(", ")"):
        return esc + 2 < at
    if after.isascii() and after:
        return esc + 1 < at
    return True


def _escape_end(text: str, esc: int) -> int:
    """Just past the escape sequence starting at `esc` (the end of `text`, if unterminated)."""
    after = text[esc + 1 : esc + 2]
    if after in ("[", "]"):
        return next((k + 1 for k in range(esc + 2, len(text)) if _closes(text, k, after)), len(text))
    if after in ("(", ")"):
        return min(esc + 3, len(text))
    if after.isascii() and after:
        return esc + 2
    return esc + 1


def _closes(text: str, k: int, kind: str) -> bool:
    """Whether character `k` of a CSI (`kind` "[") or OSC ("]") sequence is its last."""
    if kind == "[":
        return "\x40" <= text[k] <= "\x7e"
    return text[k] == "\x07" or (text[k] == "\\" and text[k - 1] == "\x1b")


def cut_before(text: str, at: int) -> int:
    """The latest place at or before `at` that splits no cluster or escape sequence, at most
    `MAX_SHIFT` characters back (`at` itself when there is none); `text` starts a line."""
    return _shift(text, at, -1)


def cut_after(text: str, at: int) -> int:
    """The earliest place at or after `at` that splits no cluster or escape sequence, at most
    `MAX_SHIFT` characters on (`at` itself when there is none); `text` ends the input."""
    return _shift(text, at, 1)


def _shift(text: str, at: int, step: int) -> int:
    cut = at
    for _ in range(MAX_SHIFT + 1):
        if cut <= 0 or cut >= len(text) or not _splits(text, cut, whole_before=step < 0):
            return cut
        cut += step
    return at


def sgr_open(text: str) -> bool:
    """Whether `text` leaves a colour or style on: its last SGR sequence (`ESC [ … m`) sets one
    rather than turning all off (`ESC[m`, `ESC[0m`, `ESC[0;0m`)."""
    is_open = False
    esc = text.find("\x1b")
    while esc >= 0:
        end = _escape_end(text, esc)
        params = text[esc + 2 : end - 1]
        sgr = text[esc + 1 : esc + 2] == "[" and text[end - 1 : end] == "m" and end - esc >= 3
        if sgr and all(c in "0123456789;:" for c in params):
            is_open = any(c not in "0;" for c in params)
        esc = text.find("\x1b", end)
    return is_open
