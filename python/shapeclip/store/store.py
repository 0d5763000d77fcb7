"""`Store`: full outputs kept on disk so that a marker's omitted lines can be read back exactly.

Entries are content-addressed (see `writer`), so the same output always gets the same ID and
its markers the same bytes. Recency is the output file's modification time, refreshed when
an entry is stored again or read; past the quota, the least recently used entries are
evicted, never the one just written. Several processes may store and evict at once: every
step is one atomic call on names in the store's own directory, and publishing an entry,
eviction and pruning hold the store's lock (see `writer`). Eviction takes an entry's output
and leaves its metadata, for a while, as the record that it was evicted: `resolve` can then
tell an evicted ID from one that was never stored. An entry whose output is there but whose
metadata cannot be read, or records another size, is damaged: it is read by no one, listed
and counted nowhere, and pruned.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .root import Refused, bad_setting, default_path, open_root
from .writer import ID_DIGITS, META, OUT, TEMP_PREFIX, Entry, EntryWriter, entry_from_meta, locked

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import BinaryIO

    from .._core import InputPiece

DEFAULT_MAX_BYTES = 500 * 1000 * 1000
#: Sets the quota of a store made without `max_bytes`: the CLI's, the hooks' and plugins'.
MAX_BYTES_ENV_VAR = "SHAPECLIP_STORE_MAX_BYTES"
#: A temporary file this old belongs to a writer that died; `prune` removes it.
STALE_TEMP_SECONDS = 3600
#: Records of evicted entries kept at most; past it the oldest go, and their IDs are unknown.
MAX_EVICTED_RECORDS = 1_000
_ID = re.compile(f"[0-9a-f]{{{ID_DIGITS},64}}")
#: The shortest prefix `resolve` takes, as git takes one.
_PREFIX = re.compile("[0-9a-f]{4,64}")
EVICTED = "the stored output was evicted; run the command again"


class Evicted(KeyError):
    """No entry has this ID (any more)."""

    def __str__(self) -> str:
        return f"{self.args[0]}: {EVICTED}" if self.args else EVICTED


class Damaged(KeyError):
    """An entry whose output is there but cannot be trusted: `why` says what is wrong."""

    def __init__(self, entry_id: str, why: str) -> None:
        super().__init__(entry_id)
        self.why = why

    def __str__(self) -> str:
        return f"{self.args[0]}: the stored output is damaged ({self.why}); run the command again"


class Unknown(KeyError):
    """No entry has or recently had an ID that starts with this."""

    def __str__(self) -> str:
        return f"{self.args[0]}: no output was stored under this ID"


class Ambiguous(KeyError):
    """Several entries' IDs start with this prefix: `candidates`, in order."""

    def __init__(self, prefix: str, candidates: tuple[str, ...]) -> None:
        super().__init__(prefix)
        self.candidates = candidates

    def __str__(self) -> str:
        return f"{self.args[0]} is the start of {len(self.candidates)} IDs: {', '.join(self.candidates)}"


@dataclass(frozen=True)
class Stats:
    path: Path
    entries: int
    bytes: int
    max_bytes: int


class Capture:
    """An entry being written as its bytes arrive; `commit` stores it, `drop` forgets it."""

    def __init__(self, store: Store, tool: str | None) -> None:
        self._store = store
        self._fd = open_root(store.path, create=True)
        try:
            self._writer = EntryWriter(self._fd, store.path, tool, store.command, store.max_bytes)
        except BaseException:
            os.close(self._fd)
            raise
        self._closed = False

    @property
    def size(self) -> int:
        return self._writer.size

    def write(self, data: bytes | InputPiece) -> None:
        try:
            self._writer.write(data)
        except BaseException:
            self._close()
            raise

    def commit(self) -> Entry:
        try:
            entry = self._writer.commit()
            with locked(self._fd):
                # What cannot be evicted now is evicted by the next store or prune.
                _evict(self._fd, self._store.max_bytes, entry.id, _Remover(self._fd))
            return entry
        finally:
            self._close()

    def drop(self) -> None:
        self._writer.drop()
        self._close()

    def _close(self) -> None:
        if not self._closed:
            self._closed = True
            self._writer.drop()
            os.close(self._fd)


