"""`shapeclip hook claude-code` with events in the shapes Claude Code sends (code.claude.com/docs/en/hooks;
the `tool_response` of each built-in tool as anthropics/claude-code#68951 and the hooks reference
show them): PostToolUse on Bash, Read, Grep, Glob and MCP tools, and never a permission answer."""

from __future__ import annotations

import base64
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hook_events import BUILD_LOG, SOURCE, documented_config, hook, printed_config, read_plan

COMMON = {
    "session_id": "abc123",
    "transcript_path": "/home/me/.claude/projects/demo/00893aaf.jsonl",
    "cwd": "/home/me/demo",
    "permission_mode": "default",
    "tool_use_id": "toolu_01ABC",
}


def post(tool: str, response: object, **tool_input: Any) -> dict[str, Any]:
    return {
        **COMMON,
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": response,
    }


def replaced(reply: dict[str, Any]) -> Any:
    out = reply["hookSpecificOutput"]
    assert set(out) == {"hookEventName", "updatedToolOutput"}
    assert out["hookEventName"] == "PostToolUse"
    return out["updatedToolOutput"]


# Issue 25, item 1: each of these once came back `permissionDecision: allow` (or `ask`), with a
# rewritten command that ran what the user's deny rules forbid. A PreToolUse event now gets no
# answer at all, whatever the command and the mode: Claude Code decides, as without shapeclip.
DENIED_ONCE_ALLOWED = [
    "echo ok #'\nrm -rf foo\n#'",
    "echo $'\\'' ; rm -rf foo ; echo '\\'",
    "echo evil#x > /root/.bashrc",
    "time -p rm -rf foo",
    "coproc rm -rf foo",
    "function f { rm -rf foo; }; f",
    "r\\\nm -rf foo",
    "echo hi #'\nsleep 4 &\n#'",
    "command cd /tmp && ls",
    "sudo " + "a " * 16_000,
    "ls",
    "cd src && make",
]


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "bypassPermissions", "plan"])
def test_issue_25_a_command_before_it_runs_gets_no_answer(mode: str) -> None:
    for command in DENIED_ONCE_ALLOWED:
        event = {
            **COMMON,
            "permission_mode": mode,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "Run it"},
        }
        assert hook("claude-code", event) == ({}, "")


def test_bash_output_is_replaced_in_bashs_own_shape() -> None:
    response = {"stdout": BUILD_LOG, "stderr": "warning: x\n", "interrupted": False, "isImage": False}
    new = replaced(hook("claude-code", post("Bash", response, command="make"), "--budget", "3000")[0])
    assert set(new) == set(response)
    assert new["interrupted"] is False and new["isImage"] is False and new["stderr"] == "warning: x\n"
    assert len(new["stdout"]) + len(new["stderr"]) <= 3000
    assert "error: linker failed" in new["stdout"] and "shapeclip show" in new["stdout"]


def test_a_file_bash_printed_is_planned_as_a_read_and_any_other_output_as_a_shells() -> None:
    # A source file names errors on every few lines: as a command's output it reads as a log.
    response = {"stdout": SOURCE, "stderr": "", "interrupted": False, "isImage": False}
    for command, read in (("cat src/steps.py", True), ("sed -n '1,2000p' src/steps.py", True), ("make", False)):
        new = replaced(hook("claude-code", post("Bash", response, command=command), "--budget", "3000")[0])
        assert read_plan(new["stdout"]) is read and len(new["stdout"]) <= 3000, command


def test_bash_output_persisted_to_a_file_is_read_whole_and_the_persisted_fields_dropped(tmp_path: Path) -> None:
    full = tmp_path / "b8d1.txt"
    full.write_text(BUILD_LOG)
    response = {
        "stdout": BUILD_LOG[:30_000],
        "stderr": "",
        "interrupted": False,
        "persistedOutputPath": str(full),
        "persistedOutputSize": len(BUILD_LOG),
    }
    new = replaced(hook("claude-code", post("Bash", response, command="make"), "--budget", "4000")[0])
    assert "persistedOutputPath" not in new and "persistedOutputSize" not in new
    # The last line is only in the persisted file, not in the cut stdout Claude Code handed over.
    assert "error: linker failed" in new["stdout"] and len(new["stdout"]) <= 4000


