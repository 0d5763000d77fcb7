"""`shapeclip batch` on a JSONL file with several workers, each reading byte ranges of it
(`batch_ranges`): the output and what standard error counts are byte for byte those of one
worker, whatever the lines (long, empty, CRLF, not UTF-8, not JSON, the last without its
newline) and wherever the cuts fall (inside a line, inside a character); a cut moves on to the
next line start as a naive scan finds it; and a stop, or a worker that fails, leaves whole
lines only and no file behind."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conversations import make_chat
from shapeclip import batch_ranges
from shapeclip.batch import Tally, compress_line, write_lines
from shapeclip.cli_batch import compress_jsonl

BUDGET = 300


def _log(lines: int, text: str) -> str:
    return "".join(f"[{j:04}] {text} {j}\n" for j in range(lines))


#: Lines to draw from: conversations cut at `BUDGET` and not, ASCII and not (a character of two,
#: three and four bytes), and lines that are not conversations, one of them not UTF-8.
PIECES: list[bytes] = [
    json.dumps({"id": 1, "messages": make_chat(_log(60, "compiling"))}).encode(),
    json.dumps({"id": 2, "messages": make_chat(_log(40, "café 中文 😀"))}, ensure_ascii=False).encode(),
    json.dumps(make_chat("ok: één regel")).encode(),
    json.dumps(make_chat(_log(3, "short"))).encode(),
    b'{"messages": "not a list"}',
    b"not json at all \xc3\xa9",
    b"\xff\xfe{ not utf-8",
    b"[1, 2,",
    b"",
]


def _file(pieces: list[int], crlf: list[bool], newline_at_end: bool) -> bytes:
    lines = [PIECES[i] + (b"\r\n" if cr else b"\n") for i, cr in zip(pieces, crlf, strict=False)]
    data = b"".join(lines)
    return data if newline_at_end or not data else data.rstrip(b"\n")


def _run(source: Path, target: Path, workers: int) -> tuple[int, bytes, str]:
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        status = compress_jsonl(str(source), str(target), workers, BUDGET, argparse.ArgumentParser())
    return status, target.read_bytes(), said.getvalue()


def _naive_ranges(data: bytes, workers: int) -> list[tuple[int, int]]:
    """Each range ends at the first line start (found by looking at every byte) at or past
    where `range_bytes` says the cut is."""
    starts = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    ranges: list[tuple[int, int]] = []
    start = 0
    while start < len(data):
        cut = start + batch_ranges.range_bytes(len(data) - start, workers)
        end = next((s for s in starts if s >= cut), len(data))
        ranges.append((start, end))
        start = end
    return ranges


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=300).map(lambda b: b.replace(b"\x00", b"\n")),
    shortest=st.integers(1, 20),
    longer=st.integers(0, 40),
    workers=st.integers(1, 4),
)
def test_each_cut_moves_on_to_the_next_line_start_as_a_naive_scan_finds_it(
    data: bytes, shortest: int, longer: int, workers: int
) -> None:
    with tempfile.TemporaryFile() as file, _ranges_of(shortest, shortest + longer), _scan_bytes(3):
        file.write(data)
        file.flush()
        ranges = batch_ranges.line_ranges(file.fileno(), len(data), workers)
        assert ranges == _naive_ranges(data, workers)
    assert [start for start, _ in ranges[1:]] == [end for _, end in ranges[:-1]]


@contextlib.contextmanager
def _scan_bytes(size: int) -> Iterator[None]:
    """Newlines looked for `size` bytes at a time: found across reads, as in a long line."""
    old = batch_ranges.SCAN_BYTES
    batch_ranges.SCAN_BYTES = size
    try:
        yield
    finally:
        batch_ranges.SCAN_BYTES = old


@settings(max_examples=25, deadline=None)
@given(
    pieces=st.lists(st.integers(0, len(PIECES) - 1), max_size=14),
    crlf=st.lists(st.booleans(), min_size=14, max_size=14),
    newline_at_end=st.booleans(),
    range_bytes=st.integers(1, 3000),
    workers=st.integers(2, 3),
)
def test_the_output_and_the_counts_are_those_of_one_worker(
    pieces: list[int], crlf: list[bool], newline_at_end: bool, range_bytes: int, workers: int
) -> None:
    """Ranges of `range_bytes` and up: many, cut inside a line (a line longer than a range
    makes one of its own) and inside a character."""
    data = _file(pieces, crlf, newline_at_end)
    with tempfile.TemporaryDirectory() as folder, _ranges_of(range_bytes, 2 * range_bytes):
        source = Path(folder) / "in.jsonl"
        source.write_bytes(data)
        one = _run(source, Path(folder) / "one.jsonl", 1)
        several = _run(source, Path(folder) / "several.jsonl", workers)
        assert sorted(os.listdir(folder)) == ["in.jsonl", "one.jsonl", "several.jsonl"]
    assert several == one
    assert one[0] == 0


@contextlib.contextmanager
def _ranges_of(shortest: int, longest: int | None = None) -> Iterator[None]:
    """Ranges of `shortest` to `longest` bytes (in this process, which cuts them)."""
    old = batch_ranges.MIN_RANGE_BYTES, batch_ranges.MAX_RANGE_BYTES
    batch_ranges.MIN_RANGE_BYTES, batch_ranges.MAX_RANGE_BYTES = shortest, longest or shortest
    try:
        yield
    finally:
        batch_ranges.MIN_RANGE_BYTES, batch_ranges.MAX_RANGE_BYTES = old


def test_a_cut_inside_a_character_and_inside_a_long_line(tmp_path: Path) -> None:
    """And the same bytes as when the lines are sent to the workers."""
    data = _file([1, 5, 1, 8, 2], [False, True, False, False, False], newline_at_end=False)
    step = 1001
    with _ranges_of(step), open(tmp_path / "in.jsonl", "wb+") as source:
        source.write(data)
        source.flush()
        cuts = [start + step for start, _ in batch_ranges.line_ranges(source.fileno(), len(data), 2)]
    assert any(data[cut] & 0xC0 == 0x80 for cut in cuts if cut < len(data)), "no cut inside a character"
    assert len(PIECES[1]) > step  # a line longer than a range
    with _ranges_of(step):
        one = _run(tmp_path / "in.jsonl", tmp_path / "one.jsonl", 1)
        two = _run(tmp_path / "in.jsonl", tmp_path / "two.jsonl", 2)
    assert two == one
    assert one[1].decode().count("\n") == 5  # the last line gets its newline
    sent = io.BytesIO()  # the lines sent to two workers in blocks, as standard input's are
    with contextlib.redirect_stderr(io.StringIO()):
        write_lines(io.BytesIO(data), sent, 2, BUDGET, Tally("line"))
    assert sent.getvalue() == one[1]


def test_the_counts_are_each_lines_counted_in_turn(tmp_path: Path) -> None:
    """Against a tally built line by line with `compress_line`: the conversations, the
    characters, the lines that are not conversations and the first three of them by number."""
    order = [0, 4, 1, 5, 8, 0, 3, 6, 7, 2, 5, 1]
    data = _file(order * 3, [i % 4 == 0 for i in range(36)], newline_at_end=True)
    source = tmp_path / "in.jsonl"
    source.write_bytes(data)
    expected = io.StringIO()
    with contextlib.redirect_stderr(expected):
        tally = Tally("line")
        for raw in io.BytesIO(data):
            tally.count(compress_line(raw.decode("utf-8", "replace"), BUDGET))
        tally.done()
    assert tally.others == 18 and tally.chars_out < tally.chars_in
    with _ranges_of(200):
        status, _, said = _run(source, tmp_path / "out.jsonl", 2)
    assert status == 0 and said == expected.getvalue()
    assert "line 2 is not a conversation" in said and "line 4 " in said and "line 5 " in said


def test_a_sink_without_a_descriptor_gets_the_same_bytes(tmp_path: Path) -> None:
    data = _file([0, 1, 4, 2, 3] * 4, [False] * 20, newline_at_end=True)
    source = tmp_path / "in.jsonl"
    source.write_bytes(data)
    one = _run(source, tmp_path / "one.jsonl", 1)[1]
    sink = io.BytesIO()
    with _ranges_of(500), open(source, "rb") as given, contextlib.redirect_stderr(io.StringIO()):
        batch_ranges.compress_file(str(source), given, sink, 2, BUDGET, Tally("line"))
    assert sink.getvalue() == one


def test_only_a_regular_file_is_cut_into_ranges(tmp_path: Path) -> None:
    read, write = os.pipe()
    with open(read, "rb") as pipe, open(write, "wb"):
        assert not batch_ranges.splittable(pipe)
    assert not batch_ranges.splittable(io.BytesIO(b"{}\n"))
    (tmp_path / "in.jsonl").write_bytes(b"{}\n")
    with open(tmp_path / "in.jsonl", "rb") as file:
        assert batch_ranges.splittable(file)


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "shapeclip", "batch", *args]


@pytest.mark.parametrize("how", ["file", "pipe", "appended"])
def test_standard_output_gets_the_same_bytes_as_a_file(tmp_path: Path, how: str) -> None:
    """Written to a pipe (sendfile), to a file as standard output, and to a file opened to
    append (where the kernel's copies refuse, and the bytes go through the process)."""
    data = _file([0, 1, 4, 2, 3] * 40, [False] * 200, newline_at_end=True)
    source = tmp_path / "in.jsonl"
    source.write_bytes(data)
    one = _run(source, tmp_path / "one.jsonl", 1)[1]
    out = tmp_path / "out.jsonl"
    if how == "pipe":
        command = _command(str(source), "--budget=300", "--workers=2")
        written = subprocess.run(command, capture_output=True, check=True).stdout
    else:
        out.write_bytes(b"before\n" if how == "appended" else b"")
        with open(out, "ab" if how == "appended" else "wb") as stdout:
            subprocess.run(_command(str(source), "--budget=300", "--workers=2"), stdout=stdout, check=True)
        written = out.read_bytes().removeprefix(b"before\n" if how == "appended" else b"")
    assert written == one
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".shapeclip")] == []


