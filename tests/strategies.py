"""Hypothesis strategies for tool outputs, and reference computations to check results against."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import strategies as st

# Characters that break naive code: astral (2 UTF-16 units), combining marks, CJK, NUL, CR,
# tab, ANSI escapes, replacement character, and clusters a cut must keep whole: a consonant
# and its vowel sign, an emoji and its skin tone, a ZWJ sequence, a flag.
TRICKY = [
    "a",
    "Z",
    " ",
    "\t",
    "\x00",
    "\r",
    "\x1b[31m",
    "\u00e9",
    "e\u0301",
    "\u4e2d",
    "\U0001f600",
    "\ufffd",
    "\u200b",
    "\x1b[38;5;196m",
    "\x1b[0m",
    "\u0915\u093f",
    "\U0001f44d\U0001f3fd",
    "\U0001f468\u200d\U0001f469",
    "\U0001f1eb\U0001f1f7",
]

line = st.one_of(
    st.lists(st.sampled_from(TRICKY), max_size=30).map("".join),
    st.text(max_size=20),
    st.builds(lambda ch, n: ch * n, st.sampled_from(TRICKY), st.integers(50, 3000)),
)
ending = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", ""])

#: Text shaped like tool output: lines of mixed content with mixed endings.
outputs = st.lists(st.tuples(line, ending), max_size=120).map(lambda parts: "".join(a + b for a, b in parts))

#: Budgets from the degenerate to the usual.
budgets = st.one_of(st.integers(1, 40), st.integers(41, 600), st.sampled_from([1000, 4000, 16000]))

tools = st.sampled_from(
    [None, "bash", "BASH", "read_file", "grep", "web_fetch", "some_tool", "weird\n[tool]", "rtl\u202eflip\u2069"]
)


def split_points(text_len: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, text_len), max_size=8).map(sorted)


def split(data: str | bytes, points: list[int]) -> list[str | bytes]:
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in pairwise(bounds)]
