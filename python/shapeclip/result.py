"""What a compression gives back: `Compressed`, the `DigestRequest` it carries while a digest
is due, and the `DigestCall` it records once one was asked.

They sit below both the facade (`api`), which makes them, and the digest (`digest`), which
asks the model and writes its answer into them, so neither has to import the other, and
loading a result loads no digest machinery.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .store import Entry


@dataclass(frozen=True)
class DigestRequest:
    """What a digest of one compressed result needs, and where its answer goes."""

    #: The omitted part as the model reads it: at most 24,000 characters of its lines, those
    #: with error or warning words first, then a spread of the rest, each with its line number.
    sample: str
    #: The tool's name as the model is told it ("" when none was given).
    tool_name: str
    #: Characters the answer may take, after the lead " Digest of the omitted part: ".
    room: int
    #: The offset in the result's text where the lead and the answer are written.
    at: int


@dataclass(frozen=True)
class DigestCall:
    """One digest request: what went in and out, what it cost, and whether it was used."""

    chars_in: int
    chars_out: int
    usage: Mapping[str, int] | None
    latency_s: float
    cached: bool
    #: True when the plain marker was used instead; `reason` says why.
    fell_back: bool
    reason: str | None = None


@dataclass(frozen=True)
class Compressed:
    """A compression's text and the facts about it."""

    text: str
    #: "passthrough" (fitted, unchanged) or the planner used: "clip", or another of the core's
    #: shapes (`shapeclip._core.SHAPES` names them all); or "failed" when the core failed on a
    #: stream that was not stored, so that nothing of it could be kept or counted (the counts
    #: below are then 0, and the text says so).
    shape: str
    #: "native" or "python": which backend produced `text`.
    backend: str
    input_chars: int
    input_lines: int
    omitted_chars: int
    omitted_lines: int
    #: 1-based inclusive line ranges with at least one omitted character.
    omitted_ranges: tuple[tuple[int, int], ...]
    #: The digest's call, once one was made (see `shapeclip.digest`).
    digest: DigestCall | None = None
    #: The stored copy of the input that the markers point into, when a store was given.
    stored: Entry | None = None
    #: Why a store was given but the input is not stored (then markers do not mention it).
    store_error: str | None = None
    #: What the digest needs, while one is due: a digest was given, the plan left it room, and
    #: it has not been asked (`shapeclip.digest.apply` asks it and clears this).
    digest_request: DigestRequest | None = None

    @property
    def output_chars(self) -> int:
        return len(self.text)
