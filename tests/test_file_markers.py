"""`shapeclip FILE`: the file is where the output is kept, so every marker names it, and every
command a marker names (`sed -n 'A,Bp' FILE`, `grep ... FILE`), run by a shell, prints exactly
the lines it says. A marker whose way back would make its compact wording too long keeps its
numbers and drops only the way back, on both backends."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import shapeclip
from shapeclip import api

SED = re.compile(r"sed -n '(\d+),(\d+)p' ('(?:[^']|'\\'')*'|\S+?)(?=[\];,]|\s|$)")
LINES = "".join(f"row {i:05} of a plain listing of things\n" for i in range(1, 4001))
# A build whose errors are too many to show: the closing marker says how to find them all.
LOG = "".join(
    f"[{i:05}] compiling module_{i}.c\n"
    + (f"src/m{i}.c:{i}:7: error: expected ';' before 'x{i}'\n" if i % 10 == 0 else "")
    for i in range(1, 6001)
)


def shapeclip_file(path: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", *args, path.name], cwd=path.parent, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def shell(command: str, cwd: Path) -> str:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("name", ["out.txt", "my out's.txt"])
@pytest.mark.parametrize("budget", ["600", "2000", "16000"])
def test_every_sed_a_marker_names_prints_the_lines_it_says(tmp_path: Path, name: str, budget: str) -> None:
    path = tmp_path / name
    path.write_text(LINES)
    out = shapeclip_file(path, "--budget", budget)
    assert len(out) <= int(budget)
    named = SED.findall(out)
    if budget == "600":
        # Too small for the way back beside the numbers: the numbers stay.
        counted = r"\[shapeclip: (?:[\d,]+ chars of )?lines [\d,]+-[\d,]+ of 4,000 omitted, ~[\d,]+ tokens\]"
        assert not named and re.search(counted, out), out
        return
    assert named, out
    lines = LINES.splitlines(keepends=True)
    for a, b, quoted in named:
        assert shell(f"sed -n '{a},{b}p' {quoted}", tmp_path) == "".join(lines[int(a) - 1 : int(b)])


def test_a_log_file_is_planned_as_a_log_and_its_grep_finds_every_error(tmp_path: Path) -> None:
    path = tmp_path / "build 7.log"
    path.write_text(LOG)
    out = shapeclip_file(path, "--budget", "16000")
    assert "src/m10.c:10:7: error: expected ';' before 'x10'" in out and " omitted from this output " in out
    grep = re.search(r"grep -n -i -E 'error\|fail\|warn' 'build 7.log'", out)
    assert grep is not None, out
    errors = [f"{n}:{line}" for n, line in enumerate(LOG.splitlines(keepends=True), 1) if "error" in line]
    assert shell(grep.group(0), tmp_path) == "".join(errors) and len(errors) == 600


def test_a_path_a_marker_cannot_hold_gets_the_plain_markers(tmp_path: Path) -> None:
    path = tmp_path / "out[1].txt"
    path.write_text(LINES)
    out = shapeclip_file(path, "--budget", "2000")
    assert "sed -n" not in out and "out[1]" not in out and "[shapeclip: lines" in out


@pytest.mark.parametrize("budget", [400, 1100, 16_000])
def test_both_backends_word_the_file_markers_alike(monkeypatch: pytest.MonkeyPatch, budget: int) -> None:
    def clipped() -> str:
        compressor = api.Compressor._of_file("logs/out file.txt", "web_fetch", budget, None)
        compressor.feed(LINES)
        return compressor.finish()

    native = clipped()
    monkeypatch.setattr(api, "_core", None)
    monkeypatch.setattr(api, "_warned", True)
    assert clipped() == native and len(native) <= budget


def test_a_hint_too_long_for_the_compact_marker_leaves_its_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # A compact marker may take a sixth of the budget: here the numbers fit in it, the numbers
    # and the way back (`; re-run | sed -n 'A,Bp'`, `; read offset A limit N`) do not.
    text = "".join(f"{i}\n" for i in range(1, 2001))
    counted = re.compile(r"^\[shapeclip: lines [\d,]+-[\d,]+ of 2,000 omitted, ~[\d,]+ tokens\]$", re.M)
    read = shapeclip.compress_detailed(text, "read_file", 400)
    assert read.shape == "read" and counted.search(read.text), read.text
    clip = shapeclip.compress(text, "bash", 600)
    assert counted.search(clip), clip
    monkeypatch.setattr(api, "_core", None)
    monkeypatch.setattr(api, "_warned", True)
    assert shapeclip.compress(text, "bash", 600) == clip
