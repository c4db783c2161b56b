"""``onDisconnect`` means the same directly and behind every generated config, and a run is rejoined through one.

Two hosts with the generated HAProxy and the generated nginx configuration both in front of them; each test
runs directly against the owning host, through HAProxy and through nginx, and expects the same:

- ``cancel`` (the default): a session run whose client gives up after 0.3 s (JSON) or after its first two
  events (stream) leaves the session ``interrupted`` with reason ``disconnected``, within 0.5 s of the hang-up;
- ``continue``: the same JSON run completes (revision 1, ready) and a retry with its ``Idempotency-Key`` is a
  200 replay of the result;
- rejoin: a ``continue`` stream dropped after 4 events, then ``GET /v1/runs/{runId}/events`` with
  ``Last-Event-ID: 4`` reaches the run's owner (once by the ``Agentic-Host`` header, once by the run id in the
  path alone) and yields exactly events 5 to 8, ending in ``run.completed``; ``GET /v1/runs/{runId}`` too;
- stream events reach the client as they are written, not held back by the proxy.

The hosts' heartbeat is 20 s here, so nothing is written to a stream during the tests' silences: a proxy that
does not pass a client's hang-up on is caught at once, not rescued by the host's next write failing (HAProxy
without ``option abortonclose`` stops a stream only then, and a JSON run never). What was measured before and
after is in docs/cluster.md (*Disconnects*).
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from e2e.conftest import ALICE, REQUEST_TIMEOUT, Host, launch_host
from httpx_sse import ServerSentEvent, connect_sse

from agentic_driver.ids import owner_of

from .conftest import HOST_HEADER, POLL_S, Proxy, cluster_config, start_proxy

ECHO = {"provider": "echo", "model": "echo-1"}
HOST_IDS = ("dis-a", "dis-b")
VIAS = ("direct", "haproxy", "nginx")
HEARTBEAT_MS = 20_000
GIVE_UP = httpx.Timeout(5.0, read=0.3)
"""A JSON client that gives up 0.3 s into a 1 s turn."""
STOPPED_WITHIN_S = 0.5
"""A hung-up ``cancel`` run's session is interrupted within this of the hang-up (measured: under 0.1 s on
every path); the run's next write, which would reveal the hang-up anyway, is 0.7 s (JSON) or 1.5 s away."""
SETTLE_BOUND_S = 10.0
FIRST_EVENT_BOUND_S = 0.1
"""Median time to a stream's first event (measured: about 10 ms on every path, 210 ms through HAProxy without
``option http-no-delay``)."""


@dataclass
class Front:
    hosts: dict[str, Host]
    proxies: dict[str, Proxy]

    def http(
        self, via: str, owner: str, *, header: bool = True, timeout: httpx.Timeout = REQUEST_TIMEOUT
    ) -> httpx.Client:
        """A client of ``owner``'s session or run, directly or through a proxy; ``header``: it sends
        ``Agentic-Host`` as clients do (else a proxy has only the id in the path to route on)."""
        base_url = self.hosts[owner].base_url if via == "direct" else self.proxies[via].base_url
        headers = {"Authorization": f"Bearer {ALICE}"}
        if header:
            headers[HOST_HEADER] = owner
        return httpx.Client(base_url=base_url, headers=headers, timeout=timeout, trust_env=False)


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    workdir = tmp_path_factory.mktemp("disconnect")
    config = cluster_config()
    config["limits"]["heartbeatMs"] = HEARTBEAT_MS
    hosts: dict[str, Host] = {}
    proxies: dict[str, Proxy] = {}
    try:
        for host_id in HOST_IDS:
            hosts[host_id] = launch_host(host_id, config, workdir, log_level="warning", args=("--host-id", host_id))
        for engine in ("haproxy", "nginx"):
            proxies[engine] = start_proxy(hosts, workdir, ALICE, engine)
        yield Front(hosts, proxies)
    finally:
        for proxy in proxies.values():
            proxy.stop()
        for host in hosts.values():
            host.stop()


def new_session(host: Host) -> dict[str, Any]:
    """A session created on ``host`` itself, so its owner is known."""
    with host.raw(ALICE) as http:
        created = http.post("/v1/sessions", json={**ECHO, "mode": "history"})
    assert created.status_code == 201, created.text
    session: dict[str, Any] = created.json()["session"]
    return session


