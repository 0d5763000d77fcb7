"""`shapeclip init NAME` on settings files as people have them: every other setting and hook
kept, an older shapeclip hook replaced where it was, nothing changed the second time, the
uninstall giving back what was there, and a file it cannot read left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shapeclip import init
from shapeclip.hooks import HARNESSES

# As Claude Code's settings documentation writes them: a schema, permissions, environment,
# a model, and hooks of the user's own on two events.
CLAUDE_SETTINGS: dict[str, Any] = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {
        "allow": ["Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)"],
        "deny": ["Bash(curl:*)", "Read(./.env)", "Read(./secrets/**)"],
    },
    "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "1", "OTEL_METRICS_EXPORTER": "otlp"},
    "model": "claude-sonnet-4-5",
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": 'npx prettier --write "$FILE"'}]}
        ],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send 'Claude Code' 'Awaiting input'"}]}],
    },
}
# As Gemini CLI's configuration documentation writes them, with a hook of the user's own.
GEMINI_SETTINGS: dict[str, Any] = {
    "general": {"vimMode": True, "preferredEditor": "code"},
    "ui": {"theme": "GitHub"},
    "security": {"auth": {"selectedType": "oauth-personal"}},
    "mcpServers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]}},
    "hooks": {
        "BeforeTool": [{"matcher": "write_file", "hooks": [{"name": "guard", "type": "command", "command": "g"}]}]
    },
}


#: A shapeclip run as a module, as an older `init` in another environment would have written it.
PYTHON = "/usr/bin/python3"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def write(path: Path, settings: object) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings)
    path.write_text(text)
    return text


def ours(name: str) -> dict[str, Any]:
    """The hooks block `shapeclip hook --print-config NAME` prints, for this test's shapeclip."""
    block: dict[str, Any] = json.loads(HARNESSES[name].config(init.hook_command(name, 16_000)))["hooks"]
    return block


def commands(settings: dict[str, Any]) -> list[str]:
    return [hook["command"] for groups in settings["hooks"].values() for group in groups for hook in group["hooks"]]


def test_claude_code_keeps_every_other_setting_and_uninstall_gives_them_back(home: Path) -> None:
    path = home / ".claude" / "settings.json"
    original = write(path, CLAUDE_SETTINGS)
    assert init.run(["claude-code"]) == 0
    settings = json.loads(path.read_text())
    assert {k: v for k, v in settings.items() if k != "hooks"} == {
        k: v for k, v in CLAUDE_SETTINGS.items() if k != "hooks"
    }
    assert settings["hooks"]["Notification"] == CLAUDE_SETTINGS["hooks"]["Notification"]
    # The user's own PostToolUse hook first, shapeclip's after it.
    assert (
        settings["hooks"]["PostToolUse"] == CLAUDE_SETTINGS["hooks"]["PostToolUse"] + ours("claude-code")["PostToolUse"]
    )
    assert (home / ".claude" / "settings.json.bak-shapeclip").read_text() == original

    assert init.run(["claude-code", "--uninstall"]) == 0
    assert json.loads(path.read_text()) == CLAUDE_SETTINGS


def test_a_second_run_changes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = home / ".gemini" / "settings.json"
    write(path, GEMINI_SETTINGS)
    assert init.run(["gemini"]) == 0
    once = path.read_text()
    (home / ".gemini" / "settings.json.bak-shapeclip").unlink()
    capsys.readouterr()
    assert init.run(["gemini"]) == 0
    assert path.read_text() == once
    assert not (home / ".gemini" / "settings.json.bak-shapeclip").exists()
    assert "nothing to change" in capsys.readouterr().out


def test_gemini_settings_round_trip(home: Path) -> None:
    path = home / ".gemini" / "settings.json"
    write(path, GEMINI_SETTINGS)
    assert init.run(["gemini"]) == 0
    settings = json.loads(path.read_text())
    assert settings["hooks"] == {**GEMINI_SETTINGS["hooks"], **ours("gemini")}
    assert {k: v for k, v in settings.items() if k != "hooks"} == {
        k: v for k, v in GEMINI_SETTINGS.items() if k != "hooks"
    }
    assert init.run(["gemini", "--uninstall"]) == 0
    assert json.loads(path.read_text()) == GEMINI_SETTINGS


