"""The words a digest model is given, and the version that keys cached answers.

The model reads numbered lines sampled from the part of an output that was cut (see the core's
sampler: signal lines first, then lines spread evenly over the whole omitted part). It is asked
for what an agent can act on: exact paths, line numbers, names, numbers and messages, not a
narrative. Bump `PROMPT_VERSION` whenever the wording changes, so cached digests are not reused.
"""

from __future__ import annotations

PROMPT_VERSION = "1"

PROMPT = (
    "Below are numbered lines sampled from the part of a {tool} output that was cut from an AI "
    "agent's context. In at most 120 words, state what that part contains. Be dense and factual: "
    "copy file paths, line numbers, identifiers, test names, numbers and error messages exactly; "
    "say what repeats and how often. Write one plain paragraph with no preamble, no advice and no "
    "markdown."
)


def instructions(tool_name: str | None) -> str:
    return PROMPT.format(tool=tool_name or "tool")


def user_message(sample: str, tool_name: str | None) -> str:
    return f"{instructions(tool_name)}\n\n<omitted-lines>\n{sample}</omitted-lines>"
