"""`shapeclip hook claude-code` keeps the user's Claude Code permission model.

A rewritten command is checked by Claude Code as it was rewritten, so the hook decides as
Claude Code would have for the original: leave it alone where a deny or ask rule could apply,
"allow" where allow rules or bypassPermissions mode cover every part of it, "ask" otherwise.
The settings files are written into a temporary HOME and project, as Claude Code reads them
(code.claude.com/docs/en/permissions); each test would fail against a hook that allows all.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from hook_events import hook
from shapeclip.hooks import answer, claude_permissions
from shapeclip.hooks.output import Settings

SETTINGS = Settings(budget=16_000, argv=(sys.executable, "-m", "shapeclip"))


class Claude:
    """A user's HOME and a project, with their settings files, and the hook's decisions there."""

    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.project = root / "project"
        (self.project / "src").mkdir(parents=True)
        self.home.mkdir()

    def settings(self, where: Path, permissions: object, name: str = "settings.json") -> None:
        (where / ".claude").mkdir(exist_ok=True)
        text = permissions if isinstance(permissions, str) else json.dumps({"permissions": permissions})
        (where / ".claude" / name).write_text(text)

    def reply(self, command: str, mode: str = "default", cwd: Path | None = None) -> dict[str, Any]:
        event = {
            "session_id": "abc123",
            "transcript_path": str(self.home / ".claude" / "t.jsonl"),
            "cwd": str(cwd or self.project),
            "permission_mode": mode,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "Run it"},
            "tool_use_id": "toolu_01ABC",
        }
        return answer("claude-code", json.dumps(event).encode(), SETTINGS)

    def decision(self, command: str, mode: str = "default", cwd: Path | None = None) -> str | None:
        """The decision, "allow" or "ask", with the command rewritten; None when it is left alone."""
        reply = self.reply(command, mode, cwd)
        if not reply:
            return None
        out = reply["hookSpecificOutput"]
        assert shlex.split(out["updatedInput"]["command"])[-3:] == ["bash", "-c", command]
        decision = out["permissionDecision"]
        assert isinstance(decision, str)
        return decision


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Claude:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setattr(claude_permissions, "MANAGED_DIRS", {})  # the machine's own policy stays out
    return Claude(tmp_path)


def test_a_deny_or_ask_rule_leaves_the_command_for_claude_code_to_apply(claude: Claude) -> None:
    claude.settings(claude.home, {"deny": ["Bash(curl:*)"], "ask": ["Bash(git push:*)"]})
    assert claude.decision("git status") == "ask"
    for command in ("curl -s example.invalid | tail -5", "sudo curl x", "git fetch && git push origin main"):
        assert claude.decision(command) is None, command
    # An ask rule prompts even in bypassPermissions mode, so that too is left to Claude Code.
    assert claude.decision("git push", mode="bypassPermissions") is None


def test_an_allow_rule_gives_allow_and_only_for_what_it_names(claude: Claude) -> None:
    claude.settings(claude.home, {"allow": ["Bash(npm test)"]})
    assert claude.decision("npm test") == "allow"
    assert claude.decision("npm test --watch") == "ask"
    assert claude.decision("npm publish") == "ask"
    reply = claude.reply("npm publish")["hookSpecificOutput"]
    assert reply["permissionDecisionReason"].endswith("npm publish")  # what the prompt is about


def test_prefix_and_wildcard_rule_forms(claude: Claude) -> None:
    claude.settings(claude.home, {"allow": ["Bash(npm run test:*)", "Bash(git * main)", "Bash(ls *)"]})
    decisions = {
        command: claude.decision(command)
        for command in (
            "npm run test", "npm run test -- -x", "npm run build", "git log main", "git diff dev",
            "ls", "ls -la src", "lsof -i",
        )
    }  # fmt: skip
    assert decisions == {
        "npm run test": "allow",
        "npm run test -- -x": "allow",
        "npm run build": "ask",
        "git log main": "allow",
        "git diff dev": "ask",
        "ls": "allow",
        "ls -la src": "allow",
        "lsof -i": "ask",  # `ls *` has a word boundary
    }


def test_a_compound_command_is_allowed_only_when_every_part_is(claude: Claude) -> None:
    claude.settings(claude.home, {"allow": ["Bash(npm test:*)", "Bash(tail:*)"]})
    assert claude.decision("npm test 2>&1 | tail -40") == "allow"
    for command in ("npm test && curl -s x | grep y", "npm test; make", "npm test\nmake", "npm test || (make)"):
        assert claude.decision(command) == "ask", command


def test_deny_rules_are_matched_loosely_allow_rules_strictly(claude: Claude) -> None:
    claude.settings(claude.home, {"allow": ["Bash(make:*)"], "deny": ["Bash(git push:*)", "Bash(npm run *)"]})
    # A wrapper, a path, extra spaces or quotes do not hide a command from a deny rule.
    for command in ("timeout 60 git push", "/usr/bin/git  push", "git 'push' origin", "make && npm run-script x"):
        assert claude.decision(command) is None, command
    assert claude.decision("make -j4") == "allow"


def test_bypass_permissions_mode_allows_what_no_rule_stops(claude: Claude) -> None:
    assert claude.decision("make") == "ask"
    assert claude.decision("make", mode="bypassPermissions") == "allow"
    claude.settings(claude.home, {"deny": ["Bash(make:*)"]})
    assert claude.decision("make", mode="bypassPermissions") is None


def test_modes_that_do_not_prompt_leave_unallowed_commands_to_claude_code(claude: Claude) -> None:
    claude.settings(claude.home, {"allow": ["Bash(pytest:*)"]})
    for mode in ("auto", "dontAsk", "plan"):
        assert (claude.decision("pytest -x", mode), claude.decision("make", mode)) == ("allow", None), mode
    assert claude.decision("make", mode="acceptEdits") == "ask"


def test_commands_claude_code_examines_beyond_its_rules_are_left_to_it(claude: Claude) -> None:
    claude.settings(claude.home, {"allow": ["Bash(rm:*)", "Bash(find:*)", "Bash(echo:*)"]})
    for command in ("rm -rf build", "find . -name '*.o' -delete", "echo x > out.txt", "echo x &>> log"):
        assert claude.decision(command) is None, command
    assert claude.decision("find . -name '*.o'") == "allow"
    assert claude.decision("echo x 2>/dev/null 2>&1") == "allow"


def test_malformed_settings_mean_no_allow_rule_is_trusted(claude: Claude) -> None:
    claude.settings(claude.project, {"allow": ["Bash(make:*)"]})
    assert claude.decision("make") == "allow"
    for broken in (
        '{"permissions": {"deny": ["Bash(make:*)"',
        '{"permissions": ["Bash"]}',
        "[]",
        '{"permissions": {"deny": "Bash"}}',
    ):
        claude.settings(claude.home, broken)
        assert claude.decision("make") == "ask", broken
        assert claude.decision("make", mode="bypassPermissions") is None, broken
    (claude.home / ".claude" / "settings.json").write_bytes(b"\xff\xfe{")
    assert claude.decision("make") == "ask"


def test_user_and_project_settings_each_count_where_claude_code_reads_them(
    claude: Claude, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude.settings(claude.home, {"allow": ["Bash(make:*)"]})
    claude.settings(claude.project, {"allow": ["Bash(cargo test:*)"]}, name="settings.local.json")
    other = tmp_path / "other"
    other.mkdir()
    assert (claude.decision("make"), claude.decision("cargo test")) == ("allow", "allow")
    assert (claude.decision("make", cwd=other), claude.decision("cargo test", cwd=other)) == ("allow", "ask")
    # The project's own deny rule wins over the user's allow rule.
    claude.settings(claude.project, {"deny": ["Bash(make install)"]})
    assert claude.decision("make install") is None
    # Claude Code gives hooks the project's root; from a folder inside it, its rules still apply.
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(claude.project))
    assert claude.decision("cargo test", cwd=claude.project / "src") == "allow"


def test_managed_settings_come_first(claude: Claude, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    managed = tmp_path / "managed"
    (managed / "managed-settings.d").mkdir(parents=True)
    monkeypatch.setattr(claude_permissions, "MANAGED_DIRS", {sys.platform: str(managed)})
    claude.settings(claude.home, {"allow": ["Bash(make:*)", "Bash(npm test)"]})
    (managed / "managed-settings.d" / "10-team.json").write_text(json.dumps({"permissions": {"deny": ["Bash(npm *)"]}}))
    assert (claude.decision("make"), claude.decision("npm test")) == ("allow", None)
    policy = {"allowManagedPermissionRulesOnly": True, "permissions": {"allow": ["Bash(cargo:*)"]}}
    (managed / "managed-settings.json").write_text(json.dumps(policy))
    assert (claude.decision("make"), claude.decision("cargo build")) == ("ask", "allow")


def test_end_to_end_the_hook_process_reads_home_and_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if any(Path(folder).exists() for folder in claude_permissions.MANAGED_DIRS.values()):
        pytest.skip("this machine has managed Claude Code settings")
    claude = Claude(tmp_path)
    claude.settings(claude.home, {"allow": ["Bash(make:*)"]})
    claude.settings(claude.project, {"deny": ["Bash(make install:*)"]})
    monkeypatch.setenv("HOME", str(claude.home))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    replies = []
    for command in ("make -j2", "make install", "make -C x; true"):
        event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(claude.project),
                 "permission_mode": "default", "tool_input": {"command": command}}  # fmt: skip
        reply, note = hook("claude-code", event)
        assert note == ""
        replies.append(reply.get("hookSpecificOutput", {}).get("permissionDecision"))
    assert replies == ["allow", None, "ask"]
