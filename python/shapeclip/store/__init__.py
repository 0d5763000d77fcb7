"""The store: full tool outputs kept on disk, so that a marker can point at its omitted lines
and `shapeclip show ID --lines A:B` (or any file-reading tool) gives them back exactly."""

from .root import ENV_VAR, Refused, default_path
from .store import DEFAULT_MAX_BYTES, EVICTED, MAX_BYTES_ENV_VAR, Ambiguous, Capture, Evicted, Stats, Store, Unknown
from .writer import Entry

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ENV_VAR",
    "EVICTED",
    "MAX_BYTES_ENV_VAR",
    "Ambiguous",
    "Capture",
    "Entry",
    "Evicted",
    "Refused",
    "Stats",
    "Store",
    "Unknown",
    "default_path",
]
