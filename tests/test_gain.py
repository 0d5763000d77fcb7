"""The savings ledger and `shapeclip gain` (issue 25, the savings view): a record for each
output the command line, a hook or the MCP server cut and for each `show`; sums that match the
records exactly; a file that is rotated at its cap; and a ledger that, whatever goes wrong with
it, never changes what a command prints or its exit status."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from shapeclip import savings

BUDGET = "2000"
#: A PostToolUse Bash event as Claude Code sends it (code.claude.com/docs/en/hooks), its stdout 50k characters.
HOOK_EVENT = {
    "session_id": "abc123",
    "transcript_path": "/home/me/.claude/projects/demo/00893aaf.jsonl",
    "cwd": "/home/me/demo",
    "permission_mode": "default",
    "hook_event_name": "PostToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "pytest -v", "description": "Run the tests"},
    "tool_response": {"stdout": "".join(f"test_{i} PASSED\n" for i in range(3_200))[:50_000], "stderr": ""},
}


def shapeclip(*args: str, cwd: Path, stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "shapeclip", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "TZ": "UTC", **env},
        timeout=60,
    )


def ledger_file() -> Path:
    """The default ledger: beside the store the test's `SHAPECLIP_STORE` names."""
    store = Path(os.environ["SHAPECLIP_STORE"])
    return store.with_name(store.name + "-savings") / "savings.jsonl"


def records(path: Path | None = None) -> list[dict[str, Any]]:
    path = ledger_file() if path is None else path
    return [json.loads(line) for line in path.read_text().splitlines()]


def stored_id(text: bytes) -> str:
    found = re.search(rb"shapeclip show ([0-9a-f]+)", text)
    assert found, text[-500:]
    return found.group(1).decode()


def test_a_cli_run_that_cuts_records_its_tool_directory_characters_and_entry(tmp_path: Path) -> None:
    done = shapeclip("--tool", "bash", "--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == b""
    (record,) = records()
    assert record.pop("time") == pytest.approx(time.time(), abs=60)
    assert record == {
        "tool": "bash",
        "caller": "cli",
        "chars_in": len("".join(f"{i}\n" for i in range(1, 100_001))),
        "chars_out": len(done.stdout.decode()),
        "entry": stored_id(done.stdout),
        "cwd": str(tmp_path),
    }
    assert ledger_file().stat().st_mode & 0o777 == 0o600
    assert ledger_file().parent.stat().st_mode & 0o777 == 0o700


def test_output_that_fits_is_no_cut_and_records_nothing(tmp_path: Path) -> None:
    done = shapeclip("--", "echo", "hi", cwd=tmp_path)
    assert done.stdout == b"hi\n"
    assert not ledger_file().exists()


def test_a_claude_code_hook_records_the_project_its_event_names(tmp_path: Path) -> None:
    done = shapeclip("hook", "claude-code", cwd=tmp_path, stdin=json.dumps(HOOK_EVENT).encode())
    assert done.returncode == 0, done.stderr
    stdout = json.loads(done.stdout)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    (record,) = records()
    assert {k: v for k, v in record.items() if k != "time"} == {
        "tool": "bash",
        "caller": "hook claude-code",
        "chars_in": 50_000,
        "chars_out": len(stdout),
        "entry": stored_id(stdout.encode()),
        "cwd": "/home/me/demo",
    }


def test_a_claude_code_read_records_its_cut(tmp_path: Path) -> None:
    content = "".join(f"line {i}\n" for i in range(10_000))
    event = {**HOOK_EVENT, "tool_name": "Read", "tool_response": {"type": "text", "file": {"content": content}}}
    done = shapeclip("hook", "claude-code", cwd=tmp_path, stdin=json.dumps(event).encode())
    text = json.loads(done.stdout)["hookSpecificOutput"]["updatedToolOutput"]["file"]["content"]
    (record,) = records()
    assert (record["tool"], record["chars_in"], record["chars_out"]) == ("read_file", len(content), len(text))
    assert record["entry"] == stored_id(text.encode())


def test_show_records_what_it_gave_back(tmp_path: Path) -> None:
    cut = shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path)
    entry = stored_id(cut.stdout)
    shown = shapeclip("show", entry, "--lines", "10:5000", cwd=tmp_path)
    assert shown.returncode == 0
    back = records()[1]
    assert {k: v for k, v in back.items() if k != "time"} == {
        "tool": "command",
        "caller": "cli",
        "given_back": len(shown.stdout.decode()),
        "entry": entry,
        "cwd": str(tmp_path),
    }


