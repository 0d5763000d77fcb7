"""Compressing a real failing run keeps the lines that say why it failed.

`golden/log/<name>.signals` lists, for a golden input, the lines that carry its failure's reason (the
assertion message, the FAIL line, the exception), most telling first; `golden/make_log_goldens.py`
writes them from patterns next to each case. At budget 16000 every signal must survive; at 4000, the
first. Unlike `test_golden_log.py` this does not pin the whole output, so it holds across any
rework of the planner that keeps what matters.

`LOST_TODAY` lists the checks the current planner fails, each with what it loses; they run as
non-strict xfails. When a planner change makes one pass, delete its entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import shapeclip
from shapeclip import api

GOLDEN = Path(__file__).resolve().parent / "golden" / "log"
BUDGETS = {4000: slice(0, 1), 16000: slice(None)}

#: (case, budget) -> what the planner loses there today (none at present).
LOST_TODAY: dict[tuple[str, int], str] = {}


def signals(name: str) -> list[str]:
    return (GOLDEN / f"{name}.signals").read_text(encoding="utf-8").splitlines()


def params() -> list[object]:
    names = sorted(p.stem for p in GOLDEN.glob("*.signals"))
    return [
        pytest.param(
            name,
            budget,
            id=f"{name}-{budget}",
            marks=[pytest.mark.xfail(strict=False, reason=LOST_TODAY[name, budget])]
            if (name, budget) in LOST_TODAY
            else [],
        )
        for name in names
        for budget in BUDGETS
    ]


def test_every_signals_file_belongs_to_an_input_and_lists_signals() -> None:
    for path in GOLDEN.glob("*.signals"):
        assert (GOLDEN / f"{path.stem}.txt").is_file(), path.name
        assert signals(path.stem), path.name
        assert all(line.strip() for line in signals(path.stem)), path.name


def test_every_lost_signal_names_a_case_that_exists() -> None:
    assert {name for name, _ in LOST_TODAY} <= {p.stem for p in GOLDEN.glob("*.signals")}


@pytest.mark.parametrize(("name", "budget"), params())
def test_compressed_output_keeps_the_failure_reason(name: str, budget: int) -> None:
    if api._core is None:
        pytest.skip("the signals are a promise of the native log planner")
    text = shapeclip.compress((GOLDEN / f"{name}.txt").read_bytes(), "bash", budget)
    missing = [line for line in signals(name)[BUDGETS[budget]] if line not in text]
    assert not missing, f"lost at budget {budget}: {missing}"
