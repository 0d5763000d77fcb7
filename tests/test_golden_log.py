"""The log planner on real outputs: each input in `golden/log/` against its expected outputs.

The inputs are what real programs printed on real code (`golden/make_log_goldens.py` runs them);
a difference here is a change in what a user sees. When it is intended, refresh the expected
outputs with `python tests/golden/make_log_goldens.py --refresh` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import shapeclip
from shapeclip import api

GOLDEN = Path(__file__).resolve().parent / "golden" / "log"
CASES = sorted(
    (source.stem, int(expected.name.split(".")[-2]))
    for source in GOLDEN.glob("*.txt")
    for expected in GOLDEN.glob(f"{source.stem}.*.expected")
)


def test_every_golden_input_has_both_budgets() -> None:
    inputs = {p.stem for p in GOLDEN.glob("*.txt")}
    assert len(inputs) >= 6
    assert {(name, budget) for name in inputs for budget in (4000, 16000)} <= set(CASES)


@pytest.mark.parametrize(("name", "budget"), CASES, ids=[f"{n}-{b}" for n, b in CASES])
def test_golden_log(name: str, budget: int) -> None:
    if api._core is None:
        pytest.skip("the expected outputs are the native core's")
    data = (GOLDEN / f"{name}.txt").read_bytes()
    expected = (GOLDEN / f"{name}.{budget}.expected").read_text(encoding="utf-8")
    result = shapeclip.compress_detailed(data, "bash", budget)
    assert len(result.text) <= budget
    assert result.text == expected, f"refresh with: python tests/golden/make_log_goldens.py --refresh ({result.shape})"


@pytest.mark.parametrize("budget", [2000, 4000, 16000])
def test_a_problem_under_a_file_heading_is_shown_under_that_heading(budget: int) -> None:
    """yamllint and eslint print a file's path once, then its problems by line and column only:
    a problem shown without its file's path would not say where it is."""
    if api._core is None:
        pytest.skip("the log planner is the native core's")
    lines = (GOLDEN / "yamllint_errors_and_warnings_under_120_files.txt").read_text(encoding="utf-8").splitlines()
    heading_of: dict[int, int] = {}
    heading = 0
    for no, line in enumerate(lines, 1):
        if line[:1].strip():
            heading = no
        elif line.strip():
            heading_of[no] = heading
    result = shapeclip.compress_detailed("\n".join(lines) + "\n", "bash", budget)
    omitted = {no for first, last in result.omitted_ranges for no in range(first, last + 1)}
    shown = iter(no for no in range(1, len(lines) + 1) if no not in omitted)
    last_heading = None
    problems = 0
    for out in result.text.splitlines():
        if out.startswith(("[line", "[shapeclip:")):
            continue
        no = next(shown)
        assert out.split(" [shapeclip:")[0] == lines[no - 1]
        if no in heading_of:
            assert last_heading == heading_of[no], f"line {no}: {out}\n{result.text}"
            problems += 1
        elif lines[no - 1].strip():
            last_heading = no
    assert problems >= 10


@pytest.mark.parametrize("budget", [2000, 4000])
def test_a_short_summary_counts_its_failures_by_exception(budget: int) -> None:
    """pytest names each failed test again in its short summary, the message cut to the terminal's
    width wherever the test's id leaves it: a line counts with the others of its exception, so
    the list does not read as thirty rare failures that go before every traceback."""
    if api._core is None:
        pytest.skip("the log planner is the native core's")
    data = (GOLDEN / "pytest_short_summary_of_37_failures_of_two_kinds.txt").read_text(encoding="utf-8")
    text = shapeclip.compress(data, "bash", budget)
    lines = text.splitlines()
    assert any(line.startswith("E   ") for line in lines), text
    notes = [line.split(" [shapeclip: ")[1] for line in lines if line.startswith("FAILED ") and " [shapeclip: " in line]
    assert notes, text
    assert all(note.startswith("\u00d7") for note in notes), notes


@pytest.mark.parametrize("budget", [1500, 2000, 3000, 4000])
def test_a_bare_verdict_is_shown_only_under_its_tests_line(budget: int) -> None:
    """unittest prints a test's verdict on a line of its own when the test logged: `ERROR`
    alone, after a gap, names no test and says again what a shown count says."""
    if api._core is None:
        pytest.skip("the log planner is the native core's")
    data = (GOLDEN / "unittest_verdicts_after_logged_warnings.txt").read_text(encoding="utf-8")
    lines = data.splitlines()
    result = shapeclip.compress_detailed(data, "bash", budget)
    omitted = {no for first, last in result.omitted_ranges for no in range(first, last + 1)}
    bare = [no for no, line in enumerate(lines, 1) if line == "ERROR" and no not in omitted]
    assert bare, result.text
    for no in bare:
        assert no - 1 not in omitted, f"line {no} shown without the test above it:\n{result.text}"
