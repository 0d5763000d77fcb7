"""The log planner against an oracle: generated logs whose every line's kind is known by construction.

A log is built from pieces (ok lines, progress redraws, false positives such as `-Werror`,
warnings, summaries, and error groups with Python, Java, JavaScript and Rust traces or gcc
diagnostic bodies), each line labelled with the kind it is. The checks read the output back
line by line: each kept line must be the next input line as a terminal shows it, and each gap
marker must name exactly the next lines, their count and their kinds, as counted from the labels
in a few lines of plain Python. The planner is in the native core only, so these tests need it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees, require_shape
from shapeclip import api

ERROR, WARNING, SUMMARY, OTHER = "error", "warning", "summary", "other"
#: What a generated log may be planned as: a log whose progress redraws leave lines that fit as a
#: terminal leaves them is shown whole so (docs/shapes/frames.md); one with gcc's warnings and
#: no error or summary, which is no log, keeps its warnings first (docs/shapes/diagnostics.md).
SHAPES_OF_LOGS = ("log", "frames", "diagnostics", "clip", "passthrough")


@pytest.fixture(autouse=True)
def native() -> None:
    if api._core is None:
        pytest.skip("the log planner is in the native core, which is not built")


@dataclass(frozen=True)
class Line:
    text: str  # without its "\n"
    kind: str


@dataclass(frozen=True)
class Piece:
    lines: tuple[Line, ...]
    #: An error with its trace: shown from its first error line to its end, or not at all.
    group: bool = False


names = st.sampled_from(["alpha", "parser", "io_utils", "net", "cache_db", "Widget"])
small = st.integers(0, 3)  # small numbers make identical repeats likely
big = st.integers(1, 99_999)


def piece(*lines: tuple[str, str], group: bool = False) -> Piece:
    return Piece(tuple(Line(t, k) for t, k in lines), group)


def ok_line(n: int, a: str) -> tuple[str, str]:
    return f"[{n:>6}] compiling {a}_{n % 50}.c ... ok", OTHER


ok = st.builds(lambda n, a: piece(ok_line(n, a)), big, names)
ok_run = st.builds(
    lambda n, a, count: piece(*(ok_line(n + i, a) for i in range(count))), big, names, st.integers(1, 80)
)
progress = st.builds(
    lambda a, first: piece((f"{first}\r10% {a}\r55% {a}\r100% {a} built", OTHER)),
    names,
    st.sampled_from(["0%", "error: retrying", "Downloading"]),
)
false_positive = st.builds(
    lambda a, i: piece(
        (
            [
                f"compiling error_handler_{a}.py",
                f"gcc -Wall -Werror -c {a}.c -o {a}.o",
                "0 errors, 0 warnings",
                f"checked {a}: no failures",
            ][i],
            OTHER,
        )
    ),
    names,
    st.integers(0, 3),
)
warning = st.builds(
    lambda i, a, n, k: piece(
        (
            [
                f"src/{a}.c:{n}:{k + 1}: warning: unused variable 'tmp{k}' [-Wunused-variable]",
                f"{a}.py:{n}: DeprecationWarning: {a}() is deprecated",
                f"WARN {a}: retry {k} of 5",
            ][i],
            WARNING,
        )
    ),
    st.integers(0, 2),
    names,
    small,
    small,
)
summary = st.builds(
    lambda i, n, k: piece(
        (
            [
                f"==== {k + 1} failed, {n} passed in {k}.{n % 100:02}s ====",
                f"Ran {n} tests in 0.{k}s",
                f"FAILED (failures={k + 1})",
                f"test result: FAILED. {n} passed; {k + 1} failed; 0 ignored; 0 measured",
                f"Found {n} errors in {k + 1} files (checked {n + 3} source files)",
            ][i],
            SUMMARY,
        )
    ),
    st.integers(0, 4),
    big,
    small,
)


def python_traceback(a: str, n: int, frames: int, chained: bool) -> list[tuple[str, str]]:
    lines = [("Traceback (most recent call last):", ERROR)]
    for f in range(frames):
        lines += [(f'  File "/app/{a}/m{f}.py", line {n + f}, in run_{f}', OTHER), (f"    result = step_{f}(x)", OTHER)]
    lines.append((f"ValueError: bad value {n}", ERROR))
    if chained:
        lines += [
            ("", OTHER),
            ("During handling of the above exception, another exception occurred:", ERROR),
            ("", OTHER),
            ("Traceback (most recent call last):", ERROR),
            (f'  File "/app/{a}/main.py", line {n}, in main', OTHER),
            (f"KeyError: '{a}'", ERROR),
        ]
    return lines


error_group = st.one_of(
    st.builds(
        lambda a, n, frames, chained: piece(*python_traceback(a, n, frames, chained), group=True),
        names,
        big,
        st.integers(1, 4),
        st.booleans(),
    ),
    st.builds(
        lambda a, n, more: piece(
            (f'Exception in thread "main" java.lang.IllegalStateException: boom {n}', ERROR),
            (f"\tat com.acme.{a}.run({a}.java:{n})", OTHER),
            (f"Caused by: java.io.IOException: disk {n}", ERROR),
            (f"\t... {more} more", OTHER),
            group=True,
        ),
        names,
        big,
        small,
    ),
    st.builds(
        lambda a, n, frames: piece(
            (f"TypeError: {a} is not a function", ERROR),
            *[(f"    at f{f} (/app/{a}.js:{n}:{f + 1})", OTHER) for f in range(frames)],
            group=True,
        ),
        names,
        big,
        st.integers(1, 3),
    ),
    st.builds(
        lambda a, n: piece(
            (f"thread 'main' panicked at src/{a}.rs:{n}:5:", ERROR),
            (f"index out of bounds: the len is 3 but the index is {n}", OTHER),
            ("note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", OTHER),
            group=True,
        ),
        names,
        big,
    ),
    st.builds(
        lambda a, n, k: piece(
            (f"src/{a}.c:{n}:{k + 1}: error: '{a}' undeclared (first use in this function)", ERROR),
            (f" {n:>4} |     return {a};", OTHER),
            ("      |            ^", OTHER),
            group=True,
        ),
        names,
        big,
        small,
    ),
    st.builds(
        lambda a, n: piece(
            (f">       assert {a}() == {n}", OTHER),
            (f"E       assert 1 == {n}", ERROR),
            group=True,
        ),
        names,
        big,
    ),
    st.builds(lambda n: piece((f"make: *** [Makefile:{n}: all] Error 2", ERROR), group=True), big),
)

quiet_pieces = st.one_of(ok, ok, ok, ok, progress, false_positive)
# A separator after each group, so that where a group ends is known without the planner.
group_then_ok = st.builds(lambda g, o: [g, o], error_group, ok)


def logs(quiet: st.SearchStrategy[Piece], min_pieces: int, max_pieces: int) -> st.SearchStrategy[list[Piece]]:
    """Logs of `min_pieces` to `max_pieces` pieces, quiet ones drawn from `quiet`."""
    one = st.one_of(quiet.map(lambda p: [p]), warning.map(lambda p: [p]), summary.map(lambda p: [p]), group_then_ok)
    return st.lists(one, min_size=min_pieces, max_size=max_pieces).map(lambda nested: [p for ps in nested for p in ps])


#: Logs of up to about 200 KB, mostly quiet, so most budgets make the planner cut.
pieces = logs(st.one_of(ok_run, ok_run, quiet_pieces), 10, 150)
#: Logs of a few KB, for the stream test's one-character chunks.
short_pieces = logs(quiet_pieces, 30, 100)
decorations = st.tuples(st.booleans(), st.booleans())  # CRLF endings, ANSI colour on diagnostics


def render(log: list[Piece], crlf: bool, ansi: bool, final_newline: bool = True) -> tuple[str, list[Line]]:
    """The log's text and its lines, in order."""
    lines = [line for p in log for line in p.lines]
    texts = []
    for line in lines:
        text = line.text
        if ansi and re.search(r": (error|warning): ", text):
            text = text.replace(": error: ", ": \x1b[1;31merror:\x1b[0m ").replace(
                ": warning: ", ": \x1b[1;35mwarning:\x1b[0m "
            )
        texts.append(text + ("\r\n" if crlf else "\n"))
    text = "".join(texts)
    return (text if final_newline else text[:-1]), lines


