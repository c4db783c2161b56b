"""Application-owned functions: requires_action, submitRunActions (JSON and streamed), and what holds
while a turn waits for function results (busy, retention suspended, cancel, RUN_NOT_WAITING, mismatches)."""

from __future__ import annotations

from typing import Any

import pytest
from agentic_driver_client.api.runs import cancel_run, run, submit_run_actions
from agentic_driver_client.api.sessions import delete_session
from agentic_driver_client.models import (
    CancelRunResponse,
    FunctionCall,
    FunctionCallsAction,
    OutputDeltaEvent,
    RunCompletedEvent,
    RunRequiresActionEvent,
    RunResult,
    RunStartedEvent,
    SessionInfo,
)
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    Host,
    acollect,
    anew_session,
    approvals,
    aread_ok,
    arun_ok,
    assert_problem,
    asubmit_ok,
    function_results,
    function_tool,
    kinds,
    new_session,
    read_ok,
    run_ok,
    run_request,
    slot_taken,
    submit_ok,
    wait_for_status,
)
from .sse import ProblemError, astream_run, astream_run_actions

ASK = '!call get_weather {"city": "Paris"}\nWhat is the weather?'
WEATHER = [function_tool("get_weather")]


def paused_call(result: RunResult) -> FunctionCall:
    """The single function call a ``requires_action`` result asks the application to answer."""
    assert result.status.value == "requires_action"
    action = result.required_action
    assert isinstance(action, FunctionCallsAction)
    assert action.type_ == "function_calls"
    assert len(action.calls) == 1
    return action.calls[0]


def session_of(result: RunResult) -> SessionInfo:
    assert not isinstance(result.session, Unset)
    return result.session


@pytest.mark.parametrize("mode", ["history", "native"])
def test_function_call_round_trip(actions_host: Host, mode: str) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice, mode=mode)
        turns_before = actions_host.provider_calls("echo", "completed")
        paused = run_ok(alice, run_request(ASK, session, tools=WEATHER))
        call = paused_call(paused)
        assert call.name == "get_weather"
        assert call.arguments.to_dict() == {"city": "Paris"}
        assert call.call_id.startswith("call_")
        assert paused.output.text == ""
        assert (session_of(paused).revision, session_of(paused).status.value) == (0, "running")

        done = submit_ok(alice, paused.id, function_results((call.call_id, "21 degrees")))
        assert done.id == paused.id  # the same turn continued
        assert done.status.value == "completed"
        assert isinstance(done.required_action, Unset)
        assert done.output.text == "echo: What is the weather? | get_weather -> 21 degrees"
        assert (session_of(done).revision, session_of(done).status.value) == (1, "ready")
        # the counter counts turns that called the model: the paused and resumed turn is one
        assert actions_host.provider_calls("echo", "completed") == turns_before + 1

        read = read_ok(alice, session.id)
        assert read.session.revision == 1  # the whole turn, call and answer, advanced the revision once
        assert [(m.role.value, m.content) for m in read.history] == [("user", ASK), ("assistant", done.output.text)]
        assert [(t.revision, t.run_id, t.start, t.end) for t in read.turns] == [(1, paused.id, 0, 2)]

        # history mode carries only the visible text; native mode keeps the completed exchange
        recall = run_ok(alice, run_request("!recall", session_of(done)))
        expected = f"recall: 2 messages; last user: {ASK}"
        assert recall.output.text == (expected + "; tool exchanges: 1" if mode == "native" else expected)
        assert session_of(recall).revision == 2
        assert read_ok(alice, session.id).session.message_count == 4
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


@pytest.mark.parametrize("mode", ["history", "native"])
async def test_streamed_function_call_round_trip(actions_host: Host, mode: str) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice, mode=mode)
        text = '!chunks 3\n!call get_weather {"city": "Oslo"}\nAnd in Oslo?'
        async with astream_run(alice, run_request(text, session, tools=WEATHER)) as events:
            first_leg = await acollect(events)
        assert kinds(first_leg) == ["run.started", "run.requires_action"]  # the stream ends at the pause
        started, requires = first_leg
        assert isinstance(started, RunStartedEvent) and isinstance(requires, RunRequiresActionEvent)
        paused = requires.run
        assert paused.id == started.run_id
        call = paused_call(paused)
        assert (call.name, call.arguments.to_dict()) == ("get_weather", {"city": "Oslo"})
        assert (await aread_ok(alice, session.id)).session.status.value == "running"

        answer = function_results((call.call_id, "-3 degrees"))
        async with astream_run_actions(alice, paused.id, answer) as events:
            second_leg = await acollect(events)
        assert kinds(second_leg) == ["output.delta"] * 3 + ["run.completed"]
        completed = second_leg[-1]
        assert isinstance(completed, RunCompletedEvent)
        deltas = [e.text for e in second_leg if isinstance(e, OutputDeltaEvent)]
        assert "".join(deltas) == completed.run.output.text == "echo: And in Oslo? | get_weather -> -3 degrees"
        assert completed.run.id == paused.id
        assert (session_of(completed.run).revision, session_of(completed.run).status.value) == (1, "ready")

        recall = await arun_ok(alice, run_request("!recall", session_of(completed.run)))
        expected = f"recall: 2 messages; last user: {text}"
        assert recall.output.text == (expected + "; tool exchanges: 1" if mode == "native" else expected)
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


