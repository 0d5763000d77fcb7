"""`shapeclip hook NAME`: shapeclip as a hook of Claude Code, Codex CLI, Gemini CLI or OpenCode.

The harness runs the hook with its event as JSON on standard input and reads the answer as
JSON on standard output. A post-tool event gets its output compressed in place, in the shape
it came in (see `output`), after the tool ran; every other event gets `{}`, which all
read as "change nothing". No answer ever carries a permission decision or rewrites a command:
what runs is the harness's and the user's to decide, exactly as without shapeclip.

A hook must never be why a tool call fails: input that is not a JSON object, or any error
while answering, gives `{}` too, with a note on standard error, and the exit status is 0.
(Exit status 2 would block the tool in all three harnesses, so even a bad command line exits
1, which they report and go on.) `shapeclip hook --print-config NAME` prints the settings to
paste, naming this very shapeclip, so the harness needs no PATH of its own to find it.
"""

from __future__ import annotations

import json
import os
import sys

from ..cli_numbers import count
from ..defaults import DEFAULT_BUDGET
from ..json_text import parse
from . import claude_code, codex, gemini, opencode, output
from .output import Cut, Settings

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

HARNESSES: dict[str, ModuleType] = {module.NAME: module for module in (claude_code, codex, gemini, opencode)}


def answer(name: str, raw: bytes, settings: Settings) -> dict[str, Any]:
    """The answer of harness `name` to the event `raw`; {} for anything it cannot use."""
    try:
        event = parse(raw)
    except ValueError as exc:
        print(f"shapeclip hook {name}: the input is not JSON ({exc}); nothing changed", file=sys.stderr)
        return {}
    if not isinstance(event, dict):
        print(f"shapeclip hook {name}: the input is not a JSON object; nothing changed", file=sys.stderr)
        return {}
    output.cuts = []
    try:
        result: dict[str, Any] = HARNESSES[name].answer(event, settings)
    except Exception as exc:  # a hook that fails would fail the agent's tool call
        print(f"shapeclip hook {name}: {type(exc).__name__}: {exc}; nothing changed", file=sys.stderr)
        return {}
    finally:
        cuts, output.cuts = output.cuts, None
    if result and cuts:
        _record(name, event, cuts)
    return result


def _record(name: str, event: dict[str, Any], cuts: list[Cut]) -> None:
    """Puts what the answer cut in the savings ledger, under the project the event names."""
    from .. import savings

    cwd = event["cwd"] if isinstance(event.get("cwd"), str) else None
    for cut in cuts:
        savings.compressed(cut.tool, f"hook {name}", cut.chars_in, cut.chars_out, entry=cut.entry, cwd=cwd)


def shapeclip_argv() -> list[str]:
    """How to run this very shapeclip again, whatever PATH the harness's shell has."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(script) == "shapeclip" and os.access(script, os.X_OK):
        return [script]
    return [sys.executable, "-m", "shapeclip"]


def run(argv: list[str]) -> int:
    installed = as_installed(argv)
    if installed is None:
        from .arguments import parse

        args = parse(argv, sorted(HARNESSES))
        if args.print_config:
            import shlex

            budget_args = [] if args.budget == DEFAULT_BUDGET else ["--budget", str(args.budget)]
            hook_command = shlex.join([*shapeclip_argv(), "hook", args.name, *budget_args])
            print(HARNESSES[args.name].config(hook_command))
            return 0
        installed = args.name, args.budget
    name, budget = installed
    reply = answer(name, sys.stdin.buffer.read(), Settings(budget=budget))
    sys.stdout.write(json.dumps(reply) + "\n")
    return 0


def as_installed(argv: list[str]) -> tuple[str, int] | None:
    """The harness and budget of a hook's command line as `--print-config` and `shapeclip init`
    write it (`NAME`, or `NAME --budget N`), read without argparse: with the modules it loads,
    argparse is about 6 ms of a start that every tool call of an agent pays. None for any
    other command line, which argparse reads, and explains when it is wrong."""
    if not argv or argv[0] not in HARNESSES:
        return None
    if len(argv) == 1:
        return argv[0], DEFAULT_BUDGET
    budget = count(argv[2]) if len(argv) == 3 and argv[1] == "--budget" else None
    return None if budget is None else (argv[0], budget)
