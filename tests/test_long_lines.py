"""A line megabytes long, made of one piece that some reader of a line takes apart piece by
piece (a tab before a git status path, a search tool's `(1 match)`, `tree`'s branches, path
separators, brackets, escapes), is read in bounded stack: a reader that recursed once per piece
overflowed the stack and killed the process (SIGSEGV), where the fuzzing of CI first met it.

Each input is compressed on a thread with a small stack, in a child process, so that an
overflow fails this test instead of killing pytest.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import shapeclip

if shapeclip.backend() != "native":
    pytest.skip("the native core is not built", allow_module_level=True)

PIECES = [
    "\t",
    " (1 match)",
    " (12 matches)",
    "/",
    "│   ",
    "├── ",
    "(",
    "[",
    "{",
    '"',
    ":",
    "a:1:",
    "-",
    "\\",
    "\r",
    "\x1b[31m",
    "error: ",
    "a.c:1:1: note: ",
    "Caused by: ",
    "@@ ",
    "é",
]

CHILD = """
import sys, threading, shapeclip
piece, size = sys.argv[1], int(sys.argv[2])
line = piece * (size // len(piece))
over = []
texts = (line, line + "a.rs", f"x\\n{line}\\n{line}\\ny\\n", "\\n".join([line[:100_000] + "a.rs"] * 20))
def run():
    for text in texts:
        for tool in ("bash", "grep", "read_file"):
            for budget in (400, 2000):
                if len(shapeclip.compress(text, tool, budget)) > budget:
                    over.append((tool, budget))
threading.stack_size(256 * 1024)
thread = threading.Thread(target=run)
thread.start()
thread.join()
print(over)
"""


@pytest.mark.parametrize("piece", PIECES, ids=ascii)
def test_a_line_of_one_piece_repeated_is_read_in_bounded_stack(piece: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, piece, str(2_000_000)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.strip() == "[]"
