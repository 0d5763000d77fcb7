"""A shell command that prints a file is planned as a file read (`shapeclip.printed`), through
every path that knows the command: `compress(..., command=)`, the `Compressor`, the message
helpers (a call's `command` argument, a string or Codex's argv) and `shapeclip -- CMD`. The
same text from any other command, or with none, is planned as a shell's output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from hook_events import SOURCE, counts_errors, read_plan
from shapeclip.printed import prints_file

native = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

PRINTS = [
    "cat steps.py",
    "cat -n src/lib.rs",
    "cd /testbed && cat astropy/io/fits/header.py",
    "cd repo; cat setup.cfg",
    "sed -n '1,200p' src/main.rs",
    "sed -n '337,$p' sympy/physics/hep/gamma_matrices.py",
    "sed -n -e '10,20p' a.c",
    "sed -n '10,20p;40,60p' a.c",
    "sed -n '/def parse_expr/,/^def/p' sympy/parsing/sympy_parser.py",
    "nl -ba xarray/core/computation.py | sed -n '229,245p'",
    "cat a.py | head -n 100",
    "head -n 80 README.md",
    "tail -n +50 src/app.ts",
    "cat a.py 2>/dev/null",
    "cat a.py 2>&1",
    "bash -lc \"sed -n '1,120p' codex-rs/core/src/lib.rs\"",
    "git show HEAD:src/lib.rs",
    "less docs/index.md",
    "LC_ALL=C cat src/lib.rs",
    "sudo -u app cat /etc/app/settings.py",
    "timeout 10 sed -n '1,80p' a.py",
    "timeout -s KILL 5s cat a.py",
    "env -i PATH=/bin nice -n 5 nohup time cat a.py",
    "cd /repo && PAGER= git show HEAD:setup.py",
]
DOES_NOT = [
    "cat",  # standard input
    "cat -",
    "cat > notes.txt",
    "cat a.py > b.py",
    "cat a.py &",
    "cat a.py | grep def",
    "cat a.py | sort",
    "grep -n def a.py",
    "sed 's/a/b/' a.py",
    "sed -n '/TODO/p' a.py",  # a search, not a part of the file
    "sed -i '1,2p' a.py",
    "tail -f server.py",
    "cat build.log",  # a log, whatever printed it
    "tail -n 200 logs/test.txt",
    "cat a.py && rm a.py",
    "cd a && cd b && cat c.py",
    "cat $(ls)",
    "cat `ls`",
    "cat <<EOF\nx\nEOF",
    "cat 'unterminated",
    "git show HEAD",
    "python steps.py",
    "make",
    "",
    "LC_ALL=C",
    "LC_ALL=C make",
    "sudo",
    "timeout 10",
    "sudo -u app make",
    "timeout 10 cat",
]


@pytest.mark.parametrize("command", PRINTS)
def test_commands_that_print_a_file(command: str) -> None:
    assert prints_file(command)


@pytest.mark.parametrize("command", DOES_NOT)
def test_commands_that_do_not(command: str) -> None:
    assert not prints_file(command)


@given(st.text(max_size=200))
def test_any_text_is_answered_without_an_error(command: str) -> None:
    assert prints_file(command) in (True, False)


@native
def test_a_printed_file_is_read_and_the_same_text_from_a_shell_is_a_log() -> None:
    printed = shapeclip.compress_detailed(SOURCE, "bash", 3000, command="cat steps.py")
    assert printed.shape == "read" and len(printed.text) <= 3000
    assert read_plan(printed.text)
    assert "re-run | sed -n '" in printed.text and "read offset" not in printed.text
    for command in (None, "python steps.py", "cat steps.py | grep def"):
        assert shapeclip.compress_detailed(SOURCE, "bash", 3000, command=command).shape == "log"
    # A tool that is no shell plans as it did: the command says nothing about its output.
    for tool in ("read_file", "grep", "mcp__ci__log"):
        as_is = shapeclip.compress_detailed(SOURCE, tool, 3000)
        assert shapeclip.compress_detailed(SOURCE, tool, 3000, command="cat steps.py") == as_is


@native
def test_a_stream_with_the_command_is_the_one_shot() -> None:
    compressor = shapeclip.Compressor("bash", 3000, command="cat steps.py")
    for start in range(0, len(SOURCE), 4096):
        compressor.feed(SOURCE[start : start + 4096])
    assert compressor.finish() == shapeclip.compress(SOURCE, "bash", 3000, command="cat steps.py")


def test_a_command_that_fits_changes_nothing_and_a_wrong_one_is_refused() -> None:
    assert shapeclip.compress("short", "bash", 100, command="cat x.py") == "short"
    with pytest.raises(TypeError, match="command must be a str or None"):
        shapeclip.compress(SOURCE, "bash", 3000, command=["cat", "x.py"])  # type: ignore[arg-type]


def bash_call(arguments: object) -> list[dict[str, object]]:
    """An Anthropic conversation in which a bash call given `arguments` returned SOURCE."""
    call = {"type": "tool_use", "id": "t1", "name": "bash", "input": arguments}
    return [
        {"role": "user", "content": "what do the steps do?"},
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": SOURCE}]},
    ]


@native
@pytest.mark.parametrize(
    "arguments",
    [
        {"command": "cat steps.py"},
        json.dumps({"command": "sed -n '1,2000p' steps.py"}),
        {"command": ["bash", "-lc", "sed -n '1,2000p' steps.py"]},
        {"cmd": "nl -ba steps.py"},
    ],
)
def test_the_message_helpers_read_the_command_from_the_call(arguments: object) -> None:
    done = shapeclip.compress_messages(bash_call(arguments), budget=3000)
    (report,) = done.report.results
    assert report.action == "compressed" and report.shape == "read"
    assert read_plan(done.messages[2]["content"][0]["content"])


@native
@pytest.mark.parametrize("arguments", [{"command": "make"}, {"command": ["make"]}, {}, "not json"])
def test_the_message_helpers_plan_any_other_call_as_a_shell(arguments: object) -> None:
    (report,) = shapeclip.compress_messages(bash_call(arguments), budget=3000).report.results
    assert report.shape == "log"


@native
def test_the_command_line_plans_a_wrapped_printer_as_a_read(tmp_path: Path) -> None:
    (tmp_path / "steps.py").write_text(SOURCE)
    run = [sys.executable, "-m", "shapeclip", "--budget", "3000", "--no-store", "--"]
    printed = subprocess.run([*run, "cat", "steps.py"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert read_plan(printed.stdout) and len(printed.stdout) <= 3000
    ran = subprocess.run([*run, sys.executable, "-c", f"print(open({'steps.py'!r}).read(), end='')"], cwd=tmp_path,
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert not read_plan(ran.stdout) and counts_errors(ran.stdout)
