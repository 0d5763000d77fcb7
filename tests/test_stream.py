"""A stream, split anywhere, gives exactly what one call gives: every path, one expected result."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees, streamed
from shapeclip import api
from strategies import budgets, outputs, split, split_points, tools


@given(text=outputs, budget=budgets, tool=tools, data=st.data())
def test_stream_equals_one_shot(backend: str, text: str, budget: int, tool: str | None, data: st.DataObject) -> None:
    points = data.draw(split_points(len(text.encode("utf-8"))))
    assert_every_path_agrees(text, tool, budget, points)


@given(raw=st.binary(max_size=400), budget=st.integers(1, 300), data=st.data())
def test_invalid_utf8_decodes_like_python_however_split(
    backend: str, raw: bytes, budget: int, data: st.DataObject
) -> None:
    decoded = raw.decode("utf-8", "replace")
    expected = shapeclip.compress(decoded, "bash", budget)
    assert shapeclip.compress(raw, "bash", budget) == expected
    points = data.draw(split_points(len(raw)))
    assert streamed(split(raw, points), "bash", budget) == expected


def test_mixed_str_and_bytes_chunks_join_split_characters(backend: str) -> None:
    text = "\u20ac" * 500 + "\n" + "tail\n" * 200
    data = text.encode("utf-8")
    chunks: list[str | bytes] = [data[:1], data[1:2], data[2:700].decode("utf-8", "ignore")]
    # data[:2] is an incomplete euro sign; its third byte never comes, so both bytes are replaced.
    expected = shapeclip.compress(data[:2].decode("utf-8", "replace") + chunks[2], "bash", 300)  # type: ignore[operator]
    assert streamed(chunks, "bash", 300) == expected


@pytest.mark.parametrize("budget", [1, 50, 4000])
def test_a_long_stream_is_compressed_in_bounded_chunks(backend: str, budget: int) -> None:
    compressor = shapeclip.Compressor("bash", budget)
    for i in range(2000):
        compressor.feed(f"chunk {i}: " + "x" * 500 + "\n")
    result = compressor.finish_detailed()
    assert len(result.text) <= budget
    assert result.input_lines == 2000
    assert result.input_chars == sum(len(f"chunk {i}: ") + 501 for i in range(2000))


def test_finish_twice_or_feed_after_finish_is_a_usage_error() -> None:
    compressor = shapeclip.Compressor()
    compressor.feed("x")
    compressor.finish()
    with pytest.raises(RuntimeError, match="already finished"):
        compressor.finish()
    with pytest.raises(RuntimeError, match="already finished"):
        compressor.feed("y")


def multi_megabyte_log(lines: int) -> str:
    """A build log with errors, tracebacks, warnings, colour, progress bars and non-ASCII text."""
    rows = []
    for i in range(lines):
        if i % 211 == 0:
            rows.append(f"src/m{i}.c:{i}:5: \x1b[31merror:\x1b[0m '\u00e9t\u00e9{i}' undeclared")
        elif i % 307 == 0:
            rows.append(f'Traceback (most recent call last):\n  File "t{i}.py", line {i}, in f\n    g()')
            rows.append(f"ValueError: bad {i}")
        elif i % 53 == 0:
            rows.append(f"src/w{i % 7}.c:{i}:1: warning: unused variable 'v{i % 5}' [-Wunused-variable]")
        elif i % 97 == 0:
            rows.append(f"downloading {i}%\r{i + 1}%\rdone")
        else:
            rows.append(f"compiling module_{i} ... ok \u2713")
    rows.append("== 3 failed, 1985 passed in 12.3s ==")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("tool", ["bash", "read_file"])
def test_a_multi_megabyte_output_is_the_same_on_one_core_and_two(backend: str, tool: str) -> None:
    # One call and 1 MiB chunks prepare blocks on two cores; 64 KiB chunks stay on one.
    text = multi_megabyte_log(120_000)
    data = text.encode("utf-8")
    assert len(data) > 4 << 20
    detailed = shapeclip.compress_detailed(text, tool, 16_000)
    if backend == "native":
        assert detailed.shape == {"bash": "log", "read_file": "read"}[tool]
    expected = detailed.text
    assert shapeclip.compress(data, tool, 16_000) == expected
    for size in (1 << 20, 1 << 16):
        chunks: list[str | bytes] = [data[i : i + size] for i in range(0, len(data), size)]
        assert streamed(chunks, tool, 16_000) == expected, f"byte chunks of {size}"


@pytest.mark.parametrize("budget", [4, 6, 7, 10**6])
def test_issue_11_12_lone_surrogates_become_u_fffd_on_every_path_fitting_or_not(backend: str, budget: int) -> None:
    text = "a\ud800b\n\udfffc\ud83d"
    replaced = "a\ufffdb\n\ufffdc\ufffd"
    expected = shapeclip.compress(replaced, None, budget)
    if budget >= len(text):
        assert expected == replaced
    assert shapeclip.compress(text, None, budget) == expected
    for size in (1, 2, 3, len(text)):
        chunks: list[str | bytes] = [text[i : i + size] for i in range(0, len(text), size)]
        assert streamed(chunks, None, budget) == expected, f"str chunks of {size}"


def test_issue_11_a_str_refused_for_a_lone_surrogate_is_fed_and_stored_replaced(backend: str, tmp_path: Path) -> None:
    # The facade scans a str for lone surrogates only when the core refuses it: the retry, the
    # stored copy and the stream must all see U+FFFD, as they did when every str was scanned.
    line = "caf\u00e9 \u6784\u5efa error\n"
    text = line * 400 + "a\ud800b\n" + line * 400
    replaced = text.replace("\ud800", "\ufffd")
    store = shapeclip.Store(tmp_path / "store")
    result = shapeclip.compress_detailed(text, "bash", 2_000, store=store)
    assert result.stored is not None
    assert store.get(result.stored.id) == replaced
    assert result.text == shapeclip.compress(replaced, "bash", 2_000, store=store)
    assert streamed([text[:5000], text[5000:]], "bash", 2_000) == shapeclip.compress(replaced, "bash", 2_000)


def test_issue_30_a_long_str_outside_ascii_is_read_in_pieces_and_keeps_no_copy(tmp_path: Path) -> None:
    # Python would keep a UTF-8 copy of the whole str with it; the core reads its characters a
    # piece at a time instead. The pieces, a lone surrogate in one of them, the stored copy and
    # the counts must all come out as one piece of the replaced text would.
    line = "caf\u00e9 \u6784\u5efa build step ok\n"
    text = line * (3_000_000 // len(line)) + "a\ud800b\n" + line * 1000
    replaced = text.replace("\ud800", "\ufffd")
    size = sys.getsizeof(text)
    store = shapeclip.Store(tmp_path / "store")
    result = shapeclip.compress_detailed(text, "bash", 4_000, store=store)
    assert sys.getsizeof(text) == size  # no UTF-8 copy of it left with it
    assert result.stored is not None and store.get(result.stored.id) == replaced
    expected = shapeclip.compress_detailed(replaced.encode(), "bash", 4_000, store=store)
    assert (result.text, result.input_chars, result.input_lines) == (
        expected.text,
        len(text),
        expected.input_lines,
    )


# Characters of any kind, lone surrogates included, and a prefix that moves them across the
# core's pieces of a str (65,536 characters).
_ANY_CHARACTER = st.characters(exclude_categories=())


@given(
    st.text(_ANY_CHARACTER, max_size=40),
    st.integers(0, 140_000),
    st.sampled_from(["a", "\u00e9", "\u2502", "\U0001f600"]),
    st.integers(1, 3_000),
)
def test_issue_30_the_core_reads_a_str_as_its_utf8_with_lone_surrogates_replaced(
    tail: str, pad: int, filler: str, copies: int
) -> None:
    if api._core is None:
        pytest.skip("the native core is not built")
    text = filler * pad + tail * copies
    core = api._core.Compressor(budget=len(text) + 1, kind="other", tool=None, head_weight=1, tail_weight=1)
    assert core.feed(text) == (api._valid_str(text) != text)
    report = core.finish()
    assert (report.text, report.input_chars) == (api._valid_str(text), len(text))
