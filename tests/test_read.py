"""The read planner from Python, on generated source files: every plan stays within the budget
and streams as one call; no gap marker stands for lines shorter than itself; and a read only a
little too long loses only blank and comment lines, never a line of code."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
GAP = re.compile(r"^\[lines? (\d+)(?:-(\d+))? omitted\]$", re.MULTILINE)


@st.composite
def code_line(draw: st.DrawFn) -> str:
    indent = " " * draw(st.sampled_from([0, 4, 8]))
    kind = draw(st.sampled_from(["def", "code", "code", "code", "comment", "blank", "doc", "note"]))
    name = draw(WORDS)
    if kind in ("def", "doc"):
        line = f"{indent}def {name}(argument):"
        if kind == "def":
            return line
        # A docstring is the first statement of a definition, where Python puts one.
        inner = indent + "    "
        body = "\n".join(f"{inner}{draw(WORDS)} {draw(WORDS)} {draw(WORDS)}" for _ in range(draw(st.integers(0, 6))))
        return f'{line}\n{inner}"""{draw(WORDS)}\n{body}\n{inner}"""'
    if kind == "code":
        return f"{indent}{name} = compute({draw(WORDS)}, {draw(st.integers(0, 999))})"
    if kind == "note":
        # A harness's note where it already cut the output: the read's tail grows after it.
        count = draw(st.integers(1, 99_999))
        return draw(st.sampled_from([f"{count} characters elided", f"…{count} tokens truncated…"]))
    if kind == "comment":
        return f"{indent}# {' '.join(draw(st.lists(WORDS, min_size=1, max_size=8)))}"
    return ""


sources = st.lists(code_line(), min_size=1, max_size=300).map(lambda lines: "\n".join(lines) + "\n")


@st.composite
def documented(draw: st.DrawFn) -> str:
    """Code with long comment blocks between its lines: a file a little too long once."""
    parts = []
    for line in draw(st.lists(code_line(), min_size=4, max_size=60)):
        parts.append(line)
        if draw(st.booleans()):
            block = draw(st.integers(2, 8))
            parts.extend(f"# {draw(WORDS)} {draw(WORDS)} {draw(WORDS)} {draw(WORDS)}" for _ in range(block))
    return "\n".join(parts) + "\n"


def filler(lines: list[str]) -> list[bool]:
    """Whether each line is blank, a comment, or in a docstring (the first statement of a
    definition here, opening its line)."""
    out, inside, after_def = [], False, False
    for line in lines:
        stripped = line.strip()
        doc = after_def and stripped.startswith('"""')
        out.append(inside or doc or not stripped or stripped.startswith("#"))
        if inside:
            inside = '"""' not in stripped
        elif doc:
            inside = stripped.count('"""') % 2 == 1
        if stripped and not stripped.startswith("#"):
            after_def = stripped.endswith(":")
    return out


def gaps(out: str) -> list[tuple[int, int, str]]:
    return [(int(m.group(1)), int(m.group(2) or m.group(1)), m.group(0)) for m in GAP.finditer(out)]


@given(text=sources, budget=st.integers(400, 6000))
def test_no_gap_marker_stands_for_lines_shorter_than_itself(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "read_file", budget)
    assert len(result.text) <= budget
    lines = text.split("\n")
    for first, last, marker in gaps(result.text):
        hidden = sum(len(line) + 1 for line in lines[first - 1 : last])
        assert hidden > len(marker) + 1, (marker, lines[first - 1 : last])


