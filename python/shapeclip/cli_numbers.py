"""How the command line reads a count (a budget, a number of days), the one way for every
subcommand: ASCII digits only, at least 1, and an error that names the unit."""

from __future__ import annotations

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable


def count(value: str) -> int | None:
    """`value` as a whole number, at least 1; None when it is not one."""
    return int(value) if value.isascii() and value.isdigit() and int(value) >= 1 else None


def positive(unit: str) -> Callable[[str], int]:
    """An argparse `type` for a whole number of `unit`, at least 1."""

    def read(value: str) -> int:
        number = count(value)
        if number is None:
            import argparse  # only here: a hook reads its budget without argparse (`hooks.run`)

            raise argparse.ArgumentTypeError(f"must be a whole number of {unit}, at least 1, got {value!r}")
        return number

    return read
