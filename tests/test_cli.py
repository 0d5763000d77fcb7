"""The `shapeclip` command: files and pipes, the marker explained, usage errors exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import shapeclip

LOG = "".join(f"[{i:05}] building target {i}\n" for i in range(20_000))


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "shapeclip.cli", *args], input=stdin, capture_output=True)


def test_file_is_compressed_like_the_library_does(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(LOG)
    done = run(str(path), "--tool", "bash", "--budget", "4000")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    assert out == shapeclip.compress(LOG, "bash", 4000)
    assert len(out) <= 4000 and "of 20,000 omitted" in out


def test_stdin_is_streamed() -> None:
    done = run("--budget", "500", stdin=LOG.encode())
    assert done.returncode == 0
    assert done.stdout.decode() == shapeclip.compress(LOG, None, 500)
    assert run("-", "--budget", "500", stdin=LOG.encode()).stdout == done.stdout


def test_help_explains_the_marker_and_version_prints() -> None:
    help_text = run("--help").stdout.decode()
    assert "marker" in help_text and "sed -n" in help_text
    assert run("--version").stdout.decode().startswith("shapeclip ")


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    for args in (["--budget", "0"], ["--budget", "many"], ["--nope"], [str(tmp_path / "missing.log")]):
        done = run(*args)
        assert done.returncode == 2, args
        assert b"usage:" in done.stderr
