"""How the `shapeclip` command reads its input (a file, a pipe, or a command it runs) and what
SIGINT and SIGTERM do meanwhile.

A signal must not cost the output read so far: the caller still compresses and prints it. A
wrapped command is sent the signal and read to its end, so it stops as it would have without
shapeclip, and its exit status is reported as a shell reports it. A file or a pipe simply
stops being read, even in the middle of a read that waits for a quiet writer.

A Ctrl-C at a terminal already reaches the command, which is in shapeclip's process group, so
SIGINT is forwarded only when it cannot have come that way; a second one could cut short the
command's own clean-up. Once a signal has come and the command has ended, what is left in the
pipe is read and the rest is not waited for: a child of the command (`sleep` under `sh -c`)
can hold the pipe open long after, and shapeclip would seem not to stop.

The command's standard input is shapeclip's, as it would be without shapeclip, except a
terminal: its output is held back until it ends, so a prompt would wait unseen. It reads
/dev/null then, and a command that asks fails at once instead of hanging.
"""

from __future__ import annotations

import os
import signal
import threading

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:  # subprocess only when a command is run: reading a file or a pipe needs none
    import subprocess
    from collections.abc import Callable
    from types import FrameType
    from typing import Any, TypeAlias

    from ._core import InputPiece
    from .api import Compressor

    _Handler: TypeAlias = Callable[[int, FrameType | None], Any] | int | None

#: A pipe is given a buffer of this size, so that each read takes as much; without the core,
#: a pipe's reads are gathered into chunks of about this size too.
CHUNK_BYTES = 1 << 20
#: Without the core, a regular file is read and fed in chunks this large.
FILE_CHUNK_BYTES = 4 << 20
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Bytes of an input's start that say whether it is binary, as git and grep decide it: a NUL
#: among them.
BINARY_SNIFF = 8000


class _Stop(Exception):
    """Thrown by the first signal into a read of a file or pipe, to end it."""


class Interrupts:
    """While entered, SIGINT and SIGTERM are caught (in the main thread, the only one where
    Python runs signal handlers) instead of ending shapeclip: `received` is the first one."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._command: subprocess.Popen[bytes] | None = None
        # Whether `received` has been dealt with for the command (sent, or sent by a terminal).
        self._command_told = False
        # Reading a file or a pipe, which the first signal ends; and inside one read call.
        self._reading = False
        self._in_read = False
        self._previous: dict[int, _Handler] = {}

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is threading.main_thread():
            for number in _SIGNALS:
                self._previous[number] = signal.signal(number, self._handle)
            if hasattr(signal, "SIGCHLD"):
                self._previous[signal.SIGCHLD] = signal.signal(signal.SIGCHLD, self._child_ended)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for number, handler in self._previous.items():
            if handler is not None:  # None: set outside Python, so it cannot be put back
                signal.signal(number, handler)

    def _handle(self, number: int, frame: FrameType | None) -> None:
        first = self.received is None
        if first:
            self.received = number
        if self._command is not None:
            self._command_told = True
            if not (number == signal.SIGINT and _terminal_reached(self._command)):
                self._command.send_signal(number)
            self._child_ended(number, frame)
        elif first and self._reading and self._in_read:
            # Raised once at most, and only inside a read: never into a feed.
            raise _Stop

    def _child_ended(self, number: int, frame: FrameType | None) -> None:
        """A command's read waits no longer once a signal has come and the command has ended."""
        if self._in_read and self._stopped_command():
            self._in_read = False  # raised once: never into the reads that drain the pipe
            raise _Stop

    def _stopped_command(self) -> bool:
        return self._command is not None and self.received is not None and self._command.poll() is not None

    def forward_to(self, command: subprocess.Popen[bytes] | None) -> None:
        """Sends signals on to `command` from now on (None: to nobody), beginning with one that
        came while it was starting."""
        self._command = command
        if command is not None and self.received is not None and not self._command_told:
            self._command_told = True
            command.send_signal(self.received)

    def fill(self, fd: int, piece: InputPiece) -> bool:
        """Reads from `fd` into `piece` until it is full: whether the input may go on (False
        at its end, or once reading must stop, as `_one_read` says). What was read before a
        signal stays in the piece."""
        try:
            self._reading = self._command is None
            while len(piece) < piece.CAPACITY:
                if not self._one_read(fd, piece.read_from):
                    return False
            return True
        except _Stop:  # a signal between two reads
            return False
        finally:
            self._reading = self._in_read = False

    def read(self, fd: int, size: int) -> bytes:
        """Up to `size` bytes from `fd`: b"" at its end, or once reading must stop, as
        `_one_read` says. A signal that comes just as a read returns loses that piece unread."""
        try:
            self._reading = self._command is None
            chunk = self._one_read(fd, lambda fd: os.read(fd, size))
            return chunk if isinstance(chunk, bytes) else b""
        except _Stop:
            return b""
        finally:
            self._reading = self._in_read = False

    def _one_read(self, fd: int, read: Callable[[int], object]) -> object:
        """`read(fd)`, or None once reading must stop: a signal has come while no command runs,
        or the command has ended after one and the pipe holds nothing more."""
        while True:
            if self._reading and self.received is not None:
                return None
            if self._stopped_command():
                os.set_blocking(fd, False)  # what is left is read; no more is waited for
            try:
                self._in_read = True
                return read(fd)
            except BlockingIOError:
                return None
            except _Stop:
                if self._reading:
                    return None
                # The command ended after a signal: the loop drains the pipe without waiting.
            finally:
                self._in_read = False


