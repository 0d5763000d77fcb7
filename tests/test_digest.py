"""The digest: asked only when due, fed a bounded spread sample, written into the marker within
the budget, cached, and degrading to the plain marker on every failure. Driven through the real
`openai` and `anthropic` SDK clients against a loopback server."""

from __future__ import annotations

import asyncio
import functools
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from llm_server import NORMAL, serve
from shapeclip import Compressed, Digest
from shapeclip.digest import LRU, aapply, anthropic_messages, apply, openai_chat
from shapeclip.digest.run import LEAD

LOG = "".join(f"[{i:06}] compiling src/module_{i % 97}.c ... ok\n" for i in range(20_000))
DIGESTED = re.compile(re.escape(LEAD) + r"(.*?)\]")
# Brackets in an answer are made round, so no answer can close or open a marker.
CLEAN_NORMAL = NORMAL.replace("[", "(").replace("]", ")")


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with serve() as running:
        yield running


def clients(server: Any) -> dict[str, Any]:
    host, port = server.server_address
    return {
        "openai": openai.OpenAI(api_key="test", base_url=f"http://{host}:{port}/v1", max_retries=0),
        "anthropic": anthropic.Anthropic(api_key="test", base_url=f"http://{host}:{port}", max_retries=0),
    }


def adapter(server: Any, sdk: str, model: str, **kwargs: Any) -> Any:
    client = clients(server)[sdk]
    make = openai_chat if sdk == "openai" else anthropic_messages
    return make(client, model, **kwargs)


def without_digest(text: str) -> str:
    return DIGESTED.sub("]", text)


def detailed(text: str, tool: str | None, budget: int, digest: Digest) -> Compressed:
    """`compress_detailed` with its digest asked, as `compress` asks it."""
    return apply(shapeclip.compress_detailed(text, tool, budget, digest=digest), digest)


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_a_normal_answer_lands_in_the_marker_with_its_costs(server: Any, sdk: str) -> None:
    result = detailed(LOG, "bash", 4000, Digest(adapter(server, sdk, "normal"), cache={}))
    assert len(result.text) <= 4000
    assert f"{LEAD}{CLEAN_NORMAL}]" in result.text
    call = result.digest
    assert call is not None and not call.fell_back and not call.cached
    assert call.usage and call.usage.get("prompt_tokens", call.usage.get("input_tokens")) == 1234
    assert call.chars_out == len(NORMAL) and 0 < call.chars_in <= 24_000 and call.latency_s > 0
    path, request = server.requests[-1]
    sent = request["messages"][0]["content"]
    assert "at most 120 words" in sent and re.search(r"^line \d+: \[\d+\] compiling", sent, re.M)
    assert request["model"] == "normal" and path.endswith("/chat/completions" if sdk == "openai" else "/messages")


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
@pytest.mark.parametrize("model", ["e429", "e500", "malformed"])
def test_api_failures_give_the_plain_marker(server: Any, sdk: str, model: str) -> None:
    plain = shapeclip.compress(LOG, "bash", 4000, digest=Digest(lambda *_: None, cache={}))
    result = detailed(LOG, "bash", 4000, Digest(adapter(server, sdk, model), cache={}))
    assert result.text == plain and LEAD not in result.text
    assert result.digest is not None and result.digest.fell_back and result.digest.reason


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_an_overlong_answer_is_shortened_at_a_word_to_the_room_left(server: Any, sdk: str) -> None:
    for budget in (1000, 4000, 16_000):
        result = detailed(LOG, "bash", budget, Digest(adapter(server, sdk, "overlong"), cache={}))
        assert len(result.text) <= budget
        written = DIGESTED.search(result.text)
        assert written is not None and written.group(1).endswith("\u2026")
        assert re.fullmatch(r"(word\d+ )*word\d+\u2026", written.group(1))


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_a_slow_model_times_out_to_the_plain_marker(server: Any, sdk: str) -> None:
    digest = adapter(server, sdk, "slow", timeout=5.0)
    started = time.perf_counter()
    result = detailed(LOG, "bash", 4000, Digest(digest, timeout=0.5, cache={}))
    assert time.perf_counter() - started < 2.5
    assert result.digest is not None and result.digest.fell_back and "timed out" in (result.digest.reason or "")
    assert LEAD not in result.text


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_async_clients_work_through_acompress(server: Any, sdk: str) -> None:
    host, port = server.server_address
    if sdk == "openai":
        digest = openai_chat(
            openai.AsyncOpenAI(api_key="t", base_url=f"http://{host}:{port}/v1", max_retries=0), "normal"
        )
    else:
        client = anthropic.AsyncAnthropic(api_key="t", base_url=f"http://{host}:{port}", max_retries=0)
        digest = anthropic_messages(client, "normal")
    out = asyncio.run(shapeclip.acompress(LOG, "bash", 4000, digest=Digest(digest, cache={})))
    assert f"{LEAD}{CLEAN_NORMAL}]" in out and len(out) <= 4000


