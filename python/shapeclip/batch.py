"""`shapeclip batch`: the tool results of many recorded conversations compressed at once, for
teams that prepare or audit agent sessions.

A conversation is one line of a JSONL file: a list of messages in any of the three formats
`compress_messages` reads (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages), or
an object that holds that list under `messages` (or, for Responses, `input`), its other keys
kept. Each is compressed by `compress_conversation`, which is `compress_messages` over the
whole list: a result compressed when appended stays the same when the list is compressed
again, so this gives each result exactly what it got at append time. A line that is not a
conversation (not JSON, no message list, formats mixed), or whose compressed form JSON could not
carry (a number beyond a float's range), is written byte for byte as it was, and counted, with
the reason on standard error; so is a line whose compression failed unexpectedly, so that no
line is lost to one bad one.

The conversations are compressed on `workers` processes: reading the JSON and walking the
messages is Python's work and holds the GIL, so threads could not use a second core for it.
`compress_lines` sends them blocks of lines, for input that can only be read in turn (standard
input, a pipe, Parquet's rows); a JSONL file is shared out by byte ranges instead
(`batch_ranges`), which sends no line. The lines come out in the order they went in, and a
conversation that had nothing to compress comes out byte for byte as it went in.
`compress_batch` is the same work for Ray Data's `map_batches` (docs/histories.md), and
`batch_parquet` for a Parquet file.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass

from .json_text import parse
from .messages import DEFAULT_MESSAGE_BUDGET, Budget, compress_messages

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from concurrent.futures import Future
    from multiprocessing.context import BaseContext
    from typing import Any, BinaryIO

#: Keys of an object whose value is the conversation's message list, in the order looked at.
MESSAGE_KEYS = ("messages", "input")
#: Blocks in flight per worker: enough to keep each busy, few enough to bound memory.
AHEAD_PER_WORKER = 2
#: A worker is sent lines in blocks of about this many characters (a longer line is a block of
#: its own): one line at a time, sending them to the process and back cost more than it saved.
BLOCK_CHARS = 1 << 20


def compress_conversation(record: Any, budget: Budget | int = DEFAULT_MESSAGE_BUDGET) -> Any:
    """`record` with the tool results of its conversation compressed as `compress_messages`
    compresses them; `record` itself is never changed. Raises `ValueError` for a record that
    is not a conversation (see the module's docstring)."""
    key = _message_key(record)
    messages = record if key is None else record[key]
    compressed, _ = compress_messages(messages, budget=budget)
    return compressed if key is None else {**record, key: compressed}


def _message_key(record: Any) -> str | None:
    """Where the message list is: None for a record that is the list itself."""
    if isinstance(record, list):
        return None
    if isinstance(record, dict):
        for key in MESSAGE_KEYS:
            if isinstance(record.get(key), list):
                return key
    raise ValueError("not a conversation: a list of messages, or an object with a 'messages' or 'input' list")


def compress_batch(batch: Mapping[str, Sequence[Any]], column: str = "text") -> dict[str, list[Any]]:
    """A batch of columns, as Ray Data's `map_batches` passes one, whose `column` holds JSONL
    lines (as `ray.data.read_text` reads them), with each line compressed by `compress_line`
    and every other column unchanged. Conversations travel as their JSON text: as columns of
    nested records, their messages would be given every key any message has."""
    out = {name: list(values) for name, values in batch.items()}
    out[column] = [compress_line(str(line)).text.removesuffix("\n") for line in batch[column]]
    return out


#: Why a line was written as it was, when it is not a conversation.
NOT_A_CONVERSATION = "is not a conversation"


@dataclass(frozen=True)
class Line:
    """One line compressed: the line to write, and what became of it."""

    text: str
    #: The line held a conversation; False when it was written as it was, for `why`.
    conversation: bool
    chars_in: int = 0
    chars_out: int = 0
    why: str = NOT_A_CONVERSATION


def unchanged(line: str) -> str:
    """`line` as `compress_line` writes it when it changes nothing: its body and one newline."""
    return line if line.endswith("\n") and not line.endswith("\n\n") else line.rstrip("\n") + "\n"


def compress_line(line: str, budget: Budget | int = DEFAULT_MESSAGE_BUDGET) -> Line:
    """One JSONL line (with or without its newline) compressed, as `shapeclip batch` does."""
    try:
        record = parse(line)
        key = _message_key(record)
        compressed, report = compress_messages(record if key is None else record[key], budget=budget)
    except ValueError:  # not JSON, or not a conversation: written as it was
        return Line(unchanged(line), conversation=False)
    except Exception as exc:  # a bug must cost its line's compression, not the run
        return Line(unchanged(line), False, why=f"could not be compressed ({type(exc).__name__}: {exc})")
    chars_in = sum(result.chars_in for result in report.results)
    chars_out = sum(result.chars_out for result in report.results)
    if not any(result.action == "compressed" for result in report.results):
        return Line(unchanged(line), True, chars_in, chars_out)
    try:
        rebuilt = compressed if key is None else {**record, key: compressed}
        text = json.dumps(rebuilt, ensure_ascii=False, allow_nan=False)
    except ValueError:  # 1e999 reads as infinity, which JSON cannot write back
        return Line(unchanged(line), False, why="holds a number beyond a float's range, which JSON cannot write back")
    return Line(text + "\n", True, chars_in, chars_out)


def compress_lines(lines: Iterable[str], workers: int, budget: Budget | int = DEFAULT_MESSAGE_BUDGET) -> Iterator[Line]:
    """Each line compressed by `compress_line` on `workers` processes (one: in this process), in
    the order given. Where the workers are spawned rather than forked (`_start_method`), they
    import the caller's main module, so a script calls this under `if __name__ == "__main__":`,
    as for any process pool."""
    if workers == 1:
        for line in lines:
            yield compress_line(line, budget)
        return
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=_start_method()) as pool:
        ahead: deque[tuple[list[str], Future[list[_Sent]]]] = deque()
        for block in _blocks(lines):
            ahead.append((block, pool.submit(_compress_block, block, budget)))
            if len(ahead) >= workers * AHEAD_PER_WORKER:
                yield from _received(*ahead.popleft())
        while ahead:
            yield from _received(*ahead.popleft())


