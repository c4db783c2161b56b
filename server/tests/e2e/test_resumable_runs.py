"""Resumable runs over HTTP: ``onDisconnect``, ``streamRunEvents`` with ``Last-Event-ID``, ``getRun``.

Each test talks to a real host process. Streams are read raw (``httpx``), so what is checked is the
host's SSE ids and events as a client receives them; a client that hangs up simply closes its
connection. The default (``cancel``) is checked beside each ``continue`` case: it must still interrupt.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from agentic_driver_client.api.runs import get_run
from agentic_driver_client.models import RunState, RunStateStatus

from .conftest import (
    ALICE,
    ALICE_NO_READ,
    ALL_GRANTS,
    BOB,
    WAIT_TIMEOUT_S,
    Host,
    echo_provider,
    token_entry,
)

SLOW_SIX = "!chunks 6\n!sleep 60\nHello there friend"
"""Eight events (run.started, six deltas, run.completed) over about 0.4 s: a drop lands mid-run."""


@dataclass
class Message:
    id: int
    event: str
    data: dict[str, Any]


def messages(response: httpx.Response, stop_after: int | None = None) -> Iterator[Message]:
    """The SSE messages of a streamed answer, as sent (comments skipped); stops after ``stop_after``."""
    fields: dict[str, str] = {}
    count = 0
    for line in response.iter_lines():
        if line.startswith(":"):
            continue
        if line:
            name, _, value = line.partition(": ")
            fields[name] = value
            continue
        if fields:
            count += 1
            yield Message(int(fields["id"]), fields["event"], json.loads(fields["data"]))
            fields = {}
            if stop_after is not None and count == stop_after:
                return


@pytest.fixture(scope="module")
def resumable_host(launch: Callable[..., Host]) -> Host:
    """Small event buffers (so a long run outgrows them) and a short retention (so runs are forgotten)."""
    return launch(
        "resumable",
        {
            "hostId": "resumable",
            "providers": [echo_provider("echo")],
            "sessions": {"retentionMs": 60_000},
            "limits": {"maxConcurrentRuns": 8, "maxRunEventBytes": 16384, "heartbeatMs": 100},
            "runs": {"retentionMs": 2_000, "maxEntries": 50},
            "tokens": [
                token_entry("alice", ALICE, ["*"], ALL_GRANTS),
                token_entry("alice", ALICE_NO_READ, ["*"], [g for g in ALL_GRANTS if g != "read"]),
                token_entry("bob", BOB, ["*"], ALL_GRANTS),
            ],
        },
    )


def new_session(http: httpx.Client) -> dict[str, Any]:
    created = http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
    assert created.status_code == 201, created.text
    session: dict[str, Any] = created.json()["session"]
    return session


def session_run(session: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
    handle = {"id": session["id"], "revision": session["revision"]}
    return {"provider": "echo", "model": "echo-1", "input": text, "session": handle, **extra}


@contextmanager
def streamed(http: httpx.Client, body: dict[str, Any], **headers: str) -> Iterator[httpx.Response]:
    with http.stream("POST", "/v1/runs/stream", json=body, headers=headers) as response:
        assert response.status_code == 200, response.read()
        yield response


def first_events(http: httpx.Client, body: dict[str, Any], count: int, **headers: str) -> list[Message]:
    """Read ``count`` events of a new stream, then hang up."""
    with streamed(http, body, **headers) as response:
        return list(messages(response, stop_after=count))


def rejoin(http: httpx.Client, run_id: str, last_event_id: int | None = None) -> list[Message]:
    headers = {"Agentic-Host": "resumable"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    with http.stream("GET", f"/v1/runs/{run_id}/events", headers=headers) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(messages(response))


def read_until(http: httpx.Client, path: str, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """GET ``path`` until ``done`` holds (bounded), and return that answer."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    while True:
        answer: dict[str, Any] = http.get(path).json()
        if done(answer):
            return answer
        assert time.monotonic() < deadline, f"{path} never reached the state: {answer}"
        time.sleep(0.02)


# -- the bar ---------------------------------------------------------------------


