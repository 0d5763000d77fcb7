"""How many characters the tool results of a message list may keep, and which keep them all.

`budget_for(context_tokens)` scales the budgets to the model's window:

    per_result = clamp(context_tokens // 8, 2_000, 50_000) characters
    per_turn   = 4 * per_result

At about 4 characters a token, one result keeps at most 1/32 of the window and the results of
one assistant turn together at most 1/8, so a turn of parallel calls cannot fill half of it. The
floor keeps a small window's results readable; the cap stops a 1M-token window from taking
results no one reads whole. A 128K window gives 16,000 characters, `compress`'s own default.

The results of one turn share its budget first come, first served: each result in order keeps
at most what the earlier ones left (but never less than `MIN_SHARE`). Results appended one by
one therefore get exactly the bytes they would get appended together, and a prompt cache never
sees a result change once it is in the history.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..defaults import DEFAULT_BUDGET
from ..fit import MIN_SHARE
from .items import strings_in

CHARS_PER_TOKEN = 4
MIN_RESULT_CHARS = 2_000
MAX_RESULT_CHARS = 50_000
RESULTS_PER_TURN = 4

#: Tools whose whole output matters, never compressed or cleared: the agent's memory and plan,
#: its questions to the user, and shapeclip's own retrieval command (already cut to the slice
#: and budget the agent asked for). An entry with a space is a command, matched at the start
#: of any string in a call's arguments (so a shell tool running it is exempt).
EXEMPT_TOOLS = frozenset(
    {
        "memory",
        "todo",
        "todo_write",
        "todowrite",
        "todo_read",
        "update_plan",
        "clarify",
        "ask_user",
        "shapeclip show",
    }
)

_COMMAND_PATH = re.compile(r"^\s*(?:\S*/)?")


def estimate_tokens(chars: int) -> int:
    """Estimated tokens of `chars` characters: a quarter, rounded up, as markers count them."""
    return -(-chars // CHARS_PER_TOKEN)


class TokenEstimates:
    """Estimated tokens of a record's `chars_in` and `chars_out`."""

    chars_in: int
    chars_out: int

    @property
    def tokens_in(self) -> int:
        return estimate_tokens(self.chars_in)

    @property
    def tokens_out(self) -> int:
        return estimate_tokens(self.chars_out)


def _check_chars(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int (a number of characters), not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{what} must be at least 1 character, got {value}")


@dataclass(frozen=True)
class Budget:
    """Character budgets for the tool results of a message list."""

    #: Characters one result keeps at most.
    per_result: int = DEFAULT_BUDGET
    #: Characters the results of one assistant turn keep together at most (see `MIN_SHARE`).
    per_turn: int = RESULTS_PER_TURN * DEFAULT_BUDGET
    #: `per_result` for particular tools, by name (kept in lower case: names match in any case).
    tools: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_chars(self.per_result, "per_result")
        _check_chars(self.per_turn, "per_turn")
        if not isinstance(self.tools, Mapping) or not all(isinstance(name, str) for name in self.tools):
            raise TypeError(f"tools must map tool names to budgets, such as {{'bash': 8000}}, got {self.tools!r}")
        for name, chars in self.tools.items():
            _check_chars(chars, f"the budget of tool {name!r}")
        # Frozen, so the normalised copy goes in as dataclasses' own __init__ would put it.
        object.__setattr__(self, "tools", {name.strip().lower(): chars for name, chars in self.tools.items()})

    def for_tool(self, tool_name: str | None) -> int:
        """The characters one result of `tool_name` keeps at most (matched case-insensitively)."""
        if tool_name is None:
            return self.per_result
        return self.tools.get(tool_name.strip().lower(), self.per_result)


#: The budgets of a 128K-token window, as `budget_for(128_000)` gives them: what `compress_messages`
#: uses when given none. (`shapeclip.DEFAULT_BUDGET` is the int `compress` uses.)
DEFAULT_MESSAGE_BUDGET = Budget()


def budget_for(context_tokens: int) -> Budget:
    """The budgets for a model with a window of `context_tokens` tokens (see the module's formula)."""
    if isinstance(context_tokens, bool) or not isinstance(context_tokens, int) or context_tokens < 1:
        raise ValueError(f"context_tokens must be a positive int, got {context_tokens!r}")
    per_result = min(max(context_tokens // 8, MIN_RESULT_CHARS), MAX_RESULT_CHARS)
    return Budget(per_result, RESULTS_PER_TURN * per_result)


def as_budget(budget: Budget | int) -> Budget:
    """`budget`, or an int as the per-result budget with a turn budget `RESULTS_PER_TURN` times it."""
    if isinstance(budget, Budget):
        return budget
    _check_chars(budget, "budget")
    return Budget(budget, RESULTS_PER_TURN * budget)


def exempt_names(exempt: object) -> frozenset[str]:
    """`exempt` checked, in the form `is_exempt` matches: lower case, single spaces."""
    if isinstance(exempt, str) or not isinstance(exempt, Collection) or not all(isinstance(e, str) for e in exempt):
        raise TypeError("exempt must be a collection of tool names (or commands), such as EXEMPT_TOOLS")
    return frozenset(" ".join(name.lower().split()) for name in exempt)


def is_exempt(tool_name: str | None, arguments: Any, exempt: Collection[str]) -> bool:
    """Whether a call's result stays whole: its tool is named in `exempt`, or it ran a command
    `exempt` names (an entry with a space, matched with any directory before it dropped)."""
    if tool_name is not None and tool_name.strip().lower() in exempt:
        return True
    commands = [entry for entry in exempt if " " in entry]
    if not commands:
        return False
    for text in strings_in(arguments):
        line = " ".join(_COMMAND_PATH.sub("", text, count=1).split())
        if any(line == command or line.startswith(command + " ") for command in commands):
            return True
    return False


def turn_share(allowed: int, spent: int, budget: Budget) -> int:
    """What a result allowed `allowed` characters may keep once its turn's earlier results kept
    `spent`."""
    return min(allowed, max(MIN_SHARE, budget.per_turn - spent))
