"""A shell command that searches is planned as a search's output (`shapeclip.printed.searches`,
kind `shell_search`): a `grep -r` without line numbers keeps its definitions first, as the same
output of a search tool does, and its markers still say to run the command again. Any other
command, or none, plans the same text as a shell's output."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from shapeclip.printed import prints_file, searches
from shapeclip.profiles import SHELL, SHELL_READ, SHELL_SEARCH, profile_for

native = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

SEARCHES = [
    "grep -r either_dict_or_kwargs xarray/core/",
    "grep -rn 'def parse' src | head -n 20",
    "grep -A 20 'def write' astropy/io/ascii/core.py",
    "egrep -l 'x|y' a.c b.c",
    "rg NAME",
    "cd /testbed && rg -n --heading 'yield ' -g '*.py'",
    "git grep -n TODO",
    "nl -ba sympy/core/symbol.py | grep -A 20 'def __new__'",
    "cat a.py | grep def",
    "grep -r x . | grep -v tests | head -5",
    "bash -lc 'grep -rn x src'",
    "timeout 10 ag --python NAME",
    "LC_ALL=C grep -rc 'def ' asyncio 2>/dev/null",
]
DOES_NOT = [
    "make | grep error",
    "python steps.py | grep FAIL",
    "ls | grep py",
    "find . -name '*.py' | xargs grep x",
    "grep -r x . > hits.txt",
    "grep -r x . && rm -rf build",
    "grep -r x . | sort",
    "git log | grep fix",
    "git show HEAD",
    "cat a.py",
    "grep $(cat names) a.py",
    "",
    "sudo",
]


@pytest.mark.parametrize("command", SEARCHES)
def test_commands_that_search(command: str) -> None:
    assert searches(command) and not prints_file(command)
    assert profile_for("bash", command) == SHELL_SEARCH


@pytest.mark.parametrize("command", DOES_NOT)
def test_commands_that_do_not(command: str) -> None:
    assert not searches(command)
    assert profile_for("bash", command) in (SHELL, SHELL_READ)


@given(st.text(max_size=200))
def test_any_text_is_answered_without_an_error(command: str) -> None:
    assert searches(command) in (True, False)


def test_only_a_shell_reads_its_command() -> None:
    assert profile_for("grep", "grep -r x .").kind == "search"
    assert profile_for("read_file", "grep -r x .").kind == "file_read"


#: `grep -r NAME dir` without `-n`: rows with no line numbers, the definition in the middle.
FOUND = "".join(
    f"pkg/mod{i:02}/use_{i:02}.py:    value = either_dict_or_kwargs(items, key={i})\n"
    + ("pkg/core/utils.py:def either_dict_or_kwargs(items, key=None):\n" if i == 30 else "")
    for i in range(60)
)
DEFINITION = "pkg/core/utils.py:def either_dict_or_kwargs(items, key=None):"


@native
def test_a_shells_search_keeps_its_definition_and_says_to_run_it_again() -> None:
    command = "grep -r either_dict_or_kwargs pkg/"
    searched = shapeclip.compress_detailed(FOUND, "bash", 1500, command=command)
    assert searched.shape == "matches" and len(searched.text) <= 1500
    assert f"\n{DEFINITION}\n" in searched.text
    assert "re-run | sed -n '" in searched.text
    # A search tool keeps the same lines; its markers say to search narrower.
    by_tool = shapeclip.compress_detailed(FOUND, "grep", 1500)
    assert by_tool.shape == "matches" and by_tool.omitted_ranges == searched.omitted_ranges
    # Without the command, the shell's clip keeps the end of the output, not the definition.
    for other in (None, "python find_uses.py"):
        plain = shapeclip.compress_detailed(FOUND, "bash", 1500, command=other)
        assert plain.shape == "clip" and DEFINITION not in plain.text


@native
def test_a_stream_with_the_command_is_the_one_shot() -> None:
    command = "grep -r either_dict_or_kwargs pkg/"
    compressor = shapeclip.Compressor("bash", 1500, command=command)
    for start in range(0, len(FOUND), 333):
        compressor.feed(FOUND[start : start + 333])
    assert compressor.finish() == shapeclip.compress(FOUND, "bash", 1500, command=command)
