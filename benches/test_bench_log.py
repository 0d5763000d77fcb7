"""Throughput of the log planner, end to end from Python, on generated 10 MB and 100 MB build logs.

The logs come from `gen_logs.build_log`, the generator every benchmark shares: mostly
"compiling ... ok" lines, 0.6% compiler errors, 0.4% Python tracebacks and 4% repeated
warnings. The target is 1 GB/s for 100 MB, and 100 MB may take at most 11 times as long as
10 MB (the work is linear; `test_linear_in_size` runs without `--benchmark-only`).

    pytest benches/test_bench_log.py -s
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import shapeclip
from conftest import report_throughput
from gen_logs import build_log

BUDGET = 16_000
SIZES = {"10MB": 10**7, "100MB": 10**8}


@pytest.fixture(scope="module")
def logs() -> dict[str, str]:
    return {name: build_log(size) for name, size in SIZES.items()}


def compress(text: str) -> str:
    result = shapeclip.compress_detailed(text, "bash", BUDGET)
    assert result.shape == "log" and result.backend == "native"
    return result.text


@pytest.mark.parametrize("size", list(SIZES))
def test_log_throughput(benchmark: Any, logs: dict[str, str], size: str) -> None:
    text = logs[size]
    out = benchmark.pedantic(compress, args=(text,), rounds=10, iterations=1)
    assert len(out) <= BUDGET
    report_throughput(benchmark, len(text.encode()))


def test_linear_in_size(logs: dict[str, str]) -> None:
    def best(text: str) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            compress(text)
            times.append(time.perf_counter() - start)
        return min(times)

    ratio = best(logs["100MB"]) / best(logs["10MB"])
    print(f"\n100 MB took {ratio:.1f} times as long as 10 MB")
    assert ratio <= 11
