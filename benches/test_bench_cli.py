"""1 GB through the `shapeclip` command (issue 30): a file, a pipe and a command's output
(`-- CMD`), with the store (the default for a pipe and a command) and without (`--no-store`),
against one in-process `shapeclip.compress` of the same bytes, the core's own speed.

    python -m pytest benches/test_bench_cli.py -s -p no:cacheprovider

The input is a generated build log (`gen_logs.build_log`, 1 MiB repeated to 1 GB) in a
temporary file, deleted after. The pipe is `cat FILE | shapeclip`, the command `shapeclip --
dd if=FILE bs=1M` (a command that prints a file by name, `cat FILE`, is planned as a file read,
not as the log the in-process call plans); every run is `--tool bash --budget 16000`. A FILE's
markers name it, so its output is held to the in-process call's with that way back. Each path
runs `ROUNDS` times, the paths taking turns so that a burst of other work falls on all of them
alike; the best counts, of the wall time and of the CPU time (user and system, of every
thread, with `cat`'s for a pipe), which other work on the machine sways less. The peak is the
CLI process's own high-water mark (`VmHWM`), read while it runs: `wait4` would
report the benchmark's own size, which a child started with vfork inherits. With the store,
every byte is written to disk as it arrives and never held, so the peak must stay as bounded
as without; the store's quota is raised to 2 GB (`SHAPECLIP_STORE_MAX_BYTES`) so that the
output is kept, and each run's copy is removed after it.

Targets: each path within 1.5 times the in-process call, the store adding at most 30% to the
same path without it, and a peak under 64 MiB. Beside them, what the pipe costs alone: `cat
FILE` into a Python that only reads it, into the core's input pieces as shapeclip does. Where
the cores are fewer than the core's threads plus the pipe's two processes, their CPU times
added, over the cores, bound how fast any path through a pipe can be; the benchmark prints
that bound.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import shapeclip
from gen_logs import build_log
from shapeclip.batch import usable_cores

GIGABYTE = 1_000_000_000
BUDGET = 16_000
ROUNDS = 3
MAX_PEAK_MIB = 64
MAX_OVER_CORE = 1.5
MAX_STORE_COST = 1.3
# Each path: how shapeclip gets the input, and whether it stores it.
PATHS = {
    "file": ("file", False),
    "pipe --no-store": ("pipe", False),
    "pipe": ("pipe", True),
    "-- dd --no-store": ("command", False),
    "-- dd": ("command", True),
}


def high_water_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):  # gone, or a zombie without memory
        return None


@pytest.fixture(scope="module")
def big_file() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "build.log"
        block, left = build_log(1 << 20).encode(), GIGABYTE
        with path.open("wb") as file:
            while left:
                left -= file.write(block[:left])
        yield path


def run_cli(path: Path, source: str, store: Path | None) -> tuple[float, float, float, str]:
    """Seconds, CPU seconds (with `cat`'s), peak resident MiB and output of one run."""
    cli = shutil.which("shapeclip", path=os.path.dirname(sys.executable))
    assert cli is not None, "the shapeclip command is installed beside this Python"
    env = {**os.environ, "SHAPECLIP_LEDGER": "off", "SHAPECLIP_STORE_MAX_BYTES": str(2 * GIGABYTE)}
    if store is not None:
        env["SHAPECLIP_STORE"] = str(store)
    argv = [cli, "--tool", "bash", "--budget", str(BUDGET), *([] if store else ["--no-store"])]
    command = ["--", "dd", f"if={path}", "bs=1M", "status=none"]
    argv += {"file": [str(path)], "pipe": [], "command": command}[source]
    cpu_before = _children_cpu()
    started = time.perf_counter()
    cat = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE) if source == "pipe" else None
    child = subprocess.Popen(argv, stdin=cat.stdout if cat else subprocess.DEVNULL, stdout=subprocess.PIPE, env=env)
    if cat and cat.stdout:
        cat.stdout.close()  # ours; the child holds its own
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(child.stdout.read() if child.stdout else b""))
    reader.start()
    peak = 0
    while child.poll() is None:
        peak = max(peak, high_water_kib(child.pid) or 0)
        time.sleep(0.01)
    reader.join()
    seconds = time.perf_counter() - started
    assert child.returncode == 0 and peak > 0
    if cat:
        assert cat.wait() == 0
    return seconds, _children_cpu() - cpu_before, peak / 1024, out[0].decode()


