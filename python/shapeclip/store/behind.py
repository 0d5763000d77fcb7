"""Hashing and writing an entry's bytes on threads of their own, behind the compression.

A long stream (`shapeclip -- CMD`, a pipe) is stored as it is compressed. On its own thread,
the hash and the write of each chunk cost the compression no more than a core's share: both
release the GIL for large buffers, as the core does. The chunks wait in a short queue, in
order, so memory stays bounded; a failure is kept and raised to the writer at its next call,
as a write that failed at once would have been.

Where the file system takes it (Linux's `O_DIRECT`), the bytes go to disk without the page
cache: through the page cache, writing a gigabyte cost more CPU time than compressing it (on
ext4, 1.1 s of kernel time against the core's 0.9 s), and the commit's `fsync` then waited
for all of it anyway. Direct writes must start and end on block boundaries, in aligned
memory. The command line's input pieces are such memory, and are written where they lie when
they start a block; other bytes are staged, copied into aligned buffers, the last block is
written padded and the file cut back to size. A direct write returns only once the disk has
the bytes, so the writes run on a thread of their own while the next bytes are hashed: one
after the other, the disk waited for the hash and the hash for the disk. Where the file
system refuses direct writes, the same bytes are written through the page cache."""

from __future__ import annotations

import errno
import mmap
import os
import queue
import threading

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import BinaryIO, Protocol

    from .._core import InputPiece

    class Hash(Protocol):
        def update(self, data: bytes | InputPiece, /) -> None: ...
        def hexdigest(self) -> str: ...


#: Bytes waiting at most; a writer that gets ahead waits for room, and a chunk as large waits
#: until none does. One input piece (4 MiB) keeps the disk as busy as eight did, which took a
#: stored gigabyte's peak to 64.8 MiB; a stream fed in 64 KiB chunks needs many waiting, or it
#: waits on the store (100 MB stored took 0.125 s with one chunk waiting at most, 0.096 s with
#: eight, 0.074 s with 4 MiB of them).
QUEUED_BYTES = 4 << 20
#: Bytes of one direct write: large, so that the disk is kept busy with few calls.
STAGED = 4 << 20
#: Staged buffers: one filling while another is written.
BUFFERS = 2
#: What direct writes' offsets and lengths are multiples of: a page, which every block size
#: that Linux allows for them divides.
ALIGN = mmap.PAGESIZE


