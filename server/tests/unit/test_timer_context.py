"""A session's retention timer does not keep the request that armed it alive."""

from __future__ import annotations

import asyncio
import gc

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig, request_context
from agentic_driver.models import CreateSessionRequest, RunRequest, SessionHandle
from agentic_driver.request_context import RequestContext


def live_request_contexts() -> list[RequestContext]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, RequestContext)]


async def served(work: object, request_id: str) -> None:
    token = request_context.enter(RequestContext(request_id, "POST", "/v1/runs"))
    try:
        await work  # type: ignore[misc]
    finally:
        request_context.leave(token)


async def test_a_turn_leaves_no_request_context_behind_in_its_sessions_timer() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    before = len(live_request_contexts())
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    handle = SessionHandle(id=created.session.id, revision=0)
    await served(driver.run(RunRequest(provider="echo", model="echo-1", input="hi", session=handle)), "req-turn-1")
    await asyncio.sleep(0)  # one pass of the loop: the finished turn task's done callbacks run and let go of it

    assert len(live_request_contexts()) == before
