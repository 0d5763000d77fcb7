"""The diff planner from Python, on generated unified diffs (`git diff` and `git log -p` forms,
removed lines that start with `--` and `++`, files without a newline at the end): whatever the
budget, a diff plan names every changed file (or counts those it cannot name), keeps every hunk
header while the headers fit, keeps each run of context lines whole or not at all and each run of
changed lines whole or by the first lines of its removed and its added lines, shows exactly the input's
lines outside its omitted ranges with gaps that count what they hide, stays within the budget,
and is the same however the output is streamed. Commit logs without patches (`git log`, `--stat`,
`--oneline`) name their commits from the first on, each with its subject, and count the rest."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees, streamed

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

BODY = st.sampled_from([" context line", "-removed line", "+added line", "--- a removed sql comment", "+++ added", ""])


@st.composite
def hunks(draw: st.DrawFn, start: int, name: str) -> str:
    body = draw(st.lists(BODY, min_size=1, max_size=30))
    old = sum(1 for line in body if not line.startswith("+"))
    new = sum(1 for line in body if not line.startswith("-"))
    rows = [line if line else " " for line in body]
    # The function name makes each hunk header unique, so the test can find its own hunk.
    return f"@@ -{start},{old} +{start},{new} @@ def {name}():\n" + "".join(f"{r}\n" for r in rows)


@st.composite
def diffs(draw: st.DrawFn) -> str:
    out = []
    if draw(st.booleans()):
        out.append("commit 4d8116aa70dea822ac83e45dcfd59c0cbe4b5177\nAuthor: A <a@b>\n\n    A message.\n\n")
    for f in range(draw(st.integers(1, 12))):
        out.append(f"diff --git a/src/m{f}.py b/src/m{f}.py\nindex 3b18e51..a9c2f1d 100644\n")
        out.append(f"--- a/src/m{f}.py\n+++ b/src/m{f}.py\n")
        for h in range(draw(st.integers(1, 4))):
            out.append(draw(hunks(1 + 40 * h, f"f{f}_{h}")))
    return "".join(out)


def runs(text: str) -> list[range]:
    """The line numbers of each run of changed lines (`+`, `-`) and of context lines in the hunk
    bodies of `text`, a diff as `diffs` makes it (no hunk is cut short)."""
    found: list[range] = []
    old = new = 0
    kind = None
    for no, line in enumerate(text.splitlines(), 1):
        if old + new == 0:
            counts = re.match(r"@@ -\d+,(\d+) \+\d+,(\d+) @@", line)
            if counts:
                old, new, kind = int(counts[1]), int(counts[2]), None
            continue
        changes = line[:1] in ("+", "-")
        if changes == kind:
            found[-1] = range(found[-1].start, no + 1)
        else:
            found.append(range(no, no + 1))
            kind = changes
        old -= line[:1] != "+"
        new -= line[:1] != "-"
    return found


def sides(text: str, run: range) -> list[range]:
    """A run of changed lines as its removed lines and the added ones after them (the first
    `+` after a `-` opens the second), or a run of context as it is."""
    lines = text.splitlines()
    for no in run:
        if no > run.start and lines[no - 1].startswith("+") and lines[no - 2].startswith("-"):
            return [range(run.start, no), range(no, run.stop)]
    return [run]


@given(text=diffs(), budget=st.integers(400, 6000))
def test_a_diff_plan_names_every_file_and_shows_the_beginnings_of_runs(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert len(result.text) <= budget
    if result.shape != "diff":
        return
    # A run of context is shown whole or replaced by a marker; a run of changes too, or else
    # its removed lines and the added ones after them each show their first lines.
    omitted = [range(a, b + 1) for a, b in result.omitted_ranges]
    lines = text.splitlines()
    for run in runs(text):
        hidden = [any(no in gap for gap in omitted) for no in run]
        if not lines[run.start - 1].startswith(("+", "-")):
            assert sum(hidden) in (0, len(run)), (run, result.omitted_ranges)
            continue
        for side in sides(text, run):
            shown = [not any(no in gap for gap in omitted) for no in side]
            assert shown == sorted(shown, reverse=True), (side, result.omitted_ranges)


def test_the_changed_lines_of_every_hunk_come_before_their_context() -> None:
    context = "".join(f"     unchanged line {i} of the function around the change\n" for i in range(12))
    text = "diff --git a/app.py b/app.py\nindex 1..2 100644\n--- a/app.py\n+++ b/app.py\n"
    for h in range(6):
        header = f"@@ -{1 + 40 * h},25 +{1 + 40 * h},25 @@ def f{h}():\n"
        text += f"{header}{context}-    old_{h}()\n+    new_{h}()\n{context}"
    result = shapeclip.compress_detailed(text, "bash", 2000)
    assert result.shape == "diff" and len(result.text) <= 2000
    for h in range(6):
        assert f"-    old_{h}()\n+    new_{h}()\n" in result.text, result.text


MARKER = re.compile(r"^\[(?:lines? \d|shapeclip: |[\d,]+ lines in )")


def is_marker(line: str) -> bool:
    """Whether a line of the output is one of shapeclip's (the generated diffs hold none)."""
    return MARKER.match(line) is not None


