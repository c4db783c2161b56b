"""Gemini API adapter: ``{baseUrl}/{v1|v1beta}/models/{model}:generateContent``, native and history.

Streaming uses ``:streamGenerateContent?alt=sse``, whose events are whole
``GenerateContentResponse`` chunks. Native continuation replays the model's
content exactly as received: parts unmerged (a streamed reply is the parts of
every chunk, in order), each ``thoughtSignature`` on the part where it arrived.
https://ai.google.dev/api/generate-content
https://ai.google.dev/gemini-api/docs/thought-signatures

Function calls usually carry no id; the adapter names them ``gemini_call_<n>``
(their position in the turn) and answers each with a ``functionResponse`` of
the same name, in call order, with the model's own id when it gave one.

Usage: ``promptTokenCount`` includes ``cachedContentTokenCount``;
``candidatesTokenCount`` excludes ``thoughtsTokenCount``, so the host adds it.

The adapter is ``WIRE`` (at the end): these functions, declared as data for ``network.NetworkAdapter``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired

from typing_extensions import TypedDict

from ..config import GeminiProviderConfig
from .base import (
    PDF_MEDIA_TYPE,
    TEXT_MEDIA_TYPES,
    Capabilities,
    ModelRequest,
    NativeItems,
    ProviderFailure,
    RejectedFailure,
    TextDelta,
    ToolCall,
    ToolSpec,
    TurnEvent,
    Usage,
    UsageReport,
)
from .history_filters import ALL_FILTERS, TOOL_RESULT_PLACEHOLDER, apply_filter, cut
from .network import NetworkAdapter, WireMapping
from .upstream import ServerSentEvent, duration_seconds, error_text, failure_for_status, retry_after_from_headers
from .wire import Shape, binary_attachments, dump_item, load_item, user_text

__all__ = ["WIRE", "GeminiProvider", "classify", "filter_native", "map_request", "process_response", "process_stream"]

CALL_ID_PREFIX = "gemini_call_"
Sent = tuple[list[Any], int]
"""What reading an answer needs of its request: the contents the step adds, and the turn's earlier calls."""
BINARY_MEDIA_TYPES = ("image/png", "image/jpeg", "image/webp", PDF_MEDIA_TYPE)
"""Sent as ``inlineData`` parts before the text. Gemini takes no GIF (its image types are PNG, JPEG,
WebP, HEIC and HEIF). https://ai.google.dev/gemini-api/docs/image-understanding
https://ai.google.dev/gemini-api/docs/document-processing"""


# -- configuration --------------------------------------------------------------------


def auth_headers(config: GeminiProviderConfig, key: str | None) -> dict[str, str]:
    return {"x-goog-api-key": key} if key else {}  # a header, never the URL: URLs end up in logs


def body_options(config: GeminiProviderConfig) -> dict[str, Any]:
    generation: dict[str, Any] = {}
    if config.maxOutputTokens is not None:
        generation["maxOutputTokens"] = config.maxOutputTokens
    if config.temperature is not None:
        generation["temperature"] = config.temperature
    extra = dict(config.extraBody)
    generation.update(extra.pop("generationConfig", None) or {})
    return {**({"generationConfig": generation} if generation else {}), **extra}


def settings(config: GeminiProviderConfig) -> dict[str, Any]:
    return {"api_version": config.apiVersion}


def capabilities(config: GeminiProviderConfig) -> Capabilities:
    return Capabilities(
        history_continuation=True,
        native_continuation=True,
        streaming=True,
        application_functions=True,
        native_filters=ALL_FILTERS,
        attachment_media_types=(*TEXT_MEDIA_TYPES, *BINARY_MEDIA_TYPES),
    )


def endpoint(adapter: GeminiProvider, request: ModelRequest) -> tuple[str, dict[str, str] | None]:
    """The model's own path: ``:streamGenerateContent?alt=sse`` when streamed, else ``:generateContent``."""
    path = f"/{adapter.api_version}/models/{request.model}"
    if adapter.stream:
        return f"{path}:streamGenerateContent", {"alt": "sse"}
    return f"{path}:generateContent", None


