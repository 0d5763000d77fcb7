"""Whether a shell command an agent asked for may run through shapeclip, and the command that
does so.

A pre-tool hook rewrites `make test` into `shapeclip --tool bash --budget N -- bash -c 'make
test'`: the output reaches the agent compressed, the whole of it is kept in the store, and the
exit status is the command's. Running the command in a child `bash` is what makes that safe
for most commands and wrong for some, which are left as they were:

- commands that change the shell's state (`cd`, `export`, `source`, aliases, a bare `VAR=1`):
  in a child shell the change would be lost, and the harness's next command would not see it;
- heredocs, jobs put in the background (`server &` would keep shapeclip waiting for its end),
  and interactive programs (editors, pagers, a REPL or a login with nothing to run);
- commands already going through shapeclip, its own `shapeclip show` among them;
- anything this module cannot split into words, such as an unbalanced quote.

The command is read with `shlex` in POSIX mode, and only as far as needed to find each simple
command's name: when in doubt, a command is left alone, never wrapped wrongly.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Iterator, Sequence

# Builtins whose effect outlives the command, or that act on the shell's own jobs and input.
STATE_CHANGING = frozenset(
    {
        ".", "source", "cd", "pushd", "popd", "export", "unset", "set", "setopt", "unsetopt", "shopt",
        "alias", "unalias", "exec", "eval", "declare", "typeset", "local", "readonly", "hash", "trap",
        "ulimit", "umask", "enable", "builtin", "read", "shift", "wait", "fg", "bg", "jobs", "disown",
        "deactivate", "logout",
    }
)  # fmt: skip
# Full-screen programs that need a terminal and a person at it.
INTERACTIVE = frozenset(
    {
        "vi", "vim", "nvim", "view", "nano", "pico", "emacs", "micro", "less", "more", "most", "man",
        "top", "htop", "btop", "atop", "watch", "tmux", "screen", "tig", "fzf", "mc", "ranger", "nnn",
    }
)  # fmt: skip
# Programs that start an interactive session when given nothing to run.
REPLS = frozenset(
    {
        "python", "python3", "ipython", "node", "deno", "bun", "irb", "ruby", "php", "lua", "R", "ghci",
        "psql", "mysql", "sqlite3", "redis-cli", "mongosh", "bash", "sh", "zsh", "fish", "dash", "ftp",
        "sftp", "telnet",
    }
)  # fmt: skip
# Options that name what a REPL program should run instead of starting a session.
_PROGRAM_OPTIONS = ("-c", "-m", "-e", "-p", "--eval", "--print", "--command", "--execute", "-f", "--file")
# ssh options that take a value, so that their value is not read as the host or the command.
_SSH_VALUE_OPTIONS = frozenset(f"-{letter}" for letter in "BbcDEeFIiJLlmOopQRSWw")
# Environment managers' subcommands that change the calling shell.
_ACTIVATORS = {"conda": {"activate", "deactivate"}, "mamba": {"activate", "deactivate"}, "nvm": {"use"}}
# Words after which the next word names a command again.
KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "time", "{", "}", "fi", "done"})
_PUNCTUATION = "();<>|&\n"
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")
_PYTHON_VERSIONED = re.compile(r"python3(\.\d+)?")


class _Unsafe(Exception):
    """The command must not be wrapped; the message says why."""


def _tokens(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=_PUNCTUATION)
    # A newline separates commands as `;` does, so it must reach us as punctuation; and a `#`
    # comment would swallow it, so comments stay words (harmless: they name no command here).
    lexer.whitespace = " \t\r"
    lexer.commenters = ""
    # Words end only at whitespace and operators, so `$HOME` or `a=b` stay one word.
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError as exc:  # an unbalanced quote or a trailing escape
        raise _Unsafe(f"cannot be split into words ({exc})") from None


def _is_operator(token: str) -> bool:
    return all(char in _PUNCTUATION for char in token)


def simple_commands(command: str) -> Iterator[list[str]]:
    """The words of each simple command in `command`, name first, redirections left out.

    Raises `_Unsafe` for what cannot be read or must not run in a child shell whatever its
    commands are: heredocs, jobs in the background, and `$(...)` or backquotes, whose inner
    commands this reader does not follow."""
    if "$(" in command or "`" in command:
        raise _Unsafe("runs commands inside $(...) or backquotes")
    words: list[str] = []
    redirect_target = False
    for token in _tokens(command):
        if _is_operator(token):
            bare = token.replace("\n", "")
            if "<<" in bare and "<<<" not in bare:
                raise _Unsafe("holds a heredoc")
            if bare.endswith("&") and not bare.endswith(("&&", "|&")) and "<" not in bare and ">" not in bare:
                raise _Unsafe("puts a job in the background")
            if "<" in bare or ">" in bare:
                redirect_target = True
                continue
            if words:
                yield words
            words = []
            continue
        if redirect_target:
            redirect_target = False
            continue
        if not words and token in KEYWORDS:
            continue
        words.append(token)
    if words:
        yield words


def _name(words: Sequence[str]) -> tuple[str, list[str]]:
    """The command's name without a path, and its arguments, past `VAR=value` prefixes."""
    index = 0
    while index < len(words) and ASSIGNMENT.match(words[index]):
        index += 1
    if index == len(words):
        return "", []
    return os.path.basename(words[index]), list(words[index + 1 :])


def _is_repl(name: str, args: list[str]) -> bool:
    if name not in REPLS and not _PYTHON_VERSIONED.fullmatch(name):
        return False
    if any(arg in _PROGRAM_OPTIONS or arg.startswith(("--eval=", "--command=", "--file=")) for arg in args):
        return False
    return all(arg.startswith("-") for arg in args)


def _is_ssh_login(args: list[str]) -> bool:
    operands = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _SSH_VALUE_OPTIONS:
            skip = True
        elif not arg.startswith("-"):
            operands.append(arg)
    return len(operands) < 2


def _check(words: list[str]) -> None:
    name, args = _name(words)
    if not name:
        raise _Unsafe("sets a shell variable")
    if name == "shapeclip" or (args[:2] == ["-m", "shapeclip"]):
        raise _Unsafe("already goes through shapeclip")
    if name in STATE_CHANGING:
        raise _Unsafe(f"changes the shell's state ({name})")
    if args and args[0] in _ACTIVATORS.get(name, ()):
        raise _Unsafe(f"changes the shell's state ({name} {args[0]})")
    if name in INTERACTIVE or _is_repl(name, args) or (name == "ssh" and _is_ssh_login(args)):
        raise _Unsafe(f"is interactive ({name})")


def why_not_wrapped(command: str) -> str | None:
    """None if `command` may run through shapeclip, else why it must be left as it is."""
    if not command.strip():
        return "is empty"
    try:
        for words in simple_commands(command):
            _check(words)
    except _Unsafe as reason:
        return str(reason)
    return None


def shapeclip_argv() -> list[str]:
    """How to run this very shapeclip again, whatever PATH the harness's shell has."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(script) == "shapeclip" and os.access(script, os.X_OK):
        return [script]
    return [sys.executable, "-m", "shapeclip"]


def wrapped(command: str, budget: int, argv: Sequence[str]) -> str:
    """`command` run by `bash -c` under shapeclip (`argv`), keeping its exit status."""
    return shlex.join([*argv, "--tool", "bash", "--budget", str(budget), "--", "bash", "-c", command])
