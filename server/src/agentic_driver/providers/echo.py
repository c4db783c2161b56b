"""The offline ``echo`` provider: deterministic, no network, the whole protocol.

Reply: ``echo: <input>`` (input without its directive lines). Usage: input
tokens are the whitespace-separated words of everything sent to the model
(instructions, earlier messages, input); output tokens are the reply's words.

Directive lines at the start of the input:

- ``!sleep MS``: model work starts, then waits MS milliseconds (cancellable)
  before each piece of the reply;
- ``!fail [KIND]``: model work starts, then the call fails like an upstream
  error: ``PROVIDER_ERROR``, or with KIND ``rate_limited``, ``overloaded``,
  ``auth`` or ``rejected`` the matching provider code; with ``!call`` or
  ``!tool`` the call is made first and the continuation fails;
- ``!failafter N``: the call fails like an upstream error after N deltas of the reply;
- ``!hangafter N``: after N deltas the call makes no further progress (until the
  run is cancelled, its client disconnects or its ``idleTimeoutMs`` passes);
- ``!garbage``: after the first delta the adapter emits a malformed event (as an
  adapter that let an unparsed upstream payload through would);
- ``!recall``: reply ``recall: <N> messages; last user: <text>``, where N counts
  the earlier visible messages the model received and ``<text>`` is the most
  recent earlier user message (``(none)`` if there is none); in native mode,
  ``; tool exchanges: <K>`` follows when earlier turns kept K tool exchanges;
- ``!chunks N``: stream the reply in N deltas;
- ``!call NAME JSON``: call the application function NAME with the JSON
  object as arguments; once answered the reply is ``echo: <input> | NAME -> <output>``;
- ``!tool NAME JSON``: the same for a host tool.

Native mode: every turn yields its items as canonical JSON: the user message,
a private reasoning item, any tool calls and their results, and the assistant
message. What the model produced (reasoning, calls, the reply) is signed with
an HMAC under the instance's secret (derived from its id and account binding
in host JSON, so a restarted host verifies what it signed before); what the application supplied (the user
message, tool results) is not, as with real providers. A later turn verifies
that every earlier item came back byte-identical and every signature holds,
and fails otherwise, as a real provider rejects a tampered signed block.

It supports every ``nativeHistory`` filter: ``no_reasoning`` drops reasoning
items whole, ``no_tool_results`` replaces each tool result's output with a
placeholder, ``compact_tool_results`` cuts it (a string or a list of text blocks).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from ..config import EchoProviderConfig
from ..jsontext import canonical_json
from .base import (
    IMAGE_MEDIA_TYPES,
    PDF_MEDIA_TYPE,
    TEXT_MEDIA_TYPES,
    AuthFailure,
    Capabilities,
    ModelRequest,
    NativeItems,
    OverloadedFailure,
    ProviderFailure,
    RateLimitedFailure,
    RejectedFailure,
    TextDelta,
    ToolCall,
    TurnEvent,
    Usage,
    UsageReport,
    VisibleMessage,
)
from .history_filters import TOOL_RESULT_PLACEHOLDER, compact_content

__all__ = ["EchoProvider", "parse_directives"]


@dataclass(slots=True)
class Directives:
    sleep_ms: int = 0
    fail: bool = False
    fail_kind: str = "error"
    """The failure to inject: ``error``, ``rate_limited``, ``overloaded``, ``auth`` or ``rejected``."""
    recall: bool = False
    chunks: int = 1
    fail_after: int | None = None
    hang_after: int | None = None
    garbage: bool = False
    call: tuple[str, dict[str, Any]] | None = None
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
    argument = argument.strip()
    if name == "!sleep" and argument.isdigit():
        found.sleep_ms += int(argument)
    elif name == "!fail" and (argument or "error") in FAILURES:
        found.fail = True
        found.fail_kind = argument or "error"
    elif name == "!failafter" and argument.isdigit():
        found.fail_after = int(argument)
    elif name == "!hangafter" and argument.isdigit():
        found.hang_after = int(argument)
    elif name == "!garbage" and not argument:
        found.garbage = True
    elif name == "!recall" and not argument:
        found.recall = True
    elif name == "!chunks" and argument.isdigit() and int(argument) > 0:
        found.chunks = min(int(argument), 10_000)
    elif name in ("!call", "!tool") and found.call is None:
        found.call = _call_directive(argument)
        return found.call is not None
    else:
        return False
    return True


def _call_directive(argument: str) -> tuple[str, dict[str, Any]] | None:
    tool, _, raw = argument.partition(" ")
    try:
        arguments = json.loads(raw) if raw.strip() else {}
    except ValueError:
        return None
    return (tool, arguments) if tool and isinstance(arguments, dict) else None


def _words(text: str | None) -> int:
    return len(text.split()) if text else 0


def signing_secret(config: EchoProviderConfig) -> bytes:
    """The configured instance's signing secret, derived from its id and account: a real provider's signed
    blocks are bound to the account, not to one process, so they verify after a restart (``snapshot.py``)."""
    bound = canonical_json(["agentic-driver echo signing", config.id, config.accountId])
    return hashlib.sha256(bound.encode("utf-8")).digest()


@dataclass(slots=True)
class EchoProvider:
    id: str
    models: tuple[str, ...]
    account_id: str | None
    native_supported: bool = True
    latency_ms: int = 0
    fixed_native_prefix: bool = False
    kind: str = "echo"
    _secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    telemetry_name: ClassVar[str] = "agentic_driver.echo"
    """``gen_ai.provider.name`` on traces."""

    @classmethod
    def from_config(
        cls,
        config: EchoProviderConfig,
        where: str = "provider",
        env: Mapping[str, str] = os.environ,
        *,
        max_connections: int = 64,
    ) -> EchoProvider:
        """The instance for one configured echo provider (``providers.ADAPTERS`` builds every kind with the
        same arguments; echo needs only its config)."""
        return cls(
            id=config.id,
            models=tuple(config.models),
            account_id=config.accountId,
            native_supported=config.settings.native,
            latency_ms=config.settings.latencyMs,
            fixed_native_prefix=config.settings.fixedNativePrefix,
            _secret=signing_secret(config),
        )

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True,
            native_continuation=self.native_supported,
            streaming=True,
            application_functions=True,
            native_filters=("full", "no_reasoning", "no_tool_results", "compact_tool_results")
            if self.native_supported
            else ("full",),
            fixed_native_prefix=self.fixed_native_prefix,
            attachment_media_types=(*TEXT_MEDIA_TYPES, *IMAGE_MEDIA_TYPES, PDF_MEDIA_TYPE),
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        directives = parse_directives(request.input)
        earlier: Sequence[VisibleMessage] = request.messages  # read, never copied, in history mode
        kept_exchanges = 0
        if native:
            verified = self._verified_items(request.native or ())
            earlier = [*earlier, *(VisibleMessage(b["role"], b["content"]) for b in verified if b["type"] == "message")]
            kept_exchanges = sum(1 for b in verified if b["type"] == "function_call_output")
        sent = (
            _words(request.instructions)
            + sum(_words(m.content) for m in earlier)
            + _words(request.input)
            + sum(_words(e.output) for e in request.exchange)
        )
        await self._pause(self.latency_ms)
        if directives.fail and (directives.call is None or request.exchange):
            await self._pause(directives.sleep_ms)
            failure = FAILURES[directives.fail_kind]
            raise failure(f"injected failure (!fail {directives.fail_kind})", retry_after_seconds=1)
        if directives.call is not None and not request.exchange:
            await self._pause(directives.sleep_ms)
            yield self._tool_call(request, *directives.call)
            yield UsageReport(Usage(input_tokens=sent, output_tokens=0), model=request.model)
            return
        reply = _recall(earlier, kept_exchanges) if directives.recall else f"echo: {directives.text}"
        reply += "".join(f" | {e.name} -> {e.output}" for e in request.exchange)
        pieces = _split(reply, directives.chunks)
        fail_at, hang_at = (
            None if n is None else min(n, len(pieces)) for n in (directives.fail_after, directives.hang_after)
        )
        for index, piece in enumerate([*pieces, None]):
            if index == fail_at:
                raise ProviderFailure(f"injected failure after {index} deltas (!failafter)")
            if index == hang_at:
                await asyncio.Event().wait()  # no progress, ever; only cancellation ends it
            if directives.garbage and index == min(1, len(pieces)):
                yield cast(TurnEvent, {"type": "delta", "text": None})  # an unparsed upstream payload
            if piece is None:
                break
            await self._pause(directives.sleep_ms)
            yield TextDelta(piece)
        if native:
            yield NativeItems(self._turn_items(request, reply, len(earlier)))
        yield UsageReport(Usage(input_tokens=sent, output_tokens=_words(reply)), model=request.model)

    async def _pause(self, ms: int) -> None:
        if ms:
            await asyncio.sleep(ms / 1000)

    def _tool_call(self, request: ModelRequest, name: str, arguments: dict[str, Any]) -> ToolCall:
        if name not in {tool.name for tool in request.tools}:
            raise ProviderFailure(f"the model called {name!r}, which the run does not offer")
        digest = hashlib.sha256(canonical_json({"input": request.input, "name": name}).encode("utf-8")).hexdigest()
        return ToolCall(call_id=f"call_{digest[:16]}", name=name, arguments=arguments)

    def _sign(self, body: dict[str, Any]) -> str:
        canonical = canonical_json(body)
        signature = hmac.new(self._secret, canonical.encode("utf-8"), hashlib.sha256).hexdigest()
        return canonical_json({**body, "signature": signature})

    def _turn_items(self, request: ModelRequest, reply: str, earlier_count: int) -> tuple[str, ...]:
        items = [
            canonical_json({"type": "message", "role": "user", "content": request.input}),
            self._sign({"type": "reasoning", "summary": f"considered {earlier_count} earlier messages"}),
        ]
        for exchange in request.exchange:
            call = {"type": "function_call", "call_id": exchange.call_id, "name": exchange.name}
            items.append(self._sign({**call, "arguments": exchange.arguments}))
            items.append(
                canonical_json({"type": "function_call_output", "call_id": exchange.call_id, "output": exchange.output})
            )
        items.append(self._sign({"type": "message", "role": "assistant", "content": reply}))
        return tuple(items)

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        """The turn's items as a ``mode`` session keeps them (signed items are kept whole or dropped whole)."""
        kept = []
        for raw in items:
            body = json.loads(raw)
            if mode == "no_reasoning" and body.get("type") == "reasoning":
                continue
            if mode in ("no_tool_results", "compact_tool_results") and body.get("type") == "function_call_output":
                output = (
                    TOOL_RESULT_PLACEHOLDER if mode == "no_tool_results" else compact_content(body["output"], max_chars)
                )
                raw = canonical_json({**body, "output": output})
            kept.append(raw)
        return tuple(kept)

    def _verified_items(self, items: Sequence[str]) -> list[dict[str, Any]]:
        return [self._verify(raw, position) for position, raw in enumerate(items)]

    def _verify(self, raw: str, position: int) -> dict[str, Any]:
        try:
            body: dict[str, Any] = json.loads(raw)
            kind = body["type"]
        except (ValueError, KeyError, TypeError):
            raise ProviderFailure(f"native item {position} is not an item this provider produced") from None
        if kind in SUPPLIED_TYPES and body.get("role", "user") == "user" and "signature" not in body:
            if not _supplied_shape(body):
                raise ProviderFailure(f"native item {position} is not an item this provider produced")
            if canonical_json(body) != raw:
                raise ProviderFailure(f"native item {position} was modified: it is not byte-identical")
            return body
        signature = body.pop("signature", None)
        if not isinstance(signature, str) or self._sign(body) != raw:
            raise ProviderFailure(f"native item {position} was modified: its signature does not verify")
        return body


