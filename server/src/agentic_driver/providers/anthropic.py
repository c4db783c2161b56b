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

The adapter is ``WIRE`` (at the end): these functions, declared as data for ``network.NetworkAdapter``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, NotRequired

from typing_extensions import TypedDict

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
from .history_filters import ALL_FILTERS, apply_filter, result_content
from .network import NetworkAdapter, WireMapping
from .upstream import ServerSentEvent, error_text, failure_for_status, retry_after_from_headers
from .wire import Shape, Tagged, binary_attachments, dump_item, load_item, parse_arguments, user_text

__all__ = [
    "WIRE",
    "AnthropicProvider",
    "classify",
    "filter_native",
    "map_request",
    "process_response",
    "process_stream",
]

PATH = "/v1/messages"
BINARY_MEDIA_TYPES = (*IMAGE_MEDIA_TYPES, PDF_MEDIA_TYPE)
"""Sent as base64 ``image`` blocks (JPEG, PNG, GIF, WebP) and ``document`` blocks (PDF), before the text.
https://docs.anthropic.com/en/docs/build-with-claude/vision https://docs.anthropic.com/en/docs/build-with-claude/pdf-support"""


# -- configuration --------------------------------------------------------------------


def auth_headers(config: AnthropicProviderConfig, key: str | None) -> dict[str, str]:
    headers = {"anthropic-version": config.anthropicVersion}
    if key:
        headers["x-api-key"] = key
    return headers


def body_options(config: AnthropicProviderConfig) -> dict[str, Any]:
    options: dict[str, Any] = {"max_tokens": config.maxOutputTokens or 4096}
    if config.temperature is not None:
        options["temperature"] = config.temperature
    return {**options, **config.extraBody}


def capabilities(config: AnthropicProviderConfig) -> Capabilities:
    return Capabilities(
        history_continuation=True,
        native_continuation=True,
        streaming=True,
        application_functions=True,
        native_filters=ALL_FILTERS,
        fixed_native_prefix=True,
        attachment_media_types=(*TEXT_MEDIA_TYPES, *BINARY_MEDIA_TYPES),
    )


# -- wire mapping ---------------------------------------------------------------------


def map_request(request: ModelRequest, options: Mapping[str, Any], stream: bool) -> tuple[dict[str, Any], list[Any]]:
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


# -- what the adapter reads of an answer (https://docs.anthropic.com/en/api/messages) ---------------


class _Usage(TypedDict):
    input_tokens: NotRequired[int | None]
    output_tokens: NotRequired[int | None]
    cache_read_input_tokens: NotRequired[int | None]
    cache_creation_input_tokens: NotRequired[int | None]


class _Block(TypedDict):
    type: str


class _TextBlock(TypedDict):
    type: str
    text: str


class _ThinkingBlock(TypedDict):
    type: str
    thinking: NotRequired[str]
    signature: NotRequired[str]


class _ToolUseBlock(TypedDict):
    type: str
    id: str
    name: str
    input: dict[str, Any]


class _Message(TypedDict):
    content: list[_Block]
    usage: NotRequired[_Usage | None]


class _StartedMessage(TypedDict):  # message_start's: its content is still empty, its usage is what counts
    usage: NotRequired[_Usage | None]


class _MessageStart(TypedDict):
    message: _StartedMessage


class _BlockStart(TypedDict):
    index: int
    content_block: _Block


class _Delta(TypedDict):
    type: str
    text: NotRequired[str]
    thinking: NotRequired[str]
    signature: NotRequired[str]
    partial_json: NotRequired[str]
    citation: NotRequired[dict[str, Any]]


class _BlockDelta(TypedDict):
    index: int
    delta: _Delta


class _BlockStop(TypedDict):
    index: int


class _MessageDelta(TypedDict):
    usage: NotRequired[_Usage | None]


MESSAGE = Shape(_Message, "message")
BLOCK = Tagged(
    "content block",
    {
        "text": Shape(_TextBlock, "text block"),
        "thinking": Shape(_ThinkingBlock, "thinking block"),
        "tool_use": Shape(_ToolUseBlock, "tool_use block"),
    },
)
"""The content blocks the adapter reads into (every other kind is kept as it came)."""
EVENT = Tagged(
    "stream event",
    {
        "message_start": Shape(_MessageStart, "message_start event"),
        "content_block_start": Shape(_BlockStart, "content_block_start event"),
        "content_block_delta": Shape(_BlockDelta, "content_block_delta event"),
        "content_block_stop": Shape(_BlockStop, "content_block_stop event"),
        "message_delta": Shape(_MessageDelta, "message_delta event"),
    },
)
DELTA_MEMBER = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
    "input_json_delta": "partial_json",
    "citations_delta": "citation",
}
"""Each delta kind the adapter applies, and the member it must carry."""


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
    message = MESSAGE.of(data)
    content = BLOCK.each(list(message["content"]), "content")
    text = "".join(block["text"] for block in content if block["type"] == "text")
    return ([TextDelta(text)] if text else []) + _finish(content, added, message.get("usage") or {})