@given(text=documented(), share=st.floats(0.7, 1.0))
# Its docstring must go before its code: the trim once saw only comment lines as filler.
@example(
    text="____ = compute(___________, 98)\n# _ _ _ _\n# _ _ _ __\n# __ ___ ___ ___\n# ____ ____ ____ ______\n"
    "# ______ ________ ________ __________\n        # _\n# ____________ ____________ ____________ ____________\n"
    "# ____________ ____________ _____ _\ndef ___________(argument):\n_ = compute(_____, 0)\n"
    "________ = compute(__________, 66)\n        _ = compute(_, 93)\n    _ = compute(_____, 6)\n"
    '        _ = compute(_, 44)\ndef _____(argument):\n"""rsdysiqlfwjn\n___ ___ ____\n____ ____ _____\n'
    "_____ _____ _______\n"
    '_______ ________ _________\n_________ __________ ____________\n"""\ndef ___________(argument):\n'
    "_ = compute(______, 55)\n        ____________ = compute(____________, 146)\n        def _(argument):\n",
    share=0.71875,
)
def test_a_read_a_little_too_long_loses_only_blank_and_comment_lines(text: str, share: float) -> None:
    budget = max(400, int(len(text) * share))
    lines = text.split("\n")[:-1]
    is_filler = filler(lines)
    code = sum(len(line) + 1 for line, fill in zip(lines, is_filler, strict=True) if not fill)
    runs = sum(1 for i, fill in enumerate(is_filler) if fill and (i == 0 or not is_filler[i - 1]))
    # Room for every code line, a marker for each run of filler and the longest closing
    # marker: then dropping filler is enough, and nothing else may go.
    assume(len(text) > budget and code + 30 * runs + budget // 6 <= budget)
    result = shapeclip.compress_detailed(text, "read_file", budget)
    # A read of filler alone has no code to show, and is clipped: it too loses only filler.
    assert result.shape in ("read", "clip")
    assert result.omitted_ranges
    for first, last in result.omitted_ranges:
        assert all(is_filler[first - 1 : last]), lines[first - 1 : last]


@given(text=sources, budget=st.integers(400, 6000))
def test_a_read_streams_as_one_call(text: str, budget: int) -> None:
    assert_every_path_agrees(text, "read_file", budget)


def test_a_shells_output_that_reads_as_source_is_a_read_and_a_traceback_a_log() -> None:
    # Code names errors in its statements (`raise`, `except`, `log.error(...)`): printed by a
    # command shapeclip was not told of, it is still code, planned as a read worded as a shell's.
    code = "".join(
        f"def check_{i}(value):\n    try:\n        return parse(value)\n    except KeyError:\n"
        f"        log.error('no key %s', value)\n        raise ValueError(value)\n\n"
        for i in range(200)
    )
    read = shapeclip.compress_detailed(code, "bash", 2000)
    assert read.shape == "read" and "re-run | sed -n '" in read.text and len(read.text) <= 2000
    # Where a stream's chunks end changes nothing, the lines after which a shell's output is
    # taken for no source code among them.
    late = "".join(f"step {i}: parsed\n" for i in range(250)) + code
    for text in (code, late):
        whole = shapeclip.compress(text, "bash", 2000)
        for size in (7, 4096):
            compressor = shapeclip.Compressor("bash", 2000)
            for start in range(0, len(text), size):
                compressor.feed(text[start : start + size])
            assert compressor.finish() == whole
    assert shapeclip.compress_detailed(late, "bash", 2000).shape != "read"
    # A traceback quotes such a line for a frame, and reports what happened: a log.
    frames = "".join(f'  File "lib.py", line {i}, in check_{i}\n    raise ValueError(value)\n' for i in range(3))
    run = "".join(f"step {i}: parsed\n" for i in range(400))
    traceback = f"{run}Traceback (most recent call last):\n{frames}ValueError: 7\n"
    log = shapeclip.compress_detailed(traceback, "bash", 2000)
    assert log.shape == "log" and "ValueError: 7" in log.text


def test_what_a_long_read_finds_past_its_scanned_bytes_does_not_depend_on_its_chunks() -> None:
    # Definitions are looked for in a read's first 4 MiB and a harness's note in its first 256 KiB,
    # counted by each line's own offset: a block that began before either limit once read on
    # past it, so a chunk ending elsewhere changed the plan.
    line = "    value = compute(value, 12345)  # a step of the work\n"
    body = line * (((4 << 20) + 200_000) // len(line))
    late_definition = "def first():\n" + body + "def found_after_four_mib():\n" + line * 1000
    note_at = ((256 << 10) + 100_000) // len(line)
    late_note = (
        "def first():\n" + line * note_at + "52440 characters elided\n" + line * 200 + "def second():\n" + line * 80
    )
    for text in (late_definition, late_note):
        whole = shapeclip.compress(text, "read_file", 4000)
        for size in ((4 << 20) + 100_000, (256 << 10) + 50_000, 1 << 20, 65_536):
            compressor = shapeclip.Compressor("read_file", 4000)
            for start in range(0, len(text), size):
                compressor.feed(text[start : start + size])
            assert compressor.finish() == whole, size