class Store:
    """Full outputs on disk, at most `max_bytes` of them: by default
    `$SHAPECLIP_STORE_MAX_BYTES`, else 500 MB (a malformed value is logged and ignored).

    `path` defaults to `$SHAPECLIP_STORE`, else `$XDG_CACHE_HOME/shapeclip`, else
    `~/.cache/shapeclip`. Nothing touches the disk until an output is stored or read. Each
    entry records the working directory, and `command`, the command whose output this store
    is given (the CLI's `-- COMMAND`), when there is one.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        max_bytes: int | None = None,
        *,
        command: str | None = None,
    ) -> None:
        if max_bytes is None:
            max_bytes = _quota_from_environment()
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
        if command is not None and not isinstance(command, str):
            raise TypeError(f"command must be a str or None, not {type(command).__name__}")
        self.path = Path(os.path.abspath(default_path() if path is None else Path(path)))
        self.max_bytes = max_bytes
        self.command = command

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r}, max_bytes={self.max_bytes})"

    def capture(self, tool: str | None) -> Capture:
        """Starts an entry to be written in pieces. Raises `Refused` or `OSError`."""
        return Capture(self, tool)

    def put(self, data: str | bytes, tool: str | None = None) -> Entry:
        """Stores one output (a `str` as UTF-8). Raises `Refused` or `OSError`."""
        capture = self.capture(tool)
        capture.write(data.encode("utf-8", "replace") if isinstance(data, str) else data)
        return capture.commit()

    def entry(self, entry_id: str) -> Entry:
        """What is known of `entry_id`. Raises `Evicted` when there is no such entry, `Damaged`
        when it cannot be trusted."""
        with self.opened(entry_id) as (entry, _):
            return entry

    def get(self, entry_id: str) -> str:
        """The whole stored output, decoded as the compression read it."""
        with self.opened(entry_id) as (_, file):
            return file.read().decode("utf-8", "replace")

    def lines(self, entry_id: str, first: int, last: int) -> list[str]:
        """Lines `first` to `last` (1-based, inclusive, numbered as in the markers), each with
        its newline if it had one; fewer when the output ends sooner."""
        if first < 1 or last < first:
            raise ValueError(f"a line range is 1-based and in order, got {first}:{last}")
        with self.opened(entry_id) as (_, file):
            return [line.decode("utf-8", "replace") for _, line in numbered(file, first, last)]

    @contextlib.contextmanager
    def opened(self, entry_id: str) -> Iterator[tuple[Entry, BinaryIO]]:
        """The entry and its output, opened for reading; its recency is refreshed. Raises
        `Evicted` when there is no such entry, and `Damaged` when its metadata cannot be read
        or its output is not the size the metadata records (cut short, or written to)."""
        if not _ID.fullmatch(entry_id):
            raise Evicted(entry_id)
        try:
            root = open_root(self.path, create=False)
        except Refused:
            raise Evicted(entry_id) from None
        try:
            try:
                fd = os.open(entry_id + OUT, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=root)
            except OSError:
                raise Evicted(entry_id) from None
            file = os.fdopen(fd, "rb")
            with file:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                    raise Evicted(entry_id)
                entry = _trusted(entry_id, entry_from_meta(root, self.path, entry_id), info.st_size)
                with contextlib.suppress(OSError):
                    os.utime(fd)
                yield entry, file
        finally:
            os.close(root)

    def resolve(self, prefix: str) -> str:
        """The ID of the one entry whose ID is `prefix` or starts with it (4 hex digits at
        least). Raises `Evicted` when that entry's output was evicted, `Ambiguous` when
        several IDs start with it, and `Unknown` when none does."""
        if not _PREFIX.fullmatch(prefix):
            raise Unknown(prefix)
        try:
            root = open_root(self.path, create=False)
        except Refused:
            raise Unknown(prefix) from None
        try:
            listing = _scan(root)
        finally:
            os.close(root)
        live = {entry_id for _, entry_id, _ in listing.entries}
        known = live | {entry_id for _, entry_id in listing.evicted}
        # A whole ID is itself even when a longer ID starts with it.
        matches = [prefix] if prefix in known else sorted(i for i in known if i.startswith(prefix))
        if not matches:
            raise Unknown(prefix)
        if len(matches) > 1:
            raise Ambiguous(prefix, tuple(matches))
        if matches[0] not in live:
            raise Evicted(matches[0])
        return matches[0]

    def entries(self) -> list[Entry]:
        """Every entry but the damaged, the most recently stored first. Raises `Refused` when the
        store cannot be used."""
        root = open_root(self.path, create=False)
        try:
            found, _ = _read_entries(root, self.path, _scan(root))
        finally:
            os.close(root)
        return sorted(found, key=lambda e: (-e.stored_at, e.id))

    def stats(self) -> Stats:
        """How many entries and bytes the store holds, as `entries` lists them. Raises `Refused`
        when it cannot be used."""
        found = self.entries()
        return Stats(self.path, len(found), sum(entry.size for entry in found), self.max_bytes)

    def prune(self) -> int:
        """Removes what dead writers left (temporary files, outputs without metadata) and damaged
        entries, and evicts down to the quota; returns files removed. Raises `Refused` when a
        file could not be."""
        return self._sweep(everything=False)

    def clear(self) -> int:
        """Removes every entry; returns files removed. Raises `Refused` when a file could not be."""
        return self._sweep(everything=True)

    def _sweep(self, *, everything: bool) -> int:
        root = open_root(self.path, create=False)
        try:
            remove = _Remover(root)
            with locked(root):
                listing = _scan(root)
                stale = time.time() - STALE_TEMP_SECONDS
                names = [name for name, mtime in listing.temps if everything or mtime < stale]
                names += [entry_id + OUT for entry_id in listing.orphans]
                if everything:
                    names += [entry_id + suffix for _, entry_id, _ in listing.entries for suffix in (OUT, META)]
                    names += [entry_id + META for _, entry_id in listing.evicted]
                else:
                    _, damaged = _read_entries(root, self.path, listing)
                    names += [entry_id + suffix for entry_id in damaged for suffix in (OUT, META)]
                for name in names:
                    remove(name)
                if not everything:
                    _evict(root, self.max_bytes, None, remove)
            if remove.failed:
                raise Refused(
                    f"removed {remove.removed:,} files from {self.path}, but could not remove "
                    f"{remove.failed:,}: {remove.error}"
                )
            return remove.removed
        finally:
            os.close(root)


def numbered(file: BinaryIO, first: int = 1, last: int | None = None) -> Iterator[tuple[int, bytes]]:
    """Lines `first` to `last` of `file` (to its end when `last` is None), byte for byte, with
    their numbers, which start at 1 and split at `\\n` only, as the engine's do."""
    for number, raw in enumerate(file, 1):
        if last is not None and number > last:
            return
        if number >= first:
            yield number, raw


