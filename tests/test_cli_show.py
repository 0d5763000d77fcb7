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

from helpers import twin_outputs
from shapeclip import cli
from shapeclip.store import Store

ROWS = "".join(f"import os  # {i}\n/usr/lib/python3/yaml/x{i}.py: match {i}\n" for i in range(1, 5001))
NEXT = re.compile(r"To see them, run (shapeclip show [^\]]*)\]\n?$")


def run(store: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SHAPECLIP_STORE": str(store)}
    return subprocess.run([sys.executable, "-m", "shapeclip", *args], capture_output=True, env=env, timeout=60)


def show_here(store: Path, args: list[str]) -> bytes:
    """What `shapeclip show ARGS` prints, run in this process (a follow takes many pages)."""
    out = io.TextIOWrapper(io.BytesIO())
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SHAPECLIP_STORE", str(store))
        patch.setattr(sys, "stdout", out)
        assert cli.main(args) == 0
    assert isinstance(out.buffer, io.BytesIO)
    return out.buffer.getvalue()


def follow(store: Path, *args: str, budget: int | None) -> tuple[bytes, int]:
    """Everything `show` gives when each page's marker is followed, and how many pages. The
    `--` between groups of grep rows is left out: a page does not begin with one."""
    pages, given = 0, b""
    command = ["show", *args, *([] if budget is None else ["--budget", str(budget)])]
    while True:
        stdout = show_here(store, command)
        text = stdout.decode("utf-8", "replace")
        asked = int(command[command.index("--budget") + 1]) if "--budget" in command else 16_000
        assert len(text) <= asked
        pages += 1
        found = NEXT.search(text)
        if found is None:
            return ungrouped(given + stdout), pages
        given += stdout[: stdout.rindex(b"[shapeclip: ")]
        command = shlex.split(found.group(1))[1:]
        assert pages < 100


def ungrouped(rows: bytes) -> bytes:
    return b"".join(line for line in rows.splitlines(keepends=True) if line != b"--\n")


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "store"
    return path, Store(path).put(ROWS, "bash").id


def _grep(pattern: str, first: int = 1, last: int = 10**9, context: int = 0) -> bytes:
    """What `grep -n -C context` prints over lines `first` to `last`, as `show` must, without
    the `--` between groups (see `follow`)."""
    lines = ROWS.splitlines()
    hits = [n for n in range(first, min(last, len(lines)) + 1) if re.search(pattern, lines[n - 1])]
    shown = sorted({m for n in hits for m in range(max(first, n - context), min(last, len(lines), n + context) + 1)})
    return "".join(f"{n}{':' if n in hits else '-'}{lines[n - 1]}\n" for n in shown).encode()


def test_issue_27_item_1_grep_with_a_budget_keeps_rows_numbered_as_stored(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    page = run(path, "show", entry_id, "--grep", "yaml/", "--budget", "600").stdout.decode()
    rows, marker = page.splitlines()[:-1], page.splitlines()[-1]
    assert rows and all(re.fullmatch(r"(\d+):/usr/lib/python3/yaml/x\d+\.py: match \d+", row) for row in rows)
    assert marker.startswith("[shapeclip: ") and "not shown" in marker
    given, pages = follow(path, entry_id, "--grep", "yaml/", "--lines", "1:300", budget=600)
    assert given == (_grep("yaml/", 1, 300)) and pages > 2


def test_issue_27_item_2_show_has_a_default_budget(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    page = run(path, "show", entry_id, "--grep", "import")
    assert 15_000 < len(page.stdout.decode()) <= 16_000
    given, pages = follow(path, entry_id, "--grep", "import", budget=None)
    assert given == (_grep("import")) and pages > 1


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
        assert given == (_grep(args[1], int(first), int(last), context))
    else:
        first, _, last = args[1].partition(":")
        assert given == "".join(ROWS.splitlines(keepends=True)[int(first) - 1 : int(last)]).encode()
    assert pages > 1


def test_issue_27_item_3_a_line_longer_than_the_budget_is_pointed_at_with_a_budget_that_holds_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store"
    text = "short\n" + "long " * 2000 + "\nend\n"
    entry_id = Store(path).put(text).id
    given, pages = follow(path, entry_id, budget=500)
    assert given == text.encode() and pages == 2


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
    for unknown in ("0123456789ab", "nonsense", "ab"):
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


def test_issue_27_item_3_a_page_never_ends_inside_the_context_after_a_match(tmp_path: Path) -> None:
    path = tmp_path / "store"
    text = "".join(("MATCH" if n % 10 == 0 else "filler") + f" {n}\n" for n in range(1, 201))
    entry_id = Store(path).put(text).id
    lines = text.splitlines()
    hits = range(10, 201, 10)
    expected = "".join(
        f"{n}{':' if n in hits else '-'}{lines[n - 1]}\n" for n in range(7, 201) if min(abs(n - h) for h in hits) <= 3
    ).encode()
    for budget in range(300, 420, 7):
        assert follow(path, entry_id, "--grep", "MATCH", "-C", "3", budget=budget)[0] == expected, budget


def test_a_page_keeps_its_budget_when_the_metadata_understates_the_size(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    meta = path / (entry_id + ".json")
    meta.write_text(meta.read_text().replace(f'"size": {len(ROWS)}', '"size": 0'))
    for budget in range(280, 330, 3):
        page = show_here(path, ["show", entry_id, "--lines", "9000:10000", "--budget", str(budget)])
        assert len(page.decode()) <= budget and b"--lines" in page
