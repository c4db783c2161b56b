"""The tool loop, answering a paused run: what is accepted.

Answers must match exactly what the run asked for: only a waiting run takes them, one kind at a
time (function results or approvals, as asked), every call id once and none extra, in any order.
"""

from __future__ import annotations

import asyncio

import pytest
from tool_loop_support import (
    LOOKUP,
    Recorder,
    TwoCallProvider,
    decisions,
    make_driver,
    new_session,
    results,
    session_run,
    wait_until,
)

from agentic_driver import Driver, ManualClock, SessionsConfig
from agentic_driver.errors import (
    ActionMismatch,
    RunCancelled,
    RunNotFound,
    RunNotWaiting,
    ValidationFailed,
)
from agentic_driver.models import (
    ApprovalDecision,
    FunctionResult,
    RunRequest,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.base import (
    ToolCall,
)
from agentic_driver.tools import HostTool
from agentic_driver.turns.admission import match_answer
from agentic_driver.turns.runs import PendingAction

# -- answering: what is accepted ---------------------------------------------------------------


async def test_submitting_to_a_run_that_is_not_waiting_is_run_not_waiting() -> None:
    gate = asyncio.Event()
    tool = Recorder(gate=gate)
    driver = make_driver(HostTool("deploy", tool))
    session_id = await new_session(driver)
    paused = await driver.run(session_run(session_id, 0, "!tool deploy {}\nship it"))
    approve = decisions(ApprovalDecision(callId=paused.requiredAction.approvals[0].callId, approve=True))
    continuing = asyncio.create_task(driver.submit_run_actions(paused.id, approve))
    await wait_until(lambda: tool.calls != [])

    with pytest.raises(RunNotWaiting) as caught:  # the first answer was taken; the run is working again
        await driver.submit_run_actions(paused.id, approve)
    assert caught.value.status == 409

    gate.set()
    done = await continuing
    assert done.output.text == "echo: ship it | deploy -> ok"
    assert len(tool.calls) == 1


async def test_submitting_to_a_run_still_working_on_its_first_step_is_run_not_waiting() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    running = asyncio.create_task(driver.run(session_run(session_id, 0, "!sleep 10000\nslow")))
    await wait_until(lambda: record.active_run is not None and record.active_run.model_work_started)

    with pytest.raises(RunNotWaiting):
        await driver.submit_run_actions(record.active_run.id, results(("call_x", "y")))

    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await running


async def test_submitting_to_an_unknown_run_is_run_not_found() -> None:
    driver = make_driver()

    with pytest.raises(RunNotFound):
        await driver.submit_run_actions("run_nope", results(("c", "o")))


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(SubmitRunActionsRequest(), id="neither"),
        pytest.param(
            SubmitRunActionsRequest(
                functionResults=[FunctionResult(callId="c", output="o")],
                approvals=[ApprovalDecision(callId="c", approve=True)],
            ),
            id="both",
        ),
    ],
)
async def test_an_answer_must_hold_exactly_one_of_function_results_or_approvals(
    answer: SubmitRunActionsRequest,
) -> None:
    driver = make_driver()
    paused = await driver.run(RunRequest(provider="echo", model="echo-1", input="!call lookup {}\nx", tools=[LOOKUP]))

    with pytest.raises(ValidationFailed) as caught:
        await driver.submit_run_actions(paused.id, answer)

    assert caught.value.status == 422
    assert caught.value.errors == [{"location": "body", "message": "exactly one of functionResults, approvals"}]
    done = await driver.submit_run_actions(paused.id, results((paused.requiredAction.calls[0].callId, "fine")))
    assert done.output.text == "echo: x | lookup -> fine"


async def test_approvals_for_a_run_waiting_for_function_results_are_an_action_mismatch() -> None:
    driver = make_driver()
    paused = await driver.run(RunRequest(provider="echo", model="echo-1", input="!call lookup {}\nx", tools=[LOOKUP]))
    call_id = paused.requiredAction.calls[0].callId

    with pytest.raises(ActionMismatch, match="waits for function results, not approvals") as caught:
        await driver.submit_run_actions(paused.id, decisions(ApprovalDecision(callId=call_id, approve=True)))

    assert caught.value.status == 422
    done = await driver.submit_run_actions(paused.id, results((call_id, "still waiting")))
    assert done.output.text == "echo: x | lookup -> still waiting"