def _trusted(entry_id: str, entry: Entry | None, size: int) -> Entry:
    """`entry`, the metadata of an output of `size` bytes, when it can be trusted. Raises
    `Damaged` when it cannot."""
    if entry is None:
        raise Damaged(entry_id, "its metadata is missing or cannot be read")
    if entry.size != size:
        raise Damaged(entry_id, f"its output has {size:,} bytes where {entry.size:,} were stored")
    return entry


def _read_entries(root: int, path: Path, listing: _Listing) -> tuple[list[Entry], list[str]]:
    """The entries of `listing` that can be trusted, and the IDs of the damaged ones."""
    found, damaged = [], []
    for _, entry_id, size in listing.entries:
        try:
            found.append(_trusted(entry_id, entry_from_meta(root, path, entry_id), size))
        except Damaged:
            damaged.append(entry_id)
    return found, damaged


@dataclass(frozen=True)
class _Listing:
    """The store's files, by what they are. Listed without the lock it is only a snapshot."""

    #: (recency, ID, size) of each entry, least recently used first.
    entries: list[tuple[int, str, int]]
    #: (when last stored, ID) of each evicted entry's metadata, oldest first.
    evicted: list[tuple[int, str]]
    #: IDs of outputs without metadata, which no reader serves.
    orphans: list[str]
    #: (name, modification time) of each temporary file.
    temps: list[tuple[str, float]]


def _scan(root: int) -> _Listing:
    outputs: dict[str, tuple[int, int]] = {}
    metas: dict[str, int] = {}
    temps = []
    with os.scandir(root) as listing:
        for item in listing:
            name = item.name
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            if name.startswith(TEMP_PREFIX):
                temps.append((name, info.st_mtime))
            elif name.endswith(OUT):
                outputs[name[: -len(OUT)]] = (info.st_mtime_ns, info.st_size)
            elif name.endswith(META):
                metas[name[: -len(META)]] = info.st_mtime_ns
    return _Listing(
        sorted((recency, i, size) for i, (recency, size) in outputs.items() if i in metas),
        sorted((evicted, i) for i, evicted in metas.items() if i not in outputs),
        sorted(i for i in outputs if i not in metas),
        temps,
    )


class _Remover:
    """Removes names from the store's directory, counting what it removed and what it could not."""

    def __init__(self, root: int) -> None:
        self._root = root
        self.removed = 0
        self.failed = 0
        self.error: str | None = None

    def __call__(self, name: str) -> bool:
        try:
            os.unlink(name, dir_fd=self._root)
        except FileNotFoundError:
            return False
        except OSError as exc:
            self.failed += 1
            self.error = exc.strerror or str(exc)
            return False
        self.removed += 1
        return True


def _quota_from_environment() -> int:
    value = os.environ.get(MAX_BYTES_ENV_VAR, "").strip()
    if not value:
        return DEFAULT_MAX_BYTES
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        problem = f"must be a positive whole number of bytes, got {value!r}"
        bad_setting(MAX_BYTES_ENV_VAR, problem, f"{DEFAULT_MAX_BYTES:,}")
        return DEFAULT_MAX_BYTES
    return int(value)


def _evict(root: int, max_bytes: int, keep: str | None, remove: _Remover) -> None:
    """Evicts least recently used entries other than `keep` until the outputs fit `max_bytes`,
    then forgets the oldest records of evicted entries past `MAX_EVICTED_RECORDS`. The caller
    holds the lock."""
    listing = _scan(root)
    total = sum(size for _, _, size in listing.entries)
    evicted = 0
    for _, entry_id, size in listing.entries:
        if total <= max_bytes:
            break
        # Only the output goes: the metadata stays as the record that this ID was evicted.
        if entry_id != keep and remove(entry_id + OUT):
            total -= size
            evicted += 1
    excess = len(listing.evicted) + evicted - MAX_EVICTED_RECORDS
    for _, entry_id in listing.evicted[: max(excess, 0)]:
        remove(entry_id + META)
