"""The `shapeclip batch` command: its arguments, and which reader does the work: Parquet
(`batch_parquet`), a JSONL file shared out by byte ranges (`batch_ranges`), or JSONL streamed
(`batch`)."""

from __future__ import annotations

import argparse
import os
import sys

from . import batch_ranges
from .batch import Tally, usable_cores, write_lines
from .cli_numbers import positive
from .messages import DEFAULT_MESSAGE_BUDGET

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from .messages import Budget

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
        default=usable_cores(),
        help="processes compressing conversations at once (default: the cores this process may use)",
    )
    return parser


def run(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    budget = DEFAULT_MESSAGE_BUDGET if args.budget is None else args.budget
    if _same_file(args.input, args.output):
        parser.error("OUT is IN itself: writing it would empty it before it is read; write to another file")
    if args.input.endswith(PARQUET):
        from .batch_parquet import compress_parquet

        return compress_parquet(args.input, args.output, args.workers, budget, parser)
    return compress_jsonl(args.input, args.output, args.workers, budget, parser)


def _same_file(source: str, target: str) -> bool:
    """Whether writing `target` would overwrite the file `source` (- for standard input) reads."""
    if target == "-":
        return False
    try:
        given = os.fstat(sys.stdin.fileno()) if source == "-" else os.stat(source)
        out = os.stat(target)
    except (OSError, ValueError, AttributeError):  # no such file yet, or no standard input
        return False
    return (given.st_dev, given.st_ino) == (out.st_dev, out.st_ino)


def compress_jsonl(
    source: str, target: str, workers: int, budget: Budget | int, parser: argparse.ArgumentParser
) -> int:
    """Compresses the conversations of the JSONL file `source` (- for standard input) into
    `target` (- for standard output) and returns the exit status; errors in the arguments or
    the files go to `parser.error`. A regular file on several workers is shared out by byte
    ranges (`batch_ranges`); anything else streams through `write_lines`."""
    import contextlib
    from concurrent.futures.process import BrokenProcessPool

    with contextlib.ExitStack() as files:
        try:
            given = sys.stdin.buffer if source == "-" else files.enter_context(open(source, "rb"))
            sink = sys.stdout.buffer if target == "-" else files.enter_context(open(target, "wb"))
        except OSError as exc:
            parser.error(f"cannot open {exc.filename}: {exc.strerror}")
        tally = Tally("line")
        try:
            if workers > 1 and source != "-" and batch_ranges.splittable(given):
                batch_ranges.compress_file(source, given, sink, workers, budget, tally)
            else:
                write_lines(given, sink, workers, budget, tally)
        except KeyboardInterrupt:
            sink.flush()
            return tally.interrupted()
        except BrokenProcessPool:
            sink.flush()
            return tally.failed("a worker process ended before its work was done")
        return tally.done()
