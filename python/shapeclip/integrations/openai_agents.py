"""OpenAI Agents SDK: a tool whose output reaches the model compressed.

The SDK's `on_tool_end` hook only observes a result; what the model sees is whatever the tool
returns. So `compress_tool` returns a copy of the tool that compresses what it returns to the
budget, naming the tool in the markers:

    from agents import Agent, ShellTool, function_tool
    from shapeclip.integrations.openai_agents import compress_tool

    agent = Agent(name="ci", tools=[
        compress_tool(function_tool(read_build_log), budget=16_000),
        compress_tool(ShellTool(executor=run_in_sandbox), budget=16_000),
    ])

- A `FunctionTool`: its `on_invoke_tool`'s string result.
- A `ShellTool` or a `LocalShellTool`: its executor's text, or each command's `stdout` and
  `stderr` of a `ShellResult`, sharing the budget, as shell output of the command that made
  them (a file printed by `cat` is planned as a read). Exit codes, timeouts and the rest of a
  result stay as they were, and so does every setting of the tool (approval above all:
  shapeclip never decides what may run).

Results that are not text (images, files, structured outputs) are passed on unchanged.
"""

from __future__ import annotations

import dataclasses
import inspect
import shlex
from typing import Any, overload

from agents import FunctionTool, LocalShellTool, ShellTool
from agents.tool import LocalShellCommandRequest, ShellCommandOutput, ShellCommandRequest, ShellResult
from agents.tool_context import ToolContext

from ..api import compress
from ..defaults import DEFAULT_BUDGET
from ..fit import shares
from ..messages.items import command_in
from ..store import Store


@overload
def compress_tool(tool: FunctionTool, budget: int = ..., *, store: Store | None = None) -> FunctionTool: ...
@overload
def compress_tool(tool: ShellTool, budget: int = ..., *, store: Store | None = None) -> ShellTool: ...
@overload
def compress_tool(tool: LocalShellTool, budget: int = ..., *, store: Store | None = None) -> LocalShellTool: ...
def compress_tool(
    tool: FunctionTool | ShellTool | LocalShellTool, budget: int = DEFAULT_BUDGET, *, store: Store | None = None
) -> FunctionTool | ShellTool | LocalShellTool:
    """A copy of `tool` whose text results are compressed to `budget` characters; with a
    `store`, each cut output is kept whole and the markers say how to read it back."""
    if isinstance(tool, FunctionTool):
        return _function_tool(tool, budget, store)
    if isinstance(tool, ShellTool):
        return _shell_tool(tool, budget, store)
    if isinstance(tool, LocalShellTool):
        return _local_shell_tool(tool, budget, store)
    raise TypeError(f"compress_tool takes a FunctionTool, ShellTool or LocalShellTool, not {type(tool).__name__}")


def _function_tool(tool: FunctionTool, budget: int, store: Store | None) -> FunctionTool:
    invoke = tool.on_invoke_tool

    async def on_invoke_tool(context: ToolContext[Any], arguments: str) -> Any:
        result = await invoke(context, arguments)
        if isinstance(result, str):
            return compress(result, tool.name, budget, store=store, command=command_in(arguments))
        return result

    return dataclasses.replace(tool, on_invoke_tool=on_invoke_tool)


def _shell_tool(tool: ShellTool, budget: int, store: Store | None) -> ShellTool:
    executor = tool.executor
    if executor is None:
        raise TypeError("this ShellTool runs in a hosted container: its output never passes through the agent")

    async def run(request: ShellCommandRequest) -> str | ShellResult:
        result = executor(request)
        result = await result if inspect.isawaitable(result) else result
        commands = request.data.action.commands
        command = commands[0] if len(commands) == 1 else None
        if isinstance(result, str):
            return compress(result, tool.name, budget, store=store, command=command)
        if isinstance(result, ShellResult):
            return dataclasses.replace(result, output=_outputs(result.output, tool.name, budget, store, command))
        return result

    return dataclasses.replace(tool, executor=run)


def _local_shell_tool(tool: LocalShellTool, budget: int, store: Store | None) -> LocalShellTool:
    executor = tool.executor

    async def run(request: LocalShellCommandRequest) -> str:
        result = executor(request)
        result = await result if inspect.isawaitable(result) else result
        if not isinstance(result, str):
            return result
        argv = request.data.action.command
        return compress(result, tool.name, budget, store=store, command=shlex.join(argv))

    return dataclasses.replace(tool, executor=run)


def _outputs(
    outputs: list[ShellCommandOutput], tool: str, budget: int, store: Store | None, command: str | None
) -> list[ShellCommandOutput]:
    """Each command's streams within `budget` together, each compressed as its command's output
    (the one `command` of the call where an entry does not name its own)."""
    streams = [text for output in outputs for text in (output.stdout, output.stderr)]
    rooms = shares([len(text) for text in streams], budget)
    if rooms is None:  # too many streams for each to have a useful share: one text, one marker
        joined = compress("\n".join(streams), tool, budget, store=store, command=command)
        texts = [joined, *[""] * (len(streams) - 1)]
    else:
        texts = [
            text
            if len(text) <= room
            else compress(text, tool, room, store=store, command=outputs[i // 2].command or command)
            for i, (text, room) in enumerate(zip(streams, rooms, strict=True))
        ]
    return [
        dataclasses.replace(output, stdout=texts[2 * i], stderr=texts[2 * i + 1]) for i, output in enumerate(outputs)
    ]