def _big_input(path: Path, conversations: int) -> list[bytes]:
    lines = [
        json.dumps({"id": i, "messages": make_chat(_log(2000 + i % 7 * 300, f"step of run {i}"))}).encode() + b"\n"
        for i in range(conversations)
    ]
    path.write_bytes(b"".join(lines))
    return lines


#: The conversations from which each waits, as the planted `compress_line` of `_held_batch`
#: holds them, until the parent tells the workers to stop: past the first ranges, whatever
#: the machine's speed, so a stop always comes with work still to do.
HELD_FROM = 120


def _held_batch(source: Path, out: Path, *, session: bool) -> subprocess.Popen[bytes]:
    """`shapeclip batch` on two workers, each holding a conversation from `HELD_FROM` on until
    it is told to stop. Without the hold a fast machine finished before the test's signal came
    and left nothing to stop (`assert 240 < 240`)."""
    if sys.platform != "linux":
        pytest.skip("the hold is planted in the parent, which only forked workers inherit")
    script = (
        "import json, sys, time\n"
        "from shapeclip import batch, batch_ranges, cli_batch\n"
        "real = batch.compress_line\n"
        "def held(line, budget):\n"
        f"    if json.loads(line)['id'] >= {HELD_FROM}:\n"
        "        while not batch_ranges._stop.value:\n"
        "            time.sleep(0.005)\n"
        "    return real(line, budget)\n"
        "batch.compress_line = held\n"
        f"sys.exit(cli_batch.run([{str(source)!r}, '-o', {str(out)!r}, '--workers=2', '--budget=2000']))\n"
    )
    return subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, start_new_session=session)