def session_run(session: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
    return {**ECHO, "input": text, "session": {"id": session["id"], "revision": 0}, **extra}


def settled(host: Host, session_id: str) -> tuple[dict[str, Any], float]:
    """The session once its turn is no longer running (read on its host), and how long that took."""
    started = time.monotonic()
    with host.raw(ALICE) as http:
        while True:
            read = http.get(f"/v1/sessions/{session_id}")
            assert read.status_code == 200, read.text
            document: dict[str, Any] = read.json()
            waited = time.monotonic() - started
            if document["session"]["status"] != "running" or waited > SETTLE_BOUND_S:
                return document, waited
            time.sleep(POLL_S)


def first_events(source: Any, count: int) -> list[ServerSentEvent]:
    events: list[ServerSentEvent] = []
    for event in source.iter_sse():
        events.append(event)
        if len(events) == count:
            break
    return events


def interrupted_by_disconnect(read: dict[str, Any]) -> tuple[str, int, str | None]:
    return read["session"]["status"], read["session"]["revision"], (read.get("interruptedTurn") or {}).get("reason")


@pytest.mark.parametrize("via", VIAS)
def test_a_json_run_whose_client_gives_up_leaves_its_session_interrupted_disconnected(front: Front, via: str) -> None:
    owner = "dis-a"
    session = new_session(front.hosts[owner])
    with front.http(via, owner, timeout=GIVE_UP) as http, pytest.raises(httpx.ReadTimeout):
        http.post("/v1/runs", json=session_run(session, "!sleep 1000\nslow"))
    read, took = settled(front.hosts[owner], session["id"])

    assert interrupted_by_disconnect(read) == ("interrupted", 0, "disconnected"), read
    assert took < STOPPED_WITHIN_S, took
    print(f"\n{via}: JSON run given up after 0.3 s -> interrupted (disconnected) {took * 1000:.0f} ms later")


@pytest.mark.parametrize("via", VIAS)
def test_a_stream_cut_after_its_first_events_leaves_its_session_interrupted_disconnected(
    front: Front, via: str
) -> None:
    owner = "dis-b"
    session = new_session(front.hosts[owner])
    body = session_run(session, "!chunks 2\n!sleep 1500\nslow stream")
    with front.http(via, owner) as http, connect_sse(http, "POST", "/v1/runs/stream", json=body) as source:
        seen = first_events(source, 2)
    read, took = settled(front.hosts[owner], session["id"])

    assert [e.event for e in seen] == ["run.started", "output.delta"]
    assert interrupted_by_disconnect(read) == ("interrupted", 0, "disconnected"), read
    assert read["interruptedTurn"]["runId"] == json.loads(seen[0].data)["runId"]
    assert took < STOPPED_WITHIN_S, took
    print(f"\n{via}: stream cut after 2 events -> interrupted (disconnected) {took * 1000:.0f} ms later")


@pytest.mark.parametrize("via", VIAS)
def test_a_json_run_that_continues_on_disconnect_completes_and_its_retry_replays_the_result(
    front: Front, via: str
) -> None:
    owner = "dis-a"
    session = new_session(front.hosts[owner])
    body = session_run(session, "!sleep 1000\nslow", onDisconnect="continue")
    key = {"Idempotency-Key": f"continue-{via}-{uuid.uuid4()}"}
    with front.http(via, owner, timeout=GIVE_UP) as http, pytest.raises(httpx.ReadTimeout):
        http.post("/v1/runs", json=body, headers=key)
    read, _ = settled(front.hosts[owner], session["id"])
    with front.http(via, owner) as http:
        retry = http.post("/v1/runs", json=body, headers=key)
        again = http.get(f"/v1/sessions/{session['id']}")

    assert (read["session"]["status"], read["session"]["revision"]) == ("ready", 1), read
    assert "interruptedTurn" not in read
    assert retry.status_code == 200, retry.text
    result = retry.json()
    assert (result["status"], result["output"]["text"], result["session"]["revision"]) == ("completed", "echo: slow", 1)
    assert owner_of(result["id"]) == owner
    assert again.json()["session"]["revision"] == 1  # the replay did not run a second turn


@pytest.mark.parametrize("via", VIAS)
def test_a_dropped_continue_stream_is_rejoined_after_its_fourth_event_on_its_owner(front: Front, via: str) -> None:
    for owner, header in (("dis-a", True), ("dis-b", False)):  # by the header; by the run id in the path alone
        session = new_session(front.hosts[owner])
        body = session_run(session, "!chunks 6\n!sleep 150\nHello there friend", onDisconnect="continue")
        with front.http(via, owner) as http, connect_sse(http, "POST", "/v1/runs/stream", json=body) as source:
            seen = first_events(source, 4)
        run_id = json.loads(seen[0].data)["runId"]
        with front.http(via, owner, header=header) as http:
            with connect_sse(http, "GET", f"/v1/runs/{run_id}/events", headers={"Last-Event-ID": "4"}) as source:
                assert source.response.status_code == 200, source.response.read()
                rest = list(source.iter_sse())
            run = http.get(f"/v1/runs/{run_id}")
        read, _ = settled(front.hosts[owner], session["id"])

        assert [e.id for e in seen] == ["1", "2", "3", "4"] and owner_of(run_id) == owner
        assert [e.id for e in rest] == ["5", "6", "7", "8"], [(e.id, e.event) for e in rest]
        assert [e.event for e in rest] == ["output.delta"] * 3 + ["run.completed"]
        completed = json.loads(rest[-1].data)["run"]
        assert (completed["output"]["text"], completed["session"]["revision"]) == ("echo: Hello there friend", 1)
        assert run.status_code == 200, run.text
        state = run.json()
        assert (state["status"], state["onDisconnect"], state["lastEventId"]) == ("completed", "continue", 8)
        assert (read["session"]["status"], read["session"]["revision"]) == ("ready", 1)
    for host in front.hosts.values():
        assert host.error_count("MISDIRECTED_REQUEST") == 0  # every request reached its owner first time


@pytest.mark.parametrize("via", VIAS)
def test_stream_events_reach_the_client_as_they_are_written(front: Front, via: str) -> None:
    waits = []
    for _ in range(5):
        # A stateless run (any host) whose first event is followed by a second of silence: nothing pushes it out.
        with front.http(via, "dis-a", header=False) as http:
            sent = time.monotonic()
            body = {**ECHO, "input": "!sleep 1000\nquiet"}
            with connect_sse(http, "POST", "/v1/runs/stream", json=body) as source:
                (first,) = first_events(source, 1)
                waits.append(time.monotonic() - sent)
        assert first.event == "run.started"

    assert statistics.median(waits) < FIRST_EVENT_BOUND_S, waits
    print(f"\n{via}: first stream event after {statistics.median(waits) * 1000:.0f} ms (median of 5)")
