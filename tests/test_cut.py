"""Where shapeclip cuts inside a line: between what a reader sees as characters, never inside one.

A line cut at a character count could split a letter from its accents, an emoji from its skin
tone or the rest of its ZWJ sequence, a flag in two, or an ANSI escape sequence, whose broken
half then eats the marker after it on a terminal. Inputs here are built from such clusters, so
the places a cut may fall are known by construction. Counts stay in code points.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import accumulate, pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import COMPACT, FULL, TERSE, require_shape, split_output
from shapeclip import _extenders, api

#: Each one what a reader takes for one character, or one escape sequence.
CLUSTERS = [
    "a",
    "Z",
    " ",
    "\u4e2d",
    "e\u0301",
    "a\u0308\u0323",
    "\u0915\u093f",  # Devanagari KI: a consonant and its spacing vowel sign
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family: a ZWJ sequence
    "\U0001f44d\U0001f3fd",  # thumbs up, medium skin tone
    "\u2764\ufe0f",  # heart with its emoji variation selector
    "1\ufe0f\u20e3",  # keycap one
    "\U0001f1eb\U0001f1f7",  # flag of France: two regional indicators
    "\U0001f1e9\U0001f1ea",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # flag of Scotland: tags
    "\x1b[31m",
    "\x1b[38;5;196m",
    "\x1b[0m",
    "\x1b]8;;http://example.com/\x1b\\",  # a hyperlink's opening
]

#: Lines of clusters, some of one cluster repeated (long flag runs pair from their start).
cluster_lines = st.one_of(
    st.lists(st.sampled_from(CLUSTERS), max_size=60),
    st.builds(lambda c, n: [c] * n, st.sampled_from(CLUSTERS), st.integers(20, 400)),
)
cluster_texts = st.lists(st.tuples(cluster_lines, st.sampled_from([["\n"], []])), max_size=30).map(
    lambda lines: [part for line, end in lines for part in line + end]
)


def boundaries(parts: list[str]) -> set[int]:
    return set(accumulate(map(len, parts), initial=0))


# Budgets from 100: smaller ones leave the clip too little of the tail's text before its cut to
# see the start of an escape sequence there.
@given(parts=cluster_texts, budget=st.integers(100, 2000), tool=st.sampled_from(["bash", "read_file", None]))
def test_issue_11_14_a_clip_cuts_between_clusters(
    backend: str, parts: list[str], budget: int, tool: str | None
) -> None:
    text = "".join(parts)
    result = shapeclip.compress_detailed(text, tool, budget)
    require_shape(result, "clip", ("clip", "log", "read", "passthrough"))
    marker = FULL.search(result.text) or COMPACT.search(result.text) or TERSE.search(result.text)
    assert marker is not None, result.text
    shown = len(text) - result.omitted_chars
    head, tail = next((h, t) for h, t in split_output(text, result.text, marker) if h + t == shown)
    assert head in boundaries(parts), f"head cut at {head}: {text[max(0, head - 5) : head + 5]!r}"
    assert len(text) - tail in boundaries(parts), f"tail cut at {len(text) - tail}"


@pytest.fixture
def native() -> None:
    if api._core is None:
        pytest.skip("the search and log planners are in the native core, which is not built")


def test_issue_11_14_a_search_row_is_cut_before_an_accent(native: None) -> None:
    # A row shows 300 characters: "1:", 297 x and the e, whose accent would be the 301st.
    row = "src/a.py:1:" + "x" * 297 + "e\u0301" + "y" * 50 + "\n"
    text = row + "".join(f"src/{name}.py:{i}:match\n" for name in "abcde" for i in range(2, 60))
    out = shapeclip.compress(text, "grep", 1500)
    assert "\n1:" + "x" * 297 + " [shapeclip: 52 more chars of this line]\n" in out, out


def test_issue_11_14_a_log_line_is_cut_before_a_skin_tone(native: None) -> None:
    # At budget 4,000 a log line shows 500 characters; the 500th is the thumb, the 501st its tone.
    line = "error: " + "y" * 492 + "\U0001f44d\U0001f3fd" + "z" * 10
    text = "".join(f"step {i} ok\n" for i in range(3000)) + line + "\n"
    text += "".join(f"step {i} ok\n" for i in range(300)) + "1 failed, 2 passed in 1.0s\n"
    result = shapeclip.compress_detailed(text, "bash", 4000)
    assert result.shape == "log"
    assert "error: " + "y" * 492 + " [shapeclip: 12 more chars of this line]\n" in result.text, result.text


def test_issue_11_14_the_two_backends_share_one_table_of_extenders() -> None:
    rust = (Path(__file__).parent.parent / "rust" / "text" / "extenders.rs").read_text()
    pairs = [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\(0x([0-9A-F]+), 0x([0-9A-F]+)\)", rust)]
    assert tuple(pairs) == _extenders.EXTENDERS
    assert all(a <= b < c for (a, b), (c, _) in pairwise(pairs))


def test_issue_11_14_the_table_holds_every_mark_this_python_knows() -> None:
    ours = tuple(map(int, _extenders.UNICODE_VERSION.split(".")))
    if tuple(map(int, unicodedata.unidata_version.split("."))) > ours:
        pytest.skip(f"this Python knows Unicode {unicodedata.unidata_version}, newer than the table's")
    inside = {cp for a, b in _extenders.EXTENDERS for cp in range(a, b + 1)}
    marks = {cp for cp in range(0x110000) if unicodedata.category(chr(cp))[0] == "M"}
    assert marks <= inside


def colour_left_on(text: str) -> bool:
    """Whether the last SGR sequence of `text` sets a colour or style rather than resetting all."""
    sgr = re.findall(r"\x1b\[([0-9;:]*)m", text)
    return bool(sgr) and any(c not in "0;" for c in sgr[-1])


@given(parts=cluster_texts, budget=st.integers(100, 2000), tool=st.sampled_from(["bash", "read_file", None]))
def test_issue_11_14_no_colour_runs_into_a_clip_marker(
    backend: str, parts: list[str], budget: int, tool: str | None
) -> None:
    result = shapeclip.compress_detailed("".join(parts), tool, budget)
    assert len(result.text) <= budget
    require_shape(result, "clip", ("clip", "log", "read", "passthrough"))
    marker = FULL.search(result.text) or COMPACT.search(result.text) or TERSE.search(result.text)
    assert marker is not None, result.text
    assert not colour_left_on(result.text[: marker.start()])


def test_issue_11_14_a_red_head_is_reset_before_the_marker(backend: str) -> None:
    out = shapeclip.compress("\x1b[31m" + "red line\n" * 2000, "bash", 1500)
    assert "red line\n\x1b[0m[shapeclip: lines " in out, out


def test_issue_11_14_a_search_row_leaving_colour_on_is_reset(native: None) -> None:
    text = "src/a.py:1:\x1b[31m" + "x" * 400 + "\n" + "src/a.py:2:\x1b[32mgreen\n"
    text += "".join(f"src/{name}.py:{i}:match\n" for name in "bcde" for i in range(3, 60))
    out = shapeclip.compress(text, "grep", 1500)
    assert "\n1:\x1b[31m" + "x" * 293 + "\x1b[0m [shapeclip: 107 more chars of this line]\n" in out, out
    assert "\n2:\x1b[32mgreen\x1b[0m\n" in out, out
