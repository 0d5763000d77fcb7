"""The public entry points: `compress`, `compress_detailed` and the streaming `Compressor`.

The work runs in the native core when it loaded. A stream is also fed to the bounded
pure-Python clip, so that if the core fails on some input (a panic is caught and raised as
`EngineError`) the caller still gets an honest, budget-bound result for everything it gave.
Arguments are checked here, before the core sees them: a bad argument raises, data never does.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from . import fallback
from .profiles import Profile, profile_for

try:
    from . import _core
except ImportError:  # the facade still works, with the pure-Python clip
    _core = None  # type: ignore[assignment]

log = logging.getLogger("shapeclip")

DEFAULT_BUDGET = 16_000
# The core counts in 64 bits; a budget past any input's length acts like this one.
_MAX_BUDGET = 2**62
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_warned = False


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning("%s; using the pure-Python clip", message)


def backend() -> str:
    """`"native"` when the Rust core is loaded, else `"python"`."""
    return "native" if _core is not None else "python"


@dataclass(frozen=True)
class Compressed:
    """A compression's text and the facts about it."""

    text: str
    #: "passthrough" (fitted, unchanged) or the planner used: "clip".
    shape: str
    #: "native" or "python": which backend produced `text`.
    backend: str
    input_chars: int
    input_lines: int
    omitted_chars: int
    omitted_lines: int
    #: 1-based inclusive line ranges with at least one omitted character.
    omitted_ranges: tuple[tuple[int, int], ...]

    @property
    def output_chars(self) -> int:
        return len(self.text)


def _check_budget(budget: object) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"budget must be an int (a number of characters, at least 1), not {type(budget).__name__}")
    if budget < 1:
        raise ValueError(f"budget must be at least 1 character, got {budget}")
    return min(budget, _MAX_BUDGET)


def _check_tool(tool_name: object) -> str | None:
    if tool_name is not None and not isinstance(tool_name, str):
        raise TypeError(f"tool_name must be a str or None, not {type(tool_name).__name__}")
    return tool_name


def _check_chunk(chunk: object, what: str) -> str | bytes:
    if not isinstance(chunk, (str, bytes)):
        raise TypeError(f"{what} must be str or bytes, not {type(chunk).__name__}")
    return chunk


