"""The arguments of the `shapeclip` command that compresses (a FILE, a pipe, `-- COMMAND`), and
its help. Apart from `cli` so that the subcommands that start most often, `shapeclip hook` on
every tool call of an agent, do not import argparse, which with the gettext, locale and shutil
modules it loads costs a hook about 6 ms of its start.
"""

from __future__ import annotations

import argparse

from .cli_numbers import positive
from .defaults import VERSION

EPILOG = """\
Run a command and compress what it prints:  shapeclip --budget 4000 -- make -k test
Its standard output and error are read together, as an agent's shell tool shows them, and
it reads shapeclip's standard input, except a terminal (/dev/null then: a prompt would wait
unseen, the output being held back until the command ends).

When the input is longer than the budget, the cut part is replaced by a marker such as

  [shapeclip: lines 412-9,873 of 10,240 omitted from this bash output (9,462 lines,
  393,240 chars, ~98,310 tokens). To see them, run the command again piped through
  sed -n '412,9873p' (or head, tail, grep), or narrow it.]

Line numbers in a marker are 1-based and exact, as are the line and character counts; the
token figure is characters / 4, rounded up. The hint depends on the tool kind (--tool):
shell commands get a sed range, file reads an offset and limit, searches a narrower search.
Output that fits the budget is printed unchanged, unless it is binary (a NUL byte in its
first 8,000 bytes or in what is printed): then each control character is printed as U+FFFD.

A FILE is where its output is kept: the markers name it (sed -n '412,9873p' FILE, or read
FILE with an offset and limit), and with no --tool a build log in it is planned as a log.
A pipe's or a command's output is kept in the store ($SHAPECLIP_STORE, else
$XDG_CACHE_HOME/shapeclip or ~/.cache/shapeclip; 500 MB, least recently used evicted) when
something is cut, and the markers then name its entry and the exact lines:

  ... To see them, run shapeclip show 3f9a2c1b7d04 --lines 412:9873, or read
  ~/.cache/shapeclip/3f9a2c1b7d04.out with offset 412 and limit 9462.]

--no-store turns that off. shapeclip show ID --help and shapeclip store --help say more.

Tool kinds, by --tool name (any case); a command after -- or a pipe is shell output, and a
command after -- that prints a file (cat F, sed -n 'A,Bp' F, nl -ba F | sed -n ...) is
planned as a file read, its markers still saying to run it again:
{kinds}

With --digest openai:MODEL or anthropic:MODEL, a fast model writes what the omitted part
holds into the marker. The SDK is configured from its usual environment variables
(OPENAI_API_KEY and OPENAI_BASE_URL, or ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL), so any
OpenAI-compatible server works. If the model fails, the plain marker is printed and stderr
says why; a digest that cannot be set up (no SDK, no API key) is left out, and the command
still runs.

shapeclip ledger PATH prints what shapeclip saved in an agent session recorded with
shapeclip.Ledger(PATH): per tool, characters and estimated tokens in and out, and digest
tokens. (A file named like a subcommand (ledger, hook, show, store, gain, init, mcp, batch)
is compressed when given as ./ledger.)

shapeclip batch IN.jsonl compresses the tool results of recorded conversations, one per line
(OpenAI Chat Completions, OpenAI Responses or Anthropic messages), or one per row of a
.parquet file, as compress_messages does when each result is appended, on every core;
shapeclip batch --help says more.

shapeclip gain prints what the command line, the hooks and shapeclip mcp saved, in characters
and estimated tokens, in all, per tool, per day and per project, less what shapeclip show gave
back. Each cut output is a line in a private ledger beside the store ($SHAPECLIP_LEDGER names
another file, or is off to keep none).

shapeclip hook NAME answers a Claude Code, Codex CLI or Gemini CLI hook event: it runs the
agent's shell commands through shapeclip, keeping their exit status, and compresses MCP tool
output. shapeclip hook --print-config NAME prints the settings to paste, and shapeclip init
NAME writes them into the harness's settings file.

shapeclip mcp serves the store (show, list) and a command runner (run) to an MCP client over
standard input and output (it needs the mcp extra: pip install '.[mcp]' in a checkout).

A wrapped command's exit status is shapeclip's: 128 + N if signal N ended it, as in a shell,
127 if it was not found and 126 if it could not be run. SIGINT and SIGTERM are passed on to
the command (a Ctrl-C at the terminal reaches it directly), and what it printed until it
stopped is compressed and printed all the same. Reading a file or a pipe, a signal ends the
reading; what was read is printed, and the exit status is 128 + N.
"""