def test_gain_sums_the_records_exactly_net_of_what_show_gave_back(tmp_path: Path) -> None:
    cut = shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path)
    shapeclip("hook", "claude-code", cwd=tmp_path, stdin=json.dumps(HOOK_EVENT).encode())
    shapeclip("show", stored_id(cut.stdout), "--lines", "1:300", cwd=tmp_path)
    written = records()
    chars_in = sum(r.get("chars_in", 0) for r in written)
    chars_out = sum(r.get("chars_out", 0) for r in written)
    back = sum(r.get("given_back", 0) for r in written)
    assert len(written) == 3 and back > 0
    total = json.loads(shapeclip("gain", "--json", cwd=tmp_path).stdout)["total"]
    assert total == {
        "compressions": 2,
        "shows": 1,
        "chars_in": chars_in,
        "chars_out": chars_out,
        "chars_given_back": back,
        "chars_saved": chars_in - chars_out - back,
        "tokens_in": quarter(chars_in),
        "tokens_out": quarter(chars_out),
        "tokens_given_back": quarter(back),
        "tokens_saved": quarter(chars_in) - quarter(chars_out) - quarter(back),
    }
    table = shapeclip("gain", cwd=tmp_path)
    assert table.returncode == 0
    total_row = next(line for line in table.stdout.decode().splitlines() if line.startswith("total"))
    assert total_row.split()[1:7] == [f"{n:,}" for n in (2, 1, chars_in, chars_out, back, chars_in - chars_out - back)]


def quarter(chars: int) -> int:
    """The markers' estimate of tokens, written out again."""
    return -(-chars // 4)


def _record(day: int, tool: str, cwd: str, chars_in: int, chars_out: int) -> str:
    when = 1_767_225_600 + day * 86_400 + 3_600  # 2026-01-01 01:00 UTC, plus `day` days
    fields = {"time": when, "tool": tool, "caller": "cli", "chars_in": chars_in, "chars_out": chars_out}
    return json.dumps({**fields, "entry": None, "cwd": cwd}) + "\n"


def test_gain_groups_per_tool_day_and_project_and_skips_what_is_not_a_record(tmp_path: Path) -> None:
    ledger = tmp_path / "savings.jsonl"
    ledger.write_text(
        _record(0, "bash", "/a", 1000, 100)
        + _record(0, "grep", "/b", 500, 50)
        + '{"time": 1, "tool": "bash", "chars_in": 1\n'  # a torn line
        + _record(2, "bash", "/b", 3000, 200)
        + '{"time": NaN, "tool": "x", "cwd": null, "chars_in": 5, "chars_out": 1}\n'
        + json.dumps(
            {"time": 1_767_400_000, "tool": "bash", "caller": "cli", "given_back": 70, "entry": "ab12", "cwd": "/b"}
        )
        + "\n"
    )
    gain = json.loads(shapeclip("gain", "--json", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger)).stdout)
    assert gain["skipped_lines"] == 2

    def rows(by: str) -> list[tuple[str, int, int]]:
        return [(row[by], row["chars_in"], row["chars_saved"]) for row in gain[f"by_{by}"]]

    assert rows("tool") == [("bash", 4000, 4000 - 300 - 70), ("grep", 500, 450)]
    assert rows("day") == [("2026-01-01", 1500, 1350), ("2026-01-03", 3000, 2800 - 70)]
    assert rows("project") == [("/b", 3500, 3500 - 250 - 70), ("/a", 1000, 900)]
    assert gain["total"]["shows"] == 1 and gain["total"]["chars_given_back"] == 70


