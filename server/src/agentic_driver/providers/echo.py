"""The offline ``echo`` provider: deterministic, no network, the whole protocol.

Reply: ``echo: <input>`` (input without its directive lines). Usage: input
tokens are the whitespace-separated words of everything sent to the model
(instructions, earlier messages, input); output tokens are the reply's words.

Directive lines at the start of the input:

- ``!sleep MS``: model work starts, then waits MS milliseconds (cancellable);
- ``!fail``: model work starts, then the call fails like an upstream error;
- ``!recall``: reply ``recall: <N> messages; last user: <text>``, where N counts
  the earlier visible messages the model received and ``<text>`` is the most
  recent earlier user message (``(none)`` if there is none).

Native mode: every turn yields three items (the user message, a private
reasoning item and the assistant message), each canonical JSON signed with an
HMAC under a per-instance secret. A later turn verifies that every earlier item
came back byte-identical and fails otherwise, as a real provider rejects a
tampered signed block.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..config import EchoProviderConfig
from .base import (
    Capabilities,
    ModelRequest,
    NativeItems,
    ProviderFailure,
    TextDelta,
    TurnEvent,
    Usage,
    UsageReport,
    VisibleMessage,
)

__all__ = ["EchoProvider", "parse_directives"]


@dataclass(slots=True)
class Directives:
    sleep_ms: int = 0
    fail: bool = False
    recall: bool = False
    text: str = ""


def parse_directives(text: str) -> Directives:
    """Split leading directive lines from the text the model answers."""
    found = Directives()
    lines = text.split("\n")
    index = 0
    while index < len(lines) and _apply(found, lines[index].strip()):
        index += 1
    found.text = "\n".join(lines[index:])
    return found


def _apply(found: Directives, line: str) -> bool:
    name, _, argument = line.partition(" ")
    if name == "!sleep" and argument.strip().isdigit():
        found.sleep_ms += int(argument.strip())
    elif name == "!fail" and not argument:
        found.fail = True
    elif name == "!recall" and not argument:
        found.recall = True
    else:
        return False
    return True


def _words(text: str | None) -> int:
    return len(text.split()) if text else 0


@dataclass(slots=True)
class EchoProvider:
    id: str
    models: tuple[str, ...]
    account_id: str | None
    native_supported: bool = True
    latency_ms: int = 0
    kind: str = "echo"
    _secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    @classmethod
    def from_config(cls, config: EchoProviderConfig) -> EchoProvider:
        return cls(
            id=config.id,
            models=tuple(config.models),
            account_id=config.accountId,
            native_supported=config.settings.native,
            latency_ms=config.settings.latencyMs,
        )

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True,
            native_continuation=self.native_supported,
            streaming=False,
            application_functions=False,
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncIterator[TurnEvent]:
        directives = parse_directives(request.input)
        earlier = list(request.messages)
        if native:
            earlier += self._verified_messages(request.native or ())
        delay_ms = self.latency_ms + directives.sleep_ms
        if delay_ms:
            await asyncio.sleep(delay_ms / 1000)
        if directives.fail:
            raise ProviderFailure("injected failure (!fail)")
        reply = _recall(earlier) if directives.recall else f"echo: {directives.text}"
        yield TextDelta(reply)
        if native:
            yield NativeItems(self._turn_items(request.input, reply, len(earlier)))
        sent = _words(request.instructions) + sum(_words(m.content) for m in earlier) + _words(request.input)
        yield UsageReport(Usage(input_tokens=sent, output_tokens=_words(reply)))

    def _sign(self, body: dict[str, Any]) -> str:
        canonical = _canonical(body)
        signature = hmac.new(self._secret, canonical.encode("utf-8"), hashlib.sha256).hexdigest()
        return _canonical({**body, "signature": signature})

    def _turn_items(self, user_text: str, reply: str, earlier_count: int) -> tuple[str, ...]:
        return (
            self._sign({"type": "message", "role": "user", "content": user_text}),
            self._sign({"type": "reasoning", "summary": f"considered {earlier_count} earlier messages"}),
            self._sign({"type": "message", "role": "assistant", "content": reply}),
        )

    def _verified_messages(self, items: Sequence[str]) -> list[VisibleMessage]:
        messages = []
        for position, raw in enumerate(items):
            body = self._verify(raw, position)
            if body.get("type") == "message":
                messages.append(VisibleMessage(role=body["role"], content=body["content"]))
        return messages

    def _verify(self, raw: str, position: int) -> dict[str, Any]:
        try:
            body: dict[str, Any] = json.loads(raw)
            signature = body.pop("signature")
        except (ValueError, KeyError, AttributeError, TypeError):
            raise ProviderFailure(f"native item {position} is not an item this provider produced") from None
        if not isinstance(signature, str) or self._sign(body) != raw:
            raise ProviderFailure(f"native item {position} was modified: its signature does not verify")
        return body


def _canonical(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _recall(earlier: list[VisibleMessage]) -> str:
    last_user = next((m.content for m in reversed(earlier) if m.role == "user"), "(none)")
    return f"recall: {len(earlier)} messages; last user: {last_user}"
