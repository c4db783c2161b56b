"""Shared mock-host scripts of the stream resumption tests (``test_resume_*.py``, and ``test_tokens.py``):
a ``continue`` run's result and events, SSE bodies that end (or fail) where a test says, a scripted
mock host that records what it was sent, and readers of a stream's events.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx

from agentic_driver_client.models import OutputDeltaEvent

ECHO = {"provider": "echo", "model": "echo-1"}
RUN = "run_beta.AAECAwQFBgcICQoLDA0ODw"
SESSION = {"id": "ses_beta.k3Jx9_Qw-Zp0aBcDeFgHiJ", "revision": 0}
CONTINUE = {**ECHO, "input": "Hello", "on_disconnect": "continue"}
WORDS = ["echo: ", "Hel", "lo", " the", "re", "!"]
TEXT = "".join(WORDS)


def result(status: str = "completed") -> dict[str, Any]:
    return {
        "id": RUN,
        "status": status,
        "output": {"text": TEXT},
        "usage": {"inputTokens": 1, "outputTokens": 6, "cachedInputTokens": 0, "cacheWriteTokens": 0,
                  "reasoningTokens": 0},
        "cost": None,
        "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
        "servedModel": "echo-1",
    }  # fmt: skip


def event(event_id: int) -> dict[str, Any]:
    """The run's events: 1 run.started, 2..7 output.delta, 8 run.completed."""
    if event_id == 1:
        return {"type": "run.started", "runId": RUN}
    if event_id <= 7:
        return {"type": "output.delta", "runId": RUN, "text": WORDS[event_id - 2]}
    return {"type": "run.completed", "run": result()}


def message(event_id: int, data: dict[str, Any] | None = None) -> bytes:
    data = data or event(event_id)
    return f"id: {event_id}\nevent: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()


class Body(httpx.SyncByteStream, httpx.AsyncByteStream):
    """An event stream's body: these chunks, then ``end`` raised (None: the body ends cleanly)."""

    def __init__(self, chunks: list[bytes], end: Exception | None) -> None:
        self.chunks = chunks
        self.end = end

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.end is not None:
            raise self.end

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.end is not None:
            raise self.end


def events(ids: range | list[int], end: str | Exception | None = None, *, keep_alive: bool = False) -> httpx.Response:
    """A ``200`` event stream of these event ids; ``end`` says how it stops: None (cleanly), ``"reset"`` (a
    connection reset), ``"idle"`` (a stream-idle timeout), ``"cut"`` (a chunked body cut short), or an error."""
    endings: dict[str, Exception] = {
        "reset": httpx.ReadError("connection reset (test)"),
        "idle": httpx.ReadTimeout("stream idle (test)"),
        "cut": httpx.RemoteProtocolError("peer closed connection without sending complete message body (test)"),
    }
    error = endings[end] if isinstance(end, str) else end
    chunks = [message(i) for i in ids]
    if keep_alive:
        chunks.insert(0, b": keep-alive\n\n")
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Body(chunks, error))


Answer = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


class Script:
    """A mock host: the n-th request gets the n-th answer (a response, or a transport error raised)."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert self.answers, f"an unexpected request: {request.method} {request.url.path}"
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer(request) if callable(answer) else answer

    def sent(self) -> list[tuple[str, str, str | None, str | None]]:
        """Each request as (method, path, Last-Event-ID, Agentic-Host)."""
        return [
            (r.method, r.url.path, r.headers.get("last-event-id"), r.headers.get("agentic-host")) for r in self.requests
        ]


async def read(kind: str, stream: Any) -> list[Any]:
    """Every event of a stream, through the stream's own idiom (a context manager, iterated)."""
    found: list[Any] = []
    if kind == "sync":
        with stream as opened:
            found.extend(opened)
    else:
        async with stream as opened:
            found.extend([e async for e in opened])
    return found


def delivered(found: list[Any]) -> list[str]:
    """The events as their type (and text, for a delta)."""
    return [f"delta {e.text}" if isinstance(e, OutputDeltaEvent) else str(e.type_) for e in found]


ALL = ["run.started", *[f"delta {w}" for w in WORDS], "run.completed"]
EVENTS_PATH = f"/v1/runs/{RUN}/events"


async def iterate(kind: str, stream: Any) -> AsyncIterator[Any]:
    if kind == "sync":
        with stream as opened:
            for each in opened:
                yield each
    else:
        async with stream as opened:
            async for each in opened:
                yield each
