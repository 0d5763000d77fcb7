"""shapeclip: compress an oversized tool output once, when it enters an agent's history.

`compress(text, tool_name, budget)` returns at most `budget` characters, returns output that
fits unchanged, and gives byte-identical results for the same arguments, so prompt caches keep
working. Every cut is labelled with a marker that says exactly what was omitted and how to get
it back.

`compress_messages` does that for the new tool results of an agent's message list (OpenAI Chat
Completions, OpenAI Responses or Anthropic Messages), and `microcompact` clears old ones when
the window is full anyway.
"""

from .api import Compressed, Compressor, acompress, acompress_detailed, backend, compress, compress_detailed
from .ledger import Ledger
from .messages import (
    EXEMPT_TOOLS,
    Budget,
    CompressedMessages,
    CompressReport,
    Microcompacted,
    MicrocompactReport,
    acompress_messages,
    budget_for,
    compress_messages,
    microcompact,
)
from .profiles import DEFAULT, TOOL_PROFILES, Profile, profile_for
from .store import Entry, Store

__version__ = "0.1.0"

__all__ = [
    "DEFAULT",
    "EXEMPT_TOOLS",
    "TOOL_PROFILES",
    "Budget",
    "CompressReport",
    "Compressed",
    "CompressedMessages",
    "Compressor",
    "Entry",
    "Ledger",
    "MicrocompactReport",
    "Microcompacted",
    "Profile",
    "Store",
    "__version__",
    "acompress",
    "acompress_detailed",
    "acompress_messages",
    "backend",
    "budget_for",
    "compress",
    "compress_detailed",
    "compress_messages",
    "microcompact",
    "profile_for",
]
