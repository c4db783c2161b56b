"""Request-level guards in front of the app: the body deadline and the drain before shutdown.

``RequestGuard`` is plain ASGI middleware:

- a request body must arrive within ``body_timeout_s`` (``REQUEST_TIMEOUT``,
  408): a client trickling its body does not hold a request open forever;
- while the host drains before it stops (``Drain.draining``), operations that
  would start new work (``createSession``, ``forkSession``, ``run``, ``streamRun``) answer
  ``SHUTTING_DOWN`` (503, ``Retry-After``), on new and on kept-alive
  connections alike, and every response asks the client to close its
  connection, so clients move to another host process. Everything else (reads,
  deletes, cancels, and the actions that let admitted turns finish) is served:
  a session never moves, so its owner keeps answering for it until it exits.
  ``/readyz`` answers the same refusal, so a proxy stops sending it new work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import DriverError, RequestTimeout, ShuttingDown
from ..metrics import Metrics
from .problems import problem_response

__all__ = ["BODY_RECEIVED", "NEW_WORK", "Drain", "RequestGuard", "is_new_work"]

NEW_WORK = frozenset({("POST", "/v1/sessions"), ("POST", "/v1/runs"), ("POST", "/v1/runs/stream")})
"""The operations a draining host refuses: they would create a session or start a turn (and ``forkSession``,
whose path names its source: ``is_new_work``)."""


def is_new_work(method: str, path: str) -> bool:
    if (method, path) in NEW_WORK:
        return True
    return method == "POST" and path.startswith("/v1/sessions/") and path.endswith("/fork")


BODY_RECEIVED = "agentic_driver.body_received"
"""Scope key the host's HTTP protocol sets once a request's whole body has arrived (``http.server``): a request
whose body was complete before the app started needs no body deadline. Under any other server it is absent."""


class Drain:
    """Whether the host is draining before it stops (set once, never cleared)."""

    def __init__(self, retry_after_seconds: int = 1) -> None:
        self.draining = False
        self.retry_after_seconds = retry_after_seconds

    def begin(self) -> None:
        self.draining = True

    def refusal(self) -> ShuttingDown:
        """What new work (and ``/readyz``) is answered while draining."""
        return ShuttingDown(
            "The host is shutting down and starts no new work. A stateless run or a new session: retry on "
            "another host process. A session ends with its host and cannot continue elsewhere: read its history "
            "and create a new session on another host with what the new one should see.",
            retry_after_seconds=self.retry_after_seconds,
        )


class RequestGuard:
    def __init__(self, app: ASGIApp, *, body_timeout_ms: int, drain: Drain, metrics: Metrics) -> None:
        self._app = app
        self._body_timeout_ms = body_timeout_ms
        self._drain = drain
        self._metrics = metrics

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function that hands back the awaitable to run (the app's, or the refusal): every request passes
        # here, and a coroutine of its own would add one more frame to create and to resume at each await.
        if scope["type"] != "http":
            return self._app(scope, receive, send)
        if self._drain.draining:
            send = _closing(send)
            if is_new_work(scope["method"], scope["path"]):
                return self._refuse(self._drain.refusal(), scope, receive, send)
        return self._app(scope, receive if scope.get(BODY_RECEIVED) else self._deadline(receive), send)

    async def _refuse(self, error: DriverError, scope: Scope, receive: Receive, send: Send) -> None:
        await problem_response(error, scope["path"], self._metrics)(scope, receive, send)

    def _deadline(self, receive: Receive) -> Receive:
        """``receive``, bounded in time until the last body chunk has arrived."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._body_timeout_ms / 1000
        body_done = False

        async def guarded() -> Message:
            nonlocal body_done
            if body_done:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise RequestTimeout(
                    f"The request body did not arrive within {self._body_timeout_ms} ms.",
                    maximum=self._body_timeout_ms,
                ) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        return guarded


def _closing(send: Send) -> Send:
    """``send`` that adds ``Connection: close`` to the response head."""

    async def closing(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers: list[Any] = [h for h in message.get("headers", []) if h[0].lower() != b"connection"]
            message = {**message, "headers": [*headers, (b"connection", b"close")]}
        await send(message)

    return closing
