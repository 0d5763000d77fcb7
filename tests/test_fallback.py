"""The pure-Python fallback: used when the core is missing or fails, warns once, keeps the bound."""

from __future__ import annotations

import logging

import pytest

import shapeclip
from shapeclip import api

LOG = "".join(f"step {i}: compiling module_{i}.c ... ok\n" for i in range(5000))


class _PanickingCore:
    """Stands in for the native Compressor and fails like a Rust panic that escaped its guard."""

    def __init__(self, *args: object, fail_on: str) -> None:
        self.fail_on = fail_on
        self.fed = 0

    def feed(self, chunk: object) -> None:
        self.fed += 1
        if self.fail_on == "feed" and self.fed == 3:
            raise api._core.PanicException("injected")  # type: ignore[union-attr]

    def finish(self) -> object:
        raise api._core.EngineError("injected")  # type: ignore[union-attr]


@pytest.fixture
def broken_core(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    if api._core is None:
        pytest.skip("the native core is not built")
    monkeypatch.setattr(api, "_warned", False)
    fail_on = request.param

    class Broken:
        def __init__(self, *args: object) -> None:
            self.inner = _PanickingCore(fail_on=fail_on)

        def feed(self, chunk: object) -> None:
            self.inner.feed(chunk)

        def finish(self) -> object:
            return self.inner.finish()

    monkeypatch.setattr(api._core, "Compressor", Broken)


@pytest.mark.parametrize("broken_core", ["feed", "finish"], indirect=True)
def test_a_failing_core_falls_back_without_losing_chunks(broken_core: None, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="shapeclip")
    compressor = shapeclip.Compressor("bash", 2000)
    for i in range(0, len(LOG), 10_000):
        compressor.feed(LOG[i : i + 10_000])
    result = compressor.finish_detailed()
    assert result.backend == "python"
    assert len(result.text) <= 2000
    assert result.input_chars == len(LOG)
    assert result.input_lines == 5000
    assert result.text.startswith("step 0:") and result.text.endswith("step 4999: compiling module_4999.c ... ok\n")
    assert len([r for r in caplog.records if "pure-Python" in r.message]) == 1


@pytest.mark.parametrize("broken_core", ["finish"], indirect=True)
def test_one_shot_falls_back_too(broken_core: None) -> None:
    out = shapeclip.compress_detailed(LOG, "bash", 3000)
    assert out.backend == "python" and len(out.text) <= 3000


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
        api.fallback.Clipper, "_plan", lambda self, *a: api.fallback.ClipResult("x" * 999, len(LOG), 5000, None)
    )
    result = shapeclip.compress_detailed(LOG, "bash", 50)
    assert result.text == "\u2026"
    assert result.omitted_chars == len(LOG)
