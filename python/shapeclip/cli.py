"""The `shapeclip` command: compress a file, a pipe or a command's output, as an agent's tool
output would be.

It streams its input through a `Compressor` in fixed-size chunks, so memory stays bounded by
the budget however long the input is, and writes the result (UTF-8) to standard output. After
`--`, it runs a command itself, compresses its standard output and error (merged, as an
agent's shell tool shows them), and exits with the command's exit status.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from .cli_numbers import positive
from .defaults import VERSION

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from .api import Compressor
    from .cli_input import Interrupts
    from .digest import Digest
    from .result import Compressed
    from .store import Store

# Each command imports what it needs when it runs (`shapeclip hook` needs neither the
# compressor nor digests, `shapeclip -- make` no hooks, messages or ledger): under a harness's
# hook, every shell command starts two of these processes, so start-up is paid twice.

EPILOG = """\
Run a command and compress what it prints:  shapeclip --budget 4000 -- make -k test

When the input is longer than the budget, the cut part is replaced by a marker such as

  [shapeclip: lines 412-9,873 of 10,240 omitted from this bash output (9,462 lines,
  393,240 chars, ~98,310 tokens). To see them, run the command again piped through
  sed -n '412,9873p' (or head, tail, grep), or narrow it.]

Line numbers in a marker are 1-based and exact, as are the line and character counts; the
token figure is characters / 4, rounded up. The hint depends on the tool kind (--tool):
shell commands get a sed range, file reads an offset and limit, searches a narrower search.
Output that fits the budget is printed unchanged, unless it is binary (it holds a NUL
byte): then each control character is printed as U+FFFD.

A pipe's or a command's output is kept in the store ($SHAPECLIP_STORE, else
$XDG_CACHE_HOME/shapeclip or ~/.cache/shapeclip; 500 MB, least recently used evicted) when
something is cut, and the markers then name its entry and the exact lines:

  ... To see them, run shapeclip show 3f9a2c1b7d04 --lines 412:9873, or read
  ~/.cache/shapeclip/3f9a2c1b7d04.out with offset 412 and limit 9462.]

--no-store turns that off. shapeclip show ID --help and shapeclip store --help say more.

Tool kinds, by --tool name (any case); a command after -- or a pipe is shell output:
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


