"""corpus-agents scored as a hook sees its outputs: every one as the output of a shell tool.

The corpus names each output's tool by its command (`cat F` is `read_file`), but Claude Code,
Codex, Gemini CLI and OpenCode hand a hook a `cat` or a `sed -n` as Bash's output. Two ways a
caller may pass it on, each a `--impl` for the corpus's scorer:

    python ../shared/corpus-agents/score.py --impl benches/agents_as_hooks.py:without_command --by shape
    python ../shared/corpus-agents/score.py --impl benches/agents_as_hooks.py:with_command --by shape

`with_command` finds each output's command in the case beside it (`CASES`, or
`$SHAPECLIP_AGENT_CASES`), as a hook reads it from the event.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import shapeclip

CASES = Path(os.environ.get("SHAPECLIP_AGENT_CASES", "/work/shared/corpus-agents/cases"))


@cache
def _commands() -> dict[str, str]:
    """Each case's output text, mapped to the command that printed it."""
    commands = {}
    for case in sorted(CASES.glob("*.json")):
        commands[case.with_suffix(".txt").read_text(encoding="utf-8")] = json.loads(case.read_text())["command"]
    return commands


def without_command(text: str, tool: str, budget: int) -> str:
    return shapeclip.compress(text, "bash", budget)


def with_command(text: str, tool: str, budget: int) -> str:
    command = _commands().get(text)
    return shapeclip.compress(text, "bash", budget, command=None if command is None else command.strip())
