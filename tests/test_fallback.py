"""The pure-Python fallback when the core is missing: warns once, keeps the bound. (A core that
fails is tested with real panics, in test_fault_injection.py.)"""

from __future__ import annotations

import logging

import pytest

import shapeclip
from shapeclip import api

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
        api.fallback.Clipper, "_plan", lambda self, *a: api.fallback.ClipResult("x" * 999, len(LOG), 5000, None)
    )
    result = shapeclip.compress_detailed(LOG, "bash", 50)
    assert result.text == "\u2026"
    assert result.omitted_chars == len(LOG)
