"""Whether a text fits a budget, and how several texts share one: the rules the Python side
decides them by.

A text fits when its length in code points (as `len` counts a `str`, and as the core counts
the decoded input) is at most the budget. The native path decides for itself, in the core's
engine; everything in Python asks this function: the facade (a text that fits passes through
untouched, and no answer may break the budget), the keeper (an input is stored only when it
is cut), the pure-Python clip (an input that fits passes through), and the hooks (a tool's
output that fits is left as the tool gave it). Several texts that share a budget (the text
blocks of one tool result, the results of one turn) share it as `shares` says, in the message
helpers and the hooks alike. Nothing to import, so any module may use it.
"""

from __future__ import annotations


def fits(chars: int, budget: int) -> bool:
    """Whether `chars` characters fit in `budget`: the text passes through whole, or, for an
    answer, may be given."""
    return chars <= budget


#: The least room a cut text gets where texts share a budget: room for a marker and a few
#: lines, so that no text is reduced to an ellipsis.
MIN_SHARE = 500


def split_evenly(lengths: list[int], room: int) -> list[int]:
    """Shares of `room` for pieces of these lengths: every piece that fits the common level
    keeps its length, the longer ones get the level (the first ones one more to use it all),
    and no share is below 1. A piece's share never exceeds its length."""
    if sum(lengths) <= room:
        return list(lengths)
    # The highest level at which the pieces, each capped at the level, still fit the room.
    low, high = 0, max(lengths)
    while low < high:
        level = (low + high + 1) // 2
        if sum(min(length, level) for length in lengths) <= room:
            low = level
        else:
            high = level - 1
    left = room - sum(min(length, low) for length in lengths)
    shares = []
    for length in lengths:
        share = min(length, low)
        if length > low and left > 0:
            share, left = share + 1, left - 1
        shares.append(max(share, min(length, 1)))
    return shares


def shares(lengths: list[int], room: int) -> list[int] | None:
    """How texts of these lengths share `room`, as `split_evenly` splits it; None when a text
    would be cut to less than `MIN_SHARE` (a result of hundreds of text blocks): such texts are
    to be joined by newlines and cut as one, so that one marker says what was cut."""
    split = split_evenly(lengths, room)
    if len(lengths) > 1 and any(n > s and s < MIN_SHARE for n, s in zip(lengths, split, strict=True)):
        return None
    return split