@given(text=diffs(), budget=st.integers(400, 6000))
def test_kept_lines_are_the_input_lines_outside_the_omitted_ranges(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    if result.shape != "diff":
        return
    ranges = result.omitted_ranges
    outside = [line for no, line in enumerate(text.splitlines(), 1) if not any(a <= no <= b for a, b in ranges)]
    assert [line for line in result.text.splitlines() if not is_marker(line)] == outside
    # Each gap's label counts the hunks and the added and removed lines it hides, exactly.
    lines = text.splitlines()
    labels = re.findall(r"^\[lines? (\d+)(?:-(\d+))? omitted: ([^]]*)\]$", result.text, re.MULTILINE)
    for first, last, label in labels:
        hidden = lines[int(first) - 1 : int(last or first)]
        hunks = sum(1 for line in hidden if line.startswith("@@ "))
        said = dict((noun.rstrip("s"), n) for n, noun in re.findall(r"(\d+) (hunks?|files?|commits?)", label))
        assert int(said.get("hunk", 0)) == hunks, (label, hidden)
        assert int(said.get("file", 0)) == sum(1 for line in hidden if line.startswith("diff --git "))


@given(text=diffs(), budget=st.integers(400, 6000))
def test_every_file_is_named_or_counted(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    if result.shape != "diff":
        return
    kept = set(result.text.splitlines())
    missing = [line for line in re.findall(r"^diff --git .*$", text, re.MULTILINE) if line not in kept]
    if missing:
        # Only the last names go, all in the last gap, which says how many.
        assert re.search(rf" omitted: (?:1 commit, )?{len(missing)} files?, ", result.text), result.text


@given(text=diffs(), budget=st.integers(400, 6000))
def test_every_hunk_header_is_kept_while_the_headers_fit(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    headers = re.findall(r"^(?:@@ |diff --git |commit |    A message).*$", text, re.MULTILINE)
    files_and_hunks = len(headers)
    # Generous room for a marker after each header and for the closing marker (at most half
    # the budget): the file and hunk headers, the commit and its subject then fit.
    if sum(len(h) + 1 for h in headers) + 40 * (files_and_hunks + 2) <= budget // 2 and result.shape == "diff":
        kept = set(result.text.splitlines())
        assert all(h in kept for h in headers), result.text


@given(text=diffs(), budget=st.integers(400, 6000))
def test_stream_equals_one_shot(text: str, budget: int) -> None:
    assert_every_path_agrees(text, "bash", budget)


def test_a_small_diff_that_fits_is_untouched() -> None:
    text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
    assert shapeclip.compress(text, "bash", 4000) == text


@st.composite
def long_logs(draw: st.DrawFn) -> str:
    """A `git log -p` of 45 to 90 commits, each of one to three files of one to three hunks of
    20 to 40 lines: headers past four times a budget of 4,000."""
    shift = draw(st.integers(0, len(BODY_LINES) - 1))
    out = []
    hunk_sizes = st.lists(st.integers(20, 40), min_size=1, max_size=3)
    for c, files in enumerate(draw(st.lists(st.lists(hunk_sizes, min_size=1, max_size=3), min_size=45, max_size=90))):
        out.append(f"commit {c:040x}\nAuthor: A <a@b>\nDate:   Thu Nov 26 2026\n\n    Subject {c}\n\n")
        for f, sizes in enumerate(files):
            out.append(f"diff --git a/src/c{c}/m{f}.py b/src/c{c}/m{f}.py\nindex 3b18e51..a9c2f1d 100644\n")
            out.append(f"--- a/src/c{c}/m{f}.py\n+++ b/src/c{c}/m{f}.py\n")
            for h, size in enumerate(sizes):
                body = [BODY_LINES[(shift + c + i) % len(BODY_LINES)] for i in range(size)]
                old = sum(1 for line in body if not line.startswith("+"))
                new = sum(1 for line in body if not line.startswith("-"))
                out.append(f"@@ -{1 + 50 * h},{old} +{1 + 50 * h},{new} @@ def f{h}():\n")
                out.extend(f"{line}\n" for line in body)
    return "".join(out)


BODY_LINES = [" context line", "-removed line", "+added line", "--- a removed sql comment", "+++ added", " "]


def read_diff(text: str) -> list[str]:
    """What each line of a diff is, read as the hunk headers' counts say: `commit`, `file`,
    `hunk`, `+`, `-`, ` ` (a body's other lines) or `header`; the reference the counts are
    checked against."""
    kinds, old, new = [], 0, 0
    for line in text.split("\n"):
        if line.startswith("\\") and kinds and len(kinds[-1]) == 1:
            kind = "\\"  # `\ No newline at end of file`: in the body, neither old nor new
        elif old + new > 0:
            kind = line[:1] if line[:1] in "+-" else " "
            old -= kind != "+"
            new -= kind != "-"
        elif m := re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@", line):
            kind, old, new = "hunk", int(m[1] or 1), int(m[2] or 1)
        else:
            kind = "commit" if line.startswith("commit ") else "file" if line.startswith("diff ") else "header"
        kinds.append(kind)
    return kinds


def diff_label(kinds: list[str]) -> str:
    """The label of a gap that hides lines of these kinds (`kind.rs`'s `Counts::label`)."""
    parts = [
        f"{n:,} {noun if n == 1 else noun + 's'}" for noun in ("commit", "file", "hunk") if (n := kinds.count(noun))
    ]
    if any(len(k) == 1 for k in kinds):
        parts.append(f"+{kinds.count('+'):,} -{kinds.count('-'):,}")
    return ": " + ", ".join(parts) if parts else ""


@settings(max_examples=25, deadline=None)
@given(text=long_logs(), budget=st.integers(2000, 4000), cut=st.integers(1, 10**6))
def test_headers_past_four_times_the_budget_get_names_and_exact_counts(text: str, budget: int, cut: int) -> None:
    kinds = read_diff(text)
    lines = text.split("\n")
    assert sum(len(line) + 1 for line, kind in zip(lines, kinds, strict=True) if len(kind) > 1) > 4 * budget
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert len(result.text) <= budget
    assert result.shape == "diff", result.text
    # Every gap's label counts exactly what it hides; the last one's is a line of its own.
    labels = re.findall(r"^\[lines? ([\d,]+)(?:-([\d,]+))? omitted(: [^]]*)?\]$", result.text, re.MULTILINE)
    ranges = result.omitted_ranges
    if len(labels) < len(ranges):
        a, b = ranges[-1]
        labels.append((str(a), str(b), diff_label(kinds[a - 1 : b]) and "(the closing marker)"))
    assert len(labels) == len(ranges)
    for (first, last, label), (a, b) in zip(labels, ranges, strict=True):
        assert (int(first.replace(",", "")), int((last or first).replace(",", ""))) == (a, b)
        assert label == diff_label(kinds[a - 1 : b]), (label, a, b)
    # The files named are the first ones; the rest are counted in the last gap.
    files = [line for line, kind in zip(lines, kinds, strict=True) if kind == "file"]
    named = [line for line in result.text.splitlines() if line.startswith("diff --git ")]
    assert named == files[: len(named)] and named
    a, b = ranges[-1]
    assert kinds[a - 1 : b].count("file") == len(files) - len(named)
    # The stream gives what one call gives, in chunks of any size.
    chunks = [text[i : i + cut % 5000 + 1] for i in range(0, len(text), cut % 5000 + 1)]
    assert streamed(chunks, "bash", budget) == result.text


SUBJECTS = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=90)


@st.composite
def commit_logs(draw: st.DrawFn) -> str:
    """`git log` (with or without `--stat`) or `git log --oneline` of 1 to 300 commits."""
    n = draw(st.integers(1, 300))
    # A subject that opens with `*` would read as a checksum's binary-mode path, and one that
    # opens with a number and `)` as the line number of `git blame -s` (`abc1234 12) code`).
    subjects = [re.sub(r"^\d+\)", "x", draw(SUBJECTS).strip().lstrip("*").strip()) or "x" for _ in range(min(n, 5))]
    if draw(st.booleans()):
        return "".join(f"{0xABC0000 + c:07x} {subjects[c % len(subjects)]}\n" for c in range(n))
    body = draw(st.integers(0, 12))
    out = []
    for c in range(n):
        out.append(f"commit {c:040x}\nAuthor: A U Thor <a@u.th>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n")
        out.append(f"    {subjects[c % len(subjects)]}\n\n" + "    Why it was made.\n" * body)
        if c % 3 == 0:
            out.append(f"\n src/m{c}.py | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)\n")
        out.append("\n")
    return "".join(out)


def is_commit(line: str) -> bool:
    return re.match(r"(commit [0-9a-f]{40}|[0-9a-f]{7} )", line) is not None


@given(text=commit_logs(), budget=st.integers(400, 6000))
def test_a_commit_log_names_its_commits_with_their_subjects_from_the_first(text: str, budget: int) -> None:
    result = shapeclip.compress_detailed(text, "bash", budget)
    assert len(result.text) <= budget
    if len(text) <= budget:
        assert result.text == text
        return
    assert result.shape == "diff", result.text
    lines = text.splitlines()
    ranges = result.omitted_ranges
    outside = [line for no, line in enumerate(lines, 1) if not any(a <= no <= b for a, b in ranges)]
    assert [line for line in result.text.splitlines() if not is_marker(line)] == outside
    commits = [line for line in lines if is_commit(line)]
    named = [line for line in outside if is_commit(line)]
    assert named == commits[: len(named)]
    # A full log's commit comes with its subject: the first indented line after it.
    for no, line in enumerate(lines):
        if line.startswith("commit ") and line in named:
            subject = next(s for s in lines[no + 1 :] if s.startswith("    "))
            assert subject in outside, (subject, result.text)
    # Each gap's label counts the commits it hides.
    for first, last, label in re.findall(r"^\[lines? (\d+)(?:-(\d+))? omitted(: [^]]*)?\]$", result.text, re.M):
        hidden = sum(1 for line in lines[int(first) - 1 : int(last or first)] if is_commit(line))
        assert label == (f": {hidden:,} commit{'s' * (hidden != 1)}" if hidden else ""), (label, first, last)


@settings(max_examples=40)
@given(text=commit_logs(), budget=st.integers(400, 6000))
def test_a_commit_log_streams_as_one_call(text: str, budget: int) -> None:
    assert_every_path_agrees(text, "bash", budget)
