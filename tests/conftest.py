"""Shared fixtures: hypothesis profiles and the two backends every invariant runs on.

`SHAPECLIP_HYPOTHESIS=slow` selects thousands of examples per property; the default `fast`
profile keeps CI quick. `SHAPECLIP_HYPOTHESIS=fuzz` runs a hundred thousand per property, for a
long fuzz of the facade (an hour or more; `--hypothesis-show-statistics` says how many ran).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from shapeclip import api

# A shell without job control starts a command it puts in the background (`cmd &`, as a CI
# script may) with SIGINT ignored, and every process started from it inherits that; the tests
# of what Ctrl-C does need it delivered, to this process and to those the tests start.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The backend fixture only patches module state that stays the same for every example.
_REUSED_FIXTURE = [HealthCheck.function_scoped_fixture]
settings.register_profile("fast", max_examples=150, deadline=None, suppress_health_check=_REUSED_FIXTURE)
settings.register_profile(
    "slow",
    max_examples=4000,
    deadline=None,
    suppress_health_check=[*_REUSED_FIXTURE, HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    max_examples=100_000,
    deadline=None,
    suppress_health_check=[*_REUSED_FIXTURE, HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("SHAPECLIP_HYPOTHESIS", "fast"))


@pytest.fixture(autouse=True)
def _private_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI stores pipes and commands by default: never in the real cache during tests."""
    monkeypatch.setenv("SHAPECLIP_STORE", str(tmp_path_factory.mktemp("store") / "shapeclip"))


@pytest.fixture(params=["native", "python"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Runs a test once on the native core and once on the pure-Python fallback."""
    if request.param == "python":
        monkeypatch.setattr(api, "_core", None)
        monkeypatch.setattr(api, "_warned", True)
    elif api._core is None:
        pytest.skip("the native core is not built")
    yield request.param
