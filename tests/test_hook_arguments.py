"""A hook's command line as it is installed is read without argparse (`hooks.as_installed`);
what that reading gives must be what argparse gives, and any other command line goes to
argparse, which explains it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shapeclip.defaults import DEFAULT_BUDGET
from shapeclip.hooks import HARNESSES, as_installed
from shapeclip.hooks.arguments import parse

WORDS = [
    *HARNESSES, "--budget", "--budget=900", "--bud", "--print-config", "-h", "claude", "",
    "900", "0", "007", "-5", "1e3", " 12", "١٢", "²", "18446744073709551616",
]  # fmt: skip


@given(st.lists(st.sampled_from(WORDS), max_size=4))
def test_what_is_read_without_argparse_is_what_argparse_reads(argv: list[str]) -> None:
    installed = as_installed(argv)
    if installed is not None:
        args = parse(argv, sorted(HARNESSES))
        assert (args.name, args.budget, args.print_config) == (*installed, False)


@pytest.mark.parametrize("name", sorted(HARNESSES))
def test_the_command_lines_that_init_writes_are_read_without_argparse(name: str) -> None:
    assert as_installed([name]) == (name, DEFAULT_BUDGET)
    assert as_installed([name, "--budget", "4000"]) == (name, 4000)


@pytest.mark.parametrize(
    "argv",
    [[], ["--budget", "4000", "codex"], ["codex", "--budget", "0"], ["codex", "--budget", "-5"],
     ["codex", "--bud", "9"], ["codex", "--print-config"], ["codex", "--budget=9"], ["Codex"],
     ["codex", "--budget", "٣"]],
)  # fmt: skip
def test_every_other_command_line_is_left_to_argparse(argv: list[str]) -> None:
    assert as_installed(argv) is None