def test_an_older_shapeclip_hook_is_replaced_where_it_was_and_hooks_beside_it_stay(home: Path) -> None:
    older = {
        "hooks": {
            # The PreToolUse rewrite of earlier versions, in one group with a hook of the user's.
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "/old/venv/bin/shapeclip hook claude-code"},
                        {"type": "command", "command": "audit.sh"},
                    ],
                }
            ],
            "PostToolUse": [
                {
                    "matcher": "mcp__.*",
                    "hooks": [{"type": "command", "command": f"{PYTHON} -m shapeclip hook claude-code"}],
                },
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]},
            ],
            # Another harness's shapeclip hook is not this one's.
            "Stop": [{"hooks": [{"type": "command", "command": "shapeclip hook codex"}]}],
        }
    }
    path = home / ".claude" / "settings.json"
    write(path, older)
    assert init.run(["claude-code"]) == 0
    settings = json.loads(path.read_text())
    assert settings["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    ]
    assert settings["hooks"]["PostToolUse"] == [*ours("claude-code")["PostToolUse"], older["hooks"]["PostToolUse"][1]]
    assert settings["hooks"]["Stop"] == older["hooks"]["Stop"]
    assert [c for c in commands(settings) if "hook claude-code" in c] == [init.hook_command("claude-code", 16_000)]


def test_codex_gets_a_new_hooks_file_and_uninstall_leaves_it_without_a_hook(home: Path) -> None:
    path = home / ".codex" / "hooks.json"
    assert init.run(["codex", "--budget", "8000"]) == 0
    assert json.loads(path.read_text()) == json.loads(HARNESSES["codex"].config(init.hook_command("codex", 8000)))
    assert "--budget 8000" in commands(json.loads(path.read_text()))[0]
    assert not (home / ".codex" / "hooks.json.bak-shapeclip").exists()
    assert init.run(["codex", "--uninstall"]) == 0
    assert json.loads(path.read_text()) == {}


def test_project_settings_are_the_projects(home: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    project = tmp_path_factory.mktemp("project")
    assert init.run(["claude-code", "--project", str(project)]) == 0
    assert json.loads((project / ".claude" / "settings.json").read_text())["hooks"] == ours("claude-code")
    assert not (home / ".claude").exists()


def test_dry_run_prints_the_change_and_writes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = home / ".claude" / "settings.json"
    original = write(path, CLAUDE_SETTINGS)
    assert init.run(["claude-code", "--dry-run"]) == 0
    diff = capsys.readouterr().out
    assert diff.startswith(f"--- {path}\n+++ {path}\n@@ ")
    assert f'+            "command": {json.dumps(init.hook_command("claude-code", 16_000))}' in diff
    assert path.read_text() == original
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
    assert init.run(["gemini", "--dry-run"]) == 0
    assert "+++ " in capsys.readouterr().out and not (home / ".gemini").exists()


def test_a_link_to_a_dotfiles_repository_stays_a_link(home: Path) -> None:
    target = home / "dotfiles" / "claude.json"
    write(target, CLAUDE_SETTINGS)
    link = home / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(target)
    assert init.run(["claude-code"]) == 0
    assert link.is_symlink() and "shapeclip" in target.read_text()


@pytest.mark.parametrize(
    "text",
    [
        '{"model": "x", // a comment\n"hooks": {}}',  # Gemini CLI reads comments; JSON has none
        '{"permissions": {"allow": []},}',
        '["not", "an", "object"]',
        '{"hooks": [{"matcher": "Bash"}]}',
        '{"hooks": {"PostToolUse": {"matcher": "Bash"}}}',
    ],
)
def test_a_file_that_is_not_json_settings_is_refused_and_left_alone(
    home: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = home / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(text)
    for argv in (["gemini"], ["gemini", "--uninstall"]):
        assert init.run(argv) == 1
        error = capsys.readouterr().err
        assert f"{path} was left as it is" in error and "--print-config gemini" in error
    assert path.read_text() == text
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_the_command_line_runs_it(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "init", "claude-code"], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert commands(settings) == [f"{sys.executable} -m shapeclip hook claude-code"]


@pytest.mark.parametrize("budget", ["0", "-5", "lots"])
def test_a_budget_the_hook_would_refuse_is_refused_before_anything_is_written(tmp_path: Path, budget: str) -> None:
    # `--budget 0` was written into the settings, and the hook then refused every event.
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "shapeclip", "init", "claude-code", "--budget", budget],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode != 0 and "must be a whole number of characters, at least 1" in done.stderr
    assert not (tmp_path / ".claude" / "settings.json").exists()