def terminal(raw: str) -> str:
    """A line as a terminal leaves it: the last non-empty `\\r` state, without colour codes."""
    raw = raw.rstrip("\r")
    return re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]", "", raw[raw.rfind("\r") + 1 :])


GAP = re.compile(r"\[lines? (?P<a>[\d,]+)(?:-(?P<b>[\d,]+))? omitted(?:: (?P<kinds>[^\]]*))?\]")
NOTE = re.compile(r" \[shapeclip: (?P<note>[^\]]*)\]$")
CLOSING = re.compile(r"\[shapeclip: [\d,]+ of [\d,]+ lines? omitted")
KIND_WORDS = {"error line": ERROR, "warning": WARNING, "summary line": SUMMARY}


def number(s: str) -> int:
    return int(s.replace(",", ""))


def kinds_said(words: str | None) -> Counter[str]:
    said: Counter[str] = Counter()
    for part in words.split(", ") if words else []:
        count, word = part.split(" ", 1)
        said[KIND_WORDS[word.removesuffix("s")]] += number(count)
    return said


def read_back(out: str, text: str, labels: list[str]) -> set[int]:
    """Checks every kept line and gap marker of `out` against the input; returns the shown line numbers."""
    raw_lines = text.split("\n")
    if text.endswith("\n"):
        raw_lines.pop()
    assert len(raw_lines) == len(labels)
    shown: set[int] = set()
    at = 1  # the next input line the output must account for
    out_lines = out.split("\n")
    if out.endswith("\n"):
        out_lines.pop()
    for i, row in enumerate(out_lines):
        if CLOSING.match(row):
            assert i == len(out_lines) - 1, "the closing marker comes last"
            continue
        gap = GAP.fullmatch(row)
        if gap:
            a, b = number(gap["a"]), number(gap["b"] or gap["a"])
            assert a == at, f"marker {row!r} starts at line {a}, the next unaccounted line is {at}"
            expected = Counter(label for label in labels[a - 1 : b] if label != OTHER)
            said = kinds_said(gap["kinds"])
            assert +said == +expected, f"{row!r}: reference count {dict(expected)}"
            at = b + 1
            continue
        repeats = 1
        note_match = NOTE.search(row)
        if note_match:
            row = row[: note_match.start()]
            run = re.fullmatch(r"\u00d7([\d,]+) in a row", note_match["note"])
            repeats = number(run[1]) if run else 1
        for _ in range(repeats):
            assert at <= len(raw_lines), f"output line {row!r} after the last input line"
            assert row == terminal(raw_lines[at - 1]), f"line {at}"
            shown.add(at)
            at += 1
    assert at == len(raw_lines) + 1, f"lines {at}-{len(raw_lines)} are not accounted for"
    return shown