async def process_stream(events: AsyncIterator[ServerSentEvent], added: list[Any]) -> AsyncIterator[TurnEvent]:
    """A streamed message -> the step's events; blocks are rebuilt exactly as the non-streamed API shows them.

    https://docs.anthropic.com/en/docs/build-with-claude/streaming
    """
    blocks: dict[int, dict[str, Any]] = {}
    tool_json: dict[int, list[str]] = {}
    usage: dict[str, Any] | None = None  # set by message_start: a stream must begin with one
    async for event in events:
        data = event.json()
        kind = EVENT.of(data)
        if kind == "message_start":
            usage = dict(data["message"].get("usage") or {})
        elif kind == "error":
            raise _event_failure(data.get("error"))
        elif kind not in EVENT and kind != "message_stop":
            continue  # ping, and kinds added later
        elif usage is None:
            raise ProviderFailure(f"the stream sent {kind} before message_start")
        elif kind == "content_block_start":  # checked as it starts, for the deltas that grow it
            block = blocks[data["index"]] = dict(data["content_block"])
            BLOCK.of(block, f"content[{data['index']}]")
            if data["content_block"]["type"] == "tool_use":
                tool_json[data["index"]] = []
        elif kind == "content_block_delta":
            text = _apply_delta(_started(blocks, data["index"]), data["delta"], tool_json.get(data["index"]))
            if text:
                yield TextDelta(text)
        elif kind == "content_block_stop":
            parts = tool_json.get(data["index"])
            if parts:
                _started(blocks, data["index"])["input"] = parse_arguments("".join(parts))
        elif kind == "message_delta":
            usage.update({k: v for k, v in (data.get("usage") or {}).items() if v is not None})
        else:  # message_stop
            for finished in _finish(BLOCK.each([blocks[i] for i in sorted(blocks)], "content"), added, usage):
                yield finished
            return
    raise ProviderFailure("the stream ended before the message stopped")


def _started(blocks: dict[int, dict[str, Any]], index: int) -> dict[str, Any]:
    block = blocks.get(index)
    if block is None:
        raise ProviderFailure(f"the stream continued content block {index}, which it never started")
    return block


def _apply_delta(block: dict[str, Any], delta: Mapping[str, Any], tool_json: list[str] | None) -> str:
    """Grow ``block`` by ``delta``; the visible text it added ('' for any other kind)."""
    kind = delta["type"]
    member = DELTA_MEMBER.get(kind)
    if member is not None and member not in delta:
        raise ProviderFailure(f"the stream's {kind} has no {member}")
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
OVERLOADED = 529
"""Anthropic's own status for an overloaded API: its 503 (``PROVIDER_OVERLOADED``, retried)."""
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
    "overloaded_error": OVERLOADED,
}


def _event_failure(error: Any) -> ProviderFailure:
    """An ``error`` event inside a 200 stream."""
    error = error if isinstance(error, dict) else {}
    kind = str(error.get("type") or "api_error")
    status = _TYPE_STATUS.get(kind, 500)
    return failure_for_status(status, kind, str(error.get("message") or ""), overloaded=status == OVERLOADED)


def classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
    """Anthropic's error body: ``{"type": "error", "error": {"type", "message"}, "request_id"}``."""
    error = payload.get("error") if isinstance(payload, dict) else None
    kind = str(error.get("type") or "") if isinstance(error, dict) else ""
    message = error_text(payload, ("error", "message"))
    retry_after = retry_after_from_headers(headers)
    return failure_for_status(status, kind, message, retry_after=retry_after, overloaded=status == OVERLOADED)


# -- native history filters (see ``history_filters``): user and assistant messages of content blocks ---

THINKING_BLOCKS = ("thinking", "redacted_thinking")


def filter_native(items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
    """The turn's messages as a ``mode`` native session keeps them: thinking blocks dropped whole, or
    ``tool_result`` contents replaced or cut."""

    def one(message: Any) -> Any:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            return message
        if mode == "no_reasoning" and message.get("role") == "assistant":
            kept = [b for b in content if not (isinstance(b, dict) and b.get("type") in THINKING_BLOCKS)]
            return {**message, "content": kept} if kept else None
        if mode in ("no_tool_results", "compact_tool_results") and message.get("role") == "user":
            return {**message, "content": [_filtered_result(b, mode, max_chars) for b in content]}
        return message

    return apply_filter(items, mode, _open_round, one)


def _filtered_result(block: Any, mode: str, max_chars: int) -> Any:
    if not (isinstance(block, dict) and block.get("type") == "tool_result"):
        return block
    return {**block, "content": result_content(block.get("content", ""), mode, max_chars)}


def _has_block(message: Any, kind: str) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == kind for b in content)


def _open_round(messages: list[Any]) -> int:
    if not messages or not (_has_block(messages[-1], "tool_use") or _has_block(messages[-1], "tool_result")):
        return len(messages)
    return max(i for i, m in enumerate(messages) if m.get("role") == "assistant" and _has_block(m, "tool_use"))


# -- the adapter ------------------------------------------------------------------------


class AnthropicProvider(NetworkAdapter[AnthropicProviderConfig, list[Any]]):
    """An ``anthropic`` instance: ``NetworkAdapter`` running ``WIRE``. The class adds nothing; it names
    the instances (``isinstance``, ``providers.AnthropicProvider``)."""

    __slots__ = ()


WIRE: WireMapping[AnthropicProviderConfig, list[Any]] = WireMapping(
    kind="anthropic",
    telemetry_name="anthropic",
    path=PATH,
    auth_headers=auth_headers,
    body_options=body_options,
    capabilities=capabilities,
    classify=classify,
    map_request=map_request,
    process_response=process_response,
    process_stream=process_stream,
    filter_native=filter_native,
    adapter=AnthropicProvider,
)
"""The Anthropic Messages adapter, as data (``providers.ADAPTERS["anthropic"]`` builds it)."""
