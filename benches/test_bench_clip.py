"""Throughput of the clip, end to end from Python, on generated 1, 10 and 100 MB outputs.

The target is 2 GB/s for 100 MB: the core reads the `str` Python already holds (no copy of the
whole input) and does one counting pass over it.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import report_throughput
from gen_logs import build_log

import shapeclip

SIZES = {"1MB": 10**6, "10MB": 10**7, "100MB": 10**8}


@pytest.fixture(scope="module", params=list(SIZES))
def log_text(request: pytest.FixtureRequest) -> str:
    # Plain lines with no error signal: this times the clip, not a structure planner.
    return (
        build_log(SIZES[request.param])
        .replace("error", "notice")
        .replace("Traceback", "Trace")
        .replace("warning", "note")
    )


def test_clip_throughput(benchmark: Any, log_text: str) -> None:
    result = benchmark.pedantic(shapeclip.compress, args=(log_text, "bash", 16_000), rounds=5, iterations=1)
    assert len(result) <= 16_000
    report_throughput(benchmark, len(log_text.encode()))


def test_streamed_clip_throughput(benchmark: Any, log_text: str) -> None:
    data = log_text.encode()

    def stream() -> str:
        compressor = shapeclip.Compressor("bash", 16_000)
        for i in range(0, len(data), 1 << 20):
            compressor.feed(data[i : i + (1 << 20)])
        return compressor.finish()

    assert len(benchmark.pedantic(stream, rounds=3, iterations=1)) <= 16_000
    report_throughput(benchmark, len(data))
