"""Golden tests of the JSON planner on real outputs of real programs: `cargo metadata` and
`cargo build --message-format=json` of this repository, `pip list --format json`, and
`python -m json.tool` of a fixture that ships with `jsonschema` (made by
`tests/golden/make_json_goldens.py`, which also refreshes them). Beside the exact bytes, each
checks what the shape promises: a note first, saying which form it is; a summary's strings and
numbers all from the input; and its key paths counted exactly."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import shapeclip
from shapeclip.lookalike import disarm

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from make_json_goldens import CASES, HERE, TOOL
from make_shape_goldens import BUDGETS

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")
RUNS = [(name, budget) for name in CASES for budget in BUDGETS if (HERE / f"{name}.{budget}.expected").exists()]
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def documents(text: str) -> list[Any]:
    """The input's documents: one, or one a line (JSON Lines)."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def counts(docs: list[Any]) -> Counter[str]:
    """How many values each key path without odd keys holds, as a path line names it."""
    found: Counter[str] = Counter()

    def visit(path: str, value: Any) -> None:
        found[path] += 1
        if isinstance(value, list):
            for item in value:
                visit(f"{path}[]" if path != "." else ".[]", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                    visit(f".{key}" if path == "." else f"{path}.{key}", item)

    for doc in docs:
        visit(".", doc)
    return found


def test_every_case_has_its_input() -> None:
    assert all((HERE / f"{name}.txt").exists() for name in CASES)
    assert len(RUNS) >= 2 * len(CASES)


@pytest.mark.parametrize(("name", "budget"), RUNS)
def test_json_golden(name: str, budget: int) -> None:
    text = (HERE / f"{name}.txt").read_bytes().decode("utf-8")
    expected = (HERE / f"{name}.{budget}.expected").read_bytes().decode("utf-8")
    result = shapeclip.compress_detailed(text, TOOL, budget)
    assert (result.shape, len(result.text) <= budget) == ("json", True)
    out = result.text
    note, _, body = out.partition("\n")
    assert re.fullmatch(r"\[(shapeclip: .*|JSON .*)\]", note), note
    if "summary" in note:
        document, _, paths = body.partition("key paths (exact counts):\n")
        source = disarm(text)
        # Every string shown whole, and every part of one cut short, is the input's.
        for shown in STRING.findall(document):
            assert shown.split("\u2026+")[0] in source, shown
        # Every path listed counts exactly as a count with `json` does.
        found = counts(documents(text))
        for line in paths.splitlines():
            path, _, described = line.partition(": ")
            if path in found:
                listed = re.findall(r" \u00d7([\d,]+)", described)
                typed = re.findall(r"(?:^|, )([\d,]+) (?:null|bool|number|string|array|object)s?\b", described)
                assert sum(int(c.replace(",", "")) for c in listed + typed) == found[path], line
    assert out == expected, f"run `python tests/golden/make_json_goldens.py --refresh` if {name} changed on purpose"
