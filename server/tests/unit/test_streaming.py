"""Streamed runs, disconnects, the wait line and the idle timeout, through the embedded Driver.

A stream is an async iterator returned once the run is admitted; closing it
early is a disconnect. Waits are on tasks, asyncio events and bounded polling;
the idle-timeout tests measure real (short) provider silences, never a fixed
sleep used for synchronisation.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.errors import (
    DriverError,
    HostBusy,
    ProviderTimeout,
    RunCancelled,
    SessionBusy,
    SessionRevisionConflict,
    ToolNameConflict,
)
from agentic_driver.models import (
    ApprovalDecision,
    CreateSessionRequest,
    FunctionResult,
    Message,
    OutputDeltaEvent,
    RunCompletedEvent,
    RunRequest,
    RunStartedEvent,
    SessionHandle,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.base import Capabilities, ModelRequest, TextDelta, TurnEvent
from agentic_driver.tools import HostTool
from agentic_driver.turns import ActiveRun
from agentic_driver.turns.log import Delta
from agentic_driver.turns.runs import UNREAD_EVENTS


def make_driver(*extra_providers: Any, **options: Any) -> Driver:
    return Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1"), *extra_providers],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
        **options,
    )


async def new_session(driver: Driver, provider: str = "echo") -> str:
    created = await driver.create_session(CreateSessionRequest(provider=provider, model="echo-1", mode="history"))
    return created.session.id


def session_run(session_id: str, revision: int, text: str, provider: str = "echo", **extra: Any) -> RunRequest:
    return RunRequest(
        provider=provider, model="echo-1", input=text, session=SessionHandle(id=session_id, revision=revision), **extra
    )


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


def model_work_started(run: ActiveRun | None) -> bool:
    return run is not None and run.model_work_started


def provider_calls(driver: Driver, outcome: str) -> float:
    value = driver.metrics.registry.get_sample_value(
        "agentic_driver_provider_calls_total", {"provider": "echo", "outcome": outcome}
    )
    return value or 0.0


@dataclass
class GatedProvider:
    """Writes ``first``, then waits for ``gate`` before writing `` second``."""

    id: str = "gated"
    models: tuple[str, ...] = ("echo-1",)
    account_id: str | None = "acct-1"
    kind: str = "gated"
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=False
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        yield TextDelta("first")
        await self.gate.wait()
        yield TextDelta(" second")


# -- the stream -------------------------------------------------------------------------------


async def test_a_streamed_session_run_yields_started_then_deltas_then_completed_at_the_next_revision() -> None:
    driver = make_driver()
    session_id = await new_session(driver)

    events = [event async for event in await driver.stream_run(session_run(session_id, 0, "!chunks 3\nhello"))]

    started, *deltas, completed = events
    assert isinstance(started, RunStartedEvent)
    assert started.session.id == session_id
    assert started.session.status == "running"
    assert started.session.revision == 0
    assert all(isinstance(d, OutputDeltaEvent) and d.runId == started.runId for d in deltas)
    assert [d.text for d in deltas] == ["echo", ": he", "llo"]
    assert isinstance(completed, RunCompletedEvent)
    assert completed.run.id == started.runId
    assert completed.run.status == "completed"
    assert completed.run.output.text == "echo: hello"
    assert completed.run.session.revision == 1
    assert completed.run.session.status == "ready"
    read = await driver.read_session(session_id)
    assert read.history[-1] == Message(role="assistant", content="echo: hello")


async def test_a_streamed_stateless_run_starts_without_a_session() -> None:
    driver = make_driver()

    events = [event async for event in await driver.stream_run(RunRequest(provider="echo", model="echo-1", input="hi"))]

    assert [e.type for e in events] == ["run.started", "output.delta", "run.completed"]
    assert "session" not in events[0].model_dump()
    assert "session" not in events[-1].run.model_dump()


async def test_refusals_are_raised_by_stream_run_itself_before_any_event() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    await driver.run(session_run(session_id, 0, "one"))

    with pytest.raises(SessionRevisionConflict):
        await driver.stream_run(session_run(session_id, 0, "stale"))
    with pytest.raises(ToolNameConflict):
        await driver.stream_run(
            RunRequest(
                provider="echo",
                model="echo-1",
                input="x",
                tools=[ToolDefinition(name="f", parameters={}), ToolDefinition(name="f", parameters={})],
            )
        )
    assert driver.store.get(session_id).status == "ready"


async def test_closing_the_stream_after_model_work_started_interrupts_the_session_as_disconnected() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    events = await driver.stream_run(session_run(session_id, 0, "!sleep 10000\nslow"))
    started = await anext(events)
    run = record.active_run
    await wait_until(lambda: model_work_started(run))

    await events.aclose()
    await run.settled()

    assert run.cancel_reason == "disconnected"
    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.runId == started.runId
    assert read.interruptedTurn.reason == "disconnected"
    assert read.interruptedTurn.input == "!sleep 10000\nslow"
    assert provider_calls(driver, "cancelled") == 1


async def test_closing_the_stream_after_the_first_delta_interrupts_the_session() -> None:
    gated = GatedProvider()
    driver = make_driver(gated)
    session_id = await new_session(driver, "gated")
    record = driver.store.get(session_id)
    events = await driver.stream_run(session_run(session_id, 0, "hi", provider="gated"))

    assert (await anext(events)).type == "run.started"
    delta = await anext(events)
    assert isinstance(delta, OutputDeltaEvent) and delta.text == "first"
    run = record.active_run
    await events.aclose()
    await run.settled()

    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "disconnected"
    assert read.history == []  # the partial reply is not committed


async def test_closing_the_stream_while_the_run_waits_for_a_slot_leaves_the_session_ready() -> None:
    driver = make_driver(max_concurrent_runs=1)
    holder = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 10000")))
    await wait_until(lambda: driver.slots.in_use == 1)
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    events = await driver.stream_run(session_run(session_id, 0, "queued"))
    started = await anext(events)
    assert started.session.status == "running"
    run = record.active_run
    await wait_until(lambda: driver.slots.waiting == 1)

    await events.aclose()
    await run.settled()

    assert run.cancel_reason == "disconnected"
    assert run.model_work_started is False
    assert driver.slots.waiting == 0
    read = await driver.read_session(session_id)
    assert read.session.status == "ready"
    assert read.session.revision == 0
    assert "interruptedTurn" not in read.model_dump()
    holder.cancel()
    await asyncio.wait([holder])
    assert (await driver.run(session_run(session_id, 0, "again"))).session.revision == 1


async def test_a_stream_closed_before_its_turn_task_first_steps_leaves_the_session_ready() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    events = await driver.stream_run(session_run(session_id, 0, "hi"))
    run = record.active_run

    await anext(events)  # run.started is yielded before the turn task has stepped
    await events.aclose()
    await run.settled()

    assert run.model_work_started is False
    assert record.status == "ready"
    assert record.active_run is None
    assert record.revision == 0
    assert driver.slots.in_use == 0
    driver.slots.reserve()  # its reservation was given back
    driver.slots.unreserve()


async def test_closing_a_stream_that_was_never_iterated_still_stops_the_run() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    events = await driver.stream_run(session_run(session_id, 0, "!sleep 50\nhi"))
    run = record.active_run

    await events.aclose()
    await run.settled()

    assert run.cancel_reason == "disconnected"
    assert record.revision == 0


async def test_a_streamed_reader_that_falls_behind_still_gets_every_delta_in_order() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    text = "x" * 200  # more deltas than a reader may fall behind (backpressure, nothing dropped)
    events = await driver.stream_run(session_run(session_id, 0, f"!chunks 206\n{text}"))
    await anext(events)
    run = record.active_run
    await wait_until(lambda: run.held_back)  # the reader is UNREAD_EVENTS behind: the model waits
    assert run.unread == UNREAD_EVENTS + 1

    rest = [event async for event in events]

    assert "".join(e.text for e in rest if isinstance(e, OutputDeltaEvent)) == f"echo: {text}"
    assert sum(isinstance(e, OutputDeltaEvent) for e in rest) == 206
    assert rest[-1].type == "run.completed"
    assert rest[-1].run.session.revision == 1


async def test_a_json_run_logs_its_deltas_for_rejoining_but_nothing_holds_it_back() -> None:
    gated = GatedProvider()
    driver = make_driver(gated)
    session_id = await new_session(driver, provider="gated")
    record = driver.store.get(session_id)
    answer = asyncio.ensure_future(driver.run(session_run(session_id, 0, "hi", provider="gated")))
    await wait_until(lambda: record.active_run is not None and record.active_run.model_work_started)
    run = record.active_run
    await wait_until(lambda: len(gated.gate._waiters or ()) == 1)  # "first" was produced; the model waits

    assert isinstance(run.log.get(run.log.last_id), Delta)  # kept for a reader who rejoins
    assert run.reader_at is None and not run.held_back  # no stream is attached, so nobody holds it back
    gated.gate.set()
    result = await answer
    assert result.output.text == "first second"


# -- a caller that goes away ---------------------------------------------------------------


@pytest.mark.parametrize(("message", "reason"), [("disconnected", "disconnected"), (None, "cancelled")])
async def test_a_caller_cancelled_while_awaiting_run_stops_the_turn_with_the_matching_reason(
    message: str | None, reason: str
) -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    caller = asyncio.create_task(driver.run(session_run(session_id, 0, "!sleep 10000\nslow")))
    await wait_until(lambda: model_work_started(record.active_run))
    run = record.active_run

    caller.cancel(message)
    with pytest.raises(asyncio.CancelledError):
        await caller
    await run.settled()

    assert run.cancel_reason == reason
    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == reason


async def test_a_caller_cancelled_as_disconnected_while_submitting_actions_interrupts_the_continuation() -> None:
    gate = asyncio.Event()
    calls: list[dict[str, Any]] = []

    async def deploy(**arguments: Any) -> str:
        calls.append(arguments)
        await gate.wait()
        return "deployed"

    driver = make_driver(tools=[HostTool("deploy", deploy)])
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    paused = await driver.run(session_run(session_id, 0, "!tool deploy {}\nship it"))
    run = record.active_run
    answer = SubmitRunActionsRequest(
        approvals=[ApprovalDecision(callId=paused.requiredAction.approvals[0].callId, approve=True)]
    )
    caller = asyncio.create_task(driver.submit_run_actions(paused.id, answer))
    await wait_until(lambda: calls != [])  # approved: the tool is running inside the continued turn

    caller.cancel("disconnected")
    with pytest.raises(asyncio.CancelledError):
        await caller
    await run.settled()

    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "disconnected"


# -- the wait line ---------------------------------------------------------------------------


async def test_when_every_slot_and_place_in_line_is_taken_a_run_is_host_busy_and_its_session_untouched() -> None:
    driver = make_driver(max_concurrent_runs=1, max_queued_runs=1)
    holder = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 10000")))
    await wait_until(lambda: driver.slots.in_use == 1)
    waiter = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="queued")))
    await wait_until(lambda: driver.slots.waiting == 1)
    session_id = await new_session(driver)
    record = driver.store.get(session_id)

    with pytest.raises(HostBusy) as caught:
        await driver.run(session_run(session_id, 0, "refused"))
    assert caught.value.status == 503
    assert caught.value.retry_after_seconds == 1
    assert caught.value.problem()["maximum"] == 1
    assert record.status == "ready" and record.active_run is None and record.expires_ms is not None
    with pytest.raises(HostBusy):
        await driver.stream_run(session_run(session_id, 0, "refused"))
    with pytest.raises(HostBusy):
        await driver.run(RunRequest(provider="echo", model="echo-1", input="stateless"))

    holder.cancel()
    await asyncio.wait([holder])
    assert (await waiter).output.text == "echo: queued"
    assert (await driver.run(session_run(session_id, 0, "now"))).session.revision == 1


async def test_runs_admitted_in_the_same_loop_turn_count_against_the_line_before_they_start() -> None:
    driver = make_driver(max_concurrent_runs=1, max_queued_runs=1)

    outcomes = await asyncio.gather(
        *(driver.run(RunRequest(provider="echo", model="echo-1", input=f"run {i}")) for i in range(3)),
        return_exceptions=True,
    )

    assert [o.output.text for o in outcomes[:2]] == ["echo: run 0", "echo: run 1"]
    assert isinstance(outcomes[2], HostBusy)
    assert (driver.slots.in_use, driver.slots.waiting) == (0, 0)


async def test_a_waiting_run_cancelled_in_the_same_loop_turn_as_the_slot_frees_up_is_cancelled_cleanly() -> None:
    driver = make_driver(max_concurrent_runs=1, max_queued_runs=2)
    holder_id, waiter_id, next_id = [await new_session(driver) for _ in range(3)]
    holding = asyncio.create_task(driver.run(session_run(holder_id, 0, "!sleep 10000")))
    await wait_until(lambda: driver.slots.in_use == 1)
    waiting = asyncio.create_task(driver.run(session_run(waiter_id, 0, "queued")))
    await wait_until(lambda: driver.slots.waiting == 1)
    following = asyncio.create_task(driver.run(session_run(next_id, 0, "next")))
    await wait_until(lambda: driver.slots.waiting == 2)
    holder_run = driver.store.get(holder_id).active_run
    waiter_run = driver.store.get(waiter_id).active_run

    holder_run.cancel("cancelled")  # the holder's task runs first and hands its slot on...
    waiter_run.cancel("cancelled")  # ...past a waiter whose cancellation is already under way

    with pytest.raises(RunCancelled) as caught:
        await waiting
    assert caught.value.reason == "cancelled"
    assert driver.store.get(waiter_id).status == "ready"
    assert (await following).output.text == "echo: next"
    with pytest.raises(RunCancelled):
        await holding
    assert (driver.slots.in_use, driver.slots.waiting) == (0, 0)


# -- the idle timeout -------------------------------------------------------------------------


async def test_no_provider_progress_for_idle_timeout_ms_is_a_provider_timeout_that_interrupts() -> None:
    driver = make_driver()
    session_id = await new_session(driver)

    with pytest.raises(ProviderTimeout) as caught:
        await driver.run(session_run(session_id, 0, "!sleep 10000\nslow", idleTimeoutMs=30))

    assert caught.value.status == 504
    assert "30 ms" in caught.value.detail
    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "idle_timeout"
    assert provider_calls(driver, "timeout") == 1
    assert driver.slots.in_use == 0


async def test_a_stateless_run_times_out_too_and_a_stream_ends_with_run_failed() -> None:
    driver = make_driver()

    events = [
        e
        async for e in await driver.stream_run(
            RunRequest(provider="echo", model="echo-1", input="!sleep 10000\nslow", idleTimeoutMs=30)
        )
    ]

    assert [e.type for e in events] == ["run.started", "run.failed"]
    assert events[-1].problem.code == "PROVIDER_TIMEOUT"
    assert events[-1].problem.status == 504


async def test_every_delta_resets_the_idle_timer_so_a_slow_but_steady_reply_completes() -> None:
    driver = make_driver()
    session_id = await new_session(driver)

    # 10 pieces, 20 ms apart: 200 ms in all, longer than the 150 ms idle timeout, never silent that long
    done = await driver.run(session_run(session_id, 0, "!chunks 10\n!sleep 20\nsteady reply", idleTimeoutMs=150))

    assert done.output.text == "echo: steady reply"
    assert done.session.revision == 1


async def test_waiting_for_the_application_is_not_provider_silence() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    tools = [ToolDefinition(name="lookup", parameters={"type": "object"})]
    paused = await driver.run(session_run(session_id, 0, "!call lookup {}\nx", tools=tools, idleTimeoutMs=20))

    # let several idle periods pass while the run waits (a provider sleep, not a fixed test sleep)
    await driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 100\nmeanwhile"))

    record = driver.store.get(session_id)
    assert record.status == "running" and record.active_run is not None and record.active_run.pending is not None
    answer = SubmitRunActionsRequest(
        functionResults=[FunctionResult(callId=paused.requiredAction.calls[0].callId, output="y")]
    )
    done = await driver.submit_run_actions(paused.id, answer)
    assert done.output.text == "echo: x | lookup -> y"


async def test_a_run_waiting_for_a_slot_is_not_provider_silence() -> None:
    driver = make_driver(max_concurrent_runs=1)
    session_id = await new_session(driver)
    holder = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 100\nhold")))
    await wait_until(lambda: driver.slots.in_use == 1)

    waiting = asyncio.create_task(driver.run(session_run(session_id, 0, "queued", idleTimeoutMs=20)))
    await holder  # the slot frees after 100 ms: five idle periods spent in line

    assert (await waiting).output.text == "echo: queued"


@dataclass
class TimingOutProvider:
    """An adapter whose own upstream call times out (a builtin TimeoutError), with no idle timeout set."""

    id: str = "timing-out"
    models: tuple[str, ...] = ("echo-1",)
    account_id: str | None = "acct-1"
    kind: str = "timing-out"

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=False
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        raise TimeoutError("connect timed out")
        yield TextDelta("unreachable")


async def test_a_timeout_inside_the_provider_is_not_mistaken_for_the_runs_idle_timeout() -> None:
    driver = make_driver(TimingOutProvider())
    session_id = await new_session(driver, "timing-out")

    with pytest.raises(DriverError) as caught:
        await driver.run(session_run(session_id, 0, "hi", provider="timing-out"))

    assert "None ms" not in caught.value.detail
    read = await driver.read_session(session_id)
    assert read.interruptedTurn.reason != "idle_timeout"


async def test_a_session_busy_refusal_while_streaming_names_the_streamed_run() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    events = await driver.stream_run(session_run(session_id, 0, "!sleep 10000\nslow"))
    started = await anext(events)

    with pytest.raises(SessionBusy) as caught:
        await driver.stream_run(session_run(session_id, 0, "other"))

    assert caught.value.active_run_id == started.runId
    await events.aclose()
