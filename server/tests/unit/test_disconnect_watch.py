"""A JSON run's request watches for its client going away only once the run has taken a moment."""

from __future__ import annotations

import asyncio

import pytest
from starlette.requests import Request
from starlette.types import Message

from agentic_driver.errors import RunCancelled
from agentic_driver.http.disconnect import DISCONNECT_WATCH_DELAY_S, unless_disconnected


def request_whose_client(gone: asyncio.Event) -> Request:
    async def receive() -> Message:
        await gone.wait()
        return {"type": "http.disconnect"}

    return Request({"type": "http", "method": "POST", "path": "/v1/runs", "headers": []}, receive)


async def test_work_that_ends_at_once_starts_no_watcher_task() -> None:
    tasks_while_working: list[int] = []

    async def work() -> str:
        await asyncio.sleep(0)
        tasks_while_working.append(len(asyncio.all_tasks()))
        return "done"

    assert await unless_disconnected(request_whose_client(asyncio.Event()), work()) == "done"
    assert tasks_while_working == [1]  # the test's own task only


async def test_a_client_gone_during_longer_work_cancels_it_as_disconnected() -> None:
    gone = asyncio.Event()
    gone.set()
    stopped = asyncio.Event()

    async def work() -> str:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError as cancelled:
            assert "disconnected" in cancelled.args
            stopped.set()
            raise
        return "never"

    with pytest.raises(RunCancelled) as caught:
        await asyncio.wait_for(unless_disconnected(request_whose_client(gone), work()), 50 * DISCONNECT_WATCH_DELAY_S)

    assert caught.value.reason == "disconnected"
    assert stopped.is_set()
    assert asyncio.current_task().cancelling() == 0  # the request task is not left marked as cancelled


async def test_a_cancellation_from_elsewhere_is_not_taken_for_a_disconnect() -> None:
    async def work() -> str:
        await asyncio.sleep(60)
        return "never"

    task = asyncio.ensure_future(unless_disconnected(request_whose_client(asyncio.Event()), work()))
    for _ in range(1_000):  # bounded: until the watcher task has started beside the request's
        if len(asyncio.all_tasks()) == 3:
            break
        await asyncio.sleep(DISCONNECT_WATCH_DELAY_S / 10)
    assert len(asyncio.all_tasks()) == 3
    task.cancel()

    with pytest.raises(asyncio.CancelledError):
        await task
