"""Agent histories: compress new tool results at append time.

`compress_messages` compresses each new tool result of a message list as it is appended, to
budgets scaled to the model's window (`budget_for`), so the history the prompt cache sees
never changes afterwards. It takes OpenAI Chat Completions messages, OpenAI Responses input
items and Anthropic messages.
"""

from .append import CompressedMessages, CompressReport, ResultReport, acompress_messages, compress_messages
from .budgets import DEFAULT_BUDGET, EXEMPT_TOOLS, MIN_SHARE, Budget, budget_for, estimate_tokens

__all__ = [
    "DEFAULT_BUDGET",
    "EXEMPT_TOOLS",
    "MIN_SHARE",
    "Budget",
    "CompressReport",
    "CompressedMessages",
    "ResultReport",
    "acompress_messages",
    "budget_for",
    "compress_messages",
    "estimate_tokens",
]
