"""The bounded wait queue (one run slot, one place in line): HOST_BUSY when full, and delete, cancel
and disconnect reaching a run that waits for a slot at once, before any model work."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from agentic_driver_client.api.runs import cancel_run, run
from agentic_driver_client.api.sessions import delete_session, read_session
from agentic_driver_client.models import CancelRunResponse, RunFailedEvent, RunStartedEvent
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
    run_request,
    settle,
    slot_taken,
    wait_for_status,
    wait_until,
)
from .sse import ProblemError, astream_run


async def test_a_full_wait_queue_is_host_busy(queue_host: Host) -> None:
    async with queue_host.client(ALICE) as alice:
        calls_before = queue_host.provider_calls("echo")
        busy_before = queue_host.error_count("HOST_BUSY")
        async with slot_taken(alice):
            waiting_session = await anew_session(alice)
            waiting = asyncio.create_task(
                run.asyncio_detailed(client=alice, body=run_request("Waiting in line", waiting_session))
            )
            await wait_for_status(alice, waiting_session.id, "running")  # admitted: it holds the place in line

            # no room for a third run, session or stateless, JSON or streamed
            third = await anew_session(alice)
            refused = await run.asyncio_detailed(client=alice, body=run_request("No room", third))
            assert_problem(refused, 503, "HOST_BUSY", limit="maxQueuedRuns", maximum=1, retryAfterSeconds=1)
            assert refused.headers["retry-after"] == "1"
            assert_problem(await run.asyncio_detailed(client=alice, body=run_request("No room")), 503, "HOST_BUSY")
            async with queue_host.araw(ALICE) as http:
                streamed = await http.post("/v1/runs/stream", json=run_request("No room", third).to_dict())
            assert_problem(streamed, 503, "HOST_BUSY")
            assert streamed.headers["retry-after"] == "1"
            with pytest.raises(ProblemError) as sdk_refused:
                async with astream_run(alice, run_request("No room", third)):
                    pytest.fail("a refused stream yields no events")
            assert (sdk_refused.value.status, sdk_refused.value.code) == (503, "HOST_BUSY")
            assert queue_host.error_count("HOST_BUSY") == busy_before + 4
            read = await aread_ok(alice, third.id)  # the refused session runs were never admitted
            assert (read.session.status.value, read.session.revision) == ("ready", 0)
            assert read.session.expires_at is not None

            # delete reaches the waiting run at once (the holder sleeps 60 s)
            began = time.monotonic()
            assert (await delete_session.asyncio_detailed(waiting_session.id, client=alice)).status_code == 204
            assert time.monotonic() - began < 2.0
            assert_problem(await settle(waiting, 2.0), 409, "RUN_CANCELLED", reason="session_deleted")
            assert_problem(
                await read_session.asyncio_detailed(waiting_session.id, client=alice), 404, "SESSION_NOT_FOUND"
            )

            # the place in line is free again; a streamed run takes it, and cancel reaches it at once
            async with astream_run(alice, run_request("Waiting again", third)) as events:
                started = await anext(events)
                assert isinstance(started, RunStartedEvent)
                assert not isinstance(started.session, Unset)
                assert started.session.status.value == "running"
                began = time.monotonic()
                cancelled = await cancel_run.asyncio_detailed(started.run_id, client=alice)
                assert time.monotonic() - began < 2.0
                rest = await acollect(events)
            assert cancelled.status_code == 200
            assert isinstance(cancelled.parsed, CancelRunResponse)
            assert cancelled.parsed.model_work_started is False
            assert not isinstance(cancelled.parsed.session, Unset)
            assert (cancelled.parsed.session.status.value, cancelled.parsed.session.revision) == ("ready", 0)
            assert kinds(rest) == ["run.failed"]
            assert isinstance(rest[0], RunFailedEvent)
            assert (rest[0].problem.code.value, rest[0].problem.reason) == ("RUN_CANCELLED", "cancelled")
            read = await aread_ok(alice, third.id)
            assert (read.session.status.value, read.session.revision) == ("ready", 0)
            assert isinstance(read.interrupted_turn, Unset)

            # none of the runs that waited or were refused made a model call
            assert queue_host.provider_calls("echo") == calls_before
        assert queue_host.provider_calls("echo") == calls_before + 1  # the holder's, cancelled

        # with the slot free, the session that waited runs at the revision it had
        result = await arun_ok(alice, run_request("Now it runs", third))
        assert not isinstance(result.session, Unset)
        assert result.session.revision == 1
        assert (await delete_session.asyncio_detailed(third.id, client=alice)).status_code == 204


async def test_disconnect_while_waiting_for_a_slot_leaves_the_session_ready(queue_host: Host) -> None:
    async with queue_host.client(ALICE) as alice:
        calls_before = queue_host.provider_calls("echo")
        session = await anew_session(alice)
        async with slot_taken(alice):
            # a stream whose client goes away after run.started, while the run waits in line
            async with astream_run(alice, run_request("Never mind", session)) as events:
                started = await anext(events)
                assert isinstance(started, RunStartedEvent)
                assert not isinstance(started.session, Unset)
                assert started.session.status.value == "running"
            read = await wait_for_status(alice, session.id, "ready")
            assert (read.session.revision, read.session.message_count) == (0, 0)
            assert isinstance(read.interrupted_turn, Unset)
            assert read.session.expires_at is not None

            # a JSON client that gives up while its run waits in line
            cancelled_before = queue_host.runs_ended("cancelled")
            async with queue_host.araw(ALICE, httpx.Timeout(10.0, read=0.5)) as impatient:
                with pytest.raises(httpx.ReadTimeout):
                    await impatient.post("/v1/runs", json=run_request("Not waiting", session).to_dict())
            await wait_until(
                lambda: queue_host.runs_ended("cancelled") == cancelled_before + 1, "the waiting run was stopped"
            )
            read = await aread_ok(alice, session.id)
            assert read.session.status.value == "ready"
            assert (read.session.revision, read.session.message_count) == (0, 0)
            assert isinstance(read.interrupted_turn, Unset)

            assert queue_host.provider_calls("echo") == calls_before  # neither waiting run reached the model
        assert queue_host.provider_calls("echo") == calls_before + 1

        result = await arun_ok(alice, run_request("Now it runs", session))
        assert not isinstance(result.session, Unset)
        assert result.session.revision == 1
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204
