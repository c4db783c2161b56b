"""Request ids end to end, and the JSON log format: every answer, problem, log line and upstream call.

One host logs JSON at info level (host JSON ``logging.format``); the tests talk to it through the
generated client, read its log file line by line as JSON, and check the id an OpenAI-compatible fake
upstream received.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.health import get_health
from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import read_session
from fakes import OpenAIChatFake

from .conftest import (
    ALICE,
    ALL_GRANTS,
    Host,
    echo_provider,
    function_results,
    function_tool,
    new_session,
    run_request,
    submit_ok,
    token_entry,
)
from .observed import KEY_ENV, UPSTREAM_KEY, chat_provider
from .observed import chat_fake as chat_fake  # a fixture: import it where it is used

MINTED = re.compile(r"^[0-9a-f]{32}$")


@pytest.fixture(scope="module")
def json_host(launch: Callable[..., Host], chat_fake: OpenAIChatFake) -> Host:
    config = {
        "hostId": "e2e-request-ids",
        "providers": [
            echo_provider("echo"),
            chat_provider(chat_fake),
        ],
        "sessions": {"retentionMs": 60_000},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
        "logging": {"format": "json"},
    }
    return launch("request-ids", config, env={KEY_ENV: UPSTREAM_KEY}, log_level="info")


@contextmanager
def tagged(host: Host, headers: dict[str, str]) -> Iterator[AuthenticatedClient]:
    """Alice's generated client sending these headers on every request."""
    with host.client(ALICE).with_headers(headers) as client:
        yield client


def log_entries(host: Host) -> list[dict[str, Any]]:
    """Every line of the host's log, each of which must be one JSON object."""
    entries = []
    for line in host.log_text().splitlines():
        if line.strip():
            entries.append(json.loads(line))  # a line that is not JSON fails here
    return entries


def access_lines(host: Host, request_id: str, timeout_s: float = 5.0) -> list[dict[str, Any]]:
    """The request's access lines, once there is one: the host writes it after the answer's last byte went out,
    so a client that has its answer may read the log before the line is there (bounded wait)."""
    deadline = time.monotonic() + timeout_s
    while True:
        lines = [
            e for e in log_entries(host) if e["logger"] == "agentic_driver.access" and e["request_id"] == request_id
        ]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.02)


def test_a_minted_id_on_every_answer_and_in_the_problem_body(json_host: Host) -> None:
    with json_host.anonymous() as anonymous, json_host.client(ALICE) as alice:
        health = get_health.sync_detailed(client=anonymous)
        refused = get_discovery.sync_detailed(client=anonymous)
        found = get_discovery.sync_detailed(client=alice)
        missing = read_session.sync_detailed("ses_nope", client=alice)
    ids = [r.headers["x-request-id"] for r in (health, refused, found, missing)]
    assert all(MINTED.match(i) for i in ids), ids
    assert len(set(ids)) == 4
    assert json.loads(refused.content)["requestId"] == ids[1]
    assert json.loads(missing.content)["requestId"] == ids[3]
    with json_host.raw(ALICE) as http:  # no route, wrong method: answers the generated client cannot ask for
        for response in (http.get("/v1/nothing"), http.put("/v1/discovery")):
            assert MINTED.match(response.headers["x-request-id"])
            assert response.json()["requestId"] == response.headers["x-request-id"]


@pytest.mark.parametrize("presented", ["client-req.0001:a_b-c", "x" * 128])
def test_a_well_formed_client_id_is_kept(json_host: Host, presented: str) -> None:
    with tagged(json_host, {"X-Request-Id": presented}) as alice:
        response = read_session.sync_detailed("ses_nope", client=alice)
    assert response.headers["x-request-id"] == presented
    assert json.loads(response.content)["requestId"] == presented


@pytest.mark.parametrize("presented", ["", "x" * 129, "has space", "semi;colon", "é-accent", "a/b"])
def test_a_malformed_client_id_is_replaced(json_host: Host, presented: str) -> None:
    with json_host.raw(ALICE) as http:
        response = http.get("/v1/discovery", headers={"X-Request-Id": presented.encode()})
    assert response.status_code == 200
    assert MINTED.match(response.headers["x-request-id"])


def test_log_lines_of_a_turn_carry_its_id_operation_session_and_run(json_host: Host) -> None:
    with json_host.client(ALICE) as alice:
        session = new_session(alice)
    with tagged(json_host, {"X-Request-Id": "turn-with-function-1"}) as alice:
        ask = run_request('!call f {"city": "Oslo"}\nhi', session, tools=[function_tool("f")])
        paused = run.sync_detailed(client=alice, body=ask)
    assert paused.status_code == 200 and paused.parsed is not None
    call_id = paused.parsed.required_action.calls[0].call_id  # type: ignore[union-attr]
    with tagged(json_host, {"X-Request-Id": "turn-with-function-2"}) as alice:
        done = submit_ok(alice, paused.parsed.id, function_results((call_id, "ok")))
    with tagged(json_host, {"X-Request-Id": "failing-turn"}) as alice:
        failed = run.sync_detailed(client=alice, body=run_request("!fail overloaded", done.session))  # type: ignore[arg-type]
    assert failed.status_code == 503
    run_id = paused.parsed.id
    [started] = access_lines(json_host, "turn-with-function-1")
    assert started["operation"] == "run" and started["status"] == 200
    assert started["session_id"] == session.id and started["run_id"] == run_id
    assert started["level"] == "INFO" and isinstance(started["duration_ms"], float)
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", started["timestamp"])
    [answered] = access_lines(json_host, "turn-with-function-2")
    assert answered["operation"] == "submitRunActions" and answered["run_id"] == run_id
    assert answered["session_id"] == session.id
    [refused] = access_lines(json_host, "failing-turn")
    assert (refused["status"], refused["code"], refused["operation"]) == (503, "PROVIDER_OVERLOADED", "run")
    assert "code" not in started


def test_the_upstream_call_carries_the_request_id(json_host: Host, chat_fake: OpenAIChatFake) -> None:
    before = len(chat_fake.requests)
    with tagged(json_host, {"X-Request-Id": "to-the-provider-1"}) as alice:
        response = run.sync_detailed(client=alice, body=run_request("hello", provider="chat", model="gpt-4o"))
    assert response.status_code == 200, response.content
    [recorded] = chat_fake.requests[before:]
    assert recorded.headers["x-request-id"] == "to-the-provider-1"
    assert "traceparent" not in recorded.headers  # tracing is off on this host
