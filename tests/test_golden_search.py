"""Golden tests of the search planner on real outputs of grep and ripgrep over the CPython
standard library (made by `tests/golden/make_search_goldens.py`, which also refreshes them)."""

from __future__ import annotations

from pathlib import Path

import pytest

import shapeclip

HERE = Path(__file__).parent / "golden" / "search"
BUDGETS = (4000, 16_000)
CASES = sorted(p.stem for p in HERE.glob("*.txt"))

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")


def test_the_goldens_are_there() -> None:
    assert len(CASES) >= 4


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", CASES)
def test_search_golden(name: str, budget: int) -> None:
    text = (HERE / f"{name}.txt").read_bytes().decode("utf-8")
    expected = (HERE / f"{name}.{budget}.expected").read_bytes().decode("utf-8")
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert result.shape == "search"
    assert len(result.text) <= budget
    assert result.text == expected, (
        f"run `python tests/golden/make_search_goldens.py --refresh` if {name} changed on purpose"
    )
