"""Faults, in process: failing, hanging and garbage-emitting providers; a client that disconnects at
every point of a turn; slow stream readers. Every test ends with the rig's leak check (no run, slot,
task or timer left behind, every session expired and freed).

What CONTRACT.md says for each disconnect point:

- while the request body is still arriving (before admission): nothing happened; the session is as it was;
- waiting for a run slot (admitted, no model work): the session is ``ready`` again at the same revision;
- after model work started (first delta, or any time in a JSON run): ``interrupted``, reason
  ``disconnected``, the last successful history intact;
- after the turn completed but before its answer was read: the turn stays committed (readSession
  reconciles the lost answer).

A run paused for function results or approvals has no connection to lose (decided here; the contract
does not say): the request that carried ``requires_action`` has ended, so the run stays the session's
active turn, with retention suspended, until the application answers, cancels it, or deletes the
session. Losing the connection of the request that answers it is again "after model work started".
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from .inprocess import RETENTION_MS, AsgiCall, Rig, run_body

STREAM = "/v1/runs/stream"
FIRST = ["First turn", "echo: First turn"]
LOOKUP = [{"name": "lookup", "description": "Look something up.", "parameters": {"type": "object"}}]

Rigs = Callable[..., Rig]


async def turned(rig: Rig) -> dict[str, Any]:
    """A session at revision 1 with one good turn."""
    return await rig.complete_turn(await rig.new_session(), "First turn")


async def assert_interrupted(rig: Rig, session: dict[str, Any], reason: str) -> dict[str, Any]:
    read = await rig.read(session["id"])
    assert read["session"]["status"] == "interrupted", read
    assert read["session"]["revision"] == session["revision"]
    assert [m["content"] for m in read["history"]] == FIRST
    assert read["interruptedTurn"]["reason"] == reason
    again = await rig.request("POST", "/v1/runs", run_body(session, "Again"))
    assert (again.status, again.json()["code"]) == (409, "SESSION_INTERRUPTED")
    return read


async def assert_ready(rig: Rig, session: dict[str, Any]) -> None:
    read = await rig.read(session["id"])
    assert (read["session"]["status"], read["session"]["revision"]) == ("ready", session["revision"]), read
    assert [m["content"] for m in read["history"]] == FIRST
    assert "interruptedTurn" not in read


def failure(call: AsgiCall) -> dict[str, Any]:
    event = call.events()[-1]
    assert event["type"] == "run.failed", call.events()
    problem: dict[str, Any] = event["problem"]
    return problem


def active_run(rig: Rig) -> Any:
    runs = list(rig.driver._runs._runs.values())
    assert len(runs) == 1, runs
    return runs[0]


# -- providers that fail, hang or emit garbage --------------------------------------------------

FAULTS = [
    pytest.param(
        "!chunks 5\n!failafter 2\n", {}, 2, "PROVIDER_ERROR", "failed", "after 2 deltas", id="fails-mid-stream"
    ),
    pytest.param(
        "!chunks 5\n!hangafter 1\n", {"idleTimeoutMs": 150}, 1, "PROVIDER_TIMEOUT", "idle_timeout", "150 ms", id="hangs"
    ),
    pytest.param("!chunks 3\n!garbage\n", {}, 1, "PROVIDER_ERROR", "failed", "malformed event", id="garbage"),
]


@pytest.mark.parametrize(("directives", "extra", "deltas", "code", "reason", "detail"), FAULTS)
async def test_a_provider_fault_mid_stream_fails_the_run_and_interrupts_the_session(
    rigs: Rigs, directives: str, extra: dict[str, Any], deltas: int, code: str, reason: str, detail: str
) -> None:
    rig = rigs()
    session = await turned(rig)
    calls = rig.provider_calls()
    stream = await rig.request("POST", STREAM, run_body(session, directives + "A doomed reply", **extra))
    assert stream.status == 200
    assert stream.event_types() == ["run.started"] + ["output.delta"] * deltas + ["run.failed"]
    problem = failure(stream)
    assert (problem["code"], problem["status"]) == (code, 502 if code == "PROVIDER_ERROR" else 504)
    assert detail in problem["detail"], problem
    await assert_interrupted(rig, session, reason)
    assert rig.provider_calls() == calls + 1
    assert rig.errors("INTERNAL_ERROR") == 0


@pytest.mark.parametrize(("directives", "extra", "deltas", "code", "reason", "detail"), FAULTS)
async def test_a_provider_fault_in_a_json_run_is_a_problem_answer(
    rigs: Rigs, directives: str, extra: dict[str, Any], deltas: int, code: str, reason: str, detail: str
) -> None:
    rig = rigs()
    session = await turned(rig)
    answer = await rig.request("POST", "/v1/runs", run_body(session, directives + "A doomed reply", **extra))
    assert answer.status == (502 if code == "PROVIDER_ERROR" else 504)
    assert answer.json()["code"] == code and detail in answer.json()["detail"]
    await assert_interrupted(rig, session, reason)


async def test_a_provider_that_hangs_without_an_idle_timeout_is_ended_by_cancel(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    hanging = rig.call("POST", "/v1/runs", run_body(session, "!hangafter 0\nNever answered"))
    await wait_for(lambda: rig.driver.slots.in_use == 1, "the run holds a slot")
    run = active_run(rig)
    cancelled = await rig.request("POST", f"/v1/runs/{run.id}/cancel")
    assert cancelled.json()["modelWorkStarted"] is True
    await hanging.finished()
    assert (hanging.status, hanging.json()["code"], hanging.json()["reason"]) == (409, "RUN_CANCELLED", "cancelled")
    await assert_interrupted(rig, session, "cancelled")


# -- a client that disconnects at every point of a turn ------------------------------------------------


async def test_disconnect_while_the_body_is_still_arriving_changes_nothing(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    calls = rig.provider_calls()
    call = rig.call("POST", "/v1/runs", headers={"content-type": "application/json"})
    call.send_body(json.dumps(run_body(session, "Half sent")).encode()[:20], more=True)
    await asyncio.sleep(0.01)
    call.disconnect()
    await call.finished()
    await assert_ready(rig, session)
    assert rig.provider_calls() == calls
    assert rig.errors("INTERNAL_ERROR") == 0


@pytest.mark.parametrize("path", ["/v1/runs", STREAM])
async def test_disconnect_while_waiting_for_a_run_slot_leaves_the_session_ready(rigs: Rigs, path: str) -> None:
    rig = rigs(maxConcurrentRuns=1)
    holder = await rig.new_session()
    holding = rig.call("POST", "/v1/runs", run_body(holder, "!hangafter 0\nHold the only slot"))
    await wait_for(lambda: rig.driver.slots.in_use == 1, "the holder takes the slot")
    session = await turned_while_held(rig)
    calls = rig.provider_calls()
    waiting = rig.call("POST", path, run_body(session, "Waiting in line"))
    await wait_for(lambda: rig.driver.slots.waiting == 1, "the run waits for a slot")
    if path == STREAM:
        await waiting.until(lambda c: "run.started" in c.event_types(), "the stream started")
    waiting.disconnect()
    await waiting.finished()
    await assert_ready(rig, session)
    assert rig.provider_calls() == calls
    assert rig.driver.slots.waiting == 0
    deleted = await rig.request("DELETE", f"/v1/sessions/{holder['id']}")
    assert deleted.status == 204
    await holding.finished()
    assert holding.json()["reason"] == "session_deleted"


async def turned_while_held(rig: Rig) -> dict[str, Any]:
    """A session holding one good turn, made while every slot is taken: imported at creation."""
    history = [{"role": "user", "content": FIRST[0]}, {"role": "assistant", "content": FIRST[1]}]
    created = await rig.request(
        "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history", "history": history}
    )
    assert created.status == 201, created.body
    session: dict[str, Any] = created.json()["session"]
    return session


async def test_disconnect_after_the_first_delta_interrupts(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    stream = rig.call("POST", STREAM, run_body(session, "!chunks 4\n!sleep 30\nCut short"))
    await stream.until(lambda c: "output.delta" in c.event_types(), "the first delta")
    stream.disconnect()
    await stream.finished()
    read = await assert_interrupted(rig, session, "disconnected")
    assert read["interruptedTurn"]["input"] == "!chunks 4\n!sleep 30\nCut short"


async def test_disconnect_during_a_json_run_after_model_work_started_interrupts(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    call = rig.call("POST", "/v1/runs", run_body(session, "!chunks 2\n!hangafter 1\nHalf a reply"))
    await wait_for(lambda: len(rig.driver._runs) == 1 and active_run(rig).model_work_started, "model work started")
    call.disconnect()
    await call.finished()
    await assert_interrupted(rig, session, "disconnected")


async def test_disconnect_after_the_turn_completed_keeps_it(rigs: Rigs) -> None:
    """The answer is lost, not the turn: readSession reconciles it."""
    rig = rigs()
    session = await turned(rig)
    call = rig.call("POST", "/v1/runs", run_body(session, "Answer lost"))
    call.reading.clear()
    await wait_for(lambda: len(rig.driver._runs) == 0, "the turn ended")
    call.disconnect()
    await call.finished()
    read = await rig.read(session["id"])
    assert (read["session"]["status"], read["session"]["revision"]) == ("ready", 2)
    assert [m["content"] for m in read["history"]][2:] == ["Answer lost", "echo: Answer lost"]


async def paused_stream(rig: Rig, session: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
    """Stream a run until it pauses for the application; the stream (and its request) then ends."""
    stream = await rig.request("POST", STREAM, run_body(session, text, **extra))
    assert stream.event_types() == ["run.started", "run.requires_action"], stream.events()
    stream.disconnect()  # the client goes away after the request ended: nothing is listening any more
    run: dict[str, Any] = stream.events()[-1]["run"]
    return run


async def test_a_paused_run_has_no_connection_to_lose(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    run = await paused_stream(rig, session, "!call lookup {}\nWhat is it?", tools=LOOKUP)
    await asyncio.sleep(RETENTION_MS / 1000 + 0.1)  # longer than retention: a paused turn suspends it
    read = await rig.read(session["id"])
    assert (read["session"]["status"], read["session"]["expiresAt"]) == ("running", None)
    busy = await rig.request("POST", "/v1/runs", run_body(session, "Meanwhile"))
    assert busy.json()["code"] == "SESSION_BUSY" and busy.json()["activeRunId"] == run["id"]
    call_id = run["requiredAction"]["calls"][0]["callId"]
    answered = await rig.request(
        "POST", f"/v1/runs/{run['id']}/actions", {"functionResults": [{"callId": call_id, "output": "42"}]}
    )
    assert answered.status == 200, answered.body
    assert answered.json()["session"]["revision"] == 2
    assert answered.json()["output"]["text"] == "echo: What is it? | lookup -> 42"


async def test_disconnect_while_the_answer_to_an_approval_streams_interrupts(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    run = await paused_stream(rig, session, "!chunks 4\n!sleep 30\n!tool write_note {}\nNote this")
    call_id = run["requiredAction"]["approvals"][0]["callId"]
    stream = rig.call(
        "POST", f"/v1/runs/{run['id']}/actions/stream", {"approvals": [{"callId": call_id, "approve": True}]}
    )
    await stream.until(lambda c: "output.delta" in c.event_types(), "the first delta after approval")
    stream.disconnect()
    await stream.finished()
    await assert_interrupted(rig, session, "disconnected")


@pytest.mark.parametrize("ending", ["cancel", "delete"])
async def test_an_abandoned_paused_run_ends_by_cancel_or_delete(rigs: Rigs, ending: str) -> None:
    rig = rigs()
    session = await turned(rig)
    run = await paused_stream(rig, session, "!call lookup {}\nAbandoned", tools=LOOKUP)
    if ending == "cancel":
        cancelled = await rig.request("POST", f"/v1/runs/{run['id']}/cancel")
        assert cancelled.json()["modelWorkStarted"] is True
        await assert_interrupted(rig, session, "cancelled")
    else:
        assert (await rig.request("DELETE", f"/v1/sessions/{session['id']}")).status == 204
        assert len(rig.driver._runs) == 0


# -- slow stream readers --------------------------------------------------------------------------


async def test_a_stalled_reader_holds_at_most_64_unread_deltas_then_gets_everything(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    text = "x" * 600
    stream = rig.call("POST", STREAM, run_body(session, "!chunks 500\n" + text))
    stream.reading.clear()  # the client reads nothing for now
    await wait_for(lambda: len(rig.driver._runs) == 1 and active_run(rig).held_back, "the unread cap is hit")
    run = active_run(rig)
    await asyncio.sleep(0.1)
    assert run.unread <= 65, run.unread
    assert run.held_back  # the provider waits for the reader instead of buffering more
    # meanwhile the host serves other sessions
    other = await turned(rig)
    assert other["revision"] == 1
    stream.reading.set()
    await stream.finished()
    deltas = [e["text"] for e in stream.events() if e["type"] == "output.delta"]
    assert len(deltas) == 500 and "".join(deltas) == "echo: " + text
    assert stream.event_types()[-1] == "run.completed"


async def test_a_reader_that_disconnects_while_stalled_interrupts_the_turn(rigs: Rigs) -> None:
    rig = rigs()
    session = await turned(rig)
    stream = rig.call("POST", STREAM, run_body(session, "!chunks 500\n" + "y" * 600))
    stream.reading.clear()
    await wait_for(lambda: len(rig.driver._runs) == 1 and active_run(rig).held_back, "the unread cap is hit")
    stream.disconnect()
    await stream.finished()
    await assert_interrupted(rig, session, "disconnected")


async def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        await asyncio.sleep(0.005)


async def test_a_reader_stalled_beyond_the_stall_limit_counts_as_disconnected(rigs: Rigs) -> None:
    rig = rigs(streamStallMs=200)
    session = await turned(rig)
    stream = rig.call("POST", STREAM, run_body(session, "!chunks 500\n" + "z" * 600))
    stream.reading.clear()  # and never reads again, but keeps the connection open
    await stream.finished(timeout_s=3.0)
    assert not stream.complete  # the host gave up on the response
    await assert_interrupted(rig, session, "disconnected")


async def test_a_request_body_that_never_finishes_arriving_times_out(rigs: Rigs) -> None:
    rig = rigs(bodyTimeoutMs=150)
    session = await turned(rig)
    call = rig.call("POST", "/v1/runs", headers={"content-type": "application/json"})
    call.send_body(json.dumps(run_body(session, "Trickled")).encode()[:10], more=True)
    await call.finished()
    assert (call.status, call.json()["code"]) == (408, "REQUEST_TIMEOUT")
    assert (call.json()["limit"], call.json()["maximum"]) == ("bodyTimeoutMs", 150)
    await assert_ready(rig, session)
