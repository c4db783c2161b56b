"""Server-Sent Events: the run's events as ``id``/``event``/``data`` messages, with heartbeats.

The response watches the connection itself: when the client goes away the
event iterator is closed at once, which is how the driver learns of a
disconnect (the run is stopped with reason ``disconnected``). During silences
longer than the heartbeat interval an SSE comment keeps proxies from timing out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from pydantic import BaseModel
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

__all__ = ["EventStreamResponse", "encode_event"]

HEARTBEAT = b": keep-alive\n\n"


def encode_event(sequence: int, event: BaseModel) -> bytes:
    data = event.model_dump_json()
    kind = getattr(event, "type", "message")
    return f"id: {sequence}\nevent: {kind}\ndata: {data}\n\n".encode()


class EventStreamResponse(Response):
    def __init__(self, events: AsyncIterator[BaseModel], heartbeat_s: float) -> None:
        super().__init__(status_code=200, media_type="text/event-stream")
        self._events = events
        self._heartbeat_s = heartbeat_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-cache"),
                    (b"x-accel-buffering", b"no"),
                ],
            }
        )
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            if await self._relay(send, gone):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            await self._close()

    async def _relay(self, send: Send, gone: asyncio.Future[Any]) -> bool:
        """Send every event; False when the client went away first."""
        sequence = 0
        following: asyncio.Future[Any] | None = None
        try:
            while True:
                following = following or asyncio.ensure_future(anext(self._events))
                done, _ = await asyncio.wait(
                    {following, gone}, timeout=self._heartbeat_s, return_when="FIRST_COMPLETED"
                )
                if gone in done:
                    return False
                if following not in done:
                    await send({"type": "http.response.body", "body": HEARTBEAT, "more_body": True})
                    continue
                try:
                    event = following.result()
                except StopAsyncIteration:
                    return True
                following = None
                sequence += 1
                await send({"type": "http.response.body", "body": encode_event(sequence, event), "more_body": True})
        finally:
            if following is not None and not following.done():
                following.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await following

    async def _close(self) -> None:
        closer = getattr(self._events, "aclose", None)
        if closer is not None:
            await closer()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
