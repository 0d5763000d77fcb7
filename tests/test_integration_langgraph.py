"""LangGraph's `ToolNode` invoking a tool with shapeclip's `wrap_tool_call` middleware."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from hook_events import BUILD_LOG, SOURCE, read_plan
from shapeclip.integrations.langgraph import ToolResultCompressor


@tool
def read_build_log() -> str:
    """The CI build log."""
    return BUILD_LOG


@tool
def status() -> str:
    """The CI status."""
    return "green"


@tool
def bash(command: str) -> str:
    """Runs a shell command; this one has printed a source file."""
    return SOURCE


def call(*names: str) -> dict[str, Any]:
    calls = [{"name": name, "args": {}, "id": f"call_{i}", "type": "tool_call"} for i, name in enumerate(names)]
    return {"messages": [AIMessage(content="", tool_calls=calls)]}


def graph(node: ToolNode) -> Any:
    """The node in a graph of its own: ToolNode needs the runtime a graph gives it."""
    builder = StateGraph(MessagesState)
    builder.add_node("tools", node)
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    return builder.compile()


def messages(result: dict[str, Any]) -> list[ToolMessage]:
    out = result["messages"][1:]
    assert all(isinstance(m, ToolMessage) for m in out)
    return list(out)


def test_a_long_result_is_compressed_and_a_short_one_kept() -> None:
    compressor = ToolResultCompressor(budget=4_000)
    node = ToolNode([read_build_log, status], wrap_tool_call=compressor.wrap_tool_call)
    log, ok = messages(graph(node).invoke(call("read_build_log", "status")))
    assert log.tool_call_id == "call_0" and log.name == "read_build_log"
    assert isinstance(log.content, str) and len(log.content) <= 4_000 < len(BUILD_LOG)
    assert "error: linker failed" in log.content and "[shapeclip:" in log.content
    assert ok.content == "green"


def test_the_async_path_compresses_the_same_way() -> None:
    compressor = ToolResultCompressor(budget=4_000)
    node = ToolNode(
        [read_build_log], wrap_tool_call=compressor.wrap_tool_call, awrap_tool_call=compressor.awrap_tool_call
    )
    (log,) = messages(asyncio.run(graph(node).ainvoke(call("read_build_log"))))
    (sync,) = messages(graph(node).invoke(call("read_build_log")))
    assert log.content == sync.content and len(log.content) <= 4_000


def test_without_the_middleware_the_whole_log_is_the_message() -> None:
    (log,) = messages(graph(ToolNode([read_build_log])).invoke(call("read_build_log")))
    assert log.content == BUILD_LOG


def test_a_file_the_shell_tool_printed_is_planned_as_a_read() -> None:
    node = ToolNode([bash], wrap_tool_call=ToolResultCompressor(budget=3_000).wrap_tool_call)
    for command, read in (("cat steps.py", True), ("make", False)):
        asked = {"name": "bash", "args": {"command": command}, "id": "call_0", "type": "tool_call"}
        (printed,) = messages(graph(node).invoke({"messages": [AIMessage(content="", tool_calls=[asked])]}))
        assert isinstance(printed.content, str) and read_plan(printed.content) is read, command
