"""The `shapeclip` command: compress a file, a pipe or a command's output, as an agent's tool
output would be.

It streams its input through a `Compressor` in fixed-size chunks, so memory stays bounded by
the budget however long the input is, and writes the result (UTF-8) to standard output. After
`--`, it runs a command itself, compresses its standard output and error (merged, as an
agent's shell tool shows them), and exits with the command's exit status.
"""

from __future__ import annotations

import argparse
import importlib
import math
import subprocess
import sys
from typing import IO

from . import __version__
from .api import DEFAULT_BUDGET, Compressor, backend
from .digest import DEFAULT_TIMEOUT, DigestFn, anthropic_messages, openai_chat

CHUNK_BYTES = 1 << 20

EPILOG = """\
Run a command and compress what it prints:  shapeclip --budget 4000 -- make -k test

When the input is longer than the budget, the cut part is replaced by a marker such as

  [shapeclip: lines 412-9,873 of 10,240 omitted from this bash output (9,462 lines,
  393,240 chars, ~98,310 tokens). To see them, run the command again piped through
  sed -n '412,9873p' (or head, tail, grep), or narrow it.]

Line numbers in a marker are 1-based and exact, as are the line and character counts; the
token figure is characters / 4, rounded up. The hint depends on the tool kind (--tool):
shell commands get a sed range, file reads an offset and limit, searches a narrower search.
Output that fits the budget is printed unchanged.

With --digest openai:MODEL or anthropic:MODEL, a fast model writes what the omitted part
holds into the marker. The SDK is configured from its usual environment variables
(OPENAI_API_KEY and OPENAI_BASE_URL, or ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL), so any
OpenAI-compatible server works. If the model fails, the plain marker is printed.
"""


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of characters, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip",
        description="Compress a tool output to a character budget, keeping what its shape says matters.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", default="-", help="file to read; - or nothing reads standard input")
    parser.add_argument("--tool", default=None, help="the tool that produced the output (e.g. bash, grep, read_file)")
    parser.add_argument(
        "--budget", type=_positive_int, default=DEFAULT_BUDGET, help=f"characters at most (default {DEFAULT_BUDGET})"
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
        default=DEFAULT_TIMEOUT,
        help=f"give up on the digest after this long and print the plain marker (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument("--version", action="version", version=f"shapeclip {__version__} ({backend()} backend)")
    return parser


def _seconds(value: str) -> float:
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


def _digest(parser: argparse.ArgumentParser, spec: tuple[str, str] | None, timeout: float) -> DigestFn | None:
    if spec is None:
        return None
    sdk, model = spec
    try:
        module = importlib.import_module(sdk)
    except ImportError:
        parser.error(f"--digest {sdk}:... needs the {sdk} SDK: pip install 'shapeclip[{sdk}]'")
    try:
        # Without retries and with the digest's own limit on each request, the SDK gives up
        # when shapeclip does, instead of asking again for an answer nobody waits for.
        if sdk == "openai":
            return openai_chat(module.OpenAI(max_retries=0), model, timeout=timeout)
        return anthropic_messages(module.Anthropic(max_retries=0), model, timeout=timeout)
    except Exception as exc:  # the SDK says what is missing, e.g. an API key
        parser.error(f"cannot set up the {sdk} client: {exc}")


def _stream(source: IO[bytes], compressor: Compressor) -> None:
    while chunk := source.read(CHUNK_BYTES):
        compressor.feed(chunk)


def _run(command: list[str], compressor: Compressor) -> int:
    """Streams `command`'s merged output into `compressor`; its exit status as a shell reports
    it: 128 + N if signal N ended it, 127 if it was not found, 126 if it could not be run."""
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    except OSError as exc:
        compressor.feed(f"shapeclip: cannot run {command[0]}: {exc.strerror}\n")
        return 127 if isinstance(exc, FileNotFoundError) else 126
    assert process.stdout is not None
    with process.stdout:
        _stream(process.stdout, compressor)
    status = process.wait()
    # Popen reports a death by signal N as -N, which sys.exit would make 256 - N.
    return 128 - status if status < 0 else status


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Everything after the first `--` is a command to run, not options of ours.
    split = argv.index("--") if "--" in argv else len(argv)
    own, command = argv[:split], argv[split + 1 :]
    parser = _parser()
    args = parser.parse_args(own)
    if "--" in argv and not command:
        parser.error("-- must be followed by a command to run")
    if command and args.file != "-":
        parser.error("give a FILE or a command after --, not both")
    # A wrapped command's output is shell output unless --tool says otherwise.
    tool = args.tool if args.tool is not None or not command else "command"
    digest = _digest(parser, args.digest, args.digest_timeout)
    compressor = Compressor(tool, args.budget, digest=digest, digest_timeout=args.digest_timeout)
    status = 0
    if command:
        status = _run(command, compressor)
    elif args.file == "-":
        _stream(sys.stdin.buffer, compressor)
    else:
        try:
            with open(args.file, "rb") as source:
                _stream(source, compressor)
        except OSError as exc:
            parser.error(f"cannot read {args.file}: {exc.strerror}")
    sys.stdout.buffer.write(compressor.finish().encode("utf-8"))
    sys.stdout.buffer.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
