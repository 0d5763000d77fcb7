"""How the command line reads a count (a budget, a number of days), the one way for every
subcommand: ASCII digits only, at least 1, and an error that names the unit."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def positive(unit: str) -> Callable[[str], int]:
    """An argparse `type` for a whole number of `unit`, at least 1."""

    def read(value: str) -> int:
        if not (value.isascii() and value.isdigit()) or int(value) < 1:
            raise argparse.ArgumentTypeError(f"must be a whole number of {unit}, at least 1, got {value!r}")
        return int(value)

    return read