def _tool_kinds() -> str:
    import textwrap

    from .profiles import DEFAULT, TOOL_PROFILES

    names: dict[str, list[str]] = {}
    for name, profile in TOOL_PROFILES.items():
        names.setdefault(profile.kind, []).append(name)
    rows = [(kind, ", ".join(tools)) for kind, tools in names.items()]
    rows.append((DEFAULT.kind, "any other name"))
    return "\n".join(
        textwrap.fill(tools, 92, initial_indent=f"  {kind:<11}", subsequent_indent=" " * 13) for kind, tools in rows
    )


class _Parser(argparse.ArgumentParser):
    """Lists the tool kinds in the epilog only when help is printed: a run needs no list."""

    def format_help(self) -> str:
        self.epilog = EPILOG.format(kinds=_tool_kinds())
        return super().format_help()


def compress_parser() -> argparse.ArgumentParser:
    from .api import backend
    from .defaults import DEFAULT_BUDGET, DEFAULT_DIGEST_TIMEOUT

    parser = _Parser(
        prog="shapeclip",
        usage="%(prog)s [options] [FILE]\n       %(prog)s [options] -- COMMAND [ARG ...]\n"
        "       %(prog)s show ID [--lines A:B [--chars A:B]] [[-F] --grep PATTERN [-C N]] [--budget N]\n"
        "       %(prog)s store [--stats | --list | --prune | --clear]\n"
        "       %(prog)s ledger PATH\n"
        "       %(prog)s gain [--days N] [--json]\n"
        "       %(prog)s batch IN.jsonl|IN.parquet [-o OUT] [--budget N] [--workers N]\n"
        "       %(prog)s hook claude-code|codex|gemini [--budget N] [--print-config]\n"
        "       %(prog)s init claude-code|codex|gemini [--project DIR] [--dry-run] [--uninstall]\n"
        "       %(prog)s mcp",
        description="Compress a tool output to a character budget, keeping what its shape says matters.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default=None,
        help="file to read (./show for one named show); - reads standard input, "
        "as does nothing unless it is a terminal",
    )
    parser.add_argument(
        "--tool", default=None, help="the tool that produced the output (e.g. bash, grep, read_file; kinds below)"
    )
    parser.add_argument(
        "--budget",
        type=positive("characters"),
        default=DEFAULT_BUDGET,
        help=f"characters at most (default {DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--digest",
        metavar="SDK:MODEL",
        type=_digest_spec,
        default=None,
        help="have MODEL summarise the omitted part, through the openai or anthropic SDK (e.g. openai:gpt-4o-mini)",
    )
    parser.add_argument(
        "--digest-timeout",
        metavar="SECONDS",
        type=_seconds,
        default=DEFAULT_DIGEST_TIMEOUT,
        help=f"give up on the digest after this long and print the plain marker (default {DEFAULT_DIGEST_TIMEOUT:g})",
    )
    parser.add_argument(
        "--no-store",
        action="store_true",
        help="keep no copy of a pipe's or command's output (markers then say to run it again)",
    )
    parser.add_argument("--version", action="version", version=f"shapeclip {VERSION} ({backend()} backend)")
    return parser


def _seconds(value: str) -> float:
    import math

    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {value!r}") from None
    if not 0 < seconds < math.inf:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {value!r}")
    return seconds


def _digest_spec(value: str) -> tuple[str, str]:
    sdk, _, model = value.partition(":")
    if sdk not in ("openai", "anthropic") or not model:
        raise argparse.ArgumentTypeError(f"must be openai:MODEL or anthropic:MODEL, got {value!r}")
    return sdk, model
