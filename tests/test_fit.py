"""`fit.shares`: how the text blocks of one tool result share a budget, in the message helpers
and the hooks alike."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from shapeclip.fit import MIN_SHARE, shares, split_evenly


@given(st.lists(st.integers(0, 20_000), min_size=1, max_size=30), st.integers(1, 60_000))
@example(lengths=[6, 7, 7], room=19)  # the level is 6, and the char left makes one 7 whole
def test_a_split_keeps_short_texts_whole_and_gives_the_long_ones_one_level(lengths: list[int], room: int) -> None:
    split = split_evenly(lengths, room)
    assert all(s <= n for s, n in zip(split, lengths, strict=True))
    if sum(lengths) <= room:
        assert split == lengths
        return
    if room >= len(lengths):
        assert sum(split) == room  # all the room is used, and no more
    cut = [s for s, n in zip(split, lengths, strict=True) if s < n]
    if room < len(lengths):
        assert all(s >= min(n, 1) for s, n in zip(split, lengths, strict=True))  # never below 1
        return
    # Every cut text gets the same level (one more for the first ones), at least any whole one
    # but one the char left over made whole, which is one longer than the level.
    assert max(cut) - min(cut) <= 1
    assert all(n <= min(cut) + 1 for s, n in zip(split, lengths, strict=True) if s == n)


@given(st.lists(st.integers(0, 20_000), min_size=1, max_size=30), st.integers(1, 60_000))
def test_texts_are_joined_only_when_one_would_be_cut_below_the_least_share(lengths: list[int], room: int) -> None:
    split = split_evenly(lengths, room)
    too_small = any(s < n and s < MIN_SHARE for s, n in zip(split, lengths, strict=True))
    assert shares(lengths, room) == (None if too_small and len(lengths) > 1 else split)