def test_a_continue_stream_dropped_after_4_events_is_rejoined_with_exactly_the_rest(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        seen = first_events(http, session_run(session, SLOW_SIX, onDisconnect="continue"), 4)
        assert [m.id for m in seen] == [1, 2, 3, 4]
        run_id = seen[0].data["runId"]

        rest = rejoin(http, run_id, last_event_id=seen[-1].id)

        assert [m.id for m in rest] == [5, 6, 7, 8]
        assert [m.event for m in rest] == ["output.delta", "output.delta", "output.delta", "run.completed"]
        text = "".join(m.data["text"] for m in [*seen, *rest] if m.event == "output.delta")
        assert text == "echo: Hello there friend" == rest[-1].data["run"]["output"]["text"]
        state = http.get(f"/v1/runs/{run_id}").json()
        assert (state["status"], state["lastEventId"], state["firstEventId"]) == ("completed", 8, 1)
        assert state["result"]["output"]["text"] == text
        read = http.get(f"/v1/sessions/{session['id']}").json()
        assert (read["session"]["revision"], read["session"]["status"]) == (1, "ready")


def test_without_on_disconnect_the_same_drop_still_interrupts_the_session(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        seen = first_events(http, session_run(session, SLOW_SIX), 4)

        read = read_until(http, f"/v1/sessions/{session['id']}", lambda r: r["session"]["status"] != "running")

        assert read["session"]["status"] == "interrupted"
        assert (read["session"]["revision"], read["interruptedTurn"]["reason"]) == (0, "disconnected")
        state = http.get(f"/v1/runs/{seen[0].data['runId']}").json()
        assert (state["status"], state["onDisconnect"]) == ("cancelled", "cancel")
        assert state["problem"]["code"] == "RUN_CANCELLED" and state["problem"]["reason"] == "disconnected"


def test_a_json_continue_run_whose_client_gave_up_completes_and_its_retry_replays_it(resumable_host: Host) -> None:
    body_calls = resumable_host.provider_calls("echo")
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        body = session_run(session, "!sleep 600\nslow answer", onDisconnect="continue")
        key = {"Idempotency-Key": "json-continue-1"}
        with pytest.raises(httpx.ReadTimeout):  # the client gives up after 0.2 s; the host carries on
            http.post("/v1/runs", json=body, headers=key, timeout=0.2)

        read = read_until(http, f"/v1/sessions/{session['id']}", lambda r: r["session"]["status"] != "running")
        again = http.post("/v1/runs", json=body, headers=key)

        assert (read["session"]["status"], read["session"]["revision"]) == ("ready", 1)
        assert again.status_code == 200, again.text
        assert again.json()["output"]["text"] == "echo: slow answer"
        assert again.json()["session"]["revision"] == 1
        assert resumable_host.provider_calls("echo") == body_calls + 1


def test_a_retry_of_an_active_continue_stream_with_its_key_joins_the_run(resumable_host: Host) -> None:
    calls = resumable_host.provider_calls("echo")
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        body = session_run(session, SLOW_SIX, onDisconnect="continue")
        key = {"Idempotency-Key": "join-1"}
        first = first_events(http, body, 2, **key)

        with streamed(http, body, **key) as response:
            joined = list(messages(response))

        assert [m.id for m in joined] == list(range(1, 9))  # from the run's first event, not a second run
        assert joined[0].data["runId"] == first[0].data["runId"]
        assert joined[-1].event == "run.completed" and joined[-1].data["run"]["session"]["revision"] == 1
        assert resumable_host.provider_calls("echo") == calls + 1


def test_a_rejoin_after_an_ended_runs_final_event_is_an_empty_stream_that_ends(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http:
        run = http.post("/v1/runs", json={"provider": "echo", "model": "echo-1", "input": "done"}).json()
        last = http.get(f"/v1/runs/{run['id']}").json()["lastEventId"]

        assert rejoin(http, run["id"], last) == []  # answered at once, not held open with keep-alives


def test_several_readers_follow_one_run_live_and_each_sees_every_event_once(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        seen = first_events(http, session_run(session, SLOW_SIX, onDisconnect="continue"), 1)
        run_id = seen[0].data["runId"]

        readers = [rejoin(http, run_id), rejoin(http, run_id, 1), rejoin(http, run_id)]

        assert [m.id for m in readers[0]] == list(range(1, 9)) == [m.id for m in readers[2]]
        assert [m.id for m in readers[1]] == list(range(2, 9))
        assert readers[0][0].data == seen[0].data  # the same run.started, session and all


# -- a paused run: the actions stream goes on numbering ----------------------------------------


def test_an_actions_stream_continues_the_runs_ids_and_is_rejoined_after_them(resumable_host: Host) -> None:
    tools = [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}]
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        body = session_run(session, '!call lookup {"q": 1}\nwhat', tools=tools, onDisconnect="continue")
        with streamed(http, body) as response:
            paused = list(messages(response))
        assert [m.event for m in paused] == ["run.started", "run.requires_action"]
        run = paused[-1].data["run"]
        call_id = run["requiredAction"]["calls"][0]["callId"]
        answer = {"functionResults": [{"callId": call_id, "output": "42"}]}
        assert http.get(f"/v1/runs/{run['id']}").json()["status"] == "requires_action"

        with http.stream("POST", f"/v1/runs/{run['id']}/actions/stream", json=answer) as response:
            continued = list(messages(response))

        assert continued[0].id == 3 and continued[-1].event == "run.completed"
        assert [m.id for m in continued] == list(range(3, 3 + len(continued)))
        assert [m.id for m in rejoin(http, run["id"], 2)] == [m.id for m in continued]
        assert [m.id for m in rejoin(http, run["id"])] == [1, 2]  # a reader ends at the next outcome


def test_a_retry_of_an_active_continue_actions_stream_with_its_key_joins_it_after_the_pause(
    resumable_host: Host,
) -> None:
    tools = [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}]
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        ask = session_run(session, '!call lookup {"q": 1}\n!chunks 6\n!sleep 60\nwhat', tools=tools)
        paused = http.post("/v1/runs", json=ask).json()
        call_id = paused["requiredAction"]["calls"][0]["callId"]
        answer = {"functionResults": [{"callId": call_id, "output": "42"}], "onDisconnect": "continue"}
        key = {"Idempotency-Key": "actions-join-1"}
        path = f"/v1/runs/{paused['id']}/actions/stream"
        with http.stream("POST", path, json=answer, headers=key) as response:
            first = list(messages(response, stop_after=1))  # then the connection drops

        with http.stream("POST", path, json=answer, headers=key) as response:
            joined = list(messages(response))

        assert first[0].id == 3
        assert joined[0].id == 3 and joined[-1].event == "run.completed"  # the same answer's events, from its first
        assert [m.id for m in joined] == list(range(3, 3 + len(joined)))
        assert joined[-1].data["run"]["session"]["revision"] == 1


# -- bounds and refusals -------------------------------------------------------------------


def test_a_last_event_id_older_than_the_buffer_is_run_events_expired_with_the_first_id_held(
    resumable_host: Host,
) -> None:
    with resumable_host.raw(ALICE) as http:
        long_run = {"provider": "echo", "model": "echo-1", "input": "!chunks 200\n" + "x" * 200}
        seen = first_events(http, {**long_run, "onDisconnect": "continue"}, 1)
        run_id = seen[0].data["runId"]
        state = read_until(http, f"/v1/runs/{run_id}", lambda s: s["status"] == "completed")
        assert state["lastEventId"] == 202 and state["firstEventId"] > 1

        expired = http.get(f"/v1/runs/{run_id}/events", headers={"Last-Event-ID": "1"})
        tail = rejoin(http, run_id, state["firstEventId"] - 1)

        assert expired.status_code == 410
        problem = expired.json()
        assert (problem["code"], problem["firstEventId"]) == ("RUN_EVENTS_EXPIRED", state["firstEventId"])
        assert tail[0].id == state["firstEventId"] and tail[-1].id == 202 and tail[-1].event == "run.completed"
        metrics = resumable_host.metrics()
        held = [v for name, _, v in metrics if name == "agentic_driver_run_event_bytes"]
        assert held and 0 < held[0] <= 50 * 16384


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "0x2", "99999999999999999999"])
def test_a_malformed_last_event_id_is_a_validation_error(resumable_host: Host, value: str) -> None:
    with resumable_host.raw(ALICE) as http:
        run = http.post("/v1/runs", json={"provider": "echo", "model": "echo-1", "input": "hi"}).json()
        answer = http.get(f"/v1/runs/{run['id']}/events", headers={"Last-Event-ID": value})

        assert answer.status_code == 422
        assert answer.json()["code"] == "VALIDATION_ERROR"
        assert answer.json()["errors"][0]["location"] == "header.Last-Event-ID"


