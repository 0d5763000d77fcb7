"""A ledger of what shapeclip did in a session: one entry per tool result it looked at and per
clean-up, and the sums by tool.

A `Ledger` is one session. `record(report)` adds the entries of a `compress_messages` or
`microcompact` report. Given a `path`, each entry is also appended to that file as one JSON
line, so that `shapeclip ledger PATH` can print the session from another process, while it runs
or after it ended. Characters are counted as `len` counts them, tokens estimated as a quarter
of them, rounded up; a digest's tokens are those its API reported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from .json_text import parse
from .messages import CompressReport, MicrocompactReport
from .messages.budgets import TokenEstimates
from .result import DigestCall

#: The tool named by a microcompaction's entry, which clears results of many tools at once.
MICROCOMPACT = "(microcompact)"


@dataclass(frozen=True)
class LedgerEntry(TokenEstimates):
    """One tool result shapeclip looked at, or one microcompaction."""

    #: The tool's name ("?" when no call named it), or `MICROCOMPACT`.
    tool: str
    #: The planner, as `Compressed.shape` names it (several joined by "+"), or "fits",
    #: "exempt", or "microcompact".
    shape: str
    chars_in: int
    chars_out: int
    #: Tokens the digests of this result took in and gave out, as their API reported them.
    digest_tokens_in: int = 0
    digest_tokens_out: int = 0


def _digest_tokens(calls: Iterable[DigestCall | None]) -> tuple[int, int]:
    """Tokens in and out of these digest requests, under either SDK's names for them."""
    tokens_in = tokens_out = 0
    for call in calls:
        usage: Mapping[str, int] = (call.usage if call is not None else None) or {}
        tokens_in += usage.get("prompt_tokens", usage.get("input_tokens", 0))
        tokens_out += usage.get("completion_tokens", usage.get("output_tokens", 0))
    return tokens_in, tokens_out


def entries_of(report: CompressReport | MicrocompactReport) -> list[LedgerEntry]:
    """The ledger entries of one report: one per result, or one for an applied microcompaction."""
    if isinstance(report, MicrocompactReport):
        applied = [LedgerEntry(MICROCOMPACT, "microcompact", report.chars_before, report.chars_after)]
        return applied if report.applied else []
    return [
        LedgerEntry(
            result.tool or "?",
            result.shape,
            result.chars_in,
            result.chars_out,
            *_digest_tokens(compressed.digest for compressed in result.compressions),
        )
        for result in report.results
    ]


class Ledger:
    """The entries of one session, in the order recorded; with a `path`, kept in that file too."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.entries: list[LedgerEntry] = []
        self.path = None if path is None else Path(path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Ledger:
        """The session recorded in `path`, to print or add to. Raises `OSError` if it cannot be
        read and `ValueError` on a line that is not an entry."""
        ledger = cls(path)
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    ledger.entries.append(_entry(parse(line)))
                except ValueError as exc:
                    raise ValueError(f"{path}:{number}: not a ledger entry ({exc})") from None
        return ledger

    def record(self, report: CompressReport | MicrocompactReport) -> None:
        """Adds the entries of a `compress_messages` or `microcompact` report."""
        new = entries_of(report)
        self.entries.extend(new)
        if self.path is not None and new:
            with open(self.path, "a", encoding="utf-8") as file:
                file.write("".join(json.dumps(asdict(entry)) + "\n" for entry in new))

    def totals(self) -> dict[str, LedgerEntry]:
        """The sums by tool, in the order the tools first appear; each total's shape lists the
        shapes seen, joined by ", "."""
        sums: dict[str, LedgerEntry] = {}
        for entry in self.entries:
            seen = sums.get(entry.tool)
            sums[entry.tool] = entry if seen is None else _added(seen, entry)
        return sums

    def table(self) -> str:
        """The session as a table: a row per tool, a row for the microcompactions, and the total
        of the tools' rows (a microcompaction counts items whose results those rows count
        already; what it saved is its own row's)."""
        totals = self.totals()
        counts = {tool: sum(entry.tool == tool for entry in self.entries) for tool in totals}
        header = ("tool", "count", "shapes", "chars in", "chars out", "~tokens in", "~tokens out", "saved", "digest")
        rows = [_row(tool, counts[tool], total) for tool, total in totals.items()]
        overall = LedgerEntry("total", "", 0, 0)
        for tool, total in totals.items():
            overall = overall if tool == MICROCOMPACT else _added(overall, total)
        rows.append(_row("total", len(self.entries) - counts.get(MICROCOMPACT, 0), overall, shapes=False))
        widths = [max(len(cells[i]) for cells in [header, *rows]) for i in range(len(header))]
        return "".join(_line(cells, widths) for cells in [header, *rows])


def _entry(row: object) -> LedgerEntry:
    """The entry a JSON line holds; `ValueError` if it holds anything else."""
    kinds = {field.name: str if field.name in ("tool", "shape") else int for field in fields(LedgerEntry)}
    if not isinstance(row, dict) or not {"tool", "shape", "chars_in", "chars_out"} <= set(row) <= set(kinds):
        raise ValueError(f"expected the fields {', '.join(kinds)}")
    if not all(type(value) is kinds[name] for name, value in row.items()):
        raise ValueError("a field has the wrong type")
    return LedgerEntry(**row)


def _added(total: LedgerEntry, entry: LedgerEntry) -> LedgerEntry:
    shapes = total.shape.split(", ") if total.shape else []
    return LedgerEntry(
        total.tool,
        ", ".join(shapes if entry.shape in shapes else [*shapes, entry.shape]),
        total.chars_in + entry.chars_in,
        total.chars_out + entry.chars_out,
        total.digest_tokens_in + entry.digest_tokens_in,
        total.digest_tokens_out + entry.digest_tokens_out,
    )


def _line(cells: tuple[str, ...], widths: list[int]) -> str:
    """Names to the left, numbers to the right."""
    pairs = enumerate(zip(cells, widths, strict=True))
    aligned = [cell.ljust(width) if i in (0, 2) else cell.rjust(width) for i, (cell, width) in pairs]
    return "  ".join(aligned).rstrip() + "\n"


def _row(tool: str, count: int, total: LedgerEntry, shapes: bool = True) -> tuple[str, ...]:
    saved = 0 if not total.chars_in else round(100 * (total.chars_in - total.chars_out) / total.chars_in)
    return (
        tool,
        f"{count:,}",
        total.shape if shapes else "",
        f"{total.chars_in:,}",
        f"{total.chars_out:,}",
        f"{total.tokens_in:,}",
        f"{total.tokens_out:,}",
        f"{saved}%",
        f"{total.digest_tokens_in + total.digest_tokens_out:,}",
    )