# -- wire mapping ---------------------------------------------------------------------


def _parts(contents: list[Any], key: str) -> list[Any]:
    return [part[key] for content in contents for part in content.get("parts") or () if key in part]


def map_request(request: ModelRequest, options: Mapping[str, Any], stream: bool = False) -> tuple[dict[str, Any], Sent]:
    """The request body, and the contents this step adds before the model's answer with the turn's earlier
    calls (``Sent``). The body is the same streamed or not: streaming is in the ``endpoint``."""
    contents: list[Any] = [
        {"role": "user" if m.role == "user" else "model", "parts": [{"text": m.content}]} for m in request.messages
    ]
    contents += [load_item(raw) for raw in request.native or ()]
    turn = [load_item(raw) for raw in request.turn_items]
    added: list[Any] = []
    if not turn:
        added.append({"role": "user", "parts": _user_parts(request)})
    results = request.exchange[len(_parts(turn, "functionResponse")) :]
    if results:
        added.append(
            {"role": "user", "parts": [{"functionResponse": _response(e.call_id, e.name, e.output)} for e in results]}
        )
    body: dict[str, Any] = {"contents": contents + turn + added}
    if request.instructions:
        body["systemInstruction"] = {"parts": [{"text": request.instructions}]}
    if request.tools:
        body["tools"] = [{"functionDeclarations": [_declaration(t) for t in request.tools]}]
    body.update(options)
    return body, (added, len(_parts(turn, "functionCall")))


def _user_parts(request: ModelRequest) -> list[Any]:
    parts: list[Any] = [
        {"inlineData": {"mimeType": media_type, "data": data}}
        for _, media_type, data in binary_attachments(request, BINARY_MEDIA_TYPES)
    ]
    parts.append({"text": user_text(request, BINARY_MEDIA_TYPES)})
    return parts


def _declaration(tool: ToolSpec) -> dict[str, Any]:
    """A ``FunctionDeclaration``: the REST reference marks ``description`` required, so it is always sent
    (``""`` for a tool without one: proto3 JSON reads an empty string as the field's default)."""
    return {"name": tool.name, "description": tool.description, "parametersJsonSchema": tool.parameters}


def _response(call_id: str, name: str, output: str) -> dict[str, Any]:
    response: dict[str, Any] = {"name": name, "response": {"result": output}}
    if not call_id.startswith(CALL_ID_PREFIX):
        response["id"] = call_id
    return response


# -- what the adapter reads of an answer (https://ai.google.dev/api/generate-content#generatecontentresponse) --


class _FunctionCall(TypedDict):
    name: str
    id: NotRequired[str | None]
    args: NotRequired[dict[str, Any] | None]


class _Part(TypedDict):
    text: NotRequired[str]
    thought: NotRequired[bool]
    functionCall: NotRequired[_FunctionCall]


class _Content(TypedDict):
    parts: NotRequired[list[_Part] | None]


class _Candidate(TypedDict):
    content: NotRequired[_Content | None]
    finishReason: NotRequired[str | None]


class _Feedback(TypedDict):
    blockReason: NotRequired[str | None]


class _UsageMetadata(TypedDict):
    promptTokenCount: NotRequired[int | None]
    toolUsePromptTokenCount: NotRequired[int | None]
    candidatesTokenCount: NotRequired[int | None]
    thoughtsTokenCount: NotRequired[int | None]
    cachedContentTokenCount: NotRequired[int | None]


class _Response(TypedDict):
    candidates: NotRequired[list[_Candidate] | None]
    promptFeedback: NotRequired[_Feedback | None]
    usageMetadata: NotRequired[_UsageMetadata | None]


RESPONSE = Shape(_Response, "GenerateContentResponse")
CHUNK = Shape(_Response, "GenerateContentResponse chunk")