SUPPLIED_TYPES = ("message", "function_call_output")
"""Item types the application supplies (user messages, tool results): replayed byte-identical, not signed."""


def _supplied_shape(body: dict[str, Any]) -> bool:
    if body["type"] == "message":
        return isinstance(body.get("content"), str) and body.get("role") == "user"
    return isinstance(body.get("call_id"), str) and "output" in body


FAILURES: dict[str, type[ProviderFailure]] = {
    "error": ProviderFailure,
    "rate_limited": RateLimitedFailure,
    "overloaded": OverloadedFailure,
    "auth": AuthFailure,
    "rejected": RejectedFailure,
}
"""What ``!fail KIND`` raises, so every provider code is reachable without a network."""


def _recall(earlier: Sequence[VisibleMessage], kept_exchanges: int) -> str:
    last_user = next((m.content for m in reversed(earlier) if m.role == "user"), "(none)")
    text = f"recall: {len(earlier)} messages; last user: {last_user}"
    return text + (f"; tool exchanges: {kept_exchanges}" if kept_exchanges else "")


def _split(text: str, pieces: int) -> list[str]:
    """``text`` in ``pieces`` near-equal parts (fewer when the text is shorter)."""
    pieces = max(1, min(pieces, len(text)))
    size, extra = divmod(len(text), pieces)
    parts, start = [], 0
    for index in range(pieces):
        end = start + size + (1 if index < extra else 0)
        parts.append(text[start:end])
        start = end
    return parts
