"""The command line reads its input into the core's pieces (`_core.InputPiece`): page-aligned
memory filled by reads straight into it, which the core, the store's hash and its direct
writes read where it lies. A piece must read as exactly the bytes that came, whatever the
reads' sizes, and a signal must not lose what a piece already holds."""

from __future__ import annotations

import errno
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import blake3
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shapeclip
from shapeclip import api

pytestmark = pytest.mark.skipif(api._core is None or os.name != "posix", reason="pieces are the core's, on Unix")
if api._core is not None and os.name == "posix":
    from shapeclip._core import ContentHash, InputPiece

CAPACITY = 4 << 20


def filled(fd: int) -> Iterator[InputPiece]:
    """The pieces `fd` gives, each filled to its capacity but the last."""
    while True:
        piece = InputPiece()
        while piece.read_from(fd):
            pass
        if not len(piece):
            return
        yield piece


def test_a_piece_holds_as_much_as_the_core_reads_in_place() -> None:
    assert InputPiece.CAPACITY == CAPACITY


def test_pieces_hold_every_byte_once_and_stop_when_full(tmp_path: Path) -> None:
    data = os.urandom(CAPACITY) + b"tail\n" * 1000
    (tmp_path / "input").write_bytes(data)
    fd = os.open(tmp_path / "input", os.O_RDONLY)
    try:
        pieces = list(filled(fd))
        assert pieces[0].read_from(fd) == 0  # full: nothing more is read into it
    finally:
        os.close(fd)
    assert [len(piece) for piece in pieces] == [CAPACITY, len(data) - CAPACITY]
    assert b"".join(bytes(piece) for piece in pieces) == data


def test_a_pipe_fills_a_piece_in_as_many_reads_as_it_takes() -> None:
    data = b"".join(b"line %d\n" % i for i in range(800_000))  # over a piece, in many writes
    read, write = os.pipe()

    def writer() -> None:
        with os.fdopen(write, "wb", buffering=0) as out:
            for i in range(0, len(data), 65_537):
                out.write(data[i : i + 65_537])

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        pieces = list(filled(read))
    finally:
        thread.join()
        os.close(read)
    assert [len(piece) for piece in pieces[:-1]] == [CAPACITY] * (len(pieces) - 1)
    assert b"".join(bytes(piece) for piece in pieces) == data


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=3000),
    junk=st.binary(max_size=40),
    budget=st.integers(min_value=60, max_value=2000),
    tool=st.sampled_from(["bash", "read_file", "grep", None]),
)
def test_a_piece_is_read_as_its_bytes_are(
    tmp_path_factory: pytest.TempPathFactory, text: str, junk: bytes, budget: int, tool: str | None
) -> None:
    data = text.encode() + junk + text[::-1].encode()
    path = tmp_path_factory.mktemp("piece") / "input"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        pieces = list(filled(fd))
    finally:
        os.close(fd)
    stream = shapeclip.Compressor(tool, budget)
    hashed = ContentHash()
    for piece in pieces:
        stream._feed_piece(piece)
        hashed.update(piece)
    assert stream.finish() == shapeclip.compress(data, tool, budget)
    assert hashed.hexdigest() == blake3.blake3(data).hexdigest()


def test_a_piece_is_written_from_where_it_is_asked(tmp_path: Path) -> None:
    data = bytes(range(256)) * 64
    (tmp_path / "input").write_bytes(data)
    fd = os.open(tmp_path / "input", os.O_RDONLY)
    try:
        (piece,) = filled(fd)
    finally:
        os.close(fd)
    out = os.open(tmp_path / "out", os.O_RDWR | os.O_CREAT)
    try:
        assert piece.write_at(out, 10, 1000) == len(data) - 1000
        with pytest.raises(ValueError, match="past the piece's end"):
            piece.write_at(out, 0, len(data) + 1)
    finally:
        os.close(out)
    assert (tmp_path / "out").read_bytes() == bytes(10) + data[1000:]


def test_a_closed_descriptor_is_an_os_error() -> None:
    read, write = os.pipe()
    os.close(read)
    os.close(write)
    with pytest.raises(OSError) as raised:
        InputPiece().read_from(read)
    assert raised.value.errno == errno.EBADF  # told apart by its number, as os's errors are


def test_a_negative_descriptor_is_a_bad_argument(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not negative"):
        InputPiece().read_from(-1)
    with pytest.raises(ValueError, match="not negative"):
        InputPiece().write_at(-1, 0, 0)


def test_what_a_signal_handler_raises_ends_a_read_and_keeps_what_came() -> None:
    read, write = os.pipe()
    os.write(write, b"first\n")
    piece = InputPiece()
    assert piece.read_from(read) == 6

    class Stop(Exception):
        pass

    def stop(number: int, frame: object) -> None:
        raise Stop

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Stop):
            piece.read_from(read)  # waits for a writer that is quiet
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.close(read)
        os.close(write)
    assert bytes(piece) == b"first\n"


def test_a_signal_that_raises_nothing_lets_the_read_go_on() -> None:
    read, write = os.pipe()
    seen: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda number, frame: seen.append(number))
    timer = threading.Timer(0.4, lambda: os.write(write, b"late\n"))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        timer.start()
        piece = InputPiece()
        assert piece.read_from(read) == 5  # read again after the handler ran, as os.read is
    finally:
        timer.join()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.close(read)
        os.close(write)
    assert seen == [signal.SIGALRM] and bytes(piece) == b"late\n"
