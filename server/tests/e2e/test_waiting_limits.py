"""Bounded waiting: ``limits.maxWaitingRuns`` refuses runs that could pause once that many may wait, and a
run's ``actionTimeoutMs`` ends it as cancelled (``action_timeout``) when nobody answers its action."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from agentic_driver_client.api.runs import cancel_run, run, submit_run_actions

from .conftest import (
    ALICE,
    RETENTION_MS,
    Host,
    assert_problem,
    function_results,
    new_session,
    read_ok,
    run_ok,
    run_request,
    simple_config,
)
from .test_functions import ASK, WEATHER, paused_call, session_of

MAX_WAITING = 2


@pytest.fixture(scope="module")
def waiting_host(launch: Callable[..., Host]) -> Host:
    config = simple_config("e2e-waiting", sessions={"retentionMs": RETENTION_MS})
    config["limits"]["maxWaitingRuns"] = MAX_WAITING
    return launch("waiting", config)


def places_in_use(host: Host) -> float:
    return next(value for name, _, value in host.metrics() if name == "agentic_driver_waiting_places_in_use")


def test_runs_that_may_wait_are_refused_once_the_waiting_places_are_held(waiting_host: Host) -> None:
    with waiting_host.client(ALICE) as alice:
        busy_before = waiting_host.error_count("HOST_BUSY")
        parked = [run_ok(alice, run_request(ASK, tools=WEATHER)) for _ in range(MAX_WAITING)]
        assert all(result.status.value == "requires_action" for result in parked)
        assert places_in_use(waiting_host) == MAX_WAITING

        refused = run.sync_detailed(client=alice, body=run_request(ASK, tools=WEATHER))
        assert_problem(refused, 503, "HOST_BUSY", limit="maxWaitingRuns", maximum=MAX_WAITING, retryAfterSeconds=1)
        assert refused.headers["retry-after"] == "1"
        session = new_session(alice)
        refused_turn = run.sync_detailed(client=alice, body=run_request(ASK, session, tools=WEATHER))
        assert_problem(refused_turn, 503, "HOST_BUSY", limit="maxWaitingRuns")
        read = read_ok(alice, session.id)  # refused before admission: no turn, no model work
        assert (read.session.status.value, read.session.revision) == ("ready", 0)
        assert waiting_host.error_count("HOST_BUSY") == busy_before + 2

        # a run that offers no functions can never pause: it holds no waiting place
        assert run_ok(alice, run_request("plain", session)).status.value == "completed"

        # answering one parked run lets it finish, which frees its place
        first = parked[0]
        done = submit_run_actions.sync_detailed(
            first.id, client=alice, body=function_results((paused_call(first).call_id, "sunny"))
        )
        assert done.status_code == 200 and done.parsed is not None
        assert done.parsed.status.value == "completed"
        again = run_ok(alice, run_request(ASK, tools=WEATHER))
        assert again.status.value == "requires_action"

        # cancelling frees a place too
        for result in (parked[1], again):
            assert cancel_run.sync_detailed(result.id, client=alice).status_code == 200
        last = run_ok(alice, run_request(ASK, session, revision=1, tools=WEATHER))
        assert last.status.value == "requires_action"
        assert cancel_run.sync_detailed(last.id, client=alice).status_code == 200
        assert places_in_use(waiting_host) == 0


def test_an_unanswered_run_ends_on_its_action_timeout(waiting_host: Host) -> None:
    timeout_ms = 300
    with waiting_host.client(ALICE) as alice:
        session = new_session(alice)
        began = time.monotonic()
        paused = run_ok(alice, run_request(ASK, session, tools=WEATHER, action_timeout_ms=timeout_ms))
        call = paused_call(paused)
        assert session_of(paused).status.value == "running"

        deadline = began + timeout_ms / 1000 + 5.0
        read = read_ok(alice, session.id)
        while read.session.status.value == "running" and time.monotonic() < deadline:
            read = read_ok(alice, session.id)
        ended = time.monotonic() - began
        assert read.session.status.value == "interrupted"
        assert timeout_ms / 1000 <= ended < timeout_ms / 1000 + 5.0
        assert read.session.revision == 0  # the turn never committed
        interrupted = read.interrupted_turn
        assert interrupted is not None and not isinstance(interrupted, type(None))
        assert (interrupted.run_id, interrupted.input_, interrupted.reason.value) == (paused.id, ASK, "action_timeout")

        late = submit_run_actions.sync_detailed(paused.id, client=alice, body=function_results((call.call_id, "x")))
        assert_problem(late, 404, "RUN_NOT_FOUND")
        assert waiting_host.provider_calls("echo", "cancelled") >= 1