async def test_function_results_for_a_run_waiting_for_approvals_are_an_action_mismatch() -> None:
    tool = Recorder()
    driver = make_driver(HostTool("deploy", tool))
    paused = await driver.run(RunRequest(provider="echo", model="echo-1", input="!tool deploy {}\nx"))
    call_id = paused.requiredAction.approvals[0].callId

    with pytest.raises(ActionMismatch, match="waits for approvals, not function results"):
        await driver.submit_run_actions(paused.id, results((call_id, "I did it myself")))

    assert tool.calls == []
    done = await driver.submit_run_actions(paused.id, decisions(ApprovalDecision(callId=call_id, approve=True)))
    assert done.output.text == "echo: x | deploy -> ok"


async def test_wrong_and_duplicated_call_ids_are_an_action_mismatch_naming_them() -> None:
    driver = make_driver()
    paused = await driver.run(RunRequest(provider="echo", model="echo-1", input="!call lookup {}\nx", tools=[LOOKUP]))
    call_id = paused.requiredAction.calls[0].callId

    with pytest.raises(ActionMismatch) as wrong:
        await driver.submit_run_actions(paused.id, results(("call_wrong", "o")))
    with pytest.raises(ActionMismatch) as twice:
        await driver.submit_run_actions(paused.id, results((call_id, "a"), (call_id, "b")))

    assert f"missing answers for call ids: {call_id}" in wrong.value.detail
    assert "answers for call ids not asked for: call_wrong" in wrong.value.detail
    assert f"call ids answered twice: {call_id}" in twice.value.detail
    assert "missing" not in twice.value.detail
    done = await driver.submit_run_actions(paused.id, results((call_id, "right")))
    assert done.output.text == "echo: x | lookup -> right"


def two_calls() -> PendingAction:
    return PendingAction("function_calls", (ToolCall("c1", "lookup", {}), ToolCall("c2", "lookup", {})))


def test_an_answer_missing_one_of_several_calls_is_an_action_mismatch_naming_it() -> None:
    with pytest.raises(ActionMismatch) as caught:
        match_answer(two_calls(), results(("c1", "one")))

    assert "missing answers for call ids: c2" in caught.value.detail
    assert "not asked for" not in caught.value.detail


def test_an_answer_with_an_extra_call_is_an_action_mismatch_naming_it() -> None:
    with pytest.raises(ActionMismatch) as caught:
        match_answer(two_calls(), results(("c1", "one"), ("c2", "two"), ("c3", "three")))

    assert caught.value.detail.endswith("answers for call ids not asked for: c3.")


def test_a_matching_answer_is_keyed_by_call_id_in_any_order() -> None:
    assert match_answer(two_calls(), results(("c2", "two"), ("c1", "one"))) == {"c1": "one", "c2": "two"}
    approvals = PendingAction("approvals", (ToolCall("a1", "deploy", {}), ToolCall("a2", "deploy", {})))
    answer = decisions(
        ApprovalDecision(callId="a1", approve=True), ApprovalDecision(callId="a2", approve=False, reason="no")
    )
    assert match_answer(approvals, answer) == {"a1": (True, None), "a2": (False, "no")}


async def test_a_two_call_step_accepts_its_answers_only_once_all_are_given() -> None:
    scripted = TwoCallProvider()
    driver = Driver([scripted], sessions=SessionsConfig(retentionMs=60_000), clock=ManualClock())
    tools = [LOOKUP, ToolDefinition(name="ask", parameters={"type": "object"})]
    paused = await driver.run(RunRequest(provider="scripted", model="echo-1", input="go", tools=tools))
    assert [c.callId for c in paused.requiredAction.calls] == ["c1", "c2"]

    with pytest.raises(ActionMismatch, match="missing answers for call ids: c1"):
        await driver.submit_run_actions(paused.id, results(("c2", "two")))

    done = await driver.submit_run_actions(paused.id, results(("c2", "two"), ("c1", "one")))
    assert done.output.text == "c1 lookup=one; c2 ask=two"