log_budgets = st.sampled_from([400, 1000, 2000, 4000, 16000])


@given(log=pieces, decor=decorations, budget=log_budgets, final_newline=st.booleans())
def test_gap_markers_match_a_reference_count(
    log: list[Piece], decor: tuple[bool, bool], budget: int, final_newline: bool
) -> None:
    text, lines = render(log, *decor, final_newline=final_newline)
    result = shapeclip.compress_detailed(text, "bash", budget)
    note(result.text)
    assert len(result.text) <= budget
    require_shape(result, "log", SHAPES_OF_LOGS)
    read_back(result.text, text, [line.kind for line in lines])


@given(log=pieces, decor=decorations, budget=log_budgets)
def test_issue_10_the_tail_run_is_kept_and_the_budget_is_used(
    log: list[Piece], decor: tuple[bool, bool], budget: int
) -> None:
    text, lines = render(log, *decor)
    result = shapeclip.compress_detailed(text, "bash", budget)
    note(result.text)
    require_shape(result, "log", SHAPES_OF_LOGS)
    shown = read_back(result.text, text, [line.kind for line in lines])
    assert len(lines) in shown, "the last line ends every log plan"
    if budget >= 2000:
        # Lines here are short, so only the closing marker's reserve may stay unused.
        assert len(result.text) >= budget * 0.8, f"{len(result.text)} of {budget}"


#: Lines shorter than any marker: a blank line, a brace, a bare status word.
tiny = st.builds(lambda t: piece((t, OTHER)), st.sampled_from(["", "}", "ok", "--", "  done"]))


