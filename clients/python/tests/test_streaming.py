"""Streamed runs through both clients: typed events, refusals, early exit, answering actions."""

from __future__ import annotations

import pytest

import agentic_driver_sdk as sdk
from agentic_driver_client.models import (
    OutputDeltaEvent,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequiresActionEvent,
    RunStartedEvent,
)

from .conftest import Driver, d, wait_for_status

ECHO = {"provider": "echo", "model": "echo-1"}
TOOLS = [{"name": "lookup", "description": "Look something up", "parameters": {"type": "object"}}]


async def test_a_streamed_session_turn_yields_typed_events(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    events = await driver.collect(driver.client.runs.stream(**ECHO, input="!chunks 3\none two three", session=session))
    assert isinstance(events[0], RunStartedEvent) and events[0].session.id == session.id
    deltas = [e.text for e in events if isinstance(e, OutputDeltaEvent)]
    assert len(deltas) == 3 and "".join(deltas) == "echo: one two three"
    assert isinstance(events[-1], RunCompletedEvent)
    assert events[-1].run.session.revision == 1 and events[-1].run.session.handle.revision == 1


async def test_a_refusal_before_the_stream_raises_the_typed_error(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    await d(driver.client.run(**ECHO, input="one", session=session))
    with pytest.raises(sdk.SessionRevisionConflictError) as caught:
        await driver.collect(driver.client.runs.stream(**ECHO, input="stale", session=session))
    assert caught.value.current_revision == 1


async def test_a_failure_after_the_stream_started_is_an_event(driver: Driver) -> None:
    events = await driver.collect(driver.client.runs.stream(**ECHO, input="!fail"))
    assert isinstance(events[-1], RunFailedEvent) and str(events[-1].problem.code) == "PROVIDER_ERROR"


async def test_leaving_the_block_early_disconnects_and_interrupts_the_session(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    text = "!chunks 6\n!sleep 150\nsix words arrive one by one"
    events = await driver.collect(driver.client.runs.stream(**ECHO, input=text, session=session), stop_after=2)
    assert isinstance(events[1], OutputDeltaEvent)
    read = await wait_for_status(driver, session.id, "interrupted")
    assert str(read.interrupted_turn.reason) == "disconnected"
    assert read.session.revision == 0 and read.history == []
    with pytest.raises(sdk.SessionInterruptedError):
        await d(driver.client.run(**ECHO, input="go on", session=session))
    # The client's pool is fine afterwards: the next call opens a new connection.
    assert (await d(driver.client.run(**ECHO, input="still here"))).output.text == "echo: still here"


async def test_function_calls_answered_through_a_stream(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    first = await driver.collect(
        driver.client.runs.stream(**ECHO, input='!call lookup {"q": "ada"}\nwho?', session=session, tools=TOOLS)
    )
    waiting = first[-1]
    assert isinstance(waiting, RunRequiresActionEvent)
    call = waiting.run.required_action.calls[0]
    assert (call.name, call.arguments["q"]) == ("lookup", "ada")
    rest = await driver.collect(
        driver.client.runs.stream_actions(waiting.run.id, function_results={call.call_id: "a mathematician"})
    )
    assert isinstance(rest[-1], RunCompletedEvent)
    assert rest[-1].run.output.text == "echo: who? | lookup -> a mathematician"
    assert rest[-1].run.session.revision == 1