def test_gain_days_keeps_only_the_last_days(tmp_path: Path) -> None:
    ledger = tmp_path / "savings.jsonl"
    ledger.write_text(_record(0, "bash", "/a", 1000, 100))
    shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger))
    recent = json.loads(shapeclip("gain", "--json", "--days", "1", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger)).stdout)
    every = json.loads(shapeclip("gain", "--json", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger)).stdout)
    assert (recent["total"]["compressions"], every["total"]["compressions"]) == (1, 2)
    assert shapeclip("gain", "--days", "0", cwd=tmp_path).returncode == 2


def test_the_ledger_is_rotated_past_its_cap_and_gain_reads_both_files(tmp_path: Path) -> None:
    ledger = tmp_path / "savings.jsonl"
    line = _record(0, "bash", "/a", 1000, 100)
    ledger.write_text(line * (savings.MAX_BYTES // len(line)))
    shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger))
    previous = Path(str(ledger) + ".1")
    assert not ledger.exists() and previous.stat().st_size > savings.MAX_BYTES
    shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger))
    assert len(records(ledger)) == 1
    gain = json.loads(shapeclip("gain", "--json", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger)).stdout)
    assert gain["total"]["compressions"] == savings.MAX_BYTES // len(line) + 2
    # Full again: the new file replaces the previous one, so two files are all there ever is.
    with ledger.open("a") as file:
        file.write(line * (savings.MAX_BYTES // len(line)))
    shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path, SHAPECLIP_LEDGER=str(ledger))
    assert not ledger.exists() and len(records(previous)) == savings.MAX_BYTES // len(line) + 2
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("savings")) == [
        "savings.jsonl.1",
        "savings.jsonl.lock",
    ]


def test_concurrent_writers_never_interleave_lines_even_across_rotations(tmp_path: Path) -> None:
    ledger = tmp_path / "savings.jsonl"
    script = (
        "import sys\nfrom shapeclip import savings\nsavings.MAX_BYTES = 20_000\n"
        "for i in range(400):\n"
        "    savings.compressed('t' * (i % 80), 'cli', 10**6 + i, i, entry=None, cwd='/p' * (i % 100))\n"
    )
    env = {**os.environ, "SHAPECLIP_LEDGER": str(ledger)}
    writers = [subprocess.Popen([sys.executable, "-c", script], env=env, stderr=subprocess.PIPE) for _ in range(8)]
    for writer in writers:
        assert writer.wait(timeout=120) == 0
        assert writer.stderr is not None and writer.stderr.read() == b""
    # The last write may itself have rotated the file away: then only the previous one is left.
    current = records(ledger) if ledger.exists() else []
    lines = [*records(Path(str(ledger) + ".1")), *current]
    assert lines and all(record["chars_in"] >= 10**6 for record in lines)


def test_a_record_with_the_longest_fields_stays_under_4_kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = tmp_path / "savings.jsonl"
    monkeypatch.setenv("SHAPECLIP_LEDGER", str(ledger))
    savings.compressed("\U0001f600" * 10_000, "hook codex", 10**15, 10**15, entry="f" * 64, cwd="\x01\udcff" * 10_000)
    (line,) = ledger.read_bytes().splitlines(keepends=True)
    assert len(line) < 4096
    assert json.loads(line)["cwd"].endswith("\x01\udcff")