def test_an_image_printed_by_bash_is_left_whole() -> None:
    # `isImage` says `stdout` holds an image's data (a data URL); a marker inside it would break it.
    data = "data:image/png;base64," + base64.b64encode(bytes(range(256)) * 200).decode()
    response = {"stdout": data, "stderr": "", "interrupted": False, "isImage": True}
    assert hook("claude-code", post("Bash", response, command="cat plot.png | base64"), "--budget", "2000") == ({}, "")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_persisted_path_that_is_no_regular_file_is_not_waited_on(tmp_path: Path) -> None:
    # Opening a FIFO for reading waits for a writer; the hook must answer from what it was handed.
    fifo = tmp_path / "out.txt"
    os.mkfifo(fifo)
    response = {"stdout": BUILD_LOG[:30_000], "stderr": "", "interrupted": False, "persistedOutputPath": str(fifo)}
    new = replaced(hook("claude-code", post("Bash", response, command="make"), "--budget", "4000")[0])
    assert "persistedOutputPath" in new and len(new["stdout"]) <= 4000


def test_a_read_is_cut_only_at_its_end_so_claudes_line_numbers_stay_true() -> None:
    content = "".join(f"line {i}\n" for i in range(1, 2001))
    response = {
        "type": "text",
        "file": {"filePath": "/r/a.py", "content": content, "numLines": 2000, "startLine": 101, "totalLines": 2100},
    }
    new = replaced(hook("claude-code", post("Read", response, file_path="/r/a.py"), "--budget", "2000")[0])
    file = new["file"]
    assert len(file["content"]) <= 2000 and file["startLine"] == 101 and file["filePath"] == "/r/a.py"
    lines = file["content"].splitlines()
    assert lines[:-1] == [f"line {i}" for i in range(1, len(lines))]
    assert file["numLines"] == len(lines)
    kept = len(lines) - 1
    assert lines[-1].startswith(f"[shapeclip: lines {101 + kept}-2100 of this file not shown ({2000 - kept} lines); ")
    words = shlex.split(lines[-1].split("; ", 1)[1].rstrip("]"))
    done = subprocess.run([sys.executable, "-m", "shapeclip", *words[1:]], capture_output=True, text=True)
    assert done.stdout.startswith(f"{kept + 1}:line {kept + 1}\n") or done.stdout.startswith(f"line {kept + 1}\n")


def test_grep_content_and_glob_file_lists_keep_their_shapes() -> None:
    rows = "".join(f"src/mod_{i}.py:{i}:    import thing_{i}\n" for i in range(3000))
    grep = {"mode": "content", "numFiles": 3000, "filenames": [], "content": rows, "numLines": 3000}
    new = replaced(hook("claude-code", post("Grep", grep, pattern="import"), "--budget", "2500")[0])
    assert set(new) == set(grep) and new["numLines"] == 3000 and len(new["content"]) <= 2500
    names = [f"src/pkg_{i // 50}/file_{i}.py" for i in range(3000)]
    glob = {"filenames": names, "durationMs": 12, "numFiles": 3000, "truncated": False}
    new = replaced(hook("claude-code", post("Glob", glob, pattern="**/*.py"), "--budget", "2500")[0])
    assert set(new) == set(glob) and isinstance(new["filenames"], list)
    assert len("\n".join(new["filenames"])) <= 2500 and new["filenames"][0] == names[0]


