"""A fake Anthropic Messages API: ``POST /v1/messages``, JSON or SSE (an ``event:`` line before each ``data:``).

With ``thinking`` enabled every answer starts with a thinking block whose
``signature`` only this fake can make (and, with ``redacted`` set, a
``redacted_thinking`` block whose ``data`` only it can unseal). Replay is
checked as Anthropic does: a thinking block with a changed or missing signature
is a 400 ``invalid_request_error``, and so is a ``tool_result`` that answers no
``tool_use`` of the previous assistant message, and, with thinking enabled,
tool results answering a latest assistant message that does not start with its
thinking (the latest assistant message must come back unmodified).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .script import Conversation, answer
from .server import IMAGES, Failure, FakeUpstream, Recorded, Rejection, media_problem, new_id, words

USAGE = {
    "input_tokens": 30,
    "cache_creation_input_tokens": 10,
    "cache_creation": {"ephemeral_5m_input_tokens": 10, "ephemeral_1h_input_tokens": 0},
    "cache_read_input_tokens": 20,
    "output_tokens": 12,
    "server_tool_use": None,
    "service_tier": "standard",
}
"""Every member Anthropic's OpenAPI document requires of ``Usage`` (the SDK makes some optional)."""


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}, "request_id": new_id("req_")}


class AnthropicFake(FakeUpstream):
    name = "anthropic"
    redacted = False
    """Every thinking answer also carries a ``redacted_thinking`` block."""

    def routes(self) -> list[Route]:
        return [Route("/v1/messages", self.create, methods=["POST"])]

    def error_body(self, failure: Failure, presented: str) -> tuple[int, dict[str, Any]]:
        return {
            "rate_limit": (
                429,
                _error(
                    "rate_limit_error",
                    "This request would exceed the rate limit for your organization of 50 requests per minute.",
                ),
            ),
            "quota": (
                400,
                _error(
                    "invalid_request_error",
                    "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing.",
                ),
            ),
            "overloaded": (529, _error("overloaded_error", "Overloaded")),
            "auth": (401, _error("authentication_error", "invalid x-api-key")),
            "invalid": (400, _error("invalid_request_error", "messages: at least one message is required")),
            "leak": (500, _error("api_error", f"Internal server error for key {presented}")),
        }.get(failure.kind, (500, _error("api_error", "Internal server error")))

    async def create(self, request: Request) -> Response:
        recorded = await self.record(request)
        # ``x-api-key`` (the documented header) or a bearer token (what newer SDKs send)
        presented = request.headers.get("x-api-key") or request.headers.get("authorization", "").removeprefix("Bearer ")
        failure = self.next_failure()
        if failure is not None and failure.where == "http":
            recorded.outcome = failure.kind
            status, body = self.error_body(failure, presented)
            headers = {"retry-after": str(failure.retry_after)} if failure.retry_after is not None else {}
            return self.json(body, status, {**headers, "request-id": body["request_id"]})
        if self.api_key is not None and presented != self.api_key:
            return self.json(_error("authentication_error", "invalid x-api-key"), 401)
        if "anthropic-version" not in request.headers:
            return self.json(_error("invalid_request_error", "anthropic-version: header is required"), 400)
        try:
            conversation = self.check(recorded)
        except Rejection as rejection:
            recorded.outcome = "rejected"
            return rejection.response
        body = recorded.body
        reply = answer(conversation)
        message = self.message(body, reply)
        if not body.get("stream"):
            return self.json(message)
        return self.sse(self.events(message, failure))

    def reject(self, message: str) -> Rejection:
        return Rejection(self.json(_error("invalid_request_error", message), 400))

    def check(self, recorded: Recorded) -> Conversation:
        body = recorded.body
        if not isinstance(body, dict):
            raise self.reject("body: Input should be an object")
        for field in ("model", "max_tokens", "messages"):
            if field not in body:
                raise self.reject(f"{field}: Field required")
        conversation = Conversation(tools=[t.get("name") for t in body.get("tools") or []])
        previous_calls: set[str] = set()
        self.check_open_round(body)
        for i, message in enumerate(body["messages"]):
            content = message.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])
            if message.get("role") == "assistant":
                previous_calls = set()
                for j, block in enumerate(blocks):
                    if block.get("type") == "thinking":
                        if "signature" not in block:
                            raise self.reject(f"messages.{i}.content.{j}.thinking.signature: Field required")
                        if not self.verify(block.get("thinking", ""), block["signature"]):
                            raise self.reject(f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block")
                        recorded.verified += 1
                    elif block.get("type") == "redacted_thinking":
                        if self.unseal(block.get("data")) is None:
                            raise self.reject(f"messages.{i}.content.{j}: Invalid `data` in `redacted_thinking` block")
                        recorded.verified += 1
                    elif block.get("type") == "tool_use":
                        previous_calls.add(block.get("id"))
                continue
            texts = [b.get("text", "") for b in blocks if b.get("type") == "text"]
            results = [b for b in blocks if b.get("type") == "tool_result"]
            self.check_media(blocks, i, recorded)
            for j, block in enumerate(blocks):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in previous_calls:
                    raise self.reject(
                        f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: "
                        f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding `tool_use` "
                        "block in the previous message."
                    )
            previous_calls = set()
            if texts:
                conversation.user_texts.append("".join(texts))
                conversation.results = []
            conversation.results += [_result_text(b.get("content")) for b in results]
        return conversation

    def check_media(self, blocks: list[Any], i: int, recorded: Recorded) -> None:
        """``image`` blocks take a base64 JPEG, PNG, GIF or WebP; ``document`` blocks a base64 PDF."""
        for j, block in enumerate(blocks):
            kind = block.get("type")
            if kind not in ("image", "document"):
                continue
            source = block.get("source") or {}
            where = f"messages.{i}.content.{j}.{kind}.source.base64"
            if source.get("type") != "base64":
                raise self.reject(f"messages.{i}.content.{j}.{kind}.source: Input tag does not match 'base64'")
            accepted = IMAGES if kind == "image" else ("application/pdf",)
            problem = media_problem(source.get("media_type"), source.get("data"), accepted)
            if problem is not None:
                raise self.reject(f"{where}: {problem}")
            recorded.media.append(source["media_type"])

    def check_open_round(self, body: dict[str, Any]) -> None:
        """Tool results answering the latest assistant message need that message's thinking, first, as sent.

        Consecutive user messages count as one turn, as Anthropic merges them.
        """
        messages = body["messages"]
        if (body.get("thinking") or {}).get("type") != "enabled":
            return
        start = len(messages)
        while start > 0 and messages[start - 1].get("role") == "user":
            start -= 1
        answering = any(
            isinstance(m.get("content"), list) and any(b.get("type") == "tool_result" for b in m["content"])
            for m in messages[start:]
        )
        if not answering or start == 0:
            return
        content = messages[start - 1].get("content")
        first = content[0] if isinstance(content, list) and content else {"type": "text"}
        if not isinstance(first, dict) or first.get("type") not in ("thinking", "redacted_thinking"):
            found = first.get("type") if isinstance(first, dict) else "text"
            raise self.reject(
                f"messages.{start - 1}.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
                f"`{found}`. When `thinking` is enabled, a final `assistant` message must start with a thinking "
                "block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."
            )

    def message(self, body: dict[str, Any], reply: Any) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if (body.get("thinking") or {}).get("type") == "enabled":
            content.append({"type": "thinking", "thinking": reply.thought, "signature": self.sign(reply.thought)})
            if self.redacted:
                content.append({"type": "redacted_thinking", "data": self.seal(reply.thought)})
        if reply.call is not None:
            content.append({"type": "tool_use", "id": new_id("toolu_"), "name": reply.call[0], "input": reply.call[1]})
        else:
            content.append({"type": "text", "text": reply.text, "citations": None})
        return {  # every member the OpenAPI document requires, nullable ones as null
            "id": new_id("msg_"),
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": content,
            "container": None,
            "stop_reason": "tool_use" if reply.call is not None else "end_turn",
            "stop_sequence": None,
            "stop_details": None,
            "usage": USAGE,
        }

    def events(self, message: dict[str, Any], failure: Failure | None) -> Iterator[bytes]:
        """message_start, per block start/deltas/stop (a ping after the first start), message_delta, message_stop."""

        def frame(kind: str, **data: Any) -> bytes:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()

        start_usage = {**USAGE, "output_tokens": 1}
        yield frame("message_start", message={**message, "content": [], "stop_reason": None, "usage": start_usage})
        for index, block in enumerate(message["content"]):
            if (
                failure is not None
                and failure.where == "stream"
                and block["type"] not in ("thinking", "redacted_thinking")
            ):
                kind = {
                    "rate_limit": "rate_limit_error",
                    "overloaded": "overloaded_error",
                    "invalid": "invalid_request_error",
                }
                yield frame(
                    "error",
                    error={
                        "type": kind.get(failure.kind, "api_error"),
                        "message": "Overloaded" if failure.kind == "overloaded" else "Internal server error",
                    },
                )
                return
            if block["type"] == "thinking":
                yield frame(
                    "content_block_start",
                    index=index,
                    content_block={"type": "thinking", "thinking": "", "signature": ""},
                )
                for piece in words(block["thinking"]):
                    yield frame("content_block_delta", index=index, delta={"type": "thinking_delta", "thinking": piece})
                yield frame(
                    "content_block_delta",
                    index=index,
                    delta={"type": "signature_delta", "signature": block["signature"]},
                )
            elif block["type"] == "redacted_thinking":
                yield frame("content_block_start", index=index, content_block=block)
            elif block["type"] == "tool_use":
                yield frame("content_block_start", index=index, content_block={**block, "input": {}})
                for piece in words(json.dumps(block["input"])):
                    yield frame(
                        "content_block_delta", index=index, delta={"type": "input_json_delta", "partial_json": piece}
                    )
            else:
                yield frame(
                    "content_block_start", index=index, content_block={"type": "text", "text": "", "citations": None}
                )
                for piece in words(block["text"]):
                    yield frame("content_block_delta", index=index, delta={"type": "text_delta", "text": piece})
            yield frame("content_block_stop", index=index)
            if index == 0:
                yield frame("ping")
        yield frame(
            "message_delta",
            delta={"stop_reason": message["stop_reason"], "stop_sequence": None},
            usage={"output_tokens": USAGE["output_tokens"]},
        )
        yield frame("message_stop")


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content or [] if block.get("type") == "text")
