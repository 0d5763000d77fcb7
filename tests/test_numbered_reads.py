"""A file read whose lines a viewer numbered (SWE-agent's window, opencode's read, Claude Code's
Read from an offset, `cat -n`): the offset a marker gives a file-reading tool is the file's number of the
first omitted line, on both backends, and the output's own number where the numbers do not climb
by one throughout."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

import shapeclip

OFFSET = re.compile(r"offset (\d+)")
# SWE-agent's window, opencode's read (`N: text` in `<content>`), Claude Code's Read, `cat -n`.
FORMATS = ["{n}:", "{n}: ", "{n:>6}\t", "{n:>6}\u2192"]
HEADERS = ["[File: /repo/src/app.py (4000 lines total)]", "(546 more lines above)", "<type>file</type>", "<content>"]
TRAILERS = ["(2354 more lines below)", "File updated. Please review the changes.", "", "</content>"]


@st.composite
def views(draw: st.DrawFn) -> tuple[str, list[int | None], bool]:
    """A viewer's output, the number it printed on each line (`None` for its own lines), and
    whether the numbers climb by one throughout."""
    header = draw(st.lists(st.sampled_from(HEADERS), max_size=3))
    trailer = draw(st.lists(st.sampled_from(TRAILERS), max_size=3))
    start = draw(st.integers(1, 5000))
    count = draw(st.integers(40, 300))
    jump_at = draw(st.one_of(st.none(), st.integers(1, count - 1)))
    form = draw(st.sampled_from(FORMATS))
    widths = draw(st.lists(st.integers(0, 60), min_size=count, max_size=count))
    numbers = [start + i + (7 if jump_at is not None and i >= jump_at else 0) for i in range(count)]
    lines = [f"{form.format(n=n)}    value_{n} = compute({'x' * w})" for n, w in zip(numbers, widths, strict=True)]
    text = "\n".join([*header, *lines, *trailer]) + "\n"
    printed: list[int | None] = [None] * len(header) + list(numbers) + [None] * len(trailer)
    return text, printed, jump_at is None


@given(view=views(), budget=st.integers(1000, 6000))
def test_the_offset_is_the_files_number_of_the_first_omitted_line(
    backend: str, view: tuple[str, list[int | None], bool], budget: int
) -> None:
    text, printed, climbs = view
    result = shapeclip.compress_detailed(text, "read_file", budget)
    offset = OFFSET.search(result.text)
    if offset is None:
        return
    first = result.omitted_ranges[0][0]
    expected = first
    if climbs:
        # A line of the viewer's own above the numbers reads from the first numbered line.
        top = next(i for i, n in enumerate(printed, 1) if n is not None)
        expected = max(first, top) + (printed[top - 1] or 0) - top
    assert int(offset.group(1)) == expected, result.text


def test_a_read_whose_head_reaches_the_lines_below_its_numbers_is_numbered_too(backend: str) -> None:
    # One character over the budget: the head holds the viewer's lines below the numbers.
    text = "".join(f"{n:>6}\t    value_{n} = compute({'x' * (n % 20)})\n" for n in range(2, 42))
    text += "(2354 more lines below)\n" * 2
    result = shapeclip.compress_detailed(text, "read_file", len(text) - 1)
    offset = OFFSET.search(result.text)
    assert offset is not None and int(offset.group(1)) == result.omitted_ranges[0][0] + 1, result.text


# A range a marker names: a gap's `[lines A-B omitted]`, the clip's or a one-gap closing
# marker's `lines A-B of N`, and a line cut inside (`[shapeclip: 40 chars of line 7 of 90 ...`).
NAMED = re.compile(r"\[(shapeclip: (?:[\d,]+ chars? of )?)?lines? ([\d,]+)(?:-([\d,]+))?( of [\d,]+)?")


@given(view=views(), budget=st.integers(1000, 6000))
def test_markers_number_a_numbered_reads_lines_as_its_viewer_did(
    backend: str, view: tuple[str, list[int | None], bool], budget: int
) -> None:
    # Between `327:` and `343:`, a gap named by the output's count (`[lines 32-46 omitted]`) is
    # no place an agent can find; the viewer's numbers, with no total of the output's, are.
    text, printed, climbs = view
    result = shapeclip.compress_detailed(text, "read_file", budget)
    said = {}
    for a, b in result.omitted_ranges:
        first, last = printed[a - 1], printed[b - 1]
        viewer = climbs and first is not None and last is not None
        said[(first, last) if viewer else (a, b)] = not viewer
    for match in NAMED.finditer(result.text):
        a = int(match.group(2).replace(",", ""))
        b = int((match.group(3) or match.group(2)).replace(",", ""))
        assert (a, b) in said, (match.group(0), result.text)
        if match.group(1) is not None:
            # The output's count goes with the output's numbers alone.
            assert (match.group(4) is not None) == said[(a, b)], (match.group(0), result.text)


def test_markers_fit_the_budget_however_wide_a_viewers_numbers(backend: str) -> None:
    # 103 lines of output numbered in the hundreds of millions: markers are sized for those.
    lines = [f"{n}:    value_{n} = compute({n})" for n in range(999_999_000, 999_999_100)]
    text = "\n".join(["[File: /repo/app.py (1000000000 lines total)]", "(999998999 more lines above)", *lines])
    text += "\n(900 more lines below)\n"
    for budget in range(40, 1200, 7):
        out = shapeclip.compress(text, "read_file", budget)
        # Over the budget, a backend answers a bare ellipsis instead; no marker fits in 40.
        assert len(out) <= budget and out != "\u2026", (budget, out)
