"""`shapeclip batch` on a JSONL file with several workers: each worker process reads byte
ranges of the file itself, compresses their lines and writes them to a file of its own, and
this process appends those files to the output, range after range, in the order of the input.

No line crosses between processes. Sending blocks of lines to the workers and their results
back (`compress_lines`, still the way for standard input, a pipe and Parquet) cost the parent
and the workers, on the same cores, a third as much CPU as the work itself where little is
cut; here a worker is told where its range is and sends back its `Counts`.

The ranges start at line starts: a range is cut `range_bytes` after its start, and the cut
moved on past the next b"\\n", so a cut never falls inside a line, nor inside a UTF-8
character (no byte of a multi-byte character is a newline); a longer line makes a range of
its own. Each worker runs the one worker's code (`write_lines`) on its lines, so the output is
byte for byte that of one worker, and the counts, added range by range, are the same too.

The ranges shrink as the file is given out: each is a `SHARES_PER_WORKER * workers`th of
what is left, so the first are few and long and the last short, and a worker that draws a
slow range near the end does not leave the others idle long (guided self-scheduling). A
worker reads one line at a time and writes as it goes, so memory does not grow with the file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from typing import TYPE_CHECKING

from .batch import Counts, _start_method, write_lines

if TYPE_CHECKING:
    from collections.abc import Iterator
    from concurrent.futures import ProcessPoolExecutor
    from ctypes import c_byte
    from typing import BinaryIO

    from .batch import Tally
    from .messages import Budget

#: Each range is this many workers' shares smaller than what is left to give out: large at
#: first, so there are few, and small at the end, so that the workers end together
#: (docs/benchmarks.md says what it gains).
SHARES_PER_WORKER = 2
#: The shortest range: each costs a task and a file of its own.
MIN_RANGE_BYTES = 1 << 20
#: The longest range: the output grows a range at a time, and a stop loses the ranges under way.
MAX_RANGE_BYTES = 1 << 24
#: Bytes read at a time while looking for the newline that ends a cut's line.
SCAN_BYTES = 1 << 16


def splittable(source: BinaryIO) -> bool:
    """Whether `source` is a regular file, which workers can open and read a part of each."""
    try:
        return stat.S_ISREG(os.fstat(source.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # no descriptor (io.UnsupportedOperation is both)
        return False


def line_ranges(fd: int, size: int, workers: int) -> list[tuple[int, int]]:
    """The first `size` bytes of the file `fd` as ranges `(start, end)` of whole lines, in order,
    with no gap or overlap and none empty: each ends at the first line start at or past
    `start + range_bytes(size - start, workers)` (or at `size`)."""
    ranges: list[tuple[int, int]] = []
    start = 0
    while start < size:
        end = _line_start_from(fd, start + range_bytes(size - start, workers), size)
        ranges.append((start, end))
        start = end
    return ranges


def _line_start_from(fd: int, offset: int, size: int) -> int:
    """The first line start at or past `offset` (0 < offset): one past the first b"\\n" at or
    after `offset - 1`, or `size` when no line starts there."""
    at = offset - 1
    while at < size:
        block = os.pread(fd, min(SCAN_BYTES, size - at), at)
        if not block:  # the file was cut short while read
            break
        newline = block.find(b"\n")
        if newline >= 0:
            return at + newline + 1
        at += len(block)
    return size


def range_bytes(left: int, workers: int) -> int:
    """How long the next range is when `left` bytes are not yet given out (see the module's
    docstring)."""
    share = left // (workers * SHARES_PER_WORKER)
    return min(MAX_RANGE_BYTES, max(MIN_RANGE_BYTES, share))


def compress_file(
    path: str, source: BinaryIO, sink: BinaryIO, workers: int, budget: Budget | int, tally: Tally
) -> None:
    """Compresses the JSONL file `source` (open, at `path`) into `sink` on `workers` processes,
    counting each range's lines in `tally` once it is written. A stop (KeyboardInterrupt) or a
    worker's error leaves `sink` with the ranges written before it, whole, and no file behind."""
    import shutil

    fd = source.fileno()
    size = os.fstat(fd).st_size
    ranges = line_ranges(fd, size, workers)
    if not ranges:
        return
    sink.flush()
    scratch = _scratch_folder(sink)
    try:
        pool, stop = workers_for(min(workers, len(ranges)))
        with pool:
            parts = [os.path.join(scratch, f"{i}.jsonl") for i in range(len(ranges))]
            try:
                pending = [
                    pool.submit(_compress_range, path, start, end, part, budget)
                    for (start, end), part in zip(ranges, parts, strict=True)
                ]
                for part, future in zip(parts, pending, strict=True):
                    counts = future.result()
                    with _whole():
                        _append(part, sink)
                        tally.add(counts)
                    os.remove(part)
            except BaseException:
                stop.value = 1
                pool.shutdown(cancel_futures=True)
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def workers_for(count: int) -> tuple[ProcessPoolExecutor, c_byte]:
    """A pool of `count` workers, and the flag that stops them: each leaves Ctrl-C (which
    reaches the whole process group) to this process, which sets the flag; interrupted while
    it waited for work, a pool's worker would die with a traceback and break the pool."""
    from concurrent.futures import ProcessPoolExecutor

    context = _start_method()
    stop = context.Value("b", 0, lock=False)
    return ProcessPoolExecutor(count, mp_context=context, initializer=_start_worker, initargs=(stop,)), stop


