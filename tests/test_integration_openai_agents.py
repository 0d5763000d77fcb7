"""An OpenAI Agents SDK agent run offline: a scripted model (the SDK's `Model` interface) calls
a function tool that returns a 200 KB log, and the test reads what the model is sent back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agents import Agent, Model, ModelResponse, Runner, function_tool, set_tracing_disabled
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from hook_events import SOURCE, read_plan
from shapeclip import compress
from shapeclip.integrations.openai_agents import compress_tool

# About 200 KB of build output that ends with the failure.
LOG = "".join(f"[{i:05}] compiling module_{i}.c\n" for i in range(6_300)) + "error: linker failed\n"


class ScriptedModel(Model):
    """Asks for the tool once, then answers; keeps every input it was sent."""

    def __init__(self, tool: str = "read_build_log", arguments: str = "{}") -> None:
        self.inputs: list[Any] = []
        self.tool, self.arguments = tool, arguments

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        self.inputs.append(input)
        if len(self.inputs) == 1:
            call = ResponseFunctionToolCall(
                type="function_call", call_id="call_1", name=self.tool, arguments=self.arguments
            )
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        text = ResponseOutputText(type="output_text", text="The linker failed.", annotations=[])
        message = ResponseOutputMessage(id="m1", type="message", role="assistant", status="completed", content=[text])
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


@function_tool
def read_build_log() -> str:
    """The CI build log."""
    return LOG


def tool_output_sent(model: ScriptedModel) -> str:
    (item,) = [i for i in model.inputs[1] if isinstance(i, dict) and i.get("type") == "function_call_output"]
    assert item["call_id"] == "call_1"
    return str(item["output"])


@function_tool
def bash(command: str) -> str:
    """Runs a shell command; this one has printed a source file."""
    return SOURCE


def run(tool: Any, model: ScriptedModel | None = None) -> tuple[ScriptedModel, str]:
    set_tracing_disabled(True)
    model = model or ScriptedModel()
    agent = Agent(name="ci", instructions="Find the failure.", model=model, tools=[tool])
    result = asyncio.run(Runner.run(agent, "Why did the build fail?"))
    return model, str(result.final_output)


def test_the_model_receives_the_compressed_log() -> None:
    model, answer = run(compress_tool(read_build_log, budget=8_000))
    sent = tool_output_sent(model)
    assert answer == "The linker failed."
    assert 200_000 <= len(LOG) < 210_000 and len(sent) <= 8_000
    assert sent == compress(LOG, "read_build_log", 8_000)
    assert "error: linker failed" in sent and "[shapeclip:" in sent


def test_without_the_wrapper_the_model_receives_all_200_kb() -> None:
    model, _ = run(read_build_log)
    assert tool_output_sent(model) == LOG


def test_a_file_the_shell_tool_printed_is_planned_as_a_read() -> None:
    for command, read in (("cat steps.py", True), ("make", False)):
        arguments = json.dumps({"command": command})
        model, _ = run(compress_tool(bash, budget=3_000), ScriptedModel("bash", arguments))
        assert read_plan(tool_output_sent(model)) is read, command
