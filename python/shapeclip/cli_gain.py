"""`shapeclip gain`: what shapeclip saved, summed from the savings ledger (see `savings`).

Every output the command line, a hook or the MCP server cut is a record of its characters in
and out; every `show` a record of the characters it gave back, which an agent read after all.
So what was saved is what went in, less what came out and what was given back. It is summed
in all, per tool, per day (local time) and per project (the directory the command ran in, or
the one the hook's event names), in characters and in estimated tokens, a quarter of the
characters rounded up, as the markers estimate them. Lines of the ledger that are not records
(a torn write, another program's) are counted and skipped.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from . import savings
from .cli_numbers import positive
from .cli_store import _cell
from .json_text import parse
from .messages.budgets import estimate_tokens

_COUNTS = ("chars_in", "chars_out", "given_back")


@dataclass
class Totals:
    """What one group of records sums to."""

    compressions: int = 0
    shows: int = 0
    chars_in: int = 0
    chars_out: int = 0
    chars_given_back: int = 0

    def add(self, record: dict[str, Any]) -> None:
        if "given_back" in record:
            self.shows += 1
            self.chars_given_back += record["given_back"]
        else:
            self.compressions += 1
            self.chars_in += record["chars_in"]
            self.chars_out += record["chars_out"]

    def as_dict(self) -> dict[str, int]:
        tokens_in, tokens_out = estimate_tokens(self.chars_in), estimate_tokens(self.chars_out)
        tokens_given_back = estimate_tokens(self.chars_given_back)
        return {
            "compressions": self.compressions,
            "shows": self.shows,
            "chars_in": self.chars_in,
            "chars_out": self.chars_out,
            "chars_given_back": self.chars_given_back,
            "chars_saved": self.chars_in - self.chars_out - self.chars_given_back,
            "tokens_in": tokens_in,
            "tokens_out": tokens_out,
            "tokens_given_back": tokens_given_back,
            # The difference of the estimates, so that the token columns add up as printed.
            "tokens_saved": tokens_in - tokens_out - tokens_given_back,
        }


def _is_record(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    when = value.get("time")
    # Within the years `time.localtime` can name: a NaN or a huge number would stop the sums.
    if isinstance(when, bool) or not isinstance(when, int | float) or not 0 <= when < 1e11:
        return False
    if not all(isinstance(value.get(key), str | None) for key in ("tool", "cwd")):
        return False
    counts = [value[key] for key in _COUNTS if key in value]
    kind = set(value) & set(_COUNTS)
    if kind not in ({"chars_in", "chars_out"}, {"given_back"}):
        return False
    return all(type(count) is int and count >= 0 for count in counts)


def read_records(path: str) -> tuple[list[dict[str, Any]], int]:
    """The records of the ledger at `path`, the previous file's first, and how many lines
    were skipped as not records. A missing file has none."""
    records: list[dict[str, Any]] = []
    skipped = 0
    for name in (path + savings.PREVIOUS, path):
        try:
            with open(name, "rb") as file:
                lines = file.readlines()
        except FileNotFoundError:
            continue
        for line in lines:
            try:
                value = parse(line)
            except ValueError:
                value = None
            if _is_record(value):
                records.append(value)
            else:
                skipped += 1
    return records, skipped


def _day(record: dict[str, Any]) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(record["time"]))


def _grouped(records: list[dict[str, Any]], key: Callable[[dict[str, Any]], str]) -> dict[str, Totals]:
    groups: dict[str, Totals] = {}
    for record in records:
        groups.setdefault(key(record), Totals()).add(record)
    return groups


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The records' totals, and per tool and per project (most saved first) and per day (oldest first)."""
    total = Totals()
    for record in records:
        total.add(record)
    groups = {
        "tool": _grouped(records, lambda record: record["tool"] or "?"),
        "day": _grouped(records, _day),
        "project": _grouped(records, lambda record: record["cwd"] or "?"),
    }
    out: dict[str, Any] = {"total": total.as_dict()}
    for name, group in groups.items():
        rows: list[dict[str, Any]] = [{name: key, **totals.as_dict()} for key, totals in group.items()]
        rows.sort(key=(lambda row: row["day"]) if name == "day" else (lambda row: -row["chars_saved"]))
        out[f"by_{name}"] = rows
    return out


