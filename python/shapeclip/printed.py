"""Whether a shell command prints a file: `cat F`, `sed -n 'A,Bp' F`, `nl -ba F | sed -n ...`.

Agents read files through the shell more often than with a read tool (every harness whose only
tool is a shell, and Codex, which reads with `sed -n` ranges), so a hook or a message helper
that hands the core a shell's output would get a log plan for a source file that names an
error, and a tail-heavy clip for any other. Such an output is planned as a file read instead
(kind `shell_read`), while its markers still say to run the command again.

The test is on the command's own words, never on running anything: one optional `cd DIR &&`
(or `;`) before it, a shell's `-c` around it, settings and runners before it (`LC_ALL=C`,
`sudo`, `timeout 10`, `env`, `nice`, `nohup`, `time`), then one program that prints files it
names (cat, nl, head, tail, a `sed -n` of runs of lines, bat, less, more, `git show REV:PATH`),
whose output may go on through programs that only pick lines (head, tail, `sed -n` of runs of
lines, nl, cat). Anything else (a redirection into a file, a filter that searches or reorders, a second
command, text from standard input) is not a file read, and neither is a file whose name says it
is a log (`build.log`): that is planned as a log.

A command that searches (`grep -r NAME .`, `rg NAME | head`, `nl -ba F | grep -C 5 X`: a pipeline
of searchers, printers and pickers that begins with a searcher or a printer and holds a
searcher) is planned as a search's output (kind `shell_search`): a map of files where it has
line numbers, else its definitions first (docs/shapes/matches.md).
"""

from __future__ import annotations

import re
import shlex

#: Programs that print the files they are given, whole or a part of them by line number.
_PRINTERS = frozenset({"cat", "nl", "head", "tail", "sed", "bat", "batcat", "less", "more", "git"})
#: Programs that, after a pipe, only pick or number the lines a printer gave them.
_PICKERS = frozenset({"cat", "nl", "head", "tail", "sed"})
#: Programs that run the command after them, each with its options that take a value.
_RUNNERS = {
    "env": frozenset({"-u", "-C", "-S"}),
    "time": frozenset({"-f", "-o"}),
    "nohup": frozenset(),
    "nice": frozenset({"-n"}),
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
}
#: Programs that print the lines of their input that match (`git grep` too).
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})
#: Shells whose `-c` command is read in their place.
_SHELLS = frozenset({"sh", "bash", "zsh", "dash"})
#: One command of a `sed` script that prints a run of lines: `10,20p`, `100,$p`, `5p`, or from a
#: line that matches to one that matches (`/def f/,/return/p`), which prints a part of a file
#: as a number range does. A lone `/pattern/p` is a search, not a part of a file. Compiled
#: when a sed is met: a hook pays a millisecond for it otherwise.
_SED_PRINT = r"\s*(?:(\d+|\$)|(/(?:[^/\\]|\\.)*/))(?:\s*,\s*(\d+|\$|\+\d+|/(?:[^/\\]|\\.)*/))?\s*p\s*"
#: `head`/`tail` options that take a value in the next word.
_COUNT_OPTIONS = frozenset({"-n", "-c", "--lines", "--bytes"})
#: Options of `nl` that take a value in the next word.
_NL_OPTIONS = frozenset({"-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w"})


def prints_file(command: str) -> bool:
    """Whether `command`, as a shell would run it, prints one or more files it names, or lines
    of them picked by number."""
    stages = _stages(command)
    return bool(stages) and _prints(stages[0]) and all(_picks(stage) for stage in stages[1:])


def searches(command: str) -> bool:
    """Whether `command`, as a shell would run it, prints what a search found: a searcher (grep,
    rg, ag, ack, `git grep`) over files or over what a printer of files gave it, its lines
    perhaps picked after it (`| head -n 20`)."""
    stages = _stages(command)
    if not stages:
        return False
    found = [_searches(stage) for stage in stages]
    first = found[0] or _prints(stages[0])
    later = all(hit or _picks(stage) for hit, stage in zip(found[1:], stages[1:], strict=True))
    return any(found) and first and later


def _stages(command: str) -> list[list[str]]:
    """The commands of the one pipeline `command` runs, past a leading `cd`, a shell's `-c` and
    runners; none when it is no plain pipeline of words."""
    words = _words(command)
    if words is None:
        return []
    words = _past_cd(_unwrapped(words))
    return _split(words, ("|",)) if words else []


def _searches(stage: list[str]) -> bool:
    """Whether one command is a searcher."""
    if not stage:
        return False
    program = stage[0].rsplit("/", 1)[-1]
    return program in _SEARCHERS or (program == "git" and stage[1:2] == ["grep"])


def _words(command: str) -> list[str] | None:
    """The command's words with `;`, `&&`, `|` and redirections as words of their own, or None
    when the shell would read it differently from a plain list of words (quotes left open,
    substitutions, here-documents, background jobs)."""
    if any(mark in command for mark in ("$(", "`", "<<", "\n")):
        return None
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return None
    return _no_stderr_redirection(words)


