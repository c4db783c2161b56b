"""The tool loop, host tools and approvals: what runs at once, what waits for a person, and what a paused
turn still is.

A host tool that needs no approval runs at once; one that needs approval never runs before a
person approves, and a denial tells the model why. A paused run is the session's active turn
(busy, retention suspended) without holding a run slot: cancel and delete reach it, streamed or
not. Concurrency is driven with tasks and asyncio events, with bounded polling instead of fixed
sleeps.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tool_loop_support import (
    LOOKUP,
    Recorder,
    decisions,
    make_driver,
    new_session,
    results,
    session_run,
    wait_until,
)

from agentic_driver.errors import (
    RunCancelled,
    RunNotFound,
    SessionNotFound,
)
from agentic_driver.models import (
    ApprovalDecision,
    OutputDeltaEvent,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequest,
    RunRequiresActionEvent,
)
from agentic_driver.tools import HostTool

# -- host tools and approvals -----------------------------------------------------------


async def test_a_host_tool_that_needs_no_approval_runs_at_once_and_the_model_continues() -> None:
    clock_tool = Recorder(reply="12:00")
    driver = make_driver(HostTool("clock", clock_tool, approval="never"))
    session_id = await new_session(driver)

    done = await driver.run(session_run(session_id, 0, '!tool clock {"zone": "UTC"}\ntime?'))

    assert done.status == "completed"
    assert done.output.text == "echo: time? | clock -> 12:00"
    assert clock_tool.calls == [{"zone": "UTC"}]
    assert done.session.revision == 1


async def test_host_tools_are_offered_on_stateless_runs_too_and_any_result_is_sent_as_json_text() -> None:
    tool = Recorder(reply={"temp": 21, "unit": "°C"})
    driver = make_driver(HostTool("weather", tool, approval="never"))

    done = await driver.run(RunRequest(provider="echo", model="echo-1", input="!tool weather\nhow warm?"))

    assert done.output.text == 'echo: how warm? | weather -> {"temp": 21, "unit": "°C"}'


async def test_a_host_tool_that_needs_approval_never_runs_before_a_person_approves() -> None:
    delete = Recorder(reply="deleted 3 files")
    driver = make_driver(HostTool("delete_files", delete, description="Delete files.", approval="required"))
    session_id = await new_session(driver)

    paused = await driver.run(session_run(session_id, 0, '!tool delete_files {"glob": "*.tmp"}\nclean up'))

    assert paused.status == "requires_action"
    assert paused.requiredAction.type == "approvals"
    assert [(c.name, c.arguments) for c in paused.requiredAction.approvals] == [("delete_files", {"glob": "*.tmp"})]
    assert paused.session.status == "running"
    assert delete.calls == []

    done = await driver.submit_run_actions(
        paused.id, decisions(ApprovalDecision(callId=paused.requiredAction.approvals[0].callId, approve=True))
    )

    assert delete.calls == [{"glob": "*.tmp"}]
    assert done.output.text == "echo: clean up | delete_files -> deleted 3 files"
    assert done.session.revision == 1


@pytest.mark.parametrize(
    ("reason", "told"),
    [
        pytest.param("too risky", "denied: too risky", id="with-reason"),
        pytest.param(None, "denied: a person declined this call", id="without-reason"),
    ],
)
async def test_a_denied_host_tool_never_runs_and_the_model_is_told_why(reason: str | None, told: str) -> None:
    delete = Recorder()
    driver = make_driver(HostTool("delete_files", delete))
    session_id = await new_session(driver)
    paused = await driver.run(session_run(session_id, 0, "!tool delete_files {}\nclean up"))
    call_id = paused.requiredAction.approvals[0].callId
    decision = (
        ApprovalDecision(callId=call_id, approve=False)
        if reason is None
        else ApprovalDecision(callId=call_id, approve=False, reason=reason)
    )

    done = await driver.submit_run_actions(paused.id, decisions(decision))

    assert delete.calls == []
    assert done.output.text == f"echo: clean up | delete_files -> {told}"
    assert done.session.revision == 1
    assert done.session.status == "ready"


async def test_a_host_tool_that_raises_gives_the_model_the_error_and_the_turn_completes() -> None:
    async def broken(**arguments: Any) -> str:
        raise RuntimeError("disk on fire")

    driver = make_driver(HostTool("broken", broken, approval="never"))
    session_id = await new_session(driver)

    done = await driver.run(session_run(session_id, 0, "!tool broken {}\ntry it"))

    assert done.status == "completed"
    assert done.output.text == "echo: try it | broken -> error: RuntimeError: disk on fire"
    assert done.session.revision == 1


async def test_a_host_tool_called_with_arguments_it_does_not_take_reports_the_error_to_the_model() -> None:
    async def strict(city: str) -> str:
        return city

    driver = make_driver(HostTool("strict", strict, approval="never"))

    done = await driver.run(RunRequest(provider="echo", model="echo-1", input='!tool strict {"town": "Oslo"}\nx'))

    assert done.output.text.startswith("echo: x | strict -> error: TypeError: ")


def test_a_host_tool_name_can_be_registered_only_once() -> None:
    driver = make_driver(HostTool("clock", Recorder()))

    with pytest.raises(ValueError, match="'clock' is already registered"):
        driver.register_tool(HostTool("clock", Recorder()))
    with pytest.raises(ValueError, match="'twice' is already registered"):
        make_driver(HostTool("twice", Recorder()), HostTool("twice", Recorder()))


# -- cancel and delete while paused --------------------------------------------------------


async def test_cancel_while_waiting_for_function_results_interrupts_the_session() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    paused = await driver.run(session_run(session_id, 0, "!call lookup {}\nx", tools=[LOOKUP]))

    cancelled = await driver.cancel_run(paused.id)

    assert cancelled.modelWorkStarted is True
    assert cancelled.session.status == "interrupted"
    read = await driver.read_session(session_id)
    assert read.interruptedTurn.runId == paused.id
    assert read.interruptedTurn.reason == "cancelled"
    assert read.interruptedTurn.input == "!call lookup {}\nx"
    assert read.session.expiresAt is not None  # retention counts again from the interruption
    with pytest.raises(RunNotFound):
        await driver.submit_run_actions(paused.id, results((paused.requiredAction.calls[0].callId, "late")))


async def test_cancel_while_waiting_for_an_approval_interrupts_and_the_tool_never_runs() -> None:
    tool = Recorder()
    driver = make_driver(HostTool("deploy", tool))
    session_id = await new_session(driver)
    paused = await driver.run(session_run(session_id, 0, "!tool deploy {}\nship it"))

    cancelled = await driver.cancel_run(paused.id)

    assert cancelled.session.status == "interrupted"
    assert tool.calls == []


async def test_delete_while_waiting_for_an_approval_aborts_the_run_and_removes_the_session() -> None:
    tool = Recorder()
    driver = make_driver(HostTool("deploy", tool))
    session_id = await new_session(driver)
    record = driver.store.get(session_id)
    paused = await driver.run(session_run(session_id, 0, "!tool deploy {}\nship it"))
    run = record.active_run
    assert run is not None and run.id == paused.id

    await driver.delete_session(session_id)

    outcome = await asyncio.wait_for(run.outcome(), 1)  # published for nobody: no request was waiting
    assert isinstance(outcome.error, RunCancelled)
    assert outcome.error.reason == "session_deleted"
    assert run.ended and run.task is None  # the task finished (and the kept run let go of it)
    assert tool.calls == []
    with pytest.raises(SessionNotFound):
        await driver.read_session(session_id)
    with pytest.raises(RunNotFound):
        await driver.submit_run_actions(paused.id, decisions(ApprovalDecision(callId="x", approve=True)))


async def test_delete_while_a_streamed_continuation_runs_ends_the_stream_with_run_failed() -> None:
    gate = asyncio.Event()
    tool = Recorder(gate=gate)
    driver = make_driver(HostTool("deploy", tool))
    session_id = await new_session(driver)
    paused = await driver.run(session_run(session_id, 0, "!tool deploy {}\nship it"))
    call_id = paused.requiredAction.approvals[0].callId
    events = await driver.stream_run_actions(paused.id, decisions(ApprovalDecision(callId=call_id, approve=True)))
    reading = asyncio.create_task(anext(events))
    await wait_until(lambda: tool.calls != [])  # the approved tool is running

    await driver.delete_session(session_id)

    failed = await reading
    assert isinstance(failed, RunFailedEvent)
    assert failed.runId == paused.id
    assert failed.problem.code == "RUN_CANCELLED"
    assert failed.problem.model_dump()["reason"] == "session_deleted"
    with pytest.raises(StopAsyncIteration):
        await anext(events)
    assert driver.store.get(session_id) is None


async def test_a_streamed_run_ends_at_requires_action_and_a_streamed_continuation_completes_it() -> None:
    driver = make_driver()
    session_id = await new_session(driver)

    first = [
        e
        async for e in await driver.stream_run(session_run(session_id, 0, "!call lookup {}\n!chunks 3", tools=[LOOKUP]))
    ]

    assert [e.type for e in first] == ["run.started", "run.requires_action"]
    paused = first[-1]
    assert isinstance(paused, RunRequiresActionEvent)
    call_id = paused.run.requiredAction.calls[0].callId
    assert paused.run.session.status == "running"

    second = [e async for e in await driver.stream_run_actions(paused.run.id, results((call_id, "42")))]

    assert [e.type for e in second] == ["output.delta"] * 3 + ["run.completed"]
    assert "".join(e.text for e in second if isinstance(e, OutputDeltaEvent)) == "echo:  | lookup -> 42"
    completed = second[-1]
    assert isinstance(completed, RunCompletedEvent)
    assert completed.run.output.text == "echo:  | lookup -> 42"
    assert completed.run.session.revision == 1
