"""`shapeclip batch` on one worker against two (issue 30: 2 workers at least 1.8 times one).

The conversations are the agent sessions of `/work/shared/corpus-agents`: each session's
observations, in order, as the results of its tool calls (OpenAI Chat Completions messages),
one session a line, 19 MB in all. Without that folder they are generated: build logs of 20 KB
to 400 KB (`gen_logs.build_log`), six to a conversation. They are written to a JSONL file,
and what is timed is what the command runs on it: `compress_jsonl`, given the file's path and
an output path, as `shapeclip batch IN -o OUT --workers N` calls it (everything but starting
the interpreter and parsing the arguments): one worker streams the lines through this
process, two read byte ranges of the file each and this process joins their outputs
(`batch_ranges`). Each worker count runs `ROUNDS` times, taking turns; the best counts, and
each run's wall time and CPU time (this process's, its workers' once they have ended, and
the rest of the machine's meanwhile) are printed with the load average. The output and what
standard error counts must not depend on the workers.

Two budgets: the default (16,000 characters a result), under which most of these
observations fit and the work is mostly reading and writing the JSON, and 2,000, under which
nearly every one is cut and the core does most of it. A run of the sessions once takes a
fraction of a second, where a second worker's fixed costs (starting it, the last range it
waits for) weigh most, so each budget also runs the sessions four times over, as a batch
job's size. The target is asserted for the second budget; the first is reported.

Beside each, what two processes reach on this machine when they share nothing: the same
lines, every other one, compressed by `compress_line` in two forked processes that neither
read nor write a file nor send anything back, against all of them in one (`ceiling`). No way
of sharing the work out can beat that.

    python -m pytest benches/test_bench_batch.py -s -p no:cacheprovider
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gen_logs import build_log
from shapeclip.batch import _start_method, compress_line, usable_cores
from shapeclip.cli_batch import compress_jsonl
from shapeclip.messages import DEFAULT_MESSAGE_BUDGET

AGENTS = Path("/work/shared/corpus-agents/cases")
ROUNDS = 3
TARGET_SPEEDUP = 1.8


def _session(observations: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
    """Chat messages with one tool call and its result for each `(tool, command, output)`."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Fix the failing test."}]
    for i, (tool, command, output) in enumerate(observations):
        call = {"id": f"call_{i}", "type": "function", "function": {"name": tool, "arguments": json.dumps(command)}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": output})
    return messages


def conversations() -> tuple[str, list[str]]:
    sessions: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for meta_path in sorted(AGENTS.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        output = meta_path.with_suffix(".txt").read_text(encoding="utf-8", errors="replace")
        sessions[meta["session"]].append((meta["tool"], meta.get("command") or "", output))
    if sessions:
        return f"{len(sessions)} sessions of {AGENTS}", [json.dumps(_session(s)) + "\n" for s in sessions.values()]
    logs = [build_log(20_000 * (1 + i % 20), seed=i) for i in range(240)]
    lines = [json.dumps(_session([("bash", "make", log) for log in logs[i : i + 6]])) + "\n" for i in range(0, 240, 6)]
    return f"{len(lines)} generated conversations ({AGENTS} is not here)", lines


@dataclass
class Run:
    wall: float
    cpu_parent: float
    cpu_workers: float
    #: CPU seconds the rest of the machine used meanwhile (Linux; 0 elsewhere): where it is
    #: not near 0, others took cores from the run.
    cpu_others: float

    def __str__(self) -> str:
        return f"{self.wall:.2f} s (CPU {self.cpu_parent:.2f} + {self.cpu_workers:.2f}, others {self.cpu_others:.2f})"


def machine_cpu() -> float:
    """CPU seconds all the machine's processes have used since it started (Linux's /proc/stat)."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(field) for field in first[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def timed(source: Path, target: Path, workers: int, budget: int) -> tuple[Run, str]:
    """One run of the command's work, and what it said on standard error."""
    said = io.StringIO()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine, cpu, started = machine_cpu(), time.process_time(), time.perf_counter()
    with contextlib.redirect_stderr(said):
        status = compress_jsonl(str(source), str(target), workers, budget, argparse.ArgumentParser())
    wall, cpu, machine = time.perf_counter() - started, time.process_time() - cpu, machine_cpu() - machine
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert status == 0, said.getvalue()
    workers_cpu = max(0.0, after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime)
    return Run(wall, cpu, workers_cpu, max(0.0, machine - cpu - workers_cpu)), said.getvalue()


def ceiling(lines: list[str], budget: int) -> float:
    """How many times faster two forked processes compress `lines` than one, each given every
    other line and nothing else to do (best of `ROUNDS`); 0 where there is no fork."""
    if not hasattr(os, "fork"):
        return 0.0
    one = two = float("inf")
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for line in lines:
            compress_line(line, budget)
        one = min(one, time.perf_counter() - started)
        started = time.perf_counter()
        children = []
        for half in (lines[0::2], lines[1::2]):
            pid = os.fork()
            if pid == 0:
                for line in half:
                    compress_line(line, budget)
                os._exit(0)
            children.append(pid)
        assert all(os.waitpid(pid, 0)[1] == 0 for pid in children)
        two = min(two, time.perf_counter() - started)
    return one / two


@pytest.mark.parametrize("copies", [1, 4])
@pytest.mark.parametrize("budget", [DEFAULT_MESSAGE_BUDGET.per_result, 2_000])
def test_two_workers_against_one(budget: int, copies: int, tmp_path: Path) -> None:
    what, lines = conversations()
    source = tmp_path / "in.jsonl"
    source.write_text("".join(lines) * copies, encoding="utf-8")
    size = source.stat().st_size
    runs: dict[int, list[Run]] = {1: [], 2: []}
    outputs: dict[int, tuple[bytes, str]] = {}
    load = os.getloadavg()
    method = _start_method().get_start_method()
    for _ in range(ROUNDS):
        for workers, done in runs.items():
            target = tmp_path / f"out{workers}.jsonl"
            run, said = timed(source, target, workers, budget)
            done.append(run)
            outputs[workers] = target.read_bytes(), said
    assert outputs[1] == outputs[2]
    best = {workers: min(run.wall for run in done) for workers, done in runs.items()}
    speedup = best[1] / best[2]
    print(
        f"\n{what}, {copies}x, {size / 1e6:.1f} MB, budget {budget:,}; load average {load[0]:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after: 1 worker {best[1]:.2f} s ({size / best[1] / 1e6:,.0f} MB/s), "
        f"2 workers {best[2]:.2f} s, {speedup:.2f}x (workers started by {method}); {outputs[1][1].strip()}"
    )
    for workers, done in runs.items():
        each = ", ".join(str(run) for run in done)
        print(f"  {workers} worker{'s' if workers > 1 else ''}, wall (CPU here + in workers, others'): {each}")
    print(f"  two processes that share nothing, in memory: {ceiling(lines * copies, budget):.2f}x one")
    if usable_cores() < 2:
        pytest.skip("one core: two workers cannot be faster")
    if budget != DEFAULT_MESSAGE_BUDGET.per_result:
        assert speedup >= TARGET_SPEEDUP
