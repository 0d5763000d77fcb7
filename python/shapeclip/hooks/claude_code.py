"""Claude Code: a `PostToolUse` hook that replaces what Bash, Read, Grep, Glob and MCP tools
returned, after they ran and before the result is appended.

The hook decides nothing about what runs: it never answers a permission question, never
rewrites a command, and Claude Code's own permission rules see every command exactly as the
model wrote it. It only shrinks what came back.

Claude Code takes a replaced output only in the tool's own output shape and silently keeps the
original otherwise (a bare string for Bash is dropped as "does not match Bash's output shape",
anthropics/claude-code#68951), so each built-in tool's answer is its `tool_response` with
only the text fields replaced (`updatedToolOutput`), and an MCP tool's its result in the shape
it came in (`updatedMCPToolOutput`). Output too long for Claude Code to hand over whole comes
with the full text in a file (`persistedOutputPath`): the hook reads it from there, and drops
the persisted fields from its answer, whose text now holds what the agent is to read.

Claude Code numbers the lines of a Read result itself, from `file.startLine`; a gap in the
middle would shift every number after it. So a read is cut only at its end: its first lines,
whole, then one marker line that names the omitted lines by their numbers in the file.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable

from ..fit import fits
from .output import Settings, compressed_and_stored, compressed_text, note_cut, shell_command, stored_way_back

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Any

NAME = "claude-code"
#: The tool names the printed config matches: the built-in tools whose output this replaces,
#: and every MCP tool.
MATCHER = "Bash|Read|Grep|Glob|mcp__.*"


def _persisted(response: dict[str, Any], field: str) -> dict[str, Any]:
    """`response` with `field` read back whole from `persistedOutputPath` where Claude Code
    kept it, and the persisted fields dropped: the answer's text is what the agent reads."""
    path = response.get("persistedOutputPath")
    if not isinstance(path, str):
        return response
    try:
        full = _regular_file_text(path)
    except OSError:
        return response
    rest = {k: v for k, v in response.items() if k not in ("persistedOutputPath", "persistedOutputSize")}
    return {**rest, field: full}


def _regular_file_text(path: str) -> str:
    """The text of the file at `path`, which must be a regular file: opened without blocking,
    so that a path to a FIFO or a device fails at once instead of holding up the agent."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return file.read().decode("utf-8", errors="replace")


def _bash(response: Any, settings: Settings, command: str | None) -> dict[str, Any] | None:
    if not isinstance(response, dict) or not isinstance(response.get("stdout"), str):
        return None
    if response.get("isImage") is True:
        return None  # `stdout` holds an image's data: any cut would break it
    persisted = "persistedOutputPath" in response
    response = _persisted(response, "stdout")
    stdout: str = response["stdout"]
    stderr = response.get("stderr") if isinstance(response.get("stderr"), str) else ""
    if fits(len(stdout) + len(stderr), settings.budget) and not persisted:
        return None
    # Claude Code merges the command's stdout and stderr into `stdout`; its `stderr` holds the
    # tool's own notices (a working directory reset), short and kept whole up to a quarter of
    # the budget (Agent SDK reference, BashOutput).
    err_room = min(len(stderr), max(settings.budget // 4, 1))
    new_err = compressed_text(stderr, "bash", err_room) if stderr else stderr
    new_out = compressed_text(stdout, "bash", max(settings.budget - len(new_err), 1), command=command)
    if new_out == stdout and new_err == stderr and not persisted:
        return None
    return {**response, "stdout": new_out, **({"stderr": new_err} if "stderr" in response else {})}


def _read(response: Any, settings: Settings) -> dict[str, Any] | None:
    file = response.get("file") if isinstance(response, dict) else None
    if not isinstance(file, dict) or not isinstance(file.get("content"), str):
        return None
    content: str = file["content"]
    if fits(len(content), settings.budget):
        return None
    given = file.get("startLine")
    start = given if isinstance(given, int) else 1
    lines = content.splitlines(keepends=True)
    way_back, entry = stored_way_back(content, "read_file")
    kept: list[str] = []
    used = 0
    for line in lines:
        marker = _read_marker(start, len(kept), len(lines), way_back)
        if used + len(line) + len(marker) + 1 > settings.budget:
            break
        kept.append(line)
        used += len(line)
    if not kept:
        return None  # one line longer than the budget: Claude Code's own limits apply
    if not kept[-1].endswith("\n"):
        kept[-1] += "\n"
    text = "".join(kept) + _read_marker(start, len(kept), len(lines), way_back)
    note_cut("read_file", len(content), len(text), entry)
    return {**response, "file": {**file, "content": text, "numLines": len(kept) + 1}}


def _read_marker(start: int, kept: int, total: int, way_back: str) -> str:
    """The last line of a cut read: the omitted lines by their numbers in the file, and the way
    back (whose `A:B` counts from the read's first line, as the stored copy does)."""
    first, last = start + kept, start + total - 1
    back = way_back.replace("A:B", f"{kept + 1}:{total}")
    return f"[shapeclip: lines {first}-{last} of this file not shown ({total - kept} lines); {back}]"


def _grep(response: Any, settings: Settings) -> dict[str, Any] | None:
    if not isinstance(response, dict):
        return None
    if isinstance(response.get("content"), str) and not fits(len(response["content"]), settings.budget):
        return {**response, "content": compressed_text(response["content"], "grep", settings.budget)}
    return _paths(response, settings)


def _paths(response: Any, settings: Settings) -> dict[str, Any] | None:
    """A list of paths (`filenames`) cut to the budget; the marker is one more entry."""
    names = response.get("filenames") if isinstance(response, dict) else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    joined = "\n".join(names)
    if fits(len(joined), settings.budget):
        return None
    return {**response, "filenames": compressed_text(joined, "glob", settings.budget).split("\n")}


#: The built-in tools but Bash, each by its output's shape (Bash's is read with its command).
BUILT_IN: dict[str, Callable[[Any, Settings], dict[str, Any] | None]] = {
    "Read": _read,
    "Grep": _grep,
    "Glob": _paths,
}


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool_name")
    if event.get("hook_event_name") != "PostToolUse" or not isinstance(tool, str):
        return {}
    response = event.get("tool_response")
    if tool.startswith("mcp__"):
        replaced = compressed_and_stored(response, tool, settings.budget)
        if replaced is None:
            return {}
        return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedMCPToolOutput": replaced}}
    if tool == "Bash":
        new = _bash(response, settings, shell_command(event))
    else:
        shape = BUILT_IN.get(tool)
        new = shape(response, settings) if shape else None
    if new is None:
        return {}
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": new}}


def config(hook_command: str) -> str:
    """The `hooks` block of ~/.claude/settings.json (or a project's .claude/settings.json)."""
    hooks = {"PostToolUse": [{"matcher": MATCHER, "hooks": [{"type": "command", "command": hook_command}]}]}
    return json.dumps({"hooks": hooks}, indent=2)
