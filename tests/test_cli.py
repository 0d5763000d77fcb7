"""The `shapeclip` command: files and pipes, the marker explained, usage errors exit 2."""

from __future__ import annotations

import array
import fcntl
import os
import pty
import re
import shlex
import signal
import socket
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import shapeclip
from llm_server import NORMAL, serve

LOG = "".join(f"[{i:05}] building target {i}\n" for i in range(20_000))


def run(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "shapeclip", *args]
    environment = None if env is None else {**os.environ, **env}
    return subprocess.run(command, input=stdin, capture_output=True, env=environment, timeout=60)


def test_file_is_compressed_like_the_library_does(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(LOG)
    done = run(str(path), "--tool", "bash", "--budget", "4000")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    # As the library compresses it, its markers pointing into the file (`sed -n 'A,Bp' FILE`).
    compressor = shapeclip.api.Compressor._of_file(str(path), "bash", 4000, None)
    compressor.feed(LOG)
    assert out == compressor.finish() and f"p' {path}" in out
    assert len(out) <= 4000 and "of 20,000 omitted" in out


def test_stdin_is_streamed() -> None:
    done = run("--budget", "500", "--no-store", stdin=LOG.encode())
    assert done.returncode == 0
    assert done.stdout.decode() == shapeclip.compress(LOG, "command", 500)
    assert run("-", "--budget", "500", "--no-store", stdin=LOG.encode()).stdout == done.stdout
    # Stored by default (a pipe cannot be read again): the same as the library with a store.
    stored = run("--budget", "500", stdin=LOG.encode()).stdout.decode()
    assert stored == shapeclip.compress(LOG, "command", 500, store=shapeclip.Store())


@pytest.mark.parametrize("source", ["pipe", "command"])
def test_an_output_of_many_pieces_is_compressed_and_stored_byte_for_byte(tmp_path: Path, source: str) -> None:
    # Lines of every length, characters split across the pieces' ends, invalid UTF-8, and no
    # newline at the end: about 13 MB, so three full pieces and a short one.
    data = b"".join(b"[%07d] step %s\xc3\xa9 done\n" % (i, b"x" * (i % 61)) for i in range(280_000))
    data += b"\xff\xfe the end, unfinished"
    (tmp_path / "output").write_bytes(data)
    env = {"SHAPECLIP_STORE": str(tmp_path / "s"), "SHAPECLIP_LEDGER": "off"}
    command = None
    if source == "pipe":
        done = run("--tool", "bash", "--budget", "3000", stdin=data, env=env)
    else:
        argv = ["cat", str(tmp_path / "output")]
        done = run("--tool", "bash", "--budget", "3000", "--", *argv, env=env)
        command = shlex.join(argv)  # a command that prints a file: planned as a read
    assert done.returncode == 0, done.stderr
    (entry,) = (tmp_path / "s").glob("*.out")
    assert entry.read_bytes() == data
    store = shapeclip.Store(tmp_path / "s")
    assert done.stdout.decode() == shapeclip.compress(data, "bash", 3000, store=store, command=command)


def test_help_explains_the_marker_and_version_prints() -> None:
    help_text = run("--help").stdout.decode()
    assert "marker" in help_text and "sed -n" in help_text
    assert run("--version").stdout.decode().startswith("shapeclip ")


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    bad = (["--budget", "0"], ["--budget", "many"], ["--nope"], [str(tmp_path / "missing.log")], ["--digest", "x:y"])
    for args in bad:
        done = run(*args)
        assert done.returncode == 2, args
        assert b"usage:" in done.stderr


def test_digest_through_the_sdk_environment() -> None:
    with serve() as server:
        host, port = server.server_address
        base = f"http://{host}:{port}"
        env = {"OPENAI_API_KEY": "test", "OPENAI_BASE_URL": f"{base}/v1", "ANTHROPIC_API_KEY": "test"}
        env["ANTHROPIC_BASE_URL"] = base
        for spec in ("openai:normal", "anthropic:normal"):
            done = run("--tool", "bash", "--budget", "4000", "--digest", spec, stdin=LOG.encode(), env=env)
            assert done.returncode == 0, done.stderr
            out = done.stdout.decode()
            assert len(out) <= 4000 and NORMAL.split(";")[0] in out
        failing = run("--budget", "4000", "--digest", "openai:e500", stdin=LOG.encode(), env=env)
        assert failing.returncode == 0 and failing.stdout.decode() == shapeclip.compress(
            LOG, "command", 4000, digest=lambda *_: None, store=shapeclip.Store()
        )


def test_a_wrapped_command_is_run_compressed_and_its_status_kept() -> None:
    script = "import sys\nfor i in range(20000): print(f'[{i:05}] building target {i}')\nsys.exit(3)"
    done = run("--budget", "500", "--", sys.executable, "-c", script)
    assert done.returncode == 3
    assert done.stdout.decode() == shapeclip.compress(LOG, "command", 500, store=shapeclip.Store())
    missing = run("--", "no-such-program-here")
    assert missing.returncode == 127 and b"cannot run no-such-program-here" in missing.stdout
    assert run("--budget", "9", "--").returncode == 2


def test_issue_11_6_a_digest_server_that_never_answers_does_not_hold_up_the_cli() -> None:
    # A socket that listens but never accepts: the SDK connects and waits for an answer forever.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        host, port = silent.getsockname()
        env = {"OPENAI_API_KEY": "test", "OPENAI_BASE_URL": f"http://{host}:{port}/v1"}
        started = time.perf_counter()
        done = run("--budget", "4000", "--digest", "openai:m", "--digest-timeout", "0.3", stdin=LOG.encode(), env=env)
        elapsed = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == shapeclip.compress(
        LOG, "command", 4000, digest=lambda *_: None, store=shapeclip.Store()
    )
    # The SDK's own timeout (10 s) and retries would keep it waiting well past this.
    assert elapsed < 6, f"the command exited {elapsed:.1f} s after it started"


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_issue_11_10_a_command_killed_by_a_signal_exits_with_128_plus_its_number(sig: signal.Signals) -> None:
    script = f"import os, signal\nprint('before', flush=True)\nos.kill(os.getpid(), {int(sig)})"
    done = run("--", sys.executable, "-c", script)
    assert done.returncode == 128 + sig, done.stderr
    assert done.stdout.decode() == "before\n"


def test_issue_11_10_a_file_that_is_not_executable_exits_126_as_in_a_shell(tmp_path: Path) -> None:
    script = tmp_path / "build.sh"
    script.write_text("#!/bin/sh\necho built\n")
    script.chmod(0o644)
    done = run("--", str(script))
    assert done.returncode == 126
    assert f"cannot run {script}: Permission denied".encode() in done.stdout


# Prints the build log, says it is ready by its pid, then waits to be stopped. Like most
# programs (and unlike Python's default), it dies of SIGINT without a word.
PRINTS_THEN_WAITS = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_DFL)
for i in range(20_000):
    print(f"[{i:05}] building target {i}")
