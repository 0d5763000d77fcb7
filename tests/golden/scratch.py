"""How the golden scripts run real programs: a small project in a scratch directory, one tool run on it.

Both `make_log_goldens.py` and the cases it imports from its sibling modules write their projects
with `write` and capture the tool with `run`, so every input is what a terminal would have shown.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

SCRATCH = Path("/tmp/shapeclip-golden")


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> bytes:
    """What `cmd` printed, both streams in the order it wrote them; its exit status is expected to fail.

    `env` adds to (or overrides) this process's environment, for settings like `GOPROXY=off`.
    """
    full_env = {**os.environ, **env} if env else None
    done = subprocess.run(cmd, cwd=cwd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    return done.stdout


def write(root: Path, files: dict[str, str]) -> None:
    """Writes each file under `root`, dedented, so a case can indent its sources with its code."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