def _no_stderr_redirection(words: list[str]) -> list[str] | None:
    """`words` without `2>FILE` and `2>&1`, which change nothing a printer prints; None when any
    other redirection sends the output elsewhere or reads the input from somewhere."""
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in (">", ">>", ">&") and out and out[-1] == "2" and i + 1 < len(words):
            out.pop()
            i += 2
            continue
        if word in ("<", ">", ">>", ">&", "&", "||", "<>", "|&"):
            return None
        out.append(word)
        i += 1
    return out


def _unwrapped(words: list[str]) -> list[str]:
    """The words of `bash -c 'CMD'` (or `-lc`) read as CMD's; any others as they are."""
    if len(words) == 3 and words[0].rsplit("/", 1)[-1] in _SHELLS and words[1] in ("-c", "-lc"):
        inner = _words(words[2])
        return inner if inner is not None else []
    return words


def _past_cd(words: list[str]) -> list[str]:
    """The words of the one command after a leading `cd DIR &&` (or `;`), past what runs it
    (`_past_runners`); a list of any other commands is none."""
    parts = _split(words, ("&&", ";"))
    if len(parts) > 1 and not parts[-1]:
        parts.pop()  # a trailing `;`
    if len(parts) == 2 and len(parts[0]) == 2 and parts[0][0] == "cd":
        parts = parts[1:]
    if len(parts) != 1:
        return []
    return _past_runners(parts[0])


def _past_runners(command: list[str]) -> list[str]:
    """The command a prefix runs (`sudo cat F`, `timeout 10 cat F`, `env LC_ALL=C cat F`), past
    `NAME=value` settings, each runner and its options."""
    while command:
        while command and "=" in command[0] and command[0].partition("=")[0].isidentifier():
            command = command[1:]
        takes_value = _RUNNERS.get(command[0].rsplit("/", 1)[-1]) if command else None
        if takes_value is None:
            return command
        at = 1
        while at < len(command) and command[at].startswith("-") and command[at] != "-":
            at += 2 if command[at] in takes_value else 1
        if command[0].rsplit("/", 1)[-1] == "timeout":
            at += 1  # its duration
        command = command[at:]
    return command


def _split(words: list[str], marks: tuple[str, ...]) -> list[list[str]]:
    """`words` cut at each of `marks`, the marks left out."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word in marks:
            parts.append([])
        else:
            parts[-1].append(word)
    return parts


def _prints(stage: list[str]) -> bool:
    """Whether one command prints files it names."""
    files = _operands(stage, _PRINTERS)
    if not files:
        return False
    return not all(_is_log(name) for name in files)


def _picks(stage: list[str]) -> bool:
    """Whether one command after a pipe only picks or numbers lines of what it is given."""
    return _operands(stage, _PICKERS) == []


def _operands(stage: list[str], programs: frozenset[str]) -> list[str] | None:
    """The files one command names when it is one of `programs` and only prints lines (`git
    show` its `REV:PATH`), or None."""
    if not stage or stage[0].rsplit("/", 1)[-1] not in programs:
        return None
    program, args = stage[0].rsplit("/", 1)[-1], stage[1:]
    if program == "git":
        shows = len(args) == 2 and args[0] == "show" and ":" in args[1] and not args[1].startswith("-")
        return [args[1]] if shows else None
    return _sed_files(args) if program == "sed" else _files(program, args)


def _is_log(name: str) -> bool:
    """Whether a file's name says it holds a log (`build.log`, `logs/test.txt`, `run.out`),
    which is planned as the shell's log is, not as a file of code or prose."""
    parts = name.lower().split("/")
    return parts[-1].endswith((".log", ".out", ".err")) or any(p in ("log", "logs") for p in parts[:-1])


def _files(program: str, args: list[str]) -> list[str] | None:
    """The file operands of cat, nl, head, tail, bat, less or more, or None when an option
    makes it do more than print (`tail -f` follows a file that grows)."""
    files: list[str] = []
    takes_value = _COUNT_OPTIONS if program in ("head", "tail") else _NL_OPTIONS if program == "nl" else set()
    i = 0
    while i < len(args):
        arg = args[i]
        if program == "tail" and (arg in ("-f", "-F", "--follow") or arg.startswith("--follow=")):
            return None
        if arg in takes_value:
            i += 2
            continue
        if arg == "-":
            return None  # standard input: no file
        if not arg.startswith("-"):
            files.append(arg)
        i += 1
    return files


def _sed_files(args: list[str]) -> list[str] | None:
    """The files of a `sed -n` that prints lines by number alone, or None for any other sed."""
    quiet = False
    script: str | None = None
    files: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-n", "--quiet", "--silent"):
            quiet = True
        elif arg == "-e" and i + 1 < len(args) and script is None:
            script = args[i + 1]
            i += 1
        elif arg.startswith("-"):
            return None
        elif script is None:
            script = arg
        else:
            files.append(arg)
        i += 1
    if not quiet or script is None or not _prints_runs(script):
        return None
    return files


def _prints_runs(script: str) -> bool:
    """Whether every command of a `sed -n` script prints a run of lines (see `_SED_PRINT`)."""
    pattern = re.compile(_SED_PRINT)
    for command in script.rstrip().rstrip(";").split(";"):
        match = pattern.fullmatch(command)
        if match is None or (match[2] is not None and match[3] is None):
            return False
    return True


__all__ = ["prints_file", "searches"]
