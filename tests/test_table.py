"""The table planner from Python, on generated tables (`kubectl get pods`, `ps aux`, `ls -l`,
`git status --porcelain`, padded as their programs pad, with blank and error lines between the
rows): the budget bound, a stream equals one call, the header is always kept, every line shown
is a line of the input, and the marker's counts equal a plain reference count of the column
the writer grouped by.

The table planner lives in the native core; the pure-Python fallback is a clip, so these
tests need the core.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import TABLE_COUNT, assert_every_path_agrees, num, table_counts
from shapeclip.lookalike import disarm

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

FORMATS = {
    # name: (header, the grouping column's name, its values)
    "pods": (
        ["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
        "STATUS",
        ["Running", "Pending", "CrashLoopBackOff", "Error"],
    ),
    "ps": (["USER", "PID", "%CPU", "COMMAND"], "USER", ["root", "postgres", "www-data", "systemd+"]),
    "ls": ([], "column 1", ["-rw-r--r--", "drwxr-xr-x", "lrwxrwxrwx", "-rwsr-xr-x"]),
    "porcelain": ([], "status", [" M", "??", "M ", "D "]),
}
NAMES = st.text(alphabet="abcxyz_-.\u00e9\u6f22", min_size=1, max_size=12)
OTHERS = ["", "error: timed out", "./src/deep:", "[shapeclip: table of 9 rows]"]


@dataclass(frozen=True)
class Table:
    text: str
    fmt: str
    #: The lines before the first row, always shown.
    head: int


def pad(rows: list[list[str]], gap: int) -> list[str]:
    """Each cell padded to its column's widest; quantities right-aligned, the last column free."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = []
        for c, cell in enumerate(row):
            if c == len(row) - 1:
                cells.append(cell)
            elif cell[:1].isdigit():
                cells.append(cell.rjust(widths[c]) + " " * gap)
            else:
                cells.append(cell.ljust(widths[c]) + " " * gap)
        out.append("".join(cells))
    return out


@st.composite
def tables(draw: st.DrawFn) -> Table:
    fmt = draw(st.sampled_from(sorted(FORMATS)))
    header, _, values = FORMATS[fmt]
    n = draw(st.integers(20, 400))
    # One value for most rows, the others rare or absent: the counts that matter.
    picks = draw(st.lists(st.sampled_from(values[1:]), max_size=n // 5))
    column = [values[0]] * (n - len(picks)) + picks
    column = draw(st.permutations(column))
    rows: list[list[str]] = []
    for i, value in enumerate(column):
        name = f"{draw(NAMES)}{i}"
        if fmt == "pods":
            rows.append([name, "1/1", value, str(i % 4), "5d"])
        elif fmt == "ps":
            # ps pads to fixed widths, not to the widest cell.
            rows.append([f"{value:<8}", f"{100 + i:>7}", f"{i % 100}.{i % 10}", f"/usr/bin/{name} --id {i}"])
        elif fmt == "ls":
            rows.append([value, str(1 + i % 3), "root", "root", str(977 * i), f"Jan  1 10:00 {name}"])
        else:
            rows.append([f"{value} src/{name}.py"])
    if fmt == "ps":
        header = ["USER    ", "    PID", "%CPU", "COMMAND"]
    lines = pad([header, *rows] if header else rows, 3 if fmt == "pods" else 1)
    head = 1 if header else 0
    if fmt == "ls":
        lines.insert(0, f"total {n}")
        head = 1
    others = draw(st.lists(st.tuples(st.integers(head + 3, len(lines)), st.sampled_from(OTHERS)), max_size=6))
    for at, other in sorted(others, reverse=True):
        lines.insert(at, other)
    return Table("".join(f"{line}\n" for line in lines), fmt, head)


def reference(table: Table) -> tuple[int, int, Counter[str]]:
    """Rows, other lines and each value's rows, counted plainly from the text."""
    lines = table.text.split("\n")[table.head : -1]
    if table.fmt == "porcelain":
        rows = [line for line in lines if re.match(r"^[ MADRCU?!]{2} \S", line) and line[:2] != "  "]
        values = Counter(line[:2] for line in rows)
    else:
        # A row has a field under each column of the header, or is a long listing's row.
        if table.fmt == "ls":
            rows = [line for line in lines if re.match(r"[-dl][-rwxs]{9} ", line) and len(line.split()) >= 5]
        else:
            rows = [line for line in lines if len(line.split()) >= len(FORMATS[table.fmt][0])]
        field = {"pods": 2, "ps": 0, "ls": 0}[table.fmt]
        values = Counter(disarm(line.split()[field]) for line in rows)
    return len(rows), len(lines) - len(rows), values


@given(table=tables(), budget=st.integers(400, 6000))
def test_counts_equal_a_reference_count_and_rows_are_input_lines(table: Table, budget: int) -> None:
    result = shapeclip.compress_detailed(table.text, "bash", budget)
    out = result.text
    assert len(out) <= budget
    if len(table.text) <= budget:
        assert out == table.text
        return
    rows, others, values = reference(table)
    if result.shape != "table":
        # Only a table whose first lines are not nine tenths rows may go unrecognised.
        assert others * 10 > rows, out[:300]
        return
    head = "".join(f"{line}\n" for line in table.text.split("\n")[: table.head])
    assert out.startswith(head), "the head is always kept"
    counted = TABLE_COUNT.search(out)
    assert counted is not None and counted.start() == len(head), out[:400]
    assert (num(counted.group(1)), num(counted.group(2) or "0")) == (rows, others)
    if counted.group(3) is not None:
        assert counted.group(3) == FORMATS[table.fmt][1]
        listed, rest = table_counts(counted.group(4))
        assert all(values[v] == n for v, n in listed.items()), (listed, values)
        assert sum(listed.values()) + rest == rows
        assert list(listed.values()) == sorted(listed.values(), reverse=True)
    lines = set(disarm(table.text).split("\n"))
    markers = re.compile(r"^\[(shapeclip: .*|lines? [\d,]+(-[\d,]+)? omitted|[\d,]+ lines in [\d,]+ gaps omitted)\]$")
    for line in out.split("\n")[:-1]:
        assert line in lines or markers.match(line), line


@given(table=tables(), budget=st.integers(400, 6000))
def test_stream_equals_one_call(table: Table, budget: int) -> None:
    assert_every_path_agrees(table.text, "bash", budget)


@pytest.mark.parametrize("budget", [400, 1000, 4000])
def test_a_rare_state_is_always_shown(budget: int) -> None:
    header, _, _ = FORMATS["pods"]
    rows = [[f"web-{i:04}-7c5dd", "1/1", "CrashLoopBackOff" if i == 777 else "Running", "0", "5d"] for i in range(1500)]
    text = "".join(f"{line}\n" for line in pad([header, *rows], 3))
    out = shapeclip.compress(text, "bash", budget)
    assert "web-0777-7c5dd" in out
    assert "; by STATUS: Running 1,499; CrashLoopBackOff 1]" in out
