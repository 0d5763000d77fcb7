"""Golden tests of the table planner on real outputs of real programs: `ps u` (the columns of
`ps aux`), `ls -la` and `ls -laR` of real trees, `df -a`, `pip list` and `git status
--porcelain` (made by `tests/golden/make_table_goldens.py`, which also refreshes them). Beside
the exact bytes, each checks what the shape promises: the head first and whole, the count of
rows right under it and equal to a plain count over the input, every shown line a line of the
input."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

import shapeclip
from helpers import TABLE_COUNT, num, table_counts
from shapeclip.lookalike import disarm

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from make_table_goldens import BUDGETS, CASES, HERE

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")
RUNS = [(name, budget) for name in CASES for budget in BUDGETS if (HERE / f"{name}.{budget}.expected").exists()]
MODE = re.compile(r"^[-bcdlpsD][-rwxsStTl]{9}[.+@]? ")


def reference(lines: list[str], header: str, column: str) -> Counter[str]:
    """Each value's rows, counted plainly: a porcelain status, a long listing's field, or the
    field under the header's word."""
    if column == "status":
        return Counter(line[:2] for line in lines)
    if column.startswith("column "):
        field = int(column.split()[1]) - 1
        return Counter(line.split()[field] for line in lines if MODE.match(line))
    return Counter(line.split()[header.split().index(column)] for line in lines)


def test_every_case_has_its_input_and_compresses() -> None:
    assert all((HERE / f"{name}.txt").exists() for name in CASES)
    assert len(RUNS) >= 2 * len(CASES)


@pytest.mark.parametrize(("name", "budget"), RUNS)
def test_table_golden(name: str, budget: int) -> None:
    text = (HERE / f"{name}.txt").read_bytes().decode("utf-8")
    expected = (HERE / f"{name}.{budget}.expected").read_bytes().decode("utf-8")
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert (result.shape, len(result.text) <= budget) == ("table", True)
    out = result.text
    counted = TABLE_COUNT.search(out)
    assert counted is not None, out[:300]
    head = out[: counted.start()]
    assert text.startswith(head) and head.count("\n") <= 4, "the head is the input's first lines, whole"
    lines = text.split("\n")[head.count("\n") : -1]
    rows, others = num(counted.group(1)), num(counted.group(2) or "0")
    assert rows + others == len(lines)
    if counted.group(3) is not None:
        header = head.split("\n")[-3 if "---" in head else -2] if head else ""
        values = reference(lines, header, counted.group(3))
        listed, rest = table_counts(counted.group(4))
        assert listed == {v: n for v, n in values.items() if v in listed}
        assert sum(listed.values()) + rest == rows
        assert sum(values.values()) == rows
    shown = set(disarm(text).split("\n"))
    for line in out.split("\n")[:-1]:
        assert line in shown or line.startswith("["), line
    assert out == expected, f"run `python tests/golden/make_table_goldens.py --refresh` if {name} changed on purpose"
