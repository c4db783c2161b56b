"""A completed turn leaves nothing for the cycle collector: its run, task and channel are freed by reference
counting as soon as the turn ends (cyclic garbage would wait for a collection and inflate the heap under load)."""

from __future__ import annotations

import collections
import gc
from collections.abc import Iterator

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.models import CreateSessionRequest, RunRequest, SessionHandle


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # unreachable cycles go to gc.garbage instead of being freed
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_completed_turns_leave_no_cyclic_garbage(saved_garbage: list[object]) -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    for revision in range(20):
        handle = SessionHandle(id=created.session.id, revision=revision)
        await driver.run(RunRequest(provider="echo", model="echo-1", input=f"turn {revision}", session=handle))
        await driver.run(RunRequest(provider="echo", model="echo-1", input="stateless"))
        await driver.run(RunRequest(provider="echo", model="echo-1", input="keyed"), idempotency_key=f"k{revision}")

    gc.collect()

    assert collections.Counter(type(o).__qualname__ for o in saved_garbage) == {}
