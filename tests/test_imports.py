"""What the command line imports, so that its start-up cannot grow back unnoticed.

Under a harness's hook every tool call starts `shapeclip hook`, so its imports are paid on
every call (docs/harnesses.md, "What a call costs"). On output that fits, the hook needs neither the
compressor nor digests; `shapeclip -- command` needs the compressor but not digests (nor
their asyncio), logging, messages or hooks.
Each test runs the real command under `python -X importtime` and reads what it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

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
NEVER_AT_START = {"asyncio", "ssl", "concurrent.futures", "logging", "shapeclip.messages", "shapeclip.ledger", "mcp"}


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
    unwanted |= {"shapeclip.savings", "dataclasses", "pathlib"}
    assert modules & unwanted == set()


def test_a_wrapped_command_imports_the_compressor_and_no_more() -> None:
    modules = imported("--tool", "bash", "--budget", "4000", "--", "seq", "1", "1000")
    assert {"shapeclip.api", "shapeclip._core", "shapeclip.store"} <= modules
    assert modules & (NEVER_AT_START | {"shapeclip.hooks", "shapeclip.digest"}) == set()


def test_the_package_still_offers_every_public_name() -> None:
    names: dict[str, object] = {}
    exec("from shapeclip import *", names)
    assert set(shapeclip.__all__) <= set(names) and set(shapeclip.__all__) <= set(dir(shapeclip))
    assert shapeclip.compress("x\n" * 100, "bash", 50).count("\n") < 100


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
