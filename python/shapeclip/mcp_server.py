"""`shapeclip mcp`: the way back to stored outputs, and a command runner, as MCP tools over stdio.

An agent whose harness has no shapeclip hook can still use the store through its MCP client:
`run` runs a shell command and returns its output compressed, with the whole of it stored;
`show` reads a stored output back by lines or by pattern; `list` names the newest entries.
Every answer is bounded by a budget in characters, so the way back cannot flood the context
that shapeclip is there to keep small.

`show` numbers lines as the stored file does, like `shapeclip show`. When what it selected is
over the budget it is compressed like any output and kept whole in the store; that copy holds
only the selection, so the answer then opens with one line saying which entry the markers'
line numbers count in.

Built on the `mcp` SDK's FastMCP (1.x: in 2.x it became `MCPServer`, hence the `<2` bound of
the `mcp` extra). The command line imports this module only for `shapeclip mcp`.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Annotated

import anyio.to_thread
from mcp.server.fastmcp import FastMCP
from pydantic import Field

from . import savings
from .api import Compressor
from .cli_input import CHUNK_BYTES, Interrupts, read_to_end
from .defaults import DEFAULT_BUDGET
from .show_rows import Piece, grep_rows, line_rows
from .store import Refused, Store

#: Characters a `show` answer has unless the call says otherwise: a look, not a read.
SHOW_BUDGET = 4_000
#: Seconds `run` gives a command unless the call says otherwise.
RUN_TIMEOUT = 120.0
#: The longest timeout `run` takes: a day. (An endless one overflowed the timer's thread.)
MAX_RUN_TIMEOUT = 86_400.0
#: Entries `list` names unless the call says otherwise, and at most.
LIST_ENTRIES, MAX_LIST_ENTRIES = 20, 500
#: Characters of a command or directory `list` shows.
_CELL_CHARS = 80
#: The widest ID the store makes (a whole hash: 64 hex digits), for sizing `show`'s opening line.
_WIDEST_ID = 64
#: The smallest budget a tool takes: room for its own lines (an exit status, `show`'s opening
#: line) with some output still to go with them.
MIN_BUDGET = 400

RUN_DESCRIPTION = """Run a shell command (sh -c) in the server's working directory and return its exit \
status and its standard output and error, merged and compressed to `budget` characters by their \
shape. When something is cut, the whole output is kept in shapeclip's store and the markers say \
how to read the omitted lines back with the `show` tool. Whether this tool may be called, and \
with which commands, is decided by the MCP client's own permission model: shapeclip decides \
nothing about what runs."""

SHOW_DESCRIPTION = f"""Read lines of an output shapeclip stored (an ID from a marker or from `list`; \
a unique prefix of 4 hex digits or more is enough): lines `first` to `last` (1-based, inclusive, \
numbered as the markers number them), or the lines matching the Python regular expression `grep` \
(a string, as `grep -F` takes it, with `fixed`; within `first`..`last` when given), printed as \
`grep -n` does (`N:line`, and `N-line` for `context` lines around). Text in the output that looks \
like shapeclip's own marker has its opening bracket made round. The answer is at most `budget` \
characters ({SHOW_BUDGET:,} unless given); what is longer is compressed, with markers saying how \
to read the rest."""

LIST_DESCRIPTION = """The newest entries of shapeclip's store, newest first: ID, when stored, tool, \
size, the command that printed it (when known) and its directory."""

_Budget = Annotated[int, Field(ge=MIN_BUDGET, description="characters the answer has at most")]


