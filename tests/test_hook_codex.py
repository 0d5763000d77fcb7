"""`shapeclip hook codex` with events in the shape of Codex's generated hook schemas
(codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json and post-tool-use): no
answer ever approves a command."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from typing import Any

from hook_events import BUILD_LOG, SOURCE, documented_config, hook, printed_config, read_plan

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


def test_issue_25_no_command_is_approved_or_rewritten() -> None:
    # Each of these was once answered `permissionDecision: "allow"`, skipping Codex's approval.
    for command in ("rm -rf build", "git push --force", "find . -delete", "cargo test", "cd codex-rs"):
        assert hook("codex", pre_bash(command)) == ({}, "")


def test_shell_output_is_replaced_through_block_and_reason() -> None:
    # Codex's Bash tool_response is a plain string; `decision: "block"` with a `reason` replaces
    # the result the model reads with the reason (codex-rs/core/src/tools/registry.rs).
    event = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "make"}}
    reply, _ = hook("codex", {**event, "tool_response": BUILD_LOG}, "--budget", "2000")
    assert set(reply) == {"decision", "reason"} and reply["decision"] == "block"
    assert len(reply["reason"]) <= 2000 and "error: linker failed" in reply["reason"]
    assert "shapeclip show" in reply["reason"]
    assert hook("codex", {**event, "tool_response": "small"}) == ({}, "")


def test_a_file_the_shell_printed_is_planned_as_a_read() -> None:
    # Codex reads files with `sed -n` ranges; the same text from `make` is a log.
    for command, read in (("sed -n '1,2000p' src/steps.py", True), ("make", False)):
        event = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": command}}
        reply, _ = hook("codex", {**event, "tool_response": SOURCE}, "--budget", "3000")
        assert read_plan(reply["reason"]) is read, command


def test_an_mcp_result_is_replaced_as_its_text_and_one_with_an_image_is_left_alone() -> None:
    event = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "mcp__ci__log", "tool_input": {"build": 3}}
    result = {"content": [{"type": "text", "text": BUILD_LOG}]}
    reply, _ = hook("codex", {**event, "tool_response": result}, "--budget", "3000")
    assert reply["decision"] == "block" and len(reply["reason"]) <= 3000
    image = {"content": [*result["content"], {"type": "image", "data": "iVBOR", "mimeType": "image/png"}]}
    assert hook("codex", {**event, "tool_response": image}) == ({}, "")


def test_a_reason_fits_what_codex_hands_the_model_whole() -> None:
    # Codex writes feedback over 2,500 tokens of 4 bytes to a file and shows the model only a
    # head and a tail of it (codex-rs/hooks/src/output_spill.rs): at the default budget of
    # 16,000 characters, and for text whose characters take 3 bytes each.
    event = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "make"}}
    wide = "".join(f"[{i:05}] 模块 {'編譯' * 8} 完成\n" for i in range(4_000)) + "error: 链接失败\n"
    for log in (BUILD_LOG, wide):
        reason = hook("codex", {**event, "tool_response": log})[0]["reason"]
        assert len(reason.encode("utf-8")) <= 10_000 and len(reason) <= 16_000
        assert "error: " in reason and "shapeclip show" in reason


def test_a_cut_shell_result_says_it_cannot_show_the_exit_status() -> None:
    # The hook is handed no exit status, and the block drops the line where Codex gives it.
    event = {**COMMON, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "make"}}
    reason = hook("codex", {**event, "tool_response": BUILD_LOG}, "--budget", "2000")[0]["reason"]
    assert reason.endswith("no exit status, so this result cannot show it]") and len(reason) <= 2000
    mcp = {**event, "tool_name": "mcp__ci__log", "tool_response": {"content": [{"type": "text", "text": BUILD_LOG}]}}
    assert "exit status" not in hook("codex", mcp, "--budget", "2000")[0]["reason"]


def test_malformed_input_passes_through_with_a_note() -> None:
    for raw in (b"{", b"null", b"\xff\xfe"):
        reply, note = hook("codex", None, raw=raw)
        assert reply == {} and "nothing changed" in note


def test_print_config_has_only_a_post_tool_hook() -> None:
    done = subprocess.run([sys.executable, "-m", "shapeclip", "hook", "--print-config", "codex"], capture_output=True)
    hooks = json.loads(done.stdout)["hooks"]
    assert list(hooks) == ["PostToolUse"] and hooks["PostToolUse"][0]["matcher"] == "Bash|mcp__.*"
    assert shlex.split(hooks["PostToolUse"][0]["hooks"][0]["command"])[-2:] == ["hook", "codex"]


def test_the_documented_config_is_the_printed_one() -> None:
    assert documented_config("codex") == printed_config("codex")
