"""Telling which provider format a message list is in, from the items only that format has.

A list with no tool traffic and no reasoning has nothing to compress or clear, so it needs no
format at all; a list with items of two formats is a bug in the caller, and is refused rather
than half handled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .anthropic import AnthropicMessages
from .conversation import Format
from .openai_chat import OpenAIChat
from .openai_responses import OpenAIResponses

FORMATS: tuple[Format, ...] = (OpenAIChat(), OpenAIResponses(), AnthropicMessages())


def detect(messages: Sequence[Any]) -> Format | None:
    """The format whose items `messages` holds; None when it holds none that tell.

    Raises `ValueError` when it holds items of two formats.
    """
    found: dict[str, Format] = {}
    for index, item in enumerate(messages):
        for candidate in FORMATS:
            if candidate.name not in found and candidate.recognises(item):
                found[candidate.name] = candidate
                if len(found) > 1:
                    names = " and ".join(found)
                    raise ValueError(f"the messages mix two formats ({names}; item {index} is {candidate.name})")
    return next(iter(found.values()), None)
