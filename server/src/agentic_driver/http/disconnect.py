"""A JSON run's request stops its run when the client goes away: ``unless_disconnected``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from starlette.requests import Request

from ..errors import RunCancelled

__all__ = ["DISCONNECT_WATCH_DELAY_S", "unless_disconnected"]

T = TypeVar("T")


async def _client_gone(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


DISCONNECT_WATCH_DELAY_S = 0.01
"""How long a JSON run may take before its request starts watching for the client going away."""


async def unless_disconnected(request: Request, work: Awaitable[T]) -> T:
    """``work``'s result; if the client disconnects first, ``work`` is cancelled as ``disconnected``.

    ``work`` runs in the request's own task. Only if it takes longer than
    ``DISCONNECT_WATCH_DELAY_S`` does a watcher task start reading ``receive``; it
    cancels the request task when the client goes away. Most turns with a fast
    model end before that, and a watcher per request cost a task and two extra
    loop iterations (about an eighth of the host's latency at concurrency 1, measured in
    bench/README.md); a disconnect is still seen at most that delay late.
    """
    loop = asyncio.get_running_loop()
    current = asyncio.current_task()
    assert current is not None
    watcher: asyncio.Task[None] | None = None
    finished = False

    def on_gone(gone: asyncio.Future[None]) -> None:
        if not finished and not gone.cancelled():
            current.cancel("disconnected")

    def watch() -> None:
        nonlocal watcher
        watcher = loop.create_task(_client_gone(request))
        watcher.add_done_callback(on_gone)

    start_watching = loop.call_later(DISCONNECT_WATCH_DELAY_S, watch)
    try:
        return await work
    except asyncio.CancelledError:
        gone = watcher is not None and watcher.done() and not watcher.cancelled()
        if not gone or current.uncancel() > 0:
            raise  # cancelled for another reason (the server stopping): not a disconnect
        raise RunCancelled("The run was stopped because its client disconnected.", reason="disconnected") from None
    finally:
        finished = True
        start_watching.cancel()
        if watcher is not None:
            watcher.cancel()
