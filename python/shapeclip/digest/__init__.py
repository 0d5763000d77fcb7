"""Optional digests: a cheap, fast model says what the omitted part of an output contains.

A digest is a callable `(omitted_text, tool_name) -> str | None` (or a coroutine function of
that), given as `compress(..., digest=...)` either bare or as `Digest(fn, timeout=, cache=)`,
which says how long it may take and where its answers are kept. It is asked only when a clip or
log plan omitted at least 4,000 characters (never for search plans, whose counts already say
everything), and it reads at most 24,000 characters: the omitted lines that carry error or
warning words first, then lines spread evenly over the whole omitted part, each with its line
number. Its answer is written into the marker, shortened at a word boundary to the room left in
the budget. Any failure (an exception, a timeout, an empty or absurd answer) leaves the plain
marker.

`compress_detailed(..., digest=d)` asks no model: its result's `digest_request` says what the
digest needs, and `apply(result, d)` (or `await aapply(result, d)`) asks and writes the answer
in, which is what `compress` does. `openai_chat` and `anthropic_messages` build digests over
the official SDK clients.
"""

from ..result import DigestCall, DigestRequest
from .adapters import anthropic_messages, openai_chat
from .prompt import PROMPT, PROMPT_VERSION
from .request import Digest, aapply, apply
from .run import DEFAULT_TIMEOUT, LRU, Answer, DigestFn

__all__ = [
    "DEFAULT_TIMEOUT",
    "LRU",
    "PROMPT",
    "PROMPT_VERSION",
    "Answer",
    "Digest",
    "DigestCall",
    "DigestFn",
    "DigestRequest",
    "aapply",
    "anthropic_messages",
    "apply",
    "openai_chat",
]