def write_lines(given: Iterable[bytes], sink: BinaryIO, workers: int, budget: Budget | int, counts: Counts) -> None:
    """Each line of `given` compressed by `compress_lines` and written to `sink`, then counted
    in `counts`: the work of one worker, whichever path shares it out. The lines are a binary
    file's, split at b"\\n" only. One that is not changed is written back byte for byte, with
    one newline at its end; a changed one as the UTF-8 of its JSON, in which a lone surrogate
    (half a UTF-16 pair, which JSON may escape but UTF-8 cannot carry) stays escaped, and
    bytes that were not UTF-8 are U+FFFD."""
    from collections import deque

    read: deque[tuple[bytes, str]] = deque()  # the lines sent and not yet written back

    def decoded() -> Iterator[str]:
        for raw in given:
            read.append((raw, raw.decode("utf-8", "replace")))
            yield read[-1][1]

    for line in compress_lines(decoded(), workers, budget):
        raw, text = read.popleft()
        if line.text == unchanged(text):
            # Split at b"\n", a line holds one at most, at its end: the last may lack it.
            sink.write(raw if raw.endswith(b"\n") else raw + b"\n")
        else:
            sink.write(line.text.encode("utf-8", "backslashreplace"))
        counts.count(line)


def _blocks(lines: Iterable[str]) -> Iterator[list[str]]:
    block: list[str] = []
    size = 0
    for line in lines:
        block.append(line)
        size += len(line)
        if size >= BLOCK_CHARS:
            yield block
            block, size = [], 0
    if block:
        yield block


#: A `Line` as a worker sends it back: its fields, the text None where it is the line that was
#: sent, as most are when little is cut, so that it does not travel twice.
_Sent = tuple[str | None, bool, int, int, str]


