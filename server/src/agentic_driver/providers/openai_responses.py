"""OpenAI Responses API adapter: ``POST {baseUrl}/v1/responses``, native and history continuation.

Every call is stateless on OpenAI's side (``store: false``) and asks for
``reasoning.encrypted_content``, so reasoning survives between calls only in the
host. Native continuation replays every earlier item in order, unmodified
(reasoning items with ``summary`` and ``encrypted_content``, assistant messages,
function calls and their outputs), dropping only item ids, and sends
``instructions`` on every call.
https://platform.openai.com/docs/api-reference/responses/create
https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items

Usage: ``input_tokens`` already includes ``cached_tokens`` and
``cache_write_tokens`` (both in ``input_tokens_details``) and ``output_tokens``
already includes ``reasoning_tokens``, which is the host's normal form.

The adapter is ``WIRE`` (at the end): these functions, declared as data for ``network.NetworkAdapter``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, NotRequired

from typing_extensions import TypedDict

from ..config import OpenAIResponsesProviderConfig
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
from .wire import Shape, Tagged, binary_attachments, data_url, dump_item, load_item, parse_arguments, user_text

__all__ = [
    "WIRE",
    "OpenAIResponsesProvider",
    "classify",
    "filter_native",
    "map_request",
    "process_response",
    "process_stream",
]

PATH = "/v1/responses"
BINARY_MEDIA_TYPES = (*IMAGE_MEDIA_TYPES, PDF_MEDIA_TYPE)
"""Sent as ``input_image`` (PNG, JPEG, WebP, non-animated GIF) and ``input_file`` (PDF) data URLs.
https://platform.openai.com/docs/guides/images-vision https://platform.openai.com/docs/guides/pdf-files"""


# -- configuration --------------------------------------------------------------------


def auth_headers(config: OpenAIResponsesProviderConfig, key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


def body_options(config: OpenAIResponsesProviderConfig) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if config.maxOutputTokens is not None:
        options["max_output_tokens"] = config.maxOutputTokens
    if config.temperature is not None:
        options["temperature"] = config.temperature
    return {**options, **config.extraBody}


def capabilities(config: OpenAIResponsesProviderConfig) -> Capabilities:
    return Capabilities(
        history_continuation=True,
        native_continuation=True,
        streaming=True,
        application_functions=True,
        native_filters=ALL_FILTERS,
        attachment_media_types=(*TEXT_MEDIA_TYPES, *BINARY_MEDIA_TYPES),
    )


# -- wire mapping ---------------------------------------------------------------------


def map_request(request: ModelRequest, options: Mapping[str, Any], stream: bool) -> tuple[dict[str, Any], list[Any]]:
    """The request body, and the items this step adds to the turn before the model's output."""
    items: list[Any] = [{"role": m.role, "content": m.content} for m in request.messages]
    items += [_replayed(load_item(raw)) for raw in request.native or ()]
    turn = [load_item(raw) for raw in request.turn_items]
    added: list[Any] = []
    if not turn:
        added.append({"type": "message", "role": "user", "content": _user_content(request)})
    answered = sum(1 for item in turn if item.get("type") == "function_call_output")
    added += [
        {"type": "function_call_output", "call_id": e.call_id, "output": e.output} for e in request.exchange[answered:]
    ]
    body: dict[str, Any] = {
        "model": request.model,
        "input": items + [_replayed(item) for item in turn] + added,
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "stream": stream,
    }
    if request.instructions:
        body["instructions"] = request.instructions
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "name": t.name,
                "description": t.description,
                "parameters": t.parameters,
                "strict": False,
            }
            for t in request.tools
        ]
    body.update(options)
    return body, added


def _user_content(request: ModelRequest) -> list[Any]:
    content: list[Any] = [{"type": "input_text", "text": user_text(request, BINARY_MEDIA_TYPES)}]
    for name, media_type, data in binary_attachments(request, BINARY_MEDIA_TYPES):
        if media_type == PDF_MEDIA_TYPE:
            file = {"type": "input_file", "filename": name or "document.pdf", "file_data": data_url(media_type, data)}
            content.append(file)  # OpenAI requires a file name
        else:
            content.append({"type": "input_image", "image_url": data_url(media_type, data), "detail": "auto"})
    return content


