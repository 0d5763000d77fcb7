"""The pure-Python fallback when the core is missing: warns once, keeps the bound. (A core that
fails is tested with real panics, in test_fault_injection.py.)"""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from shapeclip import api, fallback

LOG = "".join(f"step {i}: compiling module_{i}.c ... ok\n" for i in range(5000))


def test_missing_core_warns_once_and_still_clips(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(api, "_core", None)
    monkeypatch.setattr(api, "_warned", False)
    caplog.set_level(logging.WARNING, logger="shapeclip")
    assert shapeclip.backend() == "python"
    for budget in (1, 100, 4000):
        result = shapeclip.compress_detailed(LOG, "bash", budget)
        assert len(result.text) <= budget and result.backend == "python"
    assert len(caplog.records) == 1


def test_the_last_guard_keeps_the_bound_even_if_both_backends_break_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "_core", None)
    monkeypatch.setattr(api, "_warned", True)
    monkeypatch.setattr(
        fallback.Clipper, "_plan", lambda self, *a: fallback.ClipResult("x" * 999, len(LOG), 5000, None)
    )
    result = shapeclip.compress_detailed(LOG, "bash", 50)
    assert result.text == "\u2026"
    assert result.omitted_chars == len(LOG)


class _OverBudgetCore:
    """A stand-in for the native module whose every answer is one character over the budget."""

    class Compressor:
        def __init__(self, *, budget: int, **_: object) -> None:
            self._budget = budget

        def feed(self, chunk: str | bytes) -> None:
            pass

        def finish(self, way_back: tuple[str, str] | None = None) -> SimpleNamespace:
            text = "x" * (self._budget + 1)
            return SimpleNamespace(
                text=text, shape="clip", input_chars=0, input_lines=0, omitted_chars=0, omitted_lines=0,
                omitted_ranges=[], digest_at=None, digest_input=None, digest_room=None,
            )  # fmt: skip


def test_a_core_answer_over_the_budget_is_answered_like_a_core_failure(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    monkeypatch.setattr(api, "_core", None)
    monkeypatch.setattr(api, "_warned", True)
    plain = shapeclip.compress_detailed(LOG, "bash", 500)
    monkeypatch.setattr(api, "_core", _OverBudgetCore)
    monkeypatch.setattr(api, "_warned", False)
    caplog.set_level(logging.WARNING, logger="shapeclip")
    # A call still holds its text, and clips it in Python.
    assert shapeclip.compress_detailed(LOG, "bash", 500) == plain
    # A stream's chunks are gone: with a stored copy it is clipped from that, as a call with
    # the same store is; without one, the result says that nothing could be kept.
    store = shapeclip.Store(tmp_path / "store")
    stream = shapeclip.Compressor("bash", 500, store=store)
    for i in range(0, len(LOG), 1000):
        stream.feed(LOG[i : i + 1000])
    stored = stream.finish_detailed()
    assert stored.stored is not None and stored.backend == "python"
    assert stored == shapeclip.compress_detailed(LOG, "bash", 500, store=store)
    lost = shapeclip.Compressor("bash", 500)
    lost.feed(LOG)
    assert lost.finish_detailed().shape == "failed"
    assert [r.getMessage() for r in caplog.records] == [
        "the native core exceeded the budget; using the pure-Python clip"
    ]


# Lines long enough, and enough of them, that most outputs are cut and a cut at a line's end
# leaves room.
LINES = st.lists(
    st.text(
        st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\r\n"), min_size=10, max_size=140
    ),
    min_size=20,
    max_size=200,
)


@pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")
@given(lines=LINES, budget=st.integers(200, 3000), tool=st.sampled_from(["bash", "read_file", "web_fetch"]))
def test_a_clip_is_the_same_on_both_backends(lines: list[str], budget: int, tool: str) -> None:
    # Both split the room, cut at line ends and give back what the cuts left the same way.
    text = "\n".join(lines) + "\n"
    native = shapeclip.compress_detailed(text, tool, budget)
    if native.shape != "clip":
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(api, "_core", None)
        patch.setattr(api, "_warned", True)
        assert shapeclip.compress(text, tool, budget) == native.text
