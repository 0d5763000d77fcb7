"""One hash over what `shapeclip.compress` writes, to prove that a refactor changed no output.

Run it on a commit, refactor, rebuild (`maturin develop --release`), run it again: the hashes
must be equal. It needs the native core (it refuses to hash the pure-Python fallback) and
prints one line, `sha256 <hex> over <n> compressions`; `--verbose` adds a hash per input so a
difference can be found.

The inputs: every `.txt` of `/work/shared/corpus` and `/work/shared/corpus-ci` (or the folders
given with `--corpus`), every `.txt` under `tests/golden/`, and generated ones at small sizes
(`gen_logs.build_log`, `grep_flood.grep_flood` and each `adversarial` generator). Each is
compressed at budgets 400, 2,000, 4,000 and 16,000 for the tools `bash`, `grep` and `read_file`;
each result's text, shape and omitted line ranges go into the hash. For a subset (the golden
inputs and the generated ones) the same compressions are also streamed through
`Compressor.feed` in chunks of 1,000 and 65,536 characters (and in bytes of 4,097, which cut
characters), and the streamed text goes into the hash too.

    python benches/output_hash.py [--verbose] [--corpus DIR ...]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

import adversarial
from gen_logs import build_log
from grep_flood import grep_flood
from shapeclip import Compressor, api, compress_detailed

ROOT = Path(__file__).resolve().parent.parent
CORPORA = (Path("/work/shared/corpus"), Path("/work/shared/corpus-ci"))
BUDGETS = (400, 2_000, 4_000, 16_000)
TOOLS = ("bash", "grep", "read_file")
CHUNKS = (1_000, 65_536)
BYTE_CHUNK = 4_097
SMALL = 200_000


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def inputs(corpora: list[Path]) -> Iterator[tuple[str, str, bool]]:
    """`(name, text, streamed)` for every input, in a fixed order."""
    for corpus in corpora:
        for path in sorted(corpus.glob("*.txt")):
            yield f"{corpus.name}/{path.name}", _read(path), False
    for path in sorted((ROOT / "tests" / "golden").rglob("*.txt")):
        yield str(path.relative_to(ROOT)), _read(path), True
    yield "gen_logs", build_log(SMALL), True
    yield "grep_flood", grep_flood(SMALL), True
    for name in sorted(adversarial.INPUTS):
        yield f"adversarial/{name}", adversarial.generate(name, SMALL), True


def _streamed(text: str, tool: str, budget: int) -> Iterator[str]:
    for size in CHUNKS:
        c = Compressor(tool, budget)
        for i in range(0, len(text), size):
            c.feed(text[i : i + size])
        yield c.finish()
    data = text.encode()
    c = Compressor(tool, budget)
    for i in range(0, len(data), BYTE_CHUNK):
        c.feed(data[i : i + BYTE_CHUNK])
    yield c.finish()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print a hash per input")
    parser.add_argument("--corpus", type=Path, nargs="*", help="folders of .txt inputs (default: the shared corpora)")
    args = parser.parse_args()
    if api._core is None:
        sys.exit("the native core is not built: nothing to hash")
    total = hashlib.sha256()
    n = 0
    for name, text, streamed in inputs(args.corpus if args.corpus is not None else list(CORPORA)):
        one = hashlib.sha256()
        for tool in TOOLS:
            for budget in BUDGETS:
                result = compress_detailed(text, tool, budget)
                one.update(f"{tool} {budget} {result.shape} {result.omitted_ranges}\n".encode())
                one.update(result.text.encode("utf-8", errors="surrogatepass"))
                n += 1
                if streamed:
                    for out in _streamed(text, tool, budget):
                        one.update(out.encode("utf-8", errors="surrogatepass"))
                        n += 1
        if args.verbose:
            print(one.hexdigest()[:16], name)
        total.update(name.encode() + b"\0" + one.digest())
    print(f"sha256 {total.hexdigest()} over {n} compressions")


if __name__ == "__main__":
    main()
