"""The floor of ``make bench-upstream``: a direct keep-alive client calling the fake provider over TLS.

    ../.venv/bin/python -m harness.directclient --base-url https://127.0.0.1:PORT --ca-file CA --api-key KEY

It sends the request the host's adapter sends for a stateless run with the
input ``INPUT`` (same path, headers and body), through one long-lived
``httpx.AsyncClient`` (the library the host uses, on uvloop as the host is) and
reads each answer to its end: the whole JSON body decoded, or every event of a
stream decoded. That is the least any client must do to get a model's answer
over HTTPS, so what the host spends beyond it is the host's.

As a child of the benchmark (``jsonpipe``) it answers
``{"op": "round", "protocol", "stream", "calls", "concurrency"}`` with each
call's latency and the process's own CPU time over the round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from .fakeprovider import MODEL, run_loop
from .jsonpipe import Document, serve_commands

__all__ = ["INPUT", "ProviderCall", "main", "provider_call"]

INPUT = "ping"
ANTHROPIC_VERSION = "2023-06-01"
ANTHROPIC_MAX_TOKENS = 4096
"""The anthropic adapter's default ``max_tokens`` (the API requires one)."""


@dataclass(frozen=True, slots=True)
class ProviderCall:
    path: str
    params: dict[str, str] | None
    headers: dict[str, str]
    body: bytes


def _openai_chat(stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"model": MODEL, "messages": [{"role": "user", "content": INPUT}], "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


def _anthropic(stream: bool) -> dict[str, Any]:
    message = {"role": "user", "content": [{"type": "text", "text": INPUT}]}
    return {"model": MODEL, "messages": [message], "stream": stream, "max_tokens": ANTHROPIC_MAX_TOKENS}


def _openai_responses(stream: bool) -> dict[str, Any]:
    message = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": INPUT}]}
    return {
        "model": MODEL,
        "input": [message],
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "stream": stream,
    }


def provider_call(protocol: str, stream: bool, api_key: str) -> ProviderCall:
    """What the host's ``protocol`` adapter sends for a stateless run of ``INPUT`` (default instance options)."""
    bearer = {"Authorization": f"Bearer {api_key}"}
    if protocol == "openai-chat":
        return ProviderCall("/v1/chat/completions", None, bearer, _dumps(_openai_chat(stream)))
    if protocol == "anthropic":
        headers = {"anthropic-version": ANTHROPIC_VERSION, "x-api-key": api_key}
        return ProviderCall("/v1/messages", None, headers, _dumps(_anthropic(stream)))
    if protocol == "openai-responses":
        return ProviderCall("/v1/responses", None, bearer, _dumps(_openai_responses(stream)))
    if protocol == "gemini":
        body = _dumps({"contents": [{"role": "user", "parts": [{"text": INPUT}]}]})
        method, params = ("streamGenerateContent", {"alt": "sse"}) if stream else ("generateContent", None)
        return ProviderCall(f"/v1beta/models/{MODEL}:{method}", params, {"x-goog-api-key": api_key}, body)
    raise ValueError(f"unknown protocol {protocol!r}")


def _dumps(body: dict[str, Any]) -> bytes:
    return json.dumps(body).encode()


class DirectClient:
    """One pooled client for the whole run: after the warm-up every call finds a kept-alive connection."""

    def __init__(self, base_url: str, ca_file: str, api_key: str) -> None:
        context = ssl.create_default_context(cafile=ca_file)
        self._client = httpx.AsyncClient(
            base_url=base_url,
            verify=context,
            timeout=httpx.Timeout(30.0),
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=64, keepalive_expiry=None),
            trust_env=False,
        )
        self._api_key = api_key

    async def aclose(self) -> None:
        await self._client.aclose()

    async def call(self, call: ProviderCall, stream: bool) -> None:
        """One model call, read to its end; a non-200 answer or an empty stream raises."""
        headers = {"Content-Type": "application/json", **call.headers}
        if not stream:
            answer = await self._client.post(call.path, params=call.params, headers=headers, content=call.body)
            _check_status(answer)
            json.loads(answer.content)
            return
        events = 0
        async with self._client.stream(
            "POST", call.path, params=call.params, headers=headers, content=call.body
        ) as answer:
            _check_status(answer)
            async for line in answer.aiter_lines():
                if line.startswith("data:") and (payload := line[5:].strip()) != "[DONE]":
                    json.loads(payload)
                    events += 1
        if not events:
            raise ValueError("the stream carried no event")

    async def round(self, protocol: str, stream: bool, calls: int, concurrency: int) -> Document:
        """``calls`` calls over ``concurrency`` lanes, each lane one call after another."""
        call = provider_call(protocol, stream, self._api_key)
        latencies: list[int] = []
        failures: list[str] = []
        per_lane, extra = divmod(calls, concurrency)

        async def lane(count: int) -> None:
            for _ in range(count):
                started = time.perf_counter_ns()
                try:
                    await self.call(call, stream)
                except (httpx.HTTPError, ValueError) as error:
                    failures.append(f"{type(error).__name__}: {error}")
                    continue
                latencies.append(time.perf_counter_ns() - started)

        cpu_before = time.process_time_ns()
        await asyncio.gather(*(lane(per_lane + (1 if i < extra else 0)) for i in range(concurrency)))
        cpu_ns = time.process_time_ns() - cpu_before
        return {"latencies_ns": latencies, "cpu_ns": cpu_ns, "errors": len(failures), "error_samples": failures[:3]}


def _check_status(answer: httpx.Response) -> None:
    if answer.status_code != 200:
        raise ValueError(f"HTTP {answer.status_code}")


async def _serve_as_child(base_url: str, ca_file: str, api_key: str) -> None:
    client = DirectClient(base_url, ca_file, api_key)

    async def handle(command: Document) -> Document:
        if command.get("op") != "round":
            raise ValueError(f"unknown command {command!r}")
        return await client.round(
            str(command["protocol"]), bool(command["stream"]), int(command["calls"]), int(command["concurrency"])
        )

    try:
        await serve_commands({"ready": True}, handle)
    finally:
        await client.aclose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.directclient", description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--ca-file", required=True)
    parser.add_argument("--api-key", required=True)
    options = parser.parse_args(argv)
    run_loop(_serve_as_child(options.base_url, options.ca_file, options.api_key))
    return 0


if __name__ == "__main__":
    sys.exit(main())
