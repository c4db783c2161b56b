"""Faults against a real host process, counted from outside: after a burst of abandoned streams, failing,
hanging and garbage-emitting providers, JSON runs whose clients give up, and a reader that stalls on a
real socket, the host is back to its baseline: no active run, slot or waiter, no extra task or open
connection, one expiry timer per stored session, and once retention passes no session at all."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from e2e.conftest import ALICE, Host, parse_metrics

from .conftest import history_config
from .test_shutdown import _address

RETENTION_MS = 1_500
STALL_MS = 500


@pytest.fixture(scope="module")
def faulty(launch_reliability: Callable[..., Host]) -> Host:
    config = history_config("faults-e2e", 8)
    config["sessions"]["retentionMs"] = RETENTION_MS
    config["limits"].update(streamStallMs=STALL_MS, maxBodyBytes=4 * 1024 * 1024)
    return launch_reliability("faults-e2e", config)


def gauges(host: Host) -> dict[str, float]:
    with httpx.Client(trust_env=False) as http:
        text = http.get(host.base_url + "/metrics", headers={"Connection": "close"}).text
    return {name: value for name, labels, value in parse_metrics(text) if not labels}


def settled(host: Host, baseline: dict[str, float], timeout_s: float = 10.0) -> dict[str, float]:
    deadline = time.monotonic() + timeout_s
    while True:
        now = gauges(host)
        quiet = (
            now["agentic_driver_active_runs"] == 0
            and now["agentic_driver_run_slots_in_use"] == 0
            and now["agentic_driver_runs_waiting"] == 0
            and now["agentic_driver_open_connections"] <= baseline["agentic_driver_open_connections"]
            and now["agentic_driver_asyncio_tasks"] <= baseline["agentic_driver_asyncio_tasks"]
            and now["agentic_driver_session_timers"] == now["agentic_driver_sessions_stored"]
        )
        if quiet:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the host did not settle: {now} (baseline {baseline})")
        time.sleep(0.05)


async def _session(http: httpx.AsyncClient) -> dict[str, Any]:
    created = await http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
    session: dict[str, Any] = created.json()["session"]
    return session


def _run(session: dict[str, Any] | None, text: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"provider": "echo", "model": "echo-1", "input": text, **extra}
    if session is not None:
        body["session"] = {"id": session["id"], "revision": session["revision"]}
    return body


async def _abandon_stream(http: httpx.AsyncClient, body: dict[str, Any], after: str) -> None:
    async with http.stream("POST", "/v1/runs/stream", json=body) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: ") and json.loads(line[6:])["type"] == after:
                return


async def _give_up(http: httpx.AsyncClient, body: dict[str, Any]) -> None:
    with contextlib.suppress(httpx.ReadTimeout):
        await http.post("/v1/runs", json=body, timeout=httpx.Timeout(5.0, read=0.15))


async def _burst(host: Host) -> list[Any]:
    """Six rounds of every fault at once; returns the answers that arrived."""
    headers = {"Authorization": f"Bearer {ALICE}"}
    async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=20, trust_env=False) as http:
        work = []
        for round_ in range(6):
            sessions = [await _session(http) for _ in range(6)]
            work += [
                _abandon_stream(http, _run(sessions[0], f"!chunks 6\n!sleep 30\ncut {round_}"), "output.delta"),
                _abandon_stream(http, _run(sessions[1], f"!chunks 2\n!sleep 30\nearly {round_}"), "run.started"),
                http.post("/v1/runs", json=_run(sessions[2], f"!chunks 5\n!failafter 2\nfail {round_}")),
                http.post(
                    "/v1/runs", json=_run(sessions[3], f"!chunks 3\n!hangafter 1\nhang {round_}", idleTimeoutMs=100)
                ),
                http.post("/v1/runs", json=_run(sessions[4], f"!chunks 3\n!garbage\ngarbage {round_}")),
                _give_up(http, _run(sessions[5], f"!hangafter 0\ngive up {round_}")),
                _give_up(http, _run(None, f"!hangafter 0\nstateless {round_}")),
            ]
        return await asyncio.gather(*work)


def test_after_a_burst_of_faults_the_host_is_back_to_its_baseline(faulty: Host) -> None:
    time.sleep(0.1)
    baseline = gauges(faulty)
    answers = asyncio.run(_burst(faulty))
    codes = sorted(a.json()["code"] for a in answers if isinstance(a, httpx.Response))
    assert codes == ["PROVIDER_ERROR"] * 12 + ["PROVIDER_TIMEOUT"] * 6
    now = settled(faulty, baseline)
    assert now["agentic_driver_sessions_stored"] >= 36
    errors = {
        labels["code"]: v
        for name, labels, v in parse_metrics(httpx.get(faulty.base_url + "/metrics").text)
        if name == "agentic_driver_errors_total"
    }
    assert "INTERNAL_ERROR" not in errors
    # expired sessions are gone from memory, their timers with them
    time.sleep(RETENTION_MS / 1000)
    deadline = time.monotonic() + 5
    while gauges(faulty)["agentic_driver_sessions_stored"] and time.monotonic() < deadline:
        time.sleep(0.05)
    after = gauges(faulty)
    assert (after["agentic_driver_sessions_stored"], after["agentic_driver_session_timers"]) == (0, 0)
    assert "Traceback" not in faulty.log_text(), faulty.log_text()[-3000:]


def _runs_cancelled(host: Host) -> float:
    text = httpx.get(host.base_url + "/metrics", trust_env=False).text
    return sum(
        v
        for n, labels, v in parse_metrics(text)
        if n == "agentic_driver_runs_total" and labels["outcome"] == "cancelled"
    )


def test_a_reader_stalled_on_a_real_socket_is_cut_off_and_others_are_served(faulty: Host) -> None:
    """A stateless stream of ~3 MB to a client that stops reading: the host's socket buffers fill, the
    stream waits (at most 64 unread deltas behind), and after streamStallMs the host gives up on it."""
    time.sleep(0.1)
    baseline = gauges(faulty)
    cancelled = _runs_cancelled(faulty)
    with httpx.Client(base_url=faulty.base_url, headers={"Authorization": f"Bearer {ALICE}"}, trust_env=False) as http:
        body = json.dumps(_run(None, "!chunks 3000\n" + "s" * 3_000_000)).encode()
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(_address(faulty))
        head = (
            f"POST /v1/runs/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ALICE}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        stalled.sendall(head.encode() + body)
        assert stalled.recv(1024).startswith(b"HTTP/1.1 200")  # then it reads nothing more
        started = time.monotonic()
        # meanwhile another session runs to completion
        other = http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"}).json()
        assert http.post("/v1/runs", json=_run(other["session"], "Served")).status_code == 200
        deadline = time.monotonic() + 15
        while _runs_cancelled(faulty) == cancelled:
            assert time.monotonic() < deadline, "the stalled stream was never cut off"
            time.sleep(0.05)
        assert time.monotonic() - started >= STALL_MS / 1000 - 0.05
        assert gauges(faulty)["agentic_driver_active_runs"] == 0  # while the stalled socket is still open
        stalled.close()
    settled(faulty, baseline)
