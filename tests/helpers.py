"""Helpers that several test files share: the every-path stream check, the native-against-Python
clip comparison and the clip marker's patterns. Test files import from here, never from each
other.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import assume

import shapeclip
from shapeclip import api
from shapeclip.store.writer import _content_hash
from strategies import split

CHUNK_SIZES = (1, 2, 3, 7, 4096, 65536)


def streamed(chunks: list[str | bytes], tool: str | None, budget: int) -> str:
    compressor = shapeclip.Compressor(tool, budget)
    for chunk in chunks:
        compressor.feed(chunk)
    return compressor.finish()


def assert_every_path_agrees(text: str, tool: str | None, budget: int, points: list[int] | None = None) -> None:
    expected = shapeclip.compress(text, tool, budget)
    data = text.encode("utf-8")
    paths: dict[str, list[str | bytes]] = {}
    for size in CHUNK_SIZES:
        paths[f"str chunks of {size}"] = [text[i : i + size] for i in range(0, len(text), size)]
        paths[f"byte chunks of {size}"] = [data[i : i + size] for i in range(0, len(data), size)]
    if points is not None:
        paths[f"str split at {points}"] = split(text, [p for p in points if p <= len(text)])
        paths[f"byte split at {points}"] = split(data, [p for p in points if p <= len(data)])
    for name, chunks in paths.items():
        assert streamed(chunks, tool, budget) == expected, f"{name} diverged from the one-shot result"


def assert_clips_agree(text: str, tool: str | None, budget: int) -> None:
    """The native clip's result is the Python clip's, when the core plans a clip."""
    native = shapeclip.compress_detailed(text, tool, budget)
    if native.shape not in ("clip", "passthrough"):
        return
    saved = api._core
    try:
        api._core = None
        api._warned = True
        python = shapeclip.compress_detailed(text, tool, budget)
    finally:
        api._core = saved
    assert (native.text, native.omitted_ranges, native.omitted_chars) == (
        python.text,
        python.omitted_ranges,
        python.omitted_chars,
    )


N = r"([\d,]+)"
FULL = re.compile(
    rf"\[shapeclip: (?:lines {N}-{N}|line {N}) of {N}(?P<partial>.*?) omitted from this .*?output "
    rf"\({N} lines?, {N} chars?, ~{N} tokens?\)\. To see them, [^\]]*\]"
)
# The short tiers say a span cut inside a line is omitted in part: the compact one by counting
# its characters first, the terse one by saying so.
COMPACT = re.compile(
    rf"\[shapeclip: (?:(?P<chars>[\d,]+) chars? of )?(?:lines {N}-{N}|line {N}) of {N} omitted, ~{N} tokens?"
    r"(?:; re-run \| sed -n '\d+,\d+p'|; read offset \d+ limit \d+)?\]"
)
TERSE = re.compile(r"\[(?:lines (\d+)-(\d+)|line (\d+)) omitted(?P<part> in part)?\]")
RESET = "\x1b[0m"


def num(s: str) -> int:
    return int(s.replace(",", ""))


#: The marker that counts a table's rows (`rust/table`): its rows, its other lines, and the column
#: it groups them by with the values it names.
TABLE_COUNT = re.compile(
    rf"^\[shapeclip: table of {N} rows?(?:, {N} other lines?)?(?:; by ([^:]+): (.*))?\]$", re.MULTILINE
)
_TABLE_VALUE = re.compile(r'("(?:[^"\\]|\\.)*"|\S+) ([\d,]+)(?:; |$)')
_TABLE_MORE = re.compile(rf"; {N} more values? in {N} rows?$")


def table_counts(listing: str) -> tuple[dict[str, int], int]:
    """The values a table's count names (unquoted) with their rows, and the rows of the values
    it does not name."""
    rest = 0
    more = _TABLE_MORE.search(listing)
    if more:
        rest, listing = num(more.group(2)), listing[: more.start()]
    counts = {}
    for value, count in _TABLE_VALUE.findall(listing):
        counts[value[1:-1].encode().decode("unicode_escape") if value.startswith('"') else value] = num(count)
    return counts, rest


def split_output(text: str, out: str, marker: re.Match[str]) -> list[tuple[int, int]]:
    """The lengths of head and tail the output may show: between head and marker shapeclip may
    have put a '\n' and, before it, a colour reset, and the input may hold either itself."""
    before, after = out[: marker.start()], out[marker.end() :]
    tail = after[1:] if after else ""
    assert not after or after.startswith("\n")
    assert text.endswith(tail)
    heads = [
        len(before) - len(added)
        for added in ("", "\n", RESET, RESET + "\n")
        if before.endswith(added) and text.startswith(before[: len(before) - len(added)])
    ]
    assert heads, f"{before!r} is not the start of the input"
    # A head cut just before a '\n' and one just after it print alike.
    heads += [head + 1 for head in heads if before.endswith("\n")]
    return [(head, len(tail)) for head in heads]


def require_shape(result: shapeclip.Compressed, shape: str, possible: tuple[str, ...]) -> None:
    """Asserts that `result` has one of the `possible` shapes, and discards the example unless
    it is `shape`. A property about one shape then never passes by skipping: Hypothesis counts
    the discarded examples and fails the test when it finds no example of `shape` at all, or too
    few (its `filter_too_much` health check)."""
    assert result.shape in possible, f"shape {result.shape!r}, not one of {possible}"
    assume(result.shape == shape)


def content_hash(data: bytes) -> str:
    """The hex digits of `data`'s hash as the store computes it, which its IDs start with."""
    _, hasher = _content_hash()
    hasher.update(data)
    return hasher.hexdigest()


def twin_outputs() -> tuple[str, str, str]:
    """Two outputs whose IDs share their first four hex digits, and those digits."""
    seen: dict[str, str] = {}
    for n in itertools.count():
        text = f"twin {n}\n"
        shared = content_hash(text.encode())[:4]
        if shared in seen:
            return seen[shared], text, shared
        seen[shared] = text
    raise AssertionError("unreachable")
