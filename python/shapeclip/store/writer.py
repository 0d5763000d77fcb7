"""Writing one entry: bytes to a private temporary file as they arrive, then a name claimed
atomically from the content's hash.

An entry is two files named by its ID: `ID.json` (the output's whole hash, the tool, the
command and the directory it ran in, when it was stored, its size) and `ID.out` (the output itself,
byte for byte, so that a file-reading tool sees the very line numbers the markers name). Both
are written to temporary names and fsync'd first; then, holding the store's lock (`locked`),
the metadata is claimed with `link`, which fails rather than replace, so of two processes
storing different outputs under the same short ID exactly one wins and the other lengthens
its ID; then the output is renamed into place, so a reader finds either no `ID.out` or a
complete one, even after a crash. Eviction and pruning hold the same lock, so none of them
can remove an entry between its metadata being claimed and its output arriving, which left
outputs without metadata. Two processes storing the same output both end with the same entry.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..json_text import parse
from .root import Refused

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import BinaryIO

    from .._core import InputPiece
    from .behind import Hash, WriteBehind

#: Hex digits of the output's hash an ID starts with; longer only when another entry has them.
ID_DIGITS = 12
#: The hashes an entry's metadata may name its output's by, as its key: BLAKE3 from the core,
#: SHA-256 where the core cannot load (and in entries stored before the core hashed).
HASHES = ("blake3", "sha256")
TEMP_PREFIX = ".tmp-"
OUT = ".out"
META = ".json"
LOCK = ".lock"
#: Bytes an entry is written in, in the writer's own thread; past them, behind it (`behind`),
#: so that an output a hook stores whole starts no thread, and a long stream waits on no hash.
BEHIND_AFTER_BYTES = 1 << 20
#: Characters kept of each text (tool, command, directory) in the metadata, so that every entry's metadata stays well
#: under `MAX_META_BYTES` (JSON escapes a character in at most 12 bytes).
MAX_FIELD_CHARS = 1_000
MAX_META_BYTES = 1 << 16
# Readable too: a write behind (`behind`) reads back the last block begun, to write it whole.
_FILE_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Entry:
    """A stored output."""

    id: str
    #: The output, byte for byte: line N of this file is line N of every marker.
    path: Path
    tool: str | None
    #: Seconds since the epoch when this output was first stored.
    stored_at: float
    size: int
    #: The output's hash, as "blake3:HEX" or "sha256:HEX" (`HASHES`).
    digest: str
    #: The command that printed it, when the store was told (the CLI's `-- COMMAND`).
    command: str | None = None
    #: The working directory of the process that stored it.
    cwd: str | None = None


def temp_name() -> str:
    # `os.urandom` is what `secrets.token_hex` reads, without the start-up cost of `secrets`.
    return f"{TEMP_PREFIX}{os.getpid()}-{os.urandom(8).hex()}"


def create_private(root_fd: int, name: str) -> BinaryIO:
    """A new file `name`, mode 0600, for writing; never an existing file or a symlink's target."""
    fd = os.open(name, _FILE_FLAGS, 0o600, dir_fd=root_fd)
    return os.fdopen(fd, "wb")


def unlink_quietly(root_fd: int, name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=root_fd)