def test_the_cache_gives_the_same_bytes_without_asking_again() -> None:
    calls: list[str] = []

    def digest(omitted: str, tool: str) -> str:
        calls.append(omitted)
        return f"answer number {len(calls)}"

    cache = LRU()
    first = detailed(LOG, "bash", 4000, Digest(digest, cache=cache))
    again = detailed(LOG, "bash", 4000, Digest(digest, cache=cache))
    assert first.text == again.text and len(calls) == 1
    assert again.digest is not None and again.digest.cached


def test_asked_only_for_large_omissions_and_never_for_search() -> None:
    asked: list[str] = []

    def digest(omitted: str, tool: str) -> str:
        asked.append(tool)
        return "x"

    small = LOG[:5000]  # omits fewer than 4,000 characters at this budget
    assert detailed(small, "bash", 3000, Digest(digest, cache={})).digest is None
    grep = "".join(f"src/pkg{i % 40}/mod{i % 7}.py:{i}:    return None\n" for i in range(5000))
    result = detailed(grep, "grep", 4000, Digest(digest, cache={}))
    assert result.shape == "search" and result.digest is None
    assert asked == []


def test_the_model_reads_a_spread_sample_of_a_huge_middle() -> None:
    seen: list[str] = []
    lines = 100_000
    big = "".join(f"step {i} of the run: ok\n" if i != 77_777 else "step 77777: error: full\n" for i in range(lines))
    assert len(big) > 2_000_000
    # A clip (no shell tool, so no log plan) omits the error line along with the rest.
    shapeclip.compress(big, None, 4000, digest=Digest(lambda omitted, tool: seen.append(omitted) or "fine", cache={}))
    (sample,) = seen
    assert len(sample) <= 24_000
    numbers = [int(n) for n in re.findall(r"^line (\d+):", sample, re.M)]
    assert numbers == sorted(numbers) and numbers[0] < 5_000 and numbers[-1] > 95_000
    assert "line 77778: step 77777: error: full" in sample


def test_exceptions_and_bad_answers_never_raise() -> None:
    def boom(omitted: str, tool: str) -> str:
        raise RuntimeError("model down")

    for digest in (boom, lambda *_: "", lambda *_: 42, lambda *_: "y" * 50_000, lambda *_: "  \n "):
        result = detailed(LOG, "bash", 4000, Digest(digest, cache={}))  # type: ignore[arg-type]
        assert len(result.text) <= 4000 and LEAD not in result.text
        assert result.digest is not None and result.digest.fell_back


def test_answers_cannot_pose_as_markers() -> None:
    out = shapeclip.compress(
        LOG, "bash", 4000, digest=Digest(lambda *_: "[shapeclip: fake]\n\nsecond paragraph", cache={})
    )
    digest = DIGESTED.search(out)
    assert digest is not None and digest.group(1) == "(shapeclip - fake) second paragraph"


def test_issue_11_13_answers_lose_controls_escapes_and_invisible_format_characters() -> None:
    answer = (
        "Build \x00failed\x1b[31m in\x1b[0m src/a.c\u202e:12\u2066 and\u2069 \u200bsrc/b.c\ufeff;\r\n"
        "\x9b2J ok\u00ad\x7f \ud800 then\x1b]8;;http://x\x07 [lines 3-4 omitted] and Shape\u200bClip : fake "
        "\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065 \U0001f468\u200d\U0001f469 \u0645\u200c\u06cc"
    )
    out = shapeclip.compress(LOG, "bash", 4000, digest=Digest(lambda *_: answer, cache={}))
    out.encode("utf-8")  # the lone surrogate became a character every encoding can carry
    digest = DIGESTED.search(out)
    assert digest is not None, out
    assert digest.group(1) == (
        "Build failed in src/a.c:12 and src/b.c; 2J ok \ufffd then (lines 3-4 omitted) and shapeclip - fake "
        "\U0001f468\u200d\U0001f469 \u0645\u200c\u06cc"
    )


def test_issue_11_14_a_long_answer_is_not_cut_inside_a_character() -> None:
    answer = "x" * 11 + "e\u0301" * 1000
    out = shapeclip.compress(LOG, "bash", 4000, digest=Digest(lambda *_: answer, cache={}))
    digest = DIGESTED.search(out)
    assert digest is not None and digest.group(1).endswith("\u2026")
    assert (len(digest.group(1)) - 1 - 11) % 2 == 0, digest.group(1)[-5:]


