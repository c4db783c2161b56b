"""Anthropic Messages API adapter: ``POST {baseUrl}/v1/messages``, native and history continuation.

Native continuation replays each assistant message exactly as received
(thinking blocks with their signature, redacted thinking, text, tool use),
append-only. Anthropic checks thinking signatures against the request prefix,
so the system prompt and tool definitions must be byte-identical on every turn
of a native session; the driver refuses a turn whose tools differ
(``SESSION_PREFIX_CHANGED``, see ``Capabilities.fixed_native_prefix``) before any
model work.
https://docs.anthropic.com/en/api/messages
https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks

Usage: ``input_tokens`` excludes ``cache_read_input_tokens`` and
``cache_creation_input_tokens``, so the host adds them; ``output_tokens``
includes thinking.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..config import AnthropicProviderConfig
from .base import (
    IMAGE_MEDIA_TYPES,
    PDF_MEDIA_TYPE,
    TEXT_MEDIA_TYPES,
    Capabilities,
    ModelRequest,
    NativeItems,
    ProviderFailure,
    TextDelta,
    ToolCall,
    TurnEvent,
    Usage,
    UsageReport,
)
from .history_filters import ALL_FILTERS, filter_anthropic
from .network import NetworkAdapter
from .upstream import ServerSentEvent, error_text, failure_for_status, retry_after_from_headers
from .wire import binary_attachments, dump_item, load_item, parse_arguments, user_text

__all__ = ["AnthropicProvider", "map_request", "process_response", "process_stream"]

PATH = "/v1/messages"
BINARY_MEDIA_TYPES = (*IMAGE_MEDIA_TYPES, PDF_MEDIA_TYPE)
"""Sent as base64 ``image`` blocks (JPEG, PNG, GIF, WebP) and ``document`` blocks (PDF), before the text.
https://docs.anthropic.com/en/docs/build-with-claude/vision https://docs.anthropic.com/en/docs/build-with-claude/pdf-support"""


@dataclass(slots=True)
class AnthropicProvider(NetworkAdapter[AnthropicProviderConfig, list[Any]]):
    kind: str = "anthropic"
    path: ClassVar[str] = PATH

    @staticmethod
    def _auth_headers(config: AnthropicProviderConfig, key: str | None) -> dict[str, str]:
        headers = {"anthropic-version": config.anthropicVersion}
        if key:
            headers["x-api-key"] = key
        return headers

    @staticmethod
    def _body_options(config: AnthropicProviderConfig) -> dict[str, Any]:
        options: dict[str, Any] = {"max_tokens": config.maxOutputTokens or 4096}
        if config.temperature is not None:
            options["temperature"] = config.temperature
        return {**options, **config.extraBody}

    @staticmethod
    def _classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
        return classify(status, headers, payload)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True,
            native_continuation=True,
            streaming=True,
            application_functions=True,
            native_filters=ALL_FILTERS,
            fixed_native_prefix=True,
            attachment_media_types=(*TEXT_MEDIA_TYPES, *BINARY_MEDIA_TYPES),
        )

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        """The turn's items as a ``mode`` native session keeps them (see ``history_filters``)."""
        return filter_anthropic(items, mode, max_chars)

    def _map_request(self, request: ModelRequest) -> tuple[dict[str, Any], list[Any]]:
        return map_request(request, self.options, stream=self.stream)

    def _process_response(self, data: Any, sent: list[Any]) -> list[TurnEvent]:
        return process_response(data, sent)

    def _process_stream(self, events: AsyncIterator[ServerSentEvent], sent: list[Any]) -> AsyncIterator[TurnEvent]:
        return process_stream(events, sent)


# -- wire mapping ---------------------------------------------------------------------


def map_request(request: ModelRequest, options: Mapping[str, Any], *, stream: bool) -> tuple[dict[str, Any], list[Any]]:
    """The request body, and the messages this step adds to the turn before the model's answer."""
    messages: list[Any] = [{"role": m.role, "content": m.content} for m in request.messages]
    messages += [load_item(raw) for raw in request.native or ()]
    turn = [load_item(raw) for raw in request.turn_items]
    added: list[Any] = []
    if not turn:
        added.append({"role": "user", "content": _user_content(request)})
    answered = sum(
        1
        for message in turn
        if message.get("role") == "user" and isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    )
    results = request.exchange[answered:]
    if results:  # every result of one round goes back in one user message, as the API requires
        added.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": e.call_id, "content": e.output} for e in results],
            }
        )
    body: dict[str, Any] = {"model": request.model, "messages": messages + turn + added, "stream": stream}
    if request.instructions:
        body["system"] = request.instructions
    if request.tools:
        body["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in request.tools
        ]
    body.update(options)
    return body, added


