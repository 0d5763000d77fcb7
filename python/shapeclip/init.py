"""`shapeclip init NAME`: writes the hook that `shapeclip hook --print-config NAME` prints into
the harness's settings file, so that installing it is one command and undoing it another.

A settings file holds much besides this hook (permissions, environment, other hooks), and a
harness that cannot read it may start without any of them, so the file is changed with care:
what is not shapeclip's is kept as it is, an entry of an older shapeclip (another path, another
budget, an event it no longer uses) is replaced rather than added to, running it twice changes
nothing, the file as it was is copied aside before it changes, and the new one replaces it in
one rename. A file that is not a JSON object is never written: the user must fix it, or paste
the block by hand. A shapeclip entry is a hook whose command runs `shapeclip ... hook NAME`.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

from .cli_numbers import positive
from .defaults import DEFAULT_BUDGET
from .hooks import HARNESSES, shapeclip_argv
from .json_text import parse

#: Where each harness reads its hooks, under the home directory or a project's directory.
SETTINGS_FILES = {
    "claude-code": Path(".claude", "settings.json"),
    "codex": Path(".codex", "hooks.json"),
    "gemini": Path(".gemini", "settings.json"),
}
BACKUP_SUFFIX = ".bak-shapeclip"


class Unusable(Exception):
    """The settings file cannot be changed safely; the message says why."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shapeclip init",
        description="Install shapeclip's hook in a harness's settings (the block shapeclip hook --print-config "
        "NAME prints), keeping every other setting and hook; the file as it was is copied to FILE"
        f"{BACKUP_SUFFIX} first.",
    )
    parser.add_argument("name", metavar="NAME", choices=sorted(SETTINGS_FILES), help=", ".join(sorted(SETTINGS_FILES)))
    parser.add_argument(
        "--project",
        metavar="DIR",
        type=Path,
        help="the settings of the project in DIR instead of your own (e.g. DIR/.claude/settings.json)",
    )
    parser.add_argument(
        "--budget", type=positive("characters"), default=DEFAULT_BUDGET, help="characters per tool output in the hook"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the change as a diff and write nothing")
    parser.add_argument("--uninstall", action="store_true", help="remove shapeclip's hook and nothing else")
    return parser


def settings_path(name: str, project: Path | None) -> Path:
    return (Path.home() if project is None else project) / SETTINGS_FILES[name]


def hook_command(name: str, budget: int) -> str:
    """The command the hook runs: this very shapeclip, as `--print-config` names it."""
    extra = [] if budget == DEFAULT_BUDGET else ["--budget", str(budget)]
    return shlex.join([*shapeclip_argv(), "hook", name, *extra])


def _is_ours(hook: object, name: str) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return (
        isinstance(command, str) and re.search(rf"shapeclip\b.*\bhook\s+{re.escape(name)}(\s|$)", command) is not None
    )


def _events(settings: dict[str, Any]) -> dict[str, Any]:
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise Unusable('its "hooks" is not a JSON object')
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise Unusable(f'its "hooks"."{event}" is not a list')
    return hooks


def without_ours(settings: dict[str, Any], name: str) -> tuple[dict[str, Any], dict[str, int]]:
    """`settings` without the hooks of shapeclip for `name`, and for each event the place of
    the first group that held one. A group, an event or `hooks` left empty by that removal
    goes too; one that was empty before stays."""
    places: dict[str, int] = {}
    hooks: dict[str, Any] = {}
    for event, groups in _events(settings).items():
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(_is_ours(hook, name) for hook in inner):
                kept.append(group)
                continue
            places.setdefault(event, len(kept))
            rest = [hook for hook in inner if not _is_ours(hook, name)]
            if rest:
                kept.append({**group, "hooks": rest})
        if kept or not groups:
            hooks[event] = kept
    result = dict(settings)
    if hooks or (not places and "hooks" in settings):
        result["hooks"] = hooks
    else:
        result.pop("hooks", None)
    return result, places


def installed(settings: dict[str, Any], name: str, command: str) -> dict[str, Any]:
    """`settings` with shapeclip's hook for `name` in it, running `command`: in the place of
    an older one, else after every other group of its event."""
    result, places = without_ours(settings, name)
    block: dict[str, list[Any]] = json.loads(HARNESSES[name].config(command))["hooks"]
    hooks = dict(result.get("hooks", {}))
    for event, groups in block.items():
        existing = list(hooks.get(event, []))
        at = places.get(event, len(existing))
        hooks[event] = existing[:at] + groups + existing[at:]
    return {**result, "hooks": hooks}


def _load(path: Path) -> tuple[str | None, dict[str, Any]]:
    """The file's text (None when there is no file) and its settings."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, {}
    except (OSError, UnicodeDecodeError) as exc:
        raise Unusable(f"cannot read it: {exc}") from None
    if not text.strip():
        return text, {}
    try:
        settings = parse(text)
    except ValueError as exc:
        raise Unusable(f"it is not valid JSON ({exc})") from None
    if not isinstance(settings, dict):
        raise Unusable("it is not a JSON object")
    _events(settings)
    return text, settings


def _write(path: Path, old: str | None, new: str) -> None:
    """`new` in place of `path`, in one rename, after `old` was copied aside."""
    # A settings file linked from a dotfiles repository stays a link: its target changes.
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o600
    if old is not None:
        mode = path.stat().st_mode & 0o777
        _atomic(path.with_name(path.name + BACKUP_SUFFIX), old, mode)
    _atomic(path, new, mode)


def _atomic(path: Path, text: str, mode: int) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def run(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.budget < 1:
        parser.error(f"--budget must be at least 1 character, got {args.budget}")
    path = settings_path(args.name, args.project)
    try:
        old, settings = _load(path)
    except Unusable as exc:
        print(f"shapeclip init: {path} was left as it is: {exc}. Fix it, or add the hook by hand "
              f"(shapeclip hook --print-config {args.name}).", file=sys.stderr)  # fmt: skip
        return 1
    if args.uninstall:
        changed, _ = without_ours(settings, args.name)
    else:
        changed = installed(settings, args.name, hook_command(args.name, args.budget))
    if changed == settings:
        print(f"{path}: nothing to change")
        return 0
    new = json.dumps(changed, indent=2, ensure_ascii=False) + "\n"
    if args.dry_run:
        before = (old or "").splitlines(keepends=True)
        sys.stdout.writelines(difflib.unified_diff(before, new.splitlines(keepends=True), str(path), str(path)))
        return 0
    _write(path, old, new)
    done = "removed shapeclip's hook from" if args.uninstall else "installed shapeclip's hook in"
    backup = "" if old is None else f" (it was copied to {path.name}{BACKUP_SUFFIX})"
    print(f"{done} {path}{backup}")
    return 0
