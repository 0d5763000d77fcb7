"""What the command line imports, so that its start-up cannot grow back unnoticed.

Under a harness's hook every tool call starts `shapeclip hook`, so its imports are paid on
every call (docs/harnesses.md, "What a call costs"). On output that fits, the hook needs neither the
compressor nor digests; `shapeclip -- command` needs the compressor but not digests (nor
their asyncio), logging, messages or hooks.
Each test runs the real command under `python -X importtime` and reads what it imported.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import shapeclip

EVENT = {
    "session_id": "s",
    "cwd": "/",
    "permission_mode": "default",
    "hook_event_name": "PostToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "npm test 2>&1 | tail -40", "description": "Run tests"},
    "tool_response": {"stdout": "ok\n", "stderr": "", "interrupted": False, "isImage": False},
}
# The pure-Python clip is for when the core cannot plan.
NEVER_AT_START = {
    "asyncio", "ssl", "concurrent.futures", "logging", "shapeclip.messages", "shapeclip.ledger", "mcp",
    "shapeclip.fallback",
}  # fmt: skip


def imported(*args: str, stdin: bytes = b"") -> set[str]:
    """The modules `python -m shapeclip ARGS` imported, as `-X importtime` lists them."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "shapeclip", *args], input=stdin, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()
    lines = done.stderr.decode().splitlines()
    return {line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:") and "|" in line}


def test_a_hook_on_output_that_fits_imports_neither_the_compressor_nor_asyncio() -> None:
    modules = imported("hook", "claude-code", stdin=json.dumps(EVENT).encode())
    assert "shapeclip.hooks.claude_code" in modules  # it did answer the event
    unwanted = NEVER_AT_START | {"shapeclip.api", "shapeclip._core", "shapeclip.store", "shapeclip.digest"}
    # typing takes 2 ms: the modules of this path ask for it only when type-checked.
    unwanted |= {"shapeclip.savings", "dataclasses", "pathlib", "typing", "argparse"}
    assert modules & unwanted == set()


def test_a_hook_that_cuts_an_output_reads_its_command_line_without_argparse() -> None:
    # argparse, with the gettext, locale and shutil it loads, was about 6 ms of every call;
    # typing 2 ms. shlex (0.2 ms) reads the command's words, which say whether it printed a file.
    event = {**EVENT, "tool_response": {**EVENT["tool_response"], "stdout": "x\n" * 50_000}}
    modules = imported("hook", "claude-code", "--budget", "3000", stdin=json.dumps(event).encode())
    assert {"shapeclip.api", "shapeclip.store.writer"} <= modules  # it did cut and store
    assert modules & {"argparse", "gettext", "shutil", "typing"} == set()


def test_a_wrapped_command_imports_the_compressor_and_no_more() -> None:
    modules = imported("--tool", "bash", "--budget", "4000", "--", "seq", "1", "1000")
    assert {"shapeclip.api", "shapeclip._core", "shapeclip.store"} <= modules
    assert modules & (NEVER_AT_START | {"shapeclip.hooks", "shapeclip.digest"}) == set()


def test_reading_a_file_imports_neither_the_store_nor_subprocess(tmp_path: Path) -> None:
    # A file's markers point into the file itself: nothing is stored, and no command is run.
    (tmp_path / "log.txt").write_text("x\n" * 10_000)
    modules = imported("--budget", "400", str(tmp_path / "log.txt"))
    assert {"shapeclip.api", "shapeclip._core"} <= modules
    unwanted = NEVER_AT_START | {"shapeclip.store.store", "shapeclip.store.writer", "hashlib", "pathlib", "subprocess"}
    assert modules & unwanted == set()


def test_the_package_still_offers_every_public_name() -> None:
    names: dict[str, object] = {}
    exec("from shapeclip import *", names)
    assert set(shapeclip.__all__) <= set(names) and set(shapeclip.__all__) <= set(dir(shapeclip))
    assert shapeclip.compress("x\n" * 100, "bash", 50).count("\n") < 100


def test_the_type_checker_sees_the_public_names_where_they_are_found() -> None:
    # The package's table of names is the one list; a type checker cannot run it, so the
    # `if TYPE_CHECKING:` imports repeat it, each as `X as X` (exported), and must agree.
    tree = ast.parse(Path(shapeclip.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    typed = {}
    for node in ast.walk(block):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                assert alias.asname == alias.name, f"{alias.name} is not marked as exported"
                typed[alias.name] = f"{'.' * node.level}{node.module}"
    homes = {name: home for home, names in shapeclip._EXPORTS.items() for name in names}
    assert typed.keys() == homes.keys()
    for name, home in homes.items():
        # A name may be imported from the submodule that defines it (see `microcompact`).
        assert typed[name] == home or typed[name].startswith(f"{home}."), name
        assert getattr(shapeclip, name) is getattr(importlib.import_module(typed[name], "shapeclip"), name), name
    assert set(shapeclip.__all__) == {*homes, "__version__"}


def test_the_digest_machinery_loads_only_when_a_digest_is_named() -> None:
    script = (
        "import sys, shapeclip, shapeclip.cli\n"
        "shapeclip.compress('x\\n' * 100000, 'bash', 4000)\n"
        "assert shapeclip.compress_detailed('x\\n' * 100000, 'bash', 4000).digest_request is None\n"
        "print('shapeclip.digest' in sys.modules, 'asyncio' in sys.modules)\n"
        "assert shapeclip.digest.apply and shapeclip.Digest is shapeclip.digest.Digest\n"
        "print('shapeclip.digest' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "True"]
