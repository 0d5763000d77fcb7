"""A loopback HTTP server that speaks the OpenAI chat-completions and responses and the
Anthropic messages wire formats, so tests drive the real SDK clients. The requested model name
picks the behaviour: `normal`, `overlong`, `e429`, `e500`, `slow`, `malformed`, and `agent`,
which calls two tools at a time until the history holds `AGENT_RESULTS` tool results.

Every request's history is checked as the APIs check it (`wire_checks`): one that breaks their
rules (a result without its call, a call without its result) is refused with status 400."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import wire_checks

NORMAL = (
    "Lines 40-9,000 compile src/module_*.c cleanly; src/module_17.c:88: error: expected ';' appears "
    "3 times; 412 warnings 'unused variable tmp' [-Wunused-variable]."
)
OVERLONG = " ".join(f"word{i}" for i in range(700))
SLOW_SECONDS = 3.0
AGENT_RESULTS = 10
#: What the `agent` model calls each time: a build and a file read, as (tool, arguments).
AGENT_CALLS = (("bash", {"command": "make test"}), ("read_file", {"path": "src/app.py"}))


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["content-length"])))
        self.server.requests.append((self.path, request))
        model = request["model"]
        api = self.path.rsplit("/", 1)[-1]
        anthropic = api == "messages"
        problems = _problems(api, request)
        if problems:
            error = {"type": "invalid_request_error", "message": "; ".join(problems)}
            body = {"type": "error", "error": error} if anthropic else {"error": {**error, "code": None, "param": None}}
            self._send(400, json.dumps(body).encode())
            return
        if model == "agent":
            self._send(200, json.dumps(_agent(api, request)).encode())
            return
        if model in ("e429", "e500"):
            status = int(model[1:])
            kind = "rate_limit_error" if status == 429 else "api_error"
            error = {"type": kind, "message": f"injected {status}"}
            body = {"type": "error", "error": error} if anthropic else {"error": {**error, "code": None, "param": None}}
            self._send(status, json.dumps(body).encode())
            return
        if model == "malformed":
            self._send(200, b'{"id": "x", "choices": [')
            return
        if model == "slow":
            time.sleep(SLOW_SECONDS)
        text = OVERLONG if model == "overlong" else NORMAL
        reply = {"messages": _anthropic, "responses": _responses, "completions": _openai}[api](model, text)
        self._send(200, json.dumps(reply).encode())


def _problems(api: str, request: dict[str, Any]) -> list[str]:
    if api == "responses":
        items = request["input"]
        return wire_checks.responses([{"role": "user", "content": items}] if isinstance(items, str) else items)
    if api == "messages":
        return wire_checks.anthropic_messages(request["messages"])
    return wire_checks.chat_completions(request["messages"])


def _results_so_far(api: str, request: dict[str, Any]) -> int:
    if api == "responses":
        return sum(item.get("type") == "function_call_output" for item in request["input"])
    if api == "messages":
        blocks = [b for m in request["messages"] if isinstance(m["content"], list) for b in m["content"]]
        return sum(block.get("type") == "tool_result" for block in blocks)
    return sum(message.get("role") == "tool" for message in request["messages"])


def _agent(api: str, request: dict[str, Any]) -> dict[str, Any]:
    """Two tool calls while the history holds fewer than `AGENT_RESULTS` results, then an answer."""
    done = _results_so_far(api, request)
    if done >= AGENT_RESULTS:
        return {"messages": _anthropic, "responses": _responses, "completions": _openai}[api]("agent", "It is fixed.")
    ids = [f"call_{done + k}" for k in range(len(AGENT_CALLS))]
    if api == "messages":
        uses = [
            {"type": "tool_use", "id": i, "name": n, "input": a} for i, (n, a) in zip(ids, AGENT_CALLS, strict=True)
        ]
        reply = _anthropic("agent", "")
        reply["content"] = [{"type": "thinking", "thinking": "Build, then read.", "signature": "c2ln"}, *uses]
        return {**reply, "stop_reason": "tool_use"}
    if api == "responses":
        reasoning = {"type": "reasoning", "id": f"rs_{done}", "summary": []}
        calls = [
            {"type": "function_call", "id": f"fc_{i}_rs_{done}", "call_id": i, "name": n, "arguments": json.dumps(a)}
            for i, (n, a) in zip(ids, AGENT_CALLS, strict=True)
        ]
        return {**_responses("agent", ""), "output": [reasoning, *calls]}
    calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in zip(ids, AGENT_CALLS, strict=True)
    ]
    reply = _openai("agent", "")
    reply["choices"][0].update(
        finish_reason="tool_calls", message={"role": "assistant", "content": None, "tool_calls": calls}
    )
    return reply


def _openai(model: str, text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290},
    }


def _responses(model: str, text: str) -> dict[str, Any]:
    message = {
        "type": "message",
        "id": "msg_test",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    return {
        "id": "resp_test",
        "object": "response",
        "created_at": 0,
        "model": model,
        "status": "completed",
        "output": [message],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {"input_tokens": 1234, "output_tokens": 56, "total_tokens": 1290},
    }


def _anthropic(model: str, text: str) -> dict[str, Any]:
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1234, "output_tokens": 56},
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    requests: list[tuple[str, dict[str, Any]]]


@contextmanager
def serve() -> Iterator[_Server]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
