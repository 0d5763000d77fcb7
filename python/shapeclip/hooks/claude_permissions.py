"""What Claude Code would have decided for a Bash command, so that rewriting it keeps the
user's permission model.

The PreToolUse hook replaces `make test` with `shapeclip ... -- bash -c 'make test'`. Claude
Code then checks its permission rules against the command it is given, the rewritten one,
where a rule such as `Bash(rm:*)` no longer matches; and a hook that answers "allow" skips the
prompt the user would have seen. So the hook reads the rules itself, from the settings files
Claude Code reads (code.claude.com/docs/en/permissions and /settings), and answers:

- nothing (`None`: leave the command alone, Claude Code decides on the real command) when any
  part of it could match a `deny` or `ask` rule, when a part is one Claude Code examines
  beyond its rules (`rm`, `find -exec`, output written into a file), or in a mode where Claude
  Code decides without prompting (`auto`'s classifier, `dontAsk`'s refusal, `plan`);
- "allow" in `bypassPermissions` mode, or when every part surely matches an `allow` rule;
- "ask" otherwise, in the modes where Claude Code prompts: the user sees the prompt they
  would have seen, for the rewritten command.

The asymmetry is the point: deny and ask rules are matched loosely (any reading of the command
that could match counts), allow rules strictly (only the command as written, with the narrower
reading of each rule form), so an error costs a prompt or a missed compression, never a
command run that the user's rules would have stopped. Rules Claude Code takes from elsewhere
(the command line, server-managed or MDM policy, the session) are not visible here; a deny
rule among them still applies, to the rewritten command.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import sys
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .command import ASSIGNMENT, KEYWORDS

# The modes in which Claude Code shows a prompt for a Bash command no rule allows.
PROMPTING_MODES = frozenset({"default", "acceptEdits"})
# Programs that run the rest of their arguments as a command (Claude Code strips these before
# matching deny rules, CHANGELOG 2.1.113: "env/sudo/watch/ionice/setsid and similar exec wrappers").
WRAPPERS = frozenset(
    {
        "env", "sudo", "doas", "timeout", "nice", "nohup", "ionice", "setsid", "watch", "stdbuf", "time",
        "command", "builtin", "exec", "xargs", "chrt", "taskset", "unbuffer", "flock", "chroot", "su",
    }
)  # fmt: skip
# Managed settings files, by platform (code.claude.com/docs/en/managed-settings), with the
# `managed-settings.d/` drop-ins beside them.
MANAGED_DIRS = {
    "linux": "/etc/claude-code",
    "darwin": "/Library/Application Support/ClaudeCode",
    "win32": r"C:\Program Files\ClaudeCode",
}
_PROJECT_FILES = ("settings.json", "settings.local.json")
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"})


class Rules(NamedTuple):
    """The `Bash` rules of all settings files, each as its specifier (None: the whole tool).

    `broken` says a settings file exists that could not be read as settings: its rules are
    unknown, so no allow rule is trusted."""

    allow: tuple[str | None, ...] = ()
    ask: tuple[str | None, ...] = ()
    deny: tuple[str | None, ...] = ()
    broken: bool = False


class _Source(NamedTuple):
    path: str
    grants: bool  # whether its allow rules count (False: read for its deny and ask rules only)
    managed: bool = False


def _bash_specifier(rule: str, glob_tool: bool) -> tuple[bool, str | None]:
    """(applies to Bash, specifier) of one rule; `glob_tool` lets `*` in the tool name match
    (deny rules take `"*"`: CHANGELOG 2.1.166, "glob pattern support in deny rule tool-name position")."""
    rule = rule.strip()
    tool, paren, rest = rule.partition("(")
    tool = tool.strip()
    named = tool == "Bash" or (glob_tool and "*" in tool and fnmatch.fnmatchcase("Bash", tool))
    if not named:
        return False, None
    if not paren:
        return True, None
    specifier = rest[:-1] if rest.endswith(")") else rest
    return True, None if specifier.strip() in ("", "*") else specifier


def _drop_ins(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        return [folder]  # there but unreadable: read as a file, it counts as broken
    return sorted(os.path.join(folder, name) for name in names if name.endswith(".json"))


def _sources(home: str, project: str, cwd: str | None, platform: str) -> list[_Source]:
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    found = [_Source(os.path.join(config, "settings.json"), True)]
    found += [_Source(os.path.join(config, "settings.local.json"), False)]
    for folder, grants in ((project, True), (cwd, False)):
        if folder is not None and (grants or os.path.abspath(folder) != os.path.abspath(project)):
            found += [_Source(os.path.join(folder, ".claude", name), grants) for name in _PROJECT_FILES]
    managed = MANAGED_DIRS.get(platform)
    if managed is not None:
        files = [os.path.join(managed, "managed-settings.json")]
        files += _drop_ins(os.path.join(managed, "managed-settings.d"))
        found += [_Source(path, True, managed=True) for path in files]
    return found


def _read(path: str) -> dict[str, object] | None:
    """The settings in `path`; {} when there is no such file; None when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def load(home: str, project: str, cwd: str | None = None, platform: str = sys.platform) -> Rules:
    """The Bash rules of the user's, the project's and the managed settings files.

    `project` is the project root (Claude Code gives hooks `CLAUDE_PROJECT_DIR`); a different
    `cwd` adds its `.claude` files' deny and ask rules. Managed settings with
    `allowManagedPermissionRulesOnly` make every other file's allow rules not count."""
    allow: list[tuple[str | None, _Source]] = []
    rules: dict[str, list[str | None]] = {"ask": [], "deny": []}
    broken = managed_only = False
    for source in _sources(home, project, cwd, platform):
        settings = _read(source.path)
        permissions = settings.get("permissions", {}) if settings is not None else None
        if settings is None or not isinstance(permissions, dict):
            broken = True
            continue
        managed_only |= source.managed and settings.get("allowManagedPermissionRulesOnly") is True
        for kind in ("allow", "ask", "deny"):
            entries = permissions.get(kind, [])
            if not isinstance(entries, list) or not all(isinstance(entry, str) for entry in entries):
                broken = True
                continue
            for entry in entries:
                applies, specifier = _bash_specifier(entry, glob_tool=kind != "allow")
                if applies and kind == "allow":
                    allow.append((specifier, source))
                elif applies:
                    rules[kind].append(specifier)
    granted = tuple(spec for spec, source in allow if source.grants and (source.managed or not managed_only))
    return Rules(granted, tuple(rules["ask"]), tuple(rules["deny"]), broken)


