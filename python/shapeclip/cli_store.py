"""`shapeclip store`: looking after the store of full outputs (its size, its entries, pruning
and clearing it), and the way in to `shapeclip show` (see `cli_show`), which reads them.

A store that cannot be used, or a file it could not remove, is an error with exit status 1
that says why.
"""

from __future__ import annotations

import argparse
import sys
import time

from .store import Entry, Refused, Store

#: Characters a cell of `store --list` shows at most.
_CELL_CHARS = 60


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
    if argv[0] == "show":
        from .cli_show import show

        return show(argv[1:])
    return store_command(argv[1:])
