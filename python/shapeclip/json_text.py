"""JSON that comes from outside: a hook's event, a settings file, a line of a ledger, a recorded
conversation, a stored entry's metadata. Python's decoder reports JSON nested deeper than it
recurses as `RecursionError`, not as the `ValueError` of any other JSON it cannot read; read
here, both are `ValueError`, so that every caller treats such input as it treats any other
it cannot use, instead of failing with a traceback.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from typing import Any


def parse(text: str | bytes) -> Any:
    """The value `text` holds; ValueError when it is not JSON, or nested too deep to read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested deeper than it can be read") from None
