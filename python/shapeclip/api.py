"""The public entry points: `compress`, `acompress`, `compress_detailed` and `Compressor`.

The work runs in the native core when it loaded. A stream is also fed to the bounded
pure-Python clip, so that if the core fails on some input (a panic is caught and raised as
`EngineError`) the caller still gets an honest, budget-bound result for everything it gave.
Arguments are checked here, before the core sees them: a bad argument raises, data never does.
A digest, when given, is asked after planning and written into the plan's marker.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from . import DEFAULT_BUDGET as DEFAULT_BUDGET
from . import DEFAULT_DIGEST_TIMEOUT, fallback
from .profiles import Profile, profile_for
from .store import Entry, Store
from .store.keep import Keeper, Kept

if TYPE_CHECKING:  # imported where used: the digest's machinery only when a digest is given
    import logging

    from .digest import run as digest_run
    from .digest.run import DigestCall, DigestFn

try:
    from . import _core
except ImportError:  # the facade still works, with the pure-Python clip
    _core = None  # type: ignore[assignment]


def _log() -> logging.Logger:
    import logging  # only when something is logged: the command line seldom logs anything

    return logging.getLogger("shapeclip")


# The core counts in 64 bits; a budget past any input's length acts like this one.
_MAX_BUDGET = 2**62
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_warned = False
# A panic that escaped the core's own guard arrives as PanicException, a BaseException.
_NativeFailure: tuple[type[BaseException], ...] = (Exception,) if _core is None else (Exception, _core.PanicException)


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        _log().warning("%s; using the pure-Python clip", message)


def backend() -> str:
    """`"native"` when the Rust core is loaded, else `"python"`."""
    return "native" if _core is not None else "python"


@dataclass(frozen=True)
class Compressed:
    """A compression's text and the facts about it."""

    text: str
    #: "passthrough" (fitted, unchanged) or the planner used: "clip", "search" or "log".
    shape: str
    #: "native" or "python": which backend produced `text`.
    backend: str
    input_chars: int
    input_lines: int
    omitted_chars: int
    omitted_lines: int
    #: 1-based inclusive line ranges with at least one omitted character.
    omitted_ranges: tuple[tuple[int, int], ...]
    #: The digest request, when one was made (see `shapeclip.digest`).
    digest: DigestCall | None = None
    #: The stored copy of the input that the markers point into, when a store was given.
    stored: Entry | None = None
    #: Why a store was given but the input is not stored (then markers do not mention it).
    store_error: str | None = None

    @property
    def output_chars(self) -> int:
        return len(self.text)


@dataclass(frozen=True)
class _Options:
    """Checked arguments of one compression."""

    budget: int
    tool: str | None
    profile: Profile
    digest: DigestFn | None
    digest_timeout: float
    digest_cache: MutableMapping[str, str] | None  # None: the shared default cache
    store: Store | None

    def digest_room(self) -> int:
        """Characters clip and log plans leave free for a digest: an eighth of the budget, at
        most 1,200 (a 120-word paragraph), none under a budget of 800."""
        if self.digest is None or self.budget < 800:
            return 0
        return min(self.budget // 8, 1_200)


def _options(
    tool_name: object,
    budget: object,
    digest: object,
    digest_timeout: object,
    digest_cache: object,
    store: object,
) -> _Options:
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"budget must be an int (a number of characters, at least 1), not {type(budget).__name__}")
    if budget < 1:
        raise ValueError(f"budget must be at least 1 character, got {budget}")
    if tool_name is not None and not isinstance(tool_name, str):
        raise TypeError(f"tool_name must be a str or None, not {type(tool_name).__name__}")
    if digest is not None and not callable(digest):
        raise TypeError("digest must be a callable (omitted_text, tool_name) -> str | None, or None")
    if isinstance(digest_timeout, bool) or not isinstance(digest_timeout, (int, float)):
        raise TypeError(f"digest_timeout must be a number of seconds, not {type(digest_timeout).__name__}")
    if not digest_timeout > 0:
        raise ValueError(f"digest_timeout must be more than 0 seconds, got {digest_timeout}")
    if digest_cache is not None and not isinstance(digest_cache, MutableMapping):
        raise TypeError("digest_cache must be a mutable mapping (like a dict), or None")
    if store is not None and not isinstance(store, Store):
        raise TypeError(f"store must be a shapeclip.Store or None, not {type(store).__name__}")
    return _Options(
        min(budget, _MAX_BUDGET),
        tool_name,
        profile_for(tool_name),
        digest,
        float(digest_timeout),
        digest_cache,
        store,
    )


