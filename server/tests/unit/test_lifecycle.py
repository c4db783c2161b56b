"""The turn lifecycle through the Driver: admission, run slots, the provider call, commit or stop.

Concurrency is driven with asyncio tasks and echo's ``!sleep`` directive; the
tests wait on conditions with bounded polling, never on a fixed sleep.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.clock import format_ms
from agentic_driver.errors import (
    PermissionDenied,
    ProviderError,
    RunCancelled,
    RunNotFound,
    SessionBusy,
    SessionInterrupted,
    SessionLimitExceeded,
    SessionNotFound,
    SessionRevisionConflict,
)
from agentic_driver.models import CreateSessionRequest, InterruptedTurn, Message, RunRequest, SessionHandle
from agentic_driver.turns import ActiveRun


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    """Yield to the loop until ``condition`` holds, failing after ``turns`` loop turns."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


def provider_calls(driver: Driver, outcome: str) -> float:
    value = driver.metrics.registry.get_sample_value(
        "agentic_driver_provider_calls_total", {"provider": "echo", "outcome": outcome}
    )
    return value or 0.0


def has_started(run: ActiveRun | None) -> bool:
    """The run's task has taken its first step (it is suspended inside the lifecycle, not merely created)."""
    return (
        run is not None
        and run.task is not None
        and inspect.getcoroutinestate(run.task.get_coro()) == inspect.CORO_SUSPENDED
    )


def model_work_started(run: ActiveRun | None) -> bool:
    return run is not None and run.model_work_started


async def test_a_stale_revision_is_a_conflict_naming_the_current_revision_and_calls_no_model() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    first = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="one", session=SessionHandle(id=session.id, revision=0))
    )
    assert first.session.revision == 1

    for stale in (0, 7):
        with pytest.raises(SessionRevisionConflict) as caught:
            await driver.run(
                RunRequest(
                    provider="echo", model="echo-1", input="two", session=SessionHandle(id=session.id, revision=stale)
                )
            )
        assert caught.value.current_revision == 1
        assert caught.value.problem()["currentRevision"] == 1

    assert provider_calls(driver, "completed") == 1
    assert (await driver.read_session(session.id)).session.revision == 1


async def test_a_second_run_while_a_turn_is_active_is_busy_names_the_active_run_and_calls_no_model() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo",
                model="echo-1",
                input="!sleep 10000\nslow",
                session=SessionHandle(id=session.id, revision=0),
            )
        )
    )
    await wait_until(lambda: model_work_started(record.active_run))
    active_id = record.active_run.id

    with pytest.raises(SessionBusy) as caught:
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="fast", session=SessionHandle(id=session.id, revision=0))
        )

    assert caught.value.active_run_id == active_id
    assert caught.value.retry_after_seconds == 1
    assert caught.value.problem()["activeRunId"] == active_id
    assert record.active_run.id == active_id
    assert driver.metrics.registry.get_sample_value("agentic_driver_provider_calls_total") is None

    await driver.cancel_run(active_id)
    with pytest.raises(RunCancelled):
        await running
    assert provider_calls(driver, "cancelled") == 1
    assert provider_calls(driver, "completed") == 0


async def test_of_two_runs_started_together_on_one_revision_exactly_one_is_admitted() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    handle = SessionHandle(id=session.id, revision=0)

    outcomes = await asyncio.gather(
        driver.run(RunRequest(provider="echo", model="echo-1", input="left", session=handle)),
        driver.run(RunRequest(provider="echo", model="echo-1", input="right", session=handle)),
        return_exceptions=True,
    )

    assert outcomes[0].session.revision == 1
    assert isinstance(outcomes[1], SessionBusy)
    assert provider_calls(driver, "completed") == 1
    history = (await driver.read_session(session.id)).history
    assert history == [Message(role="user", content="left"), Message(role="assistant", content="echo: left")]


async def test_cancel_after_model_work_started_interrupts_the_session_and_keeps_its_history() -> None:
    clock = ManualClock()
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock,
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    await driver.run(
        RunRequest(provider="echo", model="echo-1", input="kept", session=SessionHandle(id=session.id, revision=0))
    )
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo",
                model="echo-1",
                input="!sleep 10000\nlost",
                session=SessionHandle(id=session.id, revision=1),
            )
        )
    )
    await wait_until(lambda: model_work_started(record.active_run))
    run_id = record.active_run.id
    clock.advance(2_500)

    cancelled = await driver.cancel_run(run_id)

    assert cancelled.id == run_id
    assert cancelled.status == "cancelled"
    assert cancelled.modelWorkStarted is True
    assert cancelled.session.status == "interrupted"
    assert cancelled.session.revision == 1
    with pytest.raises(RunCancelled) as caught:
        await running
    assert caught.value.reason == "cancelled"

    read = await driver.read_session(session.id)
    assert read.interruptedTurn == InterruptedTurn(
        runId=run_id, input="!sleep 10000\nlost", reason="cancelled", at=format_ms(clock.now_ms())
    )
    assert read.history == [Message(role="user", content="kept"), Message(role="assistant", content="echo: kept")]
    assert read.session.revision == 1

    with pytest.raises(SessionInterrupted):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="again", session=SessionHandle(id=session.id, revision=1))
        )
    assert provider_calls(driver, "completed") == 1
    assert provider_calls(driver, "cancelled") == 1

    await driver.delete_session(session.id)
    with pytest.raises(SessionNotFound):
        await driver.read_session(session.id)


