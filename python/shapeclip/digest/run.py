"""Asking a digest callable, safely: a timeout, a cache, a cleaned answer that fits the room.

Whatever the callable does (raise, hang, return nothing, return a novel), the caller gets a
result within its budget: a failure only means the plain marker, logged at debug level and
recorded in a `DigestCall`. Answers are cached by a hash of the prompt version, the digest's
identity, the tool and the sample, so compressing the same output again gives the same bytes.
"""

from __future__ import annotations

import contextvars
import hashlib
import inspect
import re
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import concurrent.futures
    import logging

from ..cut import cut_before
from ..defaults import DEFAULT_DIGEST_TIMEOUT
from ..result import DigestCall
from .identity import identity
from .prompt import PROMPT_VERSION


def _log() -> logging.Logger:
    import logging  # only when something is logged

    return logging.getLogger("shapeclip.digest")


#: What a digest is: `(omitted_text, tool_name) -> str | None`, or a coroutine function of that.
DigestFn = Callable[[str, str], "str | None"] | Callable[[str, str], Awaitable["str | None"]]

DEFAULT_TIMEOUT = DEFAULT_DIGEST_TIMEOUT
#: An answer longer than this is not a 120-word digest; it is not used at all.
ABSURD_CHARS = 6_000
#: Less room than this in the marker and no digest is asked for.
MIN_ROOM = 40
LEAD = " Digest of the omitted part: "
_LABEL = re.compile(r"^(?:summary|digest)\s*:\s*", re.IGNORECASE)
_MARKERISH = re.compile(r"shapeclip\s*:", re.IGNORECASE)
# CSI and OSC sequences whole; what is left of other escapes goes with the control characters.
_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


class Answer(str):
    """A digest's text with the token usage its API reported, when it did."""

    usage: Mapping[str, int] | None

    def __new__(cls, text: str, usage: Mapping[str, int] | None = None) -> Answer:
        answer = super().__new__(cls, text)
        answer.usage = usage
        return answer


