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