def segments(command: str) -> list[str]:
    """The simple commands of `command` as written: split at `&&`, `||`, `|`, `|&`, `;`, `&`,
    newlines and parentheses outside quotes (not at `>&`, `&>` or `>|`), empty ones left out."""
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    i = 0
    while i < len(command):
        char = command[i]
        if char == "\\" and quote != "'" and i + 1 < len(command):
            current.append(command[i : i + 2])
            i += 2
            continue
        if quote or char in "'\"":
            quote = "" if char == quote else (quote or char)
            current.append(char)
        elif char in "&|" and (command[i + 1 : i + 2] == ">" or (current and current[-1] in ("<", ">"))):
            current.append(char)  # a redirection: &>, >&2, >|
        elif char in "&|;\n()":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment)
    except ValueError:
        return segment.split()


def _command_words(segment: str) -> list[str]:
    """The words of `segment` from its command's name on, past `VAR=value` and keywords."""
    words = _words(segment)
    index = 0
    while index < len(words) and (ASSIGNMENT.match(words[index]) or words[index] in KEYWORDS):
        index += 1
    return words[index:]


def _readings(segment: str) -> Iterator[str]:
    """Every text of `segment` a rule could be matched against: as written, with its spaces
    collapsed, unquoted, past assignments and keywords, with the program's path left out, and
    after a wrapper (`sudo`, `timeout 5`, `env X=1`, ...) every rest of it."""
    yield segment
    yield " ".join(segment.split())
    yield " ".join(_words(segment))
    words = _command_words(segment)
    tails = [words]
    if words and os.path.basename(words[0]) in WRAPPERS:
        tails += [words[start:] for start in range(1, len(words))]
    for tail in tails:
        if tail:
            yield " ".join(tail)
            yield " ".join([os.path.basename(tail[0]), *tail[1:]])


def _pieces(pattern: str) -> list[str]:
    """`pattern` split at its unescaped `*` (`\\*` is a star, `\\\\` a backslash)."""
    pieces: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and pattern[i + 1 : i + 2] in ("*", "\\"):
            current.append(pattern[i + 1])
            i += 2
            continue
        if pattern[i] == "*":
            pieces.append("".join(current))
            current = []
        else:
            current.append(pattern[i])
        i += 1
    pieces.append("".join(current))
    return pieces