def server(store: Store | None = None) -> FastMCP:
    """The MCP server, its tools reading and writing `store` (by default the one
    `shapeclip show` reads)."""
    the_store = Store() if store is None else store
    # Standard error is the client's log of this server: a line per request would flood it.
    app = FastMCP(
        "shapeclip", instructions="Compressed command output, and the way back to what was cut.", log_level="WARNING"
    )

    # Unstructured, each tool: a structured copy of a text answer would send it twice.
    @app.tool(name="run", description=RUN_DESCRIPTION, structured_output=False)
    async def run_tool(
        command: Annotated[str, Field(description="the shell command, as sh -c takes it")],
        timeout: Annotated[
            float, Field(gt=0, le=MAX_RUN_TIMEOUT, description="seconds before the command is killed (a day at most)")
        ] = RUN_TIMEOUT,
        budget: _Budget = DEFAULT_BUDGET,
    ) -> str:
        # In a worker thread, so the server still answers (a cancellation, a ping) meanwhile.
        return await anyio.to_thread.run_sync(lambda: run_command(the_store, command, timeout, budget))

    @app.tool(name="show", description=SHOW_DESCRIPTION, structured_output=False)
    async def show_tool(
        id: Annotated[str, Field(description="the entry's ID, or a unique prefix of it")],
        first: Annotated[int, Field(ge=1, description="the first line (1-based)")] = 1,
        last: Annotated[int | None, Field(ge=1, description="the last line, inclusive; none: to the end")] = None,
        grep: Annotated[
            str | None, Field(description="only lines matching this Python regular expression (a string: fixed)")
        ] = None,
        fixed: Annotated[
            bool, Field(description="grep is a string, as grep -F takes it (a path such as app/(auth)/page.tsx)")
        ] = False,
        context: Annotated[int, Field(ge=0, le=1_000, description="lines of context around each match")] = 0,
        budget: _Budget = SHOW_BUDGET,
    ) -> str:
        def shown() -> str:
            text = show(the_store, id, first, last, grep, context, budget, fixed)
            _gave_back(the_store, id, text)
            return text

        return await anyio.to_thread.run_sync(shown)

    @app.tool(name="list", description=LIST_DESCRIPTION, structured_output=False)
    async def list_tool(
        limit: Annotated[int, Field(ge=1, le=MAX_LIST_ENTRIES, description="entries at most")] = LIST_ENTRIES,
    ) -> str:
        return await anyio.to_thread.run_sync(lambda: list_entries(the_store, limit))

    return app


