"""Idempotency keys: the store's rules, and replay through the driver without a second model call.

Time-based expiry uses the injected ManualClock; concurrency uses asyncio tasks
and echo's ``!sleep``, with bounded polling instead of fixed sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.config import IdempotencyConfig, RunsConfig
from agentic_driver.errors import (
    HostBusy,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    ModelNotFound,
    PermissionDenied,
    ProviderError,
    RunCancelled,
    SessionBusy,
    SessionNotFound,
)
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    OutputDeltaEvent,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequest,
    RunStartedEvent,
    SessionHandle,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.turns.idempotency import IdempotencyStore, fingerprint

# -- the store ---------------------------------------------------------------------------


def store(clock: ManualClock | None = None, *, max_keys: int = 10, ttl_ms: int = 60_000) -> IdempotencyStore:
    return IdempotencyStore(max_keys=max_keys, ttl_ms=ttl_ms, clock=clock or ManualClock())


def test_a_new_key_is_claimed_and_a_finished_one_is_replayed_with_its_outcome() -> None:
    keys = store()
    digest = fingerprint("run", "", {"input": "hi"})

    assert keys.claim("alice", "k1", digest) is None
    keys.record("alice", "k1", result={"answer": 42}, session_id="ses_1", provider="echo", grant="continue", run_id="r")

    replay = keys.claim("alice", "k1", digest)
    assert replay is not None
    assert replay.done is True
    assert replay.result == {"answer": 42}
    assert replay.error is None
    assert (replay.session_id, replay.provider, replay.grant, replay.run_id) == ("ses_1", "echo", "continue", "r")
    assert keys.claim("alice", "k1", digest) is replay  # every repeat replays the same record


def test_a_recorded_error_is_replayed_too() -> None:
    keys = store()
    digest = fingerprint("run", "", {"input": "!fail"})
    keys.claim("alice", "k1", digest)
    failure = ProviderError("boom")

    keys.record("alice", "k1", error=failure)

    replay = keys.claim("alice", "k1", digest)
    assert replay is not None and replay.error is failure and replay.result is None


def test_a_repeat_while_the_first_request_is_still_running_is_in_use() -> None:
    keys = store()
    digest = fingerprint("run", "", {"input": "hi"})
    keys.claim("alice", "k1", digest)

    with pytest.raises(IdempotencyKeyInUse) as caught:
        keys.claim("alice", "k1", digest)

    assert caught.value.status == 409
    assert caught.value.retry_after_seconds == 1


def test_the_same_key_with_a_different_request_is_reused_whether_running_or_done() -> None:
    keys = store()
    keys.claim("alice", "k1", fingerprint("run", "", {"input": "hi"}))

    with pytest.raises(IdempotencyKeyReused) as caught:
        keys.claim("alice", "k1", fingerprint("run", "", {"input": "bye"}))
    assert caught.value.status == 422

    keys.record("alice", "k1", result="done")
    with pytest.raises(IdempotencyKeyReused):
        keys.claim("alice", "k1", fingerprint("run", "", {"input": "bye"}))


def test_release_forgets_a_claimed_key_so_a_retry_is_evaluated_afresh() -> None:
    keys = store()
    keys.claim("alice", "k1", fingerprint("run", "", {"input": "hi"}))

    keys.release("alice", "k1")

    assert keys.claim("alice", "k1", fingerprint("run", "", {"input": "another body"})) is None


def test_release_keeps_a_finished_record_and_ignores_unknown_keys_and_subjects() -> None:
    keys = store()
    digest = fingerprint("run", "", {"input": "hi"})
    keys.claim("alice", "k1", digest)
    keys.record("alice", "k1", result="done")

    keys.release("alice", "k1")
    keys.release("alice", "unknown")
    keys.release("nobody", "k1")

    replay = keys.claim("alice", "k1", digest)
    assert replay is not None and replay.result == "done"


def test_recording_a_forgotten_key_is_a_no_op() -> None:
    keys = store()
    digest = fingerprint("run", "", {"input": "hi"})
    keys.claim("alice", "k1", digest)
    keys.release("alice", "k1")

    keys.record("alice", "k1", result="late")
    keys.record("nobody", "k9", result="never claimed")

    assert keys.claim("alice", "k1", digest) is None  # claimed afresh, not replayed


def test_beyond_max_keys_the_oldest_key_of_that_subject_is_forgotten_first() -> None:
    keys = store(max_keys=2)
    digest = fingerprint("run", "", {"input": "hi"})
    for key in ("k1", "k2"):
        keys.claim("alice", key, digest)
        keys.record("alice", key, result=key)
    keys.claim("bob", "b1", digest)
    keys.record("bob", "b1", result="b1")

    keys.claim("alice", "k3", digest)
    keys.record("alice", "k3", result="k3")

    assert keys.claim("alice", "k1", digest) is None  # forgotten, so claimed afresh (which evicts k2)
    replay = keys.claim("alice", "k3", digest)
    assert replay is not None and replay.result == "k3"
    bob = keys.claim("bob", "b1", digest)  # another subject's keys do not count against alice's
    assert bob is not None and bob.result == "b1"


def test_a_key_expires_after_its_ttl_by_the_injected_clock() -> None:
    clock = ManualClock()
    keys = store(clock, ttl_ms=1_000)
    digest = fingerprint("run", "", {"input": "hi"})
    keys.claim("alice", "k1", digest)
    keys.record("alice", "k1", result="done")

    clock.advance(999)
    replay = keys.claim("alice", "k1", digest)
    assert replay is not None and replay.result == "done"

    clock.advance(1)
    assert keys.claim("alice", "k1", fingerprint("run", "", {"input": "other"})) is None  # expired: fresh


def test_a_claim_whose_request_still_runs_never_expires() -> None:
    clock = ManualClock()
    keys = store(clock, ttl_ms=1_000)
    digest = fingerprint("run", "", {"input": "hi"})
    keys.claim("alice", "k1", digest)

    clock.advance(10_000)  # a long turn: far past the ttl

    with pytest.raises(IdempotencyKeyInUse):
        keys.claim("alice", "k1", digest)


def test_the_ttl_counts_from_the_outcome() -> None:
    clock = ManualClock()
    keys = store(clock, ttl_ms=1_000)
    digest = fingerprint("run", "", {"input": "hi"})
    keys.claim("alice", "k1", digest)
    clock.advance(5_000)
    keys.record("alice", "k1", result="outcome")

    clock.advance(999)
    assert keys.claim("alice", "k1", digest).result == "outcome"
    clock.advance(1)
    assert keys.claim("alice", "k1", digest) is None


def test_eviction_keeps_keys_whose_requests_still_run() -> None:
    keys = store(max_keys=1)
    keys.claim("alice", "running", fingerprint("run", "", {"input": "a"}))
    keys.claim("alice", "second", fingerprint("run", "", {"input": "b"}))

    with pytest.raises(IdempotencyKeyInUse):
        keys.claim("alice", "running", fingerprint("run", "", {"input": "a"}))


def test_keys_are_per_subject() -> None:
    keys = store()
    keys.claim("alice", "shared", fingerprint("run", "", {"input": "alice's"}))
    keys.record("alice", "shared", result="alice's outcome")

    assert keys.claim("bob", "shared", fingerprint("run", "", {"input": "bob's"})) is None
    with pytest.raises(IdempotencyKeyInUse):
        keys.claim("bob", "shared", fingerprint("run", "", {"input": "bob's"}))
    replay = keys.claim("alice", "shared", fingerprint("run", "", {"input": "alice's"}))
    assert replay is not None and replay.result == "alice's outcome"


def test_the_fingerprint_covers_operation_target_and_body_but_not_key_order() -> None:
    base = fingerprint("submitRunActions", "run_1", {"a": 1, "b": [1, 2]})

    assert base == fingerprint("submitRunActions", "run_1", {"b": [1, 2], "a": 1})
    assert base != fingerprint("run", "run_1", {"a": 1, "b": [1, 2]})
    assert base != fingerprint("submitRunActions", "run_2", {"a": 1, "b": [1, 2]})
    assert base != fingerprint("submitRunActions", "run_1", {"a": 1, "b": [2, 1]})
    assert len(base) == 64


# -- through the driver --------------------------------------------------------------------


def make_driver(clock: ManualClock | None = None, **options: object) -> Driver:
    return Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock or ManualClock(),
        **options,  # type: ignore[arg-type]
    )


async def new_session(driver: Driver, principal: SessionPrincipal | None = None) -> str:
    request = CreateSessionRequest(provider="echo", model="echo-1", mode="history")
    created = await (driver.create_session(request) if principal is None else driver.create_session(request, principal))
    return created.session.id


def session_run(session_id: str, revision: int, text: str, **extra: object) -> RunRequest:
    return RunRequest(
        provider="echo",
        model="echo-1",
        input=text,
        session=SessionHandle(id=session_id, revision=revision),
        **extra,  # type: ignore[arg-type]
    )


def provider_calls(driver: Driver, outcome: str) -> float:
    value = driver.metrics.registry.get_sample_value(
        "agentic_driver_provider_calls_total", {"provider": "echo", "outcome": outcome}
    )
    return value or 0.0


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


async def test_a_repeated_run_replays_the_same_result_without_a_second_model_call() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    request = session_run(session_id, 0, "hello")

    first = await driver.run(request, idempotency_key="k1")
    again = await driver.run(session_run(session_id, 0, "hello"), idempotency_key="k1")

    assert again is first
    assert first.session.revision == 1
    assert provider_calls(driver, "completed") == 1
    read = await driver.read_session(session_id)
    assert read.session.revision == 1
    assert len(read.history) == 2


async def test_the_same_key_with_a_different_body_is_reused_and_runs_nothing() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    await driver.run(session_run(session_id, 0, "hello"), idempotency_key="k1")

    with pytest.raises(IdempotencyKeyReused):
        await driver.run(session_run(session_id, 1, "hello again"), idempotency_key="k1")

    assert provider_calls(driver, "completed") == 1
    assert (await driver.read_session(session_id)).session.revision == 1


async def test_a_repeat_while_the_first_run_is_still_going_is_in_use_and_not_busy() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    request = session_run(session_id, 0, "!sleep 10000\nslow")
    running = asyncio.create_task(driver.run(request, idempotency_key="k1"))
    await wait_until(lambda: record.active_run is not None and record.active_run.model_work_started)

    with pytest.raises(IdempotencyKeyInUse):
        await driver.run(session_run(session_id, 0, "!sleep 10000\nslow"), idempotency_key="k1")
    with pytest.raises(SessionBusy):  # the same body without the key is an ordinary second run
        await driver.run(session_run(session_id, 0, "!sleep 10000\nslow"))

    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await running
    with pytest.raises(RunCancelled):  # the recorded outcome of that key is the cancellation
        await driver.run(session_run(session_id, 0, "!sleep 10000\nslow"), idempotency_key="k1")
    assert provider_calls(driver, "cancelled") == 1


async def test_a_recorded_failure_is_replayed_as_the_same_error_without_calling_the_model_again() -> None:
    driver = make_driver()

    with pytest.raises(ProviderError) as first:
        await driver.run(RunRequest(provider="echo", model="echo-1", input="!fail"), idempotency_key="k1")
    with pytest.raises(ProviderError) as again:
        await driver.run(RunRequest(provider="echo", model="echo-1", input="!fail"), idempotency_key="k1")

    assert again.value is first.value
    assert provider_calls(driver, "failed") == 1


async def test_a_replay_after_the_session_was_deleted_is_not_found_and_recreates_nothing() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    request = session_run(session_id, 0, "hello")
    await driver.run(request, idempotency_key="k1")
    await driver.delete_session(session_id)

    with pytest.raises(SessionNotFound):
        await driver.run(session_run(session_id, 0, "hello"), idempotency_key="k1")

    assert len(driver.store) == 0
    assert provider_calls(driver, "completed") == 1


async def test_a_create_session_replay_returns_the_same_session_and_after_delete_is_not_found() -> None:
    driver = make_driver()
    request = CreateSessionRequest(provider="echo", model="echo-1", mode="history")

    first = await driver.create_session(request, idempotency_key="c1")
    again = await driver.create_session(
        CreateSessionRequest(provider="echo", model="echo-1", mode="history"), idempotency_key="c1"
    )

    assert again is first
    assert len(driver.store) == 1
    with pytest.raises(IdempotencyKeyReused):
        await driver.create_session(
            CreateSessionRequest(provider="echo", model="echo-1", mode="native"), idempotency_key="c1"
        )

    await driver.delete_session(first.session.id)
    with pytest.raises(SessionNotFound):
        await driver.create_session(request, idempotency_key="c1")
    assert len(driver.store) == 0


async def test_a_replay_re_checks_the_callers_current_grants() -> None:
    driver = make_driver()
    alice = SessionPrincipal(subject="alice")
    session_id = await new_session(driver, alice)
    await driver.run(session_run(session_id, 0, "hello"), alice, idempotency_key="k1")

    without_continue = SessionPrincipal(subject="alice", grants=frozenset({"read"}))
    with pytest.raises(PermissionDenied, match="'continue'"):
        await driver.run(session_run(session_id, 0, "hello"), without_continue, idempotency_key="k1")
    without_provider = SessionPrincipal(subject="alice", providers=frozenset({"other"}))
    with pytest.raises(PermissionDenied, match="'echo'"):
        await driver.run(session_run(session_id, 0, "hello"), without_provider, idempotency_key="k1")

    replay = await driver.run(session_run(session_id, 0, "hello"), alice, idempotency_key="k1")
    assert replay.session.revision == 1
    assert provider_calls(driver, "completed") == 1


async def test_keys_of_different_subjects_never_meet() -> None:
    driver = make_driver()
    alice, bob = SessionPrincipal(subject="alice"), SessionPrincipal(subject="bob")
    alice_session = await new_session(driver, alice)
    bob_session = await new_session(driver, bob)

    for_alice = await driver.run(session_run(alice_session, 0, "alice"), alice, idempotency_key="same")
    for_bob = await driver.run(session_run(bob_session, 0, "bob"), bob, idempotency_key="same")

    assert for_alice.output.text == "echo: alice"
    assert for_bob.output.text == "echo: bob"
    assert provider_calls(driver, "completed") == 2


async def test_a_refusal_before_admission_forgets_the_key() -> None:
    driver = make_driver()

    with pytest.raises(ModelNotFound):
        await driver.run(RunRequest(provider="echo", model="nope", input="hi"), idempotency_key="k1")
    result = await driver.run(RunRequest(provider="echo", model="echo-1", input="hi"), idempotency_key="k1")

    assert result.output.text == "echo: hi"  # neither IDEMPOTENCY_KEY_REUSED nor a replayed refusal


async def test_a_run_refused_as_busy_can_be_retried_with_the_same_key_once_there_is_room() -> None:
    driver = make_driver(max_concurrent_runs=1, max_queued_runs=0)
    holding = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 10000")))
    await wait_until(lambda: driver.slots.in_use == 1)
    request = RunRequest(provider="echo", model="echo-1", input="retried")

    with pytest.raises(HostBusy):
        await driver.run(request, idempotency_key="k1")
    holding.cancel()
    await asyncio.wait([holding])
    await wait_until(lambda: driver.slots.in_use == 0)

    result = await driver.run(RunRequest(provider="echo", model="echo-1", input="retried"), idempotency_key="k1")
    assert result.output.text == "echo: retried"


async def test_an_idempotent_key_expires_with_its_ttl_and_then_runs_again() -> None:
    clock = ManualClock()
    driver = make_driver(clock, idempotency=IdempotencyConfig(maxKeys=10, ttlMs=5_000))
    request = RunRequest(provider="echo", model="echo-1", input="hi")
    first = await driver.run(request, idempotency_key="k1")

    clock.advance(5_000)
    second = await driver.run(RunRequest(provider="echo", model="echo-1", input="hi"), idempotency_key="k1")

    assert second is not first
    assert second.id != first.id
    assert provider_calls(driver, "completed") == 2


async def test_a_streamed_run_is_replayed_with_its_original_events_and_ids_while_its_run_is_kept() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    stream = await driver.stream_run(session_run(session_id, 0, "!chunks 3\nhi there"), idempotency_key="k")
    events = [(event, stream.event_id) async for event in stream]
    assert isinstance(events[-1][0], RunCompletedEvent)

    replay = await driver.stream_run(session_run(session_id, 0, "!chunks 3\nhi there"), idempotency_key="k")
    replayed = [(event, replay.event_id) async for event in replay]

    assert [(type(e), i) for e, i in replayed] == [(type(e), i) for e, i in events]
    assert [i for _, i in replayed] == [1, 2, 3, 4, 5]
    assert replayed[-1][0].run == events[-1][0].run
    assert provider_calls(driver, "completed") == 1
    assert (await driver.read_session(session_id)).session.revision == 1


async def test_once_its_run_is_forgotten_a_streamed_run_is_replayed_as_its_outcome_with_its_original_id() -> None:
    clock = ManualClock()
    driver = make_driver(clock, runs=RunsConfig(retentionMs=1_000))
    session_id = await new_session(driver)
    stream = await driver.stream_run(session_run(session_id, 0, "!chunks 3\nhi there"), idempotency_key="k")
    completed = [event async for event in stream][-1]
    clock.advance(1_000)  # runs.retentionMs

    replay = await driver.stream_run(session_run(session_id, 0, "!chunks 3\nhi there"), idempotency_key="k")
    replayed = [event async for event in replay]

    assert [type(e) for e in replayed] == [RunCompletedEvent]
    assert replay.event_id == 5  # the id the outcome had in its run's events
    assert replayed[0].run is completed.run
    assert provider_calls(driver, "completed") == 1


async def test_a_json_run_and_a_streamed_run_with_the_same_key_and_body_share_one_outcome() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    result = await driver.run(session_run(session_id, 0, "hi"), idempotency_key="k")

    replayed = [event async for event in await driver.stream_run(session_run(session_id, 0, "hi"), idempotency_key="k")]

    assert [type(e) for e in replayed] == [RunStartedEvent, OutputDeltaEvent, RunCompletedEvent]
    assert replayed[-1].run is result
    assert provider_calls(driver, "completed") == 1


async def test_a_streamed_replay_checks_access_when_called_not_when_iterated() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    async for _ in await driver.stream_run(session_run(session_id, 0, "hi"), idempotency_key="k"):
        pass
    await driver.delete_session(session_id)

    with pytest.raises(SessionNotFound):  # raised by stream_run itself, so HTTP can answer 404, not a stream
        await driver.stream_run(session_run(session_id, 0, "hi"), idempotency_key="k")


async def test_a_streamed_replay_of_a_failed_run_is_a_failed_event() -> None:
    driver = make_driver()
    request = RunRequest(provider="echo", model="echo-1", input="!fail")
    original = [event async for event in await driver.stream_run(request, idempotency_key="k")]
    assert isinstance(original[-1], RunFailedEvent)

    replayed = [event async for event in await driver.stream_run(request, idempotency_key="k")]

    assert [type(e) for e in replayed] == [type(e) for e in original]
    assert isinstance(replayed[-1], RunFailedEvent)
    assert replayed[-1].problem == original[-1].problem
    assert replayed[-1].runId == original[-1].runId
    assert provider_calls(driver, "failed") == 1


async def test_submit_run_actions_replays_its_outcome_even_after_the_run_has_ended() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    tools = [ToolDefinition(name="lookup", parameters={"type": "object"})]
    paused = await driver.run(session_run(session_id, 0, '!call lookup {"q": 1}\nwhat', tools=tools))
    call_id = paused.requiredAction.calls[0].callId
    answer = SubmitRunActionsRequest(functionResults=[FunctionResult(callId=call_id, output="42")])

    finished = await driver.submit_run_actions(paused.id, answer, idempotency_key="a1")
    again = await driver.submit_run_actions(
        paused.id,
        SubmitRunActionsRequest(functionResults=[FunctionResult(callId=call_id, output="42")]),
        idempotency_key="a1",
    )

    assert again is finished
    assert finished.output.text == "echo: what | lookup -> 42"
    with pytest.raises(IdempotencyKeyReused):
        await driver.submit_run_actions(
            paused.id,
            SubmitRunActionsRequest(functionResults=[FunctionResult(callId=call_id, output="43")]),
            idempotency_key="a1",
        )
    await driver.delete_session(session_id)
    with pytest.raises(SessionNotFound):
        await driver.submit_run_actions(paused.id, answer, idempotency_key="a1")
    assert provider_calls(driver, "completed") == 1
