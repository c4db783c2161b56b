"""One active turn per session: racing runs, busy answers, and aborting runs that wait for a run slot."""

from __future__ import annotations

import asyncio
import time

from agentic_driver_client.api.runs import cancel_run, run
from agentic_driver_client.api.sessions import delete_session, read_session
from agentic_driver_client.models import CancelRunResponse, RunResult
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    Host,
    anew_session,
    aread_ok,
    arun_ok,
    assert_problem,
    run_request,
    settle,
    wait_for_status,
)

RACERS = 8
ROUNDS = 3


async def test_concurrent_runs_on_one_revision_admit_exactly_one(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice:
        session = await anew_session(alice)
        for round_number in range(ROUNDS):
            calls_before = main_host.provider_calls("echo")
            revision = round_number
            answers = await asyncio.gather(
                *(
                    run.asyncio_detailed(
                        client=alice,
                        body=run_request(f"!sleep 200\nracer {i}", session, revision=revision),
                    )
                    for i in range(RACERS)
                )
            )
            winners = [a for a in answers if a.status_code == 200]
            losers = [a for a in answers if a.status_code != 200]
            assert len(winners) == 1, [a.status_code for a in answers]
            for loser in losers:
                code = loser.parsed.code.value if loser.parsed is not None else None
                assert code in ("SESSION_BUSY", "SESSION_REVISION_CONFLICT"), loser.content
                assert_problem(loser, 409, code)
            assert main_host.provider_calls("echo") == calls_before + 1

            winner = winners[0].parsed
            assert isinstance(winner, RunResult)
            assert not isinstance(winner.session, Unset)
            assert winner.session.revision == revision + 1
            read = await aread_ok(alice, session.id)
            assert read.session.revision == revision + 1
            assert read.session.status.value == "ready"
            assert read.session.message_count == 2 * (round_number + 1)
            assert read.history[-2].content == "!sleep 200\n" + winner.output.text.removeprefix("echo: ")
            assert read.turns[-1].run_id == winner.id
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_busy_while_a_run_is_in_flight(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice:
        session = await anew_session(alice)
        calls_before = main_host.provider_calls("echo")
        slow = asyncio.create_task(arun_ok(alice, run_request("!sleep 1000\nFirst", session)))
        await wait_for_status(alice, session.id, "running")

        busy = await run.asyncio_detailed(client=alice, body=run_request("Second", session))
        body = assert_problem(busy, 409, "SESSION_BUSY", retryAfterSeconds=1)
        assert busy.headers["retry-after"] == "1"
        assert body["activeRunId"].startswith("run_")
        assert busy.parsed is not None and busy.parsed.active_run_id == body["activeRunId"]

        first = await settle(slow)
        assert first.id == body["activeRunId"]
        assert first.output.text == "echo: First"
        assert not isinstance(first.session, Unset)
        assert first.session.revision == 1
        assert main_host.provider_calls("echo") == calls_before + 1
        read = await aread_ok(alice, session.id)
        assert (read.session.revision, read.session.status.value) == (1, "ready")
        assert [m.content for m in read.history] == ["!sleep 1000\nFirst", "echo: First"]
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_delete_aborts_a_running_turn(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice:
        session = await anew_session(alice)
        slow = asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nLong", session)))
        await wait_for_status(alice, session.id, "running")
        started = time.monotonic()
        deleted = await delete_session.asyncio_detailed(session.id, client=alice)
        assert deleted.status_code == 204
        assert time.monotonic() - started < 2.0
        assert_problem(await settle(slow), 409, "RUN_CANCELLED", reason="session_deleted")
        assert_problem(await read_session.asyncio_detailed(session.id, client=alice), 404, "SESSION_NOT_FOUND")


async def _occupy_every_slot(host: Host, alice) -> tuple[list, list[asyncio.Task]]:
    """Two sessions whose sleeping runs hold both run slots of ``slots_host``."""
    holders = [await anew_session(alice) for _ in range(2)]
    tasks = []
    for holder in holders:
        tasks.append(
            asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nHold", holder)))
        )
        # once readSession reports it running, its run task already holds a slot (slots are free before it)
        await wait_for_status(alice, holder.id, "running")
    return holders, tasks


async def _release(alice, holders, tasks) -> None:
    for holder, task in zip(holders, tasks, strict=True):
        assert (await delete_session.asyncio_detailed(holder.id, client=alice)).status_code == 204
        assert_problem(await settle(task), 409, "RUN_CANCELLED", reason="session_deleted")


async def test_cancel_while_waiting_for_a_slot_leaves_the_session_ready(slots_host: Host) -> None:
    async with slots_host.client(ALICE) as alice:
        calls_before = slots_host.provider_calls("echo")
        holders, holding = await _occupy_every_slot(slots_host, alice)

        waiting_session = await anew_session(alice)
        waiting = asyncio.create_task(
            run.asyncio_detailed(client=alice, body=run_request("Waiting in line", waiting_session))
        )
        await wait_for_status(alice, waiting_session.id, "running")  # admitted: the session is busy
        busy = await run.asyncio_detailed(client=alice, body=run_request("Another", waiting_session))
        run_id = assert_problem(busy, 409, "SESSION_BUSY")["activeRunId"]

        cancelled = await cancel_run.asyncio_detailed(run_id, client=alice)
        assert cancelled.status_code == 200
        assert isinstance(cancelled.parsed, CancelRunResponse)
        assert cancelled.parsed.model_work_started is False
        assert not isinstance(cancelled.parsed.session, Unset)
        assert (cancelled.parsed.session.status.value, cancelled.parsed.session.revision) == ("ready", 0)
        assert_problem(await settle(waiting), 409, "RUN_CANCELLED", reason="cancelled")

        read = await aread_ok(alice, waiting_session.id)
        assert (read.session.status.value, read.session.revision, read.session.message_count) == ("ready", 0, 0)
        assert isinstance(read.interrupted_turn, Unset)
        assert read.session.expires_at is not None

        await _release(alice, holders, holding)
        # the two holders were cancelled mid-call; the cancelled waiter never made one
        assert slots_host.provider_calls("echo") == calls_before + 2
        assert slots_host.provider_calls("echo", "cancelled") >= 2

        # and the session that waited is perfectly usable at the same revision
        result = await arun_ok(alice, run_request("Now it runs", waiting_session, revision=0))
        assert not isinstance(result.session, Unset)
        assert result.session.revision == 1
        assert (await delete_session.asyncio_detailed(waiting_session.id, client=alice)).status_code == 204


async def test_delete_while_waiting_for_a_slot(slots_host: Host) -> None:
    async with slots_host.client(ALICE) as alice:
        calls_before = slots_host.provider_calls("echo")
        holders, holding = await _occupy_every_slot(slots_host, alice)

        waiting_session = await anew_session(alice)
        waiting = asyncio.create_task(
            run.asyncio_detailed(client=alice, body=run_request("Waiting in line", waiting_session))
        )
        await wait_for_status(alice, waiting_session.id, "running")

        started = time.monotonic()
        deleted = await delete_session.asyncio_detailed(waiting_session.id, client=alice)
        assert deleted.status_code == 204
        assert time.monotonic() - started < 2.0  # well before a slot frees up (the holders sleep 5 s)
        assert_problem(await settle(waiting, 2.0), 409, "RUN_CANCELLED", reason="session_deleted")
        assert_problem(await read_session.asyncio_detailed(waiting_session.id, client=alice), 404, "SESSION_NOT_FOUND")
        # the holders are still running, untouched
        for holder in holders:
            assert (await aread_ok(alice, holder.id)).session.status.value == "running"

        await _release(alice, holders, holding)
        assert slots_host.provider_calls("echo") == calls_before + 2
