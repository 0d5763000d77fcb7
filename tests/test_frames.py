"""A shell's output whose progress displays redrew their lines with carriage returns: where every
line as a terminal leaves it fits, each shows its last frame and one marker counts the frames
drawn over and their characters, exactly; otherwise its first and last lines are shown so,
around a marker that names the lines between and counts the characters left out. Generated
outputs, each line's last frame and count worked out here in a few lines of plain Python."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees
from shapeclip import api

BARS = ["{p:3d}%|{bar}| {i}/{n}", "Downloading model.bin: {p}% {i}/{n} MB", "{spin} resolving {i}/{n}"]
PLAIN = ["epoch {e}: loss={e}.{e}", "saved out/model.pt", "", "Reading package lists... Done", "ok\r"]


@pytest.fixture(autouse=True)
def native() -> None:
    if api._core is None:
        pytest.skip("the frames planner is in the native core, which is not built")


@st.composite
def outputs(draw: st.DrawFn) -> str:
    lines = []
    for e in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            form, n = draw(st.sampled_from(BARS)), draw(st.integers(1, 400))
            steps = [
                form.format(p=100 * i // n, bar="\u2588" * (i * 10 // n), i=i, n=n, spin="\u280b\u2819"[i % 2])
                for i in range(n + 1)
            ]
            lead = draw(st.sampled_from(["\r", ""]))
            lines.append(lead + "\r".join(steps) + draw(st.sampled_from(["", "\r", "\r\r"])))
        lines.append(draw(st.sampled_from(PLAIN)).format(e=e))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


def last_frames(text: str) -> tuple[str, int, int]:
    """`text` as a terminal leaves it, the frames with text drawn over, and the lines redrawn."""
    shown, frames, redrawn = [], 0, 0
    for line in text.split("\n"):
        core = line.rstrip("\r")
        last = core.rsplit("\r", 1)[-1]
        shown.append(last + line[len(core) :])
        if len(last) < len(core):
            frames += sum(1 for f in core.split("\r") if f) - 1
            redrawn += 1
    return "\n".join(shown), frames, redrawn


def terminal_lines(text: str) -> list[str]:
    """Each line of `text` as a terminal leaves it, with its newline."""
    lines = [f"{line}\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return [line.rstrip("\r\n").rsplit("\r", 1)[-1] + line[len(line.rstrip("\r\n")) :] for line in lines if line]


@given(text=outputs(), budget=st.integers(100, 3000))
def test_each_line_shows_its_last_frame_and_the_marker_counts_the_rest(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert len(result.text) <= budget
    shown, frames, redrawn = last_frames(text)
    lines = terminal_lines(text)
    assert "".join(lines) == shown
    if result.shape != "frames":
        # Declined only where nothing was redrawn, where the shortest marker of the output's
        # ends takes more than half the budget, or where its ends would leave out no line.
        terse = f"[lines {len(lines)}-{len(lines) + 1} and progress frames omitted]"
        assert frames == 0 or len(text) <= budget or len(terse) + 1 > budget // 2 or len(shown) <= budget
        return
    body, marker = result.text[:-1].rsplit("\n", 1) if "\n" in result.text[:-1] else ("", result.text[:-1])
    if body == shown.removesuffix("\n"):
        assert f"{frames:,} progress frame" in marker
        # The whole output as a terminal leaves it, then the marker.
        assert result.omitted_chars == len(text) - len(shown)
        assert len(result.omitted_ranges) <= redrawn
        if marker.startswith("[shapeclip: "):
            assert re.search(rf"\b{result.omitted_chars:,} chars?\b", marker), marker
        return
    out = result.text.split("\n")
    at = next(i for i, line in enumerate(out) if line.startswith("[") and "progress frames" in line)
    head, marker, tail = "".join(f"{line}\n" for line in out[:at]), out[at], "\n".join(out[at + 1 :])
    assert result.omitted_chars == len(text) - len(head) - len(tail)
    if marker.startswith("[shapeclip: "):
        assert re.search(rf"\b{result.omitted_chars:,} chars?\b", marker), marker
    # Its ends: the first and the last lines as a terminal leaves them, around the lines named.
    first, last = head.count("\n") + 1, len(lines) - len(terminal_lines(tail))
    assert first <= last
    assert head == "".join(lines[: first - 1])
    assert tail == "".join(lines[last:])
    assert (f"lines {first:,}-{last:,}" if first < last else f"line {first:,}") in marker


@given(text=outputs(), budget=st.integers(100, 3000))
def test_a_stream_plans_as_one_call_does(text: str, budget: int) -> None:
    assert_every_path_agrees(text, "bash", budget)


def test_a_file_with_carriage_returns_for_line_ends_is_no_progress() -> None:
    rows = "".join(f"2024-01-{d:02d},{d * 1.5},ok\r" for d in range(1, 29)) * 20
    assert shapeclip.compress_detailed(rows, "bash", 2000).shape != "frames"
    bars = "\r".join(f"{p}%" for p in range(101)) * 30
    assert shapeclip.compress_detailed(bars, "read_file", 2000).shape != "frames"