# What a pipe costs before shapeclip does anything: `cat` writing it and a reader that only
# reads, as shapeclip reads (the pipe's buffer widened, into the core's input pieces), on the
# same cores as the core.
DRAIN = (
    "import fcntl\n"
    "from shapeclip._core import InputPiece\n"
    "try:\n    fcntl.fcntl(0, fcntl.F_SETPIPE_SZ, 1 << 20)\nexcept OSError:\n    pass\n"
    "while True:\n"
    "    piece = InputPiece()\n"
    "    while piece.read_from(0):\n        pass\n"
    "    if len(piece) < piece.CAPACITY:\n        break\n"
)


def pipe_alone(path: Path) -> tuple[float, float]:
    """Seconds and CPU seconds (`cat`'s and the reader's) of `cat FILE | python -c DRAIN`."""
    cpu_before = _children_cpu()
    started = time.perf_counter()
    cat = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)
    assert cat.stdout is not None
    drain = subprocess.Popen([sys.executable, "-c", DRAIN], stdin=cat.stdout)
    cat.stdout.close()
    assert drain.wait() == 0 and cat.wait() == 0
    return time.perf_counter() - started, _children_cpu() - cpu_before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def test_a_gigabyte_through_the_cli(big_file: Path) -> None:
    data = big_file.read_bytes()
    expected = shapeclip.compress(data, "bash", BUDGET)
    of_file = shapeclip.api.Compressor._of_file(str(big_file), "bash", BUDGET, None)
    of_file.feed(data)
    expected_file = of_file.finish()
    best = dict.fromkeys(["in-process", "pipe alone", *PATHS], float("inf"))
    cpu = dict.fromkeys(["in-process", "pipe alone", *PATHS], float("inf"))
    peaks = dict.fromkeys(PATHS, 0.0)
    stored = dict.fromkeys(PATHS, 0)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(ROUNDS):
            cpu_before, started = _own_cpu(), time.perf_counter()
            assert shapeclip.compress(data, "bash", BUDGET) == expected
            best["in-process"] = min(best["in-process"], time.perf_counter() - started)
            cpu["in-process"] = min(cpu["in-process"], _own_cpu() - cpu_before)
            seconds, used = pipe_alone(big_file)
            best["pipe alone"], cpu["pipe alone"] = min(best["pipe alone"], seconds), min(cpu["pipe alone"], used)
            for name, (source, storing) in PATHS.items():
                store = Path(scratch) / "store" if storing else None
                seconds, used, peak, text = run_cli(big_file, source, store)
                best[name] = min(best[name], seconds)
                cpu[name] = min(cpu[name], used)
                peaks[name] = max(peaks[name], peak)
                assert len(text) <= BUDGET
                if store is None:
                    want = expected_file if source == "file" else expected
                    assert text == want, f"{name} printed what the in-process call did not"
                else:
                    stored[name] = sum(f.stat().st_size for f in store.glob("*.out"))
                    shutil.rmtree(store)
    del data
    print(f"\nload average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after", end="")
    print(" {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    core = best["in-process"]
    print(
        f"  {'in-process compress':<22} {core:6.2f} s ({GIGABYTE / core / 1e6:,.0f} MB/s), "
        f"CPU {cpu['in-process']:.2f} s"
    )
    for name in PATHS:
        print(
            f"  {name:<22} {best[name]:6.2f} s ({GIGABYTE / best[name] / 1e6:,.0f} MB/s), "
            f"{best[name] / core:.2f}x the core, CPU {cpu[name]:.2f} s, peak {peaks[name]:.1f} MiB"
        )
    # Where the core and the pipe's own work share the cores, neither can finish sooner.
    cores = usable_cores()
    floor = max(core, (cpu["in-process"] + cpu["pipe alone"]) / cores)
    print(
        f"  {'pipe alone':<22} {best['pipe alone']:6.2f} s, CPU {cpu['pipe alone']:.2f} s: with the core's CPU, "
        f"a pipe can take no less than {floor:.2f} s on {cores} cores ({floor / core:.2f}x the core)"
    )
    for name, (_, storing) in PATHS.items():
        if storing:
            without = best[f"{name} --no-store"]
            print(f"  the store adds {best[name] / without - 1:.0%} to {name}")
    assert all(size == GIGABYTE for name, size in stored.items() if PATHS[name][1])
    assert max(peaks.values()) < MAX_PEAK_MIB
    slow = [name for name in PATHS if best[name] > MAX_OVER_CORE * core]
    costly = [
        name
        for name, (_, storing) in PATHS.items()
        if storing and best[name] > MAX_STORE_COST * best[f"{name} --no-store"]
    ]
    assert not slow, f"over {MAX_OVER_CORE}x the in-process call: {', '.join(slow)}"
    assert not costly, f"the store adds over {MAX_STORE_COST - 1:.0%}: {', '.join(costly)}"