def run_command(store: Store, command: str, timeout: float, budget: int) -> str:
    """`command`'s merged output compressed to `budget` characters in all, its last line the
    exit status (or that it was killed at `timeout`); the whole output is stored when cut."""
    # The command and everything it starts share a new process group, so a timeout kills them
    # all, and none of them keeps the pipe open after.
    process = subprocess.Popen(
        ["/bin/sh", "-c", command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        with contextlib.suppress(ProcessLookupError):  # it ended just now
            os.killpg(process.pid, signal.SIGKILL)

    timer = threading.Timer(timeout, kill)
    timer.start()
    assert process.stdout is not None
    try:
        # The status line (and the newline before it) is paid for first, in its widest wording.
        room = budget - 1 - max(len(_status(-64, False, timeout)), len(_status(0, True, timeout)))
        kept = Store(store.path, store.max_bytes, command=command)
        compressor = Compressor("command", room, store=kept, command=command)
        with process.stdout:
            # As the command line reads a command's output: while the last piece is compressed.
            read_to_end(process.stdout.fileno(), compressor, Interrupts())
        status = process.wait()
    except BaseException:
        kill()  # a command nobody will read must not run on
        raise
    finally:
        timer.cancel()
    result = compressor.finish_detailed()
    if result.shape != "passthrough":
        stored = None if result.stored is None else result.stored.id
        savings.compressed("command", "mcp", result.input_chars, len(result.text), entry=stored)
    text = result.text
    if text and not text.endswith("\n"):
        text += "\n"
    return text + _status(status, killed.is_set(), timeout)


def _status(status: int, killed: bool, timeout: float) -> str:
    """The last line of `run`'s answer; a death by signal N is status 128 + N, as in a shell."""
    if killed:
        return f"[shapeclip: killed after the timeout of {timeout:g} s]"
    if status < 0:
        return f"[shapeclip: exit status {128 - status} (signal {-status})]"
    return f"[shapeclip: exit status {status}]"


def show(
    store: Store,
    prefix: str,
    first: int,
    last: int | None,
    grep: str | None,
    context: int,
    budget: int,
    fixed: bool,
) -> str:
    """The lines of entry `prefix` that `shapeclip show` would print for these arguments, within
    `budget` characters; `fixed` reads `grep` as a string, as `grep -F` does. Raises `ValueError`
    for an entry or a pattern it cannot use."""
    if last is not None and last < first:
        raise ValueError(f"last ({last}) is before first ({first})")
    try:
        pattern = None if grep is None else re.compile(re.escape(grep) if fixed else grep)
    except re.error as exc:
        raise ValueError(f"grep is not a valid regular expression: {exc}") from None
    try:
        entry_id = store.resolve(prefix)
        # Counted first, so that what fits comes back as it is stored, byte for byte.
        kept: list[str] = []
        size = 0
        for row in _rows(store, entry_id, first, last, pattern, context):
            size += len(row)
            if size > budget:
                break
            kept.append(row)
        else:
            return "".join(kept)
        return _compressed(store, entry_id, first, last, pattern, context, budget)
    except KeyError as exc:  # Unknown, Ambiguous, Evicted: each says what to do
        raise ValueError(str(exc)) from None


def _gave_back(store: Store, prefix: str, text: str) -> None:
    """Puts what `show` gave back of entry `prefix` in the savings ledger: it was not saved."""
    try:
        entry = store.entry(store.resolve(prefix))
    except (KeyError, Refused):  # evicted just after it was read: no tool to count it under
        return
    savings.gave_back(entry.tool, "mcp", len(text), entry=entry.id)


def _rows(
    store: Store, entry_id: str, first: int, last: int | None, pattern: re.Pattern[str] | None, context: int
) -> Iterator[str]:
    """What `shapeclip show` prints for these lines: the lines as stored (numbered from 1, split
    at `\\n` only, as the markers number them) but for look-alike markers' brackets, or with
    `pattern` the rows `grep -n -C context` prints. A byte that is not UTF-8 becomes U+FFFD:
    an answer is JSON text, which holds no undecodable byte."""
    with store.opened(entry_id) as (_, file):
        rows = line_rows(file, first, last) if pattern is None else grep_rows(file, first, last, pattern, context)
        for row in rows:
            text = Piece.whole(row).text()
            yield text if text.isascii() else text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _compressed(
    store: Store,
    entry_id: str,
    first: int,
    last: int | None,
    pattern: re.Pattern[str] | None,
    context: int,
    budget: int,
) -> str:
    """The selection compressed to `budget` with its opening line, and kept whole in `store`."""
    tool = store.entry(entry_id).tool if pattern is None else "grep"
    what = f"lines {first:,}-{'end' if last is None else f'{last:,}'} of {entry_id}"
    if pattern is not None:
        what = f"the matching lines of {entry_id} (numbered as in it)"
    room = budget - len(_opening(what, "0" * _WIDEST_ID))
    compressor = Compressor(tool, room, store=store)
    pending: list[str] = []
    size = 0
    for row in _rows(store, entry_id, first, last, pattern, context):
        pending.append(row)
        size += len(row)
        if size >= CHUNK_BYTES:
            compressor.feed("".join(pending))
            pending, size = [], 0
    compressor.feed("".join(pending))
    result = compressor.finish_detailed()
    copy = None if result.stored is None else result.stored.id
    if copy == entry_id:
        return result.text
    return _opening(what, copy) + result.text


def _opening(what: str, copy: str | None) -> str:
    if copy is None:
        return f"[shapeclip: {what}; the markers below number these lines from 1]\n"
    return f"[shapeclip: {what}, kept whole as {copy}: the markers below number its lines]\n"


def list_entries(store: Store, limit: int) -> str:
    """The newest `limit` entries of `store`, one line each; a line saying so when there are none."""
    try:
        entries = store.entries()[:limit]
    except Refused as exc:  # most often: nothing was stored yet
        return f"no entries: {exc}\n"
    if not entries:
        return f"no entries in {store.path}\n"
    rows = []
    for entry in entries:
        stored = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.stored_at))
        cells = [entry.id, stored, entry.tool or "-", f"{entry.size:,} bytes", _cell(entry.command), _cell(entry.cwd)]
        rows.append("  ".join(cells) + "\n")
    return "".join(rows)


def _cell(text: str | None) -> str:
    if not text:
        return "-"
    shown = text if text.isprintable() else repr(text)[1:-1]
    return shown if len(shown) <= _CELL_CHARS else shown[: _CELL_CHARS - 1] + "\u2026"


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="shapeclip mcp",
        description="Serve shapeclip's tools (run, show, list) to an MCP client over standard input and output.",
    )
    parser.parse_args(argv)
    server().run("stdio")
    return 0