class WriteBehind:
    """Hashes, then writes, each chunk given to `put`, in order, on a thread of its own, after
    the `written` bytes already in `file`; `close` makes the file exactly what was given."""

    def __init__(self, hash: Hash, file: BinaryIO, written: int) -> None:
        self._hash = hash
        self._file = file
        self._queue: queue.SimpleQueue[bytes | InputPiece | None] = queue.SimpleQueue()
        self._room = _Room(QUEUED_BYTES)
        self._error: BaseException | None = None
        # Set by `abandon`: the chunks still waiting are not worth writing.
        self._abandoned = False
        file.flush()
        self._direct = _Direct.start(file.fileno(), written)
        self._thread = threading.Thread(target=self._run, name="shapeclip-store", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (data := self._queue.get()) is not None:
            # Drained after a failure too, so that a writer waiting for room never waits forever.
            self._room.give(len(data))
            if self._error is None and not self._abandoned:
                try:
                    self._hash.update(data)
                    self._write(data)
                except BaseException as exc:  # raised to the writer: see `put` and `close`
                    self._error = exc
        if self._error is None and not self._abandoned:
            try:
                self._end()
            except BaseException as exc:
                self._error = exc
        if self._direct is not None:
            self._direct.stop()  # after a failure too: its thread must not outlive the entry

    def _write(self, data: bytes | InputPiece) -> None:
        if self._direct is not None:
            self._direct.add(data)
        else:
            self._file.write(bytes(data))

    def _end(self) -> None:
        if self._direct is not None:
            self._direct.finish()

    def put(self, data: bytes | InputPiece) -> None:
        """Queues `data`; raises what an earlier chunk's hash or write raised."""
        self._raise()
        self._room.take(len(data))
        self._queue.put(data)

    def close(self) -> None:
        """Returns once every chunk is hashed and written; raises what any of them raised."""
        self._queue.put(None)
        self._thread.join()
        self._raise()

    def abandon(self) -> None:
        """Stops, leaving what is still waiting unwritten."""
        self._abandoned = True
        self._queue.put(None)
        self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error


class _Room:
    """Bytes waiting in a queue, at most `limit` unless one chunk alone is more: `take` waits
    until there is room, and `give` makes it as a chunk leaves the queue."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._queued = 0
        self._changed = threading.Condition()

    def take(self, size: int) -> None:
        with self._changed:
            while self._queued and self._queued + size > self._limit:
                self._changed.wait()
            self._queued += size

    def give(self, size: int) -> None:
        with self._changed:
            self._queued -= size
            self._changed.notify()


class _Direct:
    """Direct writes of a file's bytes from `offset` on: input pieces that start a block as
    they lie, other bytes staged in aligned buffers; each written by a thread of its own while
    the next is hashed or fills."""

    def __init__(self, fd: int, offset: int, head: bytes) -> None:
        self._fd = fd
        #: Where the buffer being filled goes in the file.
        self._offset = offset
        self._free: queue.Queue[mmap.mmap] = queue.Queue()
        for _ in range(BUFFERS):
            self._free.put(mmap.mmap(-1, STAGED))  # page-aligned, as direct writes need
        # Full buffers (staged, or input pieces written where they lie), their length and
        # offset, one waiting at most; None ends the thread.
        self._full: queue.Queue[tuple[mmap.mmap | InputPiece, int, int] | None] = queue.Queue(1)
        self._staged = self._free.get()
        self._staged[: len(head)] = head
        self._fill = len(head)
        self._direct = True
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="shapeclip-store-disk", daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, fd: int, written: int) -> _Direct | None:
        """Direct writes after the `written` bytes of `fd`, or None where they cannot be had.
        The bytes of the last block begun are read back, to be written again whole."""
        flag = getattr(os, "O_DIRECT", 0)
        if not flag:
            return None
        offset = written - written % ALIGN
        try:
            head = os.pread(fd, written - offset, offset)
            import fcntl

            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | flag)
        except OSError:  # a file system without direct writes
            return None
        return cls(fd, offset, head)

    def add(self, data: bytes | InputPiece) -> None:
        if not isinstance(data, bytes):
            if self._fill == 0 and len(data) % ALIGN == 0:
                # Page-aligned, whole blocks, at a block's start: written as it lies.
                self._raise()
                self._full.put((data, len(data), self._offset))
                self._offset += len(data)
                return
            data = bytes(data)
        taken = 0
        with memoryview(data) as view:
            while taken < len(view):
                if self._fill == STAGED:
                    self._hand_over(STAGED)
                n = min(len(view) - taken, STAGED - self._fill)
                self._staged[self._fill : self._fill + n] = view[taken : taken + n]
                self._fill += n
                taken += n

    def _hand_over(self, length: int) -> None:
        """Queues the buffer being filled for writing, and takes a free one (waiting for it)."""
        self._raise()
        self._full.put((self._staged, length, self._offset))
        self._offset += length
        self._fill = 0
        self._staged = self._free.get()

    def _run(self) -> None:
        while (job := self._full.get()) is not None:
            source, length, offset = job
            if self._error is None:
                try:
                    self._write(source, length, offset)
                except BaseException as exc:  # raised to the stager: see `_hand_over`, `finish`
                    self._error = exc
            if isinstance(source, mmap.mmap):
                self._free.put(source)

    def _write(self, source: mmap.mmap | InputPiece, length: int, offset: int) -> None:
        done = 0
        while done < length:
            try:
                done += _write_once(self._fd, source, length, offset, done)
            except OSError as exc:
                if exc.errno != errno.EINVAL or not self._direct:
                    raise
                # The file system took the flag but not the writes: the page cache takes
                # this buffer and every later one, at the same offsets.
                self._direct = False
                import fcntl

                fcntl.fcntl(self._fd, fcntl.F_SETFL, fcntl.fcntl(self._fd, fcntl.F_GETFL) & ~os.O_DIRECT)

    def finish(self) -> None:
        """Writes what is staged, its last block padded, waits for every write, and cuts the
        file back to the bytes given."""
        size = self._offset + self._fill
        if self._fill:
            padded = -(-self._fill // ALIGN) * ALIGN
            self._staged[self._fill : padded] = bytes(padded - self._fill)
            self._hand_over(padded)
        self.stop()
        self._raise()
        os.ftruncate(self._fd, size)

    def stop(self) -> None:
        """Returns once the buffers handed over are written, or failed."""
        if self._thread.is_alive():
            self._full.put(None)
            self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error


def _write_once(fd: int, source: mmap.mmap | InputPiece, length: int, offset: int, done: int) -> int:
    """Writes `source`'s bytes from `done` to `length` at `offset + done`, once: how many went."""
    if isinstance(source, mmap.mmap):
        with memoryview(source) as view, view[done:length] as rest:
            return os.pwrite(fd, rest, offset + done)
    return source.write_at(fd, offset + done, done)
