"""Golden tests of the read, listing, diff, matches, frames and diagnostics planners on real outputs
of real programs: `cat -n`, `cat` and `nl -ba` of standard library modules, `find`, `ls -R` and
`grep -c` counts (as rows a search tool summarised) of its packages, `grep -r` and `grep -A` over
it, `git show`, `git log -p` and `git log --stat` of this repository, `git status` of a scratch
one, ruff over a package, gcc's and cargo's warnings on small programs, a `make` that
succeeds with a few warnings (made by `tests/golden/make_shape_goldens.py`, which also
refreshes them). Beside the exact bytes, each checks what its shape promises."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import shapeclip
from shapeclip.lookalike import disarm

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from make_shape_goldens import BUDGETS, CASES, HERE

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")
RUNS = [(name, budget) for name in CASES for budget in BUDGETS if (HERE / f"{name}.{budget}.expected").exists()]


def test_every_case_has_its_input_and_every_shape_a_case() -> None:
    assert all((HERE / f"{name}.txt").exists() for name in CASES)
    assert {case.shape for case in CASES.values()} == {
        "read",
        "listing",
        "diff",
        "matches",
        "frames",
        "diagnostics",
    }


@pytest.mark.parametrize(("name", "budget"), RUNS)
def test_shape_golden(name: str, budget: int) -> None:
    case = CASES[name]
    text = (HERE / f"{name}.txt").read_bytes().decode("utf-8")
    expected = (HERE / f"{name}.{budget}.expected").read_bytes().decode("utf-8")
    result = shapeclip.compress_detailed(text, case.tool, budget)
    assert (result.shape, len(result.text) <= budget) == (case.shape, True)
    out = result.text
    if case.shape == "diff":
        # Every changed file is still named, or the last names are counted in the last gap.
        names = re.findall(r"^diff --git .*$", text, re.MULTILINE)
        kept = [name for name in names if f"{name}\n" in out]
        assert kept == names[: len(kept)]
        if len(kept) < len(names):
            assert re.search(rf" omitted: (?:\d+ commits?, )?{len(names) - len(kept)} files?, ", out), out
        # Commits are named from the first on; in a log without patches, each with its subject.
        commits = re.findall(r"^commit [0-9a-f]{40}$", text, re.MULTILINE)
        shown = re.findall(r"^commit [0-9a-f]{40}$", out, re.MULTILINE)
        assert shown == commits[: len(shown)] and (shown or not commits)
        for commit in shown if not names else []:
            at = text.index(commit + "\n")
            subject = re.search(r"^    \S.*$", text[at:], re.MULTILINE)
            assert subject and subject.group(0) + "\n" in out
    elif case.shape == "listing":
        for heading in re.findall(r"^\S+:$", text, re.MULTILINE):
            assert f"{heading}\n" in out, heading
        # `git status` keeps every section's title.
        for title in re.findall(r"^(?:Changes .*|Untracked files|Unmerged paths):$", text, re.MULTILINE):
            assert f"{title}\n" in out, title
        # Of rows a search tool summarised, the file with the most matches outside
        # `__pycache__` is kept.
        rows = re.findall(r"^(\S+) \((\d+) matches\)$", text, re.MULTILINE)
        own = [(int(n), path) for path, n in rows if "__pycache__" not in path]
        if own:
            n, path = max(own)
            assert f"{path} ({n} matches)\n" in out
    elif case.shape == "frames":
        # Every line as a terminal leaves it (a redrawn one's last frame), then one marker; or
        # the first and last lines so around a marker that names the lines between.
        frames = [re.split(r"\r+(?=[^\r])", line)[-1] for line in text.split("\n")[:-1]]
        body, marker = out[:-1].rsplit("\n", 1)
        if marker.startswith("[shapeclip: ") and " progress frames drawn over in " in marker:
            assert body.split("\n") == frames
        else:
            shown = out[:-1].split("\n")
            at = next(i for i, line in enumerate(shown) if line.startswith("[") and "progress frames" in line)
            head, tail = shown[:at], shown[at + 1 :]
            assert head == frames[: len(head)] and tail == frames[len(frames) - len(tail) :]
            assert f"lines {len(head) + 1}-{len(frames) - len(tail)} " in shown[at]
    elif case.shape == "diagnostics":
        # Every header shown has its place under it, the first is shown, and so is the tool's
        # count at the end, where it prints one after the last diagnostic's code frame.
        kept = out.splitlines()
        for at, line in enumerate(kept[:-1]):
            if re.match(r"^(?:warning|[A-Z]+\d+) ", line) and not line.endswith("warnings"):
                assert re.match(r"^ *--> ", kept[at + 1]), line
        first = next(line for line in text.splitlines() if re.search(r"^(?:\S+:\d+:\d+: )?warning|^[A-Z]+\d+ ", line))
        assert first in kept
        last = [line for line in text.splitlines() if line.strip()][-1]
        assert last in kept or last.startswith(" ")
    elif case.shape == "matches":
        # It opens with the search's first line, and its first definition is shown.
        assert out.startswith(text.split("\n")[0] + "\n")
        defs = [line for line in text.splitlines() if re.search(r"(^|[:\t-])\s*(?:def|class) \w", line)]
        assert defs and defs[0] in out.splitlines()
    else:
        # The read starts at its first line, or at the line after a folded run of comments.
        first = re.match(r"\[lines 1-(\d+) omitted\]\n", out)
        start = int(first.group(1)) if first else 0
        assert out[first.end() if first else 0 :].startswith(text.split("\n")[start] + "\n")
        # A viewer's window that reaches the file's end keeps its last lines.
        if re.search(r"^\(\d+ more lines above\)$", text, re.MULTILINE) and "more lines below" not in text:
            assert out.endswith("\n".join(text.splitlines()[-5:]) + "\n"), out
    if case.shape != "frames":
        # Every kept line is a whole line of the input (with look-alike markers disarmed).
        lines = set(disarm(text).splitlines())
        kept = [line for line in out.splitlines() if not line.startswith("[")]
        assert all(line in lines for line in kept)
    assert out == expected, f"run `python tests/golden/make_shape_goldens.py --refresh` if {name} changed on purpose"
