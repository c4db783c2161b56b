"""The fakes' scripted "model": deterministic answers that show what the model was sent.

- The conversation ends with function results: ``The function returned: <output>[; <output>...]``.
- The latest user text is ``call NAME {json}`` and NAME is offered: a call of NAME with those arguments.
- Otherwise: ``You said: <latest>. Before that you said: <earlier user texts, ' | '-joined, or 'nothing'>.``

A private "thought" accompanies every answer; each fake signs or seals it its own way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Answer:
    text: str = ""
    call: tuple[str, dict[str, Any]] | None = None
    thought: str = ""


@dataclass
class Conversation:
    user_texts: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    """Function results after the last user text (the model is being answered)."""
    tools: list[str] = field(default_factory=list)


def answer(conversation: Conversation) -> Answer:
    latest = conversation.user_texts[-1] if conversation.user_texts else ""
    thought = f"The user wrote {len(conversation.user_texts)} messages; answer the latest."
    if conversation.results:
        return Answer(text="The function returned: " + "; ".join(conversation.results), thought=thought)
    if latest.startswith("call "):
        name, _, raw = latest[5:].partition(" ")
        try:
            arguments = json.loads(raw) if raw.strip() else {}
        except ValueError:
            arguments = {}
        if name in conversation.tools and isinstance(arguments, dict):
            return Answer(call=(name, arguments), thought=f"I should call {name}.")
    earlier = " | ".join(conversation.user_texts[:-1]) or "nothing"
    return Answer(text=f"You said: {latest}. Before that you said: {earlier}.", thought=thought)
