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
