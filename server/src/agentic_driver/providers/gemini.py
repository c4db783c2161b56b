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
from .history_filters import ALL_FILTERS, filter_gemini
from .network import NetworkAdapter
from .upstream import ServerSentEvent, duration_seconds, error_text, failure_for_status, retry_after_from_headers
from .wire import Shape, binary_attachments, dump_item, load_item, user_text

__all__ = ["GeminiProvider", "map_request", "process_response", "process_stream"]

CALL_ID_PREFIX = "gemini_call_"
BINARY_MEDIA_TYPES = ("image/png", "image/jpeg", "image/webp", PDF_MEDIA_TYPE)
"""Sent as ``inlineData`` parts before the text. Gemini takes no GIF (its image types are PNG, JPEG,
WebP, HEIC and HEIF). https://ai.google.dev/gemini-api/docs/image-understanding
https://ai.google.dev/gemini-api/docs/document-processing"""


@dataclass(slots=True)
class GeminiProvider(NetworkAdapter[GeminiProviderConfig, tuple[list[Any], int]]):
    api_version: str = "v1beta"
    kind: str = "gemini"

    @staticmethod
    def _auth_headers(config: GeminiProviderConfig, key: str | None) -> dict[str, str]:
        return {"x-goog-api-key": key} if key else {}  # a header, never the URL: URLs end up in logs

    @staticmethod
    def _body_options(config: GeminiProviderConfig) -> dict[str, Any]:
        generation: dict[str, Any] = {}
        if config.maxOutputTokens is not None:
            generation["maxOutputTokens"] = config.maxOutputTokens
        if config.temperature is not None:
            generation["temperature"] = config.temperature
        extra = dict(config.extraBody)
        generation.update(extra.pop("generationConfig", None) or {})
        return {**({"generationConfig": generation} if generation else {}), **extra}

    @staticmethod
    def _settings(config: GeminiProviderConfig) -> dict[str, Any]:
        return {"api_version": config.apiVersion}

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
            attachment_media_types=(*TEXT_MEDIA_TYPES, *BINARY_MEDIA_TYPES),
        )

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        """The turn's items as a ``mode`` native session keeps them (see ``history_filters``)."""
        return filter_gemini(items, mode, max_chars)

    def _endpoint(self, request: ModelRequest) -> tuple[str, dict[str, str] | None]:
        path = f"/{self.api_version}/models/{request.model}"
        if self.stream:
            return f"{path}:streamGenerateContent", {"alt": "sse"}
        return f"{path}:generateContent", None

    def _map_request(self, request: ModelRequest) -> tuple[dict[str, Any], tuple[list[Any], int]]:
        """The body, and what reading the answer needs: the contents this step adds and the turn's earlier calls."""
        body, added, calls_before = map_request(request, self.options)
        return body, (added, calls_before)

    def _process_response(self, data: Any, sent: tuple[list[Any], int]) -> list[TurnEvent]:
        return process_response(data, *sent)

    def _process_stream(
        self, events: AsyncIterator[ServerSentEvent], sent: tuple[list[Any], int]
    ) -> AsyncIterator[TurnEvent]:
        return process_stream(events, *sent)


# -- wire mapping ---------------------------------------------------------------------


def _parts(contents: list[Any], key: str) -> list[Any]:
    return [part[key] for content in contents for part in content.get("parts") or () if key in part]


def map_request(request: ModelRequest, options: Mapping[str, Any]) -> tuple[dict[str, Any], list[Any], int]:
    """The request body, the contents this step adds before the model's answer, and the turn's earlier calls."""
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
    return body, added, len(_parts(turn, "functionCall"))


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


def process_response(data: Any, added: list[Any], calls_before: int) -> list[TurnEvent]:
    """A non-streamed ``GenerateContentResponse`` -> the step's events (one without a candidate is refused)."""
    response = RESPONSE.of(data)
    parts, _ = _candidate_parts(response)
    if not response.get("candidates"):
        raise ProviderFailure("the provider's GenerateContentResponse has no candidate")
    text = "".join(_visible(part) for part in parts)
    usage = response.get("usageMetadata") or {}
    return ([TextDelta(text)] if text else []) + _finish(parts, added, calls_before, usage)


async def process_stream(
    events: AsyncIterator[ServerSentEvent], added: list[Any], calls_before: int
) -> AsyncIterator[TurnEvent]:
    """Streamed chunks -> the step's events; the parts of every chunk are kept as they came."""
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
