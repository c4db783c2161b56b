"""Parked runs hold bounded memory: rounds of runs paused for function results, up to ``maxWaitingRuns``,
each with a large input, ended by cancel or by their ``actionTimeoutMs``; the host's RSS stays flat.

Every round parks ``PARKED`` stateless and session runs, then ends them: alternately cancelled (after
checking that one more is refused: ``HOST_BUSY``, ``limit: maxWaitingRuns``) and left to their action
timeout (their sessions are then interrupted with reason ``action_timeout``); a bounded poll waits
until the host holds no active run. After a warm-up the host's RSS must not grow: a leaked run (its
request, its input, its task) would add about ``PARKED * INPUT_BYTES`` per round (checked once by hand:
keeping every request alive grew RSS 15.8 MB over the measured rounds and failed the bound).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from e2e.conftest import ALICE, Host, parse_metrics

from .conftest import history_config

PARKED = 40
INPUT_BYTES = 48 * 1024
ROUNDS = 12
WARM_UP_ROUNDS = 4
RSS_GROWTH_MAX_MB = 6.0
"""A leak of every parked run would grow RSS by about 1.9 MB a round, 15 MB over the measured rounds."""
ACTION_TIMEOUT_MS = 200
ASK = '!call lookup {"q": "x"}\n'
LOOKUP = [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}]


@pytest.fixture(scope="module")
def parking(launch_reliability: Callable[..., Host]) -> Host:
    config = history_config("parking", 8)
    config["limits"].update(maxWaitingRuns=PARKED, maxBodyBytes=4 * INPUT_BYTES)
    return launch_reliability("parking", config)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def active_runs(http: httpx.AsyncClient) -> float:
    text = (await http.get("/metrics")).text
    return next(value for sample, _, value in parse_metrics(text) if sample == "agentic_driver_active_runs")


async def park(http: httpx.AsyncClient, index: int, left_to_time_out: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"provider": "echo", "model": "echo-1", "input": ASK + "x" * INPUT_BYTES, "tools": LOOKUP}
    if index % 2:  # half of them are session turns
        created = await http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
        assert created.status_code == 201, created.text
        body["session"] = {"id": created.json()["session"]["id"], "revision": 0}
    if left_to_time_out:
        body["actionTimeoutMs"] = ACTION_TIMEOUT_MS
    paused = await http.post("/v1/runs", json=body)
    assert paused.status_code == 200, paused.text[:300]
    result: dict[str, Any] = paused.json()
    assert result["status"] == "requires_action"
    return result


async def one_round(http: httpx.AsyncClient, left_to_time_out: bool) -> None:
    parked = await asyncio.gather(*(park(http, i, left_to_time_out) for i in range(PARKED)))
    if not left_to_time_out:  # (runs left to time out may already have ended: the place would be free)
        refused = await http.post(
            "/v1/runs", json={"provider": "echo", "model": "echo-1", "input": ASK, "tools": LOOKUP}
        )
        assert refused.status_code == 503 and refused.json()["limit"] == "maxWaitingRuns", refused.text
        for result in parked:
            assert (await http.post(f"/v1/runs/{result['id']}/cancel")).status_code == 200
    deadline = time.monotonic() + 10.0
    while await active_runs(http) > 0:  # bounded: the action timeouts end them within a few hundred ms
        assert time.monotonic() < deadline, "parked runs did not end"
        await asyncio.sleep(0.02)
    for result in parked:
        if "session" in result:
            read = (await http.get(f"/v1/sessions/{result['session']['id']}")).json()
            reason = "action_timeout" if left_to_time_out else "cancelled"
            assert (read["session"]["status"], read["interruptedTurn"]["reason"]) == ("interrupted", reason)
            assert (await http.delete(f"/v1/sessions/{result['session']['id']}")).status_code == 204


async def test_parked_runs_keep_rss_flat(parking: Host) -> None:
    limits = httpx.Limits(max_connections=PARKED)
    headers = {"Authorization": f"Bearer {ALICE}"}
    samples: list[float] = []
    async with httpx.AsyncClient(
        base_url=parking.base_url, headers=headers, limits=limits, timeout=30, trust_env=False
    ) as http:
        for number in range(ROUNDS):
            await one_round(http, left_to_time_out=number % 2 == 1)
            samples.append(rss_mb(parking.process.pid))
    measured = samples[WARM_UP_ROUNDS - 1 :]
    growth = max(measured) - measured[0]
    print(f"RSS MB per round: {[round(s, 1) for s in samples]}; growth after warm-up {growth:.1f} MB")
    assert growth < RSS_GROWTH_MAX_MB, samples
