"""Streamed runs (streamRun): deltas in order, the SSE wire format and heartbeats, refusals as plain
problem responses, disconnects (stream and JSON), a session deleted mid-stream, and the idle timeout."""

from __future__ import annotations

import time

import httpx
import pytest
from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import delete_session, read_session
from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent, RunFailedEvent, RunStartedEvent
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    Host,
    acollect,
    anew_session,
    aread_ok,
    arun_ok,
    assert_problem,
    kinds,
    new_session,
    read_ok,
    read_sse,
    run_ok,
    run_request,
    wait_for_status,
)
from .sse import ProblemError, astream_run, stream_run


def test_token_by_token(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        warm_up = run_ok(alice, run_request("Warm up", session))
        assert not isinstance(warm_up.session, Unset)
        calls_before = actions_host.provider_calls("echo")
        text = "!chunks 5\nTell me a story about streams"

        with stream_run(alice, run_request(text, warm_up.session)) as events:
            received = list(events)

        assert kinds(received) == ["run.started"] + ["output.delta"] * 5 + ["run.completed"]
        started, *deltas, completed = received
        assert isinstance(started, RunStartedEvent)
        assert started.run_id.startswith("run_")
        assert not isinstance(started.session, Unset)
        assert (started.session.id, started.session.revision) == (session.id, 1)
        assert started.session.status.value == "running"
        assert started.session.expires_at is None  # retention is suspended while the turn is active

        assert all(isinstance(d, OutputDeltaEvent) and d.run_id == started.run_id and d.text for d in deltas)
        assert isinstance(completed, RunCompletedEvent)
        result = completed.run
        assert result.id == started.run_id
        assert result.status.value == "completed"
        assert "".join(d.text for d in deltas) == result.output.text == "echo: Tell me a story about streams"
        assert not isinstance(result.session, Unset)
        assert (result.session.revision, result.session.status.value) == (2, "ready")
        assert result.session.expires_at is not None

        read = read_ok(alice, session.id)
        assert read.session.revision == 2
        assert [m.content for m in read.history][-2:] == [text, result.output.text]
        assert read.turns[-1].run_id == result.id
        assert actions_host.provider_calls("echo") == calls_before + 1


def test_wire_format_ids_and_heartbeats(heartbeat_host: Host) -> None:
    """Raw SSE: every event has an increasing id and event == type; silences carry ``: keep-alive``."""
    with heartbeat_host.client(ALICE) as alice:
        session = new_session(alice)
    body = run_request("!chunks 3\n!sleep 250\nSlow and steady", session).to_dict()
    with heartbeat_host.raw(ALICE) as http, http.stream("POST", "/v1/runs/stream", json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].split(";")[0] == "text/event-stream"
        assert response.headers["cache-control"] == "no-cache"
        wire = read_sse(response.iter_lines())

    events = [m for m in wire if m.comment is None]
    assert [m.event for m in events] == ["run.started", "output.delta", "output.delta", "output.delta", "run.completed"]
    ids = [int(m.id or "") for m in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids), ids
    assert all(m.json()["type"] == m.event for m in events)
    assert "".join(m.json()["text"] for m in events[1:4]) == events[-1].json()["run"]["output"]["text"]

    comments = [m.comment for m in wire if m.comment is not None]
    assert set(comments) == {": keep-alive"}
    # each 250 ms silence before a delta is longer than heartbeatMs (50): a heartbeat arrived within it
    kinds_in_order = ["comment" if m.comment is not None else m.event for m in wire]
    delta_positions = [i for i, kind in enumerate(kinds_in_order) if kind == "output.delta"]
    previous = 0
    for position in delta_positions:
        assert "comment" in kinds_in_order[previous:position], kinds_in_order
        previous = position


def test_streaming_client_ignores_heartbeats(heartbeat_host: Host) -> None:
    with (
        heartbeat_host.client(ALICE) as alice,
        stream_run(alice, run_request("!chunks 2\n!sleep 200\nPatience")) as events,
    ):
        received = list(events)
    assert kinds(received) == ["run.started", "output.delta", "output.delta", "run.completed"]


def test_every_delta_arrives_when_the_reader_is_behind(actions_host: Host) -> None:
    """64 deltas fill the run's channel before the stream reads any (the echo provider never yields in between)."""
    text = "".join(f"{i:03d}," for i in range(64))
    with actions_host.client(ALICE) as alice, stream_run(alice, run_request(f"!chunks 64\n{text}")) as events:
        received = list(events)
    completed = received[-1]
    assert isinstance(completed, RunCompletedEvent)
    deltas = [e.text for e in received if isinstance(e, OutputDeltaEvent)]
    assert "".join(deltas) == completed.run.output.text == f"echo: {text}"
    assert len(deltas) == 64


def test_refusals_before_the_stream_are_problem_responses(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice, actions_host.raw(ALICE) as http:
        session = new_session(alice)
        first = run_ok(alice, run_request("One", session))
        assert not isinstance(first.session, Unset)
        calls_before = actions_host.provider_calls("echo")

        stale = run_request("Two", session, revision=0).to_dict()
        assert_problem(http.post("/v1/runs/stream", json=stale), 409, "SESSION_REVISION_CONFLICT", currentRevision=1)
        unknown = {**stale, "session": {"id": "ses_doesnotexist0000000000", "revision": 0}}
        assert_problem(http.post("/v1/runs/stream", json=unknown), 404, "SESSION_NOT_FOUND")
        no_input = {k: v for k, v in stale.items() if k != "input"}
        assert_problem(http.post("/v1/runs/stream", json=no_input), 422, "VALIDATION_ERROR")
        zero_idle = {**run_request("Two", first.session).to_dict(), "idleTimeoutMs": 0}
        assert_problem(http.post("/v1/runs/stream", json=zero_idle), 422, "VALIDATION_ERROR")
        with actions_host.raw() as anonymous:
            assert_problem(anonymous.post("/v1/runs/stream", json=stale), 401, "UNAUTHENTICATED")
        actions = {"functionResults": [{"callId": "call_x", "output": "x"}]}
        assert_problem(http.post("/v1/runs/run_doesnotexist/actions/stream", json=actions), 404, "RUN_NOT_FOUND")

        # the streaming client raises the parsed problem instead of yielding events
        with pytest.raises(ProblemError) as refused, stream_run(alice, run_request("Two", session, revision=0)):
            pytest.fail("a refused stream yields no events")
        assert (refused.value.status, refused.value.code) == (409, "SESSION_REVISION_CONFLICT")
        assert refused.value.problem is not None and refused.value.problem.current_revision == 1

        # nothing was started
        read = read_ok(alice, session.id)
        assert (read.session.revision, read.session.status.value, read.session.message_count) == (1, "ready", 2)
        assert actions_host.provider_calls("echo") == calls_before


async def test_session_deleted_mid_stream(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        async with astream_run(alice, run_request("!sleep 60000\nA long story", session)) as events:
            started = await anext(events)
            assert isinstance(started, RunStartedEvent)
            began = time.monotonic()
            deleted = await delete_session.asyncio_detailed(session.id, client=alice)
            assert deleted.status_code == 204
            rest = await acollect(events)
        assert time.monotonic() - began < 2.0  # the 60 s model call was aborted, not awaited

        assert kinds(rest) == ["run.failed"]
        failed = rest[0]
        assert isinstance(failed, RunFailedEvent)
        assert failed.run_id == started.run_id
        assert (failed.problem.code.value, failed.problem.status) == ("RUN_CANCELLED", 409)
        assert failed.problem.reason == "session_deleted"
        assert_problem(await read_session.asyncio_detailed(session.id, client=alice), 404, "SESSION_NOT_FOUND")


async def test_disconnect_after_the_first_delta_interrupts_the_session(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        first = await arun_ok(alice, run_request("Before the cut", session))
        assert not isinstance(first.session, Unset)
        before = await aread_ok(alice, session.id)
        cancelled_before = actions_host.provider_calls("echo", "cancelled")
        text = "!chunks 3\n!sleep 300\nCut me off"

        seen = []
        async with astream_run(alice, run_request(text, first.session)) as events:
            async for event in events:
                seen.append(event)
                if isinstance(event, OutputDeltaEvent):
                    break  # leaving the block closes the connection mid-stream
        assert kinds(seen) == ["run.started", "output.delta"]

        read = await wait_for_status(alice, session.id, "interrupted")
        assert not isinstance(read.interrupted_turn, Unset)
        assert read.interrupted_turn.input_ == text
        assert read.interrupted_turn.reason.value == "disconnected"
        assert read.interrupted_turn.run_id == seen[0].run_id
        assert (read.session.revision, read.session.message_count) == (1, 2)
        assert [(m.role, m.content) for m in read.history] == [(m.role, m.content) for m in before.history]
        assert read.session.expires_at is not None
        assert actions_host.provider_calls("echo", "cancelled") == cancelled_before + 1

        # the next run, JSON or streamed, is refused until the application reconciles
        next_run = await run.asyncio_detailed(client=alice, body=run_request("Go on", first.session))
        assert_problem(next_run, 409, "SESSION_INTERRUPTED")
        with pytest.raises(ProblemError) as refused:
            async with astream_run(alice, run_request("Go on", first.session)):
                pytest.fail("a refused stream yields no events")
        assert (refused.value.status, refused.value.code) == (409, "SESSION_INTERRUPTED")
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_json_client_that_gives_up_mid_run_interrupts_the_session(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        text = "!sleep 60000\nI will not wait that long"
        # slots are free, so model work starts at once; the client gives up 0.5 s later
        async with actions_host.araw(ALICE, httpx.Timeout(10.0, read=0.5)) as impatient:
            with pytest.raises(httpx.ReadTimeout):
                await impatient.post("/v1/runs", json=run_request(text, session).to_dict())

        # interrupted (not ready) also proves that model work had started when the client went away
        read = await wait_for_status(alice, session.id, "interrupted")
        assert not isinstance(read.interrupted_turn, Unset)
        assert (read.interrupted_turn.input_, read.interrupted_turn.reason.value) == (text, "disconnected")
        assert (read.session.revision, read.session.message_count) == (0, 0)
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


def test_idle_timeout(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        stalled = new_session(alice)
        timeouts_before = actions_host.provider_calls("echo", "timeout")
        began = time.monotonic()
        response = run.sync_detailed(
            client=alice, body=run_request("!sleep 2000\nToo slow", stalled, idle_timeout_ms=200)
        )
        assert_problem(response, 504, "PROVIDER_TIMEOUT")
        assert time.monotonic() - began < 1.5  # ended by the 200 ms idle timeout, not the 2 s sleep
        read = read_ok(alice, stalled.id)
        assert read.session.status.value == "interrupted"
        assert not isinstance(read.interrupted_turn, Unset)
        assert (read.interrupted_turn.input_, read.interrupted_turn.reason.value) == (
            "!sleep 2000\nToo slow",
            "idle_timeout",
        )
        assert actions_host.provider_calls("echo", "timeout") == timeouts_before + 1

        # steady progress resets the timer: 6 pieces 100 ms apart outlast a 400 ms idle timeout
        steady = new_session(alice)
        began = time.monotonic()
        result = run_ok(alice, run_request("!chunks 6\n!sleep 100\nSteady progress", steady, idle_timeout_ms=400))
        assert time.monotonic() - began >= 0.6
        assert result.output.text == "echo: Steady progress"
        assert not isinstance(result.session, Unset)
        assert (result.session.revision, result.session.status.value) == (1, "ready")

        # a streamed run that stalls ends with run.failed carrying the same problem
        streamed = new_session(alice)
        with stream_run(alice, run_request("!sleep 2000\nStalled stream", streamed, idle_timeout_ms=200)) as events:
            received = list(events)
        assert kinds(received) == ["run.started", "run.failed"]
        failed = received[1]
        assert isinstance(failed, RunFailedEvent)
        assert (failed.problem.code.value, failed.problem.status) == ("PROVIDER_TIMEOUT", 504)
        read = read_ok(alice, streamed.id)
        assert not isinstance(read.interrupted_turn, Unset)
        assert read.interrupted_turn.reason.value == "idle_timeout"
