"""The ledger: an entry per result looked at and per microcompaction, sums by tool, a file of
JSON lines that `shapeclip ledger PATH` prints, and clear refusals of a file that is not one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import shapeclip
from shapeclip import Digest, Ledger
from shapeclip.digest import Answer
from shapeclip.ledger import MICROCOMPACT, LedgerEntry

LOG = "".join(f"step {i} ok\n" for i in range(5000))


def history() -> list[dict[str, Any]]:
    calls = [
        {"id": "a", "type": "function", "function": {"name": "bash", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "memory", "arguments": "{}"}},
    ]
    return [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "a", "content": LOG},
        {"role": "tool", "tool_call_id": "b", "content": "the user likes tabs"},
        {"role": "assistant", "content": "Done."},
    ]


def digest(text: str, tool: str) -> Answer:
    return Answer("every step passed", {"prompt_tokens": 900, "completion_tokens": 30})


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "shapeclip", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=dict(os.environ))


def test_a_session_is_recorded_summed_and_printed_by_the_command(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    ledger = Ledger(path)
    messages, report = shapeclip.compress_messages(history(), budget=4000, digest=Digest(digest, cache={}))
    ledger.record(report)
    cleared = shapeclip.microcompact(messages, keep_last=0).report
    ledger.record(cleared)

    bash, memory, clean_up = ledger.entries
    assert (bash.tool, bash.chars_in, bash.digest_tokens_in, bash.digest_tokens_out) == ("bash", len(LOG), 900, 30)
    assert bash.chars_out == len(messages[2]["content"]) <= 4000 and bash.shape == report.results[0].shape
    assert memory == LedgerEntry("memory", "exempt", 19, 19)
    assert clean_up == LedgerEntry(MICROCOMPACT, "microcompact", cleared.chars_before, cleared.chars_after)

    table = ledger.table()
    total = table.splitlines()[-1].split()
    assert total[:4] == ["total", "2", f"{len(LOG) + 19:,}", f"{bash.chars_out + 19:,}"] and total[-1] == "930"
    assert Ledger.load(path).entries == ledger.entries
    done = run("ledger", str(path))
    assert done.returncode == 0 and done.stdout == table, done.stderr


def test_a_refused_microcompaction_is_not_an_entry() -> None:
    ledger = Ledger()
    ledger.record(shapeclip.microcompact(history(), keep_last=0, clear_at_least=10**9).report)
    assert ledger.entries == [] and ledger.table().splitlines()[-1].split()[:2] == ["total", "0"]


@pytest.mark.parametrize(
    "line",
    ['{"tool": "bash"}', '{"tool": "bash", "shape": "clip", "chars_in": "9", "chars_out": 1}', "[1, 2]", "not json"],
)
def test_a_line_that_is_not_an_entry_is_refused_with_its_number(tmp_path: Path, line: str) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text('{"tool": "bash", "shape": "clip", "chars_in": 9, "chars_out": 1}\n' + line + "\n")
    with pytest.raises(ValueError, match=r"session.jsonl:2: not a ledger entry"):
        Ledger.load(path)
    done = run("ledger", str(path))
    assert done.returncode == 2 and "session.jsonl:2: not a ledger entry" in done.stderr


def test_a_missing_ledger_is_a_usage_error_and_a_file_named_ledger_is_still_compressed(tmp_path: Path) -> None:
    done = run("ledger", str(tmp_path / "absent.jsonl"))
    assert done.returncode == 2 and "cannot read" in done.stderr
    (tmp_path / "ledger").write_text(LOG)
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "--budget", "500", "./ledger"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0 and len(done.stdout) <= 500 and "omitted" in done.stdout
