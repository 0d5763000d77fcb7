"""Markers that point into the store: every range they name reads back as exactly the
omitted lines, the bytes are the same on every run, and a store that fails costs nothing
but the pointer."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from shapeclip import Store
from shapeclip.store import writer as writer_module
from strategies import budgets, outputs, tools

SHOW = re.compile(r"shapeclip show ([0-9a-f]{12,64}) --lines (\d+):(\d+)")
READ = re.compile(r"read (\S+) with offset (\d+) and limit (\d+)")
LOG = "".join(f"step {i}: compiling module_{i}.c\n" for i in range(1, 3000)) + (
    "src/m.c:12:5: error: expected ';' before '}' token\nmake: *** [all] Error 1\n"
)


def lines_of(text: str) -> list[str]:
    """The input's lines as the engine numbers them: split at `\\n` only, each with its `\\n`."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def chunked(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def compress_stream(text: str, tool: str | None, budget: int, store: Store, size: int) -> shapeclip.Compressed:
    compressor = shapeclip.Compressor(tool, budget, store=store)
    for piece in chunked(text, size):
        compressor.feed(piece.encode("utf-8"))
    return compressor.finish_detailed()


@given(text=outputs, budget=budgets, tool=tools, size=st.sampled_from([1, 7, 4096, 1 << 20]))
def test_every_named_range_reads_back_as_the_omitted_lines(
    tmp_path_factory: pytest.TempPathFactory, text: str, budget: int, tool: str | None, size: int
) -> None:
    store = Store(tmp_path_factory.mktemp("store"))
    result = shapeclip.compress_detailed(text, tool, budget, store=store)
    assert len(result.text) <= budget
    assert compress_stream(text, tool, budget, store, size).text == result.text
    if result.shape == "passthrough":
        assert result.stored is None and not os.listdir(store.path)
        return
    assert result.stored is not None and result.store_error is None
    assert store.get(result.stored.id) == text
    lines = lines_of(text)
    for entry_id, a, b in SHOW.findall(result.text):
        assert entry_id == result.stored.id
        assert store.lines(entry_id, int(a), int(b)) == lines[int(a) - 1 : int(b)]
        # One gap's range, or with several the range that holds them all: it starts where a
        # gap starts and ends where one ends.
        assert int(a) in {first for first, _ in result.omitted_ranges}
        assert int(b) in {last for _, last in result.omitted_ranges}
    for path, offset, limit in READ.findall(result.text):
        assert path == str(result.stored.path)
        stored_lines = lines_of(Path(path).read_bytes().decode("utf-8"))
        assert stored_lines[int(offset) - 1 : int(offset) - 1 + int(limit)] == lines[int(offset) - 1 :][: int(limit)]


def test_the_same_output_gives_the_same_bytes(tmp_path: Path) -> None:
    text = "".join(f"row {i}\n" for i in range(5000))
    first = shapeclip.compress(text, "bash", 16_000, store=Store(tmp_path / "s"))
    again = shapeclip.compress(text.encode(), "bash", 16_000, store=Store(tmp_path / "s"))
    assert first == again
    entry = Store(tmp_path / "s").put(text)
    assert f"To see them, run shapeclip show {entry.id} --lines " in first
    assert f", or read {entry.path} with offset " in first


def test_both_backends_word_the_clip_marker_alike(tmp_path: Path, backend: str) -> None:
    text = "".join(f"line {i}\n" for i in range(3000))
    store = Store(tmp_path / "s")
    out = shapeclip.compress(text, None, 16_000, store=store)
    show, read = SHOW.search(out), READ.search(out)
    assert len(out) <= 16_000 and show is not None and read is not None
    entry = store.entry(show.group(1))
    assert read.group(1) == str(entry.path)
    compact = shapeclip.compress(text, None, 900, store=store)
    assert len(compact) <= 900 and f"; shapeclip show {entry.id} --lines " in compact


def test_backends_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shapeclip import api

    text = "".join(f"line {i}\n" for i in range(3000))
    native = shapeclip.compress(text, "web_fetch", 1200, store=Store(tmp_path / "s"))
    monkeypatch.setattr(api, "_core", None)
    monkeypatch.setattr(api, "_warned", True)
    assert shapeclip.compress(text, "web_fetch", 1200, store=Store(tmp_path / "s")) == native


def test_a_log_plan_closes_with_the_way_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    # At 4,000 the short wording (the full one would take more than 1/24 of the budget) still
    # names the stored copy; at 16,000 the full one also names its file.
    short = shapeclip.compress_detailed(LOG, "bash", 4000, store=store)
    assert short.stored is not None
    assert f"; shapeclip show {short.stored.id} --lines " in short.text.rstrip("\n").rsplit("\n", 1)[-1]
    result = shapeclip.compress_detailed(LOG, "bash", 16_000, store=store)
    assert result.shape == "log" and result.stored is not None
    closing = result.text.rstrip("\n").rsplit("\n", 1)[-1]
    assert f"run shapeclip show {result.stored.id} --lines " in closing
    assert f"or read {result.stored.path} with offset " in closing
    assert " (or any range above), run shapeclip show " in closing
    lines = lines_of(LOG)
    for _, a, b in SHOW.findall(result.text):
        assert store.lines(result.stored.id, int(a), int(b)) == lines[int(a) - 1 : int(b)]
    # Each gap marker's range is one that command reads: exactly the lines it stands for.
    gaps = re.findall(r"^\[lines? ([\d,]+)(?:-([\d,]+))? omitted", result.text, re.M)
    assert gaps
    for a, b in gaps:
        first, last = int(a.replace(",", "")), int((b or a).replace(",", ""))
        assert any(lo <= first and last <= hi for lo, hi in result.omitted_ranges)
        assert store.lines(result.stored.id, first, last) == lines[first - 1 : last]
    plain = shapeclip.compress(LOG, "bash", 16_000)
    assert "sed -n" in plain and "shapeclip show" not in plain


