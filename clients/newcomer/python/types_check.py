"""Type-checked only (``mypy --strict --disallow-any-expr`` against the installed wheel), never run.

Every public call a newcomer makes has a precise type: ``assert_type`` fails the
check if any of them is ``Any`` or wider than documented.
"""

from __future__ import annotations

from typing import assert_type

import httpx

from agentic_driver_client.models import (
    ApprovalsAction,
    CancelRunResponse,
    Discovery,
    FunctionCallsAction,
    InterruptedTurn,
    ReadSessionResponse,
    RunCompletedEvent,
    RunResult,
    RunStartedEvent,
    RunState,
    SessionHandle,
    SessionInfo,
)
from agentic_driver_sdk import (
    AgenticDriver,
    AgenticDriverError,
    AsyncAgenticDriver,
    AsyncRunStream,
    Event,
    RawResponse,
    RunEventsExpiredError,
    RunStream,
    SessionBusyError,
    SessionRevisionConflictError,
    SessionRunResult,
    handle,
)


def sync_calls(client: AgenticDriver, session: SessionInfo) -> None:
    assert_type(client.discovery(), Discovery)
    assert_type(client.sessions.create(provider="echo", model="echo-1"), SessionInfo)
    assert_type(client.sessions.read(session.id), ReadSessionResponse)
    assert_type(client.sessions.truncate(session, keep_turns=1), SessionInfo)
    assert_type(client.sessions.fork(session), SessionInfo)
    assert_type(client.sessions.fork(session.id, revision=0, idempotency_key="k"), SessionInfo)
    assert_type(client.sessions.wait_until_idle(session.id, timeout=5.0), ReadSessionResponse)
    assert_type(client.sessions.delete(session.id), None)
    result = client.run(provider="echo", model="echo-1", input="Hi", session=session)
    assert_type(result, SessionRunResult)
    assert_type(result.session, SessionInfo)
    assert_type(result.session.handle, SessionHandle)
    assert_type(result.session.revision, int)
    assert_type(handle(result.session), SessionHandle)
    assert_type(client.run(provider="echo", model="echo-1", input="Hi"), RunResult)
    assert_type(
        client.runs.create(provider="echo", model="echo-1", input="Hi", session=result.session), SessionRunResult
    )
    assert_type(client.runs.submit_actions("run_1", function_results={"call_1": "42"}), RunResult)
    assert_type(client.runs.cancel("run_1"), CancelRunResponse)
    stream = client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session)
    assert_type(stream, RunStream[SessionRunResult])
    with stream as opened:
        assert_type(opened, RunStream[SessionRunResult])
        for event in opened:
            assert_type(event, Event)
    assert_type(stream.final_run(), SessionRunResult)
    assert_type(stream.response, httpx.Response)
    assert_type(client.runs.stream(provider="echo", model="echo-1", input="Hi").final_run(), RunResult)
    assert_type(stream.last_event_id, int | None)
    assert_type(stream.run_id, str | None)
    resumable = client.runs.stream(provider="echo", model="echo-1", input="Hi", on_disconnect="continue")
    assert_type(resumable, RunStream[RunResult])
    answered = client.runs.stream_actions("run_1", function_results={"call_1": "42"}, on_disconnect="continue")
    assert_type(answered, RunStream[RunResult])
    assert_type(client.runs.submit_actions("run_1", approvals={"call_1": True}, on_disconnect="cancel"), RunResult)
    assert_type(client.runs.retrieve("run_1"), RunState)
    assert_type(client.runs.events("run_1", last_event_id=3), RunStream[RunResult])
    assert_type(client.runs.events("run_1").final_run(), RunResult)
    assert_type(client.with_raw_response.runs.retrieve("run_1"), RawResponse[RunState])
    raw = client.with_raw_response.run(provider="echo", model="echo-1", input="Hi", session=session)
    assert_type(raw, RawResponse[SessionRunResult])
    assert_type(raw.status_code, int)
    assert_type(raw.headers, httpx.Headers)
    assert_type(raw.parse(), SessionRunResult)
    assert_type(client.with_raw_response.sessions.create(provider="echo", model="echo-1"), RawResponse[SessionInfo])


def optional_fields(client: AgenticDriver, session: SessionInfo) -> None:
    """What an answer may leave out reads None, so the natural ``is not None`` check narrows (events too)."""
    result = client.runs.submit_actions("run_1", function_results={"call_1": "42"})
    assert_type(result.session, SessionInfo | None)
    if result.session is not None:
        assert_type(result.session.revision, int)
    with client.runs.stream(provider="echo", model="echo-1", input="Hi") as stream:
        for event in stream:
            if isinstance(event, RunCompletedEvent) and event.run.session is not None:
                assert_type(event.run.session.id, str)
            if isinstance(event, RunStartedEvent):
                assert_type(event.session, SessionInfo | None)
    read = client.sessions.read(session.id)
    assert_type(read.interrupted_turn, InterruptedTurn | None)
    state = client.runs.retrieve("run_1")
    if state.result is not None and state.result.required_action is not None:
        assert_type(state.result.required_action, ApprovalsAction | FunctionCallsAction)


def errors(error: AgenticDriverError) -> None:
    if isinstance(error, SessionRevisionConflictError):
        assert_type(error.current_revision, int)
        assert_type(error.code, str | None)
        assert_type(error.status_code, int)
        assert_type(error.headers, httpx.Headers)
        assert_type(error.retry_after, float | None)
    if isinstance(error, SessionBusyError):
        assert_type(error.active_run_id, str)
    if isinstance(error, RunEventsExpiredError):
        assert_type(error.first_event_id, int)


async def async_calls(client: AsyncAgenticDriver, session: SessionInfo) -> None:
    result = await client.run(provider="echo", model="echo-1", input="Hi", session=session)
    assert_type(result, SessionRunResult)
    assert_type(await client.run(provider="echo", model="echo-1", input="Hi"), RunResult)
    assert_type(await client.sessions.wait_until_idle(session.id), ReadSessionResponse)
    assert_type(await client.sessions.fork(session, revision=1), SessionInfo)
    stream = client.runs.stream(provider="echo", model="echo-1", input="Hi", session=result.session)
    assert_type(stream, AsyncRunStream[SessionRunResult])
    async with stream:
        async for event in stream:
            assert_type(event, Event)
    assert_type(await stream.final_run(), SessionRunResult)
    assert_type(stream.last_event_id, int | None)
    assert_type(await client.runs.retrieve("run_1"), RunState)
    rest = client.runs.events("run_1", last_event_id=stream.last_event_id)
    assert_type(rest, AsyncRunStream[RunResult])
    assert_type(await rest.final_run(), RunResult)
    raw = await client.with_raw_response.sessions.read(session.id)
    assert_type(raw, RawResponse[ReadSessionResponse])