def _parser() -> argparse.ArgumentParser:
    from .api import backend
    from .defaults import DEFAULT_BUDGET, DEFAULT_DIGEST_TIMEOUT

    parser = _Parser(
        prog="shapeclip",
        usage="%(prog)s [options] [FILE]\n       %(prog)s [options] -- COMMAND [ARG ...]\n"
        "       %(prog)s show ID [--lines A:B] [--grep PATTERN [-C N]] [--budget N]\n"
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


def _digest(spec: tuple[str, str] | None, timeout: float) -> Digest | None:
    """The digest `--digest` names, under `--digest-timeout`, or None. A digest that cannot be
    set up is said on stderr and left out: it must not stop the command a hook wraps."""
    if spec is None:
        return None
    import importlib

    from .digest import Digest, anthropic_messages, openai_chat

    sdk, model = spec
    try:
        module = importlib.import_module(sdk)
    except ImportError:
        sys.stderr.write(f"shapeclip: --digest {sdk}:... needs the {sdk} SDK (pip install {sdk}); no digest is asked\n")
        return None
    try:
        # Without retries and with the digest's own limit on each request, the SDK gives up
        # when shapeclip does, instead of asking again for an answer nobody waits for.
        if sdk == "openai":
            fn = openai_chat(module.OpenAI(max_retries=0), model, timeout=timeout)
        else:
            fn = anthropic_messages(module.Anthropic(max_retries=0), model, timeout=timeout)
    except Exception as exc:  # the SDK says what is missing, e.g. an API key
        sys.stderr.write(f"shapeclip: cannot set up the {sdk} client: {exc}; no digest is asked\n")
        return None
    return Digest(fn, timeout=timeout)


def _print_ledger(argv: list[str]) -> int:
    from .ledger import Ledger

    parser = argparse.ArgumentParser(
        prog="shapeclip ledger",
        description="Print what shapeclip saved in a session recorded by shapeclip.Ledger(PATH): "
        "per tool, the results, their characters and estimated tokens in and out, and digest tokens.",
    )
    parser.add_argument("path", metavar="PATH", help="the session's ledger file (JSON lines)")
    path = parser.parse_args(argv).path
    try:
        ledger = Ledger.load(path)
    except OSError as exc:
        parser.error(f"cannot read {path}: {exc.strerror}")
    except ValueError as exc:
        parser.error(str(exc))
    sys.stdout.write(ledger.table())
    return 0


def _serve_mcp(argv: list[str]) -> int:
    try:
        from . import mcp_server
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "mcp":
            raise
        sys.stderr.write("shapeclip mcp needs the MCP SDK: pip install '.[mcp]' in a shapeclip checkout\n")
        return 1
    return mcp_server.main(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"]:
        from . import hooks

        return hooks.run(argv[1:])
    if argv[:1] == ["init"]:
        from . import init

        return init.run(argv[1:])
    if argv[:1] == ["mcp"]:
        return _serve_mcp(argv[1:])
    if argv[:1] == ["ledger"]:
        return _print_ledger(argv[1:])
    if argv[:1] == ["batch"]:
        from . import cli_batch

        return cli_batch.run(argv[1:])
    if argv[:1] == ["gain"]:
        from . import cli_gain

        return cli_gain.gain(argv[1:])
    if argv[:1] in (["show"], ["store"]):
        from . import cli_store

        return cli_store.run(argv)
    return _compress(argv)


def _compress(argv: list[str]) -> int:
    from .api import Compressor
    from .cli_input import Interrupts, run_command

    # Everything after the first `--` is a command to run, not options of ours.
    split = argv.index("--") if "--" in argv else len(argv)
    own, command = argv[:split], argv[split + 1 :]
    parser = _parser()
    args = parser.parse_args(own)
    if "--" in argv and not command:
        parser.error("-- must be followed by a command to run")
    if command and args.file is not None:
        parser.error("give a FILE or a command after --, not both")
    if not command and args.file is None and os.isatty(0):
        # Nothing was asked for; waiting silently on a terminal looks like a hang.
        parser.error(
            "standard input is a terminal: give a FILE, pipe the output in, or run a command after "
            "-- COMMAND (or give - to type the input, ending it with Ctrl-D)"
        )
    # A pipe or a command cannot be read again; a file can, and its markers point into it.
    reread = args.file not in (None, "-")
    # A wrapped command's or a pipe's output is shell output unless --tool says otherwise:
    # its markers then say how to run it again, not to call a tool that is not there.
    tool = args.tool if args.tool is not None or reread else "command"
    digest = _digest(args.digest, args.digest_timeout)
    store = None if args.no_store or reread else _store(command)
    compressor = Compressor(tool, args.budget, digest=digest, store=store)
    with Interrupts() as interrupts:
        if command:
            status = run_command(command, compressor, interrupts)
        else:
            _read_input(parser, "-" if args.file is None else args.file, compressor, interrupts)
            # Stopped by a signal, shapeclip says so as a shell would of a command.
            status = 0 if interrupts.received is None else 128 + interrupts.received
        result = _finished(compressor, digest)
    sys.stdout.buffer.write(_as_text(result.text).encode("utf-8"))
    sys.stdout.buffer.flush()
    if result.shape != "passthrough":
        from . import savings

        stored = None if result.stored is None else result.stored.id
        savings.compressed(tool, "cli", result.input_chars, len(result.text), entry=stored)
    return status


def _store(command: list[str]) -> Store:
    import shlex

    from .store import Store

    return Store(command=shlex.join(command) if command else None)


def _finished(compressor: Compressor, digest: Digest | None) -> Compressed:
    """The compression, with the digest's answer when it gave one; when it failed, stderr
    says why (the result carries the plain marker)."""
    result = compressor.finish_detailed()
    if digest is None or result.digest_request is None:
        return result
    from .digest import apply

    result = apply(result, digest)
    if result.digest is not None and result.digest.fell_back:
        sys.stderr.write(f"shapeclip: the digest failed ({result.digest.reason}); the plain marker is printed\n")
    return result


#: Control characters that binary data brings and text output has no use for.
_BINARY_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _as_text(text: str) -> str:
    """`text`, unless it holds a NUL byte, which text output never does: then binary data was
    read, and each control character in it is shown as U+FFFD, one character for one, so the
    budget holds and nothing is written that a terminal or a JSON transport would choke on."""
    return _BINARY_CONTROLS.sub("\ufffd", text) if "\0" in text else text


def _read_input(parser: argparse.ArgumentParser, file: str, compressor: Compressor, interrupts: Interrupts) -> None:
    from .cli_input import read_to_end

    if file == "-":
        read_to_end(sys.stdin.fileno(), compressor, interrupts)
        return
    try:
        with open(file, "rb") as source:
            read_to_end(source.fileno(), compressor, interrupts)
    except OSError as exc:
        parser.error(f"cannot read {file}: {exc.strerror}")


if __name__ == "__main__":
    sys.exit(main())
