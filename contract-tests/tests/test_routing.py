"""The kit's ``Agentic-Host`` (agentic_driver_conformance/routing.py), as clients/BEHAVIOUR.md "Routing" asks.

The table is the Routing section's: the operations that name an existing session or run, where they name it, and
the requests that name nothing. The player tests capture the request the generated client would send (a request
hook stops it before any connection), so they need no host.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from agentic_driver_conformance import routing, scenarios
from agentic_driver_conformance.resources import SCENARIOS_DIR

OWNED_SESSION, OWNED_RUN = "ses_kit-a.0000000000000000000000", "run_kit-b.0000000000000000000000"
SESSION_BODY = {"provider": "echo", "model": "echo-1", "input": "hi", "session": {"id": OWNED_SESSION, "revision": 0}}

ROUTED: list[tuple[str, dict[str, Any], Any, str | None]] = [
    ("readSession", {"sessionId": OWNED_SESSION}, None, "kit-a"),
    ("deleteSession", {"sessionId": OWNED_SESSION}, None, "kit-a"),
    ("truncateSession", {"sessionId": OWNED_SESSION}, {"revision": 0, "keepTurns": 0}, "kit-a"),
    ("forkSession", {"sessionId": OWNED_SESSION}, {"revision": 0}, "kit-a"),
    ("forkSession", {"sessionId": OWNED_SESSION}, {}, "kit-a"),
    ("submitRunActions", {"runId": OWNED_RUN}, {"actions": []}, "kit-b"),
    ("streamRunActions", {"runId": OWNED_RUN}, {"actions": []}, "kit-b"),
    ("cancelRun", {"runId": OWNED_RUN}, None, "kit-b"),
    ("run", {}, SESSION_BODY, "kit-a"),
    ("streamRun", {}, SESSION_BODY, "kit-a"),
    # The misdirected scenario's ids: the header names their host, so a proxy cannot route them to a host of its
    # own and the host that gets them answers 421 (direct or behind the proxy).
    ("readSession", {"sessionId": "ses_elsewhere.0000000000000000000000"}, None, "elsewhere"),
    # Requests that name nothing are balanced by the proxy.
    ("createSession", {}, {"provider": "echo", "model": "echo-1", "mode": "history"}, None),
    ("run", {}, {"provider": "echo", "model": "echo-1", "input": "stateless"}, None),
    ("getDiscovery", {}, None, None),
    ("getHealth", {}, None, None),
    # Ids without an owner: an older host's (no "."), another prefix, a host part that is no DNS label.
    ("readSession", {"sessionId": "ses_0000000000000000000000"}, None, None),
    ("cancelRun", {"runId": "job_kit-a.0000000000000000000000"}, None, None),
    ("readSession", {"sessionId": "ses_Kit_A.0000000000000000000000"}, None, None),
    ("readSession", {"sessionId": "ses_-kit.0000000000000000000000"}, None, None),
    # Generated (fuzzed) values that are not ids at all.
    ("readSession", {"sessionId": 42}, None, None),
    ("run", {}, {"session": "ses_kit-a.0000000000000000000000"}, None),
    ("run", {}, ["not", "an", "object"], None),
]


@pytest.mark.parametrize(("operation", "path", "body", "owner"), ROUTED)
def test_the_routing_header_is_the_owner_the_id_names(
    operation: str, path: dict[str, Any], body: Any, owner: str | None
) -> None:
    assert routing.routing_host(operation, path, body) == owner
    expected = {"Accept": "application/json"} | ({routing.ROUTING_HEADER: owner} if owner else {})
    assert routing.with_routing_header({"Accept": "application/json"}, operation, path, body) == expected


@pytest.mark.parametrize("spelling", ["Agentic-Host", "agentic-host", "AGENTIC-HOST"])
def test_a_header_the_request_sets_itself_wins(spelling: str) -> None:
    headers = routing.with_routing_header({spelling: "other-host"}, "readSession", {"sessionId": OWNED_SESSION}, None)
    assert headers == {spelling: "other-host"}


class Stopped(Exception):
    """Raised by the capturing hook: the request never leaves the process."""


def _sent(step: dict[str, Any], scenario_name: str = "a-scenario", pin_host: str | None = None) -> httpx.Request:
    """The request the scenario player builds for ``step`` (through the generated client), captured unsent."""
    captured: list[httpx.Request] = []

    def capture(request: httpx.Request) -> None:
        captured.append(request)
        raise Stopped

    steps = [{**step, "expect": {"status": 200}}]
    scenario = scenarios.Scenario(scenario_name, SCENARIOS_DIR / "x.json", {"name": "x", "steps": steps})
    runner = scenarios.Runner(
        {"main": "http://127.0.0.1:9"}, {"full": "secret"}, request_hooks=[capture], pin_host=pin_host
    )
    try:
        with pytest.raises(Stopped):
            runner.play(scenario)
    finally:
        runner.close()
    (request,) = captured
    return request


def test_the_player_sends_the_owner_of_the_session_a_run_names_in_its_body() -> None:
    request = _sent({"call": "run", "body": SESSION_BODY})
    assert request.headers.get(routing.ROUTING_HEADER) == "kit-a"


def test_the_player_sends_the_owner_of_the_run_in_the_path() -> None:
    request = _sent({"call": "cancelRun", "path": {"runId": OWNED_RUN}})
    assert request.url.path == f"/v1/runs/{OWNED_RUN}/cancel"
    assert request.headers.get(routing.ROUTING_HEADER) == "kit-b"


def test_the_player_sends_the_owner_of_the_session_a_fork_copies() -> None:
    """A fork is made on its source's host: the header names the owner of the path's session id."""
    request = _sent({"call": "forkSession", "path": {"sessionId": OWNED_SESSION}, "body": {"revision": 1}})
    assert request.url.path == f"/v1/sessions/{OWNED_SESSION}/fork"
    assert request.headers.get(routing.ROUTING_HEADER) == "kit-a"


def test_the_player_sends_no_routing_header_on_a_request_that_names_nothing() -> None:
    request = _sent({"call": "createSession", "body": {"provider": "echo", "model": "echo-1", "mode": "history"}})
    assert routing.ROUTING_HEADER not in request.headers


def test_a_step_that_sets_the_header_itself_wins() -> None:
    step = {"call": "readSession", "path": {"sessionId": OWNED_SESSION}, "headers": {"Agentic-Host": "elsewhere"}}
    assert _sent(step).headers.get(routing.ROUTING_HEADER) == "elsewhere"


def test_a_one_process_scenario_names_its_host_on_requests_that_name_nothing() -> None:
    """Behind a proxy, host-busy (say) must fill one host's run slots: every request goes to the pinned host."""
    create = {"call": "createSession", "body": {"provider": "echo", "model": "echo-1", "mode": "history"}}
    assert _sent(create, "host-busy", pin_host="kit-b").headers.get(routing.ROUTING_HEADER) == "kit-b"
    # The session's own owner still decides for a request that names one; other scenarios are balanced.
    assert (
        _sent({"call": "run", "body": SESSION_BODY}, "host-busy", pin_host="kit-b").headers[routing.ROUTING_HEADER]
        == "kit-a"
    )
    assert routing.ROUTING_HEADER not in _sent(create, "session-continue", pin_host="kit-b").headers


def test_the_one_process_scenarios_are_those_about_one_host() -> None:
    one_process = {scenario.name for scenario in scenarios.all_scenarios() if scenario.one_process}
    with_metrics = {
        scenario.name
        for scenario in scenarios.all_scenarios()
        if any("metric" in step for step in scenario.data["steps"])
    }
    assert set(scenarios.ONE_PROCESS) <= {scenario.name for scenario in scenarios.all_scenarios()}
    assert one_process == set(scenarios.ONE_PROCESS) | with_metrics
    assert "misdirected" not in one_process, "its 421s must come from whichever host the proxy picks"
