"""`shapeclip hook opencode` and the OpenCode plugin that calls it, with the objects OpenCode's
`tool.execute.after` hands a plugin (anomalyco/opencode packages/plugin/src/index.ts: `input`
is `{tool, sessionID, callID, args}`, `output` is `{title, output, metadata}` for built-in
tools and the MCP `CallToolResult` for MCP tools). The plugin itself runs under Node."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hook_events import BUILD_LOG, SOURCE, hook, read_plan


def test_a_long_built_in_output_is_answered_compressed_and_a_short_one_not() -> None:
    event = {"hook_event_name": "tool.execute.after", "tool": "bash", "output": BUILD_LOG}
    reply, _ = hook("opencode", event, "--budget", "2000")
    assert set(reply) == {"output"} and len(reply["output"]) <= 2000
    assert "error: linker failed" in reply["output"] and "shapeclip show" in reply["output"]
    assert hook("opencode", {**event, "output": "ok"}) == ({}, "")
    assert hook("opencode", {**event, "hook_event_name": "tool.execute.before"}) == ({}, "")


def test_a_file_bash_printed_is_planned_as_a_read() -> None:
    event = {"hook_event_name": "tool.execute.after", "tool": "bash", "output": SOURCE}
    for command, read in (("cat src/steps.py", True), ("make", False)):
        reply, _ = hook("opencode", {**event, "command": command}, "--budget", "3000")
        assert read_plan(reply["output"]) is read, command


def test_an_mcp_result_keeps_its_blocks() -> None:
    content = [{"type": "text", "text": BUILD_LOG}, {"type": "image", "data": "iVBOR", "mimeType": "image/png"}]
    event = {"hook_event_name": "tool.execute.after", "tool": "ci_get_log", "content": content}
    reply, _ = hook("opencode", event, "--budget", "3000")
    assert reply["content"][1] == content[1] and len(reply["content"][0]["text"]) <= 3000


DRIVER = """
import { readFileSync } from "node:fs";
import { Shapeclip } from "./shapeclip.mjs";
const log = readFileSync("build.log", "utf8");
const source = readFileSync("steps.py", "utf8");
const hooks = await Shapeclip({});
const builtIn = { title: "make", output: log, metadata: {} };
await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c", args: {} }, builtIn);
const mcp = { content: [{ type: "text", text: log }], isError: false };
await hooks["tool.execute.after"]({ tool: "ci_get_log", sessionID: "s", callID: "d", args: {} }, mcp);
const blocks = { content: log.split("\\n", 200).map((line) => ({ type: "text", text: line + "\\n" })), isError: false };
await hooks["tool.execute.after"]({ tool: "ci_get_log", sessionID: "s", callID: "f", args: {} }, blocks);
const printed = { title: "cat", output: source, metadata: {} };
const cat = { tool: "bash", sessionID: "s", callID: "g", args: { command: "cat steps.py" } };
await hooks["tool.execute.after"](cat, printed);
const short = { title: "ls", output: "a\\nb\\n", metadata: {} };
await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "e", args: {} }, short);
console.log(JSON.stringify({ builtIn, mcp, blocks, printed, short }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="the plugin runs under Node or Bun")
def test_the_printed_plugin_replaces_what_the_model_reads(tmp_path: Path) -> None:
    plugin = subprocess.run(
        [sys.executable, "-m", "shapeclip", "hook", "--print-config", "opencode", "--budget", "2500"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (tmp_path / "shapeclip.mjs").write_text(plugin)
    (tmp_path / "driver.mjs").write_text(DRIVER)
    (tmp_path / "build.log").write_text(BUILD_LOG)
    (tmp_path / "steps.py").write_text(SOURCE)
    done = subprocess.run(["node", "driver.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["builtIn"]["title"] == "make" and len(result["builtIn"]["output"]) <= 2500
    assert "error: linker failed" in result["builtIn"]["output"]
    assert len(result["mcp"]["content"][0]["text"]) <= 2500 and result["mcp"]["isError"] is False
    # 200 blocks, each shorter than the budget, together longer: one text, cut with one marker.
    texts = [part["text"] for part in result["blocks"]["content"]]
    assert sum(map(len, texts)) <= 2500 and "".join(texts).count("shapeclip show") == 1
    assert result["short"]["output"] == "a\nb\n"
    # The bash tool's command, from `input.args`, says it printed a file.
    assert read_plan(result["printed"]["output"]) and not read_plan(result["builtIn"]["output"])


def test_print_config_is_a_plugin_naming_this_shapeclip_and_its_budget() -> None:
    plugin = subprocess.run(
        [sys.executable, "-m", "shapeclip", "hook", "--print-config", "opencode", "--budget", "4000"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    hook_line = next(line for line in plugin.splitlines() if line.startswith("const HOOK = "))
    argv = json.loads(hook_line.removeprefix("const HOOK = ").rstrip(";"))
    assert argv == [sys.executable, "-m", "shapeclip", "hook", "opencode", "--budget", "4000"]
    assert "const BUDGET = 4000;" in plugin and '"tool.execute.after"' in plugin