def _scratch_folder(sink: BinaryIO) -> str:
    """A new folder for the workers' files: beside the output where it is a file, so that they
    are on its file system (appending them can then be a copy inside the kernel, or a clone),
    else, or where that folder is not writable, in the temporary folder."""
    import tempfile

    prefix = ".shapeclip-batch-"
    name = getattr(sink, "name", None)
    if isinstance(name, str) and splittable(sink) and _names(name, sink):
        try:
            return tempfile.mkdtemp(prefix=prefix, dir=os.path.dirname(os.path.abspath(name)))
        except OSError:
            pass
    return tempfile.mkdtemp(prefix=prefix)


def _names(name: str, sink: BinaryIO) -> bool:
    """Whether the file `name` is the one `sink` writes to (standard output's name is not a path)."""
    try:
        return os.path.samestat(os.stat(name), os.fstat(sink.fileno()))
    except OSError:
        return False


def _start_worker(stop: c_byte) -> None:
    """Runs first in each worker (see `workers_for`)."""
    import signal

    global _stop
    _stop = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Set by the parent to stop the workers (`_start_worker`); read by each worker before each line.
_stop: c_byte | None = None


class Stopped(Exception):
    """A worker's range was left unfinished because the parent stopped the work."""


def _compress_range(path: str, start: int, end: int, target: str, budget: Budget | int) -> Counts:
    """The lines of `path` from byte `start` to `end` (both line starts) compressed into the new
    file `target`, as one worker compresses them, and their counts."""
    counts = Counts()
    with open(path, "rb") as given, open(target, "wb") as out:
        given.seek(start)
        write_lines(_lines_until(given, end - start), out, 1, budget, counts)
    return counts


def _lines_until(given: BinaryIO, length: int) -> Iterator[bytes]:
    """The lines of `given` from where it stands, `length` bytes of them."""
    while length > 0:
        if _stop is not None and _stop.value:
            raise Stopped
        raw = given.readline()
        if not raw:  # the file was cut short while read
            return
        length -= len(raw)
        yield raw


@contextlib.contextmanager
def _whole() -> Iterator[None]:
    """Holds Ctrl-C back for the time of a block, so that a range is appended and counted both
    or neither; the KeyboardInterrupt comes as the block ends. (Blocking the signal in this
    thread would not do: the kernel gives it to another, the pool's, and Python still raises
    it here.)"""
    import signal
    import threading

    arrived: list[int] = []
    previous = None
    if threading.current_thread() is threading.main_thread():  # where handlers can be set
        previous = signal.signal(signal.SIGINT, lambda number, _: arrived.append(number))
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if arrived:
        signal.raise_signal(signal.SIGINT)


#: Errors of a copy inside the kernel that mean "not between these two", not "failed": the
#: next way is tried (a pipe or a terminal, a file opened to append, another file system on an
#: older kernel, a kernel without the call).
_NOT_HERE = frozenset(
    getattr(errno, name) for name in ("EXDEV", "EINVAL", "ENOSYS", "EOPNOTSUPP", "EBADF") if hasattr(errno, name)
)


def _append(part: str, sink: BinaryIO) -> None:
    """Writes the whole file `part` to `sink` where it stands: inside the kernel where it can,
    else through this process."""
    import shutil

    with open(part, "rb") as given:
        size = os.fstat(given.fileno()).st_size
        copied = _copied_in_kernel(given.fileno(), sink, size)
        if copied < size:
            given.seek(copied)
            shutil.copyfileobj(given, sink)
            sink.flush()


def _copied_in_kernel(source: int, sink: BinaryIO, size: int) -> int:
    """How many of the first `size` bytes of `source` went to `sink` inside the kernel, which
    saves reading them into this process: by `os.copy_file_range` (between files; a clone on
    file systems that share blocks), else `os.sendfile` (to a pipe too). On Linux only:
    elsewhere sendfile sends to sockets only."""
    if sys.platform != "linux":
        return 0
    try:
        target = sink.fileno()
    except (AttributeError, OSError, ValueError):
        return 0
    copied = 0
    for copy in (_copy_file_range, _sendfile):
        try:
            while copied < size and (step := copy(source, target, copied, size - copied)):
                copied += step
        except OSError as exc:
            if exc.errno not in _NOT_HERE:
                raise
        if copied == size:
            break
    return copied


def _copy_file_range(source: int, target: int, offset: int, count: int) -> int:
    return os.copy_file_range(source, target, count, offset)


def _sendfile(source: int, target: int, offset: int, count: int) -> int:
    return os.sendfile(target, source, offset, count)
