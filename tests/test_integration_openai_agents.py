"""An OpenAI Agents SDK agent run offline: a scripted model (the SDK's `Model` interface) calls
a function tool that returns a 200 KB log, or a shell tool, and the test reads what the model
is sent back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from agents import (
    Agent,
    LocalShellTool,
    Model,
    ModelResponse,
    Runner,
    ShellTool,
    WebSearchTool,
    function_tool,
    set_tracing_disabled,
)
from agents.tool import ShellCallOutcome, ShellCommandOutput, ShellCommandRequest, ShellResult
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionShellToolCall,
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)
from openai.types.responses.response_output_item import LocalShellCall, LocalShellCallAction

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


class ShellModel(ScriptedModel):
    """Asks for one run of a shell tool (`call`), then answers."""

    def __init__(self, call: Any) -> None:
        super().__init__()
        self.call = call

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        if not self.inputs:
            self.inputs.append(input)
            return ModelResponse(output=[self.call], usage=Usage(), response_id=None)
        return await super().get_response(system_instructions, input, *args, **kwargs)


def shell_call(*commands: str) -> ResponseFunctionShellToolCall:
    action = {"commands": list(commands), "timeout_ms": 1000, "max_output_length": None}
    return ResponseFunctionShellToolCall(
        id="sh_1", type="shell_call", call_id="call_sh", action=action, status="completed"
    )


def sent_item(model: ScriptedModel, kind: str) -> dict[str, Any]:
    (item,) = [i for i in model.inputs[1] if isinstance(i, dict) and i.get("type") == kind]
    return item


def test_a_shell_tools_streams_are_compressed_and_their_outcomes_kept() -> None:
    def executor(request: ShellCommandRequest) -> ShellResult:
        assert request.data.action.commands == ["make"]
        outcome = ShellCallOutcome(type="exit", exit_code=2)
        return ShellResult(output=[ShellCommandOutput(stdout=LOG, stderr="make: *** [all] Error 2\n", outcome=outcome)])

    tool = compress_tool(ShellTool(executor=executor, needs_approval=False), budget=8_000)
    model, _ = run(tool, ShellModel(shell_call("make")))
    (entry,) = sent_item(model, "shell_call_output")["output"]
    assert entry["stderr"] == "make: *** [all] Error 2\n" and entry["outcome"] == {"type": "exit", "exit_code": 2}
    assert len(entry["stdout"]) + len(entry["stderr"]) <= 8_000 and "error: linker failed" in entry["stdout"]
    assert entry["stdout"] == compress(LOG, "shell", 8_000 - len(entry["stderr"]), command="make")


def test_a_shell_tools_text_and_a_local_shells_are_planned_by_their_command() -> None:
    tool = compress_tool(ShellTool(executor=lambda request: SOURCE), budget=3_000)
    model, _ = run(tool, ShellModel(shell_call("cat steps.py")))
    (entry,) = sent_item(model, "shell_call_output")["output"]
    assert read_plan(entry["stdout"]) is True

    action = LocalShellCallAction(type="exec", command=["bash", "-lc", "cat steps.py"], env={})
    call = LocalShellCall(id="ls_1", type="local_shell_call", call_id="call_ls", action=action, status="completed")
    model, _ = run(compress_tool(LocalShellTool(executor=lambda request: SOURCE), budget=3_000), ShellModel(call))
    output = sent_item(model, "local_shell_call_output")["output"]
    assert len(output) <= 3_000 and read_plan(output) is True


def test_a_hosted_shell_or_another_kind_of_tool_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="hosted container"):
        compress_tool(ShellTool(environment={"type": "container_auto"}))
    with pytest.raises(TypeError, match="FunctionTool, ShellTool or LocalShellTool"):
        compress_tool(WebSearchTool())  # type: ignore[call-overload]
