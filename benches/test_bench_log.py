"""Throughput of the log planner on generated build logs of 10 MB and 100 MB.

The logs are made at run time (1% error lines, Python tracebacks, repeated compiler warnings,
a closing summary) so nothing large is committed. The benchmark refuses to time a debug build,
and checks that 100 MB costs at most 11 times what 10 MB does, i.e. that the work is linear.

    pytest benches/test_bench_log.py --benchmark-only
"""

from __future__ import annotations

import random
import time

import pytest

from shapeclip import _core

BUDGET = 16_000


def make_log(target_bytes: int, seed: int = 4) -> str:
    """A build log of about `target_bytes`: mostly ok lines, 1% errors, traces, warnings."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    i = 0
    while size < target_bytes:
        i += 1
        r = rng.random()
        if r < 0.006:
            line = f"src/mod_{i % 977}.c:{i % 400}:7: error: '{rng.choice('abcxyz')}val' undeclared\n"
        elif r < 0.01:
            line = (
                "Traceback (most recent call last):\n"
                f'  File "/app/svc/handler_{i % 37}.py", line {i % 300}, in run\n'
                "    result = compute(payload)\n"
                f"ValueError: bad payload at offset {i}\n"
            )
        elif r < 0.04:
            line = f"src/mod_{i % 977}.c:{i % 400}:7: warning: unused variable 'tmp{i % 9}' [-Wunused-variable]\n"
        else:
            line = f"[{i:>9}] compiling src/mod_{i % 977}.c -> build/mod_{i % 977}.o ... ok\n"
        parts.append(line)
        size += len(line)
    parts.append("==== 1021 failed, 98873 passed in 812.22s ====\nmake: *** [Makefile:12: all] Error 1\n")
    return "".join(parts)


def compress(text: str) -> str:
    c = _core.Compressor(BUDGET, "shell", "bash", 3000, 6000)
    c.feed(text)
    report = c.finish()
    assert report.shape == "log"
    return report.text


@pytest.fixture(scope="module", autouse=True)
def release_only() -> None:
    if _core.DEBUG_BUILD:
        pytest.skip("a debug build is not timed: build with maturin develop --release")


@pytest.fixture(scope="module")
def logs() -> dict[int, str]:
    return {mb: make_log(mb * 1_000_000) for mb in (10, 100)}


@pytest.mark.parametrize("mb", [10, 100])
def test_log_throughput(benchmark, logs: dict[int, str], mb: int) -> None:
    text = logs[mb]
    out = benchmark.pedantic(compress, args=(text,), rounds=3, iterations=1)
    assert len(out) <= BUDGET
    seconds = benchmark.stats.stats.min
    benchmark.extra_info["MB/s"] = round(len(text.encode()) / 1e6 / seconds, 1)


def test_linear_in_size(logs: dict[int, str]) -> None:
    def best(text: str) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            compress(text)
            times.append(time.perf_counter() - start)
        return min(times)

    assert best(logs[100]) <= 11 * best(logs[10])
