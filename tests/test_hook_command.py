"""Which shell commands a pre-tool hook runs through shapeclip, and that the rewrite keeps the
command exactly, whatever its quotes and characters."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shapeclip.hooks.command import why_not_wrapped, wrapped

WRAPPED = [
    "make test",
    "pytest -x -q tests/",
    "git log --oneline | head -50",
    "make 2>&1 | tee build.log",
    "npm test && npm run lint || echo failed",
    "FOO=1 BAR=2 make",
    "echo $HOME; ls -la",
    "python -c 'import sys; print(sys.version)'",
    "python3.11 script.py --flag",
    "ssh -p 2222 build-host make",
    "for f in *.py; do wc -l $f; done",
    "if test -f x; then cat x; fi",
    "echo 'cd is only a word here' \"and export too\"",
    "cargo test |& tail",
    "grep -rn TODO . > todo.txt; cat todo.txt",
    "echo café 日本語 🎉",
]

LEFT_ALONE = {
    "cd src": "changes the shell's state (cd)",
    "cd build && make": "changes the shell's state (cd)",
    "make\ncd out": "changes the shell's state (cd)",
    "export PATH=$PATH:/opt/bin": "changes the shell's state (export)",
    "source .venv/bin/activate": "changes the shell's state (source)",
    ". ./env.sh && run": "changes the shell's state (.)",
    "alias ll='ls -l'": "changes the shell's state (alias)",
    "unset FOO": "changes the shell's state (unset)",
    "set -e": "changes the shell's state (set)",
    "pushd /tmp": "changes the shell's state (pushd)",
    "exec zsh": "changes the shell's state (exec)",
    "conda activate py311": "changes the shell's state (conda activate)",
    "FOO=1": "sets a shell variable",
    "cat <<'EOF' > notes.txt\nhello\nEOF": "holds a heredoc",
    "npm run dev &": "puts a job in the background",
    "sleep 10 & wait": "puts a job in the background",
    "vim README.md": "is interactive (vim)",
    "git log | less": "is interactive (less)",
    "python": "is interactive (python)",
    "python3 -i": "is interactive (python3)",
    "node": "is interactive (node)",
    "psql": "is interactive (psql)",
    "ssh build-host": "is interactive (ssh)",
    "top": "is interactive (top)",
    "shapeclip show 3f9a2c1b7d04 --lines 412:9873": "already goes through shapeclip",
    "/usr/bin/shapeclip --budget 4000 -- make": "already goes through shapeclip",
    "make | shapeclip --tool bash": "already goes through shapeclip",
    "python -m shapeclip store --stats": "already goes through shapeclip",
    "echo $(cd /tmp && pwd)": "runs commands inside $(...) or backquotes",
    "echo `date`": "runs commands inside $(...) or backquotes",
    "echo 'unbalanced": "cannot be split into words (No closing quotation)",
    "   ": "is empty",
}


@pytest.mark.parametrize("command", WRAPPED)
def test_ordinary_commands_are_wrapped(command: str) -> None:
    assert why_not_wrapped(command) is None


@pytest.mark.parametrize(("command", "reason"), LEFT_ALONE.items())
def test_commands_that_must_run_in_the_harness_shell_are_left_alone(command: str, reason: str) -> None:
    assert why_not_wrapped(command) == reason


def test_the_rewrite_runs_shapeclip_then_bash_with_the_command_as_one_argument() -> None:
    argv = ["/opt/venv/bin/shapeclip"]
    words = shlex.split(wrapped("echo 'a b' && ls", 4000, argv))
    assert words == [
        "/opt/venv/bin/shapeclip",
        "--tool",
        "bash",
        "--budget",
        "4000",
        "--",
        "bash",
        "-c",
        "echo 'a b' && ls",
    ]


@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]), max_size=200))
def test_any_command_survives_the_quoting_exactly(command: str) -> None:
    # The command is one word of the rewrite, byte for byte, whatever quotes, newlines or
    # unicode it holds, so bash runs exactly what the agent asked for.
    assert shlex.split(wrapped(command, 16_000, ["shapeclip"]))[-1] == command
