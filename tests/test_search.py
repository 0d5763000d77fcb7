"""The search planner from Python, against an oracle: generated search outputs (grep -n, -C with
`--`, `--column`, ripgrep `--heading`; relative, `./`, absolute and Windows paths; paths with
`-`, `:` and digits) whose every printed count must equal a plain reference counter, with every
true file named or inside a named directory line. Also: the budget bound, determinism, stream
equals one shot, diagnostics and mixed prose are declined, a huge match line is cut exactly.

The search planner lives in the native core; the pure-Python fallback is a clip, so these
tests need the core.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

ROOTS = ["", "./", "/abs/with space/", "C:\\work\\", "/srv/v2:3/"]
# Names and texts that hold `-NN-`, `:NN:` and times, so that a line has several readings.
DIRS = ["src", "lib", "a-1-b", "v2:3", "2024-01-02", "pkg-7", "deep er", "x86_64", "10:15:30"]
NAMES = ["mod.rs", "a-12-b.py", "Makefile", "data-7.txt", "x.c", "v1:2.go", "step-1-deploy", "23:59:30.log"]
WORDS = ["let", "x = d[1:2:3]", "-3-", "12:34:56", "é漢", "return None", ":", "a-1-b.py-2-", "\t", "b:2:x"]
FORMATS = ["plain", "context", "column", "heading", "heading-context"]


@dataclass(frozen=True)
class SearchOutput:
    text: str
    #: Every file, in order, with the line numbers of its matches.
    files: tuple[tuple[str, tuple[int, ...]], ...]


def render(files: list[tuple[str, list[int]]], fmt: str, context: int, seed: int) -> str:
    """The output grep or ripgrep would print for these files and matches."""
    rng = random.Random(seed)
    out: list[str] = []
    for i, (path, matches) in enumerate(files):
        shown = sorted({n for m in matches for n in range(max(1, m - context), m + context + 1)})
        if fmt.startswith("heading"):
            out.append(("\n" if i else "") + path + "\n")
        elif context and i:
            out.append("--\n")
        for j, n in enumerate(shown):
            if context and j and shown[j - 1] + 1 != n:
                out.append("--\n")
            sep = ":" if n in matches else "-"
            text = f"{rng.choice(WORDS)} {rng.choice(WORDS)}"
            if fmt == "column" and sep == ":":
                text = f"{rng.randrange(1, 80)}:{text}"
            out.append(f"{n}{sep}{text}\n" if fmt.startswith("heading") else f"{path}{sep}{n}{sep}{text}\n")
    return "".join(out)


@st.composite
def search_outputs(draw: st.DrawFn, max_files: int = 30) -> SearchOutput:
    fmt = draw(st.sampled_from(FORMATS))
    context = draw(st.integers(1, 3)) if "context" in fmt else 0
    root = draw(st.sampled_from(ROOTS))
    sep = "\\" if root.startswith("C:") else "/"
    files: list[tuple[str, list[int]]] = []
    for i in range(draw(st.integers(1, max_files))):
        dirs = draw(st.lists(st.sampled_from(DIRS), max_size=3))
        name = draw(st.sampled_from(NAMES))
        path = root + "".join(d + sep for d in dirs) + f"{i}{name}"
        # A spaced path whose name has no extension cannot be told from a context line whose
        # text holds `-12-` (see `line::parse_path_row`); real trees rarely have both.
        if " " in path and "." not in name:
            path += ".txt"
        hot = draw(st.sampled_from([4, 4, 4, 40]))
        matches = sorted(draw(st.sets(st.integers(1, 500), min_size=1, max_size=hot)))
        files.append((path, matches))
    text = render(files, fmt, context, draw(st.integers(0, 2**32)))
    return SearchOutput(text, tuple((p, tuple(m)) for p, m in files))


def reference_counts(output: SearchOutput) -> dict[str, int]:
    """The oracle: matching lines per file, straight from what was generated."""
    return {path: len(matches) for path, matches in output.files}


_FILE = re.compile(r"^(.+) \(([\d,]+) match(?:es)?(?:, showing ([\d,]+))?\)$")
_DIR = re.compile(r"^(.+) \((other )?([\d,]+) files?, ([\d,]+) match(?:es)?\)$")
#: Files past the planner's table cap, counted in their directory: `dir/ (N files directly inside, ...)`.
_DIRECT = re.compile(r"^(.+) \((other )?([\d,]+) files? directly inside, ([\d,]+) match(?:es)?\)$")
_TOTALS = re.compile(r"\[shapeclip: ([\d,]+) of ([\d,]+) matched lines? omitted[.;]")
_ROW = re.compile(r"^\d+([:-])")


def is_match_row(line: str) -> bool:
    row = _ROW.match(line)
    return row is not None and row[1] == ":"


def number(s: str) -> int:
    return int(s.replace(",", ""))


def check_map(out: str, truth: dict[str, int]) -> None:
    """Checks every number `out` prints against `truth`, and that every file is accounted for."""
    prefix = ""
    if out.startswith("[shapeclip: paths below are relative to "):
        prefix, out = out.removeprefix("[shapeclip: paths below are relative to ").split("]\n", 1)
    shown = {path.removeprefix(prefix): n for path, n in truth.items()}
    assert all(path.startswith(prefix) for path in truth)
    named: dict[str, int] = {}
    dirs: list[tuple[str, int, int]] = []
    direct: list[tuple[str, int, int]] = []
    # Files past the planner's caps whose path shares no directory with the listed ones.
    elsewhere: list[tuple[int, int]] = []
    shown_matches = 0
    rows_under: int | None = None
    for line in out.splitlines():
        if m := _FILE.match(line):
            assert not rows_under, f"a header promised {rows_under} more match rows before {line!r}"
            path, count, showing = m[1], number(m[2]), m[3]
            assert path in shown, f"{path!r} is not a file of the output"
            assert count == shown[path], f"{path}: printed {count}, true {shown[path]}"
            assert path not in named, f"{path} named twice"
            named[path] = count
            rows_under = number(showing) if showing else None
        elif m := _DIRECT.match(line):
            label = "" if m[1] in ("(top level)", prefix) else m[1]
            direct.append((label, number(m[3]), number(m[4])))
        elif (m := _DIR.match(line)) and m[1] == "other directories":
            elsewhere.append((number(m[3]), number(m[4])))
        elif m := _DIR.match(line):
            label = "" if m[1] in ("all files", prefix) else m[1]
            dirs.append((label, number(m[3]), number(m[4])))
        elif is_match_row(line):
            shown_matches += 1
            if rows_under is not None:
                rows_under -= 1
    assert not rows_under, f"a header promised {rows_under} more match rows"
    # A line for the files directly inside a directory counts those no file line names.
    for label, files, matches in direct:
        inside = [p for p in shown if p.startswith(label) and not re.search(r"[/\\]", p[len(label) :])]
        rest = [p for p in inside if p not in named]
        assert (files, matches) == (len(rest), sum(shown[p] for p in rest)), f"directly inside {label!r}\n{out}"
    # Each directory line counts the files under it that no other line accounts for.
    for label, files, matches in dirs:
        inside = [p for p in shown if p.startswith(label)]
        accounted = [p for p in inside if p in named]
        nested = [(f, m) for d, f, m in dirs if d != label and d.startswith(label)]
        nested += [(f, m) for d, f, m in direct if d.startswith(label)]
        nested += elsewhere if not label else []
        assert files == len(inside) - len(accounted) - sum(f for f, _ in nested), f"files under {label!r}"
        assert matches == sum(shown[p] for p in inside) - sum(named[p] for p in accounted) - sum(
            m for _, m in nested
        ), f"matches under {label!r}\n{out}"
    # Every other line is checked, so with the totals this checks the `other directories` line.
    for path in shown:
        accounted = path in named or any(path.startswith(d) for d, _, _ in dirs + direct)
        assert accounted or elsewhere, f"{path} is not accounted for"
    assert len(named) + sum(f for _, f, _ in dirs + direct) + sum(f for f, _ in elsewhere) == len(truth)
    assert sum(named.values()) + sum(m for _, _, m in dirs + direct) + sum(m for _, m in elsewhere) == sum(
        truth.values()
    )
    totals = _TOTALS.search(out)
    assert totals is not None, out
    assert number(totals[2]) == sum(truth.values())
    assert number(totals[1]) == sum(truth.values()) - shown_matches
    files_said = re.search(r"(?:All|Of) ([\d,]+) files?|; ([\d,]+) files?\]|\. (1) file is listed", out)
    assert files_said is not None
    assert number(files_said[1] or files_said[2] or files_said[3]) == len(truth)
    named_count = r"(?:is named with its exact count|are named with exact match counts)"
    if m := re.search(rf"Of [\d,]+ files?, ([\d,]+) {named_count} and ([\d,]+) (?:is|are) counted", out):
        assert (number(m[1]), number(m[2])) == (len(named), len(truth) - len(named))


def check_fold(out: str, truth: dict[str, int]) -> None:
    """The lossless fold: each path once, then its rows; its match rows are the true counts."""
    prefix = ""
    if out.startswith("[shapeclip: paths below are relative to "):
        prefix, out = out.removeprefix("[shapeclip: paths below are relative to ").split("]\n", 1)
    counts: dict[str, int] = {}
    body = out.removesuffix("[shapeclip: search output grouped by file; nothing omitted]")
    for group in body.split("\n\n"):
        path, *rows = group.splitlines()
        assert prefix + path not in counts, f"{path} folded twice"
        counts[prefix + path] = sum(map(is_match_row, rows))
    assert counts == truth


budgets = st.one_of(st.integers(200, 20_000), st.sampled_from([4000, 16_000]))


@given(output=search_outputs(), budget=budgets)
def test_every_printed_count_equals_the_reference_counter(output: SearchOutput, budget: int) -> None:
    result = shapeclip.compress_detailed(output.text, "grep", budget)
    assert len(result.text) <= budget
    truth = reference_counts(output)
    rows_and_headings = [line for line in output.text.splitlines() if line not in ("", "--")]
    if result.shape == "passthrough" or len(rows_and_headings) < 20:
        return  # fits, or too short to be believed as search output
    if budget < 400 and result.shape == "clip":
        return  # the marker alone would take over a quarter of the budget
    assert result.shape == "search", result.text
    if result.text.endswith("nothing omitted]"):
        check_fold(result.text, truth)
    else:
        check_map(result.text, truth)


@given(output=search_outputs(), data=st.data())
def test_the_fold_is_lossless_when_it_fits(output: SearchOutput, data: st.DataObject) -> None:
    budget = data.draw(st.integers(max(1, len(output.text) * 3 // 4), max(1, len(output.text) - 1)))
    result = shapeclip.compress_detailed(output.text, "grep", budget)
    if result.text.endswith("nothing omitted]"):
        check_fold(result.text, reference_counts(output))
        assert result.omitted_chars == 0


@given(output=search_outputs(), budget=budgets)
def test_same_output_same_result(output: SearchOutput, budget: int) -> None:
    first = shapeclip.compress(output.text, "grep", budget)
    assert shapeclip.compress(output.text, "grep", budget) == first
    assert shapeclip.compress(output.text.encode("utf-8"), "grep", budget) == first


@given(output=search_outputs(max_files=12), budget=budgets, data=st.data())
def test_stream_equals_one_shot(output: SearchOutput, budget: int, data: st.DataObject) -> None:
    points = data.draw(st.lists(st.integers(0, len(output.text.encode("utf-8"))), max_size=8).map(sorted))
    assert_every_path_agrees(output.text, "grep", budget, points)


@given(output=search_outputs(), seed=st.integers(0, 2**32))
def test_mixed_prose_and_search_falls_back_to_the_clip(output: SearchOutput, seed: int) -> None:
    rng = random.Random(seed)
    lines = output.text.splitlines(keepends=True)
    prose = [f"Some prose about the {rng.choice(WORDS)} result number {i}, in words.\n" for i in range(len(lines))]
    mixed = "".join(a + b for a, b in zip(lines, prose, strict=True))
    result = shapeclip.compress_detailed(mixed, "grep", 2000)
    assert result.shape in ("clip", "passthrough")
    assert len(result.text) <= 2000


def test_compiler_diagnostics_are_not_taken_as_search_results() -> None:
    rows = [
        f"pkg/mod{i % 9}.py:{i}: error: Function is missing a type annotation  [no-untyped-def]\n"
        if i % 4
        else f'pkg/mod{i % 9}.py:{i}: note: Use "-> None" if function does not return a value\n'
        for i in range(1, 2001)
    ]
    text = "".join(rows) + "Found 2000 errors in 9 files (checked 12 source files)\n"
    for tool in ("bash", "grep", None):
        result = shapeclip.compress_detailed(text, tool, 4000)
        assert result.shape != "search"
        assert len(result.text) <= 4000
        # The tool's own summary is the last line, and every non-search reader keeps the tail.
        assert "Found 2000 errors in 9 files (checked 12 source files)" in result.text


def test_a_closing_summary_line_survives() -> None:
    files = [(f"src/pkg{i % 7}/mod{i}.py", list(range(1, 2 + i % 5))) for i in range(300)]
    text = render(files, "plain", 0, 1) + "grep: src/secret: Permission denied\n"
    for budget in (4000, 16_000):
        out = shapeclip.compress(text, "grep", budget)
        assert "\ngrep: src/secret: Permission denied\n" in out
        assert "0 of 1 other line (not search results) omitted" in out


def test_a_50_mb_match_line_is_cut_with_an_exact_marker() -> None:
    rows = "".join(f"src/f{i}.rs:{i}:short\n" for i in range(1, 31))
    row_text = "7:" + "y" * 50_000_000
    text = rows + f"src/big.rs:{row_text}\n" + rows.replace("src/", "lib/")
    result = shapeclip.compress_detailed(text, "grep", 4000)
    assert result.shape == "search"
    assert len(result.text) <= 4000
    assert f"7:{'y' * 298} [shapeclip: {len(row_text) - 300:,} more chars of this line]\n" in result.text
    assert "src/big.rs (1 match)" in result.text


@given(
    files=st.integers(1025, 4000),
    dirs=st.one_of(st.integers(1, 60), st.integers(2000, 4000)),
    budget=st.integers(300, 3000),
    seed=st.integers(0, 2**32),
)
def test_files_past_the_table_cap_are_still_counted_exactly(files: int, dirs: int, budget: int, seed: int) -> None:
    """Issue 3: the planner's per-file table holds at most max(1,024, 4 x (budget/12 + 1)) files;
    later files are counted by directory, and every printed number stays exact. Issue 11: so
    with more directories than the table holds totals for, some under a shared top and some not."""
    rng = random.Random(seed)
    top = ["src/", "src/", "lib/", "{d}/"]
    # The number goes first: `10:15:30` and a number after it would no longer be a time.
    tree = [rng.choice(top).format(d=d) + f"{d}{rng.choice(DIRS)}/" + rng.choice(["", "sub/"]) for d in range(dirs)]
    listed: list[tuple[str, list[int]]] = []
    for i in range(files):
        path = f"{tree[i * dirs // files]}{i}{rng.choice(NAMES)}"
        # As in `search_outputs`: a spaced path needs an extension to be told from context.
        if " " in path and "." not in path.rsplit("/", 1)[1]:
            path += ".txt"
        listed.append((path, sorted(rng.sample(range(1, 60), rng.randint(1, 3)))))
    output = SearchOutput(render(listed, "plain", 0, seed), tuple((p, tuple(m)) for p, m in listed))
    result = shapeclip.compress_detailed(output.text, "grep", budget)
    assert len(result.text) <= budget
    assert result.shape == "search", result.text
    check_map(result.text, reference_counts(output))


def test_a_directory_of_files_past_the_cap_is_listed_with_exact_totals() -> None:
    """At budget 1,000 the table holds 1,024 files; `b/c/`'s files come later and have only totals,
    which the roll-up still shows as a directory line with exact counts."""
    listed = [(f"a/f{i}.py", [1, 2]) for i in range(1024)] + [(f"b/c/g{i}.py", [3]) for i in range(3)]
    output = SearchOutput(render(listed, "plain", 0, 7), tuple((p, tuple(m)) for p, m in listed))
    result = shapeclip.compress_detailed(output.text, "grep", 1000)
    assert "\nb/c/ (3 files, 3 matches)\n" in result.text, result.text
    check_map(result.text, reference_counts(output))


def check_search(text: str, files: list[tuple[str, list[int]]], budget: int) -> str:
    """Compresses `text` as grep output and checks every printed number against `files`."""
    result = shapeclip.compress_detailed(text, "grep", budget)
    assert len(result.text) <= budget
    assert result.shape == "search", result.text
    truth = {path: len(matches) for path, matches in files}
    if result.text.endswith("nothing omitted]"):
        check_fold(result.text, truth)
    else:
        check_map(result.text, truth)
    return result.text


def test_issue_11_1_names_with_dash_digits_dash_keep_their_matches() -> None:
    """`scripts/step-1-deploy:1:echo` also reads as a context row of `scripts/step` whose text is
    `deploy:1:echo`; the rows after it decide, and they continue only the match reading."""
    files = [(f"scripts/step-{i}-deploy", list(range(1, 41))) for i in (1, 2, 3)]
    files += [(f"src/app{i}.py", list(range(1, 11))) for i in range(3)]
    text = "".join(f"scripts/step-{i}-deploy:{j}:echo\n" for i in (1, 2, 3) for j in range(1, 41))
    text += "".join(f"src/app{i}.py:{j}:deploy()\n" for i in range(3) for j in range(1, 11))
    out = check_search(text, files, 600)
    assert "150 matched lines omitted; 6 files]" in out, out
    # The same names with context rows, and row texts that quote other rows.
    spread = [(path, matches[::4]) for path, matches in files]
    check_search(render(spread, "context", 1, 11), spread, 600)


def test_issue_11_2_names_holding_a_time_are_not_split_at_it() -> None:
    files = [(f"logs/10:{m:02}:0{s}.log", list(range(1, 61))) for m in (0, 15) for s in range(3)]
    files += [("logs/23:59:59/worker", [3, 4, 9])]
    out = check_search(render(files, "plain", 0, 12), files, 600)
    assert "logs/10 (" not in out


def test_issue_11_3_directory_lines_count_files_whose_directory_found_no_room() -> None:
    """20,000 files in 1,261 directories: at budget 2,000 the table holds 1,024 files and totals
    for 1,024 more directories; a directory past both still counts in its parents' lines."""
    files = [(f"d{i % 97}/s{i % 13}/f{i}.py", [1]) for i in range(20_000)]
    out = check_search(render(files, "plain", 0, 13), files, 2000)
    assert "\nd0/ (207 files, 207 matches)\n" in "\n" + out


