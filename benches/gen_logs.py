"""Deterministic generators of large tool outputs for the benchmarks.

`build_log(n_bytes)` writes a build/test log of about `n_bytes`: mostly "compiling ... ok"
lines, with about 1% error lines, Python tracebacks and repeated warnings spread through it.
Run as a script to write one to a file: `python benches/gen_logs.py 100MB out.log`.
"""

from __future__ import annotations

import random
import sys

_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/worker.py", line {n}, in run\n'
    "    result = handler(job)\n"
    '  File "/srv/app/handlers.py", line {m}, in handler\n'
    "    raise ValueError(f'bad job {{job.id}}')\n"
    "ValueError: bad job {n}\n"
)


def build_log(n_bytes: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    i = 0
    while size < n_bytes:
        i += 1
        roll = rng.random()
        if roll < 0.006:
            where = f"src/module_{i % 997}.c:{rng.randint(1, 4000)}:{rng.randint(1, 80)}"
            line = f"{where}: error: expected ';' before '}}'\n"
        elif roll < 0.01:
            line = _TRACEBACK.format(n=i, m=rng.randint(1, 900))
        elif roll < 0.05:
            line = f"src/module_{i % 997}.c:{rng.randint(1, 4000)}: warning: unused variable 'tmp{i % 13}'\n"
        else:
            line = f"[{i:08}] compiling src/module_{i % 997}.c ... ok ({rng.randint(1, 999)} ms)\n"
        parts.append(line)
        size += len(line)
    return "".join(parts)


def parse_size(text: str) -> int:
    units = {"KB": 10**3, "MB": 10**6, "GB": 10**9}
    for unit, factor in units.items():
        if text.upper().endswith(unit):
            return int(float(text[: -len(unit)]) * factor)
    return int(text)


if __name__ == "__main__":
    size, out = parse_size(sys.argv[1]), sys.argv[2]
    with open(out, "w", encoding="utf-8") as f:
        f.write(build_log(size))
