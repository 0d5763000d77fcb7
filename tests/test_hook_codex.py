"""`shapeclip hook codex` with events in the shape of Codex's generated hook schemas
(codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json and post-tool-use)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from typing import Any

from hook_events import BUILD_LOG, hook, printed_config, readme_config, run_shell

COMMON = {
    "session_id": "019c4bb4-f425-77f3-bdef-0431711e746a",
    "turn_id": "turn-1",
    "transcript_path": None,
    "cwd": "/home/me/demo",
    "model": "gpt-5",
    "permission_mode": "default",
    "tool_use_id": "call-1",
}


def pre_bash(command: str) -> dict[str, Any]:
    return {**COMMON, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}


def test_the_shell_command_is_rewritten_with_the_allow_codex_requires() -> None:
    reply, _ = hook("codex", pre_bash("cargo test"))
    out = reply["hookSpecificOutput"]
    # Codex rejects updatedInput without permissionDecision "allow", and the output schema
    # allows no other keys in hookSpecificOutput.
    assert set(out) == {"hookEventName", "permissionDecision", "updatedInput"}
    assert out["permissionDecision"] == "allow"
    assert shlex.split(out["updatedInput"]["command"])[-3:] == ["bash", "-c", "cargo test"]


def test_end_to_end_a_failing_command_keeps_its_status(tmp_path: Any) -> None:
    (tmp_path / "log").write_text(BUILD_LOG)
    reply, _ = hook("codex", pre_bash("cat log; echo 'ünïcode'; exit 7"), "--budget", "3000")
    done = run_shell(reply["hookSpecificOutput"]["updatedInput"]["command"], cwd=str(tmp_path))
    assert done.returncode == 7
    assert len(done.stdout) <= 3000 and "ünïcode\n" in done.stdout and "[shapeclip:" in done.stdout


def test_state_changes_and_heredocs_are_left_to_codex() -> None:
    for command in ("cd codex-rs", "cat > a.txt <<EOF\nx\nEOF", "source env.sh && make"):
        assert hook("codex", pre_bash(command)) == ({}, "")
    # An argv-list command is not a shape this reads: left alone.
    assert hook("codex", {**pre_bash(""), "tool_input": {"command": ["bash", "-lc", "ls"]}}) == ({}, "")


def test_post_tool_use_answers_updated_tool_output_in_the_kind_of_tool_response() -> None:
    event = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "make"}}
    reply, _ = hook("codex", {**event, "tool_response": BUILD_LOG}, "--budget", "2000")
    new = reply["hookSpecificOutput"]["updatedToolOutput"]
    assert isinstance(new, str) and len(new) <= 2000
    assert hook("codex", {**event, "tool_response": "small"}) == ({}, "")


def test_malformed_input_passes_through_with_a_note() -> None:
    for raw in (b"{", b"null", b"\xff\xfe"):
        reply, note = hook("codex", None, raw=raw)
        assert reply == {} and "nothing changed" in note


def test_print_config_has_only_the_pre_tool_hook_codex_applies() -> None:
    done = subprocess.run([sys.executable, "-m", "shapeclip", "hook", "--print-config", "codex"], capture_output=True)
    hooks = json.loads(done.stdout)["hooks"]
    assert list(hooks) == ["PreToolUse"] and hooks["PreToolUse"][0]["matcher"] == "Bash"
    assert shlex.split(hooks["PreToolUse"][0]["hooks"][0]["command"])[-2:] == ["hook", "codex"]


def test_the_readme_config_is_the_printed_one() -> None:
    assert readme_config("codex") == printed_config("codex")
