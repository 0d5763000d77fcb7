"""Per-tool profiles: what kind of tool produced an output, and how a clip shares its budget.

The kind decides how a marker says to get omitted lines back (re-run a command, re-read a file,
narrow a search). The shares decide where a blind clip spends the budget: openings carry
structure and endings carry conclusions, so most tools get a large head, while shell output,
whose verdict is printed last, gets a larger tail. The marker's own length is measured exactly
and taken off first; the remaining room is split in the ratio of `head` to `tail`.

`TOOL_PROFILES` is plain data: add or replace entries (lower-case names) to tune a tool.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The kinds of tool: the one list of them. The core has the same names (`ToolKind` in
#: `rust/profile.rs`; tests/test_tool_kinds.py holds the two equal) and receives the kind by name.
KINDS = ("shell", "file_read", "shell_read", "shell_search", "search", "web", "other")

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Literal

    # `KINDS` as a type. A type checker cannot read a tuple as one, so the names are repeated,
    # and tests/test_tool_kinds.py holds the two equal.
    ToolKind = Literal["shell", "file_read", "shell_read", "shell_search", "search", "web", "other"]


def __getattr__(name: str) -> object:
    """`ToolKind` at run time, made when first asked for: importing typing costs a hook's
    start about 2 ms, and nothing on its path needs it."""
    if name == "ToolKind":
        from typing import Literal

        return Literal[KINDS]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Profile:
    """How outputs of one tool are treated. `head` and `tail` are the shares of the budget the
    clip gives each end; only their ratio matters once the marker is paid for."""

    kind: ToolKind
    head: float
    tail: float

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if not (0 <= self.head <= 1 and 0 <= self.tail <= 1) or self.head + self.tail == 0:
            raise ValueError("head and tail must be shares between 0 and 1, not both 0")

    def weights(self) -> tuple[int, int]:
        """The shares in basis points: both backends split budgets with integer arithmetic."""
        return round(self.head * 10_000), round(self.tail * 10_000)


DEFAULT = Profile("other", head=0.75, tail=0.125)
SHELL = Profile("shell", head=0.3, tail=0.6)
FILE_READ = Profile("file_read", head=0.8, tail=0.1)
#: A shell command that printed a file (`shapeclip.printed`): a read, got back by a re-run.
SHELL_READ = Profile("shell_read", head=0.8, tail=0.1)
SEARCH = Profile("search", head=0.7, tail=0.25)
#: A shell command that searched (`shapeclip.printed.searches`): a search, got back by a re-run.
SHELL_SEARCH = Profile("shell_search", head=0.7, tail=0.25)
#: The kinds whose output is got back by running the command again (`ToolKind::reruns`).
RERUN_KINDS = frozenset({"shell", "shell_read", "shell_search"})
WEB = Profile("web", head=0.7, tail=0.2)

TOOL_PROFILES: dict[str, Profile] = {
    **dict.fromkeys(
        [
            *("bash", "sh", "shell", "local_shell", "exec_command", "terminal", "run_command", "exec"),
            *("execute", "command", "run_terminal_cmd"),
        ],
        SHELL,
    ),
    **dict.fromkeys(["read_file", "read", "cat", "view", "open_file", "file_read", "view_file"], FILE_READ),
    **dict.fromkeys(["grep", "rg", "ripgrep", "search", "search_files", "find", "glob", "codebase_search"], SEARCH),
    **dict.fromkeys(["web_fetch", "fetch", "web_extract", "browse", "web_search", "http"], WEB),
}


def profile_for(tool_name: str | None, command: str | None = None) -> Profile:
    """The profile of `tool_name`, matched case-insensitively; unknown names get `DEFAULT`. A
    shell tool's `command` that prints a file (`cat F`, `sed -n 'A,Bp' F`) gets `SHELL_READ`, and
    one that searches (`grep -r NAME .`) `SHELL_SEARCH`."""
    if tool_name is None:
        return DEFAULT
    profile = TOOL_PROFILES.get(tool_name.strip().lower(), DEFAULT)
    if command is not None and profile.kind == "shell":
        from .printed import prints_file, searches

        if prints_file(command):
            return SHELL_READ
        if searches(command):
            return SHELL_SEARCH
    return profile
