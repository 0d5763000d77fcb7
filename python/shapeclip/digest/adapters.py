"""Digest callables over the official `openai` and `anthropic` SDK clients.

Each adapter wraps a client the caller already configured (API key, base URL, retries), so any
OpenAI-compatible server works through `openai_chat`: vLLM, llama.cpp's server, Ollama,
OpenRouter. Sync clients give a sync callable and async clients an async one. The SDKs are
never imported here: the adapters only call the client they are given, so installing shapeclip
does not pull them in.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .prompt import user_message
from .run import DEFAULT_TIMEOUT, Answer

#: A 120-word paragraph is about 200 tokens; the cap only stops a runaway answer.
MAX_OUTPUT_TOKENS = 400


def _usage(response: Any) -> Mapping[str, int] | None:
    usage = getattr(response, "usage", None)
    if usage is None:
        return None
    fields = usage.model_dump() if hasattr(usage, "model_dump") else dict(vars(usage))
    return {k: v for k, v in fields.items() if isinstance(v, int) and not isinstance(v, bool)}


def _openai_answer(response: Any) -> Answer:
    return Answer(response.choices[0].message.content or "", _usage(response))


def _anthropic_answer(response: Any) -> Answer:
    text = "".join(getattr(block, "text", "") for block in response.content)
    return Answer(text, _usage(response))


def _adapter(
    create: Callable[..., Any], request: Callable[[str, str], dict[str, Any]], answer: Callable[[Any], Answer], key: str
) -> Callable[[str, str], Answer] | Callable[[str, str], Awaitable[Answer]]:
    fn: Callable[[str, str], Answer] | Callable[[str, str], Awaitable[Answer]]
    # The SDKs wrap their async methods in decorators that hide them from a plain check.
    if inspect.iscoroutinefunction(inspect.unwrap(create)):

        async def digest_async(omitted: str, tool_name: str) -> Answer:
            return answer(await create(**request(omitted, tool_name)))

        fn = digest_async
    else:

        def digest_sync(omitted: str, tool_name: str) -> Answer:
            return answer(create(**request(omitted, tool_name)))

        fn = digest_sync
    fn.cache_key = key  # type: ignore[union-attr]
    return fn


def _request(model: str, max_tokens: int, timeout: float) -> Callable[[str, str], dict[str, Any]]:
    def request(omitted: str, tool_name: str) -> dict[str, Any]:
        message = {"role": "user", "content": user_message(omitted, tool_name)}
        # No sampling parameters: several current models reject them, and the digest cache, not
        # the model, is what makes a repeated compression give the same bytes.
        return {"model": model, "messages": [message], "max_tokens": max_tokens, "timeout": timeout}

    return request


def openai_chat(
    client: Any, model: str, *, max_tokens: int = MAX_OUTPUT_TOKENS, timeout: float = DEFAULT_TIMEOUT
) -> Callable[[str, str], Answer] | Callable[[str, str], Awaitable[Answer]]:
    """A digest that asks `model` through an `openai.OpenAI` or `openai.AsyncOpenAI` client's
    chat completions API. `timeout` (seconds) is passed to each request; shapeclip's own digest
    timeout applies as well."""
    request = _request(model, max_tokens, timeout)
    return _adapter(client.chat.completions.create, request, _openai_answer, f"openai:{model}")


def anthropic_messages(
    client: Any, model: str, *, max_tokens: int = MAX_OUTPUT_TOKENS, timeout: float = DEFAULT_TIMEOUT
) -> Callable[[str, str], Answer] | Callable[[str, str], Awaitable[Answer]]:
    """A digest that asks `model` through an `anthropic.Anthropic` or `anthropic.AsyncAnthropic`
    client's messages API."""
    request = _request(model, max_tokens, timeout)
    return _adapter(client.messages.create, request, _anthropic_answer, f"anthropic:{model}")
