"""A request for another host's session or run gets 421 MISDIRECTED_REQUEST, after authentication and with
no side effect; ``/readyz`` says whether the host takes new work. In-process through httpx.ASGITransport."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agentic_driver import Driver, TokenPolicy, embedded_default
from agentic_driver.config import with_host_id
from agentic_driver.http import create_app
from agentic_driver.http.limits import Drain
from agentic_driver.ids import HostIds

TOKEN = "owner-test-token-0123456"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ECHO = {"provider": "echo", "model": "echo-1"}
OTHER_SESSION = HostIds("host-b").new_session_id()
OTHER_RUN = HostIds("host-b").new_run_id()


class Host:
    def __init__(self, host_id: str) -> None:
        config, _ = embedded_default(token=TOKEN)
        self.driver = Driver.from_config(with_host_id(config, host_id, {}))
        self.drain = Drain()
        app = create_app(self.driver, TokenPolicy(config.tokens), drain=self.drain)
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://host", headers=AUTH)

    async def new_session(self) -> dict[str, Any]:
        created = await self.http.post("/v1/sessions", json={**ECHO, "mode": "history"})
        assert created.status_code == 201, created.text
        session: dict[str, Any] = created.json()["session"]
        return session

    def model_calls(self) -> float:
        return sum(
            sample.value
            for metric in self.driver.metrics.registry.collect()
            if metric.name == "agentic_driver_provider_calls"
            for sample in metric.samples
            if sample.name.endswith("_total")
        )


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    host = Host("host-a")
    async with host.http:
        yield host


def assert_misdirected(response: httpx.Response, owner: str) -> None:
    assert response.status_code == 421, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert (problem["code"], problem["hostId"], problem["ownerHostId"]) == ("MISDIRECTED_REQUEST", "host-a", owner)
    assert problem["status"] == 421 and problem["type"] == "urn:agentic-driver:problem:MISDIRECTED_REQUEST"


ANOTHER_HOSTS_IDS = [
    ("GET", f"/v1/sessions/{OTHER_SESSION}", None),
    ("DELETE", f"/v1/sessions/{OTHER_SESSION}", None),
    ("POST", f"/v1/sessions/{OTHER_SESSION}/truncate", {"revision": 0, "keepTurns": 0}),
    ("POST", f"/v1/runs/{OTHER_RUN}/cancel", None),
    ("POST", f"/v1/runs/{OTHER_RUN}/actions", {"kind": "approvals", "approvals": []}),
    ("POST", f"/v1/runs/{OTHER_RUN}/actions/stream", {"kind": "approvals", "approvals": []}),
    ("POST", "/v1/runs", {**ECHO, "input": "hi", "session": {"id": OTHER_SESSION, "revision": 0}}),
    ("POST", "/v1/runs/stream", {**ECHO, "input": "hi", "session": {"id": OTHER_SESSION, "revision": 0}}),
]


@pytest.mark.parametrize(("method", "path", "body"), ANOTHER_HOSTS_IDS)
async def test_an_id_of_another_host_is_answered_421_naming_the_owner(
    host: Host, method: str, path: str, body: dict[str, Any] | None
) -> None:
    response = await host.http.request(method, path, json=body)

    assert_misdirected(response, "host-b")
    assert "host 'host-b'" in response.json()["detail"]


@pytest.mark.parametrize(("method", "path", "body"), ANOTHER_HOSTS_IDS)
async def test_authentication_comes_first(host: Host, method: str, path: str, body: dict[str, Any] | None) -> None:
    response = await host.http.request(method, path, json=body, headers={"Authorization": "Bearer nobody-knows-me"})

    assert response.json()["code"] == "UNAUTHENTICATED"


async def test_a_header_naming_another_host_refuses_a_run_before_its_body_is_read_and_runs_nothing(
    host: Host,
) -> None:
    session = await host.new_session()
    before = host.model_calls()
    sent = {**ECHO, "input": "hi", "session": {"id": session["id"], "revision": 0}}

    misrouted = await host.http.post("/v1/runs", json=sent, headers={"Agentic-Host": "host-b"})
    unread = await host.http.post("/v1/runs", content=b"{not json", headers={"Agentic-Host": "host-b"})

    assert_misdirected(misrouted, "host-b")
    assert_misdirected(unread, "host-b")  # not VALIDATION_ERROR: the body was never read
    read = await host.http.get(f"/v1/sessions/{session['id']}")
    assert (read.json()["session"]["revision"], read.json()["session"]["status"]) == (0, "ready")
    assert host.model_calls() == before
    served = await host.http.post("/v1/runs", json=sent, headers={"Agentic-Host": "host-a"})
    assert served.status_code == 200 and served.json()["session"]["revision"] == 1


async def test_a_path_id_of_this_host_wins_over_a_header_naming_another(host: Host) -> None:
    session = await host.new_session()

    read = await host.http.get(f"/v1/sessions/{session['id']}", headers={"Agentic-Host": "host-b"})

    assert read.status_code == 200


async def test_an_older_id_without_a_host_part_is_not_found_unless_the_header_names_another_host(host: Host) -> None:
    old = "/v1/sessions/ses_Vb3kQ9sLm2Xc8Rt4Ny7Pwa"

    plain = await host.http.get(old)
    for_b = await host.http.get(old, headers={"Agentic-Host": "host-b"})
    for_a = await host.http.get(old, headers={"Agentic-Host": "host-a"})

    assert plain.json()["code"] == for_a.json()["code"] == "SESSION_NOT_FOUND"
    assert_misdirected(for_b, "host-b")


async def test_operations_that_name_nothing_are_served_whatever_the_header(host: Host) -> None:
    created = await host.http.post("/v1/sessions", json={**ECHO, "mode": "history"}, headers={"Agentic-Host": "x"})
    discovery = await host.http.get("/v1/discovery", headers={"Agentic-Host": "x"})

    assert created.status_code == 201 and created.json()["session"]["id"].startswith("ses_host-a.")
    assert discovery.status_code == 200


async def test_readyz_is_200_until_the_drain_then_shutting_down_and_head_answers_the_same(host: Host) -> None:
    ready = await host.http.get("/readyz", headers={})
    host.drain.begin()
    draining = await host.http.get("/readyz", headers={})
    head = await host.http.head("/readyz", headers={})
    health = await host.http.get("/healthz")

    assert (ready.status_code, ready.json()) == (200, {"status": "ready"})
    assert draining.status_code == 503 and draining.headers["retry-after"] == "1"
    problem = draining.json()
    assert problem["code"] == "SHUTTING_DOWN"
    assert "create a new session on another host" in problem["detail"]
    assert (head.status_code, head.content) == (503, b"")
    assert health.status_code == 200


async def test_a_draining_host_still_serves_its_sessions_and_refuses_new_work(host: Host) -> None:
    session = await host.new_session()
    host.drain.begin()

    read = await host.http.get(f"/v1/sessions/{session['id']}")
    turn = await host.http.post(
        "/v1/runs", json={**ECHO, "input": "hi", "session": {"id": session["id"], "revision": 0}}
    )
    created = await host.http.post("/v1/sessions", json={**ECHO, "mode": "history"})
    stateless = await host.http.post("/v1/runs", json={**ECHO, "input": "hi"})
    deleted = await host.http.delete(f"/v1/sessions/{session['id']}")

    assert read.status_code == 200
    assert {r.json()["code"] for r in (turn, created, stateless)} == {"SHUTTING_DOWN"}
    assert deleted.status_code == 204
