"""Server-Sent Events: the run's events as ``id``/``event``/``data`` messages, with heartbeats.

Each event comes with its id among its run's events (``turns/log.py``). The
response watches the connection itself: when the client goes away the event
iterator is closed at once, which is how the driver learns of a disconnect (a
run sent with ``onDisconnect: cancel`` is stopped with reason ``disconnected``). During silences
longer than the heartbeat interval an SSE comment keeps proxies from timing out.
A client that accepts no data for ``stall_s`` (its socket buffers full) is
treated as disconnected too: a stalled reader must not hold a run slot and its
session forever (the run itself waits for a slow reader, at most 64 unread
deltas behind, so memory stays bounded meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from pydantic import BaseModel
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from ..views import NumberedEvents

__all__ = ["EventStreamResponse", "encode_event"]

HEARTBEAT = b": keep-alive\n\n"


def encode_event(sequence: int, event: BaseModel) -> bytes:
    data = event.model_dump_json()
    kind = getattr(event, "type", "message")
    return f"id: {sequence}\nevent: {kind}\ndata: {data}\n\n".encode()


class EventStreamResponse(Response):
    def __init__(self, events: NumberedEvents, heartbeat_s: float, stall_s: float | None = None) -> None:
        super().__init__(status_code=200, media_type="text/event-stream")
        self._events = events
        self._heartbeat_s = heartbeat_s
        self._stall_s = stall_s

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
                    if not await self._send_within_stall(send, HEARTBEAT):
                        return False
                    continue
                try:
                    event = following.result()
                except StopAsyncIteration:
                    return True
                following = None
                if not await self._send_within_stall(send, encode_event(self._events.event_id, event)):
                    return False
        finally:
            if following is not None and not following.done():
                following.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await following
            elif following is not None and not following.cancelled():
                following.exception()  # the event (or the end) that came with the disconnect is dropped, not leaked

    async def _send_within_stall(self, send: Send, body: bytes) -> bool:
        """Send ``body``; False when the client accepted nothing for ``stall_s`` (then it counts as gone)."""
        try:
            async with asyncio.timeout(self._stall_s):
                await send({"type": "http.response.body", "body": body, "more_body": True})
        except TimeoutError:
            return False
        return True

    async def _close(self) -> None:
        closer = getattr(self._events, "aclose", None)
        if closer is not None:
            await closer()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
