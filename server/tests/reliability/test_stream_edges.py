"""Edges of the event stream response found under load."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

from pydantic import BaseModel

from agentic_driver.http.sse import EventStreamResponse


class Event(BaseModel):
    type: str = "run.completed"


async def test_an_end_that_arrives_with_the_disconnect_is_not_a_lost_task_exception() -> None:
    """The soak's host logged 'Task exception was never retrieved' (StopAsyncIteration) when a client
    closed right after the last event: the stream's end and the disconnect arrived together."""
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: reported.append(context))
    try:

        async def events() -> AsyncIterator[BaseModel]:
            return
            yield  # pragma: no cover

        async def receive() -> dict[str, Any]:
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            pass

        for _ in range(20):
            response = EventStreamResponse(events(), heartbeat_s=10)
            await response({"type": "http"}, receive, send)
        await asyncio.sleep(0)
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)
    assert not [c for c in reported if "never retrieved" in c.get("message", "")], reported