def test_a_search_plan_closes_with_the_way_back(tmp_path: Path) -> None:
    flood = "".join(f"src/mod_{i % 40}.py:{i}:    value = compute({i})\n" for i in range(1, 6000))
    store = Store(tmp_path / "s")
    result = shapeclip.compress_detailed(flood, "grep", 4000, store=store)
    assert result.shape == "search" and result.stored is not None and len(result.text) <= 4000
    closing = result.text.rstrip("\n").rsplit("\n", 1)[-1]
    assert f"run shapeclip show {result.stored.id} -F --grep 'PATTERN' with a file's path" in closing
    assert f"or read {result.stored.path}." in closing
    # Following it, as written, for one file gives that file's rows, all of them, numbered as stored.
    shown = subprocess.run(
        [sys.executable, "-m", "shapeclip", "show", result.stored.id, "-F", "--grep", "src/mod_7.py:"],
        capture_output=True, text=True, env={**os.environ, "SHAPECLIP_STORE": str(store.path)}, check=True,
    ).stdout.splitlines()
    rows = [(n, line) for n, line in enumerate(flood.splitlines(), 1) if line.startswith("src/mod_7.py:")]
    assert shown == [f"{n}:{line}" for n, line in rows]
    compact = shapeclip.compress(flood, "grep", 700, store=store)
    assert len(compact) <= 700 and f"; shapeclip show {result.stored.id} -F --grep 'PATTERN']" in compact
    plain = shapeclip.compress(flood, "grep", 4000)
    assert "search again narrower" in plain and "shapeclip show" not in plain


def test_a_stream_writes_as_it_goes_and_keeps_only_what_was_cut(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    compressor = shapeclip.Compressor("bash", 1000, store=store)
    compressor.feed(b"x" * 100_000 + b"\n")  # past the file's buffer: on disk, not in memory
    (temp,) = os.listdir(store.path)
    assert temp.startswith(".tmp-") and (store.path / temp).stat().st_size == 100_001
    compressor.feed("y\n" * 1000)
    result = compressor.finish_detailed()
    assert result.stored is not None and sorted(os.listdir(store.path)) == sorted(
        [".lock", result.stored.id + ".out", result.stored.id + ".json"]
    )
    fits = shapeclip.Compressor("bash", 1000, store=Store(tmp_path / "t"))
    fits.feed("short\n" * 10)
    assert fits.finish_detailed().stored is None and os.listdir(tmp_path / "t") == []
    # Characters, not bytes, decide: 600 bytes are 300 characters, which fit.
    assert shapeclip.compress_detailed("é" * 300, None, 400, store=store).stored is None


def _failing(exc: OSError):  # type: ignore[no-untyped-def]
    def fail(*args: object, **kwargs: object) -> None:
        raise exc

    return fail


@pytest.mark.parametrize(
    "breakage",
    ["symlink", "not a directory", "full disk", "read-only", "over quota", "unprintable path", "hostile"],
)
def test_a_failing_store_fails_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, breakage: str) -> None:
    path = tmp_path / "s"
    max_bytes = 10**9
    if breakage == "symlink":
        (tmp_path / "real").mkdir()
        path.symlink_to(tmp_path / "real")
    elif breakage == "not a directory":
        path.write_text("a file")
    elif breakage == "full disk":
        monkeypatch.setattr(writer_module.EntryWriter, "write", _failing(OSError(errno.ENOSPC, "No space left")))
    elif breakage == "read-only":
        monkeypatch.setattr(writer_module, "create_private", _failing(OSError(errno.EROFS, "Read-only file system")))
    elif breakage == "over quota":
        max_bytes = 100
    elif breakage == "unprintable path":
        path = tmp_path / "s]\n"
    else:
        path.mkdir()
        path.chmod(0o777)
    result = shapeclip.compress_detailed(LOG, "bash", 3000, store=Store(path, max_bytes))
    assert len(result.text) <= 3000
    assert result.text == shapeclip.compress(LOG, "bash", 3000)
    assert result.stored is None and result.store_error
    stream = shapeclip.Compressor("bash", 3000, store=Store(path, max_bytes))
    stream.feed(LOG)
    assert stream.finish() == result.text
    if path.is_dir() and not path.is_symlink():
        assert not [name for name in os.listdir(path) if name.startswith(".tmp-")]


def run(store: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SHAPECLIP_STORE": str(store)}
    command = [sys.executable, "-m", "shapeclip", *args]
    return subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=60)


def test_the_cli_stores_pipes_and_commands_and_show_reads_them_back(tmp_path: Path) -> None:
    store = tmp_path / "s"
    text = "".join(f"{i}\n" for i in range(1, 5001))
    out = run(store, "--budget", "800", "--", sys.executable, "-c", "for i in range(1, 5001): print(i)")
    marker = SHOW.search(out.stdout.decode())
    assert out.returncode == 0 and marker is not None
    entry_id, a, b = marker.groups()
    shown = run(store, "show", entry_id, "--lines", f"{a}:{b}", "--budget", "100000")
    assert shown.stdout.decode() == "".join(lines_of(text)[int(a) - 1 : int(b)])
    piped = run(store, "--budget", "800", stdin=text.encode()).stdout.decode()
    assert SHOW.search(piped) is not None
    assert "shapeclip show" not in run(store, "--budget", "800", "--no-store", stdin=text.encode()).stdout.decode()
    file = tmp_path / "out.txt"
    file.write_text(text)
    assert "shapeclip show" not in run(tmp_path / "other", "--budget", "800", str(file)).stdout.decode()
    assert not (tmp_path / "other").exists()
