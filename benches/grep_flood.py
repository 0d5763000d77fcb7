"""Generates grep floods for the search benchmark: `grep -rn` rows over a made-up tree.

The text is produced at run time (never committed) and depends only on its size, so every run
times the same input. Rows look like real ones: nested paths, a few to a few hundred matches per
file, source-like text of varying length.
"""

from __future__ import annotations

import random

_WORDS = [
    "def",
    "return",
    "self",
    "None",
    "import",
    "from",
    "class",
    "if",
    "else",
    "for",
    "in",
    "yield",
    "raise",
    "value",
    "key",
]


def grep_flood(size: int, seed: int = 3) -> str:
    """About `size` characters of `path:NN:text` rows, whole lines only."""
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    n = 0
    while total < size:
        path = f"src/pkg{n % 97}/mod{n % 13}/sub-{n % 7}/file_{n}.py"
        line = 0
        for _ in range(1 + int(rng.expovariate(1 / 20))):
            line += 1 + rng.randrange(40)
            text = " ".join(rng.choice(_WORDS) for _ in range(2 + rng.randrange(12)))
            row = f"{path}:{line}:    {text}\n"
            parts.append(row)
            total += len(row)
        n += 1
    return "".join(parts)