def _user_content(request: ModelRequest) -> list[Any]:
    """Attachments first, then the text: the order Anthropic recommends for images and documents."""
    content: list[Any] = []
    for name, media_type, data in binary_attachments(request, BINARY_MEDIA_TYPES):
        source = {"type": "base64", "media_type": media_type, "data": data}
        if media_type == PDF_MEDIA_TYPE:
            content.append({"type": "document", "source": source, **({"title": name} if name else {})})
        else:
            content.append({"type": "image", "source": source})
    content.append({"type": "text", "text": user_text(request, BINARY_MEDIA_TYPES)})
    return content


def _usage(usage: Mapping[str, Any]) -> Usage:
    cache_read = usage.get("cache_read_input_tokens") or 0
    cache_write = usage.get("cache_creation_input_tokens") or 0
    return Usage(
        input_tokens=(usage.get("input_tokens") or 0) + cache_read + cache_write,
        output_tokens=usage.get("output_tokens") or 0,
        cached_input_tokens=cache_read,
        cache_write_tokens=cache_write,
    )


def _finish(content: list[Any], added: list[Any], usage: Mapping[str, Any]) -> list[TurnEvent]:
    events: list[TurnEvent] = [
        ToolCall(block["id"], block["name"], block.get("input") or {})
        for block in content
        if block.get("type") == "tool_use"
    ]
    assistant = {"role": "assistant", "content": content}
    events.append(NativeItems(tuple(dump_item(item) for item in [*added, assistant])))
    events.append(UsageReport(_usage(usage)))
    return events


def process_response(data: Any, added: list[Any]) -> list[TurnEvent]:
    """A non-streamed message -> the step's events."""
    content = list(data.get("content") or ())
    text = "".join(block.get("text", "") for block in content if block.get("type") == "text")
    return ([TextDelta(text)] if text else []) + _finish(content, added, data.get("usage") or {})


async def process_stream(events: AsyncIterator[ServerSentEvent], added: list[Any]) -> AsyncIterator[TurnEvent]:
    """A streamed message -> the step's events; blocks are rebuilt exactly as the non-streamed API shows them.

    https://docs.anthropic.com/en/docs/build-with-claude/streaming
    """
    blocks: dict[int, dict[str, Any]] = {}
    tool_json: dict[int, list[str]] = {}
    usage: dict[str, Any] = {}
    async for event in events:
        data = event.json()
        kind = data.get("type", event.event)
        if kind == "message_start":
            usage.update(data["message"].get("usage") or {})
        elif kind == "content_block_start":
            blocks[data["index"]] = dict(data["content_block"])
            if data["content_block"].get("type") == "tool_use":
                tool_json[data["index"]] = []
        elif kind == "content_block_delta":
            text = _apply_delta(blocks[data["index"]], data["delta"], tool_json.get(data["index"]))
            if text:
                yield TextDelta(text)
        elif kind == "content_block_stop":
            parts = tool_json.get(data["index"])
            if parts:
                blocks[data["index"]]["input"] = parse_arguments("".join(parts))
        elif kind == "message_delta":
            usage.update({k: v for k, v in (data.get("usage") or {}).items() if v is not None})
        elif kind == "message_stop":
            for finished in _finish([blocks[i] for i in sorted(blocks)], added, usage):
                yield finished
            return
        elif kind == "error":
            raise _event_failure(data.get("error") or {})
    raise ProviderFailure("the stream ended before the message stopped")


def _apply_delta(block: dict[str, Any], delta: Mapping[str, Any], tool_json: list[str] | None) -> str:
    """Grow ``block`` by ``delta``; the visible text it added ('' for any other kind)."""
    kind = delta.get("type")
    if kind == "text_delta":
        block["text"] = block.get("text", "") + delta["text"]
        return str(delta["text"])
    if kind == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + delta["thinking"]
    elif kind == "signature_delta":
        block["signature"] = block.get("signature", "") + delta["signature"]
    elif kind == "input_json_delta" and tool_json is not None:
        tool_json.append(delta["partial_json"])
    elif kind == "citations_delta":  # a text block starts with ``"citations": null`` (or without the key)
        block["citations"] = [*(block.get("citations") or ()), delta["citation"]]
    return ""


# -- failures -------------------------------------------------------------------------

# https://docs.anthropic.com/en/api/errors
_TYPE_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 400,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}


def _event_failure(error: Mapping[str, Any]) -> ProviderFailure:
    """An ``error`` event inside a 200 stream."""
    kind = str(error.get("type") or "api_error")
    return failure_for_status(_TYPE_STATUS.get(kind, 500), kind, str(error.get("message") or ""))


def classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
    """Anthropic's error body: ``{"type": "error", "error": {"type", "message"}, "request_id"}``."""
    error = payload.get("error") if isinstance(payload, dict) else None
    kind = str(error.get("type") or "") if isinstance(error, dict) else ""
    return failure_for_status(
        status, kind, error_text(payload, ("error", "message")), retry_after=retry_after_from_headers(headers)
    )
