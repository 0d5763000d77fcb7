"""A `Compressor` fed from several threads at once: each chunk is taken whole, in turn, so
nothing is lost and the stream does not fail (issue 27 item 18)."""

from __future__ import annotations

import threading

import shapeclip

LINES = [f"[{i:05}] building target {i}\n" for i in range(100_000)]


def _feed(compressor: shapeclip.Compressor, lines: list[str]) -> None:
    for start in range(0, len(lines), 2_000):
        compressor.feed("".join(lines[start : start + 2_000]).encode())


def test_issue_27_item_18_a_compressor_fed_from_two_threads_loses_nothing() -> None:
    for _ in range(3):
        compressor = shapeclip.Compressor("bash", 4_000)

        threads = [threading.Thread(target=_feed, args=(compressor, LINES[half::2])) for half in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        result = compressor.finish_detailed()
        assert result.shape != "failed" and result.backend == shapeclip.backend()
        assert result.input_chars == sum(map(len, LINES)) and result.input_lines == len(LINES)
