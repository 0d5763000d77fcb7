"""What shapeclip needs to know about a message list, in terms common to all three formats.

Each provider format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages) lays out
tool calls, their results and the model's reasoning differently; each has a module that reads
a list into a `Transcript` (the calls, the results, the tool turns) and rebuilds the items it
changes. `compress_messages` and `microcompact` work on the transcript only, so their rules
(budgets, orphans, what is never touched) are written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .items import text_pieces


def checked_messages(messages: object) -> Sequence[Any]:
    """`messages`, if it is a list (or another sequence) of items; else `TypeError`."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise TypeError(f"messages must be a list of messages or items, not {type(messages).__name__}")
    return messages


@dataclass(frozen=True)
class Call:
    """One tool call the model made."""

    id: str
    #: The tool's name; None when the call does not say.
    name: str | None
    #: The arguments as the call carries them (a JSON text, or a mapping for Anthropic).
    arguments: Any
    #: Index of the message or item that carries the call.
    index: int
    #: Which tool turn (0 for the first) made it: the calls of one model response.
    turn: int


@dataclass(frozen=True)
class Result:
    """One tool result, located in the list."""

    #: Index of the message or item that carries it.
    index: int
    #: Index of its block in the message's content (Anthropic); None when the item is the result.
    slot: int | None
    call_id: str
    #: Its content as the item holds it: a string, or a list of parts.
    content: Any
    #: The call it answers: the latest one before it with its id (some servers number calls
    #: afresh each turn, so an id can come back); None when no call before it has its id.
    call: Call | None

    @property
    def pieces(self) -> tuple[str, ...]:
        """Its text, piece by piece: the content string, or the text of each text part in order."""
        return text_pieces(self.content)

    @property
    def chars(self) -> int:
        return sum(map(len, self.pieces))


@dataclass(frozen=True)
class Transcript:
    """The tool traffic of a message list."""

    calls: Mapping[str, Call]
    results: Sequence[Result]
    #: For each tool turn in order, the index of its first item (reasoning included).
    turn_starts: Sequence[int]
    #: Ids that more than one call carries (some servers number calls afresh each turn): which
    #: result belongs to which of those calls, only their order says.
    reused: frozenset[str] = frozenset()

    def tool_name(self, call_id: str) -> str | None:
        call = self.calls.get(call_id)
        return None if call is None else call.name


class TranscriptBuilder:
    """Collects a `Transcript` while a format reads its list. A call or result whose id is not
    a string cannot be paired, and is passed over."""

    def __init__(self) -> None:
        self._calls: dict[str, Call] = {}
        self._results: list[Result] = []
        self._turn_starts: list[int] = []
        self._reused: set[str] = set()

    def turn(self, start: int, calls: Iterable[tuple[int, Any, Any, Any]]) -> None:
        """A tool turn whose first item is at `start`, making `calls`: (index, id, name, arguments).
        A name that is not a string names no tool."""
        for index, call_id, name, arguments in calls:
            if isinstance(call_id, str):
                if call_id in self._calls:
                    self._reused.add(call_id)
                tool = name if isinstance(name, str) else None
                self._calls[call_id] = Call(call_id, tool, arguments, index, len(self._turn_starts))
        self._turn_starts.append(start)

    def result(self, index: int, slot: int | None, call_id: Any, content: Any) -> None:
        if isinstance(call_id, str):
            self._results.append(Result(index, slot, call_id, content, self._calls.get(call_id)))

    def transcript(self) -> Transcript:
        return Transcript(self._calls, self._results, self._turn_starts, frozenset(self._reused))


@dataclass(frozen=True)
class Clearing:
    """Which tool pairs a microcompaction clears, and how."""

    #: Ids of the calls whose pairs are cleared.
    call_ids: frozenset[str]
    #: Text to put in place of each cleared result, by call id; None removes the pairs instead.
    placeholders: Mapping[str, str] | None


class Format(Protocol):
    """One provider's message format."""

    name: str

    def recognises(self, item: Any) -> bool:
        """Whether `item` can only belong to a list in this format."""
        ...

    def scan(self, messages: Sequence[Any]) -> Transcript:
        """The calls, results and tool turns of `messages`."""
        ...

    def with_results(self, item: Any, pieces: Mapping[int | None, Sequence[str]]) -> Any:
        """`item` rebuilt with the text pieces of its results replaced, by result slot."""
        ...

    def strip_reasoning(self, items: Sequence[Any]) -> list[Any]:
        """`items` without the model's reasoning, one entry per item: the item itself when it had
        none, a rebuilt one, or None where a whole item goes."""
        ...

    def clear_pairs(self, items: Sequence[Any], clearing: Clearing) -> list[Any]:
        """`items` with the cleared pairs' results replaced by their placeholders, or the pairs
        removed, aligned as `strip_reasoning`'s answer is (None where an item goes)."""
        ...