def _replayed(item: Any) -> Any:
    """An earlier item as it goes back: unmodified but for its id (``store: false`` keeps no ids)."""
    return {k: v for k, v in item.items() if k != "id"} if isinstance(item, dict) else item


# -- what the adapter reads of an answer (https://platform.openai.com/docs/api-reference/responses) ----


class _InputDetails(TypedDict):
    cached_tokens: NotRequired[int | None]
    cache_write_tokens: NotRequired[int | None]


class _OutputDetails(TypedDict):
    reasoning_tokens: NotRequired[int | None]


class _Usage(TypedDict):
    input_tokens: NotRequired[int | None]
    output_tokens: NotRequired[int | None]
    input_tokens_details: NotRequired[_InputDetails | None]
    output_tokens_details: NotRequired[_OutputDetails | None]


class _Item(TypedDict):
    type: str


class _FunctionCall(TypedDict):
    type: str
    call_id: str
    name: str
    arguments: NotRequired[str | None]


class _Part(TypedDict):
    type: str
    text: NotRequired[str]


class _MessageItem(TypedDict):
    type: str
    content: NotRequired[list[_Part] | None]


class _Response(TypedDict):
    output: list[_Item]
    status: NotRequired[str | None]
    usage: NotRequired[_Usage | None]


class _StreamedResponse(TypedDict):  # in response.completed: output may be left to the output_item.done events
    output: NotRequired[list[_Item] | None]
    usage: NotRequired[_Usage | None]


class _TextDelta(TypedDict):
    delta: str


class _ItemDone(TypedDict):
    item: _Item
    output_index: NotRequired[int]


class _Completed(TypedDict):
    response: _StreamedResponse


class _Failed(TypedDict):
    response: dict[str, Any]


RESPONSE = Shape(_Response, "response")
ITEM = Tagged(
    "output item",
    {"function_call": Shape(_FunctionCall, "function_call item"), "message": Shape(_MessageItem, "message item")},
)
"""The output items the adapter reads into (every other kind is kept as it came)."""
EVENT = Tagged(
    "stream event",
    {
        "response.output_text.delta": Shape(_TextDelta, "response.output_text.delta event"),
        "response.output_item.done": Shape(_ItemDone, "response.output_item.done event"),
        "response.completed": Shape(_Completed, "response.completed event"),
        "response.incomplete": Shape(_Completed, "response.incomplete event"),
        "response.failed": Shape(_Failed, "response.failed event"),
    },
)


def _usage(usage: _Usage | None) -> Usage:
    if usage is None:
        return Usage()
    input_details = usage.get("input_tokens_details") or {}
    return Usage(
        input_tokens=usage.get("input_tokens") or 0,
        output_tokens=usage.get("output_tokens") or 0,
        cached_input_tokens=input_details.get("cached_tokens") or 0,
        cache_write_tokens=input_details.get("cache_write_tokens") or 0,
        reasoning_tokens=(usage.get("output_tokens_details") or {}).get("reasoning_tokens") or 0,
    )


def _finish(output: list[Any], added: list[Any], usage: _Usage | None) -> list[TurnEvent]:
    events: list[TurnEvent] = [
        ToolCall(item["call_id"], item["name"], parse_arguments(item.get("arguments")))
        for item in output
        if item.get("type") == "function_call"
    ]
    events.append(NativeItems(tuple(dump_item(item) for item in [*added, *output])))
    events.append(UsageReport(_usage(usage)))
    return events


def _text(output: list[Any]) -> str:
    return "".join(
        part.get("text", "")
        for item in output
        if item["type"] == "message"
        for part in item.get("content") or ()
        if part["type"] == "output_text"
    )


def process_response(data: Any, added: list[Any]) -> list[TurnEvent]:
    """A non-streamed response -> the step's events."""
    if isinstance(data, dict) and data.get("status") == "failed":
        raise _event_failure(data.get("error"))
    response = RESPONSE.of(data)
    output = ITEM.each(list(response["output"]), "output")
    text = _text(output)
    return ([TextDelta(text)] if text else []) + _finish(output, added, response.get("usage"))


