"""Running `shapeclip hook NAME` as a harness does, and the commands it writes as its shell does.

Both go through real processes: the hook reads its event on standard input and answers on
standard output, and a rewritten command is run by `bash -c`, the way the harnesses' shell
tools run a command string.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

BUILD_LOG = "".join(f"[{i:05}] compiling module_{i}.c\n" for i in range(6_000)) + "error: linker failed\n"

#: A source file that names an error on every few lines, in its code and in its docstrings
#: (which read as a log's errors do): the shell's output of a command that printed it is
#: planned as a read, any other's as a log.
SOURCE = '"""Steps of a pipeline."""\n\nimport os\n\n' + "".join(
    f'def step_{i:03}(value):\n    """Adds {i}.\n\n    ValueError: if the value is negative.\n    """\n'
    f"    if value < 0:\n        raise ValueError('step {i} takes no negatives')\n    return value + {i}\n\n"
    for i in range(300)
)


def read_plan(text: str) -> bool:
    """Whether `text` is SOURCE as a read plan shows it: definitions from the part it cannot
    show, each between gap markers, and no error counted as a log counts it."""
    defined = re.search(r"^def step_\d+\(value\):\n\[lines \d+-\d+ omitted\]$", text, re.M)
    return bool(defined) and not counts_errors(text)


def counts_errors(text: str) -> bool:
    """Whether `text` counts error lines as a log plan does, in a gap's marker or a note."""
    return bool(re.search(r"omitted: [\d,]+ error lines?|of this kind", text))


def hook(name: str, event: object, *args: str, raw: bytes | None = None) -> tuple[dict[str, Any], str]:
    """The answer of `shapeclip hook NAME` to `event` (or to `raw` bytes), and its stderr; the
    hook must exit 0 and print one JSON object whatever it was given."""
    stdin = json.dumps(event).encode() if raw is None else raw
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "hook", name, *args], input=stdin, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()
    reply = json.loads(done.stdout)
    assert isinstance(reply, dict)
    return reply, done.stderr.decode()


def run_shell(command: str, cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    """`command` run by bash as a harness's shell tool runs it, output and errors merged."""
    return subprocess.run(
        ["bash", "-c", command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        cwd=cwd,
        env=os.environ,
    )


def printed_config(name: str) -> dict[str, Any]:
    """`shapeclip hook --print-config NAME` as JSON, run as `python -m shapeclip`."""
    done = subprocess.run([sys.executable, "-m", "shapeclip", "hook", "--print-config", name], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    config = json.loads(done.stdout)
    assert isinstance(config, dict)
    return config


def documented_config(name: str) -> dict[str, Any]:
    """The settings block docs/harnesses.md gives for NAME, with `shapeclip` where the printed
    config names the running interpreter's shapeclip."""
    page = (Path(__file__).parent.parent / "docs" / "harnesses.md").read_text(encoding="utf-8")
    (block,) = re.findall(rf"`shapeclip hook --print-config {name}`.*?```json\n(.*?)```", page, re.DOTALL)
    here = shlex.join([sys.executable, "-m", "shapeclip"])
    config = json.loads(block.replace('"shapeclip hook', f'"{here} hook'))
    assert isinstance(config, dict)
    return config
