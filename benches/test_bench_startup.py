"""Start-up (issue 30): the median wall time of `shapeclip` on a tiny input and of `shapeclip hook
claude-code` answering one event, against Python's own start, and what each import costs.

A harness's hook starts one of these processes on every tool call, so its start is felt. Each
path runs `RUNS` times, the paths taking turns so that a burst of other work on the machine
falls on all of them alike; the median counts, of the wall time and of the CPU time (user and
system), which other work on the machine sways less. The paths: Python doing nothing (`python
-c pass`, with and without `site`: the floor), `shapeclip FILE` on a one-line file, and the
hook answering a Bash event whose output fits (`{}`, nothing to compress) and one whose output
does not (compressed, stored, counted in the ledger). The commands run as a user runs them,
through the `shapeclip` script installed beside this Python, with the store and the ledger in a
temporary directory, and with compiled bytecode, as an installed package has it (pip compiles
it on install): where `PYTHONDONTWRITEBYTECODE` is set, as in this project's shells, every run
would compile shapeclip's sources again, so the bytecode goes to a temporary
`PYTHONPYCACHEPREFIX`, written by a first run of each path that is not timed. Then each
shapeclip path runs under `python -X importtime` `IMPORT_RUNS` times and the costliest imports
are listed by their median own time (microseconds).

The target is a median under 50 ms for each shapeclip path.

    python -m pytest benches/test_bench_startup.py -s -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

RUNS = 20
IMPORT_RUNS = 7
TOP_IMPORTS = 12
TARGET_MS = 50
BIG_OUTPUT = "".join(f"[{i:05}] compiling module_{i}.c\n" for i in range(6_000)) + "error: linker failed\n"


def _event(stdout: str) -> bytes:
    response = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}
    event = {
        "session_id": "bench",
        "cwd": "/tmp",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "make"},
        "tool_response": response,
    }
    return json.dumps(event).encode()


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name)
        (path / "tiny.txt").write_text("hello\n")
        yield path


def paths(scratch: Path) -> dict[str, tuple[list[str], bytes]]:
    """Each path's command line and standard input."""
    cli = shutil.which("shapeclip", path=os.path.dirname(sys.executable))
    assert cli is not None, "the shapeclip command is installed beside this Python"
    return {
        "python -c pass": ([sys.executable, "-c", "pass"], b""),
        "python -S -c pass": ([sys.executable, "-S", "-c", "pass"], b""),
        "shapeclip FILE (tiny)": ([cli, str(scratch / "tiny.txt")], b""),
        "hook claude-code, output fits": ([cli, "hook", "claude-code"], _event("ok\n")),
        "hook claude-code, output cut": ([cli, "hook", "claude-code"], _event(BIG_OUTPUT)),
    }


def _env(scratch: Path) -> dict[str, str]:
    env = {**os.environ, "SHAPECLIP_STORE": str(scratch / "store"), "SHAPECLIP_LEDGER": str(scratch / "ledger")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(scratch / "bytecode")
    return env


def _run(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user and system) seconds of one run."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env)
    seconds = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr.decode()
    cpu = cpu_after.ru_utime - cpu_before.ru_utime + cpu_after.ru_stime - cpu_before.ru_stime
    return seconds, cpu


def own_import_times(argv: list[str], stdin: bytes, env: dict[str, str]) -> dict[str, list[int]]:
    """Each module's own import time, in microseconds, over `IMPORT_RUNS` runs."""
    times: dict[str, list[int]] = {}
    python, *rest = argv if argv[0] == sys.executable else [sys.executable, *argv]
    for _ in range(IMPORT_RUNS):
        done = subprocess.run([python, "-X", "importtime", *rest], input=stdin, capture_output=True, env=env)
        for line in done.stderr.decode().splitlines():
            if line.startswith("import time:") and "|" in line and "self [us]" not in line:
                own, _, name = line.removeprefix("import time:").split("|")
                times.setdefault(name.strip(), []).append(int(own))
    return times


def test_start_up(scratch: Path) -> None:
    env = _env(scratch)
    commands = paths(scratch)
    seconds: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for argv, stdin in commands.values():
        _run(argv, stdin, env)  # writes the bytecode
    load = os.getloadavg()
    for _ in range(RUNS):
        for name, (argv, stdin) in commands.items():
            wall, used = _run(argv, stdin, env)
            seconds[name].append(wall)
            cpu[name].append(used)
    print(f"\n{RUNS} runs each, load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after", end="")
    print(" {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    medians = {}
    for name, runs in seconds.items():
        medians[name] = statistics.median(runs) * 1e3
        print(
            f"  {name:<32} median {medians[name]:5.1f} ms (fastest {min(runs) * 1e3:5.1f}, slowest "
            f"{max(runs) * 1e3:5.1f}); CPU median {statistics.median(cpu[name]) * 1e3:5.1f} ms"
        )
    for name, (argv, stdin) in commands.items():
        if not name.startswith(("shapeclip", "hook")):
            continue
        times = own_import_times(argv, stdin, env)
        total = sum(statistics.median(t) for t in times.values()) / 1e3
        top = sorted(times.items(), key=lambda item: -statistics.median(item[1]))[:TOP_IMPORTS]
        print(f"  {name}: {len(times)} modules imported, {total:.1f} ms of own import time (medians); costliest:")
        print("    " + ", ".join(f"{module} {statistics.median(t):.0f}" for module, t in top))
    slow = [name for name in commands if name.startswith(("shapeclip", "hook")) and medians[name] > TARGET_MS]
    assert not slow, f"over {TARGET_MS} ms: {', '.join(slow)}"