async def process_stream(events: AsyncIterator[ServerSentEvent], added: list[Any]) -> AsyncIterator[TurnEvent]:
    """A streamed response -> the step's events, text as it arrives.

    https://platform.openai.com/docs/api-reference/responses-streaming
    """
    done: dict[int, Any] = {}
    async for event in events:
        data = event.json()
        kind = EVENT.of(data)
        if kind == "response.output_text.delta":
            yield TextDelta(data["delta"])
        elif kind == "response.output_item.done":
            done[data.get("output_index", len(done))] = data["item"]
        elif kind in ("response.completed", "response.incomplete"):
            response = data["response"]
            output = [done[index] for index in sorted(done)] or list(response.get("output") or ())
            for finished in _finish(ITEM.each(output, "output"), added, response.get("usage")):
                yield finished
            return
        elif kind == "response.failed":
            raise _event_failure(data["response"].get("error"))
        elif kind == "error":
            raise _event_failure(data)
    raise ProviderFailure("the stream ended before the response completed")


# -- failures -------------------------------------------------------------------------

_CODE_STATUS = {
    "rate_limit_exceeded": 429,
    "insufficient_quota": 429,
    "server_is_overloaded": 503,
    "overloaded": 503,
    "slow_down": 503,
    "invalid_api_key": 401,
    "server_error": 500,
}


def _event_failure(error: Any) -> ProviderFailure:
    """An error reported inside a 200 answer (``error`` event, ``response.failed``)."""
    error = error if isinstance(error, dict) else {}
    code = str(error.get("code") or error.get("type") or "")
    status = _CODE_STATUS.get(code, 400 if code.startswith("invalid") else 500)
    return failure_for_status(status, code, str(error.get("message") or ""), quota=code == "insufficient_quota")


def classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
    """OpenAI's error body: ``{"error": {"message", "type", "param", "code"}}``."""
    error = payload.get("error") if isinstance(payload, dict) else None
    error = error if isinstance(error, dict) else {}
    code = str(error.get("code") or error.get("type") or "")
    message = error_text(payload, ("error", "message"))
    return failure_for_status(
        status,
        code,
        message,
        retry_after=retry_after_from_headers(headers),
        quota=code == "insufficient_quota",
    )


# -- native history filters (see ``history_filters``): a flat list of items -------------------------


def filter_native(items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
    """The turn's items as a ``mode`` native session keeps them: ``reasoning`` items dropped whole, or
    ``function_call_output`` outputs replaced or cut."""

    def one(item: Any) -> Any:
        kind = item.get("type") if isinstance(item, dict) else None
        if mode == "no_reasoning" and kind == "reasoning":
            return None
        if mode in ("no_tool_results", "compact_tool_results") and kind == "function_call_output":
            return {**item, "output": result_content(item.get("output"), mode, max_chars)}
        return item

    return apply_filter(items, mode, _open_round, one)


def _open_round(items: list[Any]) -> int:
    """Where a trailing tool round starts: the model output (reasoning, calls) that made the last calls."""
    kinds = [item.get("type") if isinstance(item, dict) else None for item in items]
    if not kinds or kinds[-1] not in ("function_call", "function_call_output"):
        return len(items)
    index = max(i for i, kind in enumerate(kinds) if kind == "function_call")
    while index > 0 and kinds[index - 1] in ("reasoning", "function_call"):
        index -= 1
    return index


# -- the adapter ------------------------------------------------------------------------


class OpenAIResponsesProvider(NetworkAdapter[OpenAIResponsesProviderConfig, list[Any]]):
    """An ``openai-responses`` instance: ``NetworkAdapter`` running ``WIRE``. The class adds nothing; it
    names the instances (``isinstance``, ``providers.OpenAIResponsesProvider``)."""

    __slots__ = ()


WIRE: WireMapping[OpenAIResponsesProviderConfig, list[Any]] = WireMapping(
    kind="openai-responses",
    telemetry_name="openai",
    path=PATH,
    auth_headers=auth_headers,
    body_options=body_options,
    capabilities=capabilities,
    classify=classify,
    map_request=map_request,
    process_response=process_response,
    process_stream=process_stream,
    filter_native=filter_native,
    adapter=OpenAIResponsesProvider,
)
"""The OpenAI Responses adapter, as data (``providers.ADAPTERS["openai-responses"]`` builds it)."""