async def test_cancel_of_a_run_waiting_for_a_slot_returns_its_session_to_ready_without_a_model_call() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        max_concurrent_runs=1,
        clock=ManualClock(),
    )
    holder = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    waiter = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    holder_record = driver.store.get(holder.id)
    waiter_record = driver.store.get(waiter.id)
    holding = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!sleep 10000", session=SessionHandle(id=holder.id, revision=0)
            )
        )
    )
    await wait_until(lambda: model_work_started(holder_record.active_run))
    waiting = asyncio.create_task(
        driver.run(
            RunRequest(provider="echo", model="echo-1", input="queued", session=SessionHandle(id=waiter.id, revision=0))
        )
    )
    await wait_until(lambda: has_started(waiter_record.active_run))

    assert waiter_record.status == "running"
    assert waiter_record.active_run.model_work_started is False
    with pytest.raises(SessionBusy):  # waiting for a slot is still the active turn
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="other", session=SessionHandle(id=waiter.id, revision=0))
        )

    cancelled = await driver.cancel_run(waiter_record.active_run.id)

    assert cancelled.modelWorkStarted is False
    assert cancelled.session.status == "ready"
    assert cancelled.session.revision == 0
    with pytest.raises(RunCancelled) as caught:
        await waiting
    assert caught.value.reason == "cancelled"
    read = await driver.read_session(waiter.id)
    assert read.session.status == "ready"
    assert read.history == []
    assert "interruptedTurn" not in read.model_dump()
    assert driver.metrics.registry.get_sample_value("agentic_driver_provider_calls_total") is None

    await driver.cancel_run(holder_record.active_run.id)
    with pytest.raises(RunCancelled):
        await holding
    assert provider_calls(driver, "cancelled") == 1  # the holder's call: the waiter never reached the model

    after = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="queued", session=SessionHandle(id=waiter.id, revision=0))
    )
    assert after.session.revision == 1


async def test_delete_aborts_a_run_waiting_for_a_slot_even_while_every_slot_is_held() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        max_concurrent_runs=1,
        clock=ManualClock(),
    )
    holder = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    waiter = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    holder_record = driver.store.get(holder.id)
    waiter_record = driver.store.get(waiter.id)
    holding = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!sleep 10000", session=SessionHandle(id=holder.id, revision=0)
            )
        )
    )
    await wait_until(lambda: model_work_started(holder_record.active_run))
    waiting = asyncio.create_task(
        driver.run(
            RunRequest(provider="echo", model="echo-1", input="queued", session=SessionHandle(id=waiter.id, revision=0))
        )
    )
    await wait_until(lambda: has_started(waiter_record.active_run))

    await driver.delete_session(waiter.id)

    with pytest.raises(RunCancelled) as caught:
        await waiting
    assert caught.value.reason == "session_deleted"
    assert "deleted" in caught.value.detail
    assert driver.store.get(waiter.id) is None
    assert holder_record.status == "running"
    assert driver.metrics.registry.get_sample_value("agentic_driver_provider_calls_total") is None

    await driver.cancel_run(holder_record.active_run.id)
    with pytest.raises(RunCancelled):
        await holding


async def test_only_the_runs_own_subject_with_the_continue_grant_can_cancel_a_session_run() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    alice = SessionPrincipal(subject="alice")
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"), alice)
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!sleep 10000", session=SessionHandle(id=session.id, revision=0)
            ),
            alice,
        )
    )
    await wait_until(lambda: model_work_started(record.active_run))
    run_id = record.active_run.id

    with pytest.raises(RunNotFound):
        await driver.cancel_run(run_id, SessionPrincipal(subject="mallory"))
    with pytest.raises(PermissionDenied, match="'continue'"):
        await driver.cancel_run(run_id, SessionPrincipal(subject="alice", grants=frozenset({"read"})))
    with pytest.raises(PermissionDenied, match="'echo'"):
        await driver.cancel_run(run_id, SessionPrincipal(subject="alice", providers=frozenset({"other"})))
    assert not running.done()
    assert record.active_run.id == run_id

    cancelled = await driver.cancel_run(run_id, alice)
    assert cancelled.session.status == "interrupted"
    with pytest.raises(RunCancelled):
        await running
    with pytest.raises(RunNotFound):
        await driver.cancel_run(run_id, alice)