def test_bad_digest_arguments_are_errors() -> None:
    with pytest.raises(TypeError, match=r"digest must be a shapeclip\.Digest or a callable"):
        shapeclip.compress(LOG, "bash", 4000, digest="openai")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="digest timeout must be more than 0 seconds, got 0"):
        Digest(lambda *_: "x", timeout=0)
    with pytest.raises(TypeError, match="digest cache must be a mutable mapping"):
        Digest(lambda *_: "x", cache=[])  # type: ignore[arg-type]


@given(answer=st.text(), budget=st.sampled_from([800, 1000, 2500, 4000, 16_000]), cut=st.integers(0, 19_000))
def test_any_answer_keeps_the_bound_and_leaves_the_plan_untouched(answer: str, budget: int, cut: int) -> None:
    text = LOG[cut:]
    with_answer = detailed(text, "bash", budget, Digest(lambda *_: answer, cache={}))
    plain = detailed(text, "bash", budget, Digest(lambda *_: None, cache={}))
    assert len(with_answer.text) <= budget
    assert without_digest(with_answer.text) == plain.text
    assert (with_answer.omitted_ranges, with_answer.omitted_chars) == (plain.omitted_ranges, plain.omitted_chars)


def test_acompress_runs_a_sync_digest_and_streams_take_digests_too() -> None:
    out = asyncio.run(shapeclip.acompress(LOG, "bash", 4000, digest=Digest(lambda *_: "sync answer", cache={})))
    assert f"{LEAD}sync answer]" in out

    async def answer(omitted: str, tool: str) -> str:
        return f"async answer for {tool}"

    compressor = shapeclip.Compressor("bash", 4000, digest=Digest(answer, cache={}))
    for i in range(0, len(LOG), 7000):
        compressor.feed(LOG[i : i + 7000].encode())
    streamed = asyncio.run(compressor.afinish())
    assert f"{LEAD}async answer for bash]" in streamed
    assert streamed == asyncio.run(shapeclip.acompress(LOG, "bash", 4000, digest=Digest(answer, cache={})))


# A digest that sleeps 10 s under a 0.3 s timeout; the script prints whether the marker stayed plain.
HANGING = """
import asyncio, time, shapeclip
LOG = "".join(f"line {i} of the build\\n" for i in range(5000))
def sleeper(omitted, tool):
    time.sleep(10)
    return "too late"
async def asleeper(omitted, tool):
    await asyncio.sleep(10)
    return "too late"
options = dict(digest=shapeclip.Digest(sleeper, timeout=0.3, cache={}))
aoptions = dict(digest=shapeclip.Digest(asleeper, timeout=0.3, cache={}))
out = %s
print("plain" if "Digest" not in out else "digested")
"""


@pytest.mark.parametrize(
    "call",
    [
        "shapeclip.compress(LOG, 'bash', 4000, **options)",
        "shapeclip.compress(LOG, 'bash', 4000, **aoptions)",
        "asyncio.run(shapeclip.acompress(LOG, 'bash', 4000, **options))",
        "asyncio.run(shapeclip.acompress(LOG, 'bash', 4000, **aoptions))",
    ],
    ids=["compress, sync digest", "compress, async digest", "acompress, sync digest", "acompress, async digest"],
)
def test_issue_11_6_a_hanging_digest_does_not_hold_up_process_exit(call: str) -> None:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", HANGING % call], capture_output=True, timeout=60)
    elapsed = time.perf_counter() - started
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == "plain"
    # The digest sleeps 10 s; a process that waited for it would take at least that long.
    assert elapsed < 5, f"the process exited {elapsed:.1f} s after it started"


def digested_answer(text: str) -> str | None:
    found = DIGESTED.search(text)
    return None if found is None else found.group(1)


def test_issue_11_7_callables_of_one_qualified_name_do_not_share_cached_answers() -> None:
    def answering(word: str) -> Any:
        def digest(omitted: str, tool: str) -> str:
            return word

        return digest

    cache = LRU()
    closures = [answering("alpha"), answering("beta")]
    lambdas = [lambda *_: "gamma", lambda *_: "delta"]
    for digest, word in zip([*closures, *lambdas], ["alpha", "beta", "gamma", "delta"], strict=True):
        assert digested_answer(shapeclip.compress(LOG, "bash", 4000, digest=Digest(digest, cache=cache))) == word
    again = detailed(LOG, "bash", 4000, Digest(closures[0], cache=cache))
    assert again.digest is not None and again.digest.cached and digested_answer(again.text) == "alpha"
    # One after another, each dropped before the next is made, so that ids are reused.
    for word in ("one", "two", "three", "four"):
        assert (
            digested_answer(shapeclip.compress(LOG, "bash", 4000, digest=Digest(answering(word), cache=cache))) == word
        )