class LRU(MutableMapping[str, str]):
    """A small least-recently-used mapping: the default digest cache."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[str, str] = OrderedDict()
        self._size = size

    def __getitem__(self, key: str) -> str:
        value = self._items[key]
        self._items.move_to_end(key)
        return value

    def __setitem__(self, key: str, value: str) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def __delitem__(self, key: str) -> None:
        del self._items[key]

    def __iter__(self) -> Any:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


DEFAULT_CACHE = LRU()


def cache_key(digest: DigestFn, tool_name: str, sample: str) -> str | None:
    """The key `digest`'s answer about `sample` is cached under, or None when `digest` cannot be
    told apart from others (see `identity`) and its answers are not cached."""
    who = identity(digest)
    if who is None:
        return None
    parts = (PROMPT_VERSION, who, tool_name, sample)
    return hashlib.sha256("\0".join(parts).encode("utf-8", "replace")).hexdigest()


def clean(answer: str) -> str:
    """One paragraph of visible text that cannot be mistaken for a marker: escape sequences,
    control characters and invisible format characters (bidi overrides, tags, zero-width
    spaces) dropped, a lone surrogate made U+FFFD, whitespace folded, brackets made round, a
    leading "Summary:" label and any "shapeclip:" dropped."""
    text = "".join(map(_visible, _ESCAPE.sub("", answer)))
    text = " ".join(text.split())
    text = _LABEL.sub("", text).translate(str.maketrans("[]", "()"))
    return _MARKERISH.sub("shapeclip -", text)


def _visible(c: str) -> str:
    """`c` as a digest shows it: whitespace stays (to be folded), a joiner stays (scripts and
    emoji need it), other controls and format characters go, a surrogate becomes U+FFFD."""
    category = unicodedata.category(c)
    if c.isspace() or c in "\u200c\u200d" or category[0] != "C" or category in ("Co", "Cn"):
        return c
    return "\ufffd" if category == "Cs" else ""


def fit(text: str, room: int) -> str:
    """`text` shortened at a word boundary to at most `room` characters (ending in an ellipsis),
    or, with no space near the end, between two characters as a reader sees them."""
    if len(text) <= room:
        return text
    cut = text[: cut_before(text, room - 1)]
    space = cut.rfind(" ")
    return (cut[:space] if space > room // 2 else cut).rstrip(" ,;:") + "\u2026"


@dataclass(frozen=True)
class Request:
    """A digest that is due: the sample to send and the room it may fill."""

    digest: DigestFn
    tool_name: str
    sample: str
    room: int
    timeout: float
    cache: MutableMapping[str, str]

    def key(self) -> str | None:
        return cache_key(self.digest, self.tool_name, self.sample)


def _judge(request: Request, raw: object, started: float) -> tuple[str | None, DigestCall]:
    """The answer to write, if `raw` is a usable one; the cache keeps it when it can."""
    latency = time.perf_counter() - started
    if not isinstance(raw, str):
        return _failed(request, started, f"answer is {type(raw).__name__}, not text")
    try:
        usage = getattr(raw, "usage", None)
        text, chars_out = clean(raw), len(raw)
    except Exception as exc:  # a str subclass's own methods may fail like the digest itself
        return _failed(request, started, f"answer could not be read: {exc!r}")
    if not text:
        return _failed(request, started, "empty answer")
    if len(text) > ABSURD_CHARS:
        return _failed(request, started, f"absurd answer of {len(text)} characters")
    _store(request, text)
    return text, DigestCall(len(request.sample), chars_out, usage, latency, cached=False, fell_back=False)


def _store(request: Request, text: str) -> None:
    try:
        key = request.key()
        if key is not None:
            request.cache[key] = text
    except Exception as exc:  # a user's mapping may fail; the answer is good all the same
        _log().debug("digest cache store failed: %r", exc)


def _failed(request: Request, started: float, reason: str) -> tuple[None, DigestCall]:
    _log().debug("digest fell back to the plain marker: %s", reason)
    latency = time.perf_counter() - started
    return None, DigestCall(len(request.sample), 0, None, latency, cached=False, fell_back=True, reason=reason)


def _cached(request: Request) -> tuple[str, DigestCall] | None:
    try:
        key = request.key()
        text = None if key is None else request.cache.get(key)
    except Exception as exc:  # a user's mapping may fail; it must not fail the compression
        _log().debug("digest cache lookup failed: %r", exc)
        return None
    if not isinstance(text, str):
        return None
    return text, DigestCall(len(request.sample), len(text), None, 0.0, cached=True, fell_back=False)


def ask(request: Request) -> tuple[str | None, DigestCall]:
    """Runs a sync digest in a worker thread under the timeout (an async one in its own loop)."""
    hit = _cached(request)
    if hit is not None:
        return hit
    import concurrent.futures  # here, like asyncio below: most compressions ask no digest

    started = time.perf_counter()
    try:
        raw = _in_daemon_thread(request).result(timeout=request.timeout)
    except concurrent.futures.TimeoutError:
        return _failed(request, started, f"timed out after {request.timeout:g} s")
    except Exception as exc:
        return _failed(request, started, f"raised {exc!r}")
    return _judge(request, raw, started)


def _in_daemon_thread(request: Request) -> concurrent.futures.Future[object]:
    """The digest's answer, from a daemon thread. A call that hangs is abandoned, and since
    the interpreter joins an executor's workers at exit, only a daemon thread lets the process
    end when the caller is done."""
    import concurrent.futures

    future: concurrent.futures.Future[object] = concurrent.futures.Future()
    # The caller's context goes along, as asyncio.to_thread would take it (tracing, for one).
    context = contextvars.copy_context()

    def work() -> None:
        if not future.set_running_or_notify_cancel():
            return  # the caller stopped waiting before the thread got going
        try:
            future.set_result(context.run(_call_blocking, request))
        except Exception as exc:  # the caller falls back and says why
            future.set_exception(exc)

    threading.Thread(target=work, name="shapeclip-digest", daemon=True).start()
    return future


def _call_blocking(request: Request) -> object:
    result = request.digest(request.sample, request.tool_name)
    if inspect.isawaitable(result):
        import asyncio

        return asyncio.run(_awaited(result))
    return result


def _is_coroutine_function(digest: DigestFn) -> bool:
    # Decorators (the SDKs use some) hide a coroutine function from a plain check, and a
    # callable object is one when its __call__ is.
    target = inspect.unwrap(digest)
    return inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(type(target).__call__)


async def _awaited(awaitable: Awaitable[object]) -> object:
    return await awaitable


async def aask(request: Request) -> tuple[str | None, DigestCall]:
    """Awaits an async digest, or runs a sync one in a thread, under the timeout."""
    import asyncio  # already loaded: the caller's event loop runs this

    hit = _cached(request)
    if hit is not None:
        return hit
    started = time.perf_counter()
    try:
        pending: Awaitable[object]
        if _is_coroutine_function(request.digest):
            pending = _awaited(request.digest(request.sample, request.tool_name))  # type: ignore[arg-type]
        else:
            pending = asyncio.wrap_future(_in_daemon_thread(request))
        raw = await asyncio.wait_for(pending, request.timeout)
    except asyncio.TimeoutError:
        return _failed(request, started, f"timed out after {request.timeout:g} s")
    except Exception as exc:
        return _failed(request, started, f"raised {exc!r}")
    return _judge(request, raw, started)
