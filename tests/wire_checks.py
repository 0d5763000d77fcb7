"""The structural rules the three APIs enforce on a request's history, restated for the loopback
server: every tool result answers a call made before it, every call is answered, nothing is
sent empty. Each check returns the problems it finds, worded like the APIs' own refusals."""

from __future__ import annotations

from typing import Any


def chat_completions(messages: list[dict[str, Any]]) -> list[str]:
    """An assistant message's calls are answered by the tool messages right after it."""
    problems: list[str] = []
    pending: set[str] = set()
    for index, message in enumerate(messages):
        if message.get("role") == "tool":
            if message.get("tool_call_id") not in pending:
                problems.append(f"messages[{index}]: a 'tool' message must respond to a preceding 'tool_calls'")
            pending.discard(message.get("tool_call_id", ""))
            continue
        if pending:
            problems.append(f"messages[{index}]: tool_call_ids did not have response messages: {sorted(pending)}")
            pending = set()
        if message.get("role") == "assistant":
            calls = message.get("tool_calls") or []
            if not calls and not message.get("content"):
                problems.append(f"messages[{index}]: an assistant message needs content or tool_calls")
            pending = {call["id"] for call in calls}
    if pending:
        problems.append(f"tool_call_ids did not have response messages: {sorted(pending)}")
    return problems


def responses(items: list[dict[str, Any]]) -> list[str]:
    """Outputs follow their calls, calls have outputs, and an item whose id ties it to a reasoning
    item (here: an id ending in `_rs_N`) is sent with that reasoning item."""
    problems: list[str] = []
    called: set[str] = set()
    answered: set[str] = set()
    reasoning = {item.get("id") for item in items if item.get("type") == "reasoning"}
    for index, item in enumerate(items):
        kind = item.get("type")
        if kind == "function_call":
            called.add(item["call_id"])
        elif kind == "function_call_output":
            if item["call_id"] not in called:
                problems.append(f"input[{index}]: No tool call found for function call output {item['call_id']}")
            answered.add(item["call_id"])
        elif kind == "reasoning":
            following = items[index + 1] if index + 1 < len(items) else {}
            if following.get("type") not in ("function_call", "message") and following.get("role") != "assistant":
                problems.append(f"input[{index}]: reasoning was provided without its required following item")
        _, tie, link = str(item.get("id") or "").partition("_rs_")
        if tie and f"rs_{link}" not in reasoning:
            problems.append(f"input[{index}]: {kind} was provided without its required 'reasoning' item: rs_{link}")
    problems.extend(f"No tool output found for function call {call_id}" for call_id in sorted(called - answered))
    return problems


def _turns(messages: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Consecutive messages of one role, joined into one turn as the API joins them."""
    turns: list[tuple[str, list[dict[str, Any]]]] = []
    for message in messages:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
        if not blocks:
            turns.append((message["role"], []))
        elif turns and turns[-1][0] == message["role"] and turns[-1][1]:
            turns[-1][1].extend(blocks)
        else:
            turns.append((message["role"], blocks))
    return turns


def anthropic_messages(messages: list[dict[str, Any]]) -> list[str]:
    """Each tool_use is answered in the next user turn, and each tool_result answers the turn
    before it."""
    problems: list[str] = []
    turns = _turns(messages)
    if turns and turns[0][0] != "user":
        problems.append("messages: first message must use the 'user' role")
    for number, (role, blocks) in enumerate(turns):
        if not blocks:
            problems.append(f"messages.{number}: all messages must have non-empty content")
        ids = {block.get("id") for block in blocks if block.get("type") == "tool_use"}
        answers = {block.get("tool_use_id") for block in blocks if block.get("type") == "tool_result"}
        following = turns[number + 1][1] if number + 1 < len(turns) else []
        answered = {block.get("tool_use_id") for block in following if block.get("type") == "tool_result"}
        if role == "assistant" and ids - answered:
            problems.append(f"messages.{number}: tool_use ids were found without tool_result blocks immediately after")
        before = turns[number - 1][1] if number else []
        if answers - {block.get("id") for block in before if block.get("type") == "tool_use"}:
            problems.append(f"messages.{number}: unexpected tool_use_id found in tool_result blocks")
    return problems
