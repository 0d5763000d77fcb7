"""Keeping a compression's input in a store, for the facade: fail-open, and only when cut.

Storing is a convenience of the marker, never a condition of the compression: any failure
(a full disk, a read-only or hostile directory, a refused path) leaves the plain marker, and
`Kept.error` says why. The input's bytes go to disk as they arrive, so a stream's memory
stays bounded; they become an entry only if the compression cuts something: when the input,
its characters counted as the core counts them, does not `fit.fits` the budget. The keeper
counts for itself because it alone still sees every chunk when the core failed mid-stream.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from ..fit import fits

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:  # a compression given no store imports none of the store's machinery
    import logging

    from .._core import InputPiece
    from .store import Capture, Store
    from .writer import Entry


def _log() -> logging.Logger:
    import logging  # only when something is logged

    return logging.getLogger("shapeclip")


@dataclass(frozen=True)
class Kept:
    """What became of the input: the entry it is stored as, or why it is not."""

    entry: Entry | None = None
    error: str | None = None

    def way_back(self) -> tuple[str, str] | None:
        """The entry's ID and path, as the core's markers take them."""
        return None if self.entry is None else (self.entry.id, str(self.entry.path))


def _printable(path: str) -> bool:
    """Whether `path` can stand inside a one-line marker without being misread."""
    return path.isprintable() and "[" not in path and "]" not in path


class Keeper:
    """Writes an input to `store` chunk by chunk; `finish` keeps it only if it does not fit
    `budget`, that is, cut."""

    def __init__(self, store: Store, tool: str | None, budget: int) -> None:
        self._capture: Capture | None = None
        self._error: str | None = None
        self._budget = budget
        self._chars = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        if not _printable(str(store.path)):
            self._error = f"the store's path {str(store.path)!r} cannot be printed in a marker"
            return
        try:
            self._capture = store.capture(tool)
        except Exception as exc:  # fail-open: the compression goes on without a stored copy
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        self._error = str(exc) or type(exc).__name__
        _log().debug("shapeclip: the output is not stored: %s", self._error)
        self._drop()

    def _drop(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            try:
                capture.drop()
            except Exception:
                _log().debug("shapeclip: dropping a stored copy failed", exc_info=True)

    def feed(self, chunk: str | bytes | InputPiece) -> None:
        """`chunk` must be valid text already (no lone surrogates): the facade checks it. A
        piece of input goes to the store as it is, to be written from where it lies."""
        data = chunk.encode("utf-8") if isinstance(chunk, str) else chunk
        # Counted as the core counts (the chunks' bytes form one UTF-8 stream) until the count
        # passes the budget: the input is cut then, whatever follows, and counting on would
        # decode every byte of a long stream again.
        if not fits(self._chars, self._budget):
            pass  # cut already
        elif isinstance(chunk, str) and not self._decoder.getstate()[0]:
            self._chars += len(chunk)
        else:
            self._chars += len(self._decoder.decode(bytes(data)))
        if self._capture is not None:
            try:
                self._capture.write(data)
            except Exception as exc:
                self._fail(exc)

    def finish(self) -> Kept:
        self._chars += len(self._decoder.decode(b"", True))
        if fits(self._chars, self._budget):
            self._drop()
            return Kept()
        capture, self._capture = self._capture, None
        if capture is None:
            return Kept(error=self._error)
        try:
            return Kept(capture.commit())
        except Exception as exc:
            self._fail(exc)
            return Kept(error=self._error)
