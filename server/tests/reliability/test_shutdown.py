"""Graceful shutdown: SIGTERM drains (new work refused with a retryable 503, on kept-alive connections
too), admitted turns finish or are interrupted by the drain timeout, and the process exits 0."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from e2e.conftest import ALICE, Host, launch_host

from agentic_driver.config import LimitsConfig
from agentic_driver.http.server import drain_driver

from .conftest import history_config
from .inprocess import Rig, run_body
from .test_faults import FIRST, LOOKUP, paused_stream, turned

EXIT_WITHIN_S = 10.0


def _host(tmp_path: Path, name: str, drain_timeout_ms: int, read_window_ms: int | None = None) -> Host:
    config = history_config(name, 8)
    config["limits"]["drainTimeoutMs"] = drain_timeout_ms
    if read_window_ms is not None:
        config["limits"]["drainReadWindowMs"] = read_window_ms
    return launch_host(name, config, tmp_path)


def _address(host: Host) -> tuple[str, int]:
    hostname, port = host.base_url.removeprefix("http://").split(":")
    return hostname, int(port)


def _raw_request(method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
    payload = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Authorization: Bearer {ALICE}"]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + payload


def _read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length body, read from a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"connection closed before a response: {data!r}"
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        assert chunk
        rest += chunk
    return status, headers, rest[:length]


def _wait_exit(host: Host) -> int:
    try:
        return host.process.wait(timeout=EXIT_WITHIN_S)
    finally:
        host.stop()


async def _running(http: httpx.AsyncClient, session_id: str) -> None:
    for _ in range(500):
        if (await http.get(f"/v1/sessions/{session_id}")).json()["session"]["status"] == "running":
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the turn never started")


async def _draining(host: Host) -> None:
    """Wait (bounded) until the host has taken the signal: a fresh request that would start work is refused."""
    async with httpx.AsyncClient(base_url=host.base_url, trust_env=False) as http:
        for _ in range(200):
            probe = await http.post(
                "/v1/runs", json=run_body(None, "Probe"), headers={"Authorization": f"Bearer {ALICE}"}
            )
            if probe.status_code == 503:
                return
            await asyncio.sleep(0.02)
    raise AssertionError("the host never started draining")


async def test_sigterm_lets_admitted_turns_finish_and_refuses_new_work_then_exits_0(tmp_path: Path) -> None:
    host = _host(tmp_path, "drain-finish", drain_timeout_ms=10_000)
    try:
        keep_alive = socket.create_connection(_address(host), timeout=5)
        keep_alive.sendall(_raw_request("GET", "/v1/discovery"))
        assert _read_response(keep_alive)[0] == 200  # the connection stays open, idle, kept alive
        headers = {"Authorization": f"Bearer {ALICE}"}
        async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=20, trust_env=False) as http:
            sessions = []
            for _ in range(2):
                created = await http.post(
                    "/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"}
                )
                sessions.append(created.json()["session"])
            json_run = asyncio.create_task(http.post("/v1/runs", json=run_body(sessions[0], "!sleep 800\nFinish me")))
            streamed: list[dict[str, Any]] = []

            async def stream() -> None:
                body = run_body(sessions[1], "!chunks 4\n!sleep 200\nStream me")
                async with http.stream("POST", "/v1/runs/stream", json=body) as response:
                    async for line in response.aiter_lines():
                        if line.startswith("data: "):
                            streamed.append(json.loads(line.removeprefix("data: ")))

            stream_task = asyncio.create_task(stream())
            for session in sessions:
                await _running(http, session["id"])

            host.process.send_signal(signal.SIGTERM)
            await _draining(host)

            # a request on the connection kept alive from before the signal: refused, retryable
            keep_alive.sendall(_raw_request("POST", "/v1/runs", run_body(None, "New work")))
            status, response_headers, body = _read_response(keep_alive)
            assert (status, json.loads(body)["code"]) == (503, "SHUTTING_DOWN"), body
            assert response_headers["retry-after"] == "1"
            assert response_headers["connection"] == "close"
            # and on a new connection, for every operation that starts new work
            async with httpx.AsyncClient(base_url=host.base_url, headers=headers, trust_env=False) as fresh:
                for path, payload in (
                    ("/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}),
                    ("/v1/runs", run_body(None, "New")),
                    ("/v1/runs/stream", run_body(None, "New")),
                ):
                    refused = await fresh.post(path, json=payload)
                    assert (refused.status_code, refused.json()["code"]) == (503, "SHUTTING_DOWN"), path
                    assert refused.headers["retry-after"] == "1"
                    assert refused.json()["retryAfterSeconds"] == 1
                # reads still work while the admitted turns finish
                assert (await fresh.get(f"/v1/sessions/{sessions[0]['id']}")).status_code == 200

            finished = await asyncio.wait_for(json_run, 10)
            assert finished.status_code == 200, finished.text
            assert finished.json()["session"]["revision"] == 1
            await asyncio.wait_for(stream_task, 10)
            assert streamed[-1]["type"] == "run.completed"
            assert "".join(e["text"] for e in streamed if e["type"] == "output.delta") == "echo: Stream me"
        keep_alive.close()
        assert _wait_exit(host) == 0
        assert "Traceback" not in host.log_text()
    finally:
        host.stop()


async def test_the_drain_timeout_interrupts_turns_that_do_not_finish(tmp_path: Path) -> None:
    host = _host(tmp_path, "drain-timeout", drain_timeout_ms=300)
    try:
        headers = {"Authorization": f"Bearer {ALICE}"}
        async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=20, trust_env=False) as http:
            created = await http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
            session = created.json()["session"]
            hanging = asyncio.create_task(http.post("/v1/runs", json=run_body(session, "!hangafter 0\nNever done")))
            stateless = asyncio.create_task(http.post("/v1/runs", json=run_body(None, "!hangafter 0\nNor this")))
            await _running(http, session["id"])
            started = time.monotonic()
            host.process.send_signal(signal.SIGTERM)
            for task in (hanging, stateless):
                answer = await asyncio.wait_for(task, 10)
                assert (answer.status_code, answer.json()["code"]) == (409, "RUN_CANCELLED")
                assert answer.json()["reason"] == "shutdown"
                assert "shutting down" in answer.json()["detail"]
        assert _wait_exit(host) == 0
        assert time.monotonic() - started < 5.0
        assert "Traceback" not in host.log_text()
    finally:
        host.stop()


async def test_a_host_with_nothing_to_drain_exits_0_at_once(tmp_path: Path) -> None:
    """The default (``drainReadWindowMs`` 0): an idle host gives no window for reads, it closes at once."""
    host = _host(tmp_path, "drain-idle", drain_timeout_ms=30_000)
    assert "drainReadWindowMs" not in host.config["limits"] and LimitsConfig().drainReadWindowMs == 0
    started = time.monotonic()
    host.process.send_signal(signal.SIGTERM)
    assert _wait_exit(host) == 0
    assert time.monotonic() - started < 3.0


READ_WINDOW_MS = 4_000
"""Long enough for every check below on a loaded machine; the exit is asserted no earlier than this."""


async def test_the_read_window_serves_its_sessions_refuses_new_work_and_then_exits_0(tmp_path: Path) -> None:
    host = _host(tmp_path, "drain-window", drain_timeout_ms=10_000, read_window_ms=READ_WINDOW_MS)
    try:
        headers = {"Authorization": f"Bearer {ALICE}"}
        async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=20, trust_env=False) as http:
            kept, dropped, busy = [
                (
                    await http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
                ).json()["session"]
                for _ in range(3)
            ]
            turn = await http.post("/v1/runs", json=run_body(kept, "Remember me"))
            assert turn.status_code == 200, turn.text
            run_id = turn.json()["id"]
            last_turn = asyncio.create_task(http.post("/v1/runs", json=run_body(busy, "!sleep 800\nLast turn")))
            await _running(http, busy["id"])

            signalled = time.monotonic()
            host.process.send_signal(signal.SIGTERM)
            await _draining(host)
            finished = await asyncio.wait_for(last_turn, 10)  # the drain lets it end, then the window opens
            assert finished.status_code == 200, finished.text

            read = await http.get(f"/v1/sessions/{kept['id']}")
            assert read.status_code == 200, read.text
            assert [m["content"] for m in read.json()["history"]][-1] == "echo: Remember me"
            assert (await http.get(f"/v1/runs/{run_id}")).json()["status"] == "completed"  # kept ended runs too
            assert (await http.delete(f"/v1/sessions/{dropped['id']}")).status_code == 204
            assert (await http.get(f"/v1/sessions/{dropped['id']}")).json()["code"] == "SESSION_NOT_FOUND"
            for path, payload in (
                ("/v1/runs", run_body(read.json()["session"], "Carry on here")),
                ("/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}),
                ("/v1/runs/stream", run_body(None, "New")),
            ):
                refused = await http.post(path, json=payload)
                assert (refused.status_code, refused.json()["code"]) == (503, "SHUTTING_DOWN"), path
            assert (await http.get("/readyz")).status_code == 503
            assert (await http.get("/healthz")).status_code == 200

            last_read = time.monotonic()
            while host.process.poll() is None and time.monotonic() - signalled < READ_WINDOW_MS / 1000 + 10:
                try:
                    if (await http.get(f"/v1/sessions/{kept['id']}", timeout=2)).status_code == 200:
                        last_read = time.monotonic()
                except httpx.TransportError:
                    break  # the listener closed: the window is over
                await asyncio.sleep(0.05)
        assert _wait_exit(host) == 0
        exited = time.monotonic() - signalled
        assert exited >= READ_WINDOW_MS / 1000, exited  # never before the window
        assert exited < READ_WINDOW_MS / 1000 + EXIT_WITHIN_S, exited
        assert last_read - signalled >= READ_WINDOW_MS / 1000 - 1.0, last_read - signalled
        assert "Traceback" not in host.log_text()
        print(f"\nread window {READ_WINDOW_MS} ms: last read served {last_read - signalled:.2f} s, exit {exited:.2f} s")
    finally:
        host.stop()


async def test_a_second_signal_ends_the_read_window_at_once(tmp_path: Path) -> None:
    host = _host(tmp_path, "drain-window-twice", drain_timeout_ms=10_000, read_window_ms=60_000)
    try:
        host.process.send_signal(signal.SIGTERM)
        await _draining(host)
        headers = {"Authorization": f"Bearer {ALICE}"}
        async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=20, trust_env=False) as http:
            assert (await http.get("/v1/discovery")).status_code == 200  # in the window: served
        started = time.monotonic()
        host.process.send_signal(signal.SIGINT)
        assert _wait_exit(host) == 0
        assert time.monotonic() - started < 5.0  # not the 60 s window
    finally:
        host.stop()


async def test_a_second_signal_stops_at_once(tmp_path: Path) -> None:
    host = _host(tmp_path, "drain-twice", drain_timeout_ms=30_000)
    try:
        headers = {"Authorization": f"Bearer {ALICE}"}
        async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=20, trust_env=False) as http:
            created = await http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
            session = created.json()["session"]
            held = asyncio.create_task(http.post("/v1/runs", json=run_body(session, "!hangafter 0\nHeld")))
            await _running(http, session["id"])
            started = time.monotonic()
            host.process.send_signal(signal.SIGTERM)
            await asyncio.sleep(0.3)
            assert host.process.poll() is None  # draining: the held turn may take up to 30 s
            host.process.send_signal(signal.SIGINT)
            assert _wait_exit(host) == 0
            assert time.monotonic() - started < 5.0
            held.cancel()
            await asyncio.gather(held, return_exceptions=True)
    finally:
        host.stop()


# -- the drain in process ---------------------------------------------------------------------


async def test_draining_interrupts_every_kind_of_active_turn_with_reason_shutdown(rigs: Any) -> None:
    rig: Rig = rigs()
    running = await turned(rig)
    paused_session = await turned(rig)
    run = rig.call("POST", "/v1/runs", run_body(running, "!hangafter 0\nRunning"))
    await paused_stream(rig, paused_session, "!call lookup {}\nPaused", tools=LOOKUP)
    for _ in range(200):
        if len(rig.driver.active_runs()) == 2 and all(r.model_work_started for r in rig.driver.active_runs()):
            break
        await asyncio.sleep(0.005)
    rig.drain.begin()
    assert await drain_driver(rig.driver, 0.05) == 2
    await run.finished()
    assert (run.status, run.json()["reason"]) == (409, "shutdown")
    for session in (running, paused_session):
        read = await rig.read(session["id"])
        assert read["session"]["status"] == "interrupted"
        assert read["interruptedTurn"]["reason"] == "shutdown"
        assert [m["content"] for m in read["history"]] == FIRST


async def test_while_draining_admitted_turns_may_still_be_answered(rigs: Any) -> None:
    rig: Rig = rigs()
    session = await turned(rig)
    paused = await paused_stream(rig, session, "!call lookup {}\nAnswer me", tools=LOOKUP)
    rig.drain.begin()
    refused = await rig.request("POST", "/v1/runs", run_body(None, "New work"))
    assert (refused.status, refused.json()["code"]) == (503, "SHUTTING_DOWN")
    call_id = paused["requiredAction"]["calls"][0]["callId"]
    answered = await rig.request(
        "POST", f"/v1/runs/{paused['id']}/actions", {"functionResults": [{"callId": call_id, "output": "ok"}]}
    )
    assert answered.status == 200 and answered.json()["session"]["revision"] == 2
    assert (await rig.request("GET", f"/v1/sessions/{session['id']}")).status == 200
    assert await drain_driver(rig.driver, 1.0) == 0


async def test_a_draining_host_serves_a_continue_runs_rejoin_and_the_drain_then_frees_every_kept_run(
    rigs: Any,
) -> None:
    rig: Rig = rigs()
    session = await turned(rig)
    stream = rig.call("POST", "/v1/runs/stream", run_body(session, "!chunks 3\nkept", onDisconnect="continue"))
    await stream.finished()
    run_id = stream.events()[0]["runId"]
    rig.drain.begin()

    rejoined = await rig.request("GET", f"/v1/runs/{run_id}/events", headers={"last-event-id": "1"})
    assert rejoined.status == 200  # a read of the host's own run: served while it drains
    assert [e["type"] for e in rejoined.events()][-1] == "run.completed"
    assert rig.driver._runs.retained >= 1
    assert await drain_driver(rig.driver, 1.0) == 0

    assert rig.driver._runs.retained == 0 and rig.driver._runs.event_bytes() == 0
    assert (await rig.request("GET", f"/v1/runs/{run_id}")).json()["code"] == "RUN_NOT_FOUND"


def test_the_cli_exit_code_is_0_after_a_drain(tmp_path: Path) -> None:
    """``python -m agentic_driver serve`` itself (not only uvicorn) returns 0 once drained."""
    host = _host(tmp_path, "drain-cli", drain_timeout_ms=1_000)
    host.process.send_signal(signal.SIGTERM)
    assert _wait_exit(host) == 0
    assert isinstance(host.process, subprocess.Popen)