def _terminal_reached(command: subprocess.Popen[bytes]) -> bool:
    """Whether a SIGINT will have reached `command` from the terminal: we are in the terminal's
    foreground process group, and the command has not left it."""
    try:
        ours = os.getpgrp()
        if os.getpgid(command.pid) != ours:
            return False
        terminal = next((fd for fd in (0, 1, 2) if os.isatty(fd)), None)
        return terminal is not None and os.tcgetpgrp(terminal) == ours
    except OSError:
        return False


def read_to_end(fd: int, compressor: Compressor, interrupts: Interrupts) -> bool:
    """Feeds `compressor` everything read from `fd`; whether the input is binary (a NUL in its
    first BINARY_SNIFF bytes). This thread reads while another feeds what it read, so the core
    (and the store's copy) work while the next piece is read, and a writer at the other end of
    a pipe is kept waiting as little as can be."""
    import stat

    from .api import backend

    mode = os.fstat(fd).st_mode
    if stat.S_ISFIFO(mode):
        _widen_pipe(fd)
    with _Feeder(compressor) as feeder:
        if backend() == "native" and os.name == "posix":  # the core has pieces on Unix only
            return _feed_pieces(fd, feeder, interrupts)
        return _feed_bytes(fd, FILE_CHUNK_BYTES if stat.S_ISREG(mode) else CHUNK_BYTES, feeder, interrupts)


def _binary(start: bytes) -> bool:
    return b"\0" in start[:BINARY_SNIFF]


def _feed_pieces(fd: int, feeder: _Feeder, interrupts: Interrupts) -> bool:
    """Reads into the core's input pieces (see rust/input_piece.rs), each filled before it is
    fed: read straight into memory that the core, the store's hash and its direct writes all
    read where it lies. Read into `bytes` and joined, a gigabyte through a pipe took 0.65-0.72
    s; in pieces, 0.47-0.56 s."""
    from ._core import InputPiece

    going, binary, first = True, False, True
    while going:
        piece = InputPiece()
        going = interrupts.fill(fd, piece)
        if first:
            binary, first = _binary(bytes(piece)), False
        if len(piece):
            feeder.feed(piece)
    return binary


