"""`shapeclip show` and `shapeclip store`: reading stored outputs back, and looking after the
store.

`show` prints exactly the lines a marker names, numbered as the marker numbers them, so an
agent gets the omitted part and nothing else; `--grep` prints matching lines as `grep -n`
does, with `-C` lines of context. A missing entry is an error with exit status 1 and says
what to do, since a store evicts by design.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator

from .api import compress
from .store import EVICTED, Entry, Evicted, Refused, Store
from .store.store import numbered

#: Characters a cell of `store --list` shows at most.
_CELL_CHARS = 60


def _line_range(value: str) -> tuple[int, int]:
    first, sep, last = value.partition(":")
    try:
        a = int(first)
        b = int(last) if sep else a
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be A:B, two line numbers, got {value!r}") from None
    if a < 1 or b < a:
        raise argparse.ArgumentTypeError(f"must be 1-based and in order, got {value!r}")
    return a, b


def _pattern(value: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"is not a valid regular expression: {exc}") from None


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"must be a whole number of lines, got {value!r}")
    return int(value)


def _show_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip show",
        description="Print lines of a stored output, numbered as in the marker that names it.",
    )
    parser.add_argument("id", metavar="ID", help="the entry's ID, as the marker prints it")
    parser.add_argument("--lines", metavar="A:B", type=_line_range, help="lines A to B (1-based, inclusive)")
    parser.add_argument("--grep", metavar="PATTERN", type=_pattern, help="lines matching a Python regular expression")
    parser.add_argument("-C", metavar="N", dest="context", type=_count, default=0, help="context lines for --grep")
    parser.add_argument("--budget", metavar="N", type=_count, help="compress what is printed to N characters")
    return parser


def _store_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shapeclip store", description="Look after the store of full outputs.")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--stats", action="store_true", help="where it is, its entries and size (the default)")
    action.add_argument(
        "--list", action="store_true", help="every entry, newest first: ID, time, tool, command, directory, size"
    )
    action.add_argument("--prune", action="store_true", help="remove what dead writers left; evict down to the quota")
    action.add_argument("--clear", action="store_true", help="remove every entry")
    return parser


def grep_lines(lines: Iterable[tuple[int, str]], pattern: re.Pattern[str], context: int) -> Iterator[str]:
    """`grep -n -C context` over numbered lines: `N:line` for a match, `N-line` around one,
    and with context, `--` between groups that do not touch (grep prints none without)."""
    before: deque[tuple[int, str]] = deque(maxlen=context)
    after = 0
    last_shown = 0
    for number, line in lines:
        text = line.rstrip("\n")
        if pattern.search(text):
            for n, held in before:
                yield from _row(n, "-", held, last_shown, context)
                last_shown = n
            before.clear()
            yield from _row(number, ":", text, last_shown, context)
            last_shown, after = number, context
        elif after > 0:
            yield from _row(number, "-", text, last_shown, context)
            last_shown, after = number, after - 1
        elif context:
            before.append((number, text))


def _row(number: int, sep: str, text: str, last_shown: int, context: int) -> Iterator[str]:
    if context and last_shown and number > last_shown + 1:
        yield "--\n"
    yield f"{number}{sep}{text}\n"


def _selected(store: Store, args: argparse.Namespace) -> str:
    first, last = args.lines if args.lines else (1, None)
    with store.opened(args.id) as (_, file):
        lines = numbered(file, first, last)
        if args.grep is not None:
            return "".join(grep_lines(lines, args.grep, args.context))
        return "".join(line for _, line in lines)


def show(argv: list[str]) -> int:
    args = _show_parser().parse_args(argv)
    store = Store()
    try:
        text = _selected(store, args)
    except Evicted:
        sys.stderr.write(f"shapeclip show: no entry {args.id} in {store.path}: {EVICTED}\n")
        return 1
    if args.budget is not None:
        text = compress(text, "command", args.budget)
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0


def store_command(argv: list[str]) -> int:
    args = _store_parser().parse_args(argv)
    store = Store()
    try:
        if args.clear:
            print(f"removed {store.clear():,} files from {store.path}")
        elif args.prune:
            print(f"removed {store.prune():,} files from {store.path}")
        elif args.list:
            sys.stdout.write(_table(store.entries()))
        else:
            stats = store.stats()
            entries = "entry" if stats.entries == 1 else "entries"
            print(f"{stats.path}: {stats.entries:,} {entries}, {stats.bytes:,} of {stats.max_bytes:,} bytes")
    except Refused as exc:
        sys.stderr.write(f"shapeclip store: {exc}\n")
        return 1
    return 0


def _cell(text: str | None, *, tail: bool = False) -> str:
    """`text` on one line of at most `_CELL_CHARS`, escapes shown as escapes, cut at its end
    (at its start when its `tail` says more, as a directory's does); `-` for none."""
    if not text:
        return "-"
    shown = text if text.isprintable() else repr(text)[1:-1]
    if len(shown) <= _CELL_CHARS:
        return shown
    return "\u2026" + shown[1 - _CELL_CHARS :] if tail else shown[: _CELL_CHARS - 1] + "\u2026"


def _table(entries: list[Entry]) -> str:
    """The entries as aligned columns under a header line."""
    rows = [("ID", "STORED", "TOOL", "COMMAND", "DIRECTORY", "SIZE")]
    for entry in entries:
        stored = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.stored_at))
        rows.append(
            (entry.id, stored, _cell(entry.tool), _cell(entry.command), _cell(entry.cwd, tail=True), f"{entry.size:,}")
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = ("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows)
    return "".join(line + "\n" for line in lines)


def run(argv: list[str]) -> int:
    """Runs `show` or `store`, named by `argv[0]`."""
    return show(argv[1:]) if argv[0] == "show" else store_command(argv[1:])
