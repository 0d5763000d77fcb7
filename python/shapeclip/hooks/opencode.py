"""OpenCode: a plugin whose `tool.execute.after` hook hands each long output to `shapeclip hook
opencode` and puts the answer in its place.

OpenCode's plugins are JavaScript modules; `tool.execute.after(input, output)` runs after a tool
ran, and the object it is given is the one returned to the model, so assigning `output.output`
(built-in tools) or the text of `output.content` (an MCP tool's `CallToolResult`, rebuilt into
text after the hook) replaces what the model reads (anomalyco/opencode
packages/opencode/src/session/tools.ts and packages/plugin/src/index.ts). The plugin
`config` prints does only that: outputs longer than the budget go to this hook as JSON
(`{"tool": ..., "output": ...}` or `{"tool": ..., "content": [...]}`, with the bash tool's
`command` from `input.args`), and the answer's field, when there is one, replaces the
output's. It decides nothing about what runs, and any failure leaves the output as it was.
"""

from __future__ import annotations

import json

from ..defaults import DEFAULT_BUDGET
from .output import Settings, compressed_and_stored

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Any

NAME = "opencode"

_PLUGIN = """\
// shapeclip for OpenCode: save as .opencode/plugins/shapeclip.js (or in
// ~/.config/opencode/plugins/). After a tool ran, an output longer than the budget goes
// through `shapeclip hook opencode`, whose answer replaces it; on any failure it stays.
import { spawnSync } from "node:child_process";

const HOOK = __HOOK__;
const BUDGET = __BUDGET__;

function answer(event) {
  const [program, ...args] = HOOK;
  const done = spawnSync(program, args, { input: JSON.stringify(event), encoding: "utf8", maxBuffer: 1 << 30 });
  if (done.status !== 0 || !done.stdout) return {};
  try {
    return JSON.parse(done.stdout);
  } catch {
    return {};
  }
}

const long = (text) => typeof text === "string" && text.length > BUDGET;
// An MCP result's text blocks share one budget, so it is their total that is long.
const textLength = (content) =>
  content.reduce((n, part) => n + (typeof part?.text === "string" ? part.text.length : 0), 0);

export const Shapeclip = async () => ({
  "tool.execute.after": async (input, output) => {
    const event = { hook_event_name: "tool.execute.after", tool: input?.tool };
    // The shell's command says whether it printed a file.
    if (typeof input?.args?.command === "string") event.command = input.args.command;
    if (long(output?.output)) {
      const reply = answer({ ...event, output: output.output });
      if (typeof reply.output === "string") output.output = reply.output;
    } else if (Array.isArray(output?.content) && textLength(output.content) > BUDGET) {
      const reply = answer({ ...event, content: output.content });
      if (Array.isArray(reply.content)) output.content = reply.content;
    }
  },
});
"""


def answer(event: dict[str, Any], settings: Settings) -> dict[str, Any]:
    tool = event.get("tool")
    if event.get("hook_event_name") != "tool.execute.after" or not isinstance(tool, str):
        return {}
    given = event.get("command") if tool == "bash" else None
    command = given if isinstance(given, str) else None
    for field in ("output", "content"):
        value = event.get(field)
        if isinstance(value, str | list):
            replaced = compressed_and_stored(value, tool, settings.budget, command)
            return {} if replaced is None else {field: replaced}
    return {}


def config(hook_command: str) -> str:
    """The plugin module, naming this very shapeclip and the budget its hook command sets."""
    import shlex  # only here: a hook answering an event needs no shlex

    argv = shlex.split(hook_command)
    budget = argv[argv.index("--budget") + 1] if "--budget" in argv else str(DEFAULT_BUDGET)
    return _PLUGIN.replace("__HOOK__", json.dumps(argv)).replace("__BUDGET__", budget)
