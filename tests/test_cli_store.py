"""`shapeclip show` and `shapeclip store`: exactly the asked lines, a clear exit 1 for an
entry that is gone, and the store's upkeep."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shapeclip.store import Store

TEXT = "".join(f"line {i}{' error' if i % 50 == 0 else ''}\n" for i in range(1, 301))


def run(store: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SHAPECLIP_STORE": str(store)}
    return subprocess.run([sys.executable, "-m", "shapeclip", *args], capture_output=True, env=env, timeout=60)


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "store"
    return path, Store(path).put(TEXT, "bash").id


def test_show_prints_exactly_the_asked_lines(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    done = run(path, "show", entry_id, "--lines", "12:14")
    assert done.returncode == 0 and done.stdout == b"line 12\nline 13\nline 14\n"
    assert run(path, "show", entry_id, "--lines", "300:999").stdout == b"line 300 error\n"
    assert run(path, "show", entry_id, "--lines", "7").stdout == b"line 7\n"
    assert run(path, "show", entry_id).stdout.decode() == TEXT


def test_show_greps_with_numbers_and_context(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    done = run(path, "show", entry_id, "--grep", "error", "-C", "1", "--lines", "40:160")
    assert done.stdout.decode() == (
        "49-line 49\n50:line 50 error\n51-line 51\n--\n99-line 99\n100:line 100 error\n101-line 101\n"
        "--\n149-line 149\n150:line 150 error\n151-line 151\n"
    )
    assert run(path, "show", entry_id, "--grep", r"^line 29\d").stdout.decode().splitlines()[0] == "290:line 290"
    # Without context grep prints no `--` between matches that do not touch.
    assert run(path, "show", entry_id, "--grep", "error", "--lines", "40:110").stdout == (
        b"50:line 50 error\n100:line 100 error\n"
    )


def test_show_budget_bounds_what_it_prints(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    out = run(path, "show", entry_id, "--budget", "300").stdout.decode()
    assert len(out) <= 300 and out.startswith("line 1\n") and "not shown" in out


def test_an_unknown_evicted_or_cleared_id_exits_1_and_says_so(stored: tuple[Path, str], tmp_path: Path) -> None:
    path, entry_id = stored
    Store(path, max_bytes=len(TEXT)).put("another output\n")  # evicts the first
    done = run(path, "show", entry_id, "--lines", "1:2")
    assert done.returncode == 1 and done.stdout == b""
    assert b"the stored output was evicted; run the command again" in done.stderr
    Store(path).clear()
    for store, asked in ((path, entry_id), (path, "nonsense"), (tmp_path / "none", entry_id)):
        done = run(store, "show", asked, "--lines", "1:2")
        assert done.returncode == 1 and done.stdout == b""
        assert f"no entry in {store} has, or recently had, an ID starting {asked}".encode() in done.stderr


def test_bad_show_arguments_are_usage_errors(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    for args in (["--lines", "0:3"], ["--lines", "5:2"], ["--lines", "a:b"], ["--grep", "("], ["-C", "x"]):
        done = run(path, "show", entry_id, *args)
        assert done.returncode == 2 and b"usage:" in done.stderr, args


def test_store_stats_prune_clear(stored: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = stored
    assert run(path, "store").stdout.decode() == f"{path}: 1 entry, {len(TEXT):,} of 500,000,000 bytes\n"
    assert run(path, "store", "--stats").stdout == run(path, "store").stdout
    assert run(path, "store", "--prune").stdout.decode() == f"removed 0 files from {path}\n"
    assert run(path, "store", "--clear").stdout.decode() == f"removed 2 files from {path}\n"
    assert run(path, "store").stdout.decode().startswith(f"{path}: 0 entries")
    missing = run(tmp_path / "none", "store")
    assert missing.returncode == 1 and b"there is no store" in missing.stderr


def test_issue_27_item_11_a_malformed_setting_never_stops_a_command(stored: tuple[Path, str], tmp_path: Path) -> None:
    path, entry_id = stored
    marker = tmp_path / "ran"
    for name, value in (("SHAPECLIP_STORE_MAX_BYTES", "500MB"), ("SHAPECLIP_STORE", "relative/place")):
        env = {**os.environ, "SHAPECLIP_STORE": str(path), name: value}
        done = subprocess.run(
            [sys.executable, "-m", "shapeclip", "--", "touch", str(marker)], capture_output=True, env=env, timeout=60
        )
        assert done.returncode == 0 and marker.exists(), done.stderr
        assert f"{name} must be".encode() in done.stderr and b"Traceback" not in done.stderr
        marker.unlink()
    env = {**os.environ, "SHAPECLIP_STORE": str(path), "SHAPECLIP_STORE_MAX_BYTES": "lots"}
    for args in (["show", entry_id, "--lines", "7"], ["store", "--stats"]):
        done = subprocess.run([sys.executable, "-m", "shapeclip", *args], capture_output=True, env=env, timeout=60)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
        assert b"SHAPECLIP_STORE_MAX_BYTES must be a positive whole number of bytes, got 'lots'" in done.stderr


def test_issue_27_item_7_store_list_shows_each_entry_newest_first(tmp_path: Path) -> None:
    path = tmp_path / "store"
    env = {**os.environ, "SHAPECLIP_STORE": str(path)}
    work = tmp_path / "work dir"
    work.mkdir()
    printing = [sys.executable, "-c", "print('built\\n' * 5000)"]
    for command in (printing, [*printing[:2], "print('tested\\n' * 5000)"]):
        done = subprocess.run(
            [sys.executable, "-m", "shapeclip", "--budget", "500", "--", *command],
            capture_output=True,
            env=env,
            cwd=work,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
    subprocess.run(
        [sys.executable, "-m", "shapeclip", "--budget", "500"],
        input=b"piped\n" * 5000,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    store = Store(path)
    entries = sorted(
        (store.entry(name[:-4]) for name in os.listdir(path) if name.endswith(".out")),
        key=lambda e: e.stored_at,
        reverse=True,
    )
    assert [e.command for e in entries] == [
        None,
        shlex.join([*printing[:2], "print('tested\\n' * 5000)"]),
        shlex.join(printing),
    ]
    assert [e.cwd for e in entries] == [str(tmp_path), str(work), str(work)]
    listed = run(path, "store", "--list").stdout.decode().splitlines()
    assert listed[0].split() == ["ID", "STORED", "TOOL", "COMMAND", "DIRECTORY", "SIZE"]
    for row, entry in zip(listed[1:], entries, strict=True):
        assert row.startswith(entry.id + " ")
        assert time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.stored_at)) in row
        assert f"{entry.size:,}" in row and entry.cwd[-59:] in row and (entry.command or "-")[:59] in row
    assert run(tmp_path / "empty", "store", "--list").returncode == 1