def test_issue_11_4_a_first_row_followed_by_a_separator_is_counted() -> None:
    """A first line after nothing may be a `--heading` path, but a `--` after it says it was not."""
    files = [("Makefile", [3])] + [(f"src/f{i}.py", list(range(1, 11))) for i in range(30)]
    text = "Makefile:3:é\n--\n" + render(files[1:], "plain", 0, 14)
    out = check_search(text, files, 600)
    assert "of 301 matched lines omitted" in out, out
    assert "31 files" in out, out


def test_issue_11_14_counts_of_one_are_singular() -> None:
    one_file = "".join(f"src/a.py:{i}:match here\n" for i in range(1, 400))
    assert shapeclip.compress(one_file, "grep", 400).endswith("omitted; 1 file]\n")
    grouped = shapeclip.compress(one_file, "grep", 2000)
    assert "omitted. 1 file is listed with its exact match count; 1 shows its first matches" in grouped, grouped
    # A row is shown up to 300 characters: "1:" and 298 of its 299 x.
    long_row = "src/a.py:1:" + "x" * 299 + "\n"
    long_row += "".join(f"src/{name}.py:{i}:match\n" for name in "abcde" for i in range(2, 60))
    assert "x [shapeclip: 1 more char of this line]\n" in shapeclip.compress(long_row, "grep", 1500)
    one_named = "".join(f"d/f{j}-{'n' * 600}.py:{i}:m\n" for j in range(30) for i in range(1, 3))
    rolled = shapeclip.compress(one_named, "grep", 1500)
    assert "Of 30 files, 1 is named with its exact count and 29 are counted in 1 directory line." in rolled, rolled


def test_issue_27_item_14_a_search_plan_ends_its_last_line() -> None:
    rows = "".join(f"src/pkg_{i % 40}/mod_{i}.py:{i}:    import helper_{i}\n" for i in range(3000))
    for budget in (1000, 2000, 4000, 16_000):
        result = shapeclip.compress_detailed(rows, "grep", budget)
        assert result.shape == "search" and result.text.endswith("]\n"), result.text[-200:]
        assert len(result.text) <= budget
