"""Linearity of the search planner on lines that almost parse as rows (issue 11, defect 5).

`p7-1-a-1-a-…` has a `-NN-` every four bytes, and each of them could end the path of a
context row; `p7:1:a:1:a…` is the same for matches. A planner that judged each such path afresh
spent the square of the line's length on them (345 s for 102 MB of 4 KB lines). `p7a/a/…/f.py:1:x`
is a match in a directory thousands deep, each directory one more node of the roll-up's tree
(1.2 MB/s and 5.8 GB for 50 MB of 4 KB lines before the tree was capped). Each shape is
timed end to end through `shapeclip.compress` at 10 MB and 100 MB, in lines of about 256 bytes
and 4 KB. A cost that grows with the input or with the line shows as a byte of 100 MB costing
about 10 times a byte of 10 MB, or a byte of a 4 KB line 16 times one of a 256-byte line; on
this shared two-core machine the same run varies by a quarter from one try to the next. So the
check is that a byte of 100 MB costs at most 1.5 times a byte of 10 MB, and a byte of a long
line at most twice a byte of a short one. `conftest.py` refuses debug builds.
"""

from __future__ import annotations

import time

import pytest

import shapeclip

SIZES = {"10MB": 10_000_000, "100MB": 100_000_000}
#: A unit repeated in each line, and the line's end.
SHAPES = {"dashes": ("-1-a", ""), "colons": (":1:a", ""), "deep": ("a/", "f.py:1:x")}
#: Bytes per line, about: the longer ones just within what is believed as a path.
LENGTHS = {"256B": 256, "4KB": 4096}
ROUNDS = 5
#: Copied before each timed call: twice the machine's 32 MiB L3 cache, so that a 10 MB input is
#: not still in cache from the round before, as a 100 MB one cannot be, and as no input piped in
#: would be.
EVICT = bytearray(64 << 20)


def near_rows(size: int, unit: str, end: str, length: int) -> str:
    """About `size` characters of lines of about `length`: `p{i}`, `unit` repeated, and `end`."""
    body = unit * ((length - 16) // len(unit)) + end + "\n"
    lines = size // (len(body) + 6) + 1
    return "".join(f"p{i}{body}" for i in range(lines))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_near_rows_are_linear(shape: str) -> None:
    texts = {
        (length, size): near_rows(SIZES[size], *SHAPES[shape], line_bytes)
        for length, line_bytes in LENGTHS.items()
        for size in SIZES
    }
    seconds = dict.fromkeys(texts, float("inf"))
    # The rounds take turns over the inputs, so that a burst of load from other work on the
    # machine does not fall on one size only; the best of each counts.
    for _ in range(ROUNDS):
        for key, text in texts.items():
            bytes(EVICT)
            started = time.perf_counter()
            out = shapeclip.compress(text, "grep", 16_000)
            seconds[key] = min(seconds[key], time.perf_counter() - started)
            assert len(out) <= 16_000
    # The texts are ASCII: a character is a byte.
    per_byte = {key: seconds[key] / len(text) for key, text in texts.items()}
    for (length, size), text in texts.items():
        mb_per_s = len(text) / seconds[length, size] / 1e6
        print(f"\n{shape}, {length} lines, {size}: best {seconds[length, size] * 1e3:.1f} ms = {mb_per_s:,.0f} MB/s")
    for length in LENGTHS:
        growth = per_byte[length, "100MB"] / per_byte[length, "10MB"]
        print(f"{shape}, {length} lines: a byte of 100 MB costs {growth:.2f}x a byte of 10 MB")
        assert growth <= 1.5
    longer = per_byte["4KB", "100MB"] / per_byte["256B", "100MB"]
    print(f"{shape}: a byte of a 4 KB line costs {longer:.2f}x a byte of a 256-byte line")
    assert longer <= 2
