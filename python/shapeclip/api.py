"""The public entry points: `compress`, `acompress`, `compress_detailed` and `Compressor`.

Every compression takes one path, `_Compression`: each chunk fed, then one finish; a one-shot
call is one feed of its text and a finish, as in the core. The work runs in the native core
when it loaded, else in the bounded pure-Python clip. The core answers its own planners'
failures (a planner that panics is dropped and the clip plans instead), so only a failure of
its reading escapes, as `EngineError`. That failure, and an answer over the budget, are answered
in one place (`_Compression._fallback`): the pure-Python clip over the text a one-shot call still
holds, or over a stream's stored copy if there is one; without either the result says that
shapeclip failed and nothing of the output could be kept.
Arguments are checked here, before the core sees them: a bad argument raises, data never does.
With a digest, planning leaves it room and the result carries a request for it;
`compress_detailed` stops there, and `compress` asks it (`shapeclip.digest.apply`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, replace

from .defaults import DEFAULT_BUDGET
from .fit import fits
from .profiles import RERUN_KINDS, Profile, profile_for
from .result import Compressed, DigestRequest
from .store.keep import Keeper, Kept

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:  # imported where used: the digest's machinery only when a digest is given, the
    # store's only when a store is, the pure-Python clip only when the core cannot plan
    import logging
    from pathlib import Path

    from . import fallback
    from ._core import InputPiece
    from .digest.request import Digest
    from .digest.run import DigestFn
    from .store import Store

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
class _Options:
    """Checked arguments of one compression."""

    budget: int
    tool: str | None
    profile: Profile
    digest: Digest | None
    store: Store | None
    #: The file the output is read from, whole, which markers point into: the command line's
    #: FILE (a caller of the API has no file the output is sure to equal).
    file: str | None = None

    def digest_room(self) -> int:
        """Characters clip and log plans leave free for a digest: an eighth of the budget, at
        most 1,200 (a 120-word paragraph), none under a budget of 800."""
        if self.digest is None or self.budget < 800:
            return 0
        return min(self.budget // 8, 1_200)


def _options(tool_name: object, budget: object, digest: object, store: object, command: object) -> _Options:
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"budget must be an int (a number of characters, at least 1), not {type(budget).__name__}")
    if budget < 1:
        raise ValueError(f"budget must be at least 1 character, got {budget}")
    if tool_name is not None and not isinstance(tool_name, str):
        raise TypeError(f"tool_name must be a str or None, not {type(tool_name).__name__}")
    if command is not None and not isinstance(command, str):
        raise TypeError(f"command must be a str or None, not {type(command).__name__}")
    if store is not None:
        from .store import Store

        if not isinstance(store, Store):
            raise TypeError(f"store must be a shapeclip.Store or None, not {type(store).__name__}")
    profile = profile_for(tool_name, command)
    return _Options(min(budget, _MAX_BUDGET), tool_name, profile, _checked_digest(digest), store)


def _checked_digest(digest: object) -> Digest | None:
    """`digest` as a `Digest` (a bare callable gets the default timeout and cache), or None;
    raises on anything else. The digest's machinery is imported only when one is given."""
    if digest is None:
        return None
    from .digest.request import as_digest

    return as_digest(digest)


def check_options(digest: object, store: object) -> tuple[Digest | None, Store | None]:
    """`digest` (as a `Digest`) and `store`, checked as `compress` checks them, for callers that
    compress later, or not at all."""
    options = _options(None, 1, digest, store, None)
    return options.digest, options.store


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


def _fed(core: _core.Compressor, chunk: str | bytes | InputPiece) -> str | bytes | InputPiece:
    """Feeds `chunk` to the core and returns it as fed: made `_valid` only when it held a lone
    surrogate, which the core read as U+FFFD, so that a valid chunk is never scanned here (on
    non-ASCII text that scan took longer than the compression)."""
    return _valid_str(chunk) if core.feed(chunk) and isinstance(chunk, str) else chunk


