"""The search planner from Python: diagnostics are declined (the log planner or the clip reads
them), and generated search outputs keep an exact, complete map of files."""

from __future__ import annotations

import pytest

import shapeclip


def _mypy_output(errors: int) -> str:
    rows = [
        f"pkg/mod{i % 9}.py:{i}: error: Function is missing a type annotation  [no-untyped-def]\n"
        if i % 4
        else f'pkg/mod{i % 9}.py:{i}: note: Use "-> None" if function does not return a value\n'
        for i in range(1, errors + 1)
    ]
    return "".join(rows) + f"Found {errors} errors in 9 files (checked 12 source files)\n"


@pytest.mark.parametrize("tool", ["bash", "grep", None])
def test_compiler_diagnostics_are_not_taken_as_search_results(tool: str | None) -> None:
    if shapeclip.backend() != "native":
        pytest.skip("the native core is not built")
    result = shapeclip.compress_detailed(_mypy_output(2000), tool, 4000)
    assert result.shape != "search"
    assert len(result.text) <= 4000
    # The tool's own summary is the last line, and every non-search reader keeps the tail.
    assert "Found 2000 errors in 9 files (checked 12 source files)" in result.text
