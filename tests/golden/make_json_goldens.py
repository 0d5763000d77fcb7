"""Makes the golden files of the JSON planner from real outputs of real programs.

`python tests/golden/make_json_goldens.py` runs each case's command (`cargo metadata` and
`cargo build --message-format=json` of this repository, `pip list --format json` of the running
interpreter's environment, with and without its editable installs, `python -m json.tool` of a
JSON fixture that ships with the `jsonschema` package), writes its output to
`tests/golden/json/<name>.txt`, and then the expected compressions. The inputs are committed,
so the tests need neither the programs nor the packages. `--refresh` only rewrites the expected
files from the committed inputs, after an intended change of the planner's output.

Expected files are `<name>.<budget>.expected`, compressed as the output of `bash`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

from expected import main, write_expected
from make_shape_goldens import BUDGETS, REPO

HERE = Path(__file__).parent / "json"
TOOL = "bash"


def fixture() -> str:
    """The Swagger 2.0 schema test that `jsonschema` ships for its benchmarks."""
    return str(resources.files("jsonschema") / "benchmarks" / "issue232" / "issue.json")


#: name (says what the output shows) -> the command that makes it, run in this repository.
CASES = {
    # One line of 86 kB: the packages of this crate and its dependencies, and the resolve graph.
    "cargo_metadata_repo": lambda: ["cargo", "metadata", "--format-version", "1"],
    # JSON Lines: an artifact per crate, build-script runs, and the closing build-finished line.
    "cargo_build_message_format_json_repo": lambda: ["cargo", "build", "--release", "--message-format=json"],
    # A one-line array of objects, one with a key the others lack (an editable install).
    "pip_list_format_json": lambda: [sys.executable, "-m", "pip", "list", "--format", "json"],
    # The same without it: objects with the same keys, a table when that fits.
    "pip_list_format_json_exclude_editable": lambda: [
        sys.executable,
        "-m",
        "pip",
        "list",
        "--format",
        "json",
        "--exclude-editable",
    ],
    # Pretty-printed, nested: a list of test cases, each a schema and its data.
    "json_tool_jsonschema_fixture": lambda: [sys.executable, "-m", "json.tool", fixture()],
}


def generate(names: list[str]) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    # Cargo and the interpreter are where the caller's PATH finds them; no colour, fixed collation.
    env = {**os.environ, "LC_ALL": "C", "CARGO_TERM_COLOR": "never", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for name, argv in CASES.items():
        if names and name not in names:
            continue
        out = subprocess.run(argv(), cwd=REPO, capture_output=True, check=True, env=env).stdout
        (HERE / f"{name}.txt").write_bytes(out)
        print(f"{name}: {len(out):,} bytes")


def refresh() -> None:
    write_expected(HERE, dict.fromkeys(CASES, TOOL), BUDGETS)


if __name__ == "__main__":
    main(__doc__, CASES, generate, refresh)
