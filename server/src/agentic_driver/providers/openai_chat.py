"""OpenAI-compatible chat completions adapter: ``POST {baseUrl}/chat/completions``, history only.

One wire format that OpenAI, xAI, Ollama (``http://127.0.0.1:11434/v1``), vLLM
(``http://127.0.0.1:8000/v1``) and llama.cpp's servers all speak. Chat
completions carry no provider state worth keeping between turns, so this
adapter does history continuation only, and a native session on it is
``UNSUPPORTED_CONTINUATION``. Within one turn, the assistant's tool-call
message and the tool results still go back to the model on the next step.
https://platform.openai.com/docs/api-reference/chat/create

Usage: ``prompt_tokens`` includes ``cached_tokens``; ``completion_tokens``
includes ``reasoning_tokens``.

The adapter is ``WIRE`` (at the end): these functions, declared as data for ``network.NetworkAdapter``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any, NotRequired

from typing_extensions import TypedDict

from ..config import OpenAIChatProviderConfig
from .base import (
    IMAGE_MEDIA_TYPES,
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
from .network import NetworkAdapter, WireMapping
from .upstream import ServerSentEvent, error_text, failure_for_status, retry_after_from_headers
from .wire import Shape, binary_attachments, data_url, dump_item, load_item, parse_arguments, user_text

__all__ = ["WIRE", "OpenAIChatProvider", "classify", "map_request", "process_response", "process_stream"]

PATH = "/chat/completions"
BINARY_MEDIA_TYPES = IMAGE_MEDIA_TYPES
"""Images go as ``image_url`` data URLs (what OpenAI, vLLM, Ollama and llama.cpp's multimodal servers
take); PDFs are refused, since only OpenAI itself takes a ``file`` part.
https://platform.openai.com/docs/guides/images-vision?api-mode=chat"""


# -- configuration --------------------------------------------------------------------


