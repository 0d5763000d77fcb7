"""The `shapeclip` command: compress a file, a pipe or a command's output, as an agent's tool
output would be.

It streams its input through a `Compressor` in fixed-size chunks, so memory stays bounded by
the budget however long the input is, and writes the result (UTF-8) to standard output. After
`--`, it runs a command itself, compresses its standard output and error (merged, as an
agent's shell tool shows them), and exits with the command's exit status.
"""

from __future__ import annotations

import os
import re
import sys

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    import argparse

    from .api import Compressor
    from .cli_input import Interrupts
    from .digest import Digest
    from .result import Compressed
    from .store import Store

# Each command imports what it needs when it runs (`shapeclip hook` needs neither the
# compressor nor digests, `shapeclip -- make` no hooks, messages or ledger): under a harness's
# hook, every shell command starts two of these processes, so start-up is paid twice.


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
    import argparse

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
    from .cli_args import compress_parser
    from .cli_input import Interrupts, run_command

    # Everything after the first `--` is a command to run, not options of ours.
    split = argv.index("--") if "--" in argv else len(argv)
    own, command = argv[:split], argv[split + 1 :]
    parser = compress_parser()
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
    # The command's line names it in the store, and one that prints a file (`shapeclip -- cat
    # big.py`) is planned as a file read.
    line = _command_line(command)
    store = None if args.no_store or reread else _store(line)
    if reread:
        compressor = Compressor._of_file(args.file, tool, args.budget, digest)
    else:
        compressor = Compressor(tool, args.budget, digest=digest, store=store, command=line)
    with Interrupts() as interrupts:
        if command:
            status, binary = run_command(command, compressor, interrupts)
        else:
            binary = _read_input(parser, "-" if args.file is None else args.file, compressor, interrupts)
            # Stopped by a signal, shapeclip says so as a shell would of a command.
            status = 0 if interrupts.received is None else 128 + interrupts.received
        result = _finished(compressor, digest)
    _print(_as_text(result.text, binary))
    if result.shape != "passthrough":
        from . import savings

        stored = None if result.stored is None else result.stored.id
        savings.compressed(tool, "cli", result.input_chars, len(result.text), entry=stored)
    return status


def _command_line(command: list[str]) -> str | None:
    import shlex

    return shlex.join(command) if command else None


def _store(command: str | None) -> Store:
    from .store import Store

    return Store(command=command)


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


def _as_text(text: str, binary: bool) -> str:
    """`text`, unless the input was binary (a NUL in its first bytes) or the text holds a NUL,
    which text output never does: then each control character in it is shown as U+FFFD, one
    character for one, so the budget holds and nothing is written that a terminal or a JSON
    transport would choke on."""
    return _BINARY_CONTROLS.sub("\ufffd", text) if binary or "\0" in text else text


def _print(text: str) -> None:
    """Writes `text` to standard output, where there is one: a closed one (`>&-`) or a reader
    that went away must not cost the command's exit status, which is still returned."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
    except (AttributeError, OSError) as exc:  # no stdout at all, or EBADF, EPIPE
        why = getattr(exc, "strerror", None) or "there is no standard output"
        if sys.stderr is not None:
            sys.stderr.write(f"shapeclip: cannot write the output: {why}\n")
        # Python flushes stdout again at exit; a broken one would print a second error there.
        sys.stdout = None


def _read_input(parser: argparse.ArgumentParser, file: str, compressor: Compressor, interrupts: Interrupts) -> bool:
    """Feeds `compressor` the file (- for standard input); whether it is binary."""
    from .cli_input import read_to_end

    if file == "-":
        return read_to_end(sys.stdin.fileno(), compressor, interrupts)
    try:
        with open(file, "rb") as source:
            return read_to_end(source.fileno(), compressor, interrupts)
    except OSError as exc:
        parser.error(f"cannot read {file}: {exc.strerror}")


if __name__ == "__main__":
    sys.exit(main())
