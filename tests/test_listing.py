"""The listing planner from Python, on generated `find` and `ls -R` outputs and on rows a search
tool summarised (`PATH (N matches)`): every plan stays within the budget, streams as one call,
shows whole input lines in order with exact gaps, and no gap marker stands for lines shorter
than itself (showing them would cost no more)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=30)


@st.composite
def listings(draw: st.DrawFn) -> str:
    dirs = draw(st.lists(st.sampled_from(["src", "src/core", "lib/io", "tests", "tests/unit", "docs", "a/b/c"]),
                         min_size=1, max_size=12))
    recursive = draw(st.booleans())
    out = []
    for d in dirs:
        entries = [f"{draw(NAMES)}.py" for _ in range(draw(st.integers(1, 60)))]
        if recursive:
            out.append(f"./{d}:\n" + "".join(f"{e}\n" for e in entries) + "\n")
        else:
            out.append("".join(f"./{d}/{e}\n" for e in entries))
    return "".join(out)


ROW_DIRS = ["src/main/java/x", "src/test/java/x", "lib", "docs/javadoc/2.9/x", "build/gen", "node_modules/x"]


@st.composite
def summarised_rows(draw: st.DrawFn) -> str:
    """A `search_dir` output: a header, rows of files with their counts, and a footer."""
    rows = draw(
        st.lists(
            st.tuples(st.sampled_from(ROW_DIRS), NAMES, st.integers(1, 300)),
            min_size=10,
            max_size=120,
            unique_by=lambda r: (r[0], r[1]),
        )
    )
    total = sum(n for _, _, n in rows)
    body = "".join(f"/repo/{d}/{name}.java ({n} {'match' if n == 1 else 'matches'})\n" for d, name, n in rows)
    framed = draw(st.booleans())
    if not framed:
        return body
    return f'Found {total} matches for "x" in /repo:\n{body}End of matches for "x" in /repo\n'


def assert_exact_gaps(text: str, budget: int) -> None:
    """The kept lines are the input's lines outside the omitted ranges, in order, and the
    ranges are what the markers between them name."""
    result = shapeclip.compress_detailed(text, "grep", budget)
    assert len(result.text) <= budget
    if result.shape != "listing":
        return
    lines = text.split("\n")
    omitted = {n for a, b in result.omitted_ranges for n in range(a, b + 1)}
    kept = [line for n, line in enumerate(lines, start=1) if n not in omitted and line]
    shown = [line for line in result.text.split("\n") if line and not line.startswith("[")]
    assert shown == kept
    assert result.omitted_lines == len(omitted)
    for marker in re.finditer(r"^\[lines? (\d+)(?:-(\d+))? omitted\]$", result.text, re.MULTILINE):
        gap = (int(marker.group(1)), int(marker.group(2) or marker.group(1)))
        assert gap in result.omitted_ranges


def assert_no_gap_marker_outweighs_its_lines(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert len(result.text) <= budget
    if result.shape != "listing":
        return
    lines = text.split("\n")
    for marker in re.finditer(r"^\[lines? (\d+)(?:-(\d+))? omitted\]$", result.text, re.MULTILINE):
        first, last = int(marker.group(1)), int(marker.group(2) or marker.group(1))
        hidden = sum(len(lines[i - 1]) + 1 for i in range(first, last + 1))
        assert hidden >= len(marker.group(0)) + 1, (marker.group(0), lines[first - 1 : last])


@given(text=listings(), budget=st.integers(400, 5000))
def test_no_gap_marker_stands_for_lines_shorter_than_itself(text: str, budget: int) -> None:
    assert_no_gap_marker_outweighs_its_lines(text, budget)


@pytest.mark.parametrize("budget", [1000, 2000, 3000, 4000])
def test_a_real_ls_r_never_hides_a_groups_last_short_entries_behind_a_longer_marker(budget: int) -> None:
    # `ls -R` of the standard library's packages (tests/golden/shapes): at 2,000 a group's
    # last entries (`__pycache__`, `expat.py` and the blank line) were one longer marker.
    text = (Path(__file__).parent / "golden" / "shapes" / "ls_r_packages_stdlib.txt").read_text()
    assert_no_gap_marker_outweighs_its_lines(text, budget)


@given(text=st.one_of(listings(), summarised_rows()), budget=st.integers(400, 5000))
def test_stream_equals_one_shot(text: str, budget: int) -> None:
    assert_every_path_agrees(text, "bash", budget)


@given(text=st.one_of(listings(), summarised_rows()), budget=st.integers(400, 5000))
def test_plans_keep_exact_gaps_within_the_budget(text: str, budget: int) -> None:
    assert_exact_gaps(text, budget)
    assert_no_gap_marker_outweighs_its_lines(text, budget)


@given(text=summarised_rows(), budget=st.integers(400, 5000))
def test_the_projects_file_with_the_most_matches_is_kept(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "grep", budget)
    if result.shape == "passthrough":
        return
    assert result.shape == "listing"
    rows = re.findall(r"^/repo/(\S+)/\S+ \((\d+) match(?:es)?\)$", text, re.MULTILINE)
    own = [(int(n), i) for i, (d, n) in enumerate(rows) if not d.startswith(("docs", "build", "node_modules"))]
    if own:
        best = text.split("\n")[min(own, key=lambda r: (-r[0], r[1]))[1] + text.startswith("Found")]
        assert f"{best}\n" in result.text
