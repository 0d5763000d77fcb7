"""JSON nested deeper than Python's decoder recurses is input shapeclip cannot use, like any
other it cannot read: every place that reads JSON from outside gives its usual honest answer
for it, where each raised RecursionError with a traceback before (`shapeclip.json_text`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hook_events import hook
from shapeclip import cli_gain, init
from shapeclip.batch import compress_line
from shapeclip.json_text import parse
from shapeclip.ledger import Ledger
from shapeclip.messages.items import strings_in
from shapeclip.store import Store
from shapeclip.store.writer import read_meta

DEEP = "[" * 100_000 + "]" * 100_000


def test_parse_reads_too_deep_as_not_json() -> None:
    with pytest.raises(ValueError, match="nested deeper"):
        parse(DEEP)
    with pytest.raises(ValueError):
        parse(DEEP.encode())
    assert parse("[[1]]") == [[1]]


def test_a_hook_given_too_deep_an_event_answers_nothing_and_says_so() -> None:
    reply, stderr = hook("claude-code", None, raw=DEEP.encode())
    assert reply == {}
    assert "not JSON" in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_batch_writes_too_deep_a_line_as_it_was(tmp_path: Path, workers: str) -> None:
    conversation = json.dumps([{"role": "tool", "tool_call_id": "a", "content": "x\n" * 20_000}])
    given = tmp_path / "in.jsonl"
    given.write_text(f"{DEEP}\n{conversation}\n")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "shapeclip", "batch", str(given), "-o", str(out), "--budget=2000"]
    done = subprocess.run([*command, f"--workers={workers}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "line 1 is not a conversation" in done.stderr
    first, second = out.read_text().splitlines()
    assert first == DEEP and len(second) < len(conversation)
    assert not compress_line(DEEP).conversation


def test_a_tool_calls_too_deep_arguments_are_read_as_text() -> None:
    assert list(strings_in(DEEP)) == [DEEP]


def test_a_ledger_with_too_deep_a_line_is_refused_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    path.write_text(DEEP + "\n")
    with pytest.raises(ValueError, match=r"ledger\.jsonl:1: not a ledger entry"):
        Ledger.load(path)


def test_gain_skips_too_deep_a_line_of_the_savings_ledger(tmp_path: Path) -> None:
    path = tmp_path / "savings.jsonl"
    path.write_text(DEEP + "\n")
    assert cli_gain.read_records(str(path)) == ([], 1)


def test_init_leaves_too_deep_a_settings_file_as_it_is(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(DEEP)
    assert init.run(["claude-code", "--project", str(tmp_path)]) == 1
    assert settings.read_text() == DEEP


def test_a_stored_entry_with_too_deep_metadata_is_no_entry(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    entry = store.put(b"x\n" * 10)
    (store.path / f"{entry.id}.json").write_text(DEEP)
    fd = os.open(store.path, os.O_RDONLY)
    try:
        assert read_meta(fd, entry.id) is None
    finally:
        os.close(fd)
