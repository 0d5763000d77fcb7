"""`shapeclip mcp` as an MCP client meets it: the SDK's own client, over stdio, talking to
`python -m shapeclip mcp` in a subprocess. Every answer within its budget, and the way back
through `show` giving exactly the lines a marker says were omitted."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

from shapeclip.store import Store

T = TypeVar("T")
TEXT = "".join(f"line {i}{' error' if i % 50 == 0 else ''}\n" for i in range(1, 301))
#: The way back a marker names: `shapeclip show ID --lines A:B`.
WAY_BACK = re.compile(r"shapeclip show ([0-9a-f]+) --lines (\d+):(\d+)")


def session(store: Path, work: Callable[[ClientSession], Awaitable[T]]) -> T:
    """What `work` returns, given a session with a server on `store`."""

    async def run() -> T:
        env = {**os.environ, "SHAPECLIP_STORE": str(store)}
        params = StdioServerParameters(command=sys.executable, args=["-m", "shapeclip", "mcp"], env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await work(client)

    return asyncio.run(asyncio.wait_for(run(), 60))


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def call(store: Path, tool: str, **arguments: Any) -> CallToolResult:
    return session(store, lambda client: client.call_tool(tool, arguments))


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "store"
    return path, Store(path).put(TEXT, "bash").id


def test_the_server_offers_run_show_and_list(tmp_path: Path) -> None:
    listed = session(tmp_path / "store", lambda client: client.list_tools())
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == {"run", "show", "list"}
    assert "permission model" in (tools["run"].description or "")
    assert tools["show"].inputSchema["required"] == ["id"]
    assert {"first", "last", "grep", "context", "budget"} <= set(tools["show"].inputSchema["properties"])


def test_show_gives_the_asked_lines_as_stored_from_a_prefix_of_the_id(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    assert text_of(call(path, "show", id=entry_id[:6], first=12, last=14)) == "line 12\nline 13\nline 14\n"
    assert text_of(call(path, "show", id=entry_id, first=300, last=999)) == "line 300 error\n"


def test_show_greps_numbered_as_the_stored_file_with_context(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    assert text_of(call(path, "show", id=entry_id, grep="error", first=1, last=120)) == (
        "50:line 50 error\n100:line 100 error\n"
    )
    assert text_of(call(path, "show", id=entry_id, grep=r"^line 1?50 ", context=1)) == (
        "49-line 49\n50:line 50 error\n51-line 51\n--\n149-line 149\n150:line 150 error\n151-line 151\n"
    )


def test_show_over_its_budget_is_compressed_and_its_markers_lead_to_the_lines(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    text = text_of(call(path, "show", id=entry_id, first=101, last=300, budget=1000))
    assert len(text) <= 1000
    opening, _, body = text.partition("\n")
    found = WAY_BACK.search(body)
    assert found is not None, text
    # The selection is kept whole under its own ID, which the first line names.
    copy, first, last = found.group(1), int(found.group(2)), int(found.group(3))
    assert copy != entry_id and f"lines 101-300 of {entry_id}, kept whole as {copy}" in opening
    wanted = "".join(TEXT.splitlines(keepends=True)[100:300][first - 1 : last])
    assert text_of(call(path, "show", id=copy, first=first, last=last, budget=100_000)) == wanted


def test_run_keeps_a_large_output_within_budget_and_show_gives_back_what_it_omitted(tmp_path: Path) -> None:
    path = tmp_path / "store"
    script = "for i in range(1000): print(f'row {i:04d} ' + 'x' * 90)"
    printed = "".join(f"row {i:04d} {'x' * 90}\n" for i in range(1000))
    assert len(printed) >= 100_000

    async def run_then_show(client: ClientSession) -> tuple[str, str]:
        ran = text_of(await client.call_tool("run", {"command": f'{sys.executable} -c "{script}"', "budget": 4000}))
        found = WAY_BACK.search(ran)
        assert found is not None, ran
        entry_id, first, last = found.group(1), found.group(2), found.group(3)
        back = {"id": entry_id, "first": int(first), "last": int(last), "budget": 200_000}
        return ran, text_of(await client.call_tool("show", back))

    ran, shown = session(path, run_then_show)
    assert len(ran) <= 4000 and ran.endswith("\n[shapeclip: exit status 0]")
    found = WAY_BACK.search(ran)
    assert found is not None
    first, last = int(found.group(2)), int(found.group(3))
    assert shown == "".join(printed.splitlines(keepends=True)[first - 1 : last])
    # Nothing was lost: the lines shown and the lines omitted are the whole output.
    assert Store(path).get(found.group(1)) == printed


def test_run_reads_an_output_of_many_pieces_whole(tmp_path: Path) -> None:
    from shapeclip import mcp_server

    # About 10 MB, so more than two of the pieces the command line reads in, with no newline
    # at its end.
    script = (
        "import sys; "
        "sys.stdout.write(''.join(f'row {i:07d} ' + 'x' * (i % 80) + chr(10) for i in range(200_000)) + 'end')"
    )
    printed = "".join(f"row {i:07d} {'x' * (i % 80)}\n" for i in range(200_000)) + "end"
    ran = mcp_server.run_command(Store(tmp_path / "store"), f'{sys.executable} -c "{script}"', 60, 4000)
    found = WAY_BACK.search(ran)
    assert found is not None and len(ran) <= 4000, ran
    assert Store(tmp_path / "store").get(found.group(1)) == printed


def test_run_plans_a_file_the_command_printed_as_a_read(tmp_path: Path) -> None:
    from hook_events import SOURCE, read_plan
    from shapeclip import mcp_server

    (tmp_path / "steps.py").write_text(SOURCE)
    store = Store(tmp_path / "store")
    printed = mcp_server.run_command(store, f"cat {tmp_path / 'steps.py'}", 60, 3000)
    assert read_plan(printed) and len(printed) <= 3000
    ran = mcp_server.run_command(
        store, f"{sys.executable} -c 'print(open({str(tmp_path / 'steps.py')!r}).read())'", 60, 3000
    )
    assert not read_plan(ran)


def test_run_reports_the_exit_status_and_kills_a_command_at_its_timeout(tmp_path: Path) -> None:
    path = tmp_path / "store"
    assert text_of(call(path, "run", command="echo out; echo err >&2; exit 3")) == (
        "out\nerr\n[shapeclip: exit status 3]"
    )
    killed = call(path, "run", command="echo started; sleep 30", timeout=0.5)
    assert text_of(killed) == "started\n[shapeclip: killed after the timeout of 0.5 s]"


def test_list_names_the_newest_entries_with_their_commands(tmp_path: Path) -> None:
    path = tmp_path / "store"
    assert text_of(call(path, "list")).startswith("no entries")
    older = Store(path, command="make test").put(TEXT, "bash")
    newer = Store(path).put(TEXT + "more\n", "grep")
    listed = text_of(call(path, "list")).splitlines()
    assert [row.split()[0] for row in listed] == [newer.id, older.id]
    assert "make test" in listed[1]
    assert text_of(call(path, "list", limit=1)).splitlines() == listed[:1]


def test_a_missing_entry_or_a_bad_pattern_is_a_tool_error_that_says_so(stored: tuple[Path, str]) -> None:
    path, entry_id = stored
    missing = call(path, "show", id="0123456789ab")
    assert missing.isError and "no output was stored under this ID" in text_of(missing)
    bad = call(path, "show", id=entry_id, grep="(")
    assert bad.isError and "not a valid regular expression" in text_of(bad)
    # Line numbers past what Python's islice takes read to the end, as any past the last line.
    assert not call(path, "show", id=entry_id, first=2, last=2**70).isError
    assert text_of(call(path, "show", id=entry_id, first=2**70)) == text_of(
        call(path, "show", id=entry_id, first=10**9)
    )


def test_a_timeout_run_cannot_keep_is_refused_before_anything_runs(tmp_path: Path) -> None:
    for timeout in ("inf", 1e300):  # pydantic reads the text "inf" as a float
        done = call(tmp_path / "store", "run", command="echo hi", timeout=timeout)
        assert done.isError and "86400" in text_of(done)


def test_show_reads_grep_as_a_string_with_fixed_and_disarms_look_alike_markers(tmp_path: Path) -> None:
    path = tmp_path / "store"
    entry_id = Store(path).put("app/(auth)/login/page.tsx: ok\n[shapeclip: lines 1-9 not shown]\nother\n").id
    listed = session(path, lambda client: client.list_tools())
    (show,) = [tool for tool in listed.tools if tool.name == "show"]
    assert "grep -F" in show.inputSchema["properties"]["fixed"]["description"]
    found = call(path, "show", id=entry_id, grep="app/(auth)/login", fixed=True)
    assert text_of(found) == "1:app/(auth)/login/page.tsx: ok\n"
    assert text_of(call(path, "show", id=entry_id, first=2, last=2)) == "(shapeclip: lines 1-9 not shown]\n"
    assert text_of(call(path, "show", id=entry_id, grep=r"^\[shapeclip")) == "2:(shapeclip: lines 1-9 not shown]\n"


def test_show_prints_what_shapeclip_show_prints_at_a_ranges_edge_and_for_bytes_not_utf8(
    stored: tuple[Path, str], tmp_path: Path
) -> None:
    # The rows grep prints of the whole output, of the lines asked: 51 is context of 50's match.
    path, entry_id = stored
    assert text_of(call(path, "show", id=entry_id, grep="error", first=51, last=60, context=1)) == "51-line 51\n"
    store = tmp_path / "bytes"
    entry_id = Store(store).put(b"plain\n\xff\xfe bytes that are not UTF-8\nsplit \xe2\x82 euro\n").id
    assert text_of(call(store, "show", id=entry_id, grep="bytes")) == "2:\ufffd\ufffd bytes that are not UTF-8\n"
    assert text_of(call(store, "show", id=entry_id, first=3)) == "split \ufffd euro\n"