def _feed_bytes(fd: int, size: int, feeder: _Feeder, interrupts: Interrupts) -> bool:
    """Reads in `bytes`, gathered into chunks of about `size`, where there is no core."""
    pending: list[bytes] = []
    gathered = 0
    binary: bool | None = None
    while chunk := interrupts.read(fd, size):
        if binary is None:
            binary = _binary(chunk)
        # A pipe gives at most its buffer a read: gathered, so that the clip takes few chunks.
        # (A file's chunk is whole, and joined uncopied.)
        pending.append(chunk)
        gathered += len(chunk)
        if gathered >= size:
            feeder.feed(b"".join(pending))
            pending, gathered = [], 0
    if pending:
        feeder.feed(b"".join(pending))
    return bool(binary)


def _widen_pipe(fd: int) -> None:
    """Gives a pipe a buffer of CHUNK_BYTES (Linux; 64 KiB is the default) where the system
    lets it: the writer then gets ahead by a whole chunk, and a read takes one."""
    import fcntl

    try:
        if hasattr(fcntl, "F_SETPIPE_SZ"):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, CHUNK_BYTES)
    except OSError:  # over the system's or the user's limit: the default buffer does
        pass


class _Feeder:
    """Feeds chunks to a compressor on a thread of its own, in order, a few at a time: the
    caller is held back when it gets ahead by QUEUED chunks, so memory stays bounded. What a
    feed raises is raised to the caller, at its next chunk or at the end. One input piece
    waiting keeps the core as busy as four did."""

    QUEUED = 1

    def __init__(self, compressor: Compressor) -> None:
        import queue

        self._compressor = compressor
        self._queue: queue.Queue[bytes | InputPiece | None] = queue.Queue(self.QUEUED)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="shapeclip-feed", daemon=True)

    def __enter__(self) -> _Feeder:
        self._thread.start()
        return self

    def _run(self) -> None:
        while (chunk := self._queue.get()) is not None:
            if self._error is None:
                try:
                    if isinstance(chunk, bytes):
                        self._compressor.feed(chunk)
                    else:
                        self._compressor._feed_piece(chunk)
                except BaseException as exc:
                    self._error = exc

    def feed(self, chunk: bytes | InputPiece) -> None:
        self._raise()
        self._queue.put(chunk)

    def __exit__(self, *exc_info: object) -> None:
        self._queue.put(None)
        self._thread.join()
        self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error


def run_command(command: list[str], compressor: Compressor, interrupts: Interrupts) -> tuple[int, bool]:
    """Streams `command`'s merged output into `compressor`; its exit status as a shell reports
    it (128 + N if signal N ended it, 127 if it was not found, 126 if it could not be run), and
    whether its output is binary (`read_to_end`)."""
    import errno
    import shutil
    import subprocess

    stdin = subprocess.DEVNULL if _is_terminal(0) else None
    try:
        try:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=stdin)
        except OSError as exc:
            # A shell runs an executable text file without a #! line with /bin/sh (POSIX).
            found = shutil.which(command[0])
            if exc.errno != errno.ENOEXEC or found is None or _binary(_start_of(found)):
                raise
            process = subprocess.Popen(
                ["/bin/sh", found, *command[1:]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=stdin
            )
    except OSError as exc:
        compressor.feed(f"shapeclip: cannot run {command[0]}: {exc.strerror}\n")
        return (127 if isinstance(exc, FileNotFoundError) else 126), False
    interrupts.forward_to(process)
    assert process.stdout is not None
    with process.stdout:
        binary = read_to_end(process.stdout.fileno(), compressor, interrupts)
    status = process.wait()
    interrupts.forward_to(None)
    # Popen reports a death by signal N as -N, which sys.exit would make 256 - N.
    return (128 - status if status < 0 else status), binary


def _start_of(path: str) -> bytes:
    """The first bytes of a file, as bash reads them before running one with no #! line: a
    binary one (for another machine, say) is not handed to the shell."""
    try:
        with open(path, "rb") as file:
            return file.read(BINARY_SNIFF)
    except OSError:
        return b"\0"


def _is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False
