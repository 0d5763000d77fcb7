"""Guards that a build really ships its native core: CI sets SHAPECLIP_REQUIRE_NATIVE=1, so a
broken wheel cannot pass on the fallback."""

from __future__ import annotations

import os

import pytest

import shapeclip
from shapeclip import api


@pytest.mark.skipif(os.environ.get("SHAPECLIP_REQUIRE_NATIVE") != "1", reason="only where the core must be present")
def test_the_native_core_is_the_backend() -> None:
    assert shapeclip.backend() == "native"
    assert api._core is not None and not api._core.DEBUG_BUILD
    big = "x\n" * 50_000
    assert shapeclip.compress_detailed(big, "bash", 1000).backend == "native"


@pytest.mark.skipif(api._core is None, reason="needs the native core")
def test_the_core_takes_its_numbers_by_name_only() -> None:
    # Budget, weights and the digest's room are all numbers: given by position, two could be
    # swapped without an error.
    assert api._core is not None
    with pytest.raises(TypeError):
        api._core.Compressor(1000, "shell", "bash", 3000, 6000)  # type: ignore[misc]
    core = api._core.Compressor(budget=10, kind="shell", tool="bash", head_weight=3000, tail_weight=6000)
    core.feed("x\n" * 100)
    assert len(core.finish().text) <= 10
