"""The `shapeclip batch` command: its arguments, and which reader (JSONL or Parquet) does the
work (`batch`, `batch_parquet`)."""

from __future__ import annotations

import argparse
import os
import sys

from .batch import Tally, compress_lines
from .cli_numbers import positive
from .messages import DEFAULT_MESSAGE_BUDGET

#: How an input file's name ends when it is Parquet, not JSONL (`batch_parquet`).
PARQUET = ".parquet"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip batch",
        description="Compress the tool results of recorded conversations, one per line of a JSONL file "
        "(or per row of a .parquet file's messages or input column), as compress_messages does when each "
        "result is appended.",
    )
    parser.add_argument(
        "input", metavar="IN", help="JSONL file of conversations, or a .parquet file; - reads JSONL from standard input"
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", default="-", help="where to write them (default: stdout; Parquet needs a file)"
    )
    parser.add_argument(
        "--budget",
        type=positive("characters"),
        default=None,
        help=f"characters per tool result (default {DEFAULT_MESSAGE_BUDGET.per_result:,}; a turn's results share "
        f"{DEFAULT_MESSAGE_BUDGET.per_turn // DEFAULT_MESSAGE_BUDGET.per_result} times it)",
    )
    parser.add_argument(
        "--workers",
        type=positive("processes"),
        default=len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1,
        help="processes compressing conversations at once (default: the cores this process may use)",
    )
    return parser


def run(argv: list[str]) -> int:
    import contextlib

    parser = _parser()
    args = parser.parse_args(argv)
    budget = DEFAULT_MESSAGE_BUDGET if args.budget is None else args.budget
    if args.input.endswith(PARQUET):
        from .batch_parquet import compress_parquet

        return compress_parquet(args.input, args.output, args.workers, budget, parser)
    with contextlib.ExitStack() as files:
        try:
            source = sys.stdin.buffer if args.input == "-" else files.enter_context(open(args.input, "rb"))
            sink = sys.stdout.buffer if args.output == "-" else files.enter_context(open(args.output, "wb"))
        except OSError as exc:
            parser.error(f"cannot open {exc.filename}: {exc.strerror}")
        # Split at b"\n" only, so that a line that is not changed is written back as it was.
        lines = (raw.decode("utf-8", "replace") for raw in source)
        tally = Tally("line")
        try:
            for line in compress_lines(lines, args.workers, budget):
                sink.write(line.text.encode("utf-8"))
                tally.count(line)
        except KeyboardInterrupt:
            sink.flush()
            return tally.interrupted()
        return tally.done()
