"""Per-subject quotas (``limits.perSubject``) over HTTP: the N+1th session, concurrent run or run in the window is
refused ``SUBJECT_QUOTA_EXCEEDED`` 429 with the limit named, before any model call; other subjects are untouched.

Each test uses its own subjects, so the one host's counts never mix between tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from agentic_driver_client.api.runs import run, submit_run_actions
from agentic_driver_client.api.sessions import create_session, delete_session, fork_session
from agentic_driver_client.models import ForkSessionRequest

from .conftest import (
    ALICE,
    ALL_GRANTS,
    RETENTION_MS,
    Host,
    assert_problem,
    create_request,
    echo_provider,
    function_results,
    function_tool,
    new_session,
    run_ok,
    run_request,
    token_entry,
)

MAX_SESSIONS = 2
MAX_ACTIVE_RUNS = 1
RUNS_PER_MINUTE = 3
SUBJECTS = ("sessions-a", "sessions-b", "active-a", "active-b", "rate-a", "rate-b", "metrics-a")


def secret_of(subject: str) -> str:
    return f"quota-token-of-{subject}"


@pytest.fixture(scope="module")
def quota_host(launch: Callable[..., Host]) -> Host:
    return launch(
        "quotas",
        {
            "hostId": "e2e-quotas",
            "providers": [echo_provider("echo")],
            "sessions": {"retentionMs": RETENTION_MS},
            "limits": {
                "perSubject": {
                    "maxSessions": MAX_SESSIONS,
                    "maxActiveRuns": MAX_ACTIVE_RUNS,
                    "runsPerMinute": RUNS_PER_MINUTE,
                }
            },
            "tokens": [token_entry(s, secret_of(s), ["*"], ALL_GRANTS) for s in SUBJECTS],
        },
    )


def stateless(text: str = "hello") -> dict[str, Any]:
    return {"provider": "echo", "model": "echo-1", "input": text}


def quota_refusal(response: Any, limit: str, maximum: int) -> dict[str, Any]:
    body = assert_problem(response, 429, "SUBJECT_QUOTA_EXCEEDED", limit=limit, maximum=maximum)
    assert "secret" not in body["detail"] and "quota-token" not in body["detail"]
    return body


def refusals(host: Host, limit: str) -> int:
    return int(
        sum(
            value
            for name, labels, value in host.metrics()
            if name == "agentic_driver_subject_quota_refusals_total" and labels.get("limit") == limit
        )
    )


def test_a_subject_holding_its_most_sessions_is_refused_a_new_one_and_a_fork(quota_host: Host) -> None:
    with quota_host.client(secret_of("sessions-a")) as alice, quota_host.client(secret_of("sessions-b")) as bob:
        held = [new_session(alice) for _ in range(MAX_SESSIONS)]
        refused = create_session.sync_detailed(client=alice, body=create_request())
        body = quota_refusal(refused, "perSubject.maxSessions", MAX_SESSIONS)
        assert "Retry-After" not in refused.headers and "retryAfterSeconds" not in body  # waiting does not help
        forked = fork_session.sync_detailed(held[0].id, client=alice, body=ForkSessionRequest())
        quota_refusal(forked, "perSubject.maxSessions", MAX_SESSIONS)

        assert all(new_session(bob).id for _ in range(MAX_SESSIONS))  # another subject has its own count

        assert delete_session.sync_detailed(held[0].id, client=alice).status_code == 204
        new_session(alice)  # a deleted session frees its place at once
        quota_refusal(create_session.sync_detailed(client=alice, body=create_request()), "perSubject.maxSessions", 2)


def test_a_subject_with_its_most_active_runs_is_refused_before_any_model_call(quota_host: Host) -> None:
    tools = [function_tool("get_weather")]
    with quota_host.client(secret_of("active-a")) as alice, quota_host.client(secret_of("active-b")) as bob:
        session = new_session(alice)
        paused = run_ok(alice, run_request('!call get_weather {"city": "Oslo"}\nWeather?', session, tools=tools))
        assert paused.status.value == "requires_action"  # active: paused for the application

        calls_before = quota_host.provider_calls("echo")
        refused = run.sync_detailed(client=alice, body=run_request("hello"))
        quota_refusal(refused, "perSubject.maxActiveRuns", MAX_ACTIVE_RUNS)
        with quota_host.raw(secret_of("active-a")) as http:
            streamed = http.post("/v1/runs/stream", json=stateless())
        quota_refusal(streamed, "perSubject.maxActiveRuns", MAX_ACTIVE_RUNS)  # refused before the stream's head
        assert quota_host.provider_calls("echo") == calls_before  # no model call was made for either

        assert run_ok(bob, run_request("hello")).status.value == "completed"  # bob's runs are his own

        call = paused.required_action.calls[0]  # type: ignore[union-attr]
        done = submit_run_actions.sync_detailed(paused.id, client=alice, body=function_results((call.call_id, "3")))
        assert done.status_code == 200, done.content  # answering the paused run is not a new run
        assert run_ok(alice, run_request("hello")).status.value == "completed"  # its end freed the place


def test_the_run_after_the_minutes_most_is_refused_with_retry_after_and_a_replay_is_not(quota_host: Host) -> None:
    with quota_host.raw(secret_of("rate-a")) as alice, quota_host.raw(secret_of("rate-b")) as bob:
        keyed = alice.post("/v1/runs", json=stateless("first"), headers={"Idempotency-Key": "rate-a-first"})
        assert keyed.status_code == 200, keyed.text
        for _ in range(RUNS_PER_MINUTE - 1):
            assert alice.post("/v1/runs", json=stateless()).status_code == 200
        calls_before = quota_host.provider_calls("echo")
        before = refusals(quota_host, "perSubject.runsPerMinute")

        refused = alice.post("/v1/runs", json=stateless())
        body = quota_refusal(refused, "perSubject.runsPerMinute", RUNS_PER_MINUTE)
        retry_after = int(refused.headers["Retry-After"])
        assert 1 <= retry_after <= 60 and body["retryAfterSeconds"] == retry_after
        quota_refusal(alice.post("/v1/runs/stream", json=stateless()), "perSubject.runsPerMinute", RUNS_PER_MINUTE)
        assert quota_host.provider_calls("echo") == calls_before
        assert refusals(quota_host, "perSubject.runsPerMinute") == before + 2

        # a client's retry of an accepted run replays its outcome: it starts no run, so no quota refuses it
        replay = alice.post("/v1/runs", json=stateless("first"), headers={"Idempotency-Key": "rate-a-first"})
        assert replay.status_code == 200 and replay.json()["id"] == keyed.json()["id"]
        assert bob.post("/v1/runs", json=stateless()).status_code == 200


def test_refusal_metrics_carry_the_limit_and_never_the_subject(quota_host: Host) -> None:
    with quota_host.client(secret_of("metrics-a")) as carol:
        for _ in range(MAX_SESSIONS):
            new_session(carol)
        before = refusals(quota_host, "perSubject.maxSessions")
        quota_refusal(create_session.sync_detailed(client=carol, body=create_request()), "perSubject.maxSessions", 2)
        assert refusals(quota_host, "perSubject.maxSessions") == before + 1
    series = [labels for name, labels, _ in quota_host.metrics() if name.startswith("agentic_driver_subject_quota")]
    assert {labels["limit"] for labels in series if "limit" in labels} == {
        "perSubject.maxSessions",
        "perSubject.maxActiveRuns",
        "perSubject.runsPerMinute",
    }
    exposed = httpx.get(f"{quota_host.base_url}/metrics", trust_env=False).text
    assert not any(subject in exposed for subject in SUBJECTS)


def test_a_host_without_quotas_refuses_no_subject(main_host: Host) -> None:
    """The default sets no quota: more runs a minute than the quota host allows, all answered."""
    with main_host.raw(ALICE) as alice:
        for _ in range(RUNS_PER_MINUTE + 2):
            assert alice.post("/v1/runs", json=stateless()).status_code == 200
        with alice.stream("POST", "/v1/runs/stream", json=stateless()) as streamed:
            assert streamed.status_code == 200
            assert "run.completed" in streamed.read().decode()
