"""The savings ledger: one line for each output shapeclip cut, from the command line, a hook or
the MCP server, and one for each `show` that gave stored lines back, kept per user across
sessions so that `shapeclip gain` (see `cli_gain`) can sum what was saved.

Not `shapeclip.ledger`: a `Ledger` is one agent session's record of what `compress_messages`
and `microcompact` did, kept in a file its caller names and printed by `shapeclip ledger PATH`.
This ledger is written by every shapeclip process on its own, wherever it ran, and nobody
names it.

It lives beside the store, in a private directory of its own (the store's path with
`-savings` added: `~/.cache/shapeclip-savings/savings.jsonl` by default), not in the store,
whose files are its entries and whose eviction and `--clear` must not take the history with
them. `$SHAPECLIP_LEDGER` names another file, or is `off` to keep none. Each record is one JSON
line under 4 KB, written by a single `os.write` to a file opened with `O_APPEND`, so lines from
concurrent processes never interleave. A write that takes the file past `MAX_BYTES` renames it
to `savings.jsonl.1`, replacing the one before: the ledger never holds more than two files.

Recording never changes what a command prints or its exit status: any error (a directory that
cannot be written, a full disk, a path that is not a regular file) loses the record and is said
in one line on standard error, once per process. It is imported only once something was cut,
and imports only small stdlib modules, so a call whose output fits pays nothing for it.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time

#: An absolute path for the ledger, or `OFF`.
ENV_VAR = "SHAPECLIP_LEDGER"
OFF = "off"
FILE_NAME = "savings.jsonl"
#: The suffix of the previous file, which a rotation replaces.
PREVIOUS = ".1"
#: Bytes past which the file is rotated.
MAX_BYTES = 4 << 20
#: Characters kept of a record's tool and directory: JSON writes a character in at most 12
#: bytes, so a record stays under 4 KB, which Linux appends in one piece.
MAX_TOOL_CHARS = 80
MAX_CWD_CHARS = 200

_noted = False


def ledger_path() -> str | None:
    """Where records go: `$SHAPECLIP_LEDGER` (`~` expanded) when it is an absolute path, None
    when it is `off`, else the file beside the store's default directory."""
    value = os.environ.get(ENV_VAR, "")
    if value == OFF:
        return None
    expanded = os.path.expanduser(value)
    if os.path.isabs(expanded):
        return expanded
    if value:
        _note(f"{ENV_VAR} must be an absolute path or {OFF}, got {value!r}; using the default place")
    from .store.root import default_directory

    store = os.path.normpath(default_directory())
    return os.path.join(os.path.dirname(store), os.path.basename(store) + "-savings", FILE_NAME)


def compressed(
    tool: str | None, caller: str, chars_in: int, chars_out: int, *, entry: str | None, cwd: str | None = None
) -> None:
    """Records that `caller` ("cli", "hook NAME" or "mcp") cut an output of `tool` from
    `chars_in` characters to `chars_out`, kept whole as store `entry` when it was, for the
    project in `cwd` (this process's directory unless given)."""
    _append({"tool": tool, "caller": caller, "chars_in": chars_in, "chars_out": chars_out, "entry": entry}, cwd)


def gave_back(tool: str | None, caller: str, chars: int, *, entry: str) -> None:
    """Records that `caller` printed `chars` characters of store `entry`, an output of `tool`."""
    _append({"tool": tool, "caller": caller, "given_back": chars, "entry": entry}, None)


def _append(fields: dict[str, object], cwd: str | None) -> None:
    try:
        path = ledger_path()
        if path is None:
            return
        tool = fields["tool"]
        directory = os.getcwd() if cwd is None else cwd
        record = {
            "time": round(time.time(), 3),
            **fields,
            "tool": tool[:MAX_TOOL_CHARS] if isinstance(tool, str) else None,
            # A directory's end says more than its start.
            "cwd": directory[-MAX_CWD_CHARS:],
        }
        _write(path, (json.dumps(record, separators=(",", ":")) + "\n").encode())
    except Exception as exc:  # a record is never worth a failed command
        _note(f"savings not recorded: {exc}")


def _write(path: str, line: bytes) -> None:
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        info = os.fstat(fd)
        # A device or a pipe (`/dev/stdout`) would put records into the command's own output.
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file")
        if info.st_mode & 0o077:
            os.fchmod(fd, 0o600)
        if os.write(fd, line) != len(line):
            raise OSError(f"{path}: short write (is the disk full?)")
        if info.st_size + len(line) > MAX_BYTES:
            _rotate(path, fd)
    finally:
        os.close(fd)


def _rotate(path: str, fd: int) -> None:
    """Renames the full file `fd` to the previous one's name. Under a lock, and only while
    `path` is still that file: of processes that passed the cap together, one rotates, and none
    renames the new, short file over the full one."""
    import fcntl  # only on a rotation, once in thousands of records

    lock = os.open(path + ".lock", os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            current = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            return
        written = os.fstat(fd)
        if (current.st_dev, current.st_ino) == (written.st_dev, written.st_ino):
            os.replace(path, path + PREVIOUS)
    finally:
        os.close(lock)  # which releases the lock


def _note(message: str) -> None:
    global _noted
    if not _noted:
        _noted = True
        sys.stderr.write(f"shapeclip: {message}\n")
