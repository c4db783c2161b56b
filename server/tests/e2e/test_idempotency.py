"""Idempotency-Key on run, streamRun, submitRunActions and createSession: replay, reuse, in use, and
refusals that leave the key free."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from agentic_driver_client.api.runs import cancel_run, run, submit_run_actions
from agentic_driver_client.api.sessions import create_session, delete_session, read_session
from agentic_driver_client.models import CreateSessionResponse, RunCompletedEvent, RunResult
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    BOB,
    Host,
    anew_session,
    arun_ok,
    assert_problem,
    asubmit_ok,
    create_request,
    function_results,
    function_tool,
    kinds,
    new_session,
    read_ok,
    run_ok,
    run_request,
    settle,
    wait_for_status,
)
from .sse import ProblemError, astream_run, stream_run


def new_key() -> str:
    return str(uuid.uuid4())


def test_run_replays_and_never_runs_twice(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        key = new_key()
        body = run_request("Only once, please", session)
        first = run.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert first.status_code == 200
        assert isinstance(first.parsed, RunResult)
        calls = actions_host.provider_calls("echo")

        again = run.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert again.status_code == 200
        assert again.content == first.content  # the recorded answer, byte for byte
        read = read_ok(alice, session.id)
        assert (read.session.revision, read.session.message_count) == (1, 2)
        assert actions_host.provider_calls("echo") == calls

        # the same key with another body is refused, and nothing runs
        other = run.sync_detailed(
            client=alice, body=run_request("Something else", session, revision=1), idempotency_key=key
        )
        assert_problem(other, 422, "IDEMPOTENCY_KEY_REUSED")
        assert read_ok(alice, session.id).session.revision == 1
        assert actions_host.provider_calls("echo") == calls

        # keys are per caller: bob's request with alice's key is his own
        with actions_host.client(BOB) as bob:
            bobs = new_session(bob)
            answer = run.sync_detailed(client=bob, body=run_request("Only once, please", bobs), idempotency_key=key)
            assert answer.status_code == 200
            assert isinstance(answer.parsed, RunResult)
            assert answer.parsed.id != first.parsed.id
            assert delete_session.sync_detailed(bobs.id, client=bob).status_code == 204
        assert actions_host.provider_calls("echo") == calls + 1

        # a replay re-checks access: the deleted session is not found, and not recreated
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
        stored = actions_host.sessions_stored()
        assert_problem(run.sync_detailed(client=alice, body=body, idempotency_key=key), 404, "SESSION_NOT_FOUND")
        assert_problem(read_session.sync_detailed(session.id, client=alice), 404, "SESSION_NOT_FOUND")
        assert actions_host.sessions_stored() == stored
        assert actions_host.provider_calls("echo") == calls + 1


def test_stream_replay_is_the_runs_original_events_with_their_ids(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        key = new_key()
        body = run_request("!chunks 3\nStreamed exactly once", session)
        with stream_run(alice, body, idempotency_key=key) as events:
            original = list(events)
        assert kinds(original) == ["run.started", "output.delta", "output.delta", "output.delta", "run.completed"]
        recorded = original[-1]
        assert isinstance(recorded, RunCompletedEvent)
        calls = actions_host.provider_calls("echo")

        with stream_run(alice, body, idempotency_key=key) as events:
            replayed = list(events)
        assert kinds(replayed) == kinds(original)  # the run is still kept: its events, not a summary
        assert isinstance(replayed[-1], RunCompletedEvent)
        assert [e.to_dict() for e in replayed] == [e.to_dict() for e in original]
        assert actions_host.provider_calls("echo") == calls
        assert read_ok(alice, session.id).session.revision == 1

        # on the wire: the same SSE messages with the same ids
        with actions_host.raw(ALICE) as http:
            headers = {"Idempotency-Key": key}
            with http.stream("POST", "/v1/runs/stream", json=body.to_dict(), headers=headers) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].split(";")[0] == "text/event-stream"
                text = response.read().decode()
        assert text.startswith("id: 1\nevent: run.started\ndata: {")
        assert [line for line in text.splitlines() if line.startswith("id: ")] == [f"id: {n}" for n in range(1, 6)]

        with (
            pytest.raises(ProblemError) as reused,
            stream_run(alice, run_request("Other", session), idempotency_key=key),
        ):
            pytest.fail("a refused stream yields no events")
        assert (reused.value.status, reused.value.code) == (422, "IDEMPOTENCY_KEY_REUSED")
        assert actions_host.provider_calls("echo") == calls


def test_stream_replay_after_delete_is_session_not_found(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice, actions_host.raw(ALICE) as http:
        session = new_session(alice)
        key = new_key()
        body = run_request("Streamed, then deleted", session)
        with stream_run(alice, body, idempotency_key=key) as events:
            assert kinds(list(events))[-1] == "run.completed"
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
        stored = actions_host.sessions_stored()

        # a refusal known before the stream starts is a problem response, not a stream
        replay = http.post("/v1/runs/stream", json=body.to_dict(), headers={"Idempotency-Key": key})
        assert_problem(replay, 404, "SESSION_NOT_FOUND")
        assert actions_host.sessions_stored() == stored


def test_submit_run_actions_replays(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        ask = '!call get_weather {"city": "Lima"}\nWeather in Lima?'
        paused = run_ok(alice, run_request(ask, session, tools=[function_tool("get_weather")]))
        assert not isinstance(paused.required_action, Unset)
        call_id = paused.required_action.to_dict()["calls"][0]["callId"]
        key = new_key()
        answer = function_results((call_id, "mild"))

        first = submit_run_actions.sync_detailed(paused.id, client=alice, body=answer, idempotency_key=key)
        assert first.status_code == 200
        assert isinstance(first.parsed, RunResult)
        assert first.parsed.output.text == "echo: Weather in Lima? | get_weather -> mild"
        calls = actions_host.provider_calls("echo")

        again = submit_run_actions.sync_detailed(paused.id, client=alice, body=answer, idempotency_key=key)
        assert again.status_code == 200
        assert again.content == first.content
        assert read_ok(alice, session.id).session.revision == 1
        assert actions_host.provider_calls("echo") == calls
        # without the key the run is simply over
        assert_problem(submit_run_actions.sync_detailed(paused.id, client=alice, body=answer), 404, "RUN_NOT_FOUND")

        other = submit_run_actions.sync_detailed(
            paused.id, client=alice, body=function_results((call_id, "hot")), idempotency_key=key
        )
        assert_problem(other, 422, "IDEMPOTENCY_KEY_REUSED")

        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
        replay = submit_run_actions.sync_detailed(paused.id, client=alice, body=answer, idempotency_key=key)
        assert_problem(replay, 404, "SESSION_NOT_FOUND")
        assert actions_host.provider_calls("echo") == calls


def test_create_session_replays_and_never_recreates(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        key = new_key()
        body = create_request(instructions="Be idempotent.")
        first = create_session.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert first.status_code == 201
        assert isinstance(first.parsed, CreateSessionResponse)
        session_id = first.parsed.session.id
        stored = actions_host.sessions_stored()

        again = create_session.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert again.status_code == 201
        assert again.content == first.content
        assert actions_host.sessions_stored() == stored

        other = create_session.sync_detailed(client=alice, body=create_request(mode="native"), idempotency_key=key)
        assert_problem(other, 422, "IDEMPOTENCY_KEY_REUSED")
        assert actions_host.sessions_stored() == stored

        assert delete_session.sync_detailed(session_id, client=alice).status_code == 204
        replay = create_session.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert_problem(replay, 404, "SESSION_NOT_FOUND")
        assert actions_host.sessions_stored() == stored - 1
        assert_problem(read_session.sync_detailed(session_id, client=alice), 404, "SESSION_NOT_FOUND")


async def test_a_repeat_while_the_first_runs_is_in_use(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        key = new_key()
        body = run_request("!sleep 60000\nStill going", session)
        original = asyncio.create_task(run.asyncio_detailed(client=alice, body=body, idempotency_key=key))
        await wait_for_status(alice, session.id, "running")  # admitted, so its key is claimed

        repeat = await run.asyncio_detailed(client=alice, body=body, idempotency_key=key)
        assert_problem(repeat, 409, "IDEMPOTENCY_KEY_IN_USE")
        assert repeat.headers["retry-after"] == "1"
        with pytest.raises(ProblemError) as refused:
            async with astream_run(alice, body, idempotency_key=key):
                pytest.fail("a refused stream yields no events")
        assert (refused.value.status, refused.value.code) == (409, "IDEMPOTENCY_KEY_IN_USE")

        # end the original: its outcome (an error here) is what the key replays from now on
        busy = await run.asyncio_detailed(client=alice, body=run_request("Meanwhile", session))
        run_id = assert_problem(busy, 409, "SESSION_BUSY")["activeRunId"]
        assert (await cancel_run.asyncio_detailed(run_id, client=alice)).status_code == 200
        first = await settle(original)
        assert_problem(first, 409, "RUN_CANCELLED", reason="cancelled")
        calls = actions_host.provider_calls("echo")
        replay = await run.asyncio_detailed(client=alice, body=body, idempotency_key=key)
        assert (replay.status_code, answered(replay)) == (409, answered(first))
        assert actions_host.provider_calls("echo") == calls
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_a_refusal_before_acceptance_does_not_burn_the_key(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        ask = '!call get_weather {"city": "Kyiv"}\nWeather in Kyiv?'
        paused = await arun_ok(alice, run_request(ask, session, tools=[function_tool("get_weather")]))
        assert not isinstance(paused.required_action, Unset)
        call_id = paused.required_action.to_dict()["calls"][0]["callId"]
        key = new_key()
        body = run_request("Second", session)  # revision 0, while the paused turn is active

        assert_problem(await run.asyncio_detailed(client=alice, body=body, idempotency_key=key), 409, "SESSION_BUSY")
        await asubmit_ok(alice, paused.id, function_results((call_id, "cold")))  # the session moves to revision 1

        # evaluated afresh, not replayed as SESSION_BUSY
        stale = await run.asyncio_detailed(client=alice, body=body, idempotency_key=key)
        assert_problem(stale, 409, "SESSION_REVISION_CONFLICT", currentRevision=1)
        # and still free for a request that is accepted
        calls = actions_host.provider_calls("echo")
        fresh = run_request("Second", session, revision=1)
        accepted = await run.asyncio_detailed(client=alice, body=fresh, idempotency_key=key)
        assert accepted.status_code == 200
        assert isinstance(accepted.parsed, RunResult)
        assert not isinstance(accepted.parsed.session, Unset)
        assert accepted.parsed.session.revision == 2
        assert actions_host.provider_calls("echo") == calls + 1
        replay = await run.asyncio_detailed(client=alice, body=fresh, idempotency_key=key)
        assert (replay.status_code, replay.content) == (200, accepted.content)
        assert actions_host.provider_calls("echo") == calls + 1
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


def answered(response: Any) -> dict[str, Any]:
    """A problem as replayed: the same document, with the replaying answer's own request id."""
    problem = dict(json.loads(response.content))
    assert problem.pop("requestId") == response.headers["x-request-id"]
    return problem


