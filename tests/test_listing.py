"""The listing planner from Python, on generated `find` and `ls -R` outputs: every plan stays
within the budget, streams as one call, and no gap marker stands for lines shorter than itself
(showing them would cost no more)."""

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


@given(text=listings(), budget=st.integers(400, 5000))
def test_stream_equals_one_shot(text: str, budget: int) -> None:
    assert_every_path_agrees(text, "bash", budget)
