"""The generated nginx configuration, run: header and path routing to each session's owner, and the proxy's
own HOST_UNAVAILABLE (naming the host) for a host that is down. What nginx cannot do (active health checks
in the open-source build, so no drain by readiness) is documented in the README's Scaling section."""

from __future__ import annotations

import signal
import time
from collections import Counter
from typing import Any

import httpx

from agentic_driver.ids import owner_of

from .conftest import HOST_HEADER, Cluster

ECHO = {"provider": "echo", "model": "echo-1"}


def test_nginx_routes_every_session_request_to_its_owner_and_answers_for_a_dead_host(make_cluster: Any) -> None:
    cluster: Cluster = make_cluster(["ngx-a", "ngx-b"], engine="nginx")
    with cluster.http(route=True, timeout=httpx.Timeout(5.0)) as http, cluster.http(route=False) as plain:
        sessions = [http.post("/v1/sessions", json={**ECHO, "mode": "history"}).json()["session"] for _ in range(8)]
        for session in sessions:
            turn = http.post("/v1/runs", json={**ECHO, "input": "hi", "session": {"id": session["id"], "revision": 0}})
            assert turn.status_code == 200, turn.text
            assert plain.get(f"/v1/sessions/{session['id']}").json()["session"]["revision"] == 1  # by the path
        owners = Counter(owner_of(s["id"]) for s in sessions)

        cluster.hosts["ngx-a"].process.send_signal(signal.SIGKILL)
        cluster.hosts["ngx-a"].process.wait(timeout=5)
        killed = time.monotonic()
        doomed = next(s for s in sessions if owner_of(s["id"]) == "ngx-a")
        gone = http.get(f"/v1/sessions/{doomed['id']}")
        took = time.monotonic() - killed
        survivor = next(s for s in sessions if owner_of(s["id"]) == "ngx-b")
        kept = http.get(f"/v1/sessions/{survivor['id']}", headers={HOST_HEADER: "ngx-b"})

    assert set(owners) == {"ngx-a", "ngx-b"}, owners
    assert gone.status_code == 503 and gone.headers["retry-after"] == "1"
    assert (gone.json()["code"], gone.json()["ownerHostId"]) == ("HOST_UNAVAILABLE", "ngx-a")
    assert took < 3.0
    assert kept.status_code == 200
    for host in cluster.hosts.values():
        if host.process.poll() is None:
            assert host.error_count("MISDIRECTED_REQUEST") == 0
