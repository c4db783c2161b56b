"""What the native history filters share (``nativeHistory`` of a native session); each provider's own
filter, in its own terms, is its module's ``filter_native`` (``anthropic``, ``gemini``, ``openai_responses``).

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
    "apply_filter",
    "compact_content",
    "cut",
    "result_content",
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
        return cut(content, max_chars)
    if not isinstance(content, list):
        return content
    budget, blocks = max_chars, []
    for block in content:
        text = block.get("text") if isinstance(block, dict) and block.get("type") in TEXT_BLOCK_TYPES else None
        if not isinstance(text, str):
            blocks.append(block)
        elif budget > 0:
            blocks.append({**block, "text": cut(text, budget)})
            budget = max(budget - len(text), 0)
    return blocks


def cut(text: str, max_chars: int) -> str:
    """``text`` in at most ``max_chars`` characters, an ellipsis ending it when it was cut."""
    if len(text) <= max_chars:
        return text
    if max_chars < len(ELLIPSIS):
        return ""
    return text[: max_chars - len(ELLIPSIS)] + ELLIPSIS


def result_content(content: Any, mode: str, max_chars: int) -> Any:
    """A tool result's content as ``no_tool_results`` or ``compact_tool_results`` keeps it."""
    return TOOL_RESULT_PLACEHOLDER if mode == "no_tool_results" else compact_content(content, max_chars)


def apply_filter(
    items: Sequence[str],
    mode: str,
    open_round_start: Callable[[list[Any]], int],
    filter_item: Callable[[Any], Any],
) -> tuple[str, ...]:
    """Filter every item before the open tool round (if any); an item left unchanged keeps its exact text.

    ``open_round_start`` finds where a trailing tool round starts in the parsed items (their count when
    there is none); ``filter_item`` is one item as the mode keeps it, None to drop it.
    """
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