def _spaced(text: str) -> str:
    return r"\s+".join(re.escape(part) for part in re.split(r"\s+", text))


def _could_match(specifier: str | None, readings: Iterable[str]) -> bool:
    """Whether a deny or ask rule could match: each rule form read as widely as it might be
    (`X:*` and `X *` without a word boundary, an exact rule with anything after it, runs of
    spaces as one, `command:` as the parameter form naming the command)."""
    if specifier is None:
        return True
    patterns = [specifier]
    if specifier.startswith("command:"):
        patterns.append(specifier.removeprefix("command:"))
    regexes = []
    for pattern in patterns:
        if pattern.endswith(":*"):
            pattern = pattern[:-2] + "*"
        pieces = _pieces(pattern.strip())
        if len(pieces) == 1:
            regexes.append(re.compile(_spaced(pieces[0]) + r"(?:\s.*)?", re.S))
        else:
            regexes.append(re.compile(".*".join(_spaced(piece.strip()) for piece in pieces), re.S))
    return any(regex.fullmatch(reading) for regex in regexes for reading in readings)


def _surely_matches(specifier: str | None, segment: str) -> bool:
    """Whether an allow rule matches `segment` as written, each rule form read narrowly:
    `Bash(npm test)` exactly; `Bash(npm test:*)` and `Bash(npm test *)` that command alone or
    followed by a space; `*` elsewhere any text (`Bash(git * main)`)."""
    if specifier is None:
        return True
    if specifier.endswith(":*") and len(_pieces(specifier[:-2])) == 1:
        prefix = _pieces(specifier[:-2])[0]
        return segment == prefix or segment.startswith(prefix + " ")
    pieces = _pieces(specifier)
    if len(pieces) == 1:
        return segment == pieces[0]
    if len(pieces) == 2 and pieces[0].endswith(" ") and not pieces[1]:
        regex = re.escape(pieces[0][:-1]) + "(?: .*)?"
    else:
        regex = ".*".join(re.escape(piece) for piece in pieces)
    return re.fullmatch(regex, segment, re.S) is not None


def _writes_a_file(segment: str) -> bool:
    lexer = shlex.shlex(segment, posix=True, punctuation_chars="<>&|")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return True
    for token, target in zip(tokens, [*tokens[1:], ""], strict=True):
        if ">" not in token or not all(char in "<>&|" for char in token):
            continue
        if token.endswith("&") and (target.isdigit() or target == "-"):
            continue  # 2>&1 duplicates a descriptor
        if target != "/dev/null":
            return True
    return False


def _examined_beyond_rules(segment: str) -> bool:
    """Whether Claude Code looks at more than its rules for `segment`, which it cannot do
    through the rewritten command: it still prompts for removing dangerous paths under a
    `Bash(rm:*)` rule and for `find -exec` or `-delete` under `Bash(find:*)` (CHANGELOG
    2.1.113), and checks where an output redirection writes (2.1.207: a redirect to
    /dev/null alone no longer prompts)."""
    words = _command_words(segment)
    names = {os.path.basename(word) for word in words[:1]}
    if words and os.path.basename(words[0]) in WRAPPERS:
        names |= {os.path.basename(word) for word in words[1:]}
    if names & {"rm", "rmdir", "unlink", "shred"}:
        return True
    if "find" in names and any(word in _FIND_ACTIONS for word in words):
        return True
    return _writes_a_file(segment)


def decide(command: str, mode: str, rules: Rules) -> str | None:
    """The answer for `command` in permission mode `mode` under `rules`: "allow", "ask", or
    None to leave the command alone; the module's doc says why."""
    parts = segments(command)
    readings = {command, *(reading for part in parts for reading in _readings(part))}
    if not parts or any(_could_match(specifier, readings) for specifier in (*rules.deny, *rules.ask)):
        return None
    if any(_examined_beyond_rules(part) for part in parts):
        return None
    if mode == "bypassPermissions":
        return None if rules.broken else "allow"
    if not rules.broken and all(any(_surely_matches(spec, part) for spec in rules.allow) for part in parts):
        return "allow"
    return "ask" if mode in PROMPTING_MODES else None
