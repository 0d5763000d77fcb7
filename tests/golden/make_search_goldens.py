"""Makes the search planner's golden files from real search outputs over real code.

`python tests/golden/make_search_goldens.py` runs `grep -rn`, `grep -rn -C2`, `rg --column` and
`rg --heading` over the CPython standard library of this machine (or `--root DIR`), writes each
output to `tests/golden/search/<name>.txt`, and then the expected compressions. The inputs are
committed, so the tests need neither the tools nor the library. `--refresh` only rewrites the
expected files from the committed inputs, after an intended change of the planner's output.

Expected files are `<name>.<budget>.expected`, for budgets 4,000 and 16,000, compressed as the
output of a `bash` tool (the usual way an agent runs a search).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).parent / "search"
BUDGETS = (4000, 16_000)
TOOL = "bash"

#: name (says what the output shows) -> command, run in the library's directory.
CASES = {
    # Many files, one line each or a few: the map must name or roll up all of them.
    "grep_rn_yield_from_stdlib": ["grep", "-rn", "--include=*.py", "yield from", "."],
    # Context lines and `--` separators: counts are of matching lines only.
    "grep_rn_C2_def_enter_stdlib": ["grep", "-rn", "-C2", "--include=*.py", "def __enter__", "."],
    # `path:NN:CC:text` rows, paths without `./`.
    "rg_column_warnings_warn_stdlib": ["rg", "--column", "-n", "--sort", "path", "-g", "*.py", "warnings\\.warn\\("],
    # `--heading`: a path line, bare `NN:text` rows, a blank line between files.
    "rg_heading_raise_valueerror_stdlib": [
        "rg",
        "--heading",
        "-n",
        "--sort",
        "path",
        "-g",
        "!test/**",
        "-g",
        "*.py",
        "raise ValueError\\(f",
    ],
}


def generate(root: Path) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for name, argv in CASES.items():
        if shutil.which(argv[0]) is None:
            sys.exit(f"{argv[0]} is not installed; it is needed only to regenerate the inputs")
        out = subprocess.run(argv, cwd=root, capture_output=True, check=False).stdout
        (HERE / f"{name}.txt").write_bytes(out)
        print(f"{name}: {len(out):,} bytes")


def refresh() -> None:
    import shapeclip

    if shapeclip.backend() != "native":
        sys.exit("the native core is not built; expected files come from it")
    for source in sorted(HERE.glob("*.txt")):
        text = source.read_bytes().decode("utf-8")
        for budget in BUDGETS:
            out = shapeclip.compress(text, TOOL, budget)
            source.with_suffix(f".{budget}.expected").write_text(out, encoding="utf-8", newline="")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refresh", action="store_true", help="only rewrite the expected files")
    parser.add_argument("--root", type=Path, default=Path(sysconfig.get_paths()["stdlib"]))
    args = parser.parse_args()
    if not args.refresh:
        generate(args.root)
    refresh()


if __name__ == "__main__":
    main()
