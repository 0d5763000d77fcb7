"""The Hermes plugin, found by Hermes' own plugin loader through the `hermes_agent.plugins`
entry point, enabled in a Hermes home of the test's own, and applied to tool results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hook_events import BUILD_LOG, SOURCE, read_plan

plugins = pytest.importorskip("hermes_cli.plugins", reason="hermes-agent needs Python 3.11 or newer")


@pytest.fixture
def hermes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    (tmp_path / "config.yaml").write_text("plugins:\n  enabled:\n    - shapeclip\n")
    plugins.discover_plugins(force=True)
    yield plugins.get_plugin_manager()
    monkeypatch.delenv("HERMES_HOME")
    plugins.discover_plugins(force=True)


def test_the_entry_point_plugin_loads_and_registers_its_hooks(hermes: object) -> None:
    (entry,) = [p for p in plugins.get_plugin_manager().list_plugins() if p["name"] == "shapeclip"]
    assert entry["enabled"], entry
    assert plugins.has_hook("transform_tool_result") and plugins.has_hook("transform_terminal_output")


def test_a_long_tool_result_is_compressed_before_it_enters_the_context(hermes: object) -> None:
    results = plugins.invoke_hook(
        "transform_tool_result", tool_name="web_extract", args={"url": "x"}, result=BUILD_LOG, task_id="t"
    )
    (text,) = [r for r in results if isinstance(r, str)]
    assert len(text) <= 16_000 < len(BUILD_LOG) and "[shapeclip:" in text and "web_extract" in text
    assert plugins.invoke_hook("transform_tool_result", tool_name="web_extract", args={}, result="short") == []


def test_terminal_output_is_compressed_as_shell_output_before_hermes_cuts_it(hermes: object) -> None:
    results = plugins.invoke_hook(
        "transform_terminal_output", command="make", output=BUILD_LOG, returncode=2, task_id="", env_type="local"
    )
    (text,) = results
    assert len(text) <= 16_000 and "error: linker failed" in text and "shapeclip show" in text
    # The terminal tool's JSON result is the first hook's business, not compressed again.
    assert plugins.invoke_hook("transform_tool_result", tool_name="terminal", args={}, result=BUILD_LOG) == []


def test_a_file_the_terminal_printed_is_planned_as_a_read(hermes: object) -> None:
    for command, read in (("cat steps.py", True), ("make", False)):
        (text,) = plugins.invoke_hook(
            "transform_terminal_output", command=command, output=SOURCE * 6, returncode=0, task_id="", env_type="local"
        )
        assert read_plan(text) is read, command


def test_a_plugin_that_is_not_enabled_is_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    plugins.discover_plugins(force=True)
    assert plugins.invoke_hook("transform_tool_result", tool_name="x", args={}, result=BUILD_LOG) == []
