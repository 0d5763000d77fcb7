"""Hashing and writing an entry's bytes on a thread of their own, behind the compression.

A long stream (`shapeclip -- CMD`, a pipe) is stored as it is compressed. On its own thread,
the hash and the write of each chunk cost the compression no more than a core's share: both
release the GIL for large buffers, as the core does. The chunks wait in a short queue, in
order, so memory stays bounded; a failure is kept and raised to the writer at its next call,
as a write that failed at once would have been.

Where the file system takes it (Linux's `O_DIRECT`), the bytes go to disk without the page
cache: through the page cache, writing a gigabyte cost more CPU time than compressing it (on
ext4, 1.1 s of kernel time against the core's 0.9 s), and the commit's `fsync` then waited
for all of it anyway. Direct writes must start and end on block boundaries, so the bytes are
staged in an aligned buffer, the last block is written padded and the file cut back to size.
Where the file system refuses them, the same bytes are written through the page cache.
"""

from __future__ import annotations

import errno
import mmap
import os
import queue
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import BinaryIO, Protocol

    class Hash(Protocol):
        def update(self, data: bytes, /) -> None: ...
        def hexdigest(self) -> str: ...


#: Chunks waiting at most; a writer that gets ahead waits for room.
QUEUED = 8
#: Bytes of one direct write: large, so that the disk is kept busy with few calls.
STAGED = 4 << 20
#: What direct writes' offsets and lengths are multiples of: a page, which every block size
#: that Linux allows for them divides.
ALIGN = mmap.PAGESIZE


class WriteBehind:
    """Hashes, then writes, each chunk given to `put`, in order, on a thread of its own, after
    the `written` bytes already in `file`; `close` makes the file exactly what was given."""

    def __init__(self, hash: Hash, file: BinaryIO, written: int) -> None:
        self._hash = hash
        self._file = file
        self._queue: queue.Queue[bytes | None] = queue.Queue(QUEUED)
        self._error: BaseException | None = None
        # Set by `abandon`: the chunks still waiting are not worth writing.
        self._abandoned = False
        file.flush()
        self._size = written
        self._direct = _Direct.start(file.fileno(), written)
        self._thread = threading.Thread(target=self._run, name="shapeclip-store", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (data := self._queue.get()) is not None:
            if self._error is not None or self._abandoned:
                continue  # drained, so that a writer waiting for room never waits forever
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

    def _write(self, data: bytes) -> None:
        self._size += len(data)
        direct = self._direct
        if direct is not None:
            try:
                direct.add(data)
                return
            except OSError as exc:
                if exc.errno != errno.EINVAL:
                    raise
                # The file system took the flag but not the writes: what is staged, and the
                # rest of this chunk, go through the page cache, which `stop` put back.
                self._direct = None
                direct.stop()
                data = data[direct.taken :]
        self._file.write(data)

    def _end(self) -> None:
        direct = self._direct
        if direct is None:
            return
        try:
            direct.finish(self._size)
        except OSError as exc:
            if exc.errno != errno.EINVAL:
                raise
            direct.stop()  # as in `_write`
            os.ftruncate(self._file.fileno(), self._size)

    def put(self, data: bytes) -> None:
        """Queues `data`; raises what an earlier chunk's hash or write raised."""
        self._raise()
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


class _Direct:
    """Direct writes of a file's bytes from `offset` on, staged in an aligned buffer."""

    def __init__(self, fd: int, offset: int, head: bytes) -> None:
        self._fd = fd
        self._offset = offset
        self._staged = mmap.mmap(-1, STAGED)  # page-aligned, as direct writes need
        self._staged[: len(head)] = head
        self._fill = len(head)
        #: Bytes of the chunk being added that are staged.
        self.taken = 0

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

    def add(self, data: bytes) -> None:
        self.taken = 0
        with memoryview(data) as view:
            while self.taken < len(view):
                if self._fill == STAGED:
                    self._flush(STAGED)
                n = min(len(view) - self.taken, STAGED - self._fill)
                self._staged[self._fill : self._fill + n] = view[self.taken : self.taken + n]
                self._fill += n
                self.taken += n

    def _flush(self, length: int) -> None:
        done = 0
        with memoryview(self._staged) as staged:
            while done < length:
                done += os.pwrite(self._fd, staged[done:length], self._offset + done)
        self._offset += length
        self._fill = 0

    def finish(self, size: int) -> None:
        """Writes what is staged, its last block padded, and cuts the file to `size` bytes."""
        if self._fill:
            padded = -(-self._fill // ALIGN) * ALIGN
            self._staged[self._fill : padded] = bytes(padded - self._fill)
            self._flush(padded)
        os.ftruncate(self._fd, size)

    def stop(self) -> None:
        """Back to writes through the page cache, with what is staged written that way."""
        import fcntl

        fcntl.fcntl(self._fd, fcntl.F_SETFL, fcntl.fcntl(self._fd, fcntl.F_GETFL) & ~os.O_DIRECT)
        with memoryview(self._staged) as staged:
            os.pwrite(self._fd, staged[: self._fill], self._offset)
        os.lseek(self._fd, self._offset + self._fill, os.SEEK_SET)
