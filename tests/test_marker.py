"""Every number a clip marker prints equals what a plain reference computes from the input."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import assume, given

import shapeclip
from helpers import COMPACT, FULL, TERSE, num, split_output
from shapeclip import fallback
from strategies import budgets, outputs, tools


@dataclass
class Truth:
    first: int
    last: int
    lines: int
    first_shown: int
    last_shown: int
    chars: int
    total_lines: int


def reference(text: str, head: int, tail: int) -> Truth:
    """Numbers for omitting characters [head, len - tail) of `text`, from a plain line scan."""
    starts, ends = [], []  # each line's first char and the end of its content (before '\n')
    pos = 0
    for line in text.split("\n"):
        starts.append(pos)
        ends.append(pos + len(line))
        pos += len(line) + 1
    if text.endswith("\n"):
        starts.pop(), ends.pop()
    stop = len(text) - tail
    line_of = lambda c: max(i for i, s in enumerate(starts) if s <= c)  # noqa: E731
    first, last = line_of(head), line_of(stop - 1)
    return Truth(
        first=first + 1,
        last=last + 1,
        lines=last - first + 1,
        first_shown=head - starts[first],
        last_shown=max(0, ends[last] - stop),
        chars=stop - head,
        total_lines=len(starts),
    )


@given(text=outputs, budget=budgets, tool=tools)
def test_marker_numbers_are_exact(backend: str, text: str, budget: int, tool: str | None) -> None:
    result = shapeclip.compress_detailed(text, tool, budget)
    assume(result.shape == "clip")
    out = result.text
    for pattern in (FULL, COMPACT, TERSE):
        marker = pattern.search(out)
        if marker:
            break
    else:
        assert "\u2026" in out
        return
    skip = {pattern.groupindex[name] for name in ("partial", "chars", "part") if name in pattern.groupindex}
    groups = [g for i, g in enumerate(marker.groups(), 1) if g is not None and i not in skip]
    # The output may be read in more than one way (see split_output); exactly the reading the
    # omitted characters give must agree with every other number.
    readings = [reference(text, head, tail) for head, tail in split_output(text, out, marker)]
    truth = next((t for t in readings if t.chars == result.omitted_chars), readings[0])
    assert (result.omitted_ranges, result.omitted_chars, result.omitted_lines) == (
        ((truth.first, truth.last),),
        truth.chars,
        truth.lines,
    )
    numbers = [num(g) for g in groups]
    span = [truth.first, truth.last] if truth.first != truth.last else [truth.first]
    tokens = -(-truth.chars // 4)
    if pattern is FULL:
        assert numbers == [*span, truth.total_lines, truth.lines, truth.chars, tokens]
        partial = marker.group("partial")
        if truth.first_shown:
            assert f"first {truth.first_shown:,} " in partial
        if truth.last_shown:
            assert f"last {truth.last_shown:,} char" in partial
        assert bool(partial) == bool(truth.first_shown or truth.last_shown)
    elif pattern is COMPACT:
        assert numbers == [*span, truth.total_lines, tokens]
        partial = bool(truth.first_shown or truth.last_shown)
        assert marker.group("chars") == (f"{truth.chars:,}" if partial else None)
    else:
        assert numbers == span
        assert bool(marker.group("part")) == bool(truth.first_shown or truth.last_shown)


def test_marker_example_reads_as_documented() -> None:
    text = "".join(f"build step {i} ok\n" for i in range(1, 10_241))
    out = shapeclip.compress(text, "bash", 16_000)
    marker = FULL.search(out)
    assert marker is not None, out
    assert "sed -n '" in marker.group(0)
    file_read = shapeclip.compress(text, "read_file", 16_000)
    assert re.search(r"read the file again with offset \d+ and limit \d+", file_read)
    # A read's closing marker takes at most 1/24 of the budget: at 4,000 the short way back.
    short = shapeclip.compress(text, "read_file", 4000)
    assert COMPACT.search(shapeclip.compress(text, "bash", 4000))
    closing = r"\[shapeclip: lines [\d,]+-[\d,]+ of 10,240 omitted, ~[\d,]+ tokens; read offset \d+ limit \d+\]"
    assert re.search(closing, short), short


def test_issue_11_14_clip_counts_of_one_are_singular() -> None:
    # No clip omits fewer characters than its marker takes, so the words are checked directly.
    span = fallback.Span(first=3, last=3, total_lines=9, first_shown=1, last_shown=0, chars=1, lines=1)
    full = fallback.render_marker("full", span, "shell", "bash")
    assert full.startswith(
        "[shapeclip: line 3 of 9 after its first 1 char omitted from this bash output (1 line, 1 char, ~1 token)."
    ), full
    assert fallback.render_marker("compact", span, "other", "bash").endswith("~1 token]")
    two = fallback.Span(first=3, last=4, total_lines=9, first_shown=1, last_shown=1, chars=2, lines=2)
    assert "(line 3 after its first 1 char; line 4 except its last 1 char)" in fallback.render_marker(
        "full", two, "shell", "bash"
    )


def test_issue_27_item_14_siblings_every_plan_ends_its_last_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # A plan whose last piece is its marker ended without a newline, so a shell's prompt after
    # it landed on the marker's line: the clip with no tail, and reads, listings and diffs.
    from shapeclip import profiles

    monkeypatch.setitem(profiles.TOOL_PROFILES, "head_only", profiles.Profile("other", head=1.0, tail=0.0))
    long_last = "".join(f"line {i}\n" for i in range(3000)) + "x" * 5000 + "\n"
    outs = {
        "clip": shapeclip.compress_detailed("".join(f"row {i}\n" for i in range(3000)), "head_only", 2000),
        "read": shapeclip.compress_detailed(
            "".join(f"def f{i}(x):\n    return x\n" for i in range(900)) + long_last, "read_file", 2000
        ),
        "listing": shapeclip.compress_detailed("".join(f"src/d{i // 400}/f{i}.py\n" for i in range(3000)), "sh", 2000),
    }
    for shape, result in outs.items():
        if result.backend == "native":
            assert result.shape == shape
        assert result.text.endswith("]\n"), (shape, result.text[-120:])
