"""Optional digests: a cheap, fast model says what the omitted part of an output contains.

A digest is any callable `(omitted_text, tool_name) -> str | None` (or a coroutine function of
that) passed as `compress(..., digest=...)`. It is asked only when a clip or log plan omitted at
least 4,000 characters (never for search plans, whose counts already say everything), and it
reads at most 24,000 characters: the omitted lines that carry error or warning words first,
then lines spread evenly over the whole omitted part, each with its line number. Its answer is
written into the marker, shortened at a word boundary to the room left in the budget. Any
failure (an exception, a timeout, an empty or absurd answer) leaves the plain marker.

`openai_chat` and `anthropic_messages` build digests over the official SDK clients.
"""

from .adapters import anthropic_messages, openai_chat
from .prompt import PROMPT, PROMPT_VERSION
from .run import DEFAULT_TIMEOUT, LRU, Answer, DigestCall, DigestFn

__all__ = [
    "DEFAULT_TIMEOUT",
    "LRU",
    "PROMPT",
    "PROMPT_VERSION",
    "Answer",
    "DigestCall",
    "DigestFn",
    "anthropic_messages",
    "openai_chat",
]
