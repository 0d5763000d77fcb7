"""A long stream's stored copy is hashed and written on a thread of its own (`store.behind`):
it is kept byte for byte under the hash of its bytes, and a failure there, a full disk or the
quota, still fails open, with no temporary file left behind."""

from __future__ import annotations

import errno
import fcntl
import mmap
import os
import sys
import threading
from pathlib import Path
from typing import BinaryIO

import blake3
import pytest

import shapeclip
from shapeclip import api
from shapeclip.store import Store, behind
from shapeclip.store import writer as writer_module

CHUNK = 1 << 19
# Lines of many lengths, with non-ASCII text: 6 MiB in all.
ACCENT = "\u00e9"
LINES = b"".join(f"{i} {ACCENT * (i % 97)} end\n".encode() for i in range(1, 50_000))
DATA = (LINES * (6 * (1 << 20) // len(LINES) + 1))[: 6 * (1 << 20)]
# From another implementation of BLAKE3 (the `blake3` package, a test extra), not the core's.
EXPECTED_DIGEST = "blake3:" + blake3.blake3(DATA).hexdigest()
if api._core is not None and os.name == "posix":
    from shapeclip._core import InputPiece


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


def input_pieces(data: bytes, tmp_path: Path) -> list[InputPiece]:
    """`data` read into the core's input pieces, as the command line reads its input."""
    (tmp_path / "input").write_bytes(data)
    fd = os.open(tmp_path / "input", os.O_RDONLY)
    try:
        pieces = []
        while True:
            piece = InputPiece()
            while piece.read_from(fd):
                pass
            if not len(piece):
                return pieces
            pieces.append(piece)
    finally:
        os.close(fd)


def stored_from_pieces(tmp_path: Path, head: int) -> bytes:
    """DATA written as `head` bytes, then as input pieces, read back from its entry."""
    capture = Store(tmp_path / "s").capture("bash")
    if head:
        capture.write(DATA[:head])
    for piece in input_pieces(DATA[head:], tmp_path):
        capture.write(piece)
    entry = capture.commit()
    assert entry.digest == EXPECTED_DIGEST and entry.size == len(DATA)
    return entry.path.read_bytes()


needs_core = pytest.mark.skipif(api._core is None or os.name != "posix", reason="input pieces are the core's, on Unix")


@needs_core
@pytest.mark.parametrize("head", [0, 1_000_003, 8192])
def test_input_pieces_are_written_where_they_lie_when_they_start_a_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, head: int
) -> None:
    written: list[str] = []
    write_once = behind._write_once

    def noted(fd: int, source: mmap.mmap | InputPiece, length: int, offset: int, done: int) -> int:
        written.append(type(source).__name__)
        return write_once(fd, source, length, offset, done)

    monkeypatch.setattr(behind, "_write_once", noted)
    assert stored_from_pieces(tmp_path, head) == DATA
    if sys.platform == "linux":
        # Behind a head that ends inside a block, every piece is staged, copied, instead.
        assert ("InputPiece" in written) == (head % behind.ALIGN == 0)


def test_the_queue_behind_is_bounded_in_bytes_not_chunks() -> None:
    room = behind._Room(4 << 20)
    for _ in range(64):  # a stream's 64 KiB chunks: many wait at once
        room.take(64 << 10)
    waiting = threading.Thread(target=room.take, args=(1,), daemon=True)
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive(), "past the bound, a writer waits"
    room.give(64 << 10)
    waiting.join(5)
    assert not waiting.is_alive()
    for _ in range(63):
        room.give(64 << 10)
    room.give(1)
    room.take(4 << 20)  # an input piece: one at a time
    larger = threading.Thread(target=room.take, args=(8 << 20,), daemon=True)
    larger.start()
    larger.join(0.2)
    assert larger.is_alive()
    room.give(4 << 20)
    larger.join(5)
    assert not larger.is_alive(), "a chunk over the bound goes alone"


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


WRITTEN_AS = ["bytes", pytest.param("pieces", marks=needs_core)]


@pytest.mark.parametrize("written_as", WRITTEN_AS)
@pytest.mark.parametrize("refused", ["the flag", "the first write", "a later write"])
def test_where_direct_writes_are_refused_the_page_cache_takes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused: str, written_as: str
) -> None:
    if refused == "the flag":
        monkeypatch.setattr(os, "O_DIRECT", 0, raising=False)
    else:
        write_once = behind._write_once
        direct_writes = [0]

        def picky(fd: int, source: mmap.mmap | InputPiece, length: int, offset: int, done: int) -> int:
            """Refuses direct writes from the first or the second on, as a file system may."""
            if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT:
                direct_writes[0] += 1
                if direct_writes[0] >= (1 if refused == "the first write" else 2):
                    raise OSError(errno.EINVAL, "Invalid argument")
            return write_once(fd, source, length, offset, done)

        monkeypatch.setattr(behind, "_write_once", picky)
    if written_as == "pieces":
        assert stored_from_pieces(tmp_path, 0) == DATA
    else:
        assert stored(tmp_path, [1_000_003, 777_777]) == DATA


def _full_after(limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files that take `limit` bytes, then fail as on a full disk, written directly or not."""
    create = writer_module.create_private
    write_once = behind._write_once

    def full_write_once(fd: int, source: mmap.mmap | InputPiece, length: int, offset: int, done: int) -> int:
        if offset + length > limit:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_once(fd, source, length, offset, done)

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
    monkeypatch.setattr(behind, "_write_once", full_write_once)


@pytest.mark.parametrize("written_as", WRITTEN_AS)
@pytest.mark.parametrize("breakage", ["full disk", "over quota"])
def test_a_failure_behind_fails_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, breakage: str, written_as: str
) -> None:
    path = tmp_path / "s"
    max_bytes = 3 * (1 << 20) if breakage == "over quota" else 10**9
    if breakage == "full disk":
        _full_after(2 * (1 << 20), monkeypatch)
    stream = shapeclip.Compressor("bash", 3000, store=Store(path, max_bytes))
    if written_as == "pieces":
        for piece in input_pieces(DATA, tmp_path):
            stream._feed_piece(piece)
    else:
        for i in range(0, len(DATA), CHUNK):
            stream.feed(DATA[i : i + CHUNK])
    result = stream.finish_detailed()
    assert result.stored is None
    assert result.store_error and ("No space" in result.store_error or "quota" in result.store_error)
    assert result.text == shapeclip.compress(DATA, "bash", 3000)
    assert behind_threads() == 0
    assert not [name for name in os.listdir(path) if name.startswith(".tmp-")]