def _started(batch: subprocess.Popen[bytes], out: Path) -> None:
    """Waits until `batch` has written its first range, so that it is stopped in the middle."""
    deadline = time.monotonic() + 60
    while not (out.exists() and out.stat().st_size) and batch.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert batch.poll() is None, "it ended before it could be stopped"


def _whole_lines_written(out: Path, given: list[bytes], said: str) -> int:
    written = out.read_bytes().splitlines(keepends=True)
    lines = int(said.rsplit("the first ", 1)[1].split()[0].replace(",", ""))
    assert len(written) == lines
    for raw, line in zip(given, written, strict=False):
        assert line == compress_line(raw.decode(), 2000).text.encode()
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".shapeclip")] == []
    return lines


@pytest.mark.parametrize("group", [True, False], ids=["ctrl-c", "parent-only"])
def test_a_stop_leaves_whole_lines_and_exits_as_a_shell_reports_sigint(tmp_path: Path, group: bool) -> None:
    """Ctrl-C reaches every process of the group; `kill -INT` the parent alone, whose workers
    must then be stopped by it."""
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    given = _big_input(source, 240)
    batch = _held_batch(source, out, session=True)
    _started(batch, out)
    if group:
        os.killpg(batch.pid, signal.SIGINT)
    else:
        os.kill(batch.pid, signal.SIGINT)
    status = batch.wait(timeout=60)
    assert batch.stderr is not None
    said = batch.stderr.read().decode()
    assert status == 130, said
    assert said.endswith(" lines are written\n") and "Traceback" not in said, said
    assert 0 < _whole_lines_written(out, given, said) <= HELD_FROM


