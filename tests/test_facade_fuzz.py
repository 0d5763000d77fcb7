"""A fuzz of the public facade, on both backends: shaped and broken outputs through `compress`,
`compress_detailed`, `acompress` and a `Compressor` fed in chunks of mixed `str` and `bytes`.

Every result must keep the contract the README states, and its facts must agree with a naive
count over the input: at most `budget` characters of valid text, passthrough exactly when the
text fits, the input's characters and lines, omitted ranges in order inside the input and
`omitted_lines` their sum, the same bytes by every path and on every call, a digest within the
budget too. The native planners' own numbers are fuzzed in Rust (`fuzz/`); this is the layer
around them. `SHAPECLIP_HYPOTHESIS=fuzz` runs it long (see tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import re

from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from shapeclip import Digest
from shapeclip.digest import apply
from strategies import TRICKY, budgets, outputs, split, split_points, tools

#: Fragments of build and test logs: errors, summaries, traces, CI prefixes, terminal noise.
LOG_WORDS = [
    "error: ",
    "Error",
    "ERROR",
    "warning: unused",
    "FAILED",
    "--- FAIL: TestX (0.00s)",
    "3 failed, 12 passed in 1.2s",
    "Traceback (most recent call last):",
    '  File "a.py", line 3, in f',
    "ValueError: bad",
    "E       assert 1 == 2",
    "make: *** [all] Error 2",
    "test result: FAILED. 3 passed; 1 failed",
    "##[error]",
    "2024-01-02T03:04:05.1234567Z ",
    "\x1b[31m",
    "\x1b[0m",
    "\r",
    " ",
    "ok",
    "compiling x",
    "[shapeclip: lines 3-5 omitted]",
]
log_line = st.lists(st.sampled_from(LOG_WORDS + TRICKY), max_size=6).map("".join)
logs = st.lists(log_line, min_size=1, max_size=300).map(lambda lines: "\n".join(lines) + "\n")

#: Search rows, `-C` context and separators, with paths and text that look like separators.
path = st.builds(
    "{}{}{}".format,
    st.sampled_from(["src/", "a-1-b/", "logs/10:00:01/", "", "C:\\x\\", "d/e f/"]),
    st.integers(0, 40),
    st.sampled_from([".py", "-2-x", ":3:", ".c", ""]),
)
row = st.builds(
    "{}{}{}{}{}".format,
    path,
    st.sampled_from([":", "-"]),
    st.integers(1, 999),
    st.sampled_from([":", "-"]),
    st.lists(st.sampled_from(["x", "-3-", ":7:", "12:34:56", " ", "\u00e9", "("]), max_size=5).map("".join),
)
floods = st.lists(st.one_of(row, st.just("--")), min_size=1, max_size=300).map(lambda rows: "\n".join(rows) + "\n")

#: One long line, and lines of one character repeated: cuts inside lines and runs of repeats.
long_lines = st.builds(lambda c, n, tail: c * n + tail, st.sampled_from(TRICKY), st.integers(1, 20_000), outputs)

texts = st.one_of(outputs, logs, floods, long_lines, st.text(max_size=500))
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def decoded(text: str | bytes) -> str:
    """What every path reads: bytes decoded with replacement, lone surrogates replaced."""
    if isinstance(text, bytes):
        return text.decode("utf-8", "replace")
    return _LONE_SURROGATE.sub("\ufffd", text)


def check_facts(result: shapeclip.Compressed, text: str, budget: int) -> None:
    assert len(result.text) <= budget
    result.text.encode("utf-8")
    assert result.output_chars == len(result.text)
    assert result.input_chars == len(text)
    assert result.input_lines == text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    assert (result.shape == "passthrough") == (len(text) <= budget)
    if result.shape == "passthrough":
        assert result.text == text
        assert (result.omitted_chars, result.omitted_lines, result.omitted_ranges) == (0, 0, ())
    last = 0
    for first, end in result.omitted_ranges:
        assert last < first <= end <= result.input_lines
        last = end
    assert result.omitted_lines == sum(end - first + 1 for first, end in result.omitted_ranges)
    assert 0 <= result.omitted_chars <= result.input_chars


def facts(result: shapeclip.Compressed) -> tuple[object, ...]:
    """Everything about a result but the object identity of a passthrough."""
    return (
        result.text,
        result.shape,
        result.input_chars,
        result.input_lines,
        result.omitted_chars,
        result.omitted_lines,
        result.omitted_ranges,
    )


@given(text=texts, budget=budgets, tool=tools, as_bytes=st.booleans(), data=st.data())
def test_every_entry_point_keeps_the_contract(
    backend: str, text: str, budget: int, tool: str | None, as_bytes: bool, data: st.DataObject
) -> None:
    given_text: str | bytes = text.encode("utf-8", "surrogatepass") if as_bytes else text
    expected = decoded(given_text)
    result = shapeclip.compress_detailed(given_text, tool, budget)
    check_facts(result, expected, budget)
    assert shapeclip.compress(given_text, tool, budget) == result.text
    assert asyncio.run(shapeclip.acompress(given_text, tool, budget)) == result.text

    raw = expected.encode("utf-8")
    chunks: list[str | bytes] = []
    for chunk in split(raw, data.draw(split_points(len(raw)), label="splits")):
        assert isinstance(chunk, bytes)
        as_str = data.draw(st.booleans(), label="as str")
        try:
            chunks.append(chunk.decode("utf-8") if as_str else chunk)
        except UnicodeDecodeError:
            chunks.append(chunk)
    compressor = shapeclip.Compressor(tool, budget)
    for chunk in chunks:
        compressor.feed(chunk)
    assert facts(compressor.finish_detailed()) == facts(result), f"chunks {[type(c).__name__ for c in chunks]}"


@given(text=texts, budget=st.integers(800, 20_000), tool=tools, answer=st.text(max_size=3000))
def test_a_digest_keeps_the_budget_and_the_bytes(
    backend: str, text: str, budget: int, tool: str | None, answer: str
) -> None:
    cache: dict[str, str] = {}

    def digest(omitted: str, tool_name: str) -> str:
        return answer

    asked = Digest(digest, cache=cache)
    planned = shapeclip.compress_detailed(text, tool, budget, digest=asked)
    check_facts(planned, decoded(text), budget)
    first = apply(planned, asked)
    check_facts(first, decoded(text), budget)
    again = shapeclip.compress(text, tool, budget, digest=asked)
    assert again == first.text
    compressor = shapeclip.Compressor(tool, budget, digest=asked)
    compressor.feed(text)
    assert compressor.finish() == first.text
