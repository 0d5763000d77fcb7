"""`shapeclip batch`: each line of a JSONL file of conversations comes out as `compress_messages`
makes it when each result is appended, in the order it went in, whatever the number of
workers; a line that is not a conversation, or has nothing to cut, comes out as it went in;
and a Ray Data pipeline runs the same function (docs/histories.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conversations import FORMATS, RENDER, conversations, make_chat
from shapeclip import compress_messages
from shapeclip.batch import compress_batch, compress_conversation, compress_line, compress_lines

BUDGET = 800
NOT_CONVERSATIONS = ['{"messages": "not a list"}', "not json at all", "", "[1, 2,", '{"other": []}']


def appended_one_at_a_time(messages: list[Any]) -> list[Any]:
    grown: list[Any] = []
    for item in messages:
        grown = compress_messages([*grown, item], start=len(grown), budget=BUDGET).messages
    return grown


@st.composite
def lines(draw: st.DrawFn) -> tuple[str, Any]:
    """A JSONL line and what it should become: a conversation, bare or under a key with other
    keys beside it, or a line that is not one."""
    if draw(st.integers(0, 5)) == 0:
        line = draw(st.sampled_from(NOT_CONVERSATIONS))
        return line, line
    fmt = draw(st.sampled_from(FORMATS))
    messages = json.loads(json.dumps(RENDER[fmt](draw(conversations))))
    expected = appended_one_at_a_time(messages)
    key = draw(st.sampled_from([None, "messages", *(["input"] if fmt == "openai_responses" else [])]))
    if key is None:
        return json.dumps(messages), expected
    return json.dumps({"id": 7, key: messages, "note": "\u00e9"}), {"id": 7, key: expected, "note": "\u00e9"}


@settings(max_examples=40, deadline=None)
@given(batch=st.lists(lines(), max_size=6), workers=st.integers(1, 3))
def test_each_line_is_its_conversation_as_compressed_at_append_time(batch: list[tuple[str, Any]], workers: int) -> None:
    given_lines = [line + "\n" for line, _ in batch]
    out = list(compress_lines(given_lines, workers, BUDGET))
    assert len(out) == len(batch)
    for (line, expected), done in zip(batch, out, strict=True):
        assert done.text.endswith("\n") and done.text.count("\n") == 1
        if not done.conversation or json.loads(line) == expected:
            assert done.text == line + "\n"  # nothing to cut: the very line
        else:
            assert json.loads(done.text) == expected
        assert done.conversation == (line not in NOT_CONVERSATIONS)


def test_compress_conversation_and_compress_line_agree() -> None:
    log = "".join(f"[{i:05}] compiling module_{i}.c\n" for i in range(3000)) + "error: linker failed\n"
    record = {"id": 1, "messages": make_chat(log)}
    assert json.loads(compress_line(json.dumps(record), BUDGET).text) == compress_conversation(record, BUDGET)
    with pytest.raises(ValueError, match="not a conversation"):
        compress_conversation({"messages": "x"})


def test_the_command_writes_every_line_in_order_whatever_the_workers(tmp_path: Path) -> None:
    records = [
        {"id": i, "messages": make_chat("".join(f"line {j} of run {i}\n" for j in range(200 * i + 50)))}
        for i in range(12)
    ]
    given = tmp_path / "in.jsonl"
    given.write_text("".join(json.dumps(r) + "\n" for r in records) + "not a conversation\n")
    outputs = []
    for workers in ("1", "2", "3"):
        out = tmp_path / f"out{workers}.jsonl"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "shapeclip",
                "batch",
                str(given),
                "-o",
                str(out),
                "--budget=2000",
                f"--workers={workers}",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "12 conversations" in done.stderr and "line 13 is not a conversation" in done.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    written = outputs[0].decode().splitlines()
    assert written[-1] == "not a conversation"
    for record, line in zip(records, written, strict=False):
        assert json.loads(line) == compress_conversation(record, 2000)
    assert written[0] == json.dumps(records[0])  # 50 lines fit: the line as it was


def test_a_ray_data_pipeline_runs_the_same_function(tmp_path: Path) -> None:
    import ray  # a test extra, imported here: starting it takes seconds

    records = [
        {"id": i, "messages": make_chat("".join(f"step {j} of {i}\n" for j in range(300 * i)))} for i in range(6)
    ]
    given = tmp_path / "in.jsonl"
    given.write_text("".join(json.dumps(r) + "\n" for r in records))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        ray.data.DataContext.get_current().execution_options.preserve_order = True
        dataset = ray.data.read_text(str(given)).map_batches(compress_batch)
        lines = [row["text"] for row in dataset.iter_rows()]
    finally:
        ray.shutdown()
    assert lines == [compress_line(json.dumps(r)).text.removesuffix("\n") for r in records]
    assert lines[0] == json.dumps(records[0]) and json.loads(lines[5]) == compress_conversation(records[5])


def test_the_workers_default_to_the_cores_this_process_may_use() -> None:
    from shapeclip.cli_batch import _parser

    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert _parser().parse_args(["in.jsonl"]).workers == expected


def test_workers_are_started_afresh_while_another_thread_runs() -> None:
    """Forking a process that runs another thread can copy a lock that thread holds, so the
    workers are then spawned instead (and in this test process, whatever pyarrow or Ray
    started); the lines are the same either way."""
    import threading

    from shapeclip.batch import _start_method

    rows = ["".join(f"row {j} of {i}\n" for j in range(400 * i)) for i in range(5)]
    given = [json.dumps({"messages": make_chat(text)}) + "\n" for text in rows]
    expected = [line.text for line in compress_lines(given, 1, BUDGET)]
    alone = "from shapeclip.batch import _start_method; print(_start_method().get_start_method())"
    method = subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True, check=True).stdout
    assert method == ("fork\n" if sys.platform == "linux" else "spawn\n")
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert _start_method().get_start_method() == "spawn"
        assert [line.text for line in compress_lines(given, 2, BUDGET)] == expected
    finally:
        release.set()
        other.join()


def test_an_interrupted_batch_keeps_the_lines_written_and_exits_as_a_shell_reports_sigint(tmp_path: Path) -> None:
    import signal
    import time

    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "shapeclip", "batch", "-", "-o", str(out), "--workers=2"]
    batch = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert batch.stdin is not None and batch.stderr is not None
    batch.stdin.write(b'{"messages": []}\n')
    batch.stdin.flush()
    time.sleep(1.0)  # it waits for more input, holding a block of one line
    os.killpg(batch.pid, signal.SIGINT)
    try:
        assert batch.wait(timeout=60) == 130
    finally:
        batch.stdin.close()
    assert batch.stderr.read().decode().endswith("shapeclip batch: interrupted; the first 0 lines are written\n")
    assert out.read_bytes() == b""


def test_a_second_pool_is_forked_too_once_the_first_ones_threads_have_ended() -> None:
    """A pool's threads outlive its shutdown by a moment: a second call straight after the
    first must not take them for another thread, and spawn (which needs the caller's main
    module guarded) where it may fork."""
    script = (
        "from shapeclip.batch import _start_method, compress_lines\n"
        "lines = ['{\"messages\": []}\\n'] * 3\n"
        "for _ in range(20):\n"
        "    list(compress_lines(lines, 2, 1000))\n"
        "    print(_start_method().get_start_method())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert set(done.stdout.split()) == ({"fork"} if sys.platform == "linux" else {"spawn"})


def _batch(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "shapeclip", "batch", *args], input=stdin, capture_output=True, timeout=120
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_out_naming_in_itself_is_refused_and_the_file_kept(tmp_path: Path, workers: str) -> None:
    # Opening OUT for writing emptied IN before a line of it was read.
    given = tmp_path / "sessions.jsonl"
    given.write_text(json.dumps({"messages": make_chat("x\n" * 5_000)}) + "\n")
    before = given.read_bytes()
    for args, stdin in (([str(given), "-o", str(given)], None), (["-", "-o", str(given)], before)):
        if stdin is not None:  # `shapeclip batch - -o F < F`
            with given.open("rb") as f:
                done = subprocess.run(
                    [sys.executable, "-m", "shapeclip", "batch", *args, f"--workers={workers}"],
                    stdin=f,
                    capture_output=True,
                    timeout=120,
                )
        else:
            done = _batch(*args, f"--workers={workers}")
        assert done.returncode == 2 and b"OUT is IN itself" in done.stderr
        assert given.read_bytes() == before


@pytest.mark.parametrize("workers", ["1", "2"])
def test_no_line_is_lost_to_a_bad_one_and_unchanged_lines_keep_their_bytes(tmp_path: Path, workers: str) -> None:
    log = "".join(f"[{i:05}] compiling module_{i}.c\n" for i in range(3_000)) + "error: linker failed\n"
    good = json.dumps({"messages": make_chat(log)})
    lines = [
        good.encode(),
        # A lone surrogate, escaped as JSON may (a recorded log cut inside an emoji): the line
        # still compresses, and the escape stays an escape, since UTF-8 cannot carry it.
        json.dumps({"note": "\ud83d", "messages": make_chat(log)}).encode(),
        # 1e999 reads as infinity, which JSON cannot write back: the line stays as it was.
        json.dumps({"messages": make_chat(log)})[:-1].encode() + b', "score": 1e999}',
        b"caf\xe9 \xff\xfe not UTF-8, not a conversation",  # byte for byte
        b'{"messages": "not a list"}',
        good.encode(),
    ]
    given = tmp_path / "in.jsonl"
    given.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    done = _batch(str(given), "-o", str(out), "--budget=2000", f"--workers={workers}")
    assert done.returncode == 0, done.stderr
    written = out.read_bytes().split(b"\n")[:-1]
    assert len(written) == len(lines)
    first, surrogate = json.loads(written[0]), json.loads(written[1])
    assert surrogate["note"] == "\ud83d" and surrogate["messages"] == first["messages"] != make_chat(log)
    assert written[2:5] == lines[2:5] and written[5] == written[0]
    assert b"line 3 holds a number beyond a float's range" in done.stderr
    assert b"line 4 is not a conversation" in done.stderr


def test_a_call_name_that_is_no_string_costs_nothing_but_its_name(tmp_path: Path) -> None:
    # It raised AttributeError, which stopped the run and lost every later line.
    messages = make_chat("line\n" * 3_000)
    messages[1]["tool_calls"][0]["function"]["name"] = 7
    given = tmp_path / "in.jsonl"
    given.write_text(json.dumps({"messages": messages}) + "\n" + json.dumps({"messages": make_chat("x\n")}) + "\n")
    done = _batch(str(given), "--budget=2000", "--workers=1")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2 and b"2 conversations" in done.stderr


def test_a_line_whose_compression_fails_is_written_as_it_was_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import shapeclip.batch as batch

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(batch, "compress_messages", broken)
    line = json.dumps({"messages": make_chat("x\n" * 3_000)}) + "\n"
    done = compress_line(line, BUDGET)
    assert done.text == line and not done.conversation and done.why == "could not be compressed (RuntimeError: a bug)"