def _usage(usage: Mapping[str, Any]) -> Usage:
    thoughts = usage.get("thoughtsTokenCount") or 0
    return Usage(
        input_tokens=(usage.get("promptTokenCount") or 0) + (usage.get("toolUsePromptTokenCount") or 0),
        output_tokens=(usage.get("candidatesTokenCount") or 0) + thoughts,
        cached_input_tokens=usage.get("cachedContentTokenCount") or 0,
        reasoning_tokens=thoughts,
    )


def _visible(part: Mapping[str, Any]) -> str:
    return "" if part.get("thought") else str(part.get("text") or "")


def _finish(parts: list[Any], added: list[Any], calls_before: int, usage: Mapping[str, Any]) -> list[TurnEvent]:
    events: list[TurnEvent] = []
    for part in parts:
        call = part.get("functionCall")
        if call is not None:
            call_id = call.get("id") or f"{CALL_ID_PREFIX}{calls_before + len(events)}"
            events.append(ToolCall(call_id, call["name"], call.get("args") or {}))
    content = {"role": "model", "parts": parts}
    events.append(NativeItems(tuple(dump_item(item) for item in [*added, content])))
    events.append(UsageReport(_usage(usage)))
    return events


def _candidate_parts(data: _Response) -> tuple[list[Any], str | None]:
    feedback = data.get("promptFeedback") or {}
    block_reason = feedback.get("blockReason")
    if block_reason:
        raise RejectedFailure(f"the prompt was blocked ({block_reason})")
    candidates = data.get("candidates") or [_Candidate()]
    candidate = candidates[0]
    return list((candidate.get("content") or {}).get("parts") or ()), candidate.get("finishReason")


def process_response(data: Any, sent: Sent) -> list[TurnEvent]:
    """A non-streamed ``GenerateContentResponse`` -> the step's events (one without a candidate is refused)."""
    added, calls_before = sent
    response = RESPONSE.of(data)
    parts, _ = _candidate_parts(response)
    if not response.get("candidates"):
        raise ProviderFailure("the provider's GenerateContentResponse has no candidate")
    text = "".join(_visible(part) for part in parts)
    usage = response.get("usageMetadata") or {}
    return ([TextDelta(text)] if text else []) + _finish(parts, added, calls_before, usage)


async def process_stream(events: AsyncIterator[ServerSentEvent], sent: Sent) -> AsyncIterator[TurnEvent]:
    """Streamed chunks -> the step's events; the parts of every chunk are kept as they came."""
    added, calls_before = sent
    parts: list[Any] = []
    usage: Mapping[str, Any] = {}
    finished = False
    async for event in events:
        data = event.json()
        if isinstance(data, dict) and "error" in data:
            raise _status_failure(data["error"], {})
        chunk = CHUNK.of(data)
        chunk_parts, reason = _candidate_parts(chunk)
        for part in chunk_parts:
            parts.append(part)
            text = _visible(part)
            if text:
                yield TextDelta(text)
        usage = chunk.get("usageMetadata") or usage
        finished = finished or reason is not None
    if not finished:
        raise ProviderFailure("the stream ended before the candidate finished")
    for event_ in _finish(parts, added, calls_before, usage):
        yield event_


# -- failures -------------------------------------------------------------------------

# https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
_STATUS_CODE = {
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "RESOURCE_EXHAUSTED": 429,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
}


