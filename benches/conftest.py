"""Benchmarks time only optimised builds of the native core, and report throughput in MB/s."""

from __future__ import annotations

import pytest

from shapeclip import api


def pytest_configure(config: pytest.Config) -> None:
    if api._core is None:
        pytest.exit("the native core is not built; nothing to benchmark", returncode=1)
    if api._core.DEBUG_BUILD:
        pytest.exit("refusing to time a debug build: use `maturin develop --release` or `pip install .`", returncode=1)


def report_throughput(benchmark: pytest.FixtureDef, n_bytes: int) -> None:  # type: ignore[type-arg]
    best = benchmark.stats.stats.min  # type: ignore[attr-defined]
    mean = benchmark.stats.stats.mean  # type: ignore[attr-defined]
    benchmark.extra_info["MB/s (best)"] = round(n_bytes / best / 1e6)
    benchmark.extra_info["MB/s (mean)"] = round(n_bytes / mean / 1e6)
    print(f"\n{benchmark.name}: {n_bytes / 1e6:.0f} MB, best {best * 1e3:.1f} ms = {n_bytes / best / 1e6:,.0f} MB/s")
