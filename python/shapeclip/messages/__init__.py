"""Agent histories: compress new tool results at append time, and clear old ones on purpose.

`compress_messages` compresses each new tool result of a message list as it is appended, to
budgets scaled to the model's window (`budget_for`), so the history the prompt cache sees
never changes afterwards. `microcompact` is the deliberate clean-up for a full window: it
clears old tool results and reasoning, keeping every call paired with its result. Both take
OpenAI Chat Completions messages, OpenAI Responses input items and Anthropic messages.
"""

from ..fit import MIN_SHARE
from .append import CompressedMessages, CompressReport, ResultReport, acompress_messages, compress_messages
from .budgets import DEFAULT_MESSAGE_BUDGET, EXEMPT_TOOLS, Budget, budget_for, estimate_tokens
from .microcompact import ClearedResult, Microcompacted, MicrocompactReport, microcompact, placeholder

__all__ = [
    "DEFAULT_MESSAGE_BUDGET",
    "EXEMPT_TOOLS",
    "MIN_SHARE",
    "Budget",
    "ClearedResult",
    "CompressReport",
    "CompressedMessages",
    "MicrocompactReport",
    "Microcompacted",
    "ResultReport",
    "acompress_messages",
    "budget_for",
    "compress_messages",
    "estimate_tokens",
    "microcompact",
    "placeholder",
]
