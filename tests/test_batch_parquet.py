"""`shapeclip batch` on Parquet: the conversations of the `messages` (or `input`) column,
nested records or JSON text, come out as the JSONL path makes them, in a file of the same
schema whose other columns and uncut rows are as they were, across batches and workers; a
compressed row the column's type cannot hold whole is written as it was."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conversations import make_chat
from shapeclip import batch, batch_parquet
from shapeclip.batch import compress_conversation, compress_line

BUDGET = 1_000


def log(run: int, lines: int) -> str:
    return "".join(f"[{j:05}] step {j} of run {run}\n" for j in range(lines))


def compressed(tmp_path: Path, table: pa.Table, workers: int) -> tuple[pa.Table, int]:
    source, target = tmp_path / "in.parquet", tmp_path / f"out{workers}.parquet"
    pq.write_table(table, source)
    status = batch_parquet.compress_parquet(str(source), str(target), workers, BUDGET, argparse.ArgumentParser())
    return pq.read_table(target), status


@pytest.mark.parametrize("workers", [1, 2])
def test_nested_conversations_come_out_as_the_jsonl_path_makes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    monkeypatch.setattr(batch_parquet, "BATCH_ROWS", 3)  # several batches, sharing the workers
    messages = [make_chat(log(i, 10 + 60 * i)) for i in range(8)]
    table = pa.table({"id": list(range(9)), "messages": [*messages, None], "note": ["\u00e9"] * 9})
    out, status = compressed(tmp_path, table, workers)
    assert status == 0 and out.schema == table.schema and out.num_rows == 9
    assert out.column("id").equals(table.column("id")) and out.column("note").equals(table.column("note"))
    given = table.column("messages").to_pylist()
    done = out.column("messages").to_pylist()
    assert done[0] == given[0]  # nothing to cut
    assert done[8] is None  # not a conversation: as it was
    for before, after in zip(given[:8], done[:8], strict=True):
        assert after == compress_conversation(before, BUDGET)
    assert any(after != before for before, after in zip(given, done, strict=True))


def test_conversations_as_json_text_come_out_as_their_lines_do(tmp_path: Path) -> None:
    texts = [json.dumps(make_chat(log(i, 40 * i))) for i in range(1, 5)] + ["not json"]
    uncut = json.dumps(make_chat("ok\n"), indent=1) + "\n"  # a text need not be one line
    out, status = compressed(tmp_path, pa.table({"messages": [uncut, *texts]}), 2)
    assert status == 0
    done = out.column("messages").to_pylist()
    assert done[0] == uncut
    assert done[1:] == [compress_line(text, BUDGET).text.removesuffix("\n") for text in texts]


def test_a_row_whose_compressed_form_the_column_cannot_hold_is_written_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = batch.compress_messages

    def with_a_new_key(messages: list[Any], **kwargs: Any) -> Any:
        out, report = real(messages, **kwargs)
        return [*out[:-1], {**out[-1], "summary": "a key the column's type lacks"}], report

    monkeypatch.setattr(batch, "compress_messages", with_a_new_key)
    given = [make_chat(log(1, 500))]
    out, status = compressed(tmp_path, pa.table({"messages": given}), 1)
    assert status == 0 and out.column("messages").to_pylist() == pa.table({"messages": given})["messages"].to_pylist()
    assert "row 1 compressed would not fit its column's type; written as it was" in capsys.readouterr().err


def run_batch(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "shapeclip", "batch", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_the_command_reads_and_writes_parquet(tmp_path: Path) -> None:
    source, target = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"input": [json.dumps(make_chat(log(2, 400)))]}), source)
    done = run_batch(str(source), "-o", str(target), "--budget=2000")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("shapeclip batch: 1 conversations, tool results ")
    assert len(pq.read_table(target).column("input")[0].as_py()) < len(log(2, 400))


@pytest.mark.parametrize(
    ("table", "args", "error"),
    [
        ({"other": ["x"]}, ["-o", "OUT"], "has no column of conversations (one named messages or input)"),
        ({"messages": ["x"]}, [], "Parquet is written to a file: give one with -o"),
        (None, ["-o", "OUT"], "cannot read"),
    ],
)
def test_parquet_that_cannot_be_done_is_a_clear_error(
    tmp_path: Path, table: dict[str, list[str]] | None, args: list[str], error: str
) -> None:
    source = tmp_path / "in.parquet"
    if table is None:
        source.write_text("not parquet\n")
    else:
        pq.write_table(pa.table(table), source)
    done = run_batch(str(source), *[str(tmp_path / arg) if arg == "OUT" else arg for arg in args])
    assert done.returncode == 2 and error in done.stderr
