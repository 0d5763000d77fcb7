"""The arguments of `shapeclip hook`, read by argparse: for help, `--print-config` and a command
line that is wrong. The command lines the hooks are installed with are read without it
(`shapeclip.hooks.as_installed`), so that a hook's start does not pay for argparse.
"""

from __future__ import annotations

import argparse
import sys

from ..cli_numbers import positive
from ..defaults import DEFAULT_BUDGET

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import NoReturn


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def parse(argv: list[str], harnesses: list[str]) -> argparse.Namespace:
    """`argv` read as `shapeclip hook NAME [--budget N] [--print-config]`, NAME one of
    `harnesses`. A wrong command line exits 1, never 2: see `shapeclip.hooks`."""
    parser = _Parser(
        prog="shapeclip hook",
        description="Answer a Claude Code, Codex CLI, Gemini CLI or OpenCode hook event (JSON on standard "
        "input): compress a tool's output after it ran.",
    )
    parser.add_argument("name", metavar="NAME", choices=harnesses, help=", ".join(harnesses))
    parser.add_argument(
        "--budget",
        type=positive("characters"),
        default=DEFAULT_BUDGET,
        help=f"characters per tool output (default {DEFAULT_BUDGET})",
    )
    parser.add_argument("--print-config", action="store_true", help="print the hook settings to paste, and exit")
    return parser.parse_args(argv)