def _line_count(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _start_core(options: _Options) -> _core.Compressor | None:
    if _core is None:
        _warn_once("shapeclip._core could not be imported")
        return None
    head, tail = options.profile.weights()
    try:
        return _core.Compressor(
            budget=options.budget,
            kind=options.profile.kind,
            tool=options.tool,
            head_weight=head,
            tail_weight=tail,
            digest_room=options.digest_room(),
        )
    except _NativeFailure as exc:
        _warn_once(f"the native core failed to start ({exc!r})")
        return None


def _keeper(options: _Options) -> Keeper | None:
    return None if options.store is None else Keeper(options.store, options.tool, options.budget)


def _kept(keeper: Keeper | None) -> Kept:
    return Kept() if keeper is None else keeper.finish()


def _with_kept(result: Compressed, kept: Kept) -> Compressed:
    if kept == Kept():
        return result
    return replace(result, stored=kept.entry, store_error=kept.error)


def _from_report(report: _core.Report, options: _Options) -> Compressed:
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
    at, sample, left = report.digest_at, report.digest_input, report.digest_room
    if options.digest is None or at is None or sample is None or left is None:
        return result
    from .digest import run as digest_run

    # The core says what the budget leaves the digest; its lead takes the first of it.
    room = left - len(digest_run.LEAD)
    if room < digest_run.MIN_ROOM:
        return result
    request = DigestRequest(sample, options.tool or "", room, at)
    return replace(result, digest_request=request)


def _from_clip(clip: fallback.ClipResult) -> Compressed:
    span = clip.span
    lines = clip.input_lines
    if span is None:
        return Compressed(clip.text, "passthrough", "python", clip.input_chars, lines, 0, 0, ())
    ranges = ((span.first, span.last),)
    return Compressed(clip.text, "clip", "python", clip.input_chars, lines, span.chars, span.lines, ranges)


def _digested(result: Compressed, digest: Digest | None) -> Compressed:
    """`result` with its digest asked and written in, when one is due."""
    if result.digest_request is None or digest is None:
        return result
    from .digest.request import apply

    return apply(result, digest)


async def _adigested(result: Compressed, digest: Digest | None) -> Compressed:
    if result.digest_request is None or digest is None:
        return result
    from .digest.request import aapply

    return await aapply(result, digest)


class _Compression:
    """One compression: `feed` each chunk, then `finish` once. `Compressor` is one, and a
    one-shot call is one feed of its text and a finish, so that the two cannot disagree."""

    def __init__(self, options: _Options) -> None:
        self._options = options
        self._core = _start_core(options)
        # Without a core from the start, the clip reads every chunk as it comes.
        self._clipper = None if self._core is not None else _clipper(options)
        self._keeper = _keeper(options)

    def feed(self, chunk: str | bytes | InputPiece) -> str | bytes | InputPiece:
        """Feeds `chunk` and returns it as fed: valid text (see `_valid`)."""
        if self._core is not None:
            try:
                chunk = _fed(self._core, chunk)
            except _NativeFailure as exc:
                self._lose_core(f"the native core failed on this input ({exc!r})")
        if self._core is None:
            # A piece the core did not read is read by the clip as its bytes.
            chunk = _valid(chunk if isinstance(chunk, (str, bytes)) else bytes(chunk))
            if self._clipper is not None:
                self._clipper.feed(chunk)
        if self._keeper is not None:
            self._keeper.feed(chunk)
        return chunk

    def finish(self, held: str | bytes | None = None) -> Compressed:
        """The result, at most `budget` characters. `held` is the whole input as fed, when the
        caller still holds it (a one-shot call): the clip then reads it if the core fails."""
        kept = _kept(self._keeper)
        result = self._native(kept)
        if result is None or not self._fits(result):
            result = self._fallback(kept, held)
            if not self._fits(result):
                result = _ellipsis(result)
        return _with_kept(result, kept)

    def _lose_core(self, why: str) -> None:
        """Drops the core, whose state is lost, and with it the chunks it read."""
        _warn_once(why)
        self._core = None

    def _native(self, kept: Kept) -> Compressed | None:
        """The core's answer, or None when there is no core or it failed."""
        if self._core is None:
            return None
        try:
            report = self._core.finish(self._way_back(kept))
        except _NativeFailure as exc:
            self._lose_core(f"the native core failed on this input ({exc!r})")
            return None
        return _from_report(report, self._options)

    def _fits(self, result: Compressed) -> bool:
        """Whether `result` keeps the budget: the one check of an answer, whichever backend gave
        it. Breaking the bound is a bug: the core's answer is then replaced by the clip's, and
        the clip's by an ellipsis, so the bound still holds for the caller. It stays beside the
        core's own check (which drops a planner's plan that breaks it) because that one does
        not see the core's clip, nor the pure-Python clip."""
        budget = self._options.budget
        if fits(len(result.text), budget):
            return True
        if result.backend == "native":
            self._lose_core("the native core exceeded the budget")
        else:
            _log().error("shapeclip exceeded the budget of %d characters; returning a bare ellipsis", budget)
        return False

    def _fallback(self, kept: Kept, held: str | bytes | None) -> Compressed:
        """The pure-Python clip, in place of the core: the one answer to a core that is missing,
        failed, or broke the budget. It reads the input from whatever still has all of it: the
        clip itself when there never was a core, the caller's text, or the stored copy. With
        none of them, the chunks the core read are gone, and the result says so."""
        if self._clipper is not None:
            clipper = self._clipper
        elif held is not None:
            clipper = _clipper(self._options)
            clipper.feed(held)
        elif kept.entry is not None:
            clipper = _reread(kept.entry.path, self._options)
        elif self._options.file is not None:
            from pathlib import Path

            clipper = _reread(Path(self._options.file), self._options)
        else:
            return _failed(self._options)
        return _from_clip(clipper.finish(self._way_back(kept)))

    def _way_back(self, kept: Kept) -> tuple[str, str] | str | None:
        """Where the markers say the whole output is: its stored copy, else its file."""
        return kept.way_back() or self._options.file


class Compressor:
    """Compresses a stream: `feed` chunks of `str` or `bytes` (decoded as UTF-8, invalid bytes
    replaced, characters split across chunks joined), then finish once, with `finish`, `afinish`
    or `finish_detailed`. Memory is bounded by the budget, whatever the stream's length.
    `compress(text)` gives what one `feed` of `text` and a `finish` give. See `compress` for
    `digest`, `store` and `command`.
    """

    def __init__(
        self,
        tool_name: str | None = None,
        budget: int = DEFAULT_BUDGET,
        *,
        digest: Digest | DigestFn | None = None,
        store: Store | None = None,
        command: str | None = None,
    ) -> None:
        self._begin(_options(tool_name, budget, digest, store, command))

    @classmethod
    def _of_file(cls, path: str, tool_name: str | None, budget: int, digest: Digest | None) -> Compressor:
        """A compressor of the file at `path`, fed its bytes: its markers point into it (`sed
        -n 'A,Bp' PATH`), unless its path cannot stand in a one-line marker."""
        compressor = cls.__new__(cls)
        options = _options(tool_name, budget, digest, None, None)
        printable = path.isprintable() and not {"[", "]"} & set(path)
        compressor._begin(replace(options, file=path if printable else None))
        return compressor

    def _begin(self, options: _Options) -> None:
        self._options = options
        self._compression = _Compression(options)
        self._finished = False
        # The core and the keeper each take one caller at a time: chunks fed from several
        # threads are taken in turn (in whatever order the threads arrive), none lost.
        self._lock = threading.Lock()

    def _check_open(self) -> None:
        if self._finished:
            raise RuntimeError("this Compressor has already finished; make a new one")

    def feed(self, chunk: str | bytes) -> None:
        """Adds the next chunk of the output. Chunks fed from several threads are taken one at
        a time, in the order they get in."""
        chunk = _check_chunk(chunk, "chunk")
        with self._lock:
            self._check_open()
            self._compression.feed(chunk)

    def _feed_piece(self, piece: InputPiece) -> None:
        """Adds a piece of the output that the command line read (`cli_input`), its bytes read
        where they lie: as `feed` adds `bytes(piece)`."""
        with self._lock:
            self._check_open()
            self._compression.feed(piece)

    def _plan(self) -> Compressed:
        with self._lock:
            self._check_open()
            self._finished = True
            return self._compression.finish()

    def finish(self) -> str:
        """The compressed text, with the digest's answer when one is due: at most `budget`
        characters."""
        return _digested(self._plan(), self._options.digest).text

    def finish_detailed(self) -> Compressed:
        """The compressed text with the facts about it, as `compress_detailed` gives them: the
        digest is not asked; when one is due, `digest_request` says what it needs."""
        return self._plan()

    async def afinish(self) -> str:
        """`finish` that awaits its digest: use it with async SDK clients."""
        return (await _adigested(self._plan(), self._options.digest)).text


def _clipper(options: _Options) -> fallback.Clipper:
    from . import fallback

    return fallback.Clipper(options.budget, options.profile, options.tool)


def _reread(path: Path, options: _Options) -> fallback.Clipper:
    """The pure-Python clip fed the output again from where it is kept whole (a stored copy,
    or its file), for a stream whose chunks the core lost."""
    clipper = _clipper(options)
    with path.open("rb") as stored:
        while chunk := stored.read(1 << 20):
            clipper.feed(chunk)
    return clipper


def _ellipsis(result: Compressed) -> Compressed:
    """All of `result`'s input omitted, in one character."""
    lines = result.input_lines
    return Compressed("\u2026", "clip", "python", result.input_chars, lines, result.input_chars, lines, ((1, lines),))


def _failed(options: _Options) -> Compressed:
    """What a stream the core failed on, with no stored copy, can honestly be answered with."""
    kind = options.profile.kind
    if kind in RERUN_KINDS:
        hint = "run the command again without shapeclip"
    elif kind == "file_read":
        hint = "read the file again in parts"
    else:
        hint = "call the tool again for a part of it"
    for text in (
        f"[shapeclip: all of this output omitted: shapeclip failed on it, and it was not stored. To see it, {hint}.]",
        "[output omitted: shapeclip failed]",
        "\u2026",
    ):
        if fits(len(text), options.budget):
            break
    return Compressed(text, "failed", "python", 0, 0, 0, 0, ())


def _plan_text(text: object, options: _Options) -> Compressed:
    checked = _check_chunk(text, "text")
    if isinstance(checked, str) and fits(len(checked), options.budget):
        # The caller's own object unless it held lone surrogates: a stream cannot keep those
        # (they may be split across chunks and cannot be encoded), so no path keeps them.
        checked = _valid_str(checked)
        return Compressed(checked, "passthrough", backend(), len(checked), _line_count(checked), 0, 0, ())
    compression = _Compression(options)
    fed = compression.feed(checked)
    return compression.finish(held=fed if isinstance(fed, (str, bytes)) else None)


def compress_detailed(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: Digest | DigestFn | None = None,
    store: Store | None = None,
    command: str | None = None,
) -> Compressed:
    """Like `compress`, with the facts about the result, and without calling a model: with a
    `digest`, clip and log plans leave it room all the same, and when one is due the result's
    `digest_request` says what it needs. `shapeclip.digest.apply(result, digest)` (or `aapply`)
    then asks it and writes the answer in, giving what `compress` gives."""
    return _plan_text(text, _options(tool_name, budget, digest, store, command))


def compress(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: Digest | DigestFn | None = None,
    store: Store | None = None,
    command: str | None = None,
) -> str:
    """Compresses one tool output to at most `budget` characters (code points, as `len` counts).

    Output that fits is returned unchanged (the same object, for a `str`). Otherwise the result
    keeps what the output's shape says matters and labels every cut with a marker that states
    exactly which lines were omitted and how to get them back. The same arguments always give
    the same result. `bytes` are decoded as UTF-8 with invalid bytes replaced, and each lone
    surrogate in a `str` becomes U+FFFD, whether it fits or not, so the result is always valid
    text (and a `str` that fits but held one comes back as a new object).

    `digest`, a `shapeclip.Digest` or a bare callable `(omitted_text, tool_name) -> str | None`
    (which is `Digest(callable)`: the default timeout and cache), may write what the omitted
    part holds into the marker (see `shapeclip.digest`). Answers are cached, so the same output
    compresses to the same bytes again.

    `store`, a `shapeclip.Store`, keeps the whole output when something is cut, and the
    markers then say how to read the omitted lines back from it (`shapeclip show ID --lines
    A:B`, or the stored file with an offset and limit). Storing never fails a compression:
    without a stored copy the markers are the plain ones and `store_error` says why.

    `command`, the shell command that printed the output, when the tool is a shell: one that
    prints a file (`cat F`, `sed -n 'A,Bp' F`, `nl -ba F | sed -n ...`) is planned as a file
    read (its opening, its definitions, its end), not as a log, and its markers still say to
    run it again (see `shapeclip.printed`).
    """
    options = _options(tool_name, budget, digest, store, command)
    return _digested(_plan_text(text, options), options.digest).text


async def acompress(
    text: str | bytes,
    tool_name: str | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    digest: Digest | DigestFn | None = None,
    store: Store | None = None,
    command: str | None = None,
) -> str:
    """`compress` that awaits its digest: use it with async SDK clients."""
    options = _options(tool_name, budget, digest, store, command)
    return (await _adigested(_plan_text(text, options), options.digest)).text