def test_an_mcp_tool_output_is_replaced_in_the_shape_it_came_in() -> None:
    blocks = [{"type": "text", "text": BUILD_LOG}, {"type": "image", "data": "iVBOR", "mimeType": "image/png"}]
    for response in (BUILD_LOG, blocks, {"content": blocks, "isError": False}):
        reply, _ = hook("claude-code", post("mcp__ci__get_build_log", response, build=812), "--budget", "3000")
        out = reply["hookSpecificOutput"]
        assert out["hookEventName"] == "PostToolUse"
        new = out["updatedMCPToolOutput"]
        assert type(new) is type(response)
        text = new if isinstance(new, str) else (new if isinstance(new, list) else new["content"])[0]["text"]
        assert len(text) <= 3000 and "[shapeclip:" in text
        if not isinstance(new, str):
            content = new if isinstance(new, list) else new["content"]
            assert content[1] == blocks[1]


def test_an_mcp_results_text_blocks_share_the_budget_as_the_message_helpers_share_it() -> None:
    # A short block keeps its text whole and the long one gets the rest, not half the budget.
    header = {"type": "text", "text": "build 812 of main, failed after 6 min\n"}
    blocks = [header, {"type": "text", "text": BUILD_LOG}]
    reply, _ = hook("claude-code", post("mcp__ci__log", blocks), "--budget", "3000")
    new = reply["hookSpecificOutput"]["updatedMCPToolOutput"]
    assert new[0] == header and len(header["text"]) + len(new[1]["text"]) > 2_800
    assert len(header["text"]) + len(new[1]["text"]) <= 3000
    # Blocks too many to keep each a few lines are cut as one text, with one marker.
    lines: list[dict[str, Any]] = [{"type": "text", "text": line} for line in BUILD_LOG.splitlines(keepends=True)]
    lines[-1]["annotations"] = {"audience": ["assistant"]}
    image = {"type": "image", "data": "iVBOR", "mimeType": "image/png"}
    reply, _ = hook("claude-code", post("mcp__ci__log", [*lines, image]), "--budget", "3000")
    new = reply["hookSpecificOutput"]["updatedMCPToolOutput"]
    assert len(new) == 2 and new[1] == image and len(new[0]["text"]) <= 3000
    assert new[0]["text"].count("shapeclip show") == 1 and "error: linker failed" in new[0]["text"]
    assert new[0]["annotations"] == {"audience": ["assistant"]}


def test_output_that_fits_and_other_tools_get_no_answer() -> None:
    assert hook("claude-code", post("mcp__ci__status", "ok")) == ({}, "")
    assert hook("claude-code", post("Bash", {"stdout": "ok\n", "stderr": "", "interrupted": False})) == ({}, "")
    assert hook("claude-code", post("Write", {"type": "create", "content": BUILD_LOG})) == ({}, "")


def test_malformed_input_passes_through_with_a_note() -> None:
    for raw in (b"", b"not json", b"[1, 2]", b'{"tool_input": '):
        reply, note = hook("claude-code", None, raw=raw)
        assert reply == {} and note.startswith("shapeclip hook claude-code: ")
    # An event with fields of the wrong type is not an error either: nothing is changed.
    for response in ("text", {"stdout": 5}, {"file": "x"}, {"filenames": [1, 2]}):
        for tool in ("Bash", "Read", "Grep", "Glob"):
            assert hook("claude-code", post(tool, response)) == ({}, "")


def test_print_config_is_one_post_tool_hook_naming_this_shapeclip() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "hook", "--print-config", "claude-code"], capture_output=True
    )
    hooks = json.loads(done.stdout)["hooks"]
    assert list(hooks) == ["PostToolUse"]
    assert [group["matcher"] for group in hooks["PostToolUse"]] == ["Bash|Read|Grep|Glob|mcp__.*"]
    command = hooks["PostToolUse"][0]["hooks"][0]["command"]
    assert shlex.split(command)[-2:] == ["hook", "claude-code"]


def test_the_documented_config_is_the_printed_one() -> None:
    assert documented_config("claude-code") == printed_config("claude-code")