def auth_headers(config: OpenAIChatProviderConfig, key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


def body_options(config: OpenAIChatProviderConfig) -> dict[str, Any]:
    """``stream_options`` too: a streamed instance asks for usage unless its server rejects it (``streamUsage``)."""
    options: dict[str, Any] = (
        {"stream_options": {"include_usage": True}} if config.stream and config.streamUsage else {}
    )
    if config.maxOutputTokens is not None:
        options[config.maxOutputTokensField] = config.maxOutputTokens
    if config.temperature is not None:
        options["temperature"] = config.temperature
    return {**options, **config.extraBody}


def capabilities(config: OpenAIChatProviderConfig) -> Capabilities:
    return Capabilities(
        history_continuation=True,
        native_continuation=False,
        streaming=True,
        application_functions=config.functions,
        attachment_media_types=(*TEXT_MEDIA_TYPES, *BINARY_MEDIA_TYPES),
    )


# -- wire mapping ---------------------------------------------------------------------


def map_request(request: ModelRequest, options: Mapping[str, Any], stream: bool) -> tuple[dict[str, Any], list[Any]]:
    """The request body, and the messages this step adds to the turn before the model's answer
    (a streamed instance's ``stream_options`` are among its ``options``)."""
    messages: list[Any] = [{"role": "system", "content": request.instructions}] if request.instructions else []
    messages += [{"role": m.role, "content": m.content} for m in request.messages]
    turn = [load_item(raw) for raw in request.turn_items]
    added: list[Any] = [] if turn else [{"role": "user", "content": _user_content(request)}]
    answered = sum(1 for message in turn if message.get("role") == "tool")
    added += [{"role": "tool", "tool_call_id": e.call_id, "content": e.output} for e in request.exchange[answered:]]
    body: dict[str, Any] = {"model": request.model, "messages": messages + turn + added, "stream": stream}
    if request.tools:
        body["tools"] = [
            {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
            for t in request.tools
        ]
    body.update(options)
    return body, added


def _user_content(request: ModelRequest) -> str | list[Any]:
    """Plain text, or, with images, a list of parts (text first); text-only servers keep the string form."""
    text = user_text(request, BINARY_MEDIA_TYPES)
    images = binary_attachments(request, BINARY_MEDIA_TYPES)
    if not images:
        return text
    return [{"type": "text", "text": text}] + [
        {"type": "image_url", "image_url": {"url": data_url(media_type, data)}} for _, media_type, data in images
    ]


# -- what the adapter reads of an answer (https://platform.openai.com/docs/api-reference/chat/object) ----


class _PromptDetails(TypedDict):
    cached_tokens: NotRequired[int | None]


class _CompletionDetails(TypedDict):
    reasoning_tokens: NotRequired[int | None]


class _Usage(TypedDict):
    prompt_tokens: NotRequired[int | None]
    completion_tokens: NotRequired[int | None]
    prompt_tokens_details: NotRequired[_PromptDetails | None]
    completion_tokens_details: NotRequired[_CompletionDetails | None]


class _Function(TypedDict):
    name: str
    arguments: NotRequired[str | None]


class _ToolCall(TypedDict):
    id: str
    function: _Function


class _Message(TypedDict):
    content: NotRequired[str | None]
    tool_calls: NotRequired[list[_ToolCall] | None]


class _Choice(TypedDict):
    message: _Message


class _Completion(TypedDict):
    choices: list[_Choice]
    usage: NotRequired[_Usage | None]


class _FunctionPiece(TypedDict):
    name: NotRequired[str | None]
    arguments: NotRequired[str | None]


class _ToolCallPiece(TypedDict):
    index: NotRequired[int]
    id: NotRequired[str | None]
    function: NotRequired[_FunctionPiece | None]


class _Delta(TypedDict):
    content: NotRequired[str | None]
    tool_calls: NotRequired[list[_ToolCallPiece] | None]


class _ChunkChoice(TypedDict):
    delta: NotRequired[_Delta | None]
    finish_reason: NotRequired[str | None]


class _Chunk(TypedDict):
    choices: list[_ChunkChoice]
    usage: NotRequired[_Usage | None]


COMPLETION = Shape(_Completion, "chat completion")
CHUNK = Shape(_Chunk, "chat completion chunk")


def _usage(usage: _Usage | None) -> Usage:
    if usage is None:
        return Usage()
    return Usage(
        input_tokens=usage.get("prompt_tokens") or 0,
        output_tokens=usage.get("completion_tokens") or 0,
        cached_input_tokens=(usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0,
        reasoning_tokens=(usage.get("completion_tokens_details") or {}).get("reasoning_tokens") or 0,
    )


def _finish(text: str, tool_calls: list[Any], added: list[Any], usage: _Usage | None) -> list[TurnEvent]:
    events: list[TurnEvent] = [
        ToolCall(call["id"], call["function"]["name"], parse_arguments(call["function"].get("arguments")))
        for call in tool_calls
    ]
    assistant: dict[str, Any] = {"role": "assistant", "content": text or None}
    if tool_calls:
        assistant["tool_calls"] = tool_calls
    events.append(NativeItems(tuple(dump_item(item) for item in [*added, assistant])))
    events.append(UsageReport(_usage(usage)))
    return events


def process_response(data: Any, added: list[Any]) -> list[TurnEvent]:
    """A chat completion -> the step's events."""
    completion = COMPLETION.of(data)
    choices = completion["choices"]
    if not choices:
        raise ProviderFailure("the provider answered with no choice")
    message = choices[0]["message"]
    text = message.get("content") or ""
    calls = [
        {
            "id": c["id"],
            "type": "function",
            "function": {"name": c["function"]["name"], "arguments": c["function"].get("arguments") or ""},
        }
        for c in message.get("tool_calls") or ()
    ]
    return ([TextDelta(text)] if text else []) + _finish(text, calls, added, completion.get("usage"))


async def process_stream(events: AsyncIterator[ServerSentEvent], added: list[Any]) -> AsyncIterator[TurnEvent]:
    """Streamed chunks (ending in ``data: [DONE]``) -> the step's events."""
    text: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    usage: _Usage | None = None
    chose = finished = False
    async for event in events:
        if event.data.strip() == "[DONE]":
            finished = True
            break
        data = event.json()
        if isinstance(data, dict) and "error" in data:
            raise _event_failure(data["error"])
        chunk = CHUNK.of(data)
        usage = chunk.get("usage") or usage
        for choice in chunk["choices"]:
            chose = True
            delta: _Delta = choice.get("delta") or {}
            content = delta.get("content")
            if content:
                text.append(content)
                yield TextDelta(content)
            for piece in delta.get("tool_calls") or ():
                call = calls.setdefault(
                    piece.get("index", len(calls)),
                    {"id": "", "type": "function", "function": {"name": "", "arguments": ""}},
                )
                call["id"] = piece.get("id") or call["id"]
                function = piece.get("function") or {}
                call["function"]["name"] += function.get("name") or ""
                call["function"]["arguments"] += function.get("arguments") or ""
            finished = finished or choice.get("finish_reason") is not None
    if not finished:
        raise ProviderFailure("the stream ended before the completion finished")
    if not chose:
        raise ProviderFailure("the stream finished without a choice")
    for event_ in _finish("".join(text), [calls[i] for i in sorted(calls)], added, usage):
        yield event_


# -- failures -------------------------------------------------------------------------


def _event_failure(error: Any) -> ProviderFailure:
    """An error chunk inside a 200 stream (OpenAI, vLLM and Ollama send ``{"error": {...}}``)."""
    error = error if isinstance(error, dict) else {"message": str(error)}
    code = str(error.get("code") or error.get("type") or "")
    status = error.get("code") if isinstance(error.get("code"), int) else None
    if status is None:
        status = {"rate_limit_exceeded": 429, "insufficient_quota": 429, "invalid_api_key": 401}.get(code, 500)
        if status == 500 and "overloaded" in str(error.get("message", "")).lower():
            status = 503  # OpenAI's in-stream overload carries only type server_error and its message
    return failure_for_status(status, code, str(error.get("message") or ""), quota=code == "insufficient_quota")


def classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
    """``{"error": {"message", "type", "code"}}`` (OpenAI, xAI, llama.cpp) or vLLM's flat ``{"message", ...}``."""
    error = payload.get("error") if isinstance(payload, dict) else None
    error = error if isinstance(error, dict) else payload if isinstance(payload, dict) else {}
    code = error.get("code")
    kind = str(code if isinstance(code, str) and code else error.get("type") or "")
    message = error_text(payload, ("error", "message"), ("message",), ("detail",), ("error",))
    return failure_for_status(
        status, kind, message, retry_after=retry_after_from_headers(headers), quota=kind == "insufficient_quota"
    )


# -- the adapter ------------------------------------------------------------------------


class OpenAIChatProvider(NetworkAdapter[OpenAIChatProviderConfig, list[Any]]):
    """An ``openai-chat`` instance: ``NetworkAdapter`` running ``WIRE``. The class adds nothing; it names
    the instances (``isinstance``, ``providers.OpenAIChatProvider``)."""

    __slots__ = ()


WIRE: WireMapping[OpenAIChatProviderConfig, list[Any]] = WireMapping(
    kind="openai-chat",
    telemetry_name="openai",
    path=PATH,
    auth_headers=auth_headers,
    body_options=body_options,
    capabilities=capabilities,
    classify=classify,
    map_request=map_request,
    process_response=process_response,
    process_stream=process_stream,
    adapter=OpenAIChatProvider,
)
"""The OpenAI-compatible chat completions adapter, as data (``providers.ADAPTERS["openai-chat"]`` builds it)."""
