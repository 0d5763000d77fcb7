"""A digest and its use: `Digest` says which model to ask and how, and `apply` or `aapply` asks
it what a compression's `DigestRequest` (in `shapeclip.result`) needs and writes the answer in.

`compress_detailed(..., digest=d)` never calls a model: clip and log plans leave the digest's
room in the budget and the result carries a `DigestRequest`. `apply(result, d)` then asks the
model (under the timeout, through the cache) and writes its answer into the marker, so a
caller can compress at once and ask later, elsewhere, or not at all. `compress` is exactly
`apply(compress_detailed(...), d).text`.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, replace

from ..result import Compressed, DigestCall, DigestRequest
from . import run
from .run import DEFAULT_TIMEOUT, DigestFn


@dataclass(frozen=True)
class Digest:
    """A digest callable and how to ask it: `fn(omitted_text, tool_name) -> str | None` (or a
    coroutine function of that) gets `timeout` seconds, and its answers are kept in `cache`
    (any mutable mapping; None is the shared in-memory LRU), so the same output compresses to
    the same bytes again. Bad fields raise here, when the digest is made."""

    fn: DigestFn
    timeout: float = DEFAULT_TIMEOUT
    cache: MutableMapping[str, str] | None = None

    def __post_init__(self) -> None:
        if not callable(self.fn):
            raise TypeError("digest must be a callable (omitted_text, tool_name) -> str | None")
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)):
            raise TypeError(f"digest timeout must be a number of seconds, not {type(self.timeout).__name__}")
        if not self.timeout > 0:
            raise ValueError(f"digest timeout must be more than 0 seconds, got {self.timeout}")
        if self.cache is not None and not isinstance(self.cache, MutableMapping):
            raise TypeError("digest cache must be a mutable mapping (like a dict), or None")


def as_digest(digest: object) -> Digest:
    """`digest` as a `Digest`: itself, or a bare callable with the default timeout and cache."""
    if isinstance(digest, Digest):
        return digest
    if not callable(digest):
        raise TypeError(
            "digest must be a shapeclip.Digest or a callable (omitted_text, tool_name) -> str | None, "
            f"not {type(digest).__name__}"
        )
    return Digest(digest)


def _asked(request: DigestRequest, digest: Digest) -> run.Request:
    cache = run.DEFAULT_CACHE if digest.cache is None else digest.cache
    return run.Request(digest.fn, request.tool_name, request.sample, request.room, float(digest.timeout), cache)


def _written(result: Compressed, request: DigestRequest, answer: str | None, call: DigestCall) -> Compressed:
    """`result` with `answer` written at the request's offset (unless there is none), the call
    recorded, and no request left, so that applying again writes nothing more."""
    if answer is None:
        return replace(result, digest=call, digest_request=None)
    text = result.text[: request.at] + run.LEAD + run.fit(answer, request.room) + result.text[request.at :]
    return replace(result, text=text, digest=call, digest_request=None)


def _due(result: object, digest: object) -> tuple[DigestRequest, Digest] | None:
    """The request `result` still carries and the checked digest to answer it, if one is due."""
    if not isinstance(result, Compressed):
        raise TypeError(f"result must be a shapeclip.Compressed, not {type(result).__name__}")
    checked = as_digest(digest)
    return None if result.digest_request is None else (result.digest_request, checked)


def apply(result: Compressed, digest: Digest | DigestFn) -> Compressed:
    """`result` with `digest`'s answer to its request written into its marker, and `.digest`
    recording the call (a failure records why and leaves the plain marker). A result with no
    request (none was due, or it was applied already) comes back as it is. The text stays
    within the budget `result` was compressed to. An async digest runs in a loop of its own."""
    due = _due(result, digest)
    if due is None:
        return result
    request, checked = due
    return _written(result, request, *run.ask(_asked(request, checked)))


async def aapply(result: Compressed, digest: Digest | DigestFn) -> Compressed:
    """`apply` that awaits an async digest in the caller's loop (a sync one runs in a thread)."""
    due = _due(result, digest)
    if due is None:
        return result
    request, checked = due
    return _written(result, request, *await run.aask(_asked(request, checked)))