def test_a_worker_killed_ends_the_command_with_an_error_and_whole_lines(tmp_path: Path) -> None:
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    given = _big_input(source, 240)
    batch = _held_batch(source, out, session=False)
    _started(batch, out)
    children = Path(f"/proc/{batch.pid}/task/{batch.pid}/children")
    if not children.exists():
        batch.kill()
        pytest.skip("this system does not list a process's children")
    os.kill(int(children.read_text().split()[0]), signal.SIGKILL)
    status = batch.wait(timeout=60)
    assert batch.stderr is not None
    said = batch.stderr.read().decode()
    assert status == 1, said
    assert "a worker process ended before its work was done; the first " in said, said
    assert _whole_lines_written(out, given, said) <= HELD_FROM


def test_a_worker_that_raises_stops_the_command_with_its_error(tmp_path: Path) -> None:
    """The error comes back to the parent, which stops the other workers, removes their files
    and raises it, as the one-worker path would."""
    if sys.platform != "linux":
        pytest.skip("the failure is planted in the parent, which only forked workers inherit")
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    given = _big_input(source, 120)
    source.write_bytes(b"".join(given[:100]) + b'{"boom": 1}\n' + b"".join(given[100:]))
    script = (
        "import sys\n"
        "from shapeclip import batch, cli_batch\n"
        "real = batch.compress_line\n"
        "def planted(line, budget):\n"
        "    if 'boom' in line:\n"
        "        raise RuntimeError('planted failure')\n"
        "    return real(line, budget)\n"
        "batch.compress_line = planted\n"
        f"sys.exit(cli_batch.run([{str(source)!r}, '-o', {str(out)!r}, '--workers=2', '--budget=2000']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "RuntimeError: planted failure" in done.stderr, done.stderr
    written = out.read_bytes().splitlines(keepends=True)
    assert len(written) <= 100
    for raw, line in zip(given, written, strict=False):
        assert line == compress_line(raw.decode(), 2000).text.encode()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".shapeclip")] == []


def test_a_worker_stops_at_the_next_line_once_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "in.jsonl").write_bytes(b"a\nb\nc\n")
    stop = _ctypes_byte()
    monkeypatch.setattr(batch_ranges, "_stop", stop)
    with open(tmp_path / "in.jsonl", "rb") as given:
        lines = batch_ranges._lines_until(given, 6)
        assert next(lines) == b"a\n"
        stop.value = 1
        with pytest.raises(batch_ranges.Stopped):
            next(lines)


def _ctypes_byte() -> Any:
    import ctypes

    return ctypes.c_byte(0)


def test_a_worker_waiting_for_work_leaves_ctrl_c_to_the_parent() -> None:
    pool, _ = batch_ranges.workers_for(1)
    with pool:
        worker = pool.submit(os.getpid).result()
        os.kill(worker, signal.SIGINT)
        time.sleep(0.2)
        assert pool.submit(os.getpid).result() == worker


def test_ctrl_c_waits_until_a_range_is_appended_and_counted() -> None:
    """The signal comes while another thread runs, as the pool's do, which the kernel may
    hand it to."""
    import threading

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    finished = False
    try:
        with pytest.raises(KeyboardInterrupt), batch_ranges._whole():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)
            finished = True
    finally:
        release.set()
        other.join()
    assert finished
