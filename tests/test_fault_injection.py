"""Real panics through the binding (issue 12): a module built with the `fault-injection` feature
panics where an input line tells it to (`rust/fault.rs`), and every caller still gets an honest,
budget-bound result.

The faulty build lives apart from the installed one: `.ci/run` builds it and names its
directory in `SHAPECLIP_FAULTY_SITE`; each case runs in a subprocess that imports shapeclip
from there, and is compared with what this process's normal build gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import shapeclip
from shapeclip import fallback
from shapeclip.profiles import profile_for

SITE = os.environ.get("SHAPECLIP_FAULTY_SITE")
pytestmark = pytest.mark.skipif(not SITE, reason="no fault-injection build (SHAPECLIP_FAULTY_SITE; .ci/run makes one)")

BUDGET = 3000
# What runs in the faulty build: compress `text` whole and as a stream of bytes, optionally
# with a store, and report each result's facts.
CHILD = """
import json, sys, logging
import shapeclip
from shapeclip import api
assert api._core is not None and api.__file__.startswith(sys.argv[1]), api.__file__
case = json.loads(sys.stdin.read())
logging.basicConfig(level=logging.WARNING)
store = shapeclip.Store(case["store"]) if case["store"] else None
def facts(r):
    stored = [r.stored.id, str(r.stored.path)] if r.stored else None
    return [r.text, r.shape, r.backend, r.input_chars, r.input_lines, r.omitted_chars, r.omitted_lines,
            [list(x) for x in r.omitted_ranges], stored]
data = case["text"].encode()
stream = shapeclip.Compressor("bash", case["budget"], store=store)
for i in range(0, len(data), 4096):
    stream.feed(data[i : i + 4096])
print(json.dumps({
    "one_shot": facts(shapeclip.compress_detailed(case["text"], "bash", case["budget"])),
    "stream": facts(stream.finish_detailed()),
}))
"""


def _log(trigger: str) -> str:
    lines = [f"step {i}: compiling module_{i}.c ... ok\n" for i in range(4000)]
    lines[1] = trigger + "\n"
    lines[3000] = "src/module_3000.c:12:5: error: 'x' undeclared (first use in this function)\n"
    lines.append("make: *** [Makefile:12: all] Error 1\n")
    return "".join(lines)


def _faulty(text: str, budget: int = BUDGET, store: Path | None = None) -> dict[str, list[object]]:
    assert SITE is not None
    env = {**os.environ, "PYTHONPATH": SITE}
    case = json.dumps({"text": text, "budget": budget, "store": str(store) if store else None})
    done = subprocess.run(
        [sys.executable, "-c", CHILD, SITE], input=case, capture_output=True, text=True, env=env, check=True
    )
    results: dict[str, list[object]] = json.loads(done.stdout)
    results["stderr"] = [done.stderr]
    return results


def _facts(result: shapeclip.Compressed) -> list[object]:
    return [
        result.text,
        result.shape,
        result.backend,
        result.input_chars,
        result.input_lines,
        result.omitted_chars,
        result.omitted_lines,
        [list(r) for r in result.omitted_ranges],
        [result.stored.id, str(result.stored.path)] if result.stored else None,
    ]


@pytest.mark.parametrize("where", ["look", "intake", "plan"])
def test_a_planners_panic_costs_only_that_planner(where: str) -> None:
    text = _log(f"shapeclip-fault: {where}")
    expected = _facts(shapeclip.compress_detailed(text, "bash", BUDGET))
    assert expected[1] == "log"
    got = _faulty(text)
    assert got["one_shot"] == expected
    assert got["stream"] == expected
    assert "pure-Python" not in got["stderr"][0]


@pytest.mark.parametrize("where", ["window", "clip"])
def test_a_panic_in_what_every_plan_falls_back_on_omits_all_with_exact_counts(where: str) -> None:
    # Plain rows, which no planner takes: the clip must plan them.
    text = "".join(f"row {i} of the table\n" if i != 1 else f"shapeclip-fault: {where}\n" for i in range(4000))
    got = _faulty(text)
    lines = text.count("\n")
    for result in (got["one_shot"], got["stream"]):
        body, shape, backend, chars, n_lines, omitted_chars, omitted_lines, ranges, _ = result
        assert (shape, backend) == ("clip", "native")
        assert (chars, n_lines, omitted_chars, omitted_lines) == (len(text), lines, len(text), lines)
        assert ranges == [[1, lines]]
        assert isinstance(body, str) and len(body) <= BUDGET
        assert body.startswith(f"[shapeclip: all of this output omitted ({lines:,} lines, {len(text):,} chars")


def test_a_panic_in_the_reading_falls_back_in_python(tmp_path: Path) -> None:
    text = _log("shapeclip-fault: engine")
    clipper = fallback.Clipper(BUDGET, profile_for("bash"), "bash")
    clipper.feed(text)
    plain_clip = clipper.finish().text
    got = _faulty(text)
    # A one-shot call still holds the text, and clips it in Python.
    assert got["one_shot"][:3] == [plain_clip, "clip", "python"]
    assert got["one_shot"][3:5] == [len(text), text.count("\n")]
    # A stream's chunks are gone: without a stored copy, the result says so and counts nothing.
    body, shape, backend, *counts = got["stream"]
    assert (shape, backend, counts) == ("failed", "python", [0, 0, 0, 0, [], None])
    assert isinstance(body, str) and "shapeclip failed on it, and it was not stored" in body
    assert got["stderr"][0].count("pure-Python") == 1
    # With one, the stream is clipped from it, exactly as the whole text would be.
    stored = _faulty(text, store=tmp_path / "store")["stream"]
    assert isinstance(stored[8], list)
    entry, path = stored[8]
    assert Path(path).read_text() == text
    clipper = fallback.Clipper(BUDGET, profile_for("bash"), "bash")
    clipper.feed(text)
    assert stored[:3] == [clipper.finish((entry, path)).text, "clip", "python"]
    assert stored[3:5] == got["one_shot"][3:5]
