"""A fake Gemini API: ``/{v1|v1beta}/models/{model}:generateContent`` and ``:streamGenerateContent?alt=sse``.

Like a thinking Gemini model, every answer carries a ``thoughtSignature``: on
the ``functionCall`` part of a call, else on the text part (streamed: on a last,
empty text part of its own). With ``generationConfig.thinkingConfig.includeThoughts``
an answer starts with a thought summary (``{"text", "thought": true}``, unsigned:
the signature covers the turn's other parts, so a history may drop the summary
but not edit or drop a signed part). Replay is checked as Gemini does: a model turn with
a function call but no signature, or a signature that no longer matches its
content, is a 400 ``INVALID_ARGUMENT``; a function response must follow a
function call turn with as many calls.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .script import Conversation, answer
from .server import Failure, FakeUpstream, Recorded, Rejection, media_problem, new_id, words

INLINE_TYPES = ("image/png", "image/jpeg", "image/webp", "application/pdf")
"""The inline types the fake knows (Gemini also takes HEIC and HEIF images, audio and video; no GIF)."""

USAGE = {
    "promptTokenCount": 50,
    "candidatesTokenCount": 7,
    "totalTokenCount": 62,
    "cachedContentTokenCount": 20,
    "thoughtsTokenCount": 5,
    "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 50}],
}
RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
QUOTA_FAILURE = "type.googleapis.com/google.rpc.QuotaFailure"


def _error(code: int, status: str, message: str, details: list[Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details:
        error["details"] = details
    return {"error": error}


def _signed_text(parts: list[Any]) -> str:
    """What a model turn's signature covers: its content without the signature and the thought summaries."""
    signed = [p for p in parts if not (p.get("thought") is True and "thoughtSignature" not in p)]
    return json.dumps([{k: v for k, v in p.items() if k != "thoughtSignature"} for p in signed], sort_keys=True)


def _includes_thoughts(body: dict[str, Any]) -> bool:
    return bool(((body.get("generationConfig") or {}).get("thinkingConfig") or {}).get("includeThoughts"))


