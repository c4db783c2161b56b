"""Accounting over HTTP: each RunResult's own figures, and SessionInfo totals that are the sum of every run that
reached the model (completed, failed, cancelled, disconnected, timed out, paused then cancelled), never of a
refusal, never rewound by truncation. The ``ledger`` host prices echo-1 on ``echo`` and leaves ``echo-free``
unpriced.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from agentic_driver_client.api.runs import cancel_run, run
from agentic_driver_client.api.sessions import delete_session
from agentic_driver_client.models import RunResult, SessionInfo
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    LEDGER_INPUT_PER_MILLION,
    LEDGER_OUTPUT_PER_MILLION,
    Host,
    anew_session,
    aread_ok,
    assert_problem,
    atruncate,
    atruncate_ok,
    body_of,
    function_tool,
    new_session,
    read_ok,
    run_ok,
    run_request,
    settle,
    truncate_ok,
    wait_for_status,
)

ZERO_USAGE = {"inputTokens": 0, "outputTokens": 0, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0}


def cost_of(usage: dict[str, int]) -> float:
    """What the host computes for echo-1 (echo reports no cached input or cache writes)."""
    return (
        usage["inputTokens"] * LEDGER_INPUT_PER_MILLION + usage["outputTokens"] * LEDGER_OUTPUT_PER_MILLION
    ) / 1_000_000


def sum_usage(*usages: dict[str, int]) -> dict[str, int]:
    return {key: sum(u[key] for u in usages) for key in ZERO_USAGE}


def run_raw(client: Any, body: Any) -> tuple[RunResult, dict[str, Any]]:
    """A completed (or paused) run: the generated client's parse and the JSON the host sent."""
    response = run.sync_detailed(client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed, body_of(response)


async def arun_raw(client: Any, body: Any) -> tuple[RunResult, dict[str, Any]]:
    response = await run.asyncio_detailed(client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed, body_of(response)


def http_run(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    """A stateless run sent as plain JSON; the JSON answer."""
    with host.raw(ALICE) as http:
        response = http.post("/v1/runs", json=body)
    assert response.status_code == 200, response.text
    decoded: dict[str, Any] = response.json()
    return decoded


async def recover(client: Any, session_id: str) -> SessionInfo:
    """Truncate an interrupted session back to its last good turn (keeping every turn)."""
    read = await wait_for_status(client, session_id, "interrupted")
    return await atruncate_ok(client, session_id, read.session.revision, len(read.turns))


def test_a_run_result_and_its_session_carry_usage_cost_retries_and_the_served_model(ledger_host: Host) -> None:
    with ledger_host.client(ALICE) as alice:
        session = new_session(alice)
        result, raw = run_raw(alice, run_request("hello there", session))

        assert raw["usage"] == {**ZERO_USAGE, "inputTokens": 2, "outputTokens": 3}
        assert raw["cost"] == cost_of(raw["usage"]) == (2 * 3.0 + 3 * 15.0) / 1_000_000  # exact
        assert raw["retries"] == {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": 0.0}
        assert raw["servedModel"] == "echo-1"
        info = raw["session"]
        assert (info["runCount"], info["usage"], info["cost"], info["servedModels"]) == (
            1,
            raw["usage"],
            raw["cost"],
            ["echo-1"],
        )
        assert info["retries"] == raw["retries"]
        assert info["nativeHistory"] == "full"

        # the generated client parses every new field
        assert (result.usage.cached_input_tokens, result.usage.cache_write_tokens, result.usage.reasoning_tokens) == (
            0,
            0,
            0,
        )
        assert (result.cost, result.served_model, result.retries.count) == (raw["cost"], "echo-1", 0)
        assert not isinstance(result.session, Unset)
        assert (result.session.run_count, result.session.served_models) == (1, ["echo-1"])
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_without_prices_cost_is_null_never_a_guess(ledger_host: Host) -> None:
    with ledger_host.client(ALICE) as alice:
        for provider, model in (("echo-free", "echo-1"), ("echo", "echo-2")):
            session = new_session(alice, provider=provider, model=model)
            _, raw = run_raw(alice, run_request("hello", session))
            assert raw["cost"] is None
            assert raw["retries"] == {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None}
            assert raw["servedModel"] == model
            assert (raw["session"]["cost"], raw["session"]["retries"]["cost"]) == (None, None)
            stateless = http_run(ledger_host, {"provider": provider, "model": model, "input": "a b"})
            assert (stateless["cost"], stateless["servedModel"]) == (None, model)
            assert "session" not in stateless
            assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


async def test_session_totals_are_the_sum_of_its_runs_including_interrupted_and_failed_ones(ledger_host: Host) -> None:
    async with ledger_host.client(ALICE) as alice:
        session = await anew_session(alice)
        completed = [await arun_raw(alice, run_request("first turn", session))]
        info = completed[-1][0].session
        assert isinstance(info, SessionInfo)

        # failed after model work started
        failed = await run.asyncio_detailed(client=alice, body=run_request("!fail\nboom", info))
        assert_problem(failed, 502, "PROVIDER_ERROR")
        refused = await run.asyncio_detailed(client=alice, body=run_request("refused", info))
        assert_problem(refused, 409, "SESSION_INTERRUPTED")  # a refusal: no model work
        info = await recover(alice, session.id)

        # cancelled after !sleep started; a run and a truncation tried meanwhile are refused as busy
        sleeping = asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 60000\nz", info)))
        await wait_for_status(alice, session.id, "running")
        busy = await run.asyncio_detailed(client=alice, body=run_request("busy", info))
        run_id = assert_problem(busy, 409, "SESSION_BUSY")["activeRunId"]
        assert_problem(await atruncate(alice, session.id, info.revision, 0), 409, "SESSION_BUSY", activeRunId=run_id)
        cancelled = await cancel_run.asyncio_detailed(run_id, client=alice)
        assert cancelled.status_code == 200 and cancelled.parsed.model_work_started is True
        assert_problem(await settle(sleeping), 409, "RUN_CANCELLED", reason="cancelled")
        info = await recover(alice, session.id)

        # the client gave up mid-run (slots are free: model work started at once)
        async with ledger_host.araw(ALICE, httpx.Timeout(10.0, read=0.5)) as impatient:
            with pytest.raises(httpx.ReadTimeout):
                await impatient.post("/v1/runs", json=run_request("!sleep 60000\nbye", info).to_dict())
        read = await wait_for_status(alice, session.id, "interrupted")
        assert read.interrupted_turn.reason.value == "disconnected"
        info = await recover(alice, session.id)

        # no provider progress for the idle timeout
        slow = await run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nz", info, idle_timeout_ms=200))
        assert_problem(slow, 504, "PROVIDER_TIMEOUT")
        info = await recover(alice, session.id)

        # paused for a function result, then cancelled: its call step was billed
        paused, paused_raw = await arun_raw(
            alice, run_request("!call lookup {}\nx", info, tools=[function_tool("lookup")])
        )
        assert paused.status.value == "requires_action"
        assert (await cancel_run.asyncio_detailed(paused.id, client=alice)).status_code == 200
        info = await recover(alice, session.id)

        stale = await run.asyncio_detailed(client=alice, body=run_request("stale", info, revision=0))
        assert_problem(stale, 409, "SESSION_REVISION_CONFLICT")
        completed.append(await arun_raw(alice, run_request("last turn", info)))

        final = completed[-1][1]["session"]
        runs = [raw for _, raw in completed]
        # echo reports usage when a call returns: the failed, cancelled, disconnected and timed-out calls reported
        # none but reached the model (they count as runs); the paused call step reported its usage
        assert final["runCount"] == len(completed) + 5 == 7
        assert final["usage"] == sum_usage(*(r["usage"] for r in runs), paused_raw["usage"])
        assert final["cost"] == pytest.approx(sum(r["cost"] for r in runs) + paused_raw["cost"], rel=1e-12)
        assert final["cost"] == pytest.approx(cost_of(final["usage"]), rel=1e-12)
        assert final["servedModels"] == ["echo-1"] * 3
        assert final["retries"] == {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": 0.0}

        read = await aread_ok(alice, session.id)
        assert [t.run_id for t in read.turns] == [r.id for r, _ in completed]  # 2 addressable turns, 7 runs
        assert read.session.run_count == 7
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_a_run_cancelled_while_waiting_for_a_slot_is_not_accounted(slots_host: Host) -> None:
    async with slots_host.client(ALICE) as alice:
        holders = [await anew_session(alice) for _ in range(2)]
        holding = [
            asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nHold", holder)))
            for holder in holders
        ]
        for holder in holders:
            await wait_for_status(alice, holder.id, "running")
        session = await anew_session(alice)
        waiting = asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("Waiting", session)))
        await wait_for_status(alice, session.id, "running")
        run_id = assert_problem(
            await run.asyncio_detailed(client=alice, body=run_request("x", session)), 409, "SESSION_BUSY"
        )["activeRunId"]

        cancelled = await cancel_run.asyncio_detailed(run_id, client=alice)
        assert cancelled.parsed.model_work_started is False
        assert_problem(await settle(waiting), 409, "RUN_CANCELLED")

        read = await aread_ok(alice, session.id)
        assert (read.session.status.value, read.session.run_count, read.session.served_models) == ("ready", 0, [])
        assert read.session.usage.to_dict() == ZERO_USAGE
        for holder, task in zip(holders, holding, strict=True):
            assert (await delete_session.asyncio_detailed(holder.id, client=alice)).status_code == 204
            await settle(task)
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


def test_truncation_never_rewinds_accounting(ledger_host: Host) -> None:
    with ledger_host.client(ALICE) as alice:
        session = new_session(alice)
        info = session
        for text in ("one", "two", "three"):
            result = run_ok(alice, run_request(text, info))
            assert not isinstance(result.session, Unset)
            info = result.session
        totals = info.to_dict()

        for keep in (2, 0):
            info = truncate_ok(alice, info.id, info.revision, keep)
            now = info.to_dict()
            for key in ("runCount", "usage", "cost", "retries", "servedModels"):
                assert now[key] == totals[key], key
            assert now["messageCount"] == 2 * keep

        after = run_ok(alice, run_request("four", info))
        assert not isinstance(after.session, Unset)
        assert after.session.run_count == 4
        assert after.session.served_models == ["echo-1"] * 4
        assert len(read_ok(alice, session.id).turns) == 1
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