class Summariser:
    def __init__(self) -> None:
        self.asked = 0

    def summarise(self, omitted: str, tool: str) -> str:
        self.asked += 1
        return f"answer {self.asked}"


class SlottedSummariser:
    # No __weakref__ slot: such an object cannot be tracked, so nothing tells it from a later one.
    __slots__ = ("asked",)

    def __init__(self) -> None:
        self.asked = 0

    def __call__(self, omitted: str, tool: str) -> str:
        self.asked += 1
        return f"answer {self.asked}"


def test_a_bound_method_is_one_digest_and_an_untrackable_one_is_never_cached() -> None:
    cache = LRU()
    first, second = Summariser(), Summariser()
    for digest in (first.summarise, first.summarise, second.summarise):
        assert digested_answer(shapeclip.compress(LOG, "bash", 4000, digest=Digest(digest, cache=cache))) == "answer 1"
    slotted = SlottedSummariser()
    for asked in (1, 2):
        out = shapeclip.compress(LOG, "bash", 4000, digest=Digest(slotted, cache=cache))
        assert digested_answer(out) == f"answer {asked}" and len(cache) == 2


class AnsweringObject:
    def __call__(self, omitted: str, tool: str) -> str:
        return f"object answer for {tool}"


class AsyncAnsweringObject:
    def __init__(self) -> None:
        self.loops: list[asyncio.AbstractEventLoop] = []

    async def __call__(self, omitted: str, tool: str) -> str:
        self.loops.append(asyncio.get_running_loop())
        return f"async object answer for {tool}"


def answer_with(prefix: str, omitted: str, tool: str) -> str:
    return f"{prefix} for {tool}"


async def aanswer_with(prefix: str, omitted: str, tool: str) -> str:
    return f"{prefix} for {tool}"


def test_issue_11_8_partials_and_callable_objects_work_as_digests() -> None:
    sync_digests = {
        "object answer": AnsweringObject(),
        "partial answer": functools.partial(answer_with, "partial answer"),
    }
    for expected, digest in sync_digests.items():
        cache = LRU()
        result = detailed(LOG, "bash", 4000, Digest(digest, cache=cache))
        assert digested_answer(result.text) == f"{expected} for bash", result.digest
        again = detailed(LOG, "bash", 4000, Digest(digest, cache=cache))
        assert again.digest is not None and again.digest.cached and again.text == result.text
        assert asyncio.run(shapeclip.acompress(LOG, "bash", 4000, digest=Digest(digest, cache={}))) == result.text
    async_digests = {
        "async object answer": AsyncAnsweringObject(),
        "async partial answer": functools.partial(aanswer_with, "async partial answer"),
    }
    for expected, digest in async_digests.items():
        out = asyncio.run(shapeclip.acompress(LOG, "bash", 4000, digest=Digest(digest, cache={})))
        assert digested_answer(out) == f"{expected} for bash"
        assert shapeclip.compress(LOG, "bash", 4000, digest=Digest(digest, cache={})) == out

    async def in_this_loop(digest: AsyncAnsweringObject) -> asyncio.AbstractEventLoop:
        await shapeclip.acompress(LOG, "bash", 4000, digest=Digest(digest, cache={}))
        return asyncio.get_running_loop()

    # An async client belongs to the caller's loop, so acompress must not run it in another.
    awaited = AsyncAnsweringObject()
    assert awaited.loops == [asyncio.run(in_this_loop(awaited))]


class FullCache(dict[str, str]):
    def __setitem__(self, key: str, value: str) -> None:
        raise OSError("disk full")


class OddCache(dict[str, str]):
    def get(self, key: str, default: object = None) -> Any:
        return 42


class UnmeasurableAnswer(str):
    def __len__(self) -> int:
        raise RuntimeError("broken answer")


class AnswerWithBrokenUsage(str):
    @property
    def usage(self) -> Any:
        raise RuntimeError("broken usage")


def test_issue_11_9_acompress_falls_back_wherever_compress_does() -> None:
    cases = {
        "a cache that cannot store": (lambda *_: "fine answer", FullCache(), "fine answer"),
        "a cache that gives back no text": (lambda *_: "fine answer", OddCache(), "fine answer"),
        "an answer whose methods raise": (lambda *_: UnmeasurableAnswer("x"), {}, None),
        "an answer whose usage raises": (lambda *_: AnswerWithBrokenUsage("x"), {}, None),
    }
    for name, (digest, cache, answer) in cases.items():
        asked = Digest(digest, cache=cache)
        sync = detailed(LOG, "bash", 4000, asked)
        run_async = asyncio.run(aapply(shapeclip.compress_detailed(LOG, "bash", 4000, digest=asked), asked))
        assert digested_answer(sync.text) == answer, name
        assert run_async.text == sync.text, name
        assert sync.digest is not None and sync.digest.fell_back == (answer is None), name
