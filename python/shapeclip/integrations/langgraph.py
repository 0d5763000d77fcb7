"""LangGraph: `ToolNode` middleware that compresses each tool's `ToolMessage`.

    from langgraph.prebuilt import ToolNode
    from shapeclip.integrations.langgraph import ToolResultCompressor

    compressor = ToolResultCompressor(budget=16_000)
    node = ToolNode(tools, wrap_tool_call=compressor.wrap_tool_call, awrap_tool_call=compressor.awrap_tool_call)

A message's text (a string, or the text blocks of a content list, which share the budget) is
compressed and named after its tool; a `Command` that updates the graph's state passes
through as it is, and so does everything that fits.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command

from ..defaults import DEFAULT_BUDGET
from ..hooks.output import compressed_output
from ..messages.items import command_in
from ..store import Store

_Result = ToolMessage | Command[Any]


class ToolResultCompressor:
    """`wrap_tool_call` and `awrap_tool_call` for `ToolNode`, with one budget per tool result."""

    def __init__(self, budget: int = DEFAULT_BUDGET, *, store: Store | None = None) -> None:
        self.budget = budget
        self.store = store

    def _compressed(self, request: ToolCallRequest, result: _Result) -> _Result:
        if not isinstance(result, ToolMessage):
            return result
        tool = result.name or request.tool_call["name"]
        command = command_in(request.tool_call.get("args"))
        content = compressed_output(result.content, tool, self.budget, self.store, command)
        return result if content is None else result.model_copy(update={"content": content})

    def wrap_tool_call(self, request: ToolCallRequest, execute: Callable[[ToolCallRequest], _Result]) -> _Result:
        return self._compressed(request, execute(request))

    async def awrap_tool_call(
        self, request: ToolCallRequest, execute: Callable[[ToolCallRequest], Awaitable[_Result]]
    ) -> _Result:
        return self._compressed(request, await execute(request))
