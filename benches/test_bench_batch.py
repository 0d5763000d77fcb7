"""`shapeclip batch` on one worker against two (issue 30: 2 workers at least 1.8 times one).

The conversations are the agent sessions of `/work/shared/corpus-agents`: each session's
observations, in order, as the results of its tool calls (OpenAI Chat Completions messages),
one session a line, 19 MB in all. Without that folder they are generated: build logs of 20 KB
to 400 KB (`gen_logs.build_log`), six to a conversation. Each worker count runs `ROUNDS`
times, taking turns; the best counts. The output must not depend on the workers.

The workers are processes, each sent blocks of lines. Two budgets: the default (16,000
characters a result), under which most of these observations fit and the work is mostly
reading and writing the JSON, and 2,000, under which nearly every one is cut and the core does
most of it. A run of the sessions once takes a fraction of a second, where a second worker's
fixed costs (starting it, the last block it waits for) weigh most, so each budget also runs
the sessions four times over, as a batch job's size. The target is asserted for the second
budget; the first is reported.

    python -m pytest benches/test_bench_batch.py -s -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from gen_logs import build_log
from shapeclip.batch import _start_method, compress_lines
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


@pytest.mark.parametrize("copies", [1, 4])
@pytest.mark.parametrize("budget", [DEFAULT_MESSAGE_BUDGET.per_result, 2_000])
def test_two_workers_against_one(budget: int, copies: int) -> None:
    what, lines = conversations()
    lines *= copies
    size = sum(len(line.encode()) for line in lines)
    best: dict[int, float] = {1: float("inf"), 2: float("inf")}
    outputs: dict[int, list[str]] = {}
    load = os.getloadavg()
    methods = set()
    for _ in range(ROUNDS):
        for workers in best:
            methods.add(_start_method().get_start_method())
            started = time.perf_counter()
            done = list(compress_lines(lines, workers, budget))
            best[workers] = min(best[workers], time.perf_counter() - started)
            outputs[workers] = [line.text for line in done]
    assert outputs[1] == outputs[2]
    cut = sum(line.chars_out < line.chars_in for line in done)
    speedup = best[1] / best[2]
    print(
        f"\n{what}, {copies} times, {size / 1e6:.1f} MB, budget {budget:,} ({cut} of {len(lines)} conversations "
        f"cut); load "
        f"average {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after: 1 worker {best[1]:.2f} s "
        f"({size / best[1] / 1e6:,.0f} MB/s), 2 workers {best[2]:.2f} s, {speedup:.2f}x "
        f"(workers started by {' and '.join(sorted(methods))})"
    )
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: two workers cannot be faster")
    if budget != DEFAULT_MESSAGE_BUDGET.per_result:
        assert speedup >= TARGET_SPEEDUP