def check_options(digest: object, digest_timeout: object, digest_cache: object, store: object) -> None:
    """Raises as `compress` does on a bad `digest`, `digest_timeout`, `digest_cache` or `store`,
    for callers that compress later, or not at all."""
    _options(None, 1, digest, digest_timeout, digest_cache, store)


def _check_chunk(chunk: object, what: str) -> str | bytes:
    if not isinstance(chunk, (str, bytes)):
        raise TypeError(f"{what} must be str or bytes, not {type(chunk).__name__}")
    return chunk


def _valid_str(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD: a lone surrogate cannot be encoded,
    and U+FFFD keeps every count the same."""
    if not text.isascii() and _LONE_SURROGATE.search(text):
        return _LONE_SURROGATE.sub("\ufffd", text)
    return text


def _valid(chunk: str | bytes) -> str | bytes:
    return _valid_str(chunk) if isinstance(chunk, str) else chunk


def _fed(core: _core.Compressor, chunk: str | bytes) -> str | bytes:
    """Feeds `chunk` to the core and returns it as fed: made `_valid` only when it held a lone
    surrogate. The core converts a `str` to UTF-8 before reading any of it and refuses one that
    holds a lone surrogate, so a valid chunk is never scanned for them here (on non-ASCII text
    that scan took longer than the compression)."""
    try:
        core.feed(chunk)
    except UnicodeEncodeError:
        chunk = _valid(chunk)
        core.feed(chunk)
    return chunk


def _line_count(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _start_core(options: _Options) -> _core.Compressor | None:
    if _core is None:
        _warn_once("shapeclip._core could not be imported")
        return None
    head, tail = options.profile.weights()
    try:
        return _core.Compressor(options.budget, options.profile.kind, options.tool, head, tail, options.digest_room())
    except _NativeFailure as exc:
        _warn_once(f"the native core failed to start ({exc!r})")
        return None


@dataclass(frozen=True)
class _Planned:
    """A result before its digest, and the digest request it is due, if any."""

    result: Compressed
    at: int = 0
    request: digest_run.Request | None = None


def _keeper(options: _Options) -> Keeper | None:
    return None if options.store is None else Keeper(options.store, options.tool)


def _kept(keeper: Keeper | None, budget: int) -> Kept:
    return Kept() if keeper is None else keeper.finish(budget)


def _with_kept(planned: _Planned, kept: Kept) -> _Planned:
    if kept == Kept():
        return planned
    return replace(planned, result=replace(planned.result, stored=kept.entry, store_error=kept.error))


def _from_report(report: _core.Report, options: _Options) -> _Planned | None:
    """The core's result, unless it broke the budget (then the caller falls back)."""
    if len(report.text) > options.budget:
        _warn_once("the native core exceeded the budget")
        return None
    result = Compressed(
        report.text,
        report.shape,
        "native",
        report.input_chars,
        report.input_lines,
        report.omitted_chars,
        report.omitted_lines,
        tuple(report.omitted_ranges),
    )
    if options.digest is None or report.digest_at is None or report.digest_input is None:
        return _Planned(result)
    from .digest import run as digest_run

    room = options.budget - len(report.text) - len(digest_run.LEAD)
    if room < digest_run.MIN_ROOM:
        return _Planned(result)
    cache = digest_run.DEFAULT_CACHE if options.digest_cache is None else options.digest_cache
    request = digest_run.Request(
        options.digest, options.tool or "", report.digest_input, room, options.digest_timeout, cache
    )
    return _Planned(result, report.digest_at, request)


def _from_clip(clip: fallback.ClipResult, budget: int) -> _Planned:
    span = clip.span
    lines = clip.input_lines
    if len(clip.text) > budget:
        # Both backends broke the bound, which is a bug; the bound still holds for the caller.
        _log().error("shapeclip exceeded the budget of %d characters; returning a bare ellipsis", budget)
        return _Planned(
            Compressed("\u2026", "clip", "python", clip.input_chars, lines, clip.input_chars, lines, ((1, lines),))
        )
    if span is None:
        return _Planned(Compressed(clip.text, "passthrough", "python", clip.input_chars, lines, 0, 0, ()))
    ranges = ((span.first, span.last),)
    return _Planned(Compressed(clip.text, "clip", "python", clip.input_chars, lines, span.chars, span.lines, ranges))


def _with_digest(planned: _Planned, answer: str | None, call: DigestCall) -> Compressed:
    from .digest import run as digest_run

    result, request = planned.result, planned.request
    if answer is None or request is None:
        return replace(result, digest=call)
    text = result.text
    written = digest_run.LEAD + digest_run.fit(answer, request.room)
    return replace(result, text=text[: planned.at] + written + text[planned.at :], digest=call)


def _digested(planned: _Planned) -> Compressed:
    if planned.request is None:
        return planned.result
    from .digest import run as digest_run

    return _with_digest(planned, *digest_run.ask(planned.request))


async def _adigested(planned: _Planned) -> Compressed:
    if planned.request is None:
        return planned.result
    from .digest import run as digest_run

    return _with_digest(planned, *await digest_run.aask(planned.request))


class Compressor:
    """Compresses a stream: `feed` chunks of `str` or `bytes` (decoded as UTF-8, invalid bytes
    replaced, characters split across chunks joined), then `finish` once. Memory is bounded by
    the budget, whatever the stream's length. `compress(text)` gives what one `feed` of `text`
    and a `finish` give. See `compress` for `digest`, `digest_timeout` and `digest_cache`.
    """

    def __init__(
        self,
        tool_name: str | None = None,
        budget: int = DEFAULT_BUDGET,
        *,
        digest: DigestFn | None = None,
        digest_timeout: float = DEFAULT_DIGEST_TIMEOUT,
        digest_cache: MutableMapping[str, str] | None = None,
        store: Store | None = None,
    ) -> None:
        self._options = _options(tool_name, budget, digest, digest_timeout, digest_cache, store)
        # Fed alongside the core: the core's state cannot be recovered after a failure, and the
        # caller's chunks are gone by then.
        self._shadow = fallback.Clipper(self._options.budget, self._options.profile, self._options.tool)
        self._core = _start_core(self._options)
        self._keeper = _keeper(self._options)
        self._finished = False

    def _check_open(self) -> None:
        if self._finished:
            raise RuntimeError("this Compressor has already finished; make a new one")

    def feed(self, chunk: str | bytes) -> None:
        """Adds the next chunk of the output."""
        chunk = _check_chunk(chunk, "chunk")
        self._check_open()
        if self._core is not None:
            try:
                chunk = _fed(self._core, chunk)
            except _NativeFailure as exc:
                _warn_once(f"the native core failed on this input ({exc!r})")
                self._core = None
                chunk = _valid(chunk)
        else:
            chunk = _valid(chunk)
        self._shadow.feed(chunk)
        if self._keeper is not None:
            self._keeper.feed(chunk)

    def _plan(self) -> _Planned:
        self._check_open()
        self._finished = True
        kept = _kept(self._keeper, self._options.budget)
        if self._core is not None:
            try:
                planned = _from_report(self._core.finish(kept.way_back()), self._options)
            except _NativeFailure as exc:
                _warn_once(f"the native core failed on this input ({exc!r})")
            else:
                if planned is not None:
                    return _with_kept(planned, kept)
        return _with_kept(_from_clip(self._shadow.finish(kept.way_back()), self._options.budget), kept)

    def finish(self) -> str:
        """The compressed text: at most `budget` characters."""
        return self.finish_detailed().text

    def finish_detailed(self) -> Compressed:
        """The compressed text with the facts about it."""
        return _digested(self._plan())

    async def afinish(self) -> str:
        """`finish` for a digest that is a coroutine function."""
        return (await self.afinish_detailed()).text

    async def afinish_detailed(self) -> Compressed:
        """`finish_detailed` for a digest that is a coroutine function."""
        return await _adigested(self._plan())


def _plan_text(text: object, options: _Options) -> _Planned:
    checked = _check_chunk(text, "text")
    if isinstance(checked, str) and len(checked) <= options.budget:
        # The caller's own object unless it held lone surrogates: a stream cannot keep those
        # (they may be split across chunks and cannot be encoded), so no path keeps them.
        checked = _valid_str(checked)
        return _Planned(Compressed(checked, "passthrough", backend(), len(checked), _line_count(checked), 0, 0, ()))
    core = _start_core(options)
    if core is not None:
        try:
            checked = _fed(core, checked)
        except _NativeFailure as exc:
            _warn_once(f"the native core failed on this input ({exc!r})")
            core = None
    if core is None:
        checked = _valid(checked)
    keeper = _keeper(options)
    if keeper is not None:
        keeper.feed(checked)
    kept = _kept(keeper, options.budget)
    if core is not None:
        try:
            planned = _from_report(core.finish(kept.way_back()), options)
        except _NativeFailure as exc:
            _warn_once(f"the native core failed on this input ({exc!r})")
        else:
            if planned is not None:
                return _with_kept(planned, kept)
    clipper = fallback.Clipper(options.budget, options.profile, options.tool)
    clipper.feed(checked)
    return _with_kept(_from_clip(clipper.finish(kept.way_back()), options.budget), kept)


def compress_detailed(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: DigestFn | None = None,
    digest_timeout: float = DEFAULT_DIGEST_TIMEOUT,
    digest_cache: MutableMapping[str, str] | None = None,
    store: Store | None = None,
) -> Compressed:
    """Like `compress`, with the facts about the result."""
    return _digested(_plan_text(text, _options(tool_name, budget, digest, digest_timeout, digest_cache, store)))


async def acompress_detailed(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: DigestFn | None = None,
    digest_timeout: float = DEFAULT_DIGEST_TIMEOUT,
    digest_cache: MutableMapping[str, str] | None = None,
    store: Store | None = None,
) -> Compressed:
    """`compress_detailed` that awaits its digest (a coroutine function, or a sync one run in a thread)."""
    return await _adigested(_plan_text(text, _options(tool_name, budget, digest, digest_timeout, digest_cache, store)))


def compress(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: DigestFn | None = None,
    digest_timeout: float = DEFAULT_DIGEST_TIMEOUT,
    digest_cache: MutableMapping[str, str] | None = None,
    store: Store | None = None,
) -> str:
    """Compresses one tool output to at most `budget` characters (code points, as `len` counts).

    Output that fits is returned unchanged (the same object, for a `str`). Otherwise the result
    keeps what the output's shape says matters and labels every cut with a marker that states
    exactly which lines were omitted and how to get them back. The same arguments always give
    the same result. `bytes` are decoded as UTF-8 with invalid bytes replaced, and each lone
    surrogate in a `str` becomes U+FFFD, whether it fits or not, so the result is always valid
    text (and a `str` that fits but held one comes back as a new object).

    `digest`, a callable `(omitted_text, tool_name) -> str | None`, may write what the omitted
    part holds into the marker (see `shapeclip.digest`); it gets `digest_timeout` seconds, and
    answers are kept in `digest_cache` (a small in-memory LRU by default) so the same output
    compresses to the same bytes again.

    `store`, a `shapeclip.Store`, keeps the whole output when something is cut, and the
    markers then say how to read the omitted lines back from it (`shapeclip show ID --lines
    A:B`, or the stored file with an offset and limit). Storing never fails a compression:
    without a stored copy the markers are the plain ones and `store_error` says why.
    """
    return compress_detailed(
        text, tool_name, budget, digest=digest, digest_timeout=digest_timeout, digest_cache=digest_cache, store=store
    ).text


async def acompress(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: DigestFn | None = None,
    digest_timeout: float = DEFAULT_DIGEST_TIMEOUT,
    digest_cache: MutableMapping[str, str] | None = None,
    store: Store | None = None,
) -> str:
    """`compress` that awaits its digest: use it with async SDK clients."""
    result = await acompress_detailed(
        text, tool_name, budget, digest=digest, digest_timeout=digest_timeout, digest_cache=digest_cache, store=store
    )
    return result.text
