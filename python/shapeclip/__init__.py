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

from . import defaults

TYPE_CHECKING = False  # typing.TYPE_CHECKING, which mypy reads the same: typing takes 2 ms to import

__version__ = defaults.VERSION

# The public names, by the module each comes from: the one list of them. `__all__` and the
# look-ups below are made from it; nothing inside the package imports from here.
_EXPORTS = {
    ".api": ("Compressor", "acompress", "backend", "compress", "compress_detailed"),
    ".defaults": ("DEFAULT_BUDGET", "DEFAULT_DIGEST_TIMEOUT"),
    ".digest": ("Digest",),
    ".ledger": ("Ledger",),
    ".messages": (
        "EXEMPT_TOOLS", "Budget", "CompressedMessages", "CompressReport", "Microcompacted", "MicrocompactReport",
        "acompress_messages", "budget_for", "compress_messages", "microcompact",
    ),
    ".profiles": ("DEFAULT", "TOOL_PROFILES", "Profile", "profile_for"),
    ".result": ("Compressed",),
    ".store": ("Entry", "Store"),
}  # fmt: skip
_HOMES = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(["__version__", *_HOMES])
# Subpackages whose functions are called by their full name, `shapeclip.digest.apply(...)`,
# after a plain `import shapeclip`.
_HOMES["digest"] = ".digest"

if TYPE_CHECKING:
    # What a type checker cannot read from the table above, which it does not run: the same
    # names from the same modules (tests/test_imports.py holds the two equal). `X as X` marks
    # each as exported, since the checker cannot read the `__all__` made above either.
    from .api import Compressor as Compressor
    from .api import acompress as acompress
    from .api import backend as backend
    from .api import compress as compress
    from .api import compress_detailed as compress_detailed
    from .defaults import DEFAULT_BUDGET as DEFAULT_BUDGET
    from .defaults import DEFAULT_DIGEST_TIMEOUT as DEFAULT_DIGEST_TIMEOUT
    from .digest import Digest as Digest
    from .ledger import Ledger as Ledger
    from .messages import EXEMPT_TOOLS as EXEMPT_TOOLS
    from .messages import Budget as Budget
    from .messages import CompressedMessages as CompressedMessages
    from .messages import CompressReport as CompressReport
    from .messages import Microcompacted as Microcompacted
    from .messages import MicrocompactReport as MicrocompactReport
    from .messages import acompress_messages as acompress_messages
    from .messages import budget_for as budget_for
    from .messages import compress_messages as compress_messages

    # From its own module: under TYPE_CHECKING, mypy reads `from .messages import microcompact`
    # as the submodule of that name.
    from .messages.microcompact import microcompact as microcompact
    from .profiles import DEFAULT as DEFAULT
    from .profiles import TOOL_PROFILES as TOOL_PROFILES
    from .profiles import Profile as Profile
    from .profiles import profile_for as profile_for
    from .result import Compressed as Compressed
    from .store import Entry as Entry
    from .store import Store as Store


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'shapeclip' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(home, __name__)
    value = module if home == f".{name}" else getattr(module, name)
    globals()[name] = value  # the next look-up does not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
