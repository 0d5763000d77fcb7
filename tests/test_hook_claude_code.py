"""`shapeclip hook claude-code` with events in the shapes of Claude Code's hooks reference
(code.claude.com/docs/en/hooks): PreToolUse on Bash, PostToolUse on an MCP tool."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from typing import Any

import pytest

from hook_events import BUILD_LOG, hook, printed_config, readme_config, run_shell

COMMON = {
    "session_id": "abc123",
    "transcript_path": "/home/me/.claude/projects/demo/00893aaf.jsonl",
    "cwd": "/home/me/demo",
    "permission_mode": "default",
    "tool_use_id": "toolu_01ABC",
}


@pytest.fixture(autouse=True)
def _no_settings(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A HOME without Claude Code settings: no rule allows a command, so each is asked about
    (test_hook_claude_permissions has the rules)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)


def pre_bash(command: str, **tool_input: Any) -> dict[str, Any]:
    return {
        **COMMON,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it", **tool_input},
    }


def rewritten(reply: dict[str, Any]) -> str:
    out = reply["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    assert out["permissionDecision"] == "ask"
    command = out["updatedInput"]["command"]
    assert isinstance(command, str)
    return command


def test_a_bash_command_is_rewritten_and_the_rest_of_the_input_kept() -> None:
    reply, _ = hook("claude-code", pre_bash("pytest -x", timeout=120000))
    updated = reply["hookSpecificOutput"]["updatedInput"]
    # updatedInput replaces the whole input, so every other field must come back as it was.
    assert updated["description"] == "Run it" and updated["timeout"] == 120000
    words = shlex.split(rewritten(reply))
    assert words[-8:] == ["--tool", "bash", "--budget", "16000", "--", "bash", "-c", "pytest -x"]


def test_the_budget_option_reaches_the_rewritten_command() -> None:
    reply, _ = hook("claude-code", pre_bash("make"), "--budget", "4000")
    assert shlex.split(rewritten(reply))[-5] == "4000"


def test_end_to_end_the_rewritten_command_prints_compressed_output_and_keeps_a_failing_status(tmp_path: Any) -> None:
    (tmp_path / "build.log").write_text(BUILD_LOG)
    original = "cat build.log && echo 'naïve “quotes” it'\"'\"'s 日本' && exit 3"
    plain = run_shell(original, cwd=str(tmp_path))
    reply, _ = hook("claude-code", pre_bash(original), "--budget", "2000")
    done = run_shell(rewritten(reply), cwd=str(tmp_path))
    assert plain.returncode == done.returncode == 3
    assert len(plain.stdout) > 100_000 and len(done.stdout) <= 2000
    assert "[shapeclip:" in done.stdout and "shapeclip show" in done.stdout
    assert "naïve “quotes” it's 日本\n" in done.stdout


def test_a_compound_command_runs_whole_inside_the_wrapper() -> None:
    original = "printf 'a\\n' | tr a b; false || echo recovered && echo done"
    reply, _ = hook("claude-code", pre_bash(original))
    done = run_shell(rewritten(reply))
    assert (done.stdout, done.returncode) == (run_shell(original).stdout, 0) == ("b\nrecovered\ndone\n", 0)


def test_commands_that_must_stay_in_claudes_shell_get_no_answer() -> None:
    for command in ("cd src && npm test", "export X=1", "shapeclip show 3f9a2c1b7d04 --lines 1:9", "vim a.txt"):
        assert hook("claude-code", pre_bash(command)) == ({}, "")
    assert hook("claude-code", pre_bash("npm run dev", run_in_background=True)) == ({}, "")


def test_an_mcp_tool_output_is_replaced_in_the_shape_it_came_in() -> None:
    blocks = [{"type": "text", "text": BUILD_LOG}, {"type": "image", "data": "iVBOR", "mimeType": "image/png"}]
    for response in (BUILD_LOG, blocks, {"content": blocks, "isError": False}):
        event = {
            **COMMON,
            "hook_event_name": "PostToolUse",
            "tool_name": "mcp__ci__get_build_log",
            "tool_input": {"build": 812},
            "tool_response": response,
        }
        reply, _ = hook("claude-code", event, "--budget", "3000")
        out = reply["hookSpecificOutput"]
        assert out["hookEventName"] == "PostToolUse"
        new = out["updatedMCPToolOutput"]
        assert type(new) is type(response)
        text = new if isinstance(new, str) else (new if isinstance(new, list) else new["content"])[0]["text"]
        assert len(text) <= 3000 and "[shapeclip:" in text
        if not isinstance(new, str):
            content = new if isinstance(new, list) else new["content"]
            assert content[1] == blocks[1]


def test_output_that_fits_and_built_in_tools_get_no_answer() -> None:
    small = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "mcp__ci__status", "tool_response": "ok"}
    assert hook("claude-code", small) == ({}, "")
    read = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": BUILD_LOG}
    assert hook("claude-code", read) == ({}, "")


def test_malformed_input_passes_through_with_a_note() -> None:
    for raw in (b"", b"not json", b"[1, 2]", b'{"tool_input": ', json.dumps(pre_bash("make"))[:-5].encode()):
        reply, note = hook("claude-code", None, raw=raw)
        assert reply == {} and note.startswith("shapeclip hook claude-code: ")
    # An event with fields of the wrong type is not an error either: nothing is changed.
    assert hook("claude-code", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "make"}) == ({}, "")


def test_print_config_is_the_settings_block_naming_this_shapeclip() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "hook", "--print-config", "claude-code"], capture_output=True
    )
    hooks = json.loads(done.stdout)["hooks"]
    assert [group["matcher"] for group in hooks["PreToolUse"]] == ["Bash"]
    assert [group["matcher"] for group in hooks["PostToolUse"]] == ["mcp__.*"]
    command = hooks["PreToolUse"][0]["hooks"][0]["command"]
    assert shlex.split(command)[-2:] == ["hook", "claude-code"]


def test_the_readme_config_is_the_printed_one() -> None:
    assert readme_config("claude-code") == printed_config("claude-code")