def test_a_failed_run_replays_its_problem(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        key = new_key()
        body = run_request("!fail\nBoom")
        first = run.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert_problem(first, 502, "PROVIDER_ERROR")
        calls = actions_host.provider_calls("echo")
        again = run.sync_detailed(client=alice, body=body, idempotency_key=key)
        assert (again.status_code, answered(again)) == (502, answered(first))
        assert actions_host.provider_calls("echo") == calls

        # streamed, the recorded failure replays with the run's events, ending in the same run.failed
        stream_key = new_key()
        with stream_run(alice, body, idempotency_key=stream_key) as events:
            original = list(events)
        assert kinds(original) == ["run.started", "run.failed"]
        calls = actions_host.provider_calls("echo")
        with stream_run(alice, body, idempotency_key=stream_key) as events:
            replayed = list(events)
        assert kinds(replayed) == ["run.started", "run.failed"]
        assert replayed[-1].to_dict() == original[-1].to_dict()
        assert replayed[-1].problem.code.value == "PROVIDER_ERROR"
        assert actions_host.provider_calls("echo") == calls


def test_idempotency_key_length_is_checked(actions_host: Host) -> None:
    with actions_host.raw(ALICE) as http:
        body = run_request("Hi").to_dict()
        assert_problem(
            http.post("/v1/runs", json=body, headers={"Idempotency-Key": "k" * 256}), 422, "VALIDATION_ERROR"
        )
        assert http.post("/v1/runs", json=body, headers={"Idempotency-Key": "k" * 255}).status_code == 200
