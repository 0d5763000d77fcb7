"""The pure-Python clip: the same contract as the native clip, for when the core cannot run.

It is used when `shapeclip._core` cannot be imported, when the core fails on a text the facade
still holds, and over the stored copy of a stream the core failed on. It follows the
native clip's algorithm and wording exactly; tests hold the two to identical output, which also
makes each the other's oracle. Like the core, it keeps only the first `budget` characters and
the last `budget + 1`, so its memory is bounded by the budget.
"""

from __future__ import annotations

import codecs
import unicodedata
from collections import deque
from dataclasses import dataclass

from .cut import SGR_RESET, cut_after, cut_before, sgr_open
from .fit import fits
from .lookalike import disarm
from .numbered import Numbered, read_numbered
from .profiles import RERUN_KINDS, Profile

_MARKER_SEPARATORS = 2
# The part of the budget (1/n) a marker in each tier may take at most, as in Rust's clip.
_MARKER_PART = {"full": 24, "compact": 6, "counted": 6}
#: Where the whole output is kept, which markers then point into: a stored copy's entry ID and
#: file's path, or the path of the file it was read from.
WayBack = tuple[str, str] | str | str
_MAX_TOOL_LABEL = 40
# Bidi marks, embeddings, overrides and isolates, zero-width spaces, the byte order mark.
_INVISIBLE = frozenset("\u061c\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff")


@dataclass(frozen=True)
class Span:
    """What a clip omitted; lines are 1-based and a line cut in two counts as omitted."""

    first: int
    last: int
    total_lines: int
    first_shown: int
    last_shown: int
    chars: int
    lines: int

    @classmethod
    def widest(cls, total_lines: int, total_chars: int) -> Span:
        return cls(total_lines, total_lines + 1, total_lines, total_chars, total_chars, total_chars, total_lines)


@dataclass(frozen=True)
class ClipResult:
    text: str
    input_chars: int
    input_lines: int
    span: Span | None