def _unwritable(kind: str, tmp_path: Path) -> str:
    if kind == "read-only directory":
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only directory")
        directory = tmp_path / "ro"
        directory.mkdir(mode=0o500)
        return str(directory / "savings.jsonl")
    if kind == "directory under a file":
        (tmp_path / "file").write_text("")
        return str(tmp_path / "file" / "savings.jsonl")
    if kind == "symlink":
        (tmp_path / "elsewhere").write_text("")
        (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
        return str(tmp_path / "link")
    return "/dev/stdout"  # not a regular file: records there would be the command's output


@pytest.mark.parametrize("kind", ["read-only directory", "directory under a file", "symlink", "standard output"])
def test_a_ledger_that_cannot_be_written_changes_no_output_and_no_status(kind: str, tmp_path: Path) -> None:
    path = _unwritable(kind, tmp_path)
    for args, stdin in [
        (("--budget", BUDGET, "--", "sh", "-c", "seq 1 100000; exit 3"), b""),
        (("hook", "claude-code"), json.dumps(HOOK_EVENT).encode()),
    ]:
        off = shapeclip(*args, cwd=tmp_path, stdin=stdin, SHAPECLIP_LEDGER="off", SHAPECLIP_STORE=str(tmp_path / "s"))
        failed = shapeclip(*args, cwd=tmp_path, stdin=stdin, SHAPECLIP_LEDGER=path, SHAPECLIP_STORE=str(tmp_path / "s"))
        assert (failed.stdout, failed.returncode) == (off.stdout, off.returncode)
        assert off.stderr == b""
        (note,) = failed.stderr.decode().splitlines()
        assert note.startswith("shapeclip: savings not recorded")
    if kind == "symlink":
        assert (tmp_path / "elsewhere").read_text() == ""


def test_a_relative_ledger_setting_is_said_once_and_the_default_place_used(tmp_path: Path) -> None:
    done = shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path, SHAPECLIP_LEDGER="savings.jsonl")
    assert done.returncode == 0 and done.stderr.decode().count("\n") == 1 and b"SHAPECLIP_LEDGER" in done.stderr
    assert len(records()) == 1 and not (tmp_path / "savings.jsonl").exists()


def test_off_writes_nothing_anywhere(tmp_path: Path) -> None:
    cut = shapeclip("--budget", BUDGET, "--", "seq", "1", "100000", cwd=tmp_path, SHAPECLIP_LEDGER="off")
    shapeclip("hook", "claude-code", cwd=tmp_path, stdin=json.dumps(HOOK_EVENT).encode(), SHAPECLIP_LEDGER="off")
    shapeclip("show", stored_id(cut.stdout), cwd=tmp_path, SHAPECLIP_LEDGER="off")
    assert not ledger_file().parent.exists() and list(tmp_path.iterdir()) == []
    gain = shapeclip("gain", cwd=tmp_path, SHAPECLIP_LEDGER="off")
    assert gain.returncode == 1 and b"off" in gain.stderr


def test_gain_with_nothing_recorded_says_so(tmp_path: Path) -> None:
    done = shapeclip("gain", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.decode().endswith("nothing recorded yet\n")


def test_the_mcp_run_tool_records_its_cut_and_show_what_it_gave_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp")
    from mcp.types import TextContent

    from shapeclip import mcp_server
    from shapeclip.store import Store

    monkeypatch.chdir(tmp_path)
    app = mcp_server.server(Store(tmp_path / "store"))

    def called(tool: str, arguments: dict[str, Any]) -> str:
        blocks = asyncio.run(app.call_tool(tool, arguments))
        return "".join(block.text for block in blocks if isinstance(block, TextContent))

    text = called("run", {"command": "seq 1 100000", "budget": 2000})
    entry = stored_id(text.encode())
    shown = called("show", {"id": entry[:6], "first": 5, "last": 60})
    cut, back = records()
    assert (cut["caller"], cut["tool"], cut["entry"], cut["cwd"]) == ("mcp", "command", entry, str(tmp_path))
    assert cut["chars_in"] == len("".join(f"{i}\n" for i in range(1, 100_001)))
    assert (back["caller"], back["given_back"], back["entry"], back["tool"]) == ("mcp", len(shown), entry, "command")
