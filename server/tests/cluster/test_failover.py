"""A host leaving the cluster: drained on SIGTERM, or killed with SIGKILL, behind the generated HAProxy config.

Drain: its running turn completes, new sessions go to the other host within a
bounded time, and its own sessions are still served until it exits.
SIGKILL: its open stream ends at once, requests for its sessions get the
proxy's ``HOST_UNAVAILABLE`` (naming it) within 3 s, the other host's sessions
are untouched, no request waits past 5 s; restarted, it answers 404.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx
from e2e.conftest import launch_host
from httpx_sse import connect_sse

from agentic_driver.ids import owner_of

from .conftest import Cluster, cluster_config

ECHO = {"provider": "echo", "model": "echo-1"}
LEAVE_BOUND_S = 5.0
"""A draining host must stop getting new sessions within this (HAProxy: 2 failed checks 500 ms apart)."""
UNAVAILABLE_BOUND_S = 3.0
REQUEST_BOUND_S = 5.0
CREATE_ATTEMPTS = 40


def session_on(http: httpx.Client, host_id: str) -> dict[str, Any]:
    """A new session that the load balancer happened to place on ``host_id`` (bounded attempts)."""
    for _ in range(CREATE_ATTEMPTS):
        created = http.post("/v1/sessions", json={**ECHO, "mode": "history"})
        assert created.status_code == 201, created.text
        session: dict[str, Any] = created.json()["session"]
        if owner_of(session["id"]) == host_id:
            return session
        http.delete(f"/v1/sessions/{session['id']}")
    raise AssertionError(f"no session landed on {host_id} in {CREATE_ATTEMPTS} creations")


def wait_for_status(http: httpx.Client, session_id: str, status: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if http.get(f"/v1/sessions/{session_id}").json()["session"]["status"] == status:
            return
        time.sleep(0.02)
    raise AssertionError(f"session {session_id} never became {status}")


def test_sigterm_drains_a_host_its_turn_completes_new_sessions_move_and_its_sessions_are_served_until_exit(
    make_cluster: Any,
) -> None:
    cluster: Cluster = make_cluster(["drain-a", "drain-b"], cluster_config(drain_timeout_ms=20_000))
    leaving = cluster.hosts["drain-a"]
    with cluster.http(route=True) as http, ThreadPoolExecutor(max_workers=1) as pool:
        session = session_on(http, "drain-a")
        body = {**ECHO, "input": "!sleep 3000\nlast turn", "session": {"id": session["id"], "revision": 0}}
        turn: Future[httpx.Response] = pool.submit(http.post, "/v1/runs", json=body)
        wait_for_status(http, session["id"], "running")

        leaving.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        placements: list[tuple[float, str]] = []  # (seconds after SIGTERM, owner or refusal code)
        reads_during_turn: list[int] = []
        while not turn.done():
            created = http.post("/v1/sessions", json={**ECHO, "mode": "history"})
            at = time.monotonic() - signalled
            if created.status_code == 201:
                placements.append((at, str(owner_of(created.json()["session"]["id"]))))
            else:
                placements.append((at, created.json()["code"]))
            reads_during_turn.append(http.get(f"/v1/sessions/{session['id']}").status_code)
            time.sleep(0.05)
        finished = turn.result()
        last_leaving = max((at for at, where in placements if where != "drain-b"), default=0.0)
        exit_code = leaving.process.wait(timeout=15)

    assert finished.status_code == 200, finished.text
    assert (finished.json()["output"]["text"], finished.json()["session"]["revision"]) == ("echo: last turn", 1)
    assert reads_during_turn and set(reads_during_turn) == {200}
    assert exit_code == 0
    assert last_leaving < LEAVE_BOUND_S, placements
    assert any(at > last_leaving for at, _ in placements), placements  # and then only the other host got them
    assert {where for _, where in placements} <= {"drain-a", "drain-b", "SHUTTING_DOWN"}
    print(f"\ndrain: the draining host got its last new session or refusal {last_leaving:.2f} s after SIGTERM")


def read_stream(http: httpx.Client, body: dict[str, Any], started: threading.Event, ended: list[float]) -> None:
    """Read a stream until it ends (or breaks); record when."""
    try:
        with connect_sse(http, "POST", "/v1/runs/stream", json=body) as source:
            for event in source.iter_sse():
                if event.data and json.loads(event.data)["type"] == "run.started":
                    started.set()
    except httpx.HTTPError:
        pass
    finally:
        ended.append(time.monotonic())


def test_sigkill_ends_its_stream_at_once_its_sessions_get_host_unavailable_the_others_are_untouched(
    make_cluster: Any,
) -> None:
    config = cluster_config()
    cluster: Cluster = make_cluster(["kill-a", "kill-b"], config)
    victim = cluster.hosts["kill-a"]
    bounded = httpx.Timeout(REQUEST_BOUND_S)
    with cluster.http(route=True, timeout=bounded) as http:
        doomed = session_on(http, "kill-a")
        survivor = session_on(http, "kill-b")
        started, ended = threading.Event(), []
        body = {**ECHO, "input": "!sleep 30000\nnever", "session": {"id": doomed["id"], "revision": 0}}
        reader = threading.Thread(target=read_stream, args=(http, body, started, ended), daemon=True)
        reader.start()
        assert started.wait(10)

        victim.process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        victim.process.wait(timeout=REQUEST_BOUND_S)
        reader.join(REQUEST_BOUND_S)
        assert not reader.is_alive() and ended, "the stream did not end after its host was killed"
        stream_ended = ended[0] - killed

        answers: list[tuple[float, int, dict[str, Any]]] = []
        while True:
            sent = time.monotonic()
            answer = http.get(f"/v1/sessions/{doomed['id']}")
            answers.append((time.monotonic() - sent, answer.status_code, answer.json()))
            if answer.json().get("code") == "HOST_UNAVAILABLE" or time.monotonic() - killed > REQUEST_BOUND_S:
                break
            time.sleep(0.02)
        unavailable_after = time.monotonic() - killed

        kept = http.post(
            "/v1/runs", json={**ECHO, "input": "still here", "session": {"id": survivor["id"], "revision": 0}}
        )
        new_session = http.post("/v1/sessions", json={**ECHO, "mode": "history"})

    status, problem = answers[-1][1], answers[-1][2]
    assert (status, problem["code"], problem["ownerHostId"]) == (503, "HOST_UNAVAILABLE", "kill-a"), answers
    assert stream_ended < 1.0, stream_ended
    assert unavailable_after < UNAVAILABLE_BOUND_S, answers
    assert max(took for took, _, _ in answers) < REQUEST_BOUND_S
    assert kept.status_code == 200 and kept.json()["session"]["revision"] == 1
    assert new_session.status_code == 201 and owner_of(new_session.json()["session"]["id"]) == "kill-b"
    print(
        f"\nSIGKILL: stream ended after {stream_ended * 1000:.0f} ms; HOST_UNAVAILABLE after {unavailable_after:.2f} s"
    )

    # Restarted on its address, the host is back with an empty store: its old sessions are 404, never re-homed.
    workdir = victim.log_path.parent
    port = int(victim.base_url.rsplit(":", 1)[1])
    restarted = launch_host("kill-a-again", config, workdir, args=("--host-id", "kill-a"), port=port)
    cluster.hosts["kill-a"] = restarted
    with cluster.http(route=True, timeout=bounded) as http:
        deadline = time.monotonic() + 10
        while True:
            answer = http.get(f"/v1/sessions/{doomed['id']}")
            if answer.status_code != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
    assert (answer.status_code, answer.json()["code"]) == (404, "SESSION_NOT_FOUND")
