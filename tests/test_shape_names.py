"""The core names its shapes once (`_core.SHAPES`, from `plan::Shape::ALL`), and Python lists
them nowhere else: every shape the core gives on the golden inputs is one it names, and every
one it names is given on some golden input, so the list is neither short nor stale."""

from __future__ import annotations

from pathlib import Path

import pytest

import shapeclip
from shapeclip import api

GOLDEN = Path(__file__).parent / "golden"
pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")


def test_the_core_names_exactly_the_shapes_it_gives() -> None:
    assert api._core is not None
    given = set()
    for path in sorted(GOLDEN.rglob("*.txt")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        for tool in ("bash", "grep", "read_file"):
            for budget in (2_000, len(text)):
                given.add(shapeclip.compress_detailed(text, tool, max(budget, 1)).shape)
    assert given == set(api._core.SHAPES)
