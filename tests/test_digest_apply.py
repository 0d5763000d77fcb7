"""A digest out of the core API: `compress_detailed` never calls a model and carries what one
needs, `shapeclip.digest.apply` and `aapply` ask it and write the answer where `compress` does,
once, and `Digest` checks its fields when it is made (issue 12, item 6)."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from shapeclip import Compressed, Digest, compress_messages
from shapeclip.digest import DigestRequest, aapply, apply
from shapeclip.digest.run import DEFAULT_TIMEOUT, LEAD
from strategies import outputs, tools

LOG = "".join(f"[{i:06}] compiling src/module_{i % 97}.c ... ok\n" for i in range(20_000))


class Counting:
    """A digest that counts its calls and answers what it was given."""

    def __init__(self, answer: str = "every module compiled") -> None:
        self.asked: list[tuple[str, str]] = []
        self.answer = answer

    def __call__(self, omitted: str, tool: str) -> str:
        self.asked.append((omitted, tool))
        return self.answer


class AsyncCounting(Counting):
    async def __call__(self, omitted: str, tool: str) -> str:  # type: ignore[override]
        return super().__call__(omitted, tool)


def test_compress_detailed_never_calls_the_digest_and_says_what_it_needs() -> None:
    for fn in (Counting(), AsyncCounting()):
        result = shapeclip.compress_detailed(LOG, "bash", 4000, digest=Digest(fn, cache={}))
        assert fn.asked == [] and result.digest is None and LEAD not in result.text
        request = result.digest_request
        assert isinstance(request, DigestRequest) and request.tool_name == "bash"
        assert request.room == 4000 - len(result.text) - len(LEAD) and 0 <= request.at <= len(result.text)
        assert 0 < len(request.sample) <= 24_000 and request.sample.startswith("line ")
        # The offset is inside the marker, just before the bracket that closes it.
        assert result.text[request.at] == "]" and "shapeclip:" in result.text[: request.at]


def test_the_request_is_where_apply_writes_and_how_much() -> None:
    fn = Counting("x" * 5000)  # no space: the answer is cut to exactly the room
    digest = Digest(fn, cache={})
    result = shapeclip.compress_detailed(LOG, "bash", 4000, digest=digest)
    request = result.digest_request
    assert request is not None
    applied = apply(result, digest)
    written = LEAD + "x" * (request.room - 1) + "\u2026"
    assert applied.text == result.text[: request.at] + written + result.text[request.at :]
    assert len(applied.text) == 4000
    assert fn.asked == [(request.sample, request.tool_name)]
    assert applied.digest is not None and applied.digest.chars_in == len(request.sample)
    assert applied.digest_request is None
    # Everything but the text and the digest's record is the compression's.
    unchanged = dataclasses.replace(applied, text=result.text, digest=None, digest_request=request)
    assert unchanged == result


def test_apply_twice_writes_once_and_asks_once() -> None:
    fn = Counting()
    digest = Digest(fn, cache={})
    once = apply(shapeclip.compress_detailed(LOG, "bash", 4000, digest=digest), digest)
    twice = apply(once, digest)
    assert twice is once and once.text.count(LEAD) == 1 and len(fn.asked) == 1
    assert asyncio.run(aapply(once, digest)) is once and len(fn.asked) == 1
    # A digest that failed is not asked again either.
    failing = Digest(lambda *_: None, cache={})
    plain = apply(shapeclip.compress_detailed(LOG, "bash", 4000, digest=failing), failing)
    assert plain.digest is not None and plain.digest.fell_back and plain.digest_request is None
    assert apply(plain, digest) is plain


def test_a_result_with_no_request_comes_back_as_it_is() -> None:
    fn = Counting()
    small = LOG[:5000]  # omits fewer than 4,000 characters at this budget
    grep = "".join(f"src/pkg{i % 40}/mod{i % 7}.py:{i}:    return None\n" for i in range(5000))
    results = [
        shapeclip.compress_detailed(LOG, "bash", 4000),  # no digest given: no room, no request
        shapeclip.compress_detailed("fits", "bash", 4000, digest=fn),
        shapeclip.compress_detailed(small, "bash", 3000, digest=fn),
        shapeclip.compress_detailed(grep, "grep", 4000, digest=fn),
        shapeclip.compress_detailed(LOG, "bash", 700, digest=fn),  # under 800: no room left for one
    ]
    for result in results:
        assert result.digest_request is None and result.digest is None
        assert apply(result, fn) is result and asyncio.run(aapply(result, fn)) is result
    assert fn.asked == []


def test_apply_checks_its_arguments() -> None:
    result = shapeclip.compress_detailed(LOG, "bash", 4000, digest=Counting())
    with pytest.raises(TypeError, match=r"digest must be a shapeclip\.Digest or a callable"):
        apply(result, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"result must be a shapeclip\.Compressed, not str"):
        apply(result.text, Counting())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"digest must be a shapeclip\.Digest or a callable"):
        asyncio.run(aapply(shapeclip.compress_detailed("fits"), "openai"))  # type: ignore[arg-type]


def answer_about(omitted: str, tool: str) -> str:
    """A digest whose answer depends on what it reads, of any length up to a few thousand."""
    return f"{tool} output of {len(omitted)} characters, " * (len(omitted) % 97)


async def aanswer_about(omitted: str, tool: str) -> str:
    return answer_about(omitted, tool)


@given(
    cut=st.integers(0, len(LOG)),
    inserted=outputs,
    budget=st.integers(1, 20_000),
    tool=tools,
)
def test_apply_and_aapply_give_what_compress_and_acompress_give(
    cut: int, inserted: str, budget: int, tool: str | None
) -> None:
    text = LOG[:cut] + inserted + LOG[cut:]
    for fn in (answer_about, aanswer_about):
        digest = Digest(fn, cache={})
        planned = shapeclip.compress_detailed(text, tool, budget, digest=digest)
        applied = apply(planned, digest)
        assert len(applied.text) <= budget and len(planned.text) <= budget
        assert shapeclip.compress(text, tool, budget, digest=Digest(fn, cache={})) == applied.text
        awaited = asyncio.run(aapply(planned, Digest(fn, cache={})))
        assert awaited.text == applied.text
        assert asyncio.run(shapeclip.acompress(text, tool, budget, digest=Digest(fn, cache={}))) == applied.text


def test_a_compressor_finishes_as_compress_detailed_and_apply_do() -> None:
    def stream(digest: Digest) -> shapeclip.Compressor:
        compressor = shapeclip.Compressor("bash", 4000, digest=digest)
        for i in range(0, len(LOG), 6000):
            compressor.feed(LOG[i : i + 6000])
        return compressor

    fn = Counting()
    digest = Digest(fn, cache={})
    detailed = stream(digest).finish_detailed()
    assert fn.asked == [] and detailed == shapeclip.compress_detailed(LOG, "bash", 4000, digest=digest)
    expected = apply(detailed, Digest(fn, cache={})).text
    assert stream(Digest(fn, cache={})).finish() == expected
    assert asyncio.run(stream(Digest(AsyncCounting(), cache={})).afinish()) == expected
    assert not hasattr(shapeclip.Compressor, "afinish_detailed")
    assert not hasattr(shapeclip, "acompress_detailed")


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"fn": "openai"}, TypeError, "digest must be a callable"),
        ({"fn": None}, TypeError, "digest must be a callable"),
        ({"timeout": True}, TypeError, "digest timeout must be a number of seconds, not bool"),
        ({"timeout": "10"}, TypeError, "digest timeout must be a number of seconds, not str"),
        ({"timeout": 0}, ValueError, "digest timeout must be more than 0 seconds, got 0"),
        ({"timeout": -1.5}, ValueError, "digest timeout must be more than 0 seconds, got -1.5"),
        ({"timeout": math.nan}, ValueError, "digest timeout must be more than 0 seconds, got nan"),
        ({"cache": []}, TypeError, "digest cache must be a mutable mapping"),
        ({"cache": frozenset()}, TypeError, "digest cache must be a mutable mapping"),
    ],
)
def test_a_digest_checks_its_fields_when_it_is_made(
    fields: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Digest(**{"fn": Counting(), **fields})


def test_a_digest_is_a_frozen_value_with_the_documented_defaults() -> None:
    fn = Counting()
    digest = Digest(fn)
    assert (digest.fn, digest.timeout, digest.cache) == (fn, DEFAULT_TIMEOUT, None)
    assert Digest(fn, 2) == Digest(fn, timeout=2) and Digest(fn, 0.25, {}).timeout == 0.25
    with pytest.raises(dataclasses.FrozenInstanceError):
        digest.timeout = 1  # type: ignore[misc]
    # The keywords it replaced are gone from every entry point.
    for call in (
        lambda: shapeclip.compress(LOG, "bash", 4000, digest=fn, digest_timeout=1),  # type: ignore[call-arg]
        lambda: shapeclip.Compressor("bash", 4000, digest=fn, digest_cache={}),  # type: ignore[call-arg]
        lambda: compress_messages([], digest=fn, digest_cache={}),  # type: ignore[call-arg]
    ):
        with pytest.raises(TypeError, match="unexpected keyword argument"):
            call()


def test_a_bare_callable_is_digest_of_that_callable() -> None:
    # Both use the shared default cache: the second call is answered from it, with the same bytes.
    fn = Counting("the build compiled every module")
    bare = shapeclip.compress_detailed(LOG, "bash", 4000, digest=fn)
    wrapped = shapeclip.compress_detailed(LOG, "bash", 4000, digest=Digest(fn))
    assert bare == wrapped
    assert apply(bare, fn).text == apply(wrapped, Digest(fn)).text == shapeclip.compress(LOG, "bash", 4000, digest=fn)
    assert shapeclip.compress(LOG, "bash", 4000, digest=Digest(fn)) == shapeclip.compress(LOG, "bash", 4000, digest=fn)
    assert len(fn.asked) == 1


def test_the_timeout_and_cache_of_a_digest_are_the_ones_used() -> None:
    released = threading.Event()

    def slow(omitted: str, tool: str) -> str:
        released.wait(5)
        return "too late"

    started = time.perf_counter()
    result = apply(shapeclip.compress_detailed(LOG, "bash", 4000, digest=slow), Digest(slow, timeout=0.2, cache={}))
    released.set()
    assert time.perf_counter() - started < 2
    assert (
        result.digest is not None and result.digest.fell_back and "timed out after 0.2 s" in str(result.digest.reason)
    )
    cache: dict[str, str] = {}
    apply(shapeclip.compress_detailed(LOG, "bash", 4000, digest=Counting()), Digest(Counting(), cache=cache))
    assert list(cache.values()) == ["every module compiled"]


def chat(output: str) -> list[dict[str, Any]]:
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": output},
    ]


def test_the_messages_helpers_take_a_digest_and_its_settings() -> None:
    fn = Counting("counted the lines")
    messages = chat(LOG)
    out, report = compress_messages(messages, budget=4000, digest=Digest(fn, cache={}))
    assert out[1]["content"] == shapeclip.compress(LOG, "bash", 4000, digest=Digest(fn, cache={}))
    assert compress_messages(messages, budget=4000, digest=fn).messages == out
    awaited = asyncio.run(shapeclip.acompress_messages(messages, budget=4000, digest=Digest(AsyncCounting(fn.answer))))
    assert awaited.messages == out
    (compressed,) = report.results[0].compressions
    assert compressed.digest is not None and not compressed.digest.fell_back and compressed.digest_request is None

    def slow(omitted: str, tool: str) -> str:
        time.sleep(1)
        return "too late"

    timed_out = compress_messages(messages, budget=4000, digest=Digest(slow, timeout=0.1, cache={}))
    (plain,) = timed_out.report.results[0].compressions
    assert plain.digest is not None and plain.digest.fell_back and LEAD not in timed_out.messages[1]["content"]


def test_the_request_is_data_a_caller_can_keep() -> None:
    result = shapeclip.compress_detailed(LOG, "bash", 4000, digest=Counting())
    assert isinstance(result, Compressed) and result.digest_request is not None
    request = result.digest_request
    assert dataclasses.asdict(request) == {
        "sample": request.sample,
        "tool_name": "bash",
        "room": request.room,
        "at": request.at,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.room = 0  # type: ignore[misc]


def test_the_documented_example_of_apply_runs_as_written() -> None:
    page = (Path(__file__).parent.parent / "docs" / "digest.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(import shapeclip\.digest\n.*?)```", page, re.DOTALL)
    fn = Counting()
    scope: dict[str, Any] = {"build_log": LOG, "digest": Digest(fn, cache={})}
    exec(example, scope)
    assert scope["result"].text == shapeclip.compress(LOG, "bash", 16_000, digest=Digest(fn, cache={}))
    assert scope["result"].digest is not None and scope["result"].digest_request is None