@given(log=logs(st.one_of(ok_run, tiny, tiny, tiny), 10, 150), budget=st.sampled_from([1000, 2000, 4000]))
def test_issue_10_no_gap_marker_is_longer_than_the_lines_it_stands_for(log: list[Piece], budget: int) -> None:
    # Up to one and a half budgets of input, the planner holds every line (the first and the
    # last budget's worth), so it could always show a gap's lines instead of its marker.
    text, lines = render(log, crlf=False, ansi=False)
    cut = text[: budget * 3 // 2]
    text = cut[: cut.rfind("\n") + 1]
    result = shapeclip.compress_detailed(text, "bash", budget)
    note(result.text)
    require_shape(result, "log", SHAPES_OF_LOGS)
    read_back(result.text, text, [line.kind for line in lines[: text.count("\n")]])
    raw = text.split("\n")
    for row in result.text.split("\n"):
        gap = GAP.fullmatch(row)
        if gap:
            a, b = number(gap["a"]), number(gap["b"] or gap["a"])
            cost = sum(len(terminal(raw[i - 1])) + 1 for i in range(a, b + 1))
            assert cost > len(row) + 1, f"{row!r} stands for {cost} characters of lines"


def test_issue_10_a_run_of_short_lines_is_shown_when_its_count_would_be_longer() -> None:
    # Two "}" lines cost 4 characters; told as one with its "in a row" count they cost more than
    # the lines, so the planner once left the second out behind a longer gap marker instead.
    quiet = [f"[{i:>6}] compiling alpha_{i}.c ... ok" for i in range(1, 25)]
    again = "[     1] compiling alpha_1.c ... ok"
    end = ["", again, "", again, "[     1] compiling b.c ... ok"]
    text = "\n".join(["Ran 1 tests in 0.0s", "}", "}", "Ran 1 tests in 0.0s", *quiet, *end]) + "\n"
    out = shapeclip.compress(text, "bash", 1000)
    assert out.startswith("Ran 1 tests in 0.0s\n}\n}\nRan 1 tests in 0.0s\n")


@pytest.mark.parametrize("budget", [1000, 4000])
def test_a_log_whose_last_lines_are_long_streams_as_one_call_does(budget: int) -> None:
    # The tail run once walked back past the last budget + 1 characters, further than a
    # stream's window is sure to hold, over lines longer than the per-line cap.
    lines = [f"[{i}] compiling ok" for i in range(300)] + ["src/a.c:1:1: error: boom"]
    text = "\n".join([*lines, *(f"[{i}] " + "x" * 900 for i in range(6)), "done"]) + "\n"
    assert_every_path_agrees(text, "bash", budget)


#: Exception names that share no template, so no traceback repeats another.
exception_names = st.lists(st.from_regex(r"[A-Z][a-z]{3,8}", fullmatch=True), min_size=2, max_size=10, unique=True)


@given(names_=exception_names, quiet=st.lists(st.integers(5, 60), min_size=11, max_size=11), frames=st.integers(3, 6))
def test_issue_10_every_headline_before_any_trace(names_: list[str], quiet: list[int], frames: int) -> None:
    # Up to ten long tracebacks, apart: their headlines fit in 4,000 characters, their traces
    # do not. Breadth before depth: every one names its exception before any shows its frames.
    text = ""
    for i, name in enumerate(names_):
        text += "".join(f"[{i}-{j}] compiling unit_{j}.c ... ok\n" for j in range(quiet[i]))
        text += "Traceback (most recent call last):\n"
        for f in range(frames):
            text += f'  File "/app/{name.lower()}/module_{f}.py", line {f + 10}, in step_{f}\n'
            text += f"    result = handler_{f}(payload, options)\n"
        text += f"{name}Error: the {name.lower()} stage failed\n"
    text += "".join(f"[end-{j}] cleaning up ... ok\n" for j in range(quiet[-1]))
    assume(len(text) > 6000)
    out = shapeclip.compress(text, "bash", 4000)
    note(out)
    for name in names_:
        assert f"{name}Error: the {name.lower()} stage failed\n" in out


@given(log=short_pieces, decor=decorations, budget=st.sampled_from([400, 1000, 2000]))
def test_deterministic_and_stream_equals_one_shot(log: list[Piece], decor: tuple[bool, bool], budget: int) -> None:
    text, _ = render(log, *decor)
    assert shapeclip.compress(text, "bash", budget) == shapeclip.compress(text.encode(), "bash", budget)
    assert_every_path_agrees(text, "bash", budget)


@given(
    log=st.lists(st.one_of(quiet_pieces, quiet_pieces, summary), min_size=50, max_size=300),
    decor=decorations,
)
def test_no_error_signal_and_under_two_summaries_declines(log: list[Piece], decor: tuple[bool, bool]) -> None:
    summaries = sum(p.lines[0].kind == SUMMARY for p in log)
    text, _ = render(log, *decor)
    if len(text) <= 1000:
        return
    result = shapeclip.compress_detailed(text, "bash", 1000)
    if summaries < 2:
        assert result.shape != "log", "false positives or a lone summary made a log plan"
    else:
        assert result.shape in ("log", "frames")


def test_the_planner_is_only_for_shell_tools() -> None:
    text, _ = render(
        [piece(("x.c:1:1: error: boom", ERROR)), *[piece((f"[{i}] ok", OTHER)) for i in range(2000)]], False, False
    )
    assert shapeclip.compress_detailed(text, "bash", 1000).shape == "log"
    assert shapeclip.compress_detailed(text, "read_file", 1000).shape != "log"


def fifty_mb_line() -> bytes:
    return b"error: " + b"x" * 50_000_000 + b"\n"


BAD_INPUTS = {
    "no newline at all": lambda: ("step ok " * 200_000 + "error: boom").encode(),
    "a 50 MB line": fifty_mb_line,
    "CR-only line endings": lambda: ("step ok\r" * 100_000 + "error: done\rRan 3 tests in 0.1s\r").encode(),
    "invalid UTF-8": lambda: b"\xff\xfe build \xc3 error: \xe2\x82\n" * 20_000 + b"FAILED (failures=1)\n\xf0\x9f",
    "NUL bytes": lambda: b"a\0b error: \0\n ok \0\n" * 20_000,
    "100% error lines": lambda: b"".join(b"e.c:%d:1: error: bad %d\n" % (i, i) for i in range(50_000)),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
@pytest.mark.parametrize("budget", [1, 50, 400, 4000, 16000])
def test_bad_input_stays_within_budget(name: str, budget: int) -> None:
    data = BAD_INPUTS[name]()
    for chunk in (data, data.decode("utf-8", "replace")):
        result = shapeclip.compress_detailed(chunk, "bash", budget)
        assert len(result.text) <= budget
        assert result.backend == "native"
    compressor = shapeclip.Compressor("bash", budget)
    for i in range(0, len(data), 1 << 20):
        compressor.feed(data[i : i + (1 << 20)])
    assert compressor.finish() == shapeclip.compress(data, "bash", budget)


@pytest.mark.parametrize("escape", ["\x1b(", "\x1b)", "\x1b(\u00e9", "\x1b"])
def test_issue_4_an_escape_cut_off_at_a_line_end_does_not_hang(escape: str) -> None:
    # A charset designation (`ESC (`) as a line's last bytes once sent the ANSI stripper
    # looking for a character boundary past the end of the line, forever.
    text = "".join(f"[{i}] compiling ok\n" for i in range(500)) + f"src/a.c:1:1: error: boom{escape}\n" + "done\n"
    for budget in (400, 4000):
        result = shapeclip.compress_detailed(text, "bash", budget)
        assert result.shape == "log"
        assert len(result.text) <= budget


def test_issue_11_14_a_line_one_char_too_long_has_one_more_char() -> None:
    # At budget 4,000 a kept line shows 500 characters.
    text = "".join(f"step {i} ok\n" for i in range(3000)) + "error: " + "y" * 494 + "\n"
    text += "".join(f"step {i} ok\n" for i in range(300)) + "1 failed, 2 passed in 1.0s\n"
    result = shapeclip.compress_detailed(text, "bash", 4000)
    assert result.shape == "log"
    assert "y [shapeclip: 1 more char of this line]\n" in result.text


_KINDS = ["unused variable", "deprecated call", "implicit conversion", "shadowed name", "missing docs"]


def _warnings_between_errors(n: int, errors_every: int) -> str:
    lines = []
    for i in range(n):
        lines.append(f"src/mod_{i}.rs:{i + 1}:5: warning: {_KINDS[i % 5]} `x{i}`")
        if i % errors_every == 0:
            lines.append(f"src/mod_{i}.rs:{i + 2}:1: error[E0308]: mismatched types in item_{i}")
        lines.append(f"   compiling unit {i}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n", [150, 400])
@pytest.mark.parametrize("errors_every", [7, 30])
@pytest.mark.parametrize("budget", [1500, 2000, 4000, 8000])
def test_issue_27_item_15_warnings_of_kinds_shown_above_are_not_said_to_have_no_example(
    native: None, n: int, errors_every: int, budget: int
) -> None:
    out = shapeclip.compress(_warnings_between_errors(n, errors_every), "bash", budget)
    said = re.search(r"([\d,]+) warnings? of kinds with no example above", out)
    shown = {kind for kind in _KINDS if f"warning: {kind}" in out}
    missing = sum(1 for i in range(n) if _KINDS[i % 5] not in shown)
    assert (int(said.group(1).replace(",", "")) if said else 0) == missing, out


def test_issue_27_item_13_a_function_tool_returning_a_build_log_is_planned_as_one_with_a_store(
    native: None, tmp_path: Path
) -> None:
    log = _warnings_between_errors(400, 30)
    stored = shapeclip.compress_detailed(log, "get_build_log", 2000, store=shapeclip.Store(tmp_path / "s"))
    assert stored.shape == "log" and "shapeclip show" in stored.text
    # Without a stored copy the only way back a log plan knows is to run a shell command again,
    # which a function tool cannot do: it is clipped, with no line-range advice either.
    plain = shapeclip.compress_detailed(log, "get_build_log", 2000)
    assert plain.shape == "clip" and "sed -n" not in plain.text and "for lines" not in plain.text


@given(
    log=pieces,
    long_at=st.lists(st.integers(0, 60), max_size=3),
    width=st.integers(300, 30_000),
    budget=log_budgets,
)
def test_the_closing_count_is_omitted_lines_with_the_lines_cut_short(
    log: list[Piece], long_at: list[int], width: int, budget: int
) -> None:
    # "0 of 2 lines omitted" was said of a log whose second line was shown cut short.
    text, _ = render(log, False, False, final_newline=True)
    lines = text.splitlines(keepends=True)
    for at in long_at:
        if at < len(lines):
            lines[at] = lines[at].rstrip("\n") + " " + "x" * width + "\n"
    result = shapeclip.compress_detailed("".join(lines), "bash", budget)
    closing = re.search(r"\[shapeclip: ([\d,]+) of ([\d,]+) lines? omitted", result.text)
    if result.shape == "log" and closing:
        assert int(closing.group(1).replace(",", "")) == result.omitted_lines, result.text


def test_a_line_cut_short_counts_as_omitted_in_the_closing_marker() -> None:
    result = shapeclip.compress_detailed("error: x\n" + "b" * 20_000 + "\n", "bash", 400)
    assert result.shape == "log" and result.omitted_ranges == ((2, 2),)
    assert result.text.endswith("[shapeclip: 1 of 2 lines omitted; sed -n '2,2p' shows some]\n")


def test_a_list_of_tests_named_after_errors_is_no_log(tmp_path: Path) -> None:
    # `pytest --collect-only -q` lists node ids, many named after the failure they check; the
    # log planner kept those as the log's "errors" and dropped the list's head and its count.
    kinds = ["error", "fatal error", "panic", "exception raised", "segmentation fault", "ok"]
    cases = "\n".join(
        f"@pytest.mark.parametrize('kind', {kinds!r})\ndef test_{name}(kind):\n    assert kind\n"
        for name in (f"{verb}_{i}" for verb in ("parse_reports", "retry_reports", "exit_code_of") for i in range(20))
    )
    (tmp_path / "test_cases.py").write_text(f"import pytest\n\n{cases}", encoding="utf-8")
    run = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "test_cases.py"]
    listed = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert "test_cases.py::test_parse_reports_0[fatal error]" in listed
    result = shapeclip.compress_detailed(listed, "bash", 2000)
    assert result.shape != "log", result.text
    assert "360 tests collected" in result.text