class GeminiFake(FakeUpstream):
    name = "gemini"

    def routes(self) -> list[Route]:
        return [Route("/{version}/models/{action}", self.generate, methods=["POST"])]

    def error_body(self, failure: Failure, presented: str) -> tuple[int, dict[str, Any]]:
        if failure.kind in ("rate_limit", "quota"):
            per = "PerMinute" if failure.kind == "rate_limit" else "PerDay"
            details: list[Any] = [
                {
                    "@type": QUOTA_FAILURE,
                    "violations": [
                        {
                            "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                            "quotaId": f"GenerateRequests{per}PerProjectPerModel-FreeTier",
                            "quotaDimensions": {"location": "global", "model": "gemini-2.5-flash"},
                            "quotaValue": "10",
                        }
                    ],
                },
                {
                    "@type": "type.googleapis.com/google.rpc.Help",
                    "links": [
                        {"description": "Learn more", "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}
                    ],
                },
            ]
            if failure.kind == "rate_limit":
                details.append(
                    {
                        "@type": RETRY_INFO,
                        "retryDelay": f"{20 if failure.retry_after is None else failure.retry_after}s",
                    }
                )
            return 429, _error(
                429,
                "RESOURCE_EXHAUSTED",
                "You exceeded your current quota, please check your plan and billing details.",
                details,
            )
        if failure.kind == "overloaded":
            return 503, _error(503, "UNAVAILABLE", "The model is overloaded. Please try again later.")
        if failure.kind == "auth":
            return 400, self.key_error()
        if failure.kind == "invalid":
            return 400, _error(400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified")
        if failure.kind == "leak":
            return 500, _error(500, "INTERNAL", f"An internal error has occurred for key {presented}.")
        return 500, _error(500, "INTERNAL", "An internal error has occurred. Please retry or report in the docs.")

    def key_error(self) -> dict[str, Any]:
        return _error(
            400,
            "INVALID_ARGUMENT",
            "API key not valid. Please pass a valid API key.",
            [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "API_KEY_INVALID",
                    "domain": "googleapis.com",
                    "metadata": {"service": "generativelanguage.googleapis.com"},
                }
            ],
        )

    async def generate(self, request: Request) -> Response:
        recorded = await self.record(request)
        model, _, method = request.path_params["action"].partition(":")
        if method not in ("generateContent", "streamGenerateContent"):
            return self.json(_error(404, "NOT_FOUND", f"Method {method!r} not found."), 404)
        presented = request.headers.get("x-goog-api-key") or request.query_params.get("key", "")
        failure = self.next_failure()
        if failure is not None and failure.where == "http":
            recorded.outcome = failure.kind
            status, body = self.error_body(failure, presented)
            return self.json(body, status)
        if self.api_key is not None and presented != self.api_key:
            return self.json(self.key_error(), 400)
        try:
            conversation = self.check(recorded)
        except Rejection as rejection:
            recorded.outcome = "rejected"
            return rejection.response
        reply = answer(conversation)
        thoughts = _includes_thoughts(recorded.body)
        if method == "generateContent":
            return self.json(self.response(model, reply, thoughts))
        return self.sse(self.chunks(model, reply, failure, thoughts))

    def reject(self, message: str) -> Rejection:
        return Rejection(self.json(_error(400, "INVALID_ARGUMENT", message), 400))

    def check(self, recorded: Recorded) -> Conversation:
        body = recorded.body
        if not isinstance(body, dict) or not body.get("contents"):
            raise self.reject("* GenerateContentRequest.contents: contents is not specified")
        conversation = Conversation(
            tools=[d.get("name") for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []]
        )
        open_calls = 0
        for index, content in enumerate(body["contents"]):
            parts = content.get("parts") or []
            if content.get("role") == "model":
                signatures = [p["thoughtSignature"] for p in parts if "thoughtSignature" in p]
                calls = [p for p in parts if "functionCall" in p]
                if calls and not any("thoughtSignature" in p for p in calls):
                    raise self.reject(
                        "Function call is missing a thought_signature in functionCall parts. This is required for "
                        "tools to work correctly, and missing thought_signature may lead to degraded model "
                        f"performance. Additional data, function call `default_api:{calls[0]['functionCall']['name']}`"
                        f" , position {index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/"
                        "thought-signatures for more details."
                    )
                for signature in signatures:
                    if not self.verify(_signed_text(parts), signature):
                        raise self.reject("Unable to submit request because Thought signature is not valid.")
                    recorded.verified += 1
                open_calls = len(calls)
                continue
            for j, part in enumerate(parts):
                if "inlineData" in part:
                    inline = part["inlineData"] or {}
                    problem = media_problem(inline.get("mimeType"), inline.get("data"), INLINE_TYPES)
                    if problem is not None:
                        raise self.reject(
                            f"* GenerateContentRequest.contents[{index}].parts[{j}].inline_data: {problem}"
                        )
                    recorded.media.append(inline["mimeType"])
            responses = [p["functionResponse"] for p in parts if "functionResponse" in p]
            if responses:
                if open_calls == 0:
                    raise self.reject(
                        "Please ensure that function response turn comes immediately after a function call turn."
                    )
                if len(responses) != open_calls:
                    raise self.reject(
                        "Please ensure that the number of function response parts is equal to the number of "
                        "function call parts of the function call turn."
                    )
                conversation.results = [str((r.get("response") or {}).get("result")) for r in responses]
            texts = [p["text"] for p in parts if "text" in p]
            if texts:
                conversation.user_texts.append("".join(texts))
                conversation.results = []
            open_calls = 0
        return conversation

    def parts(self, reply: Any, streamed: bool, thoughts: bool = False) -> list[list[dict[str, Any]]]:
        """The model turn's parts, grouped by the chunk that carries them (one group when not streamed)."""
        groups = self.answer_parts(reply, streamed)
        if not thoughts:
            return groups
        summary = {"text": reply.thought, "thought": True}
        return [[summary], *groups] if streamed else [[summary, *groups[0]]]

    def answer_parts(self, reply: Any, streamed: bool) -> list[list[dict[str, Any]]]:
        if reply.call is not None:
            part: dict[str, Any] = {"functionCall": {"name": reply.call[0], "args": reply.call[1]}}
            part["thoughtSignature"] = self.sign(_signed_text([part]))
            return [[part]]
        if not streamed:
            part = {"text": reply.text}
            part["thoughtSignature"] = self.sign(_signed_text([part]))
            return [[part]]
        groups: list[list[dict[str, Any]]] = [[{"text": piece}] for piece in words(reply.text)]
        last = {"text": ""}
        whole = [p for group in groups for p in group] + [last]
        groups.append([{**last, "thoughtSignature": self.sign(_signed_text(whole))}])
        return groups

    def response(self, model: str, reply: Any, thoughts: bool = False) -> dict[str, Any]:
        return self.chunk(model, self.parts(reply, False, thoughts)[0], "STOP", USAGE)

    def chunk(self, model: str, parts: list[Any], finish: str | None, usage: dict[str, Any]) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
        if finish is not None:
            candidate["finishReason"] = finish
        return {
            "candidates": [candidate],
            "usageMetadata": usage,
            "modelVersion": model,
            "responseId": new_id("", 22),
        }

    def chunks(self, model: str, reply: Any, failure: Failure | None, thoughts: bool = False) -> Iterator[bytes]:
        """``data: <GenerateContentResponse>`` frames, CRLF-delimited as Google sends them."""
        groups = self.parts(reply, True, thoughts)
        partial = {k: v for k, v in USAGE.items() if k != "candidatesTokenCount"}
        for index, group in enumerate(groups):
            if failure is not None and failure.where == "stream" and index == 0:
                _, body = self.error_body(failure, "")
                yield f"data: {json.dumps(body)}\r\n\r\n".encode()
                return
            last = index == len(groups) - 1
            data = self.chunk(model, group, "STOP" if last else None, USAGE if last else partial)
            yield f"data: {json.dumps(data)}\r\n\r\n".encode()
