"""`shapeclip hook gemini` with events in the shapes of Gemini CLI's hooks reference
(docs/hooks/reference.md): AfterTool with llmContent, and no answer before a tool runs."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from hook_events import BUILD_LOG, SOURCE, documented_config, hook, printed_config, read_plan

COMMON = {
    "session_id": "s-1",
    "transcript_path": "/home/me/.gemini/tmp/chat.json",
    "cwd": "/home/me/demo",
    "timestamp": "2026-08-20T10:00:00Z",
}


def before_shell(command: str) -> dict[str, Any]:
    return {
        **COMMON,
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "build"},
    }


def test_issue_25_no_command_is_rewritten_before_it_runs() -> None:
    for command in ("make", "rm -rf build", "htop", "cd /tmp", "git push --force"):
        assert hook("gemini", before_shell(command)) == ({}, "")


def test_shell_output_is_replaced_after_it_ran() -> None:
    event = {**COMMON, "hook_event_name": "AfterTool", "tool_name": "run_shell_command", "tool_input": {}}
    reply, _ = hook("gemini", {**event, "tool_response": {"llmContent": BUILD_LOG}}, "--budget", "2500")
    # "block": the reference's alias of "deny", which Gemini CLI reads the same
    # (isBlockingDecision, packages/core/src/hooks/types.ts); never a permission's word.
    assert reply["decision"] == "block" and len(reply["reason"]) <= 2500
    assert "error: linker failed" in reply["reason"]


def test_a_file_the_shell_printed_is_planned_as_a_read() -> None:
    for command, read in (("cat src/steps.py", True), ("make", False)):
        event = {**COMMON, "hook_event_name": "AfterTool", "tool_name": "run_shell_command"}
        event["tool_input"] = {"command": command, "description": "show it"}
        reply, _ = hook("gemini", {**event, "tool_response": {"llmContent": SOURCE}}, "--budget", "3000")
        assert read_plan(reply["reason"]) is read, command


def test_after_tool_replaces_a_long_result_through_block_and_reason() -> None:
    response = {"llmContent": BUILD_LOG, "returnDisplay": "build log"}
    event = {**COMMON, "hook_event_name": "AfterTool", "tool_name": "mcp_ci_build_log", "tool_input": {}}
    reply, _ = hook("gemini", {**event, "tool_response": response}, "--budget", "3000")
    assert reply["decision"] == "block" and len(reply["reason"]) <= 3000 and "[shapeclip:" in reply["reason"]
    assert hook("gemini", {**event, "tool_response": {"llmContent": "ok", "returnDisplay": "ok"}}) == ({}, "")


def test_an_mcp_result_as_parts_is_replaced_as_its_text_and_one_with_an_image_is_left_alone() -> None:
    # An MCP tool's llmContent is a list of parts (transformMcpContentToParts in
    # packages/core/src/tools/mcp-tool.ts): its texts, together, become the reason.
    event = {**COMMON, "hook_event_name": "AfterTool", "tool_name": "mcp_ci_build_log", "tool_input": {}}
    parts = [{"text": "build 42 of main:"}, {"text": BUILD_LOG}]
    reply, _ = hook("gemini", {**event, "tool_response": {"llmContent": parts}}, "--budget", "3000")
    assert reply["decision"] == "block" and len(reply["reason"]) <= 3000
    assert reply["reason"].startswith("build 42 of main:\n") and "error: linker failed" in reply["reason"]
    image = [*parts, {"text": "[Tool 'x' provided the following image data]"}, {"inlineData": {"data": "iVBOR"}}]
    assert hook("gemini", {**event, "tool_response": {"llmContent": image}}) == ({}, "")


def test_an_answer_never_uses_a_permission_word() -> None:
    # What this hook answers after a tool ran decides nothing about what runs, so none of its
    # fields says allow, ask or deny (the reason is the tool's compressed output).
    for tool in ("run_shell_command", "mcp_ci_build_log"):
        event = {**COMMON, "hook_event_name": "AfterTool", "tool_name": tool, "tool_input": {}}
        reply, _ = hook("gemini", {**event, "tool_response": {"llmContent": BUILD_LOG}}, "--budget", "2000")
        fields = {key: value for key, value in reply.items() if key != "reason"}
        assert fields and not {"allow", "ask", "deny"} & set(json.dumps(fields).replace('"', " ").split())


def test_malformed_input_passes_through_with_a_note() -> None:
    # Gemini CLI parses standard error when standard output is empty, so the answer must
    # always be printed: {} and the note only on standard error.
    reply, note = hook("gemini", None, raw=b"<html>")
    assert reply == {} and note.startswith("shapeclip hook gemini: the input is not JSON")


def test_print_config_names_the_shell_tool_and_mcp_tools() -> None:
    done = subprocess.run([sys.executable, "-m", "shapeclip", "hook", "--print-config", "gemini"], capture_output=True)
    hooks = json.loads(done.stdout)["hooks"]
    assert list(hooks) == ["AfterTool"] and hooks["AfterTool"][0]["matcher"] == "run_shell_command|mcp_.*"


def test_the_documented_config_is_the_printed_one() -> None:
    assert documented_config("gemini") == printed_config("gemini")
