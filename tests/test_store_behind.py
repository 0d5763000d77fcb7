"""A long stream's stored copy is hashed and written on a thread of its own (`store.behind`):
it is kept byte for byte under the hash of its bytes, and a failure there, a full disk or the
quota, still fails open, with no temporary file left behind."""

from __future__ import annotations

import errno
import fcntl
import os
import sys
import threading
from pathlib import Path
from typing import BinaryIO

import blake3
import pytest

import shapeclip
from shapeclip.store import Store, behind
from shapeclip.store import writer as writer_module

CHUNK = 1 << 19
# Lines of many lengths, with non-ASCII text: 6 MiB in all.
ACCENT = "\u00e9"
LINES = b"".join(f"{i} {ACCENT * (i % 97)} end\n".encode() for i in range(1, 50_000))
DATA = (LINES * (6 * (1 << 20) // len(LINES) + 1))[: 6 * (1 << 20)]
# From another implementation of BLAKE3 (the `blake3` package, a test extra), not the core's.
EXPECTED_DIGEST = "blake3:" + blake3.blake3(DATA).hexdigest()


def behind_threads() -> int:
    return sum(thread.name.startswith("shapeclip-store") for thread in threading.enumerate())


def test_a_long_stream_is_stored_byte_for_byte_from_behind(tmp_path: Path) -> None:
    capture = Store(tmp_path / "s").capture("bash")
    for i in range(0, len(DATA), CHUNK):
        capture.write(DATA[i : i + CHUNK])
        if i >= writer_module.BEHIND_AFTER_BYTES:
            # One hashes and stages; where direct writes are had (Linux), one writes to disk.
            assert behind_threads() == (2 if sys.platform == "linux" else 1)
    entry = capture.commit()
    assert behind_threads() == 0
    assert entry.path.read_bytes() == DATA
    assert entry.digest == EXPECTED_DIGEST and entry.size == len(DATA)
    assert entry.id == Store(tmp_path / "t").put(DATA).id  # as if written in one piece


def stored(tmp_path: Path, sizes: list[int]) -> bytes:
    """DATA written in pieces of `sizes` (the last one repeated), read back from its entry."""
    capture = Store(tmp_path / "s").capture("bash")
    at = 0
    while at < len(DATA):
        size = sizes[0] if len(sizes) == 1 else sizes.pop(0)
        capture.write(DATA[at : at + size])
        at += size
    entry = capture.commit()
    assert entry.digest == EXPECTED_DIGEST and entry.size == len(DATA)
    return entry.path.read_bytes()


# Pieces that leave the first direct write starting inside a block, and ones of a block.
SIZES = [[1_000_003, 777_777], [(1 << 20) - 1, 1, 4096], [3, 2 * behind.STAGED + 5]]


@pytest.mark.parametrize("sizes", SIZES)
def test_direct_writes_keep_every_byte_wherever_the_blocks_fall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sizes: list[int]
) -> None:
    started: list[behind._Direct | None] = []
    start = behind._Direct.start

    def noted(fd: int, written: int) -> behind._Direct | None:
        started.append(start(fd, written))
        return started[-1]

    monkeypatch.setattr(behind._Direct, "start", noted)
    assert stored(tmp_path, list(sizes)) == DATA
    if os.uname().sysname == "Linux":
        assert started and started[0] is not None, "this file system takes direct writes"


@pytest.mark.parametrize("refused", ["the flag", "the first write", "a later write"])
def test_where_direct_writes_are_refused_the_page_cache_takes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused: str
) -> None:
    if refused == "the flag":
        monkeypatch.setattr(os, "O_DIRECT", 0, raising=False)
    else:
        pwrite = os.pwrite
        direct_writes = [0]

        def picky(fd: int, data: memoryview, offset: int) -> int:
            """Refuses direct writes from the first or the second on, as a file system may."""
            if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT:
                direct_writes[0] += 1
                if direct_writes[0] >= (1 if refused == "the first write" else 2):
                    raise OSError(errno.EINVAL, "Invalid argument")
            return pwrite(fd, data, offset)

        monkeypatch.setattr(os, "pwrite", picky)
    assert stored(tmp_path, [1_000_003, 777_777]) == DATA


def _full_after(limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files that take `limit` bytes, then fail as on a full disk, written directly or not."""
    create = writer_module.create_private
    pwrite = os.pwrite

    def full_pwrite(fd: int, data: memoryview, offset: int) -> int:
        if offset + len(data) > limit:
            raise OSError(errno.ENOSPC, "No space left on device")
        return pwrite(fd, data, offset)

    class Full:
        def __init__(self, file: BinaryIO) -> None:
            self._file = file
            self._left = limit

        def write(self, data: bytes) -> int:
            if len(data) > self._left:
                raise OSError(errno.ENOSPC, "No space left on device")
            self._left -= len(data)
            return self._file.write(data)

        def __getattr__(self, name: str) -> object:
            return getattr(self._file, name)

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self._file.close()

    monkeypatch.setattr(writer_module, "create_private", lambda root_fd, name: Full(create(root_fd, name)))
    monkeypatch.setattr(os, "pwrite", full_pwrite)


@pytest.mark.parametrize("breakage", ["full disk", "over quota"])
def test_a_failure_behind_fails_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, breakage: str) -> None:
    path = tmp_path / "s"
    max_bytes = 3 * (1 << 20) if breakage == "over quota" else 10**9
    if breakage == "full disk":
        _full_after(2 * (1 << 20), monkeypatch)
    stream = shapeclip.Compressor("bash", 3000, store=Store(path, max_bytes))
    for i in range(0, len(DATA), CHUNK):
        stream.feed(DATA[i : i + CHUNK])
    result = stream.finish_detailed()
    assert result.stored is None
    assert result.store_error and ("No space" in result.store_error or "quota" in result.store_error)
    assert result.text == shapeclip.compress(DATA, "bash", 3000)
    assert behind_threads() == 0
    assert not [name for name in os.listdir(path) if name.startswith(".tmp-")]