sys.stdout.flush()
with open(sys.argv[1] + ".tmp", "w") as ready:
    ready.write(str(os.getpid()))
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)
"""


def wait_for(path: Path) -> Path:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert time.monotonic() < deadline, "the command never got ready"
        time.sleep(0.02)
    return path


def wait_until_read(pipe: int) -> None:
    deadline = time.monotonic() + 30
    unread = array.array("i", [1])
    while unread[0]:
        assert time.monotonic() < deadline, "the pipe was never read"
        time.sleep(0.02)
        fcntl.ioctl(pipe, termios.FIONREAD, unread)
    time.sleep(0.1)  # from the kernel's copy to the reader's hands


def is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_issue_11_11_a_signal_stops_the_command_and_what_it_printed_is_still_compressed(
    tmp_path: Path, sig: signal.Signals
) -> None:
    ready = tmp_path / "ready"
    command = [sys.executable, "-m", "shapeclip", "--budget", "500", "--"]
    cli = subprocess.Popen(
        [*command, sys.executable, "-c", PRINTS_THEN_WAITS, str(ready)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    child = None
    try:
        child = int(wait_for(ready).read_text())
        cli.send_signal(sig)
        out, err = cli.communicate(timeout=30)
        assert not is_running(child), "the command was left running"
    finally:
        cli.kill()
        if child is not None and is_running(child):
            os.kill(child, signal.SIGKILL)
    assert cli.returncode == 128 + sig, err.decode()
    assert err == b""
    assert out.decode() == shapeclip.compress(LOG, "command", 500, store=shapeclip.Store())


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_issue_11_11_a_signal_while_reading_a_pipe_prints_what_was_read(sig: signal.Signals) -> None:
    cli = subprocess.Popen(
        [sys.executable, "-m", "shapeclip", "--budget", "500"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert cli.stdin is not None and cli.stdout is not None
    try:
        cli.stdin.write(LOG.encode())
        cli.stdin.flush()
        # The pipe stays open, as a writer that has gone quiet leaves it, and is read empty.
        wait_until_read(cli.stdin.fileno())
        cli.send_signal(sig)
        cli.wait(timeout=30)
        out = cli.stdout.read()
        err = cli.stderr.read() if cli.stderr else b""
    finally:
        cli.kill()
        cli.stdin.close()
    assert cli.returncode == 128 + sig, err.decode()
    assert err == b""
    assert out.decode() == shapeclip.compress(LOG, "command", 500, store=shapeclip.Store())


# Counts the SIGINTs it gets in the half second after the first, then exits 3. The wakeup fd
# takes a byte for each delivery, even for two that Python's handler would see as one; a
# second SIGINT that comes while the first is still pending is merged by the kernel, so a
# forwarded one shows often, not always.
COUNTS_INTERRUPTS = """
import os, select, signal, sys, time
deliveries, wakeup = os.pipe()
os.set_blocking(wakeup, False)
signal.set_wakeup_fd(wakeup)
signal.signal(signal.SIGINT, lambda *_: None)
open(sys.argv[1], "w").close()
os.read(deliveries, 1)
time.sleep(0.5)
more = os.read(deliveries, 100) if select.select([deliveries], [], [], 0)[0] else b""
print(f"{1 + len(more)} SIGINT")
sys.exit(3)
"""


def test_a_ctrl_c_at_the_terminal_reaches_the_command_once(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    pid, terminal = pty.fork()
    if pid == 0:  # the child: shapeclip in the foreground of a terminal of its own
        command = [sys.executable, "-m", "shapeclip", "--", sys.executable, "-c", COUNTS_INTERRUPTS, str(ready)]
        os.execv(sys.executable, command)
    try:
        wait_for(ready)
        os.write(terminal, b"\x03")  # what Ctrl-C types
        shown = b""
        while chunk := _read_terminal(terminal):
            shown += chunk
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(terminal)
    assert b"1 SIGINT" in shown, shown
    assert os.waitstatus_to_exitcode(status) == 3


def _read_terminal(terminal: int) -> bytes:
    try:
        return os.read(terminal, 4096)
    except OSError:  # Linux says EIO once the other side has closed
        return b""


def test_python_dash_m_shapeclip_is_the_shapeclip_command() -> None:
    installed = Path(sys.executable).with_name("shapeclip")
    for args in (["--budget", "500"], ["--help"]):
        as_module = subprocess.run([sys.executable, "-m", "shapeclip", *args], input=LOG.encode(), capture_output=True)
        as_command = subprocess.run([str(installed), *args], input=LOG.encode(), capture_output=True)
        assert as_module.returncode == as_command.returncode == 0, as_module.stderr
        assert as_module.stdout == as_command.stdout


def test_help_shows_the_command_form_and_the_tool_kinds() -> None:
    help_text = run("--help").stdout.decode()
    assert "shapeclip [options] -- COMMAND [ARG ...]" in help_text
    for kind, example in (("shell", "bash"), ("file_read", "read_file"), ("search", "grep"), ("web", "web_fetch")):
        assert re.search(rf"^ +{kind} +.*\b{example}\b", help_text, re.M), kind
    assert re.search(r"^ +other +any other", help_text, re.M)


def test_a_terminal_on_stdin_and_no_file_says_what_is_expected() -> None:
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "shapeclip"], stdin=terminal, capture_output=True, timeout=30)
        assert done.returncode == 2 and done.stdout == b""
        assert b"standard input is a terminal" in done.stderr and b"-- COMMAND" in done.stderr
        # Asked for in so many words, the terminal is read.
        os.write(controller, b"typed\n\x04")
        typed = subprocess.run(
            [sys.executable, "-m", "shapeclip", "-"], stdin=terminal, capture_output=True, timeout=30
        )
        assert typed.returncode == 0 and typed.stdout == b"typed\n"
    finally:
        os.close(controller)
        os.close(terminal)


def test_issue_27_item_12_a_pipe_without_a_tool_is_shell_output() -> None:
    done = run("--budget", "500", "--no-store", stdin=LOG.encode())
    assert done.returncode == 0
    out = done.stdout.decode()
    assert out == shapeclip.compress(LOG, "command", 500) and "call the tool again" not in out


def test_issue_27_item_16_a_digest_that_fails_says_why_on_stderr() -> None:
    with serve() as server:
        host, port = server.server_address
        env = {"OPENAI_API_KEY": "test", "OPENAI_BASE_URL": f"http://{host}:{port}/v1"}
        done = run("--budget", "4000", "--digest", "openai:e500", stdin=LOG.encode(), env=env)
    assert done.returncode == 0
    assert done.stdout.decode() == shapeclip.compress(
        LOG, "command", 4000, digest=lambda *_: None, store=shapeclip.Store()
    )
    assert re.fullmatch(rb"shapeclip: the digest failed \(raised .*500.*\); the plain marker is printed\n", done.stderr)
    with serve() as server:
        host, port = server.server_address
        env = {"OPENAI_API_KEY": "test", "OPENAI_BASE_URL": f"http://{host}:{port}/v1"}
        assert run("--budget", "4000", "--digest", "openai:normal", stdin=LOG.encode(), env=env).stderr == b""


def test_issue_27_item_11_a_digest_that_cannot_be_set_up_never_stops_a_command(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "--digest", "openai:gpt-4o-mini", "--", "touch", str(ran)],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and ran.exists()
    assert done.stderr.startswith(b"shapeclip: cannot set up the openai client: ")
    assert done.stderr.endswith(b"; no digest is asked\n")


def test_issue_27_item_17_binary_output_is_printed_as_text(tmp_path: Path) -> None:
    binary = tmp_path / "program"
    data = bytes(range(256)) * 40 + b"\0\x01\x1b[31m\n" * 300
    binary.write_bytes(data)
    for budget in ("2000", "1000000"):
        done = run("--tool", "read_file", "--budget", budget, str(binary))
        assert done.returncode == 0
        out = done.stdout.decode("utf-8")
        assert len(out) <= int(budget) and out.count("\ufffd") > 300
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", out)
    text = tmp_path / "coloured.log"
    text.write_bytes(b"\x1b[31merror\x1b[0m\tdone\r\n")
    assert run(str(text)).stdout == text.read_bytes()


def test_a_wrapped_command_reads_shapeclips_standard_input_unless_it_is_a_terminal() -> None:
    # Without shapeclip, `printf hello | cat` prints hello; it read /dev/null instead.
    assert run("--", "cat", stdin=b"hello\n").stdout == b"hello\n"
    # A prompt on a terminal would wait unseen, the output being held back: /dev/null then.
    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "shapeclip", "--", "sh", "-c", 'read x || echo "no input"'],
            stdin=secondary,
            capture_output=True,
            timeout=60,
        )
    finally:
        os.close(primary)
        os.close(secondary)
    assert done.stdout == b"no input\n"


def test_a_closed_standard_output_keeps_the_commands_exit_status() -> None:
    script = f"{shlex.quote(sys.executable)} -m shapeclip -- sh -c 'echo x; exit 4' >&-"
    done = subprocess.run(["sh", "-c", script], capture_output=True, timeout=60)
    assert done.returncode == 4 and b"cannot write the output" in done.stderr and b"Traceback" not in done.stderr


def test_an_executable_text_file_without_a_hash_bang_runs_as_a_shell_runs_it(tmp_path: Path) -> None:
    script = tmp_path / "build"
    script.write_text("echo built\nexit 3\n")
    script.chmod(0o755)
    done = run("--", str(script))
    assert (done.returncode, done.stdout) == (3, b"built\n")
    binary = tmp_path / "other-machine"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(200))  # a NUL: no shell script
    binary.chmod(0o755)
    done = run("--", str(binary))
    assert done.returncode == 126 and b"Exec format error" in done.stdout


def test_a_signal_stops_shapeclip_though_a_child_of_the_command_holds_the_pipe() -> None:
    # sh dies of SIGTERM; its `sleep` keeps the pipe open for 30 s, and was waited for.
    cli = subprocess.Popen(
        [sys.executable, "-m", "shapeclip", "--", "sh", "-c", "echo before; sleep 30; echo after"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert cli.stdout is not None
        time.sleep(1.5)  # sh has printed and started sleep
        started = time.monotonic()
        cli.send_signal(signal.SIGTERM)
        out, err = cli.communicate(timeout=60)
        elapsed = time.monotonic() - started
    finally:
        cli.kill()
        subprocess.run(["pkill", "-f", "sleep 30"], check=False)
    assert cli.returncode == 128 + signal.SIGTERM and out == b"before\n", err
    assert elapsed < 10, f"shapeclip took {elapsed:.1f} s to stop"


def test_binary_input_is_printed_as_text_though_its_nuls_are_cut(tmp_path: Path) -> None:
    # The NUL that says "binary" is in the omitted middle; the kept lines hold raw controls.
    data = b"\x1b[2Jhead line\n" * 50 + bytes(range(256)) * 4000 + b"tail\x1b[2J\x07\n"
    (tmp_path / "program").write_bytes(data)
    out = run("--budget", "600", str(tmp_path / "program")).stdout.decode()
    assert "head line" in out and len(out) <= 600
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", out)