def _line_count(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


# A panic that escaped the core's own guard arrives as PanicException, a BaseException.
_NativeFailure: tuple[type[BaseException], ...] = (Exception,) if _core is None else (Exception, _core.PanicException)


def _start_core(budget: int, profile: Profile, tool: str | None) -> _core.Compressor | None:
    if _core is None:
        _warn_once("shapeclip._core could not be imported")
        return None
    head, tail = profile.weights()
    try:
        core = _core.Compressor(budget, profile.kind, tool, head, tail)
    except _NativeFailure as exc:
        _warn_once(f"the native core failed to start ({exc!r})")
        return None
    return core


def _clean(chunk: str | bytes) -> str | bytes:
    if isinstance(chunk, str) and not chunk.isascii() and _LONE_SURROGATE.search(chunk):
        # A lone surrogate cannot be encoded; U+FFFD keeps every count the same.
        return _LONE_SURROGATE.sub("\ufffd", chunk)
    return chunk


def _from_report(report: _core.Report, budget: int) -> Compressed | None:
    """The core's result, unless it broke the budget (then the caller falls back)."""
    if len(report.text) > budget:
        _warn_once("the native core exceeded the budget")
        return None
    return Compressed(
        report.text,
        report.shape,
        "native",
        report.input_chars,
        report.input_lines,
        report.omitted_chars,
        report.omitted_lines,
        tuple(report.omitted_ranges),
    )


def _from_clip(result: fallback.ClipResult, budget: int) -> Compressed:
    span = result.span
    if len(result.text) > budget:
        # Both backends broke the bound, which is a bug; the bound still holds for the caller.
        log.error("shapeclip exceeded the budget of %d characters; returning a bare ellipsis", budget)
        lines = result.input_lines
        return Compressed(
            "\u2026", "clip", "python", result.input_chars, lines, result.input_chars, lines, ((1, lines),)
        )
    if span is None:
        return Compressed(result.text, "passthrough", "python", result.input_chars, result.input_lines, 0, 0, ())
    return Compressed(
        result.text,
        "clip",
        "python",
        result.input_chars,
        result.input_lines,
        span.chars,
        span.lines,
        ((span.first, span.last),),
    )


class Compressor:
    """Compresses a stream: `feed` chunks of `str` or `bytes` (decoded as UTF-8, invalid bytes
    replaced, characters split across chunks joined), then `finish` once. Memory is bounded by
    the budget, whatever the stream's length. `compress(text)` gives what one `feed` of `text`
    and a `finish` give.
    """

    def __init__(self, tool_name: str | None = None, budget: int = DEFAULT_BUDGET) -> None:
        self._budget = _check_budget(budget)
        tool = _check_tool(tool_name)
        profile = profile_for(tool)
        # Fed alongside the core: the core's state cannot be recovered after a failure, and the
        # caller's chunks are gone by then.
        self._shadow = fallback.Clipper(self._budget, profile, tool)
        self._core = _start_core(self._budget, profile, tool)
        self._finished = False

    def _check_open(self) -> None:
        if self._finished:
            raise RuntimeError("this Compressor has already finished; make a new one")

    def feed(self, chunk: str | bytes) -> None:
        """Adds the next chunk of the output."""
        chunk = _clean(_check_chunk(chunk, "chunk"))
        self._check_open()
        if self._core is not None:
            try:
                self._core.feed(chunk)
            except _NativeFailure as exc:
                _warn_once(f"the native core failed on this input ({exc!r})")
                self._core = None
        self._shadow.feed(chunk)

    def finish(self) -> str:
        """The compressed text: at most `budget` characters."""
        return self.finish_detailed().text

    def finish_detailed(self) -> Compressed:
        """The compressed text with the facts about it."""
        self._check_open()
        self._finished = True
        if self._core is not None:
            try:
                result = _from_report(self._core.finish(), self._budget)
            except _NativeFailure as exc:
                _warn_once(f"the native core failed on this input ({exc!r})")
            else:
                if result is not None:
                    return result
        return _from_clip(self._shadow.finish(), self._budget)


def compress_detailed(text: str | bytes, tool_name: str | None = None, budget: int = DEFAULT_BUDGET) -> Compressed:
    """Like `compress`, with the facts about the result."""
    text = _check_chunk(text, "text")
    checked_budget = _check_budget(budget)
    tool = _check_tool(tool_name)
    if isinstance(text, str) and len(text) <= checked_budget:
        return Compressed(text, "passthrough", backend(), len(text), _line_count(text), 0, 0, ())
    text = _clean(text)
    profile = profile_for(tool)
    core = _start_core(checked_budget, profile, tool)
    if core is not None:
        try:
            core.feed(text)
            result = _from_report(core.finish(), checked_budget)
        except _NativeFailure as exc:
            _warn_once(f"the native core failed on this input ({exc!r})")
        else:
            if result is not None:
                return result
    clipper = fallback.Clipper(checked_budget, profile, tool)
    clipper.feed(text)
    return _from_clip(clipper.finish(), checked_budget)


def compress(text: str | bytes, tool_name: str | None = None, budget: int = DEFAULT_BUDGET) -> str:
    """Compresses one tool output to at most `budget` characters (code points, as `len` counts).

    Output that fits is returned unchanged (the same object, for a `str`). Otherwise the result
    keeps what the output's shape says matters and labels every cut with a marker that states
    exactly which lines were omitted and how to get them back. The same arguments always give
    the same result. `bytes` are decoded as UTF-8 with invalid bytes replaced.
    """
    return compress_detailed(text, tool_name, budget).text