def test_stateless_function_call_and_declaration_errors(actions_host: Host) -> None:
    with actions_host.client(ALICE) as alice:
        paused = run_ok(alice, run_request(ASK, tools=WEATHER))
        assert isinstance(paused.session, Unset)
        call = paused_call(paused)
        done = submit_ok(alice, paused.id, function_results((call.call_id, "rain")))
        assert done.output.text == "echo: What is the weather? | get_weather -> rain"
        assert isinstance(done.session, Unset)

        # an application function may not shadow a host tool, nor be declared twice
        assert_problem(
            run.sync_detailed(client=alice, body=run_request(ASK, tools=[function_tool("write_note")])),
            422,
            "TOOL_NAME_CONFLICT",
        )
        twice = [function_tool("get_weather"), function_tool("get_weather")]
        assert_problem(run.sync_detailed(client=alice, body=run_request(ASK, tools=twice)), 422, "TOOL_NAME_CONFLICT")
        # a model that calls a function the run does not offer is an upstream failure
        assert_problem(run.sync_detailed(client=alice, body=run_request(ASK)), 502, "PROVIDER_ERROR")


async def test_while_waiting_for_function_results(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        paused = await arun_ok(alice, run_request(ASK, session, tools=WEATHER))
        call_id = paused_call(paused).call_id

        # the waiting turn is the active turn: other runs are busy, JSON or streamed
        busy = await run.asyncio_detailed(client=alice, body=run_request("Meanwhile", session))
        assert_problem(busy, 409, "SESSION_BUSY", activeRunId=paused.id)
        with pytest.raises(ProblemError) as refused:
            async with astream_run(alice, run_request("Meanwhile", session)):
                pytest.fail("a refused stream yields no events")
        assert (refused.value.status, refused.value.code) == (409, "SESSION_BUSY")

        # retention is suspended while it waits
        read = await aread_ok(alice, session.id)
        assert (read.session.status.value, read.session.revision) == ("running", 0)
        assert read.session.expires_at is None

        # answers that do not match what the run asked for are refused, and the run keeps waiting
        mismatches = {
            "unknown id": function_results(("call_unknown", "x")),
            "extra id": function_results((call_id, "x"), ("call_extra", "y")),
            "id twice": function_results((call_id, "x"), (call_id, "y")),
            "wrong kind": approvals((call_id, True, None)),
        }
        for label, body in mismatches.items():
            response = await submit_run_actions.asyncio_detailed(paused.id, client=alice, body=body)
            problem = assert_problem(response, 422, "ACTION_MISMATCH")
            assert label != "unknown id" or ("call_unknown" in problem["detail"] and call_id in problem["detail"])
            assert label != "extra id" or "call_extra" in problem["detail"]
        with pytest.raises(ProblemError) as mismatched:
            async with astream_run_actions(alice, paused.id, approvals((call_id, True, None))):
                pytest.fail("a refused stream yields no events")
        assert (mismatched.value.status, mismatched.value.code) == (422, "ACTION_MISMATCH")

        # malformed bodies are validation errors
        async with actions_host.araw(ALICE) as http:
            path = f"/v1/runs/{paused.id}/actions"
            malformed_bodies: list[dict[str, Any]] = [
                {},
                {"functionResults": []},
                {"functionResults": [{"callId": call_id, "output": "x"}], "approvals": [{"callId": call_id}]},
                {"functionResults": [{"callId": call_id}]},
            ]
            for malformed in malformed_bodies:
                assert_problem(await http.post(path, json=malformed), 422, "VALIDATION_ERROR")

        read = await aread_ok(alice, session.id)
        assert (read.session.status.value, read.session.revision) == ("running", 0)
        done = await asubmit_ok(alice, paused.id, function_results((call_id, "21 degrees")))
        assert done.output.text == "echo: What is the weather? | get_weather -> 21 degrees"
        assert session_of(done).revision == 1
        assert session_of(done).expires_at is not None
        # once the turn is over the run is gone
        again = await submit_run_actions.asyncio_detailed(
            paused.id, client=alice, body=function_results((call_id, "21 degrees"))
        )
        assert_problem(again, 404, "RUN_NOT_FOUND")
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_a_second_submission_is_run_not_waiting(queue_host: Host) -> None:
    """On the one-slot host the accepted answer waits for the slot, so the turn stays active but not waiting."""
    async with queue_host.client(ALICE) as alice:
        session = await anew_session(alice)
        text = '!chunks 2\n!call get_weather {"city": "Rome"}\nAnd Rome?'
        paused = await arun_ok(alice, run_request(text, session, tools=WEATHER))
        answer = function_results((paused_call(paused).call_id, "sunny"))

        async with slot_taken(alice) as holder, astream_run_actions(alice, paused.id, answer) as events:
            # the stream's response arrived: the answer was accepted, and the turn waits for the slot
            again = await submit_run_actions.asyncio_detailed(paused.id, client=alice, body=answer)
            assert_problem(again, 409, "RUN_NOT_WAITING")
            with pytest.raises(ProblemError) as refused:
                async with astream_run_actions(alice, paused.id, answer):
                    pytest.fail("a refused stream yields no events")
            assert (refused.value.status, refused.value.code) == (409, "RUN_NOT_WAITING")
            read = await aread_ok(alice, session.id)
            assert (read.session.status.value, read.session.revision) == ("running", 0)

            assert (await cancel_run.asyncio_detailed(holder.run_id, client=alice)).status_code == 200
            rest = await acollect(events)
        assert kinds(rest) == ["output.delta", "output.delta", "run.completed"]
        completed = rest[-1]
        assert isinstance(completed, RunCompletedEvent)
        assert completed.run.output.text == "echo: And Rome? | get_weather -> sunny"
        assert session_of(completed.run).revision == 1
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_cancel_while_waiting_for_function_results(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        paused = await arun_ok(alice, run_request(ASK, session, tools=WEATHER))
        call_id = paused_call(paused).call_id

        cancelled = await cancel_run.asyncio_detailed(paused.id, client=alice)
        assert cancelled.status_code == 200
        assert isinstance(cancelled.parsed, CancelRunResponse)
        assert cancelled.parsed.model_work_started is True
        assert not isinstance(cancelled.parsed.session, Unset)
        assert (cancelled.parsed.session.status.value, cancelled.parsed.session.revision) == ("interrupted", 0)

        read = await aread_ok(alice, session.id)
        assert not isinstance(read.interrupted_turn, Unset)
        assert (read.interrupted_turn.run_id, read.interrupted_turn.input_) == (paused.id, ASK)
        assert read.interrupted_turn.reason.value == "cancelled"
        assert (read.session.message_count, read.history) == (0, [])
        assert read.session.expires_at is not None  # retention resumed

        late = await submit_run_actions.asyncio_detailed(
            paused.id, client=alice, body=function_results((call_id, "too late"))
        )
        assert_problem(late, 404, "RUN_NOT_FOUND")
        assert_problem(
            await run.asyncio_detailed(client=alice, body=run_request("Next", session)), 409, "SESSION_INTERRUPTED"
        )
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_disconnect_during_a_streamed_continuation_interrupts(actions_host: Host) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice)
        text = '!chunks 3\n!sleep 200\n!call get_weather {"city": "Bern"}\nAnd Bern?'
        paused = await arun_ok(alice, run_request(text, session, tools=WEATHER))
        answer = function_results((paused_call(paused).call_id, "foggy"))
        seen = []
        async with astream_run_actions(alice, paused.id, answer) as events:
            async for event in events:
                seen.append(event)
                break  # leaving the block closes the connection after the first delta
        assert kinds(seen) == ["output.delta"]

        read = await wait_for_status(alice, session.id, "interrupted")
        assert not isinstance(read.interrupted_turn, Unset)
        assert (read.interrupted_turn.run_id, read.interrupted_turn.input_) == (paused.id, text)
        assert read.interrupted_turn.reason.value == "disconnected"
        assert (read.session.revision, read.session.message_count) == (0, 0)
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204
