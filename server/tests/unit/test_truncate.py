"""Recorded turns and explicit prefix truncation, through the embedded Driver (and the store underneath).

A truncation keeps the first ``keepTurns`` turns exactly as they were (visible history, native items byte for
byte, the byte count they had), advances the revision by one, follows a run's conflict and busy rules, and is
how an interrupted session becomes ready again. Accounting is covered in test_accounting.py.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.clock import format_ms
from agentic_driver.errors import (
    PermissionDenied,
    ProviderError,
    RunCancelled,
    SessionBusy,
    SessionInterrupted,
    SessionNotFound,
    SessionRevisionConflict,
    SessionsDisabled,
    ValidationFailed,
)
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    Message,
    RunRequest,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
    TruncateSessionRequest,
    Turn,
)
from agentic_driver.providers import VisibleMessage
from agentic_driver.sessions import Owner, SessionStore, TurnGrowth
from agentic_driver.sessions.records import message_bytes

LOOKUP = ToolDefinition(name="lookup", description="Look it up.", parameters={"type": "object"})
IMPORTED = [Message(role="user", content="My name is Ada."), Message(role="assistant", content="Hello Ada.")]
INSTRUCTIONS = "Remember names."


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


def make_driver(clock: ManualClock | None = None, **sessions: Any) -> Driver:
    return Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000, **sessions),
        clock=clock or ManualClock(),
    )


def session_run(session: SessionInfo, text: str, revision: int | None = None, **extra: Any) -> RunRequest:
    handle = SessionHandle(id=session.id, revision=session.revision if revision is None else revision)
    return RunRequest(provider="echo", model="echo-1", input=text, session=handle, **extra)


def truncate(session: SessionInfo | str, revision: int, keep: int) -> tuple[str, TruncateSessionRequest]:
    session_id = session if isinstance(session, str) else session.id
    return session_id, TruncateSessionRequest(revision=revision, keepTurns=keep)


@dataclass
class Snapshot:
    """What a session was right after a turn committed (or at creation, for index 0)."""

    info: SessionInfo
    history: list[Message]
    native: list[str]
    turns: list[Turn]


async def snapshot(driver: Driver, session_id: str) -> Snapshot:
    read = await driver.read_session(session_id)
    return Snapshot(read.session, list(read.history), list(driver.store.get(session_id).native), list(read.turns))


async def three_native_turns(driver: Driver, clock: ManualClock) -> tuple[str, list[Snapshot]]:
    """A native session with imported history and three turns, the second one with a tool exchange."""
    created = await driver.create_session(
        CreateSessionRequest(
            provider="echo", model="echo-1", mode="native", instructions=INSTRUCTIONS, history=IMPORTED
        )
    )
    session_id = created.session.id
    snapshots = [await snapshot(driver, session_id)]
    clock.advance(1_000)
    info = (await driver.run(session_run(created.session, "I like tea."))).session
    snapshots.append(await snapshot(driver, session_id))
    clock.advance(1_000)
    paused = await driver.run(session_run(info, '!call lookup {"q": "tea"}\nWhat is tea?', tools=[LOOKUP]))
    answer = FunctionResult(callId=paused.requiredAction.calls[0].callId, output="a drink")
    info = (await driver.submit_run_actions(paused.id, SubmitRunActionsRequest(functionResults=[answer]))).session
    snapshots.append(await snapshot(driver, session_id))
    clock.advance(1_000)
    await driver.run(session_run(info, "I also like coffee."))
    snapshots.append(await snapshot(driver, session_id))
    clock.advance(1_000)
    return session_id, snapshots


# -- recorded turns ------------------------------------------------------------------------------------


async def test_each_recorded_turn_names_its_revision_run_time_and_the_history_slice_it_added() -> None:
    clock = ManualClock()
    driver = make_driver(clock)
    created = await driver.create_session(
        CreateSessionRequest(provider="echo", model="echo-1", mode="history", history=IMPORTED)
    )
    results = []
    times = []
    info = created.session
    for text in ("one", "two", "three"):
        clock.advance(1_234)
        times.append(format_ms(clock.now_ms()))
        result = await driver.run(session_run(info, text))
        results.append(result)
        info = result.session

    read = await driver.read_session(info.id)

    assert read.turns == [
        Turn(revision=i + 1, runId=r.id, start=2 + 2 * i, end=4 + 2 * i, at=times[i]) for i, r in enumerate(results)
    ]
    for turn, text, result in zip(read.turns, ("one", "two", "three"), results, strict=True):
        assert read.history[turn.start : turn.end] == [
            Message(role="user", content=text),
            Message(role="assistant", content=result.output.text),
        ]
    assert read.history[: read.turns[0].start] == IMPORTED  # imported history belongs to no turn
    assert len(read.turns) == read.session.runCount == 3


async def test_a_failed_turn_records_no_turn_but_counts_as_a_run() -> None:
    driver = make_driver()
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    first = await driver.run(session_run(created.session, "one"))
    with pytest.raises(ProviderError):
        await driver.run(session_run(first.session, "!fail\ntwo"))

    read = await driver.read_session(created.session.id)

    assert [t.runId for t in read.turns] == [first.id]
    assert read.session.runCount == 2


async def test_after_truncation_len_turns_and_run_count_differ() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    for text in ("one", "two", "three"):
        info = (await driver.run(session_run(info, text))).session

    kept = await driver.truncate_session(*truncate(info, 3, 1))
    read = await driver.read_session(info.id)

    assert (len(read.turns), read.session.runCount) == (1, 3)
    assert kept.session.runCount == 3
    after = await driver.run(session_run(kept.session, "four"))
    read = await driver.read_session(info.id)
    assert (len(read.turns), read.session.runCount) == (2, 4)
    # the new turn is recorded at the revision it produced, right after the kept prefix
    assert read.turns[-1] == Turn(revision=5, runId=after.id, start=2, end=4, at=read.turns[-1].at)


# -- truncation: exact prefixes ----------------------------------------------------------------------


@pytest.mark.parametrize("keep", [0, 1, 2, 3])
async def test_truncation_keeps_an_exact_prefix_and_the_next_native_turn_still_verifies(keep: int) -> None:
    clock = ManualClock()
    driver = make_driver(clock)
    session_id, snapshots = await three_native_turns(driver, clock)
    full = snapshots[-1]
    expected = snapshots[keep]

    kept = (await driver.truncate_session(*truncate(session_id, 3, keep))).session

    assert kept.revision == 4  # advances by exactly one
    assert kept.status == "ready"
    assert kept.updatedAt == format_ms(clock.now_ms())
    assert kept.expiresAt == format_ms(clock.now_ms() + 60_000)
    read = await driver.read_session(session_id)
    assert read.history == expected.history == full.history[: len(expected.history)]
    assert read.turns == expected.turns == full.turns[:keep]
    assert read.instructions == INSTRUCTIONS
    native = driver.store.get(session_id).native
    assert native == expected.native == full.native[: len(expected.native)]  # byte-identical native items
    assert kept.recordBytes == expected.info.recordBytes  # recomputed: what the record held at that turn
    assert kept.messageCount == len(expected.history)

    # a cut never separates a tool call from its result: every kept call has its output right after it
    bodies = [json.loads(item) for item in native]
    calls = [b["call_id"] for b in bodies if b["type"] == "function_call"]
    outputs = [b["call_id"] for b in bodies if b["type"] == "function_call_output"]
    assert calls == outputs
    assert len(calls) == (1 if keep >= 2 else 0)
    call_at = [i for i, b in enumerate(bodies) if b["type"] == "function_call"]
    assert all(bodies[i + 1]["type"] == "function_call_output" for i in call_at)

    # the same echo instance verifies every kept signed item on the next native turn
    recall = await driver.run(session_run(kept, "!recall"))
    last_user = expected.history[-2].content if keep else "My name is Ada."
    exchanges = "; tool exchanges: 1" if keep >= 2 else ""
    assert recall.output.text == f"recall: {len(expected.history)} messages; last user: {last_user}{exchanges}"
    assert recall.session.revision == 5


async def test_truncating_to_every_turn_changes_nothing_but_the_revision() -> None:
    clock = ManualClock()
    driver = make_driver(clock)
    session_id, snapshots = await three_native_turns(driver, clock)

    kept = (await driver.truncate_session(*truncate(session_id, 3, 3))).session

    assert kept.revision == 4
    assert kept.recordBytes == snapshots[3].info.recordBytes
    assert (await driver.read_session(session_id)).history == snapshots[3].history


async def test_truncation_keeps_the_imported_history_of_a_history_mode_session() -> None:
    driver = make_driver()
    created = await driver.create_session(
        CreateSessionRequest(provider="echo", model="echo-1", mode="history", instructions="Hi.", history=IMPORTED)
    )
    at_creation = created.session.recordBytes
    info = (await driver.run(session_run(created.session, "one"))).session

    kept = (await driver.truncate_session(*truncate(info, 1, 0))).session

    read = await driver.read_session(info.id)
    assert read.history == IMPORTED
    assert read.turns == []
    assert (
        kept.recordBytes
        == at_creation
        == len(b"Hi.") + sum(message_bytes(VisibleMessage(m.role, m.content)) for m in IMPORTED)
    )
    recall = await driver.run(session_run(kept, "!recall"))
    assert recall.output.text == "recall: 2 messages; last user: My name is Ada."


async def test_a_session_without_turns_can_be_truncated_to_zero_and_its_revision_advances() -> None:
    driver = make_driver()
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))

    kept = (await driver.truncate_session(*truncate(created.session, 0, 0))).session

    assert (kept.revision, kept.messageCount, kept.runCount) == (1, 0, 0)
    with pytest.raises(SessionRevisionConflict):
        await driver.run(session_run(created.session, "at the old revision"))
    assert (await driver.run(session_run(kept, "now"))).session.revision == 2


# -- truncation: the rules of a run --------------------------------------------------------------------


async def test_a_stale_revision_is_a_conflict_naming_the_current_one_and_changes_nothing() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    info = (await driver.run(session_run(info, "one"))).session

    for stale in (0, 2):
        with pytest.raises(SessionRevisionConflict) as caught:
            await driver.truncate_session(*truncate(info, stale, 0))
        assert caught.value.current_revision == 1
        assert caught.value.problem()["currentRevision"] == 1
    read = await driver.read_session(info.id)
    assert (read.session.revision, len(read.history), len(read.turns)) == (1, 2, 1)


async def test_keep_turns_beyond_the_recorded_turns_is_a_validation_error_at_body_keep_turns() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    info = (await driver.run(session_run(info, "one"))).session

    with pytest.raises(ValidationFailed) as caught:
        await driver.truncate_session(*truncate(info, 1, 2))

    assert caught.value.status == 422
    assert caught.value.problem()["errors"] == [{"location": "body.keepTurns", "message": "at most 1"}]
    assert (await driver.read_session(info.id)).session.revision == 1


async def test_truncation_while_a_turn_runs_is_busy_naming_the_run() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    info = (await driver.run(session_run(info, "one"))).session
    record = driver.store.get(info.id)
    running = asyncio.create_task(driver.run(session_run(info, "!sleep 10000\nslow")))
    await wait_until(lambda: record.active_run is not None and record.active_run.model_work_started)

    with pytest.raises(SessionBusy) as caught:
        await driver.truncate_session(*truncate(info, 1, 0))

    assert caught.value.active_run_id == record.active_run.id
    assert (record.revision, len(record.history), record.status) == (1, 2, "running")
    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await running


async def test_truncation_while_a_turn_waits_for_function_results_is_busy_and_the_turn_still_completes() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))).session
    info = (await driver.run(session_run(info, "one"))).session
    paused = await driver.run(session_run(info, "!call lookup {}\nx", tools=[LOOKUP]))
    assert paused.status == "requires_action"

    with pytest.raises(SessionBusy) as caught:
        await driver.truncate_session(*truncate(info, 1, 0))

    assert caught.value.active_run_id == paused.id
    answer = FunctionResult(callId=paused.requiredAction.calls[0].callId, output="y")
    done = await driver.submit_run_actions(paused.id, SubmitRunActionsRequest(functionResults=[answer]))
    assert done.session.revision == 2
    assert len((await driver.read_session(info.id)).turns) == 2


async def test_a_run_waiting_for_a_slot_makes_truncation_busy_too() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
        max_concurrent_runs=1,
    )
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    holder = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 10000\nhold")))
    await wait_until(lambda: driver.slots.in_use == 1)
    queued = asyncio.create_task(driver.run(session_run(info, "queued")))
    await wait_until(lambda: driver.slots.waiting == 1)

    with pytest.raises(SessionBusy):
        await driver.truncate_session(*truncate(info, 0, 0))

    record = driver.store.get(info.id)
    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await queued
    holder.cancel()
    await asyncio.wait([holder])


@pytest.mark.parametrize("keep", [2, 1, 0])
async def test_an_interrupted_session_truncated_to_a_good_turn_is_ready_and_a_new_run_succeeds(keep: int) -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))).session
    info = (await driver.run(session_run(info, "one"))).session
    info = (await driver.run(session_run(info, "two"))).session
    with pytest.raises(ProviderError):
        await driver.run(session_run(info, "!fail\nthree"))
    with pytest.raises(SessionInterrupted):
        await driver.run(session_run(info, "refused"))
    interrupted = await driver.read_session(info.id)
    assert interrupted.session.status == "interrupted"
    assert interrupted.interruptedTurn is not None

    kept = (await driver.truncate_session(*truncate(info, 2, keep))).session

    assert (kept.status, kept.revision, kept.messageCount) == ("ready", 3, 2 * keep)
    read = await driver.read_session(info.id)
    assert "interruptedTurn" not in read.model_dump()
    done = await driver.run(session_run(kept, "!recall"))
    assert done.output.text.startswith(f"recall: {2 * keep} messages")
    assert (done.session.revision, done.session.status) == (4, "ready")


async def test_an_interrupted_session_still_refuses_a_stale_truncation() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    info = (await driver.run(session_run(info, "one"))).session
    with pytest.raises(ProviderError):
        await driver.run(session_run(info, "!fail\ntwo"))

    with pytest.raises(SessionRevisionConflict):
        await driver.truncate_session(*truncate(info, 0, 1))

    assert (await driver.read_session(info.id)).session.status == "interrupted"


# -- who may truncate ------------------------------------------------------------------------------------


async def test_truncation_needs_the_continue_grant_and_nothing_else() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    info = (await driver.run(session_run(info, "one"))).session
    without_continue = SessionPrincipal(grants=frozenset({"create", "read", "delete"}))
    only_continue = SessionPrincipal(grants=frozenset({"continue"}))

    with pytest.raises(PermissionDenied, match="'continue'"):
        await driver.truncate_session(*truncate(info, 1, 0), without_continue)
    assert (await driver.read_session(info.id)).session.revision == 1

    kept = await driver.truncate_session(*truncate(info, 1, 0), only_continue)
    assert kept.session.revision == 2


async def test_another_subjects_session_is_not_found_and_a_provider_not_granted_is_denied() -> None:
    driver = make_driver()
    info = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session

    with pytest.raises(SessionNotFound):
        await driver.truncate_session(*truncate(info, 0, 0), SessionPrincipal(subject="bob"))
    with pytest.raises(SessionNotFound):
        await driver.truncate_session(*truncate("ses_unknown", 0, 0))
    with pytest.raises(PermissionDenied):
        await driver.truncate_session(*truncate(info, 0, 0), SessionPrincipal(providers=frozenset({"other"})))
    assert (await driver.read_session(info.id)).session.revision == 0


async def test_truncation_without_a_session_store_is_sessions_disabled() -> None:
    driver = Driver([EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")], clock=ManualClock())

    with pytest.raises(SessionsDisabled):
        await driver.truncate_session(*truncate("ses_any", 0, 0))


# -- the store underneath ----------------------------------------------------------------------------


def test_store_truncate_restarts_retention_and_recomputes_bytes_from_what_is_kept() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock)
    owner = Owner(subject="local", provider="echo", account="acct-1", model="echo-1")
    record = store.create(owner, "native", "Be brief.", [VisibleMessage("user", "imported")])
    at_creation = record.record_bytes
    store.begin_turn(record)
    store.commit_turn(
        record,
        TurnGrowth("run_1", (VisibleMessage("user", "a"), VisibleMessage("assistant", "b")), ("item-1", "item-2")),
    )
    after_one = record.record_bytes
    store.begin_turn(record)
    store.commit_turn(
        record, TurnGrowth("run_2", (VisibleMessage("user", "c"), VisibleMessage("assistant", "d")), ("x",))
    )
    clock.advance(5_000)

    store.truncate(record, 1)
    assert (record.revision, record.native, record.record_bytes) == (3, ["item-1", "item-2"], after_one)
    assert record.expires_ms == clock.now_ms() + 60_000
    assert [t.native_end for t in record.turns] == [2]

    store.truncate(record, 0)
    assert record.history == [VisibleMessage("user", "imported")]
    assert (record.native, list(record.turns), record.record_bytes, record.revision) == ([], [], at_creation, 4)
