"""Native history filters in each provider's own terms (``nativeHistory`` of a native session).

A filter runs when a turn is stored, on the items the turn added, and only
ever does three things:

- ``no_reasoning`` drops reasoning whole: OpenAI ``reasoning`` items, Anthropic
  ``thinking`` / ``redacted_thinking`` blocks, Gemini thought-summary parts
  (``thought: true`` without a ``thoughtSignature``). A signed block cannot be
  shortened and still verify, so nothing is ever edited; Gemini's signature
  rides the answer or call part it belongs to, so that part stays as it is.
- ``no_tool_results`` replaces each tool result's content with a placeholder;
  the call and its result both stay, so they remain paired.
- ``compact_tool_results`` cuts each tool result's content, a string or a list
  of text blocks, to at most ``max_chars`` characters (the ellipsis included).

A history that ends inside a tool round (the model asked for calls and has
not answered the results yet) keeps that round exactly as it is, whatever the
filter: Anthropic rejects a modified latest assistant message while tool
results are being returned, and a replaced result would answer the open call
with a placeholder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from .wire import dump_item

__all__ = [
    "ALL_FILTERS",
    "TOOL_RESULT_PLACEHOLDER",
    "compact_content",
    "filter_anthropic",
    "filter_gemini",
    "filter_openai_responses",
]

ALL_FILTERS = ("full", "no_reasoning", "no_tool_results", "compact_tool_results")
TOOL_RESULT_PLACEHOLDER = "[tool result omitted from history]"
ELLIPSIS = "…"
TEXT_BLOCK_TYPES = ("text", "input_text")
"""Anthropic's ``text`` and OpenAI's ``input_text`` blocks: what a list-shaped tool result cuts."""


def compact_content(content: Any, max_chars: int) -> Any:
    """A tool result's content cut to ``max_chars`` characters: a string, or a list of text blocks in order.

    A cut text ends with an ellipsis that counts against the cap; text blocks
    after the cap is spent are dropped (an empty text block is invalid on
    Anthropic), and any other block (an image, say) is kept as it is.
    """
    if isinstance(content, str):
        return _cut(content, max_chars)
    if not isinstance(content, list):
        return content
    budget, blocks = max_chars, []
    for block in content:
        text = block.get("text") if isinstance(block, dict) and block.get("type") in TEXT_BLOCK_TYPES else None
        if not isinstance(text, str):
            blocks.append(block)
        elif budget > 0:
            blocks.append({**block, "text": _cut(text, budget)})
            budget = max(budget - len(text), 0)
    return blocks


def _cut(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    if max_chars < len(ELLIPSIS):
        return ""
    return text[: max_chars - len(ELLIPSIS)] + ELLIPSIS


def _result_content(content: Any, mode: str, max_chars: int) -> Any:
    return TOOL_RESULT_PLACEHOLDER if mode == "no_tool_results" else compact_content(content, max_chars)


def _apply(
    items: Sequence[str],
    mode: str,
    open_round_start: Callable[[list[Any]], int],
    filter_item: Callable[[Any], Any],
) -> tuple[str, ...]:
    """Filter every item before the open tool round (if any); an item left unchanged keeps its exact text."""
    if mode == "full":
        return tuple(items)
    parsed = [json.loads(raw) for raw in items]
    start = open_round_start(parsed)
    kept: list[str] = []
    for raw, item in zip(items[:start], parsed[:start], strict=True):
        filtered = filter_item(item)
        if filtered is None:
            continue
        kept.append(raw if filtered == item else dump_item(filtered))
    return (*kept, *items[start:])


# -- OpenAI Responses: a flat list of items ----------------------------------------------


def filter_openai_responses(items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
    def one(item: Any) -> Any:
        kind = item.get("type") if isinstance(item, dict) else None
        if mode == "no_reasoning" and kind == "reasoning":
            return None
        if mode in ("no_tool_results", "compact_tool_results") and kind == "function_call_output":
            return {**item, "output": _result_content(item.get("output"), mode, max_chars)}
        return item

    return _apply(items, mode, _openai_open_round, one)


def _openai_open_round(items: list[Any]) -> int:
    """Where a trailing tool round starts: the model output (reasoning, calls) that made the last calls."""
    kinds = [item.get("type") if isinstance(item, dict) else None for item in items]
    if not kinds or kinds[-1] not in ("function_call", "function_call_output"):
        return len(items)
    index = max(i for i, kind in enumerate(kinds) if kind == "function_call")
    while index > 0 and kinds[index - 1] in ("reasoning", "function_call"):
        index -= 1
    return index


# -- Anthropic Messages: user and assistant messages of content blocks -------------------

THINKING_BLOCKS = ("thinking", "redacted_thinking")


def filter_anthropic(items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
    def one(message: Any) -> Any:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            return message
        if mode == "no_reasoning" and message.get("role") == "assistant":
            kept = [b for b in content if not (isinstance(b, dict) and b.get("type") in THINKING_BLOCKS)]
            return {**message, "content": kept} if kept else None
        if mode in ("no_tool_results", "compact_tool_results") and message.get("role") == "user":
            return {**message, "content": [_anthropic_result(b, mode, max_chars) for b in content]}
        return message

    return _apply(items, mode, _anthropic_open_round, one)


def _anthropic_result(block: Any, mode: str, max_chars: int) -> Any:
    if not (isinstance(block, dict) and block.get("type") == "tool_result"):
        return block
    return {**block, "content": _result_content(block.get("content", ""), mode, max_chars)}


def _has_block(message: Any, kind: str) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == kind for b in content)


def _anthropic_open_round(messages: list[Any]) -> int:
    if not messages or not (_has_block(messages[-1], "tool_use") or _has_block(messages[-1], "tool_result")):
        return len(messages)
    return max(i for i, m in enumerate(messages) if m.get("role") == "assistant" and _has_block(m, "tool_use"))


# -- Gemini: user and model contents of parts -------------------------------------------


def filter_gemini(items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
    def one(content: Any) -> Any:
        parts = content.get("parts") if isinstance(content, dict) else None
        if not isinstance(parts, list):
            return content
        if mode == "no_reasoning" and content.get("role") == "model":
            kept = [p for p in parts if not _thought_summary(p)]
            return {**content, "parts": kept} if kept else None
        if mode in ("no_tool_results", "compact_tool_results") and content.get("role") != "model":
            return {**content, "parts": [_gemini_result(p, mode, max_chars) for p in parts]}
        return content

    return _apply(items, mode, _gemini_open_round, one)


def _thought_summary(part: Any) -> bool:
    """A thought summary: ``thought: true`` and no signature (a signed part stays, whatever it holds)."""
    return isinstance(part, dict) and part.get("thought") is True and "thoughtSignature" not in part


def _gemini_result(part: Any, mode: str, max_chars: int) -> Any:
    response = part.get("functionResponse") if isinstance(part, dict) else None
    if not isinstance(response, dict):
        return part
    if mode == "no_tool_results":
        body: Any = {"result": TOOL_RESULT_PLACEHOLDER}
    else:
        body = _compact_values(response.get("response"), max_chars)
    return {**part, "functionResponse": {**response, "response": body}}


def _compact_values(response: Any, max_chars: int) -> Any:
    """A ``functionResponse.response`` object with its text values (``result``, ``output``...) cut in order
    within one cap; a value met after the cap is spent becomes empty."""
    if not isinstance(response, dict):
        return response
    budget, cut = max_chars, {}
    for key, value in response.items():
        if isinstance(value, str):
            cut[key] = _cut(value, budget)
            budget = max(budget - len(value), 0)
        else:
            cut[key] = value
    return cut


def _has_part(content: Any, key: str) -> bool:
    parts = content.get("parts") if isinstance(content, dict) else None
    return isinstance(parts, list) and any(isinstance(p, dict) and key in p for p in parts)


def _gemini_open_round(contents: list[Any]) -> int:
    if not contents or not (_has_part(contents[-1], "functionCall") or _has_part(contents[-1], "functionResponse")):
        return len(contents)
    return max(i for i, c in enumerate(contents) if c.get("role") == "model" and _has_part(c, "functionCall"))
