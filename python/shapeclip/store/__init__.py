"""The store: full tool outputs kept on disk, so that a marker can point at its omitted lines
and `shapeclip show ID --lines A:B` (or any file-reading tool) gives them back exactly.

The names below are imported when first used (PEP 562), as the package's own are: the facade
imports `keep` on every compression, and only one given a store needs the rest.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from .root import ENV_VAR, Refused, default_path
    from .store import (
        DEFAULT_MAX_BYTES,
        EVICTED,
        MAX_BYTES_ENV_VAR,
        Ambiguous,
        Capture,
        Damaged,
        Evicted,
        Stats,
        Store,
        Unknown,
    )
    from .writer import Entry

# The public names, by the module each comes from.
_EXPORTS = {
    ".root": ("ENV_VAR", "Refused", "default_path"),
    ".store": (
        "DEFAULT_MAX_BYTES", "EVICTED", "MAX_BYTES_ENV_VAR", "Ambiguous", "Capture", "Damaged", "Evicted", "Stats",
        "Store", "Unknown",
    ),
    ".writer": ("Entry",),
}  # fmt: skip
_HOMES = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ENV_VAR",
    "EVICTED",
    "MAX_BYTES_ENV_VAR",
    "Ambiguous",
    "Capture",
    "Damaged",
    "Entry",
    "Evicted",
    "Refused",
    "Stats",
    "Store",
    "Unknown",
    "default_path",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'shapeclip.store' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # the next look-up does not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
