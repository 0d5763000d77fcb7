"""Whether a text fits a budget: the one rule the Python side decides it by.

A text fits when its length in code points (as `len` counts a `str`, and as the core counts
the decoded input) is at most the budget. The native path decides for itself, in the core's
engine; everything in Python asks this function: the facade (a text that fits passes through
untouched, and no answer may break the budget), the keeper (an input is stored only when it
is cut), the pure-Python clip (an input that fits passes through), and the hooks (a tool's
output that fits is left as the tool gave it). Nothing to import, so any module may use it.
"""

from __future__ import annotations


def fits(chars: int, budget: int) -> bool:
    """Whether `chars` characters fit in `budget`: the text passes through whole, or, for an
    answer, may be given."""
    return chars <= budget
