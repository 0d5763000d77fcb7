"""`shapeclip show` as an agent follows it: every page within its budget (16,000 characters
unless told), numbered as the stored file is, ending in a marker whose command gives the
next page, so that following the markers gives back exactly what was asked, byte for byte."""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from helpers import twin_outputs
from shapeclip import cli
from shapeclip.lookalike import disarm
from shapeclip.store import Store

ROWS = "".join(f"import os  # {i}\n/usr/lib/python3/yaml/x{i}.py: match {i}\n" for i in range(1, 5001))
ROW_LINES = ROWS.encode().splitlines(keepends=True)
#: The closing marker of a page that can be followed: what it left out, and the commands.
MARKER = re.compile(
    r"\[shapeclip: (?P<what>.*) not shown \((?P<chars>[\d,]+) chars?\): over the budget of (?P<budget>[\d,]+) "
    r"characters\. To see them, run (?P<commands>.*)\]\n\Z",
    re.DOTALL,
)
REST = re.compile(r"characters ([\d,]+)-([\d,]+) of line ([\d,]+)(?:'s row)?")
ROWS_LEFT = re.compile(
    r"(?:(?P<rows>[\d,]+) rows? \((?P<matching>[\d,]+) matching\) of )?lines? (?P<a>[\d,]+)(?:-(?P<b>[\d,]+))?\Z"
)


