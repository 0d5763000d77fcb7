"""The agent loops of docs/histories.md, run as written against the loopback server's `agent` model, which
calls a build and a file read in each of five turns before it answers: each loop ends, every
request's history passes the API's checks, every result in the history fits its budget, and the
page's microcompact then clears the two turns before the last three."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_server import AGENT_RESULTS, serve
from readers import results, text_chars

PAGE = (Path(__file__).parent.parent / "docs" / "histories.md").read_text(encoding="utf-8")
LOOPS = dict(re.findall(r"```python\n# agent loop: ([^\n]+)\n(.*?)```", PAGE, re.DOTALL))
(MICROCOMPACT,) = re.findall(r"```python\n# microcompact\n(.*?)```", PAGE, re.DOTALL)
FORMAT = {
    "OpenAI Chat Completions": "openai_chat",
    "OpenAI Responses": "openai_responses",
    "Anthropic Messages": "anthropic",
}
OUTPUTS = {
    "bash": "".join(f"cc -c src/unit_{i}.c\n" for i in range(6000))
    + "src/unit_9.c:3: error: boom\nmake: *** [all] Error 1\n",
    "read_file": "".join(f"    value_{i} = compute({i})\n" for i in range(4000)),
}


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with serve() as running:
        yield running


def run_tool(name: str, arguments: Any) -> str:
    return OUTPUTS[name]


@pytest.mark.parametrize("title", sorted(FORMAT))
def test_the_documented_loop_runs_and_keeps_every_result_within_budget(
    server: Any, monkeypatch: pytest.MonkeyPatch, title: str, capsys: pytest.CaptureFixture[str]
) -> None:
    host, port = server.server_address
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://{host}:{port}/v1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://{host}:{port}")
    scope: dict[str, Any] = {"MODEL": "agent", "TOOLS": [], "run_tool": run_tool}
    exec(LOOPS[title], scope)

    fmt = FORMAT[title]
    name = "items" if fmt == "openai_responses" else "messages"
    found = results(scope[name], fmt)
    assert len(found) == AGENT_RESULTS
    assert all(text_chars(content) <= scope["budget"].per_result for _, _, content in found)
    assert scope["report"].tokens_saved > 0

    scope["messages"] = scope[name]
    exec(MICROCOMPACT, scope)
    report = scope["report"]
    assert report.applied and len(report.cleared) == 4 and "cleared 4 old results" in capsys.readouterr().out
