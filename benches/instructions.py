"""The core's instructions per byte of each real output (issue 30), counted by callgrind.

Timings on a shared two-core machine swing by 40% from one run to the next; the instructions a
compression executes move by a fraction of a percent, so they show what a change to the core's
per-line work costs on any machine. Each real output that `test_bench_real.py` plans (the same
cases) is repeated to `--mb` megabytes and compressed once, as bytes, under the tool that
printed it, by a Python under `valgrind --tool=callgrind --fair-sched=yes` (the threads take
turns, so the counts repeat); the same run without the compression is subtracted, which leaves
the work of the binding, the engine and its look-ahead thread.

    python benches/instructions.py                  # every case
    python benches/instructions.py mypy Scala       # the cases whose names hold these words
    python benches/instructions.py --python OTHER   # another build's Python, same cases

Two runs at a time, each one core's work. Needs valgrind.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from test_bench_real import BUDGET, PLANNED, Case

CHILD = """
import sys
path, tool, size, compress = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
import shapeclip
text = open(path, "rb").read().decode("utf-8", errors="replace")
text = text if text.endswith("\\n") else text + "\\n"
data = (text * -(-size // len(text.encode()))).encode()
if compress:
    shapeclip.compress(data, tool, {budget})
print(len(data))
"""


def instructions(python: str, case: Case, size: int, compress: bool) -> tuple[int, int]:
    """The instructions of one run, and the bytes it made."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--fair-sched=yes",
            "--callgrind-out-file=/dev/null",
            python,
            "-c",
            CHILD.format(budget=BUDGET),
            str(case.path),
            case.tool,
            str(size),
            "1" if compress else "0",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", run.stderr)
    assert collected, run.stderr
    return int(collected.group(1)), int(run.stdout)


def per_byte(python: str, case: Case, size: int) -> float:
    with_it, n_bytes = instructions(python, case, size, True)
    without, _ = instructions(python, case, size, False)
    return (with_it - without) / n_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("words", nargs="*", help="time only the cases whose names hold one of these")
    parser.add_argument("--python", default=sys.executable, help="the Python whose shapeclip is counted")
    parser.add_argument("--mb", type=float, default=4, help="megabytes each output is repeated to")
    args = parser.parse_args()
    cases = [
        case
        for cases in PLANNED.values()
        for case in cases
        if not args.words or any(word in case.name for word in args.words)
    ]
    size = int(args.mb * 1e6)
    with ThreadPoolExecutor(2) as pool:
        counts = list(pool.map(lambda case: per_byte(args.python, case, size), cases))
    print(f"instructions per byte, {args.mb:g} MB as bytes, {args.python}")
    for case, count in zip(cases, counts, strict=True):
        print(f"  {case.name:<55} {case.tool:<10} {count:7.1f}")


if __name__ == "__main__":
    main()