def run(store: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SHAPECLIP_STORE": str(store)}
    return subprocess.run([sys.executable, "-m", "shapeclip", *args], capture_output=True, env=env, timeout=60)


def show_here(store: Path, args: list[str], status: int = 0) -> bytes:
    """What `shapeclip show ARGS` prints, run in this process (a follow takes many pages)."""
    out = io.TextIOWrapper(io.BytesIO())
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SHAPECLIP_STORE", str(store))
        patch.setenv("SHAPECLIP_LEDGER", "off")
        patch.setattr(sys, "stdout", out)
        assert cli.main(args) == status
    assert isinstance(out.buffer, io.BytesIO)
    return out.buffer.getvalue()


def number(text: str) -> int:
    return int(text.replace(",", ""))


def chars(data: bytes) -> int:
    """Characters as `show` counts them: a byte that is not UTF-8 is one."""
    return len(data.decode("utf-8", "surrogateescape"))


def follow(store: Path, *args: str, budget: int | None) -> tuple[bytes, int]:
    """Everything `show` gives when each page's marker is followed, command by command, and
    how many pages that took; every page is checked to keep its budget, and every marker to
    name exactly what its commands print."""
    return followed(store, ["show", *args, *([] if budget is None else ["--budget", str(budget)])])


def budget_of(command: list[str]) -> int:
    return int(command[command.index("--budget") + 1]) if "--budget" in command else 16_000


def followed(store: Path, command: list[str]) -> tuple[bytes, int]:
    page = show_here(store, command)
    asked = budget_of(command)
    assert chars(page) <= asked
    # Rows are disarmed, so the first `[shapeclip: ` of a page opens its own marker.
    start = page.find(b"[shapeclip: ")
    if start < 0:
        # Nor a terse marker, which cannot be followed: the budget was to fit the full one.
        assert not re.search(rb"\[lines? [\d-]+ not shown(?: in part)?\]\n\Z|\xe2\x80\xa6\Z", page), page[-200:]
        return page, 1
    found = MARKER.fullmatch(page[start:].decode("utf-8", "surrogateescape"))
    assert found is not None, page[start:]
    commands = [shlex.split(line)[1:] for line in found["commands"].split(", then ")]
    # However long a row, the way back keeps the budget it was asked.
    assert all(budget_of(again) == asked for again in commands)
    results = [followed(store, again) for again in commands]
    given = [result for result, _ in results]
    assert_names_what_it_left_out(found, given)
    return page[:start] + b"".join(given), 1 + sum(pages for _, pages in results)


def assert_names_what_it_left_out(marker: re.Match[str], given: list[bytes]) -> None:
    """The marker's numbers are those of what its commands print, each command's in turn."""
    assert number(marker["chars"]) == sum(chars(part) for part in given)
    what, parts = marker["what"], list(given)
    rest = REST.match(what)
    if rest is not None:
        assert chars(parts.pop(0)) == number(rest[2]) - number(rest[1]) + 1
        what = what[rest.end() :].removeprefix(" and ")
    if what:
        assert_names_its_rows(ROWS_LEFT.fullmatch(what), parts.pop(0))
    assert not parts


def assert_names_its_rows(named: re.Match[str] | None, given: bytes) -> None:
    assert named is not None
    a = number(named["a"])
    b = number(named["b"]) if named["b"] else a
    rows = [row for row in stored_lines(given) if row != b"--\n"]
    if named["rows"] is None:
        assert len(rows) == b - a + 1
        return
    numbers = [int(row.split(b":", 1)[0].split(b"-", 1)[0]) for row in rows]
    assert len(rows) == number(named["rows"]) and a <= numbers[0] and numbers[-1] == b
    assert sum(bool(re.match(rb"\d+:", row)) for row in rows) == number(named["matching"])


def grep_n(lines: list[bytes], pattern: re.Pattern[str], context: int, first: int = 1, last: int = 10**9) -> bytes:
    """What `grep -n -C context` prints of the whole of `lines`, for lines `first` to `last`,
    look-alike markers disarmed, with `--` first when the line before `first` is a row and
    `first` is not."""
    bodies = [line.removesuffix(b"\n") for line in lines]
    hits = {n for n, body in enumerate(bodies, 1) if pattern.search(body.decode("utf-8", "replace"))}
    shown = {m for n in hits for m in range(n - context, n + context + 1) if 1 <= m <= len(lines)}
    previous = first - 1 if first - 1 in shown else None
    out = b""
    for n in sorted(m for m in shown if first <= m <= last):
        if context and previous is not None and n > previous + 1:
            out += b"--\n"
        body = disarm(bodies[n - 1].decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        out += f"{n}{':' if n in hits else '-'}".encode() + body + b"\n"
        previous = n
    return out


def stored_lines(data: bytes) -> list[bytes]:
    """The lines of `data` as the store numbers them: split at `\\n` only."""
    *lines, tail = data.split(b"\n")
    return [line + b"\n" for line in lines] + ([tail] if tail else [])


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "store"
    return path, Store(path).put(ROWS, "bash").id


def test_issue_27_item_1_grep_with_a_budget_keeps_rows_numbered_as_stored(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    page = run(path, "show", entry_id, "--grep", "yaml/", "--budget", "600").stdout.decode()
    rows, marker = page.splitlines()[:-1], page.splitlines()[-1]
    assert rows and all(re.fullmatch(r"(\d+):/usr/lib/python3/yaml/x\d+\.py: match \d+", row) for row in rows)
    assert marker.startswith("[shapeclip: ") and "not shown" in marker
    given, pages = follow(path, entry_id, "--grep", "yaml/", "--lines", "1:300", budget=600)
    assert given == grep_n(ROW_LINES, re.compile("yaml/"), 0, 1, 300) and pages > 2


def test_issue_27_item_2_show_has_a_default_budget(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    page = run(path, "show", entry_id, "--grep", "import")
    assert 15_000 < len(page.stdout.decode()) <= 16_000
    given, pages = follow(path, entry_id, "--grep", "import", budget=None)
    assert given == grep_n(ROW_LINES, re.compile("import"), 0) and pages > 1


@pytest.mark.parametrize(
    ("args", "budget"),
    [
        (["--lines", "5000:6000"], 2_000),
        (["--lines", "9990:20000"], 300),
        (["--grep", "5", "-C", "2", "--lines", "100:600"], 1_000),
        (["--grep", "x1", "-C", "1", "--lines", "1:2000"], 2_000),
        (["--grep", "x1", "-C", "3", "--lines", "1:300"], 450),
    ],
)
def test_issue_27_item_3_following_the_markers_of_show_gives_exactly_what_was_asked(
    stored: tuple[Path, str], args: list[str], budget: int
) -> None:
    path, entry_id = stored
    given, pages = follow(path, entry_id, *args, budget=budget)
    if "--grep" in args:
        context = int(args[args.index("-C") + 1])
        first, _, last = args[args.index("--lines") + 1].partition(":")
        assert given == grep_n(ROW_LINES, re.compile(args[1]), context, int(first), int(last))
    else:
        first, _, last = args[1].partition(":")
        assert given == "".join(ROWS.splitlines(keepends=True)[int(first) - 1 : int(last)]).encode()
    assert pages > 1


def test_issue_27_item_4_bad_budgets_and_huge_contexts_are_no_tracebacks(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    for args in (["--budget", "0"], ["--budget", "-3"], ["-C", "1e3"], ["-C", "\u00b2"]):
        done = run(path, "show", entry_id, *args)
        assert done.returncode == 2 and b"usage:" in done.stderr and b"Traceback" not in done.stderr, args
    done = run(path, "show", entry_id, "--grep", "5", "-C", "99999999999999999999", "--budget", "2000")
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert len(done.stdout.decode()) <= 2000 and done.stdout.startswith(b"1-import os  # 1\n")
    for tiny in ("1", "5", "30"):
        done = run(path, "show", entry_id, "--budget", tiny)
        assert done.returncode == 0 and 0 < len(done.stdout.decode()) <= int(tiny)


def test_issue_27_item_5_show_takes_a_unique_prefix_and_tells_unknown_from_evicted(tmp_path: Path) -> None:
    path = tmp_path / "store"
    store = Store(path, max_bytes=30)
    evicted, kept = store.put("first output\n"), store.put("second output, longer\n")
    assert run(path, "show", kept.id[:6]).stdout == b"second output, longer\n"
    gone = run(path, "show", evicted.id[:8])
    assert gone.returncode == 1 and gone.stdout == b""
    assert f"no entry {evicted.id} in {path}: the stored output was evicted; run the command again".encode() in (
        gone.stderr
    )
    for unknown in ("0123456789ab", "nonsense"):
        done = run(path, "show", unknown)
        assert done.returncode == 1 and b"evicted" not in done.stderr
        assert f"no entry in {path} has, or recently had, an ID starting {unknown}".encode() in done.stderr


def test_issue_27_item_5_an_ambiguous_prefix_lists_the_candidates(tmp_path: Path) -> None:
    path = tmp_path / "store"
    first, second, shared = twin_outputs()
    candidates = sorted(Store(path).put(t).id for t in (first, second))
    done = run(path, "show", shared)
    assert done.returncode == 1 and done.stdout == b""
    assert f"{shared} is the start of 2 IDs: {', '.join(candidates)}; give more of the ID".encode() in done.stderr


def test_issue_27_item_6_show_gives_the_stored_bytes_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "store"
    data = b"plain\n\xff\xfe bytes that are not UTF-8\nsplit \xe2\x82 euro\n"
    entry_id = Store(path).put(data).id
    assert run(path, "show", entry_id).stdout == data
    assert run(path, "show", entry_id, "--lines", "2:3").stdout == data[6:]
    assert run(path, "show", entry_id, "--grep", "bytes").stdout == b"2:\xff\xfe bytes that are not UTF-8\n"


def test_issue_27_item_3_context_after_a_match_survives_a_page_break(tmp_path: Path) -> None:
    path = tmp_path / "store"
    text = "".join(("MATCH" if n % 10 == 0 else "filler") + f" {n}\n" for n in range(1, 201))
    entry_id = Store(path).put(text).id
    expected = grep_n(text.encode().splitlines(keepends=True), re.compile("MATCH"), 3)
    for budget in range(300, 420, 7):
        assert follow(path, entry_id, "--grep", "MATCH", "-C", "3", budget=budget)[0] == expected, budget


# Pieces of lines that matter to `show`: several bytes to a character, bytes that are not
# UTF-8, a carriage return (no line end here), brackets.
PIECES = [b"a", b"b", b" ", b"ab", b"(", "\u00e9".encode(), "\U0001f600".encode(), b"\xff", b"\r"]
short_lines = st.lists(st.sampled_from(PIECES), max_size=8).map(b"".join)
long_lines = st.integers(150, 2_000).map(lambda n: b"ab(\xc3\xa9" * n)
outputs = st.builds(
    lambda lines, end: b"\n".join(lines) + (b"\n" if end else b""),
    st.lists(
        st.sampled_from([False] * 9 + [True]).flatmap(lambda long: long_lines if long else short_lines), max_size=40
    ),
    st.booleans(),
)
windows = st.none() | st.tuples(st.integers(1, 45), st.integers(0, 45))
PATTERNS = [("a", False), ("^b", False), ("ab", False), ("a$", False), ("\u00e9", False), ("b\\(", False)]
PATTERNS += [("(", True), ("a b", True), ("\U0001f600", True)]


def window_args(window: tuple[int, int] | None) -> tuple[list[str], int, int]:
    if window is None:
        return [], 1, 10**9
    first, more = window
    return ["--lines", f"{first}:{first + more}"], first, first + more


@given(
    data=outputs,
    case=st.sampled_from(PATTERNS),
    context=st.integers(0, 4),
    budget=st.integers(400, 2_500),
    window=windows,
)
def test_following_the_markers_of_a_grep_gives_exactly_the_rows_of_one_grep(
    tmp_path: Path, data: bytes, case: tuple[str, bool], context: int, budget: int, window: tuple[int, int] | None
) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put(data).id
    pattern, fixed = case
    lines, first, last = window_args(window)
    args = [entry_id, *(["-F"] if fixed else []), "--grep", pattern, "-C", str(context), *lines]
    expected = grep_n(stored_lines(data), re.compile(re.escape(pattern) if fixed else pattern), context, first, last)
    if not expected:
        assert show_here(tmp_path / "store", ["show", *args], status=1) == b""
        return
    assert follow(path, *args, budget=budget)[0] == expected
    assert follow(path, *args, budget=None)[0] == expected


@given(data=outputs, budget=st.integers(400, 2_500), window=windows)
def test_following_the_markers_of_show_gives_exactly_the_lines_however_long(
    tmp_path: Path, data: bytes, budget: int, window: tuple[int, int] | None
) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put(data).id
    lines, first, last = window_args(window)
    expected = b"".join(stored_lines(data)[first - 1 : last])
    if not expected:
        assert show_here(path, ["show", entry_id, *lines], status=1) == b""
        return
    assert follow(path, entry_id, *lines, budget=budget)[0] == expected


def test_a_line_longer_than_the_budget_comes_back_a_page_of_characters_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "store"
    text = "short\n" + "long " * 20_000 + "\nend\n"
    entry_id = Store(path).put(text).id
    page = show_here(path, ["show", entry_id, "--lines", "2:3", "--budget", "2000"]).decode()
    shown, marker = page.split("[shapeclip: ")
    assert len(page) <= 2_000 and shown and ("long " * 20_000).startswith(shown)
    assert marker.startswith(f"characters {len(shown) + 1:,}-100,001 of line 2 and line 3 not shown ")
    assert f"run shapeclip show {entry_id} --lines 2:2 --chars {len(shown) + 1}:100001 --budget 2000, then " in marker
    given, pages = follow(path, entry_id, budget=2_000)
    assert given == text.encode() and pages > 50


def test_chars_cuts_one_row_and_says_so_otherwise(tmp_path: Path) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put("one\ntwo\n").id
    assert show_here(path, ["show", entry_id, "--lines", "2:2", "--chars", "2:3"]) == b"wo"
    for args in (["--chars", "1:2"], ["--lines", "1:2", "--chars", "1:2"], ["--lines", "1", "--chars", "+1:2"]):
        done = run(path, "show", entry_id, *args)
        assert done.returncode == 2 and b"Traceback" not in done.stderr, args
    assert b"--chars A:B cuts one row: give it with --lines N:N" in run(path, "show", entry_id, "--chars", "1:2").stderr
    done = run(path, "show", entry_id, "--lines", "2", "--chars", "5:9")
    assert done.returncode == 1 and done.stdout == b""
    assert b"line 2 has 4 characters: --chars 5:9 starts past its end" in done.stderr


def test_a_pattern_that_starts_with_a_dash_gives_a_command_that_runs(tmp_path: Path) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put("".join(f"cc -Werror -c x{i}.c\nok\n" for i in range(100))).id
    page = run(path, "show", entry_id, "--grep", "-Werror", "--budget", "400")
    assert page.returncode == 0 and page.stdout.startswith(b"1:cc -Werror -c x0.c\n3:cc -Werror")
    command = page.stdout.decode().rpartition("To see them, run shapeclip ")[2].removesuffix("]\n")
    env = {**os.environ, "SHAPECLIP_STORE": str(path)}
    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m shapeclip {command}", shell=True, capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 0 and b"Werror" in done.stdout and b"usage:" not in done.stderr, done.stderr


@given(
    pattern=st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00\n"), min_size=1, max_size=12)
)
def test_the_command_in_a_grep_marker_gives_back_the_pattern_whatever_it_holds(tmp_path: Path, pattern: str) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put("".join(f"{pattern} {i}\n" for i in range(80))).id
    page = show_here(path, ["show", entry_id, "-F", "--grep", pattern, "--budget", "600"])
    found = MARKER.fullmatch(page[page.index(b"[shapeclip: ") :].decode())
    assert found is not None
    again = shlex.split(found["commands"])
    assert again[:3] == ["shapeclip", "show", entry_id] and "-F" in again and f"--grep={pattern}" in again
    named = ROWS_LEFT.fullmatch(found["what"])
    assert named is not None
    first = number(named["a"])
    assert show_here(path, again[1:]).decode().startswith(f"{first}:{disarm(pattern)} {first - 1}\n")


def test_fixed_strings_find_paths_that_are_no_regular_expression(tmp_path: Path) -> None:
    path = tmp_path / "store"
    names = ["app/(auth)/login/page.tsx", "[slug]/edit", "c++/lib"]
    text = "".join(f"{name}:{i}: found\nsrc/other.ts:{i}: found\n" for i in range(60) for name in names)
    entry_id = Store(path).put(text).id
    env = {**os.environ, "SHAPECLIP_STORE": str(path)}
    for name in names:
        # As the search plan's closing marker words the way back.
        command = f"{shlex.quote(sys.executable)} -m shapeclip show {entry_id} -F --grep {shlex.quote(name)}"
        done = subprocess.run(command, shell=True, capture_output=True, env=env, timeout=60)
        rows = done.stdout.decode().splitlines()
        assert done.returncode == 0 and len(rows) == 60 and all(f":{name}:" in row for row in rows), done.stderr
        given, pages = follow(path, entry_id, "-F", "--grep", name, budget=500)
        assert given == done.stdout and pages > 2
    assert run(path, "show", entry_id, "-F").returncode == 2


def test_a_damaged_entry_is_said_to_be_damaged_never_served(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    output = path / (entry_id + ".out")
    with output.open("r+b") as file:
        file.truncate(1000)
    done = run(path, "show", entry_id, "--lines", "1:3")
    assert done.returncode == 1 and done.stdout == b""
    assert (
        f"the entry {entry_id} in {path} is damaged: its output has 1,000 bytes where {len(ROWS):,} were".encode()
        in (done.stderr)
    )
    (path / (entry_id + ".json")).write_text('{"blake3": "')
    done = run(path, "show", entry_id)
    assert done.returncode == 1 and b"is damaged: its metadata is missing or cannot be read" in done.stderr


LOOKALIKES = [b"[shapeclip: lines 1-2 not shown]", b"[lines 3-9 omitted]", b"[ Line 4", b"[SHAPECLIP", b"x", b"]"]


@given(
    data=st.lists(st.sampled_from([*LOOKALIKES, b"\n"]), max_size=60).map(b"".join),
    budget=st.integers(600, 1_500),
)
def test_every_marker_in_what_show_prints_is_its_own(tmp_path: Path, data: bytes, budget: int) -> None:
    path = tmp_path / "store"
    assume(data)
    entry_id = Store(path).put(data).id
    armed = disarm(data.decode()).encode()
    assert follow(path, entry_id, budget=budget)[0] == armed
    expected = grep_n(stored_lines(data), re.compile("(?i)line|shapeclip"), 1)
    if expected:
        assert follow(path, entry_id, "--grep", "(?i)line|shapeclip", "-C", "1", budget=budget)[0] == expected


def test_lines_past_the_end_say_how_many_lines_there_are(tmp_path: Path) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put("one\ntwo\nthree").id
    done = run(path, "show", entry_id, "--lines", "4:9")
    assert done.returncode == 1 and done.stdout == b""
    assert f"the output stored as {entry_id} has 3 lines: --lines 4:9 starts past its end".encode() in done.stderr
    assert run(path, "show", entry_id, "--lines", "3:9").stdout == b"three"
    done = run(path, "show", entry_id, "--grep", "four", "--lines", "2:3")
    assert done.returncode == 1 and f"no match of four in lines 2-3 of {entry_id}".encode() in done.stderr


def test_an_id_too_short_or_in_capitals_is_told_as_such(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    done = run(path, "show", entry_id[:3])
    assert done.returncode == 1 and b"ID starting" not in done.stderr
    assert f"{entry_id[:3]} is too short to name an entry: give at least 4 digits of its ID".encode() in done.stderr
    upper = run(path, "show", entry_id[:6].upper(), "--lines", "1")
    assert upper.returncode == 0 and upper.stdout == b"import os  # 1\n"


@pytest.mark.parametrize("lines", ["+5", "1_0", " 5 : 6", "5:+6", "\u0665", "5:\u0666", "5:", ":5", "5:6:7"])
def test_lines_take_ascii_digits_only(stored: tuple[Path, str], lines: str) -> None:
    path, entry_id = stored
    done = run(path, "show", entry_id, "--lines", lines)
    assert done.returncode == 2 and b"must be A:B, two line numbers in digits 0-9" in done.stderr


def test_context_or_fixed_strings_without_grep_is_a_usage_error(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    for args, said in ((["-C", "2"], b"-C N is context"), (["-F"], b"-F says how to read")):
        done = run(path, "show", entry_id, *args)
        assert done.returncode == 2 and said in done.stderr and done.stdout == b"", args


def test_a_marker_names_one_line_as_a_line(tmp_path: Path) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put("x" * 100 + "\n" + "y" * 300 + "\n").id
    page = show_here(path, ["show", entry_id, "--budget", "400"]).decode()
    assert page.startswith("x" * 100 + "\n[shapeclip: line 2 not shown (301 chars): ")
    assert f"run shapeclip show {entry_id} --lines 2:2 --budget 400]" in page
