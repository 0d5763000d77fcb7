"""Benchmark of the search planner: generated 10 MB and 100 MB grep floods, end to end from
Python through `shapeclip.compress`.

The issue's targets: 1 GB/s or better on 100 MB, and 100 MB in at most 11 times the time of
10 MB (the planner's cost must be linear in the input). `conftest.py` refuses debug builds.
"""

from __future__ import annotations

from typing import Any

import pytest

import shapeclip
from conftest import report_throughput
from grep_flood import grep_flood

SIZES = {"10MB": 10_000_000, "100MB": 100_000_000}


@pytest.fixture(scope="module", params=sorted(SIZES))
def flood(request: pytest.FixtureRequest) -> str:
    return grep_flood(SIZES[request.param])


def test_grep_flood(benchmark: Any, flood: str) -> None:
    out = benchmark.pedantic(shapeclip.compress, args=(flood, "grep", 16_000), rounds=5, iterations=1)
    assert len(out) <= 16_000
    report_throughput(benchmark, len(flood.encode()))