async def test_delete_aborts_a_running_turn_after_model_work_started() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!sleep 10000", session=SessionHandle(id=session.id, revision=0)
            )
        )
    )
    await wait_until(lambda: model_work_started(record.active_run))

    await driver.delete_session(session.id)

    with pytest.raises(RunCancelled) as caught:
        await running
    assert caught.value.reason == "session_deleted"
    assert record.deleted is True
    assert len(driver.store) == 0
    assert provider_calls(driver, "cancelled") == 1
    with pytest.raises(SessionNotFound):
        await driver.read_session(session.id)


async def test_a_provider_failure_is_a_provider_error_and_interrupts_the_session() -> None:
    clock = ManualClock()
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock,
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    with pytest.raises(ProviderError) as caught:
        await driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!fail\nboom", session=SessionHandle(id=session.id, revision=0)
            )
        )

    assert "injected failure" in caught.value.detail
    assert caught.value.status == 502
    read = await driver.read_session(session.id)
    assert read.session.status == "interrupted"
    assert read.session.revision == 0
    assert read.interruptedTurn.reason == "failed"
    assert read.interruptedTurn.input == "!fail\nboom"
    assert read.history == []
    assert provider_calls(driver, "failed") == 1
    with pytest.raises(SessionInterrupted):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="retry", session=SessionHandle(id=session.id, revision=0))
        )
    assert provider_calls(driver, "failed") == 1


async def test_retention_is_suspended_while_a_turn_runs_and_counts_from_its_interruption() -> None:
    clock = ManualClock()
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock,
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!sleep 10000", session=SessionHandle(id=session.id, revision=0)
            )
        )
    )
    await wait_until(lambda: model_work_started(record.active_run))

    clock.advance(10 * 60_000)
    during = await driver.read_session(session.id)
    assert during.session.status == "running"
    assert during.session.expiresAt is None

    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await running
    after = await driver.read_session(session.id)
    assert after.session.expiresAt == format_ms(clock.now_ms() + 60_000)

    clock.advance(60_000)
    with pytest.raises(SessionNotFound):
        await driver.read_session(session.id)


async def test_a_turn_that_would_exceed_max_messages_is_refused_before_any_model_call() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000, maxMessages=2),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    await driver.run(
        RunRequest(provider="echo", model="echo-1", input="one", session=SessionHandle(id=session.id, revision=0))
    )

    with pytest.raises(SessionLimitExceeded) as caught:
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="two", session=SessionHandle(id=session.id, revision=1))
        )

    assert caught.value.limit == "maxMessages"
    assert caught.value.maximum == 2
    assert provider_calls(driver, "completed") == 1
    read = await driver.read_session(session.id)
    assert read.session.status == "ready"
    assert read.session.revision == 1
    assert len(read.history) == 2


async def test_native_items_over_max_native_messages_stop_the_turn_at_commit_with_the_limit_named() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000, maxNativeMessages=2),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session

    with pytest.raises(SessionLimitExceeded) as caught:  # one echo turn yields three native items
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="hello", session=SessionHandle(id=session.id, revision=0))
        )

    assert caught.value.limit == "maxNativeMessages"
    assert caught.value.maximum == 2
    read = await driver.read_session(session.id)
    assert read.session.revision == 0
    assert read.history == []
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "limit_exceeded"
    assert driver.store.get(session.id).native == []


async def test_cancel_that_arrives_before_the_run_task_first_steps_returns_the_session_to_ready() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
        )
    )
    # One loop turn: the run is admitted and its turn task created, but that task has not stepped yet.
    await asyncio.sleep(0)
    assert record.active_run is not None and not has_started(record.active_run)

    await driver.cancel_run(record.active_run.id)
    await asyncio.wait([running])

    assert record.status == "ready"
    assert record.active_run is None
    assert record.expires_ms is not None
    assert not running.cancelled() and isinstance(running.exception(), RunCancelled)


async def test_a_caller_cancelled_before_the_run_task_first_steps_leaves_the_session_ready() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
        )
    )
    await asyncio.sleep(0)
    assert record.active_run is not None and not has_started(record.active_run)

    running.cancel()
    await asyncio.wait([running])

    assert record.status == "ready"
    assert record.active_run is None
    assert record.expires_ms is not None
