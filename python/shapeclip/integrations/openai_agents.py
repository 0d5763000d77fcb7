"""OpenAI Agents SDK: a function tool whose output reaches the model compressed.

The SDK's `on_tool_end` hook only observes a result; what the model sees is whatever the
tool's `on_invoke_tool` returns. So `compress_tool` returns a copy of the `FunctionTool` whose
`on_invoke_tool` compresses a string result to the budget, naming the tool in the markers:

    from agents import Agent, function_tool
    from shapeclip.integrations.openai_agents import compress_tool

    agent = Agent(name="ci", tools=[compress_tool(function_tool(read_build_log), budget=16_000)])

Results that are not strings (images, files, structured outputs) are passed on unchanged.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from agents import FunctionTool
from agents.tool_context import ToolContext

from ..api import compress
from ..defaults import DEFAULT_BUDGET
from ..messages.items import command_in
from ..store import Store


def compress_tool(tool: FunctionTool, budget: int = DEFAULT_BUDGET, *, store: Store | None = None) -> FunctionTool:
    """A copy of `tool` whose string results are compressed to `budget` characters; with a
    `store`, each cut output is kept whole and the markers say how to read it back."""
    invoke = tool.on_invoke_tool

    async def on_invoke_tool(context: ToolContext[Any], arguments: str) -> Any:
        result = await invoke(context, arguments)
        if isinstance(result, str):
            return compress(result, tool.name, budget, store=store, command=command_in(arguments))
        return result

    return dataclasses.replace(tool, on_invoke_tool=on_invoke_tool)
