"""Streamed `Compressor.feed` on a generated 100 MB build log, against one `compress` call.

A stream costs what the engine costs plus the facade's work per chunk; this shows that work at
the chunk sizes callers use (a pipe's 64 KiB reads, the CLI's 1 MiB, a large 16 MiB buffer).
Chunks are `bytes`, as a pipe gives them. The target (issue 30): each within 1.3 times one call.
Beside it, the same stream with a store, which writes every byte to disk as it comes: what the
store adds is printed, with no target, since the disk bounds it (see test_bench_cli.py for the
command line's).

    python -m pytest benches/test_bench_stream.py -s -p no:cacheprovider
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import shapeclip
from gen_logs import build_log

SIZE = 100_000_000
BUDGET = 16_000
ROUNDS = 3
CHUNKS = {"64KiB": 1 << 16, "1MiB": 1 << 20, "16MiB": 1 << 24}
MAX_OVER_ONE_CALL = 1.3


@pytest.fixture(scope="module")
def data() -> bytes:
    return build_log(SIZE).encode()


def _best(*runs: Callable[[], str]) -> list[float]:
    """Each run's best time; the runs take turns, so a burst of other work falls on all alike."""
    best = [float("inf")] * len(runs)
    for _ in range(ROUNDS):
        for i, run in enumerate(runs):
            started = time.perf_counter()
            out = run()
            best[i] = min(best[i], time.perf_counter() - started)
            assert len(out) <= BUDGET
    return best


@pytest.mark.parametrize("chunk", list(CHUNKS))
def test_streamed_feed(data: bytes, chunk: str) -> None:
    step = CHUNKS[chunk]
    # Cut before the clock starts: what a reader pays to get its chunks is not the stream's.
    chunks = [data[i : i + step] for i in range(0, len(data), step)]

    def stream() -> str:
        compressor = shapeclip.Compressor("bash", BUDGET)
        for piece in chunks:
            compressor.feed(piece)
        return compressor.finish()

    streamed, one_call = _best(stream, lambda: shapeclip.compress(data, "bash", BUDGET))
    assert stream() == shapeclip.compress(data, "bash", BUDGET)
    print(
        f"\n{len(data) / 1e6:.0f} MB in {chunk} chunks: {streamed:.3f} s "
        f"({len(data) / streamed / 1e6:,.0f} MB/s); one call {one_call:.3f} s; {streamed / one_call:.2f}x"
    )
    assert streamed <= MAX_OVER_ONE_CALL * one_call


@pytest.mark.parametrize("chunk", ["64KiB", "1MiB"])
def test_streamed_feed_with_a_store(data: bytes, chunk: str, tmp_path: Path) -> None:
    step = CHUNKS[chunk]
    chunks = [data[i : i + step] for i in range(0, len(data), step)]

    def stream(store: shapeclip.Store | None) -> Callable[[], str]:
        def run() -> str:
            if store is not None:
                shutil.rmtree(store.path, ignore_errors=True)
            compressor = shapeclip.Compressor("bash", BUDGET, store=store)
            for piece in chunks:
                compressor.feed(piece)
            return compressor.finish()

        return run

    store = shapeclip.Store(tmp_path / "store", max_bytes=2 * SIZE)
    stored, plain = _best(stream(store), stream(None))
    print(
        f"\n{len(data) / 1e6:.0f} MB in {chunk} chunks, stored: {stored:.3f} s; "
        f"without the store {plain:.3f} s; the store adds {stored / plain - 1:.0%}"
    )
