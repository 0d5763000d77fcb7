"""How the golden scripts of the gapped shapes write what they expect, and their command line.

`make_shape_goldens.py` and `make_table_goldens.py` each record real outputs as
`<name>.txt` and compress them at every budget they exceed into `<name>.<budget>.expected`;
`--refresh` skips the recording and only rewrites the expected files; names given record only
those cases.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection
from pathlib import Path


def write_expected(here: Path, tools: dict[str, str], budgets: tuple[int, ...]) -> None:
    """Compresses each case's committed input, `here/<name>.txt`, as the output of its tool
    (`tools[name]`) at every budget it exceeds; the native core writes the expected files."""
    import shapeclip

    if shapeclip.backend() != "native":
        sys.exit("the native core is not built; expected files come from it")
    for name, tool in tools.items():
        text = (here / f"{name}.txt").read_bytes().decode("utf-8")
        for budget in budgets:
            if len(text) > budget:
                out = shapeclip.compress(text, tool, budget)
                (here / f"{name}.{budget}.expected").write_text(out, encoding="utf-8", newline="")


def main(
    doc: str, cases: Collection[str], generate: Callable[[list[str]], None], refresh: Callable[[], None]
) -> None:
    """A golden script's command line: record the outputs of the cases named (all when none is),
    unless `--refresh`, then rewrite every expected file."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--refresh", action="store_true", help="only rewrite the expected files")
    parser.add_argument("names", nargs="*", help="run only these cases' commands (default: all)")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(cases))
    if unknown:
        parser.error(f"no such case: {', '.join(unknown)}")
    if not args.refresh:
        generate(args.names)
    refresh()