def _status_failure(error: Any, headers: Mapping[str, str], status: int | None = None) -> ProviderFailure:
    error = error if isinstance(error, dict) else {}
    name = str(error.get("status") or "")
    given = error.get("code")
    code = status or _STATUS_CODE.get(name) or (given if isinstance(given, int) and 400 <= given <= 599 else 500)
    retry_after = retry_after_from_headers(headers)
    quota = False
    for detail in _dicts(error.get("details")):
        kind = str(detail.get("@type", ""))
        if kind.endswith("google.rpc.RetryInfo") and retry_after is None:
            retry_after = duration_seconds(detail.get("retryDelay"))
        elif kind.endswith("google.rpc.QuotaFailure"):  # a daily quota does not come back by retrying soon
            quota = any("PerDay" in str(v.get("quotaId", "")) for v in _dicts(detail.get("violations")))
        elif kind.endswith("google.rpc.ErrorInfo") and detail.get("reason") == "API_KEY_INVALID":
            code = 401  # Gemini answers a bad key with 400 INVALID_ARGUMENT; it is a credentials problem
    return failure_for_status(code, name, str(error.get("message") or ""), retry_after=retry_after, quota=quota)


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The objects of a list in an error body (anything else in it, or a non-list, is passed over)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
    """Google's error body: ``{"error": {"code", "message", "status", "details": [...]}}`` (sometimes in a list)."""
    if isinstance(payload, list) and payload:
        payload = payload[0]
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        return _status_failure(payload["error"], headers, status)
    return failure_for_status(status, "", error_text(payload), retry_after=retry_after_from_headers(headers))


# -- native history filters (see ``history_filters``): user and model contents of parts -------------


def filter_native(items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
    """The turn's contents as a ``mode`` native session keeps them: thought summaries dropped whole (a
    signed part stays), or ``functionResponse`` responses replaced or cut."""

    def one(content: Any) -> Any:
        parts = content.get("parts") if isinstance(content, dict) else None
        if not isinstance(parts, list):
            return content
        if mode == "no_reasoning" and content.get("role") == "model":
            kept = [p for p in parts if not _thought_summary(p)]
            return {**content, "parts": kept} if kept else None
        if mode in ("no_tool_results", "compact_tool_results") and content.get("role") != "model":
            return {**content, "parts": [_filtered_result(p, mode, max_chars) for p in parts]}
        return content

    return apply_filter(items, mode, _open_round, one)


def _thought_summary(part: Any) -> bool:
    """A thought summary: ``thought: true`` and no signature (a signed part stays, whatever it holds)."""
    return isinstance(part, dict) and part.get("thought") is True and "thoughtSignature" not in part


def _filtered_result(part: Any, mode: str, max_chars: int) -> Any:
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
    budget, kept = max_chars, {}
    for key, value in response.items():
        if isinstance(value, str):
            kept[key] = cut(value, budget)
            budget = max(budget - len(value), 0)
        else:
            kept[key] = value
    return kept


def _has_part(content: Any, key: str) -> bool:
    parts = content.get("parts") if isinstance(content, dict) else None
    return isinstance(parts, list) and any(isinstance(p, dict) and key in p for p in parts)


def _open_round(contents: list[Any]) -> int:
    if not contents or not (_has_part(contents[-1], "functionCall") or _has_part(contents[-1], "functionResponse")):
        return len(contents)
    return max(i for i, c in enumerate(contents) if c.get("role") == "model" and _has_part(c, "functionCall"))


# -- the adapter ------------------------------------------------------------------------


@dataclass(slots=True)
class GeminiProvider(NetworkAdapter[GeminiProviderConfig, Sent]):
    """A ``gemini`` instance: ``NetworkAdapter`` running ``WIRE``, with the API version its ``endpoint``
    names (``settings``); the class names the instances (``isinstance``, ``providers.GeminiProvider``)."""

    api_version: str = "v1beta"


WIRE: WireMapping[GeminiProviderConfig, Sent] = WireMapping(
    kind="gemini",
    telemetry_name="gcp.gemini",
    endpoint=endpoint,
    auth_headers=auth_headers,
    body_options=body_options,
    settings=settings,
    capabilities=capabilities,
    classify=classify,
    map_request=map_request,
    process_response=process_response,
    process_stream=process_stream,
    filter_native=filter_native,
    adapter=GeminiProvider,
)
"""The Gemini adapter, as data (``providers.ADAPTERS["gemini"]`` builds it)."""