_COLUMNS = (
    ("CUTS", "compressions"),
    ("SHOWS", "shows"),
    ("CHARS IN", "chars_in"),
    ("CHARS OUT", "chars_out"),
    ("GIVEN BACK", "chars_given_back"),
    ("CHARS SAVED", "chars_saved"),
    ("TOKENS IN", "tokens_in"),
    ("TOKENS OUT", "tokens_out"),
    ("TOKENS SAVED", "tokens_saved"),
)


def table(result: dict[str, Any]) -> str:
    """The summary as one aligned table: the total, then a section per grouping."""
    rows = [("", *(title for title, _ in _COLUMNS), "SAVED")]
    sections = [("total", [result["total"]])] + [
        (f"by {name}", [(row[name], row) for row in result[f"by_{name}"]]) for name in ("tool", "day", "project")
    ]
    for title, group in sections:
        if title == "total":
            rows.append(_row("total", result["total"]))
            continue
        rows.append((title + ":",))
        rows.extend(_row("  " + _cell(str(name), tail=True), totals) for name, totals in group)
    widths = [max(len(row[i]) for row in rows if len(row) > i) for i in range(len(rows[0]))]
    lines = []
    for name, *cells in rows:
        shown = [name.ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(cells, widths[1:], strict=False))]
        lines.append("  ".join(shown).rstrip() + "\n")
    return "".join(lines)


def _row(name: str, totals: dict[str, int]) -> tuple[str, ...]:
    share = f"{100 * totals['chars_saved'] / totals['chars_in']:.1f}%" if totals["chars_in"] else "-"
    return (name, *(f"{totals[key]:,}" for _, key in _COLUMNS), share)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip gain",
        description="What shapeclip saved: characters and estimated tokens (a quarter of the characters) in and out "
        "of every output the command line, a hook or the MCP server cut, less what shapeclip show gave back; "
        "in all, per tool, per day and per project. The ledger is "
        f"${savings.ENV_VAR} (a path, or {savings.OFF} to keep none), else beside the store.",
    )
    parser.add_argument("--days", metavar="N", type=positive("days"), help="only the last N days, today included")
    parser.add_argument("--json", action="store_true", help="print the sums as one JSON object")
    return parser


def _since(days: int | None, records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    if days is None:
        yield from records
        return
    first = (datetime.date.today() - datetime.timedelta(days=days - 1)).isoformat()
    yield from (record for record in records if _day(record) >= first)


def gain(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    path = savings.ledger_path()
    if path is None:
        sys.stderr.write(f"shapeclip gain: no ledger is kept ({savings.ENV_VAR}={savings.OFF})\n")
        return 1
    try:
        records, skipped = read_records(path)
    except OSError as exc:
        sys.stderr.write(f"shapeclip gain: cannot read {path}: {exc.strerror or exc}\n")
        return 1
    result = {"ledger": path, "days": args.days, "skipped_lines": skipped, **summary(list(_since(args.days, records)))}
    if args.json:
        print(json.dumps(result))
        return 0
    shown = path if path.isprintable() else repr(path)[1:-1]
    period = "" if args.days is None else f", the last {args.days} day{'s' if args.days > 1 else ''}"
    skipped_note = f"; {skipped:,} lines skipped as not records" if skipped else ""
    sys.stdout.write(f"shapeclip gain: {shown}{period}{skipped_note}\n")
    total = result["total"]
    if total["compressions"] + total["shows"] == 0:
        sys.stdout.write("nothing recorded yet\n")
    else:
        sys.stdout.write("\n" + table(result))
    return 0
