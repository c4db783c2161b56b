"""Three hosts behind the generated HAProxy config: every request that names a session or run reaches its
owner in one hop (by the ``Agentic-Host`` header, or by the id in the path), a wrong hop is answered 421 and
one retry on the owner succeeds, and a stream started through the proxy can be cancelled by its run id."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import httpx
from e2e.conftest import ALICE
from httpx_sse import connect_sse

from agentic_driver.ids import owner_of

from .conftest import HOST_HEADER, Cluster

ECHO = {"provider": "echo", "model": "echo-1"}
ATTEMPTS = 60
"""Session runs without the header sent until one lands on a wrong host (each does with probability 2/3)."""


def new_sessions(http: httpx.Client, count: int) -> list[dict[str, Any]]:
    sessions = []
    for _ in range(count):
        created = http.post("/v1/sessions", json={**ECHO, "mode": "history"})
        assert created.status_code == 201, created.text
        sessions.append(created.json()["session"])
    return sessions


def session_run(session_id: str, revision: int, text: str) -> dict[str, Any]:
    return {**ECHO, "input": text, "session": {"id": session_id, "revision": revision}}


def misdirected(cluster: Cluster) -> int:
    return sum(host.error_count("MISDIRECTED_REQUEST") for host in cluster.hosts.values())


def test_new_sessions_spread_over_the_hosts_and_every_request_with_the_header_takes_one_hop(
    cluster: Cluster,
) -> None:
    before = misdirected(cluster)
    with cluster.http(route=True) as http:
        sessions = new_sessions(http, 12)
        for session in sessions:
            for revision in range(2):
                turn = http.post("/v1/runs", json=session_run(session["id"], revision, f"turn {revision}"))
                assert turn.status_code == 200, turn.text
                assert owner_of(turn.json()["id"]) == owner_of(session["id"])
            read = http.get(f"/v1/sessions/{session['id']}")
            assert read.status_code == 200 and read.json()["session"]["revision"] == 2
            assert http.delete(f"/v1/sessions/{session['id']}").status_code == 204

    owners = Counter(owner_of(s["id"]) for s in sessions)
    assert set(owners) <= set(cluster.hosts) and len(owners) >= 2, owners
    assert misdirected(cluster) == before  # every request reached its owner first time


def test_without_the_header_the_proxy_routes_on_the_id_in_the_path(cluster: Cluster) -> None:
    before = misdirected(cluster)
    with cluster.http(route=True) as routed:
        sessions = new_sessions(routed, 6)
    with cluster.http(route=False) as http:
        for session in sessions:
            read = http.get(f"/v1/sessions/{session['id']}")
            assert read.status_code == 200 and read.json()["session"]["id"] == session["id"]
            assert http.delete(f"/v1/sessions/{session['id']}").status_code == 204

    assert misdirected(cluster) == before


def test_a_session_run_without_the_header_on_a_wrong_host_gets_421_and_one_retry_on_the_owner_succeeds(
    cluster: Cluster,
) -> None:
    with cluster.http(route=True) as routed:
        (session,) = new_sessions(routed, 1)
    owner = owner_of(session["id"])
    revision, refusals = 0, []
    with cluster.http(route=False) as http:
        for attempt in range(ATTEMPTS):
            sent = session_run(session["id"], revision, f"attempt {attempt}")
            answer = http.post("/v1/runs", json=sent)
            if answer.status_code == 200:
                revision += 1
                continue
            refusals.append(answer)
            assert answer.status_code == 421, answer.text
            problem = answer.json()
            assert (problem["code"], problem["ownerHostId"]) == ("MISDIRECTED_REQUEST", owner)
            assert problem["hostId"] in cluster.hosts and problem["hostId"] != owner
            read = http.get(f"/v1/sessions/{session['id']}")  # nothing happened on the wrong host
            assert read.json()["session"]["revision"] == revision
            retried = http.post("/v1/runs", json=sent, headers={HOST_HEADER: problem["ownerHostId"]})
            assert retried.status_code == 200, retried.text
            revision += 1
            if len(refusals) >= 3:
                break

    assert len(refusals) >= 3, f"{ATTEMPTS} runs without the header never landed on a wrong host three times"


def test_a_host_answers_a_request_for_another_hosts_session_421_directly(cluster: Cluster) -> None:
    with cluster.http(route=True) as routed:
        (session,) = new_sessions(routed, 1)
    owner = owner_of(session["id"])
    stranger = next(host for host_id, host in cluster.hosts.items() if host_id != owner)

    with stranger.raw(ALICE) as direct:
        read = direct.get(f"/v1/sessions/{session['id']}")
        deleted = direct.delete(f"/v1/sessions/{session['id']}")

    for answer in (read, deleted):
        assert answer.status_code == 421
        assert answer.json()["ownerHostId"] == owner
    with cluster.http(route=True) as routed:
        assert routed.get(f"/v1/sessions/{session['id']}").status_code == 200  # the delete did nothing


def test_a_stream_started_through_the_proxy_is_cancelled_by_its_run_id(cluster: Cluster) -> None:
    cancelled = 0
    with cluster.http(route=True) as http, cluster.http(route=False) as plain:
        for session in new_sessions(http, 6):
            body = session_run(session["id"], 0, "!sleep 20000\nslow")
            with connect_sse(http, "POST", "/v1/runs/stream", json=body) as source:
                assert source.response.status_code == 200
                events = source.iter_sse()
                started = json.loads(next(e for e in events if e.data).data)
                assert started["type"] == "run.started"
                run_id = started["runId"]
                assert owner_of(run_id) == owner_of(session["id"])
                cancel = plain.post(f"/v1/runs/{run_id}/cancel")  # routed by the run id in the path
                assert cancel.status_code == 200, cancel.text
                assert cancel.json()["status"] == "cancelled"
                last = [json.loads(e.data) for e in events if e.data][-1]
            assert (last["type"], last["problem"]["code"]) == ("run.failed", "RUN_CANCELLED")
            cancelled += 1

    assert cancelled == 6