@contextlib.contextmanager
def locked(root_fd: int) -> Iterator[None]:
    """Holds the store's lock, which publishing an entry, evicting and pruning take so that
    none sees another half done; readers never need it. Raises `Refused` when the lock file
    cannot be made (a read-only store)."""
    try:
        fd = os.open(LOCK, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=root_fd)
    except OSError as exc:
        raise Refused(f"cannot lock the store: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def read_meta(root_fd: int, entry_id: str) -> dict[str, object] | None:
    """The metadata of `entry_id`, or None when it is missing, unreadable or not ours."""
    try:
        fd = os.open(entry_id + META, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=root_fd)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        try:
            data = parse(file.read(MAX_META_BYTES))
        except (OSError, ValueError):
            return None
    return data if isinstance(data, dict) and _digest(data) is not None else None


def _digest(meta: dict[str, object]) -> tuple[str, str] | None:
    """The hash the metadata names its output's by, and its hex digits."""
    for name in HASHES:
        value = meta.get(name)
        if isinstance(value, str):
            return name, value
    return None


def _content_hash() -> tuple[str, Hash]:
    """A new hash of the first kind in `HASHES` that this install can compute. BLAKE3 runs at
    about 9 GB/s on a core here, SHA-256 (with the CPU's SHA instructions) at 1.9."""
    try:
        from .._core import ContentHash
    except ImportError:
        import hashlib  # only here: its import alone is 3 ms of a hook's start-up

        # Only `bytes` come without the core: input pieces are the core's.
        return "sha256", hashlib.sha256()  # type: ignore[return-value]
    return "blake3", ContentHash()


class EntryWriter:
    """Receives one output's bytes and stores them as an entry on `commit`, or drops them.

    Raises `Refused` or `OSError` when the store cannot take the output; the caller decides
    what that means (the facade: no stored copy, and why, in the result's details).
    """

    def __init__(self, root_fd: int, root: Path, tool: str | None, command: str | None, max_bytes: int) -> None:
        self._root_fd = root_fd
        self._root = root
        self._labels = {"tool": tool, "command": command, "cwd": _cwd()}
        self._max_bytes = max_bytes
        self._hash_name, self._hash = _content_hash()
        self.size = 0
        self._temp = temp_name()
        self._file: BinaryIO | None = create_private(root_fd, self._temp)
        self._behind: WriteBehind | None = None

    def write(self, data: bytes | InputPiece) -> None:
        if self._file is None:
            raise Refused("this entry was already committed or dropped")
        self.size += len(data)
        if self.size > self._max_bytes:
            self.drop()
            raise Refused(f"the output is larger than the store's quota of {self._max_bytes:,} bytes")
        if self._behind is None and self.size >= BEHIND_AFTER_BYTES:
            from .behind import WriteBehind

            self._behind = WriteBehind(self._hash, self._file, self.size - len(data))
        if self._behind is not None:
            self._behind.put(data)
        else:
            data = bytes(data)  # a piece's copy; `bytes` as they are
            self._hash.update(data)
            self._file.write(data)

    def drop(self) -> None:
        """Forgets the bytes written so far."""
        if self._behind is not None:
            self._behind.abandon()
            self._behind = None
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
            unlink_quietly(self._root_fd, self._temp)

    def commit(self) -> Entry:
        """Stores what was written and returns the entry (an earlier one, if it is the same)."""
        if self._file is None:
            raise Refused("this entry was already committed or dropped")
        try:
            if self._behind is not None:
                behind, self._behind = self._behind, None
                behind.close()
            self._file.flush()
            # Renamed only once on disk: a crash may lose the entry, never serve half of it.
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
            digest = self._hash.hexdigest()
            meta: dict[str, object] = {self._hash_name: digest, "stored_at": time.time(), "size": self.size}
            meta.update((key, _bounded(value)) for key, value in self._labels.items())
            meta_temp = temp_name()
            try:
                with create_private(self._root_fd, meta_temp) as file:
                    file.write(json.dumps(meta, sort_keys=True).encode())
                    file.flush()
                    os.fsync(file.fileno())
                with locked(self._root_fd):
                    entry_id, meta = self._claim(digest, meta_temp, meta)
                    os.rename(self._temp, entry_id + OUT, src_dir_fd=self._root_fd, dst_dir_fd=self._root_fd)
            finally:
                unlink_quietly(self._root_fd, meta_temp)
        finally:
            self.drop()
        return _entry(entry_id, self._root, meta)

    def _claim(self, digest: str, meta_temp: str, meta: dict[str, object]) -> tuple[str, dict[str, object]]:
        """The ID and metadata of this output: `meta_temp` linked in under a new ID, or the
        metadata the output already has (kept when it was evicted, too)."""
        for digits in range(ID_DIGITS, len(digest) + 1):
            entry_id = digest[:digits]
            try:
                os.link(
                    meta_temp,
                    entry_id + META,
                    src_dir_fd=self._root_fd,
                    dst_dir_fd=self._root_fd,
                    follow_symlinks=False,
                )
            except FileExistsError:
                found = read_meta(self._root_fd, entry_id)
                if found is None or found.get(self._hash_name) != digest:
                    continue  # another output has these digits: a longer ID tells them apart
                meta = found
            return entry_id, meta
        raise Refused(f"no free ID for {self._hash_name}:{digest}: the store holds damaged entries")


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the directory was removed under the process
        return None


def _bounded(text: str | None) -> str | None:
    return None if text is None else text[:MAX_FIELD_CHARS]


def _text(meta: dict[str, object], key: str) -> str | None:
    value = meta.get(key)
    return value if isinstance(value, str) else None


def _entry(entry_id: str, root: Path, meta: dict[str, object]) -> Entry:
    stored_at, size = meta.get("stored_at"), meta.get("size")
    named = _digest(meta)
    assert named is not None, "read_meta and commit give only metadata that names a hash"
    return Entry(
        entry_id,
        root / (entry_id + OUT),
        _text(meta, "tool"),
        float(stored_at) if isinstance(stored_at, (int, float)) else 0.0,
        size if isinstance(size, int) else 0,
        ":".join(named),
        _text(meta, "command"),
        _text(meta, "cwd"),
    )


def entry_from_meta(root_fd: int, root: Path, entry_id: str) -> Entry | None:
    meta = read_meta(root_fd, entry_id)
    return None if meta is None else _entry(entry_id, root, meta)
