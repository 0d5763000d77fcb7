"""Real outputs at scale (issue 30): each log of the shared corpora, repeated to 10 MB and 100 MB,
through `shapeclip.compress` in-process, planned as the tool that printed it.

The inputs: every case of `/work/shared/corpus` (14 real outputs of bash, grep and read_file),
the largest log of each of the three projects with the largest logs in `/work/shared/corpus-ci`
(Travis CI logs), and the largest case of each shape in `/work/shared/corpus-agents` (agents'
observations: grep, read, test/build, listing, git, other). Each is timed as `str` and as
`bytes`, under its own tool; and each input that holds non-ASCII text, plus the corpus-ci log
densest in it, is timed as `str` through the clip too (tool `web_fetch`, which no log or read
planner serves), since a `str` outside ASCII is the costly way in.

Each line gives the MB/s (of UTF-8 bytes, best of 3) at 10 and 100 MB and the ratio of their
times (10.0 is linear). The issue's targets on two cores: 500 MB/s for a plan, 2 GB/s for the
clip (a case is held to the target of what served it: `web_fetch`'s `rg --heading` is a
search plan, and an agent's grep too short to plan is a clip), and linear, which is asserted
as a byte of 100 MB costing at most 1.5 times a byte of 10 MB (one run on this shared machine
varies by a quarter from the next). A corpus that is not on this machine is skipped, saying
so.

    python -m pytest benches/test_bench_real.py -s -p no:cacheprovider

`SHAPECLIP_REAL=mypy,Scala` times only the cases whose names contain one of those words.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import shapeclip

SHARED = Path("/work/shared")
SIZES = {"10MB": 10_000_000, "100MB": 100_000_000}
BUDGET = 16_000
ROUNDS = 3
PLAN_TARGET_MB_PER_S = 500
CLIP_TARGET_MB_PER_S = 2_000
CLIP_TOOL = "web_fetch"
#: Copied before each timed call: twice the machine's 32 MiB L3 cache (see test_bench_worst_case).
EVICT = bytearray(64 << 20)
CI_PROJECTS = 3
PICKED = [word for word in os.environ.get("SHAPECLIP_REAL", "").split(",") if word]


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    tool: str

    def text(self) -> str:
        text = self.path.read_bytes().decode("utf-8", errors="replace")
        return text if text.endswith("\n") else text + "\n"


def _tool(path: Path) -> str:
    return str(json.loads(path.with_suffix(".json").read_text())["tool"])


def corpus_cases() -> list[Case]:
    return [Case(f"corpus/{p.stem}", p, _tool(p)) for p in sorted((SHARED / "corpus").glob("*.txt"))]


def ci_cases() -> list[Case]:
    """The largest log of each of the projects whose largest logs are largest."""
    largest: dict[str, Path] = {}
    for path in sorted((SHARED / "corpus-ci").glob("*.txt")):
        project = path.stem.rsplit("_", 1)[0]
        if project not in largest or path.stat().st_size > largest[project].stat().st_size:
            largest[project] = path
    top = sorted(largest.values(), key=lambda p: -p.stat().st_size)[:CI_PROJECTS]
    return [Case(f"ci/{p.stem}", p, _tool(p)) for p in top]


def agents_cases() -> list[Case]:
    """The largest case of each shape, leaving out those an agent had already cut short."""
    largest: dict[str, tuple[int, Path, str]] = {}
    for meta_path in sorted((SHARED / "corpus-agents" / "cases").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        path = meta_path.with_suffix(".txt")
        if meta.get("pretruncated") or not path.exists():
            continue
        size = path.stat().st_size
        if meta["shape"] not in largest or size > largest[meta["shape"]][0]:
            largest[meta["shape"]] = (size, path, meta["tool"])
    return [Case(f"agents/{shape}", path, tool) for shape, (_, path, tool) in sorted(largest.items())]


_HIGH_BYTES = bytes(range(128, 256))


def densest_non_ascii_ci_case() -> list[Case]:
    def share_non_ascii(path: Path) -> float:
        data = path.read_bytes()
        return 1 - len(data.translate(None, _HIGH_BYTES)) / max(len(data), 1)

    paths = sorted((SHARED / "corpus-ci").glob("*.txt"))
    return [Case(f"ci/{p.stem}", p, _tool(p)) for p in sorted(paths, key=share_non_ascii)[-1:]]


def _params(cases_by_folder: dict[str, list[Case]]) -> list[object]:
    """One parameter per case; a folder with none is one parameter that is skipped, saying why."""
    params: list[object] = []
    for folder, cases in cases_by_folder.items():
        if not cases:
            reason = f"no logs in {SHARED / folder} (not on this machine?): its real outputs are not timed"
            params.append(pytest.param(None, id=folder, marks=pytest.mark.skip(reason=reason)))
        params.extend(
            pytest.param(case, id=case.name)
            for case in cases
            if not PICKED or any(word in case.name for word in PICKED)
        )
    return params


PLANNED = {"corpus": corpus_cases(), "corpus-ci": ci_cases(), "corpus-agents": agents_cases()}
_NON_ASCII = [case for cases in PLANNED.values() for case in cases if not case.text().isascii()]
# Keyed by the folder whose absence leaves it empty: the other non-ASCII cases come from all three.
CLIPPED = {"corpus-ci": _NON_ASCII + [c for c in densest_non_ascii_ci_case() if c not in _NON_ASCII]}


def repeated(text: str, size: int) -> str:
    """`text` repeated, whole, until it is at least `size` bytes of UTF-8."""
    return text * -(-size // len(text.encode()))


def fresh(text: str) -> str:
    """A copy of `text`, as a new object."""
    return text[:-1] + text[-1:]


def time_sizes(text: str, as_bytes: bool, tool: str) -> tuple[dict[str, float], str]:
    """MB/s at each size, best of `ROUNDS` (rounds take turns over the sizes, so that a burst of
    other work does not fall on one size only), and the shape the plan took."""
    inputs = {size: repeated(text, n) for size, n in SIZES.items()}
    data: dict[str, str | bytes] = {size: t.encode() if as_bytes else t for size, t in inputs.items()}
    n_bytes = {size: len(t.encode()) for size, t in inputs.items()}
    seconds = dict.fromkeys(SIZES, float("inf"))
    for _ in range(ROUNDS):
        for size, given in data.items():
            # A new `str` each time: one that has been through the core keeps its UTF-8 form
            # cached, which a caller's fresh tool output never has.
            given = given if as_bytes else fresh(inputs[size])
            bytes(EVICT)
            started = time.perf_counter()
            out = shapeclip.compress(given, tool, BUDGET)
            seconds[size] = min(seconds[size], time.perf_counter() - started)
            assert len(out) <= BUDGET
    shape = shapeclip.compress_detailed(data["10MB"], tool, BUDGET).shape
    return {size: n_bytes[size] / seconds[size] / 1e6 for size in SIZES}, shape


def check(label: str, mb_per_s: dict[str, float], shape: str) -> None:
    """Fails a case below its target, which is the clip's wherever the clip served it (under any
    tool) and a plan's wherever a planner did, or not linear."""
    target = CLIP_TARGET_MB_PER_S if shape == "clip" else PLAN_TARGET_MB_PER_S
    time_ratio = (SIZES["100MB"] / mb_per_s["100MB"]) / (SIZES["10MB"] / mb_per_s["10MB"])
    growth = mb_per_s["10MB"] / mb_per_s["100MB"]
    print(
        f"\n{label} -> {shape}: 10 MB {mb_per_s['10MB']:,.0f} MB/s, 100 MB {mb_per_s['100MB']:,.0f} MB/s, "
        f"100/10 time ratio {time_ratio:.1f}"
    )
    if growth > 1.5:
        pytest.fail(f"{label} is not linear: a byte of 100 MB costs {growth:.2f}x a byte of 10 MB", pytrace=False)
    if min(mb_per_s.values()) < target:
        pytest.fail(f"{label} is below {target} MB/s", pytrace=False)


@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
@pytest.mark.parametrize("case", _params(PLANNED))
def test_real_output_planned(case: Case, as_bytes: bool) -> None:
    mb_per_s, shape = time_sizes(case.text(), as_bytes, case.tool)
    label = f"{case.name} as {'bytes' if as_bytes else 'str'}, {case.tool}"
    check(label, mb_per_s, shape)


@pytest.mark.parametrize("case", _params(CLIPPED))
def test_non_ascii_str_clipped(case: Case) -> None:
    mb_per_s, shape = time_sizes(case.text(), False, CLIP_TOOL)
    check(f"{case.name} as str, {CLIP_TOOL}", mb_per_s, shape)