def tool_label(name: str | None) -> str:
    """The tool name as markers print it; the core's `tool_label` in `rust/profile.rs`."""
    if name is None:
        return ""
    kept = [c for c in name if unicodedata.category(c) != "Cc" and c not in "[]" and c not in _INVISIBLE]
    return "".join(kept[:_MAX_TOOL_LABEL]).strip()


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _tokens(chars: int) -> str:
    return _plural(-(-chars // 4), "token", "tokens")


def _said(span: Span, numbered: Numbered | None) -> tuple[int, int, int | None]:
    """The numbers a marker gives the span's ends, and the output's line count where they are
    the output's own: a numbered read's are its viewer's (the core's `said`)."""
    printed = None if numbered is None else numbered.printed(span.first, span.last)
    if printed is None:
        return span.first, span.last, span.total_lines
    return printed[0], printed[1], None


def _line_range(first: int, last: int, grouped: bool) -> str:
    fmt = "{:,}" if grouped else "{}"
    if first == last:
        return "line " + fmt.format(first)
    return f"lines {fmt.format(first)}-{fmt.format(last)}"


def _lines_of(span: Span, numbered: Numbered | None) -> str:
    first, last, total = _said(span, numbered)
    rng = _line_range(first, last, True)
    return rng if total is None else f"{rng} of {total:,}"


def _place(span: Span, numbered: Numbered | None) -> str:
    rng = _lines_of(span, numbered)
    first, last, _ = _said(span, numbered)
    a, b = _plural(span.first_shown, "char", "chars"), _plural(span.last_shown, "char", "chars")
    head_cut, tail_cut = span.first_shown > 0, span.last_shown > 0
    if first == last:
        if head_cut and tail_cut:
            return f"{rng} except its first {span.first_shown:,} and last {b}"
        if head_cut:
            return f"{rng} after its first {a}"
        if tail_cut:
            return f"{rng} except its last {b}"
        return rng
    f, g = f"{first:,}", f"{last:,}"
    if head_cut and tail_cut:
        return f"{rng} (line {f} after its first {a}; line {g} except its last {b})"
    if head_cut:
        return f"{rng} (line {f} after its first {a})"
    if tail_cut:
        return f"{rng} (line {g} except its last {b})"
    return rng


def _show_lines(way_back: WayBack, a: int, b: int) -> str:
    """The command that prints lines `a..=b` of where the output is kept (rust/way_back.rs)."""
    if isinstance(way_back, str):
        return f"sed -n '{a},{b}p' {_quoted(way_back)}"
    return f"shapeclip show {way_back[0]} --lines {a}:{b}"


def _quoted(path: str) -> str:
    """`path` as a shell reads it back, quoted as the core quotes it."""
    if path and all(c.isascii() and (c.isalnum() or c in "/._-+,:@%=") for c in path):
        return path
    return "'" + path.replace("'", "'\\''") + "'"


def _offset(line: int, numbered: Numbered | None) -> int:
    """The file's number of output line `line`, as a file-reading tool's offset takes it."""
    return line if numbered is None else numbered.file_line(line)


def _hint(span: Span, kind: str, way_back: WayBack | None, numbered: Numbered | None) -> str:
    a, b = span.first, span.last
    if way_back is not None:
        path = way_back if isinstance(way_back, str) else way_back[1]
        return f"To see them, run {_show_lines(way_back, a, b)}, or read {path} with offset {a} and limit {span.lines}."
    if kind in RERUN_KINDS:
        return (
            f"To see them, run the command again piped through sed -n '{a},{b}p' (or head, tail, grep), or narrow it."
        )
    if kind == "file_read":
        return (
            f"To see them, read the file again with offset {_offset(a, numbered)} and limit {span.lines} "
            "(line numbers start at 1)."
        )
    if kind == "search":
        return (
            "To see them, search again narrower: a more specific pattern, a subdirectory, "
            "or -l / -c for just the files and counts."
        )
    if kind == "web":
        return "To see them, fetch it again narrower: one section, one page, or a query."
    return "To see them, call the tool again for a narrower result."


def _short_hint(span: Span, kind: str, way_back: WayBack | None, numbered: Numbered | None) -> str:
    a, b = span.first, span.last
    if way_back is not None:
        return f"; {_show_lines(way_back, a, b)}"
    if kind in RERUN_KINDS:
        return f"; re-run | sed -n '{a},{b}p'"
    if kind == "file_read":
        return f"; read offset {_offset(a, numbered)} limit {b - a + 1}"
    return ""


#: Longest first; "counted" is "compact" without the way back, where that makes it too long.
_TIERS = ("full", "compact", "counted", "terse", "bare")


def render_marker(
    tier: str,
    span: Span,
    kind: str,
    label: str,
    way_back: WayBack | None = None,
    numbered: Numbered | None = None,
) -> str:
    """The marker for `span`, worded exactly as the native core words it; `numbered` maps a
    file read's lines to the file's, where a viewer numbered them."""
    if tier == "full":
        what = f"{label} " if label else ""
        lines, chars = _plural(span.lines, "line", "lines"), _plural(span.chars, "char", "chars")
        return (
            f"[shapeclip: {_place(span, numbered)} omitted from this {what}output ({lines}, {chars}, "
            f"~{_tokens(span.chars)}). {_hint(span, kind, way_back, numbered)}]"
        )
    # A line cut inside is omitted only in part: the short tiers say so (the full one says how).
    partial = span.first_shown > 0 or span.last_shown > 0
    if tier in ("compact", "counted"):
        show = _short_hint(span, kind, way_back, numbered) if tier == "compact" else ""
        what = f"{_plural(span.chars, 'char', 'chars')} of " if partial else ""
        return f"[shapeclip: {what}{_lines_of(span, numbered)} omitted, ~{_tokens(span.chars)}{show}]"
    if tier == "terse":
        first, last, _ = _said(span, numbered)
        return f"[{_line_range(first, last, False)} omitted{' in part' if partial else ''}]"
    return "\u2026"


def _head_and_reset(text: str, room: int, tail_room: int) -> tuple[str, bool, int]:
    """The head within `room`, whether it leaves a colour on, and the tail's room after paying
    for the reset before the marker (from the tail's room, then from the head's)."""
    head = text[: _cut_head(text, room)]
    if not sgr_open(head):
        return head, False, tail_room
    from_tail = min(len(SGR_RESET), tail_room)
    if from_tail == len(SGR_RESET):
        return head, True, tail_room - from_tail
    head = text[: _cut_head(text, max(0, room - (len(SGR_RESET) - from_tail)))]
    return head, sgr_open(head), 0


def _cut_head(text: str, room: int) -> int:
    nl = text.rfind("\n", 0, room)
    if nl >= 0 and nl + 1 >= room - room // 4:
        return nl + 1
    if room > 0 and text[room : room + 1] == "\n":
        return room + 1
    return cut_before(text, room)


def _cut_tail(text: str, room: int) -> int:
    if room == 0:
        return len(text)
    at = len(text) - room
    nl = text.find("\n", at - 1)
    if nl >= 0 and len(text) - (nl + 1) >= room - room // 4:
        return nl + 1
    return cut_after(text, at)


def _tail_lines_back(text: str, start: int, spare: int) -> int:
    """Where the tail from `start` starts once it takes the whole lines before it that fit in
    `spare`; `start` itself when it is no line's start or none fits."""
    if start == 0 or text[start - 1] != "\n":
        return start
    at = start
    # Only a line with a newline before it in `text` is whole: the first may be a part.
    while (nl := text.rfind("\n", 0, at - 1)) >= 0 and at - (nl + 1) <= spare:
        spare -= at - (nl + 1)
        at = nl + 1
    return at


def _head_lines_on(text: str, end: int, spare: int) -> int:
    """How long the head of `text[:end]` is once it takes the whole lines after it that fit in
    `spare`; `end` itself when it is no line's end, none fits, or they leave a colour on."""
    if end == 0 or text[end - 1] != "\n":
        return end
    at = end
    while (nl := text.find("\n", at)) >= 0 and nl + 1 - at <= spare:
        spare -= nl + 1 - at
        at = nl + 1
    return end if sgr_open(text[:at]) else at


class Clipper:
    """A bounded, streaming head+tail clip of text fed in chunks."""

    def __init__(self, budget: int, profile: Profile, tool_name: str | None) -> None:
        self._budget = budget
        self._kind = profile.kind
        self._weights = profile.weights()
        self._label = tool_label(tool_name)
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._head: list[str] = []
        self._head_len = 0
        self._tail: deque[str] = deque()
        self._tail_len = 0
        self._chars = 0
        self._newlines = 0
        self._ends_open = False

    def feed(self, chunk: str | bytes) -> None:
        if isinstance(chunk, bytes):
            self._take(self._decoder.decode(chunk))
        elif self._decoder.getstate()[0]:
            # Bytes of a split character are pending: the stream is the concatenation of the
            # chunks' UTF-8, as the core reads it.
            self._take(self._decoder.decode(chunk.encode("utf-8")))
        else:
            self._take(chunk)

    def _take(self, text: str) -> None:
        if not text:
            return
        keep = self._budget + 1
        self._chars += len(text)
        self._newlines += text.count("\n")
        self._ends_open = not text.endswith("\n")
        if self._head_len < self._budget:
            part = text[: self._budget - self._head_len]
            self._head.append(part)
            self._head_len += len(part)
        if len(text) >= keep:
            self._tail, self._tail_len = deque([text[-keep:]]), keep
            return
        self._tail.append(text)
        self._tail_len += len(text)
        while self._tail_len - len(self._tail[0]) >= keep:
            self._tail_len -= len(self._tail.popleft())

    def finish(self, way_back: WayBack | None = None) -> ClipResult:
        """The clip; `way_back` (a stored copy's ID and path) makes its marker point there."""
        self._take(self._decoder.decode(b"", True))
        lines = self._newlines + (1 if self._ends_open else 0)
        head = "".join(self._head)
        if fits(self._chars, self._budget):
            return ClipResult(head, self._chars, lines, None)
        # The deque may hold more than the last `budget + 1` characters, depending on how the
        # input was fed; a cut looks at no more, so that a stream cuts where one call does.
        return self._plan("".join(self._tail)[-(self._budget + 1) :], head, lines, way_back)

    def _plan(self, tail_text: str, head_text: str, lines: int, way_back: WayBack | None) -> ClipResult:
        budget = self._budget
        numbered = None
        if self._kind == "file_read" and way_back is None:
            numbered = read_numbered(head_text, tail_text, lines)
        # Numbers as wide as any the marker may print, in the output's numbering or a viewer's.
        widest = Span.widest(lines if numbered is None else max(lines, numbered.widest()), self._chars)

        def worst(tier: str) -> int:
            return len(render_marker(tier, widest, self._kind, self._label, way_back, numbered)) + _MARKER_SEPARATORS

        tier = next(t for t in _TIERS if worst(t) <= budget // _MARKER_PART.get(t, 2) or t == "bare")
        room = max(0, budget - worst(tier))
        head_weight, tail_weight = self._weights
        head_room = room * head_weight // (head_weight + tail_weight)
        head, reset, tail_room = _head_and_reset(head_text, head_room, room - head_room)
        tail_start = _cut_tail(tail_text, tail_room)
        # What cutting at line ends left of the room goes back, in whole lines, to the side
        # with the larger share first, as the native core gives it.
        spare = max(0, room - len(head) - (len(tail_text) - tail_start) - (len(SGR_RESET) if reset else 0))
        tail_first = tail_weight >= head_weight
        for tail_turn in (tail_first, not tail_first):
            if tail_turn:
                start = _tail_lines_back(tail_text, tail_start, spare)
                spare -= tail_start - start
                tail_start = start
            elif not reset:
                end = _head_lines_on(head_text, len(head), spare)
                spare -= end - len(head)
                head = head_text[:end]
        tail = tail_text[tail_start:]
        span = self._span(head, tail_text, tail_start, lines)

        marker = render_marker(tier, span, self._kind, self._label, way_back, numbered)
        if head and not head.endswith("\n"):
            marker = "\n" + marker
        if reset:
            marker = SGR_RESET + marker
        if tail or tier != "bare":
            marker += "\n"
        return ClipResult(disarm(head) + marker + disarm(tail), self._chars, lines, span)

    def _span(self, head: str, tail_text: str, tail_start: int, lines: int) -> Span:
        tail = tail_text[tail_start:]
        first = head.count("\n") + 1
        first_shown = len(head) - (head.rfind("\n") + 1)
        if not tail:
            last, last_shown = lines, 0
        else:
            tail_start_line = 1 + self._newlines - tail.count("\n")
            if tail_text[:tail_start].endswith("\n"):
                last, last_shown = tail_start_line - 1, 0
            else:
                nl = tail.find("\n")
                last, last_shown = tail_start_line, (len(tail) if nl < 0 else nl)
        omitted = self._chars - len(head) - len(tail)
        return Span(first, last, lines, first_shown, last_shown, omitted, last - first + 1)
