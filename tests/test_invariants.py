"""The contract every result keeps, on both backends: the budget bound, passthrough, determinism,
valid text; and the native clip agrees with the pure-Python clip, its oracle."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_clips_agree
from strategies import budgets, outputs, tools


@given(text=outputs, budget=budgets, tool=tools)
def test_result_is_within_budget_and_valid_text(backend: str, text: str, budget: int, tool: str | None) -> None:
    result = shapeclip.compress_detailed(text, tool, budget)
    assert len(result.text) <= budget
    result.text.encode("utf-8")  # no lone surrogates, nothing unencodable
    assert result.backend == backend or result.shape == "passthrough"


@given(text=st.text(max_size=300), budget=st.integers(1, 400))
def test_every_budget_from_one_is_honoured_for_any_text(backend: str, text: str, budget: int) -> None:
    assert len(shapeclip.compress(text, "bash", budget)) <= budget


@given(text=outputs, extra=st.integers(0, 50), tool=tools)
def test_fitting_text_is_returned_itself(backend: str, text: str, extra: int, tool: str | None) -> None:
    assert shapeclip.compress(text, tool, max(1, len(text) + extra)) is text


@given(text=outputs, budget=budgets, tool=tools)
def test_same_arguments_same_bytes(backend: str, text: str, budget: int, tool: str | None) -> None:
    first = shapeclip.compress(text, tool, budget)
    assert shapeclip.compress(text, tool, budget) == first
    assert shapeclip.compress(text.encode("utf-8"), tool, budget) == first


@given(text=outputs, budget=budgets, tool=tools)
def test_native_clip_equals_the_python_clip(text: str, budget: int, tool: str | None) -> None:
    assert_clips_agree(text, tool, budget)


def test_budgets_count_code_points_not_bytes() -> None:
    text = "\u4e2d\u6587\U0001f600e\u0301\n" * 5000
    for budget in (1, 7, 100, 4000):
        out = shapeclip.compress(text, "bash", budget)
        assert len(out) <= budget
        assert len(out.encode("utf-8")) > len(out)


def test_lone_surrogates_give_valid_text(backend: str) -> None:
    text = ("ok \ud800 line\n" * 3000) + "\udfff end"
    out = shapeclip.compress(text, None, 500)
    assert len(out) <= 500
    out.encode("utf-8")
    assert "\ufffd" in out


def test_same_output_in_another_process() -> None:
    text = "".join(f"{i} \u4e2d{'x' * (i % 97)}\r\n" for i in range(20_000))
    script = (
        "import sys, hashlib, shapeclip;"
        "t = sys.stdin.buffer.read().decode('utf-8');"
        "print(hashlib.sha256(shapeclip.compress(t, 'bash', 3000).encode()).hexdigest())"
    )
    child = subprocess.run([sys.executable, "-c", script], input=text.encode(), capture_output=True, check=True)
    here = hashlib.sha256(shapeclip.compress(text, "bash", 3000).encode()).hexdigest()
    assert child.stdout.decode().strip() == here
