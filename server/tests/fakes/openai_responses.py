"""A fake OpenAI Responses API: ``POST /v1/responses``, JSON or SSE, reasoning with ``encrypted_content``.

Replay is checked as OpenAI does with ``store: false``: a reasoning item must
bring back ``encrypted_content`` that decrypts (else ``invalid_encrypted_content``),
and a ``function_call_output`` must answer a ``function_call`` earlier in the input.
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
    "input_tokens": 50,
    "input_tokens_details": {"cached_tokens": 20, "cache_write_tokens": 4},
    "output_tokens": 12,
    "output_tokens_details": {"reasoning_tokens": 5},
    "total_tokens": 62,
}


def _error(status: int, message: str, kind: str, code: str | None, param: str | None = None) -> tuple[int, Any]:
    return status, {"error": {"message": message, "type": kind, "param": param, "code": code}}


class OpenAIResponsesFake(FakeUpstream):
    name = "openai-responses"

    def routes(self) -> list[Route]:
        return [Route("/v1/responses", self.create, methods=["POST"])]

    # -- errors as OpenAI sends them ---------------------------------------------------------

    def error_body(self, failure: Failure, presented: str) -> tuple[int, Any]:
        if failure.kind == "rate_limit":
            return _error(
                429,
                "Rate limit reached for gpt-5 in organization org-fake on requests per min (RPM): "
                "Limit 3, Used 3, Requested 1. Please try again in 20s.",
                "requests",
                "rate_limit_exceeded",
            )
        if failure.kind == "quota":
            return _error(
                429,
                "You exceeded your current quota, please check your plan and billing details.",
                "insufficient_quota",
                "insufficient_quota",
            )
        if failure.kind == "overloaded":
            return _error(503, "The server is overloaded or not ready yet.", "server_error", None)
        if failure.kind == "auth":
            return self.auth_error(presented)
        if failure.kind == "leak":
            return _error(
                500, f"The server had an error processing the request signed {presented}.", "server_error", None
            )
        if failure.kind == "invalid":
            return _error(400, "Invalid type for 'input': expected an array.", "invalid_request_error", "invalid_type")
        return _error(
            500,
            "The server had an error while processing your request. Sorry about that!",
            "server_error",
            None,
        )

    def auth_error(self, presented: str) -> tuple[int, Any]:
        return _error(
            401,
            f"Incorrect API key provided: {presented}. You can find your API key at "
            "https://platform.openai.com/account/api-keys.",
            "invalid_request_error",
            "invalid_api_key",
        )

    def stream_error_code(self, failure: Failure) -> tuple[str, str]:
        return {
            "rate_limit": ("rate_limit_exceeded", "Rate limit reached. Please try again in 20s."),
            "quota": ("insufficient_quota", "You exceeded your current quota."),
            "overloaded": ("server_is_overloaded", "The server is overloaded or not ready yet."),
            "invalid": ("invalid_prompt", "Invalid prompt."),
        }.get(failure.kind, ("server_error", "The server had an error while processing your request."))

    # -- the endpoint --------------------------------------------------------------------------

    async def create(self, request: Request) -> Response:
        recorded = await self.record(request)
        presented = request.headers.get("authorization", "").removeprefix("Bearer ")
        failure = self.next_failure()
        if failure is not None and failure.where == "http":
            recorded.outcome = failure.kind
            status, body = self.error_body(failure, presented)
            headers = {"retry-after": str(failure.retry_after)} if failure.retry_after is not None else {}
            return self.json(body, status, {**headers, "x-request-id": new_id("req_")})
        if self.api_key is not None and presented != self.api_key:
            status, body = self.auth_error(presented)
            return self.json(body, status)
        try:
            conversation = self.check(recorded)
        except Rejection as rejection:
            recorded.outcome = "rejected"
            return rejection.response
        body = recorded.body
        reply = answer(conversation)
        response = self.response(body, reply)
        if not body.get("stream"):
            return self.json(response)
        return self.sse(self.events(response, reply, failure))

    def check(self, recorded: Recorded) -> Conversation:
        body = recorded.body
        if not isinstance(body, dict) or "model" not in body:
            raise Rejection(
                self.json(
                    _error(
                        400,
                        "Missing required parameter: 'model'.",
                        "invalid_request_error",
                        "missing_required_parameter",
                        "model",
                    )[1],
                    400,
                )
            )
        items = body.get("input")
        items = [{"role": "user", "content": items}] if isinstance(items, str) else list(items or [])
        conversation = Conversation(
            tools=[t.get("name") for t in body.get("tools") or [] if t.get("type") == "function"]
        )
        calls: set[str] = set()
        for index, item in enumerate(items):
            kind = item.get("type", "message")
            if kind == "message" and item.get("role") == "user":
                self.check_media(item.get("content"), index, recorded)
                conversation.user_texts.append(_content_text(item.get("content")))
                conversation.results = []
            elif kind == "reasoning":
                if "encrypted_content" not in item:
                    raise self.rejection(
                        f"Item 'input[{index}]' of type 'reasoning' has no 'encrypted_content'; with 'store' set "
                        "to false, reasoning items must be sent back with their encrypted content.",
                        "missing_required_parameter",
                        f"input[{index}].encrypted_content",
                    )
                if self.unseal(item["encrypted_content"]) is None:
                    raise self.rejection(
                        f"The encrypted content for item input[{index}] could not be verified. Reason: Encrypted "
                        "content could not be decrypted or parsed.",
                        "invalid_encrypted_content",
                        f"input[{index}].encrypted_content",
                    )
                recorded.verified += 1
            elif kind == "function_call":
                calls.add(item.get("call_id"))
            elif kind == "function_call_output":
                if item.get("call_id") not in calls:
                    raise self.rejection(
                        f"No tool call found for function call output with call_id {item.get('call_id')}.",
                        None,
                        "input",
                    )
                conversation.results.append(str(item.get("output")))
        return conversation

    def check_media(self, content: Any, index: int, recorded: Recorded) -> None:
        """``input_image`` takes an image data URL, ``input_file`` a filename and a PDF data URL."""
        for j, part in enumerate(content if isinstance(content, list) else ()):
            where = f"input[{index}].content[{j}]"
            kind = part.get("type")
            if kind == "input_image":
                url, accepted, param = split_data_url(part.get("image_url")), IMAGES, f"{where}.image_url"
            elif kind == "input_file":
                url, accepted, param = split_data_url(part.get("file_data")), ("application/pdf",), f"{where}.file_data"
                if not part.get("filename"):
                    raise self.rejection(
                        f"Missing required parameter: '{where}.filename'.",
                        "missing_required_parameter",
                        f"{where}.filename",
                    )
            elif kind == "input_text":
                continue
            else:
                raise self.rejection(
                    f"Invalid value: '{kind}'. Supported values are: 'input_text', 'input_image' and 'input_file'.",
                    "invalid_value",
                    f"{where}.type",
                )
            problem = "not a base64 data URL" if url is None else media_problem(url[0], url[1], accepted)
            if problem is not None:
                raise self.rejection(f"Invalid '{param}': {problem}.", "invalid_value", param)
            recorded.media.append(url[0] if url else "")

    def rejection(self, message: str, code: str | None, param: str | None) -> Rejection:
        status, body = _error(400, message, "invalid_request_error", code, param)
        return Rejection(self.json(body, status, {"x-request-id": new_id("req_")}))

    # -- the answer, whole and streamed --------------------------------------------------------

    def response(self, body: dict[str, Any], reply: Any) -> dict[str, Any]:
        output: list[dict[str, Any]] = [
            {
                "id": new_id("rs_"),
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": reply.thought}],
                "encrypted_content": self.seal(reply.thought),
            }
        ]
        if reply.call is not None:
            output.append(
                {
                    "id": new_id("fc_"),
                    "type": "function_call",
                    "status": "completed",
                    "arguments": json.dumps(reply.call[1]),
                    "call_id": new_id("call_"),
                    "name": reply.call[0],
                }
            )
        else:
            output.append(
                {
                    "id": new_id("msg_"),
                    "type": "message",
                    "status": "completed",
                    "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": reply.text}],
                    "role": "assistant",
                }
            )
        return {
            "id": new_id("resp_"),
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "background": False,
            "error": None,
            "incomplete_details": None,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"),
            "max_tool_calls": None,
            "model": body["model"],
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "reasoning": {"effort": "medium", "summary": None},
            "service_tier": "default",
            "store": body.get("store", True),
            "temperature": body.get("temperature", 1.0),
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tool_choice": "auto",
            "tools": body.get("tools") or [],
            "top_logprobs": 0,
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": USAGE,
            "metadata": {},  # no "user": the OpenAPI document types it a string, to be left out when unset
        }

    def events(self, response: dict[str, Any], reply: Any, failure: Failure | None) -> Iterator[bytes]:
        """The event order OpenAI streams: created, in_progress, each item added/deltas/done, completed."""
        sequence = iter(range(1_000_000))

        def frame(kind: str, **data: Any) -> bytes:
            payload = {"type": kind, "sequence_number": next(sequence), **data}
            return f"event: {kind}\ndata: {json.dumps(payload)}\n\n".encode()

        pending = {**response, "status": "in_progress", "output": [], "usage": None}
        yield frame("response.created", response=pending)
        yield frame("response.in_progress", response=pending)
        for index, item in enumerate(response["output"]):
            if failure is not None and failure.where == "stream" and index == 1:
                code, message = self.stream_error_code(failure)
                yield frame("error", code=code, message=message, param=None)
                return
            if item["type"] == "reasoning":
                yield frame("response.output_item.added", output_index=index, item={**item, "summary": []})
                yield frame("response.output_item.done", output_index=index, item=item)
            elif item["type"] == "function_call":
                yield frame(
                    "response.output_item.added",
                    output_index=index,
                    item={**item, "arguments": "", "status": "in_progress"},
                )
                for piece in words(item["arguments"]):
                    yield frame(
                        "response.function_call_arguments.delta", item_id=item["id"], output_index=index, delta=piece
                    )
                yield frame(
                    "response.function_call_arguments.done",
                    item_id=item["id"],
                    output_index=index,
                    arguments=item["arguments"],
                )
                yield frame("response.output_item.done", output_index=index, item=item)
            else:
                text = item["content"][0]["text"]
                part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
                yield frame(
                    "response.output_item.added",
                    output_index=index,
                    item={**item, "status": "in_progress", "content": []},
                )
                yield frame(
                    "response.content_part.added", item_id=item["id"], output_index=index, content_index=0, part=part
                )
                for piece in words(text):
                    yield frame(
                        "response.output_text.delta",
                        item_id=item["id"],
                        output_index=index,
                        content_index=0,
                        delta=piece,
                        logprobs=[],
                    )
                yield frame(
                    "response.output_text.done",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    text=text,
                    logprobs=[],
                )
                yield frame(
                    "response.content_part.done",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    part={**part, "text": text},
                )
                yield frame("response.output_item.done", output_index=index, item=item)
        yield frame("response.completed", response=response)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [] if part.get("type") in ("input_text", "output_text"))