def test_another_subjects_run_an_unknown_run_and_a_forgotten_run_are_run_not_found(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as alice, resumable_host.raw(BOB) as bob:
        run = alice.post("/v1/runs", json={"provider": "echo", "model": "echo-1", "input": "mine"}).json()
        assert alice.get(f"/v1/runs/{run['id']}").status_code == 200

        answers = [
            bob.get(f"/v1/runs/{run['id']}"),
            bob.get(f"/v1/runs/{run['id']}/events"),
            alice.get("/v1/runs/run_resumable.doesNotExist0000000000"),
        ]
        forgotten = read_until(alice, f"/v1/runs/{run['id']}", lambda a: a.get("code") == "RUN_NOT_FOUND")

        assert [(a.status_code, a.json()["code"]) for a in answers] == [(404, "RUN_NOT_FOUND")] * 3
        assert answers[0].json()["detail"] == answers[2].json()["detail"].replace(
            "run_resumable.doesNotExist0000000000", run["id"]
        )  # nothing tells another subject that the run exists
        assert forgotten["status"] == 404  # runs.retentionMs (2 s here) after its end


def test_reading_a_session_run_needs_the_read_grant(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http, resumable_host.raw(ALICE_NO_READ) as no_read:
        session = new_session(http)
        run = http.post("/v1/runs", json=session_run(session, "hi")).json()
        stateless = no_read.post("/v1/runs", json={"provider": "echo", "model": "echo-1", "input": "hi"}).json()

        assert no_read.get(f"/v1/runs/{run['id']}").json()["code"] == "PERMISSION_DENIED"
        assert no_read.get(f"/v1/runs/{run['id']}/events").json()["code"] == "PERMISSION_DENIED"
        assert no_read.get(f"/v1/runs/{stateless['id']}").status_code == 200  # a stateless run needs none


def test_deleting_the_session_forgets_its_runs(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http:
        session = new_session(http)
        run = http.post("/v1/runs", json=session_run(session, "hi")).json()
        assert http.get(f"/v1/runs/{run['id']}").status_code == 200

        assert http.delete(f"/v1/sessions/{session['id']}").status_code == 204

        assert http.get(f"/v1/runs/{run['id']}").json()["code"] == "RUN_NOT_FOUND"


def test_discovery_advertises_the_capability_and_the_hosts_bounds(resumable_host: Host) -> None:
    with resumable_host.raw(ALICE) as http:
        runs = http.get("/v1/discovery").json()["runs"]

    assert runs == {
        "onDisconnect": ["cancel", "continue"],
        "maxRunEventBytes": 16384,
        "retentionMs": 2000,
        "maxEntries": 50,
    }


def test_get_run_through_the_generated_client_parses_into_run_state(resumable_host: Host) -> None:
    with resumable_host.client(ALICE) as client, resumable_host.raw(ALICE) as http:
        session = new_session(http)
        run = http.post("/v1/runs", json=session_run(session, "hi", onDisconnect="continue")).json()

        state = get_run.sync(client=client, run_id=run["id"])

    assert isinstance(state, RunState)
    assert state.status == RunStateStatus.COMPLETED
    assert state.session.revision == 1 and state.result.output.text == "echo: hi"
