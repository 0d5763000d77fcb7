"""Benchmark of the search planner: generated 10 MB and 100 MB grep floods, end to end from
Python through `shapeclip.compress`.

The issue's targets: 1 GB/s or better on 100 MB, and 100 MB in at most 11 times the time of
10 MB (the planner's cost must be linear in the input). Timing a debug build says nothing, so
the benchmark refuses to. Run with `pytest benches/test_bench_search.py --benchmark-only`.
"""

from __future__ import annotations

import pytest
from grep_flood import grep_flood

import shapeclip
from shapeclip import _core

pytestmark = pytest.mark.skipif(_core.DEBUG_BUILD, reason="a debug build; build with `maturin develop --release`")

SIZES = {"10MB": 10_000_000, "100MB": 100_000_000}


@pytest.fixture(scope="module", params=sorted(SIZES))
def flood(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param, grep_flood(SIZES[request.param])


def test_grep_flood(benchmark, flood: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    _name, text = flood
    out = benchmark.pedantic(shapeclip.compress, args=(text, "grep", 16_000), rounds=5, iterations=1)
    assert len(out) <= 16_000
    mb = len(text.encode()) / 1e6
    benchmark.extra_info["MB"] = mb
    benchmark.extra_info["MB/s"] = mb / benchmark.stats.stats.min
