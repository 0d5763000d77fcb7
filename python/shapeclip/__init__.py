"""shapeclip: compress an oversized tool output once, when it enters an agent's history.

`compress(text, tool_name, budget)` returns at most `budget` characters, returns output that
fits unchanged, and gives byte-identical results for the same arguments, so prompt caches keep
working. Every cut is labelled with a marker that says exactly what was omitted and how to get
it back.

`compress_messages` does that for the new tool results of an agent's message list (OpenAI Chat
Completions, OpenAI Responses or Anthropic Messages), and `microcompact` clears old ones when
the window is full anyway.

The names below are imported when first used (PEP 562), so that `shapeclip hook` and the
`shapeclip` command, which start a Python process per shell command, load only what they use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import Compressed, Compressor, acompress, backend, compress, compress_detailed
    from .digest import Digest
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
    )

    # From its own module: under TYPE_CHECKING, mypy reads `from .messages import microcompact`
    # as the submodule of that name.
    from .messages.microcompact import microcompact
    from .profiles import DEFAULT, TOOL_PROFILES, Profile, profile_for
    from .store import Entry, Store

__version__ = "0.1.0"
# Defaults that the command line and the hooks read without importing the compressor:
#: The budget, in characters, of a call that gives none, and the default `--budget`.
DEFAULT_BUDGET = 16_000
#: Seconds a digest gets (`shapeclip.digest.DEFAULT_TIMEOUT`), and the default `--digest-timeout`.
DEFAULT_DIGEST_TIMEOUT = 10.0

# The public names, by the module each comes from.
_EXPORTS = {
    ".api": ("Compressed", "Compressor", "acompress", "backend", "compress", "compress_detailed"),
    ".digest": ("Digest",),
    ".ledger": ("Ledger",),
    ".messages": (
        "EXEMPT_TOOLS", "Budget", "CompressedMessages", "CompressReport", "Microcompacted", "MicrocompactReport",
        "acompress_messages", "budget_for", "compress_messages", "microcompact",
    ),
    ".profiles": ("DEFAULT", "TOOL_PROFILES", "Profile", "profile_for"),
    ".store": ("Entry", "Store"),
}  # fmt: skip
_HOMES = {name: module for module, names in _EXPORTS.items() for name in names}
# Subpackages whose functions are called by their full name, `shapeclip.digest.apply(...)`,
# after a plain `import shapeclip`.
_HOMES["digest"] = ".digest"

__all__ = [
    "DEFAULT",
    "EXEMPT_TOOLS",
    "TOOL_PROFILES",
    "Budget",
    "CompressReport",
    "Compressed",
    "CompressedMessages",
    "Compressor",
    "Digest",
    "Entry",
    "Ledger",
    "MicrocompactReport",
    "Microcompacted",
    "Profile",
    "Store",
    "__version__",
    "acompress",
    "acompress_messages",
    "backend",
    "budget_for",
    "compress",
    "compress_detailed",
    "compress_messages",
    "microcompact",
    "profile_for",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'shapeclip' has no attribute {name!r}")
    module = importlib.import_module(home, __name__)
    value = module if home == f".{name}" else getattr(module, name)
    globals()[name] = value  # the next look-up does not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
