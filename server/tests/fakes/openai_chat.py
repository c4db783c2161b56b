"""A fake OpenAI-compatible chat completions server: ``POST /v1/chat/completions``, JSON or SSE ending in ``[DONE]``.

``api_key=None`` serves without credentials, like Ollama or a local llama.cpp.
A ``tool`` message must answer a ``tool_calls`` entry of the assistant message
before it, as OpenAI checks.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .script import Conversation, answer
from .server import IMAGES, Failure, FakeUpstream, Recorded, Rejection, media_problem, new_id, split_data_url, words

USAGE = {
    "prompt_tokens": 50,
    "completion_tokens": 12,
    "total_tokens": 62,
    "prompt_tokens_details": {"cached_tokens": 20, "audio_tokens": 0},
    "completion_tokens_details": {
        "reasoning_tokens": 5,
        "audio_tokens": 0,
        "accepted_prediction_tokens": 0,
        "rejected_prediction_tokens": 0,
    },
}


def _error(message: str, kind: str, code: str | None, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


class OpenAIChatFake(FakeUpstream):
    name = "openai-chat"

    def routes(self) -> list[Route]:
        return [Route("/v1/chat/completions", self.create, methods=["POST"])]

    @property
    def base_url(self) -> str:
        return self.origin + "/v1"

    def error_body(self, failure: Failure, presented: str) -> tuple[int, dict[str, Any]]:
        return {
            "rate_limit": (
                429,
                _error("Rate limit reached for requests. Please try again in 20s.", "requests", "rate_limit_exceeded"),
            ),
            "quota": (
                429,
                _error(
                    "You exceeded your current quota, please check your plan and billing details.",
                    "insufficient_quota",
                    "insufficient_quota",
                ),
            ),
            "overloaded": (503, _error("The server is overloaded or not ready yet.", "server_error", None)),
            "auth": (
                401,
                _error(f"Incorrect API key provided: {presented}.", "invalid_request_error", "invalid_api_key"),
            ),
            "invalid": (
                400,
                _error("Invalid value for 'messages': empty.", "invalid_request_error", "invalid_value", "messages"),
            ),
            "leak": (
                500,
                _error(f"The server had an error processing the request signed {presented}.", "server_error", None),
            ),
        }.get(
            failure.kind, (500, _error("The server had an error while processing your request.", "server_error", None))
        )

    async def create(self, request: Request) -> Response:
        recorded = await self.record(request)
        presented = request.headers.get("authorization", "").removeprefix("Bearer ")
        failure = self.next_failure()
        if failure is not None and failure.where == "http":
            recorded.outcome = failure.kind
            status, body = self.error_body(failure, presented)
            headers = {"retry-after": str(failure.retry_after)} if failure.retry_after is not None else {}
            return self.json(body, status, headers)
        if self.api_key is not None and presented != self.api_key:
            return self.json(self.error_body(Failure("auth"), presented)[1], 401)
        try:
            conversation = self.check(recorded)
        except Rejection as rejection:
            recorded.outcome = "rejected"
            return rejection.response
        body = recorded.body
        reply = answer(conversation)
        completion = self.completion(body, reply)
        if not body.get("stream"):
            return self.json(completion)
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return self.sse(self.chunks(completion, include_usage, failure))

    def check(self, recorded: Recorded) -> Conversation:
        body = recorded.body
        if not isinstance(body, dict) or not body.get("messages"):
            raise Rejection(
                self.json(
                    _error(
                        "Invalid value for 'messages': empty.", "invalid_request_error", "invalid_value", "messages"
                    ),
                    400,
                )
            )
        conversation = Conversation(tools=[t["function"]["name"] for t in body.get("tools") or []])
        open_calls: set[str] = set()
        for index, message in enumerate(body["messages"]):
            role = message.get("role")
            if role == "tool":
                if message.get("tool_call_id") not in open_calls:
                    raise Rejection(
                        self.json(
                            _error(
                                "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                                "message with 'tool_calls'.",
                                "invalid_request_error",
                                None,
                                f"messages.[{index}].role",
                            ),
                            400,
                        )
                    )
                conversation.results.append(str(message.get("content")))
                continue
            open_calls = {c["id"] for c in message.get("tool_calls") or []} if role == "assistant" else set()
            if role == "user":
                self.check_media(message.get("content"), index, recorded)
                content = message.get("content")
                text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content or [])
                conversation.user_texts.append(text)
                conversation.results = []
        return conversation

    def check_media(self, content: Any, index: int, recorded: Recorded) -> None:
        """A user message's parts: ``text``, or ``image_url`` with an image data URL (no PDF here)."""
        for j, part in enumerate(content if isinstance(content, list) else ()):
            if part.get("type") == "text":
                continue
            param = f"messages[{index}].content[{j}]"
            url = split_data_url((part.get("image_url") or {}).get("url")) if part.get("type") == "image_url" else None
            problem = "not an image_url data URL" if url is None else media_problem(url[0], url[1], IMAGES)
            if problem is not None:
                raise Rejection(
                    self.json(
                        _error(f"Invalid '{param}': {problem}.", "invalid_request_error", "invalid_value", param), 400
                    )
                )
            recorded.media.append(url[0] if url else "")

    def completion(self, body: dict[str, Any], reply: Any) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None, "annotations": []}
        if reply.call is not None:
            message["tool_calls"] = [
                {
                    "id": new_id("call_"),
                    "type": "function",
                    "function": {"name": reply.call[0], "arguments": json.dumps(reply.call[1])},
                }
            ]
        else:
            message["content"] = reply.text
        return {
            "id": new_id("chatcmpl-"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": "tool_calls" if reply.call is not None else "stop",
                }
            ],
            "usage": USAGE,
            "service_tier": "default",
            "system_fingerprint": "fp_fake",
        }

    def chunks(self, completion: dict[str, Any], include_usage: bool, failure: Failure | None) -> Iterator[bytes]:
        base = {k: completion[k] for k in ("id", "created", "model", "service_tier", "system_fingerprint")}
        base["object"] = "chat.completion.chunk"
        choice = completion["choices"][0]
        message = choice["message"]

        def frame(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
            chunk = {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}
            if include_usage:
                chunk["usage"] = None
            return f"data: {json.dumps({**chunk, **extra})}\n\n".encode()

        yield frame({"role": "assistant", "content": "", "refusal": None})
        if failure is not None and failure.where == "stream":
            _, body = self.error_body(failure, "")
            yield f"data: {json.dumps(body)}\n\n".encode()
            return
        for index, call in enumerate(message.get("tool_calls") or []):
            yield frame(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": call["function"]["name"], "arguments": ""},
                        }
                    ]
                }
            )
            for piece in words(call["function"]["arguments"]):
                yield frame({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        for piece in words(message.get("content") or ""):
            yield frame({"content": piece})
        yield frame({}, choice["finish_reason"])
        if include_usage:
            yield f"data: {json.dumps({**base, 'choices': [], 'usage': completion['usage']})}\n\n".encode()
        yield b"data: [DONE]\n\n"