def _compress_block(block: list[str], budget: Budget | int) -> list[_Sent]:
    sent: list[_Sent] = []
    for given in block:
        line = compress_line(given, budget)
        same = line.text == unchanged(given)
        sent.append((None if same else line.text, line.conversation, line.chars_in, line.chars_out, line.why))
    return sent


def _received(block: list[str], future: Future[list[_Sent]]) -> Iterator[Line]:
    for given, (text, conversation, chars_in, chars_out, why) in zip(block, future.result(), strict=True):
        yield Line(unchanged(given) if text is None else text, conversation, chars_in, chars_out, why)


def usable_cores() -> int:
    """The cores this process may run on: those it is pinned to where the system says
    (`taskset`, a container's CPU set), else the machine's."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _start_method() -> BaseContext:
    """Forking starts a worker in milliseconds, where a fresh interpreter takes about 90 ms to
    import the package; but it is safe only on Linux, and only while this process runs no
    other thread, native ones included (pyarrow's pool, say): one could hold a lock that the
    copy would never see released."""
    import multiprocessing

    alone = sys.platform == "linux" and _alone()
    return multiprocessing.get_context("fork" if alone else "spawn")


#: Seconds a second thread is given to end before this process counts as running two: the
#: threads of a pool that was just shut down outlive their join by a moment.
THREAD_END_WAIT = 0.05


def _alone() -> bool:
    import time

    deadline = time.monotonic() + THREAD_END_WAIT
    while len(os.listdir("/proc/self/task")) > 1:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.001)
    return True


#: Lines (or rows) that are not conversations named one by one on standard error; the rest
#: are only counted.
NOTED_OTHERS = 3


class Counts:
    """What became of a run of lines: how many held conversations, their tool results'
    characters before and after, how many were written as they were, and the 1-based positions
    in the run of the first `NOTED_OTHERS` of those, with why. A worker given a range of a file
    sends one back."""

    def __init__(self) -> None:
        self.conversations = self.others = self.chars_in = self.chars_out = 0
        self.noted: list[tuple[int, str]] = []

    @property
    def lines(self) -> int:
        return self.conversations + self.others

    def count(self, line: Line) -> None:
        if line.conversation:
            self.conversations += 1
            self.chars_in += line.chars_in
            self.chars_out += line.chars_out
            return
        self.others += 1
        if len(self.noted) < NOTED_OTHERS:
            self.noted.append((self.lines, line.why))


class Tally(Counts):
    """What became of the lines (or rows) written, said on standard error as they go and at
    the end."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def count(self, line: Line) -> None:
        noted = len(self.noted)
        super().count(line)
        if len(self.noted) > noted:
            self._as_it_was(*self.noted[-1])

    def add(self, run: Counts) -> None:
        """Counts `run`, the lines written next, as if each had been counted in turn."""
        before = self.lines
        for position, why in run.noted[: NOTED_OTHERS - len(self.noted)]:
            self.noted.append((before + position, why))
            self._as_it_was(before + position, why)
        self.conversations += run.conversations
        self.others += run.others
        self.chars_in += run.chars_in
        self.chars_out += run.chars_out

    def _as_it_was(self, number: int, why: str) -> None:
        sys.stderr.write(f"shapeclip batch: {self._unit} {number} {why}; written as it was\n")

    def interrupted(self) -> int:
        """130, as a shell reports SIGINT, after saying that the first lines are written, whole."""
        sys.stderr.write(f"shapeclip batch: interrupted; the first {self.lines:,} {self._unit}s are written\n")
        return 130

    def failed(self, why: str) -> int:
        """1, after saying why the work stopped and that the first lines are written, whole."""
        sys.stderr.write(f"shapeclip batch: {why}; the first {self.lines:,} {self._unit}s are written\n")
        return 1

    def done(self) -> int:
        others = f"; {self.others:,} {self._unit}s written as they were" if self.others else ""
        sys.stderr.write(
            f"shapeclip batch: {self.conversations:,} conversations, tool results {self.chars_in:,} -> "
            f"{self.chars_out:,} characters{others}\n"
        )
        return 0
