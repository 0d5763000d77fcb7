"""Input text that could pass for shapeclip's own markers, disarmed where shapeclip cut.

The pure-Python twin of the core's `rust/lookalike.rs`, which explains why: in output shapeclip
cut, the opening bracket of each look-alike marker in the input's text is shown round, one
character for one, so that every marker an agent reads there is shapeclip's.
"""

from __future__ import annotations

import re

# ASCII only, as the core reads it: no Unicode case folding, no other digits.
_OPENING = re.compile(r"\[(?=[ \t]*(?:shapeclip|lines?[ \t]+[0-9]))", re.IGNORECASE | re.ASCII)


def disarm(text: str) -> str:
    """`text` with the `[` of each look-alike marker made `(`."""
    return _OPENING.sub("(", text) if "[" in text else text
