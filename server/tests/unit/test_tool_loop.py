"""The tool loop: application functions, host tools, approvals, and what a paused turn still is.

A paused run is the session's active turn (busy, retention suspended) without
holding a run slot; answers must match exactly what it asked for; cancel and
delete reach it. Concurrency is driven with tasks and asyncio events, with
bounded polling instead of fixed sleeps.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.errors import (
    ActionMismatch,
    ProviderError,
    RunCancelled,
    RunNotFound,
    RunNotWaiting,
    SessionBusy,
    SessionLimitExceeded,
    SessionNotFound,
    ToolNameConflict,
    ValidationFailed,
)
from agentic_driver.models import (
    ApprovalDecision,
    CreateSessionRequest,
    FunctionResult,
    Message,
    OutputDeltaEvent,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequest,
    RunRequiresActionEvent,
    RunResult,
    SessionHandle,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.base import (
    Capabilities,
    ModelRequest,
    TextDelta,
    ToolCall,
    TurnEvent,
    Usage,
    UsageReport,
)
from agentic_driver.tools import HostTool
from agentic_driver.turns.admission import match_answer
from agentic_driver.turns.runs import PendingAction

LOOKUP = ToolDefinition(
    name="lookup",
    description="Look a city's weather up.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)


def make_driver(*tools: HostTool, clock: ManualClock | None = None, **options: Any) -> Driver:
    return Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock or ManualClock(),
        tools=tools,
        **options,
    )


async def new_session(driver: Driver, mode: str = "history", provider: str = "echo") -> str:
    created = await driver.create_session(CreateSessionRequest(provider=provider, model="echo-1", mode=mode))
    return created.session.id


def session_run(session_id: str, revision: int, text: str, provider: str = "echo", **extra: Any) -> RunRequest:
    return RunRequest(
        provider=provider, model="echo-1", input=text, session=SessionHandle(id=session_id, revision=revision), **extra
    )


def results(*pairs: tuple[str, str]) -> SubmitRunActionsRequest:
    return SubmitRunActionsRequest(functionResults=[FunctionResult(callId=c, output=o) for c, o in pairs])


def decisions(*items: ApprovalDecision) -> SubmitRunActionsRequest:
    return SubmitRunActionsRequest(approvals=list(items))


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


@dataclass
class Recorder:
    """A host tool handler that records its calls and answers ``reply`` (or waits for ``gate``)."""

    reply: Any = "ok"
    gate: asyncio.Event | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)

    async def __call__(self, **arguments: Any) -> Any:
        self.calls.append(arguments)
        if self.gate is not None:
            await self.gate.wait()
        return self.reply


@dataclass
class TwoCallProvider:
    """Calls ``lookup`` and ``ask`` in one step, then reports every answer it got, in call order."""

    id: str = "scripted"
    models: tuple[str, ...] = ("echo-1",)
    account_id: str | None = "acct-1"
    kind: str = "scripted"
    requests: list[ModelRequest] = field(default_factory=list)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=True
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        self.requests.append(request)
        if not request.exchange:
            yield ToolCall("c1", "lookup", {"city": "Oslo"})
            yield ToolCall("c2", "ask", {"question": "may I?"})
            return
        yield TextDelta("; ".join(f"{e.call_id} {e.name}={e.output}" for e in request.exchange))
        yield UsageReport(Usage(1, 1))


# -- application functions -----------------------------------------------------------------


async def test_a_function_call_pauses_the_run_and_the_results_complete_the_same_turn_in_history_mode() -> None:
    clock = ManualClock()
    driver = make_driver(clock=clock)
    session_id = await new_session(driver)
    record = driver.store.get(session_id)

    paused = await driver.run(session_run(session_id, 0, '!call lookup {"city": "Oslo"}\nweather?', tools=[LOOKUP]))

    assert paused.status == "requires_action"
    assert paused.output.text == ""
    assert paused.usage.inputTokens == 5 and paused.usage.outputTokens == 0  # the input's words
    action = paused.requiredAction
    assert action.type == "function_calls"
    assert [(c.name, c.arguments) for c in action.calls] == [("lookup", {"city": "Oslo"})]
    assert action.calls[0].callId.startswith("call_")
    assert paused.session.status == "running"
    assert paused.session.revision == 0
    assert paused.session.expiresAt is None
    assert driver.slots.in_use == 0  # a paused run gives its slot back

    clock.advance(10 * 60_000)  # far beyond retention: suspended while the turn waits
    with pytest.raises(SessionBusy) as busy:
        await driver.run(session_run(session_id, 0, "meanwhile"))
    assert busy.value.active_run_id == paused.id

    done = await driver.submit_run_actions(paused.id, results((action.calls[0].callId, "sunny")))

    assert done.id == paused.id
    assert done.status == "completed"
    assert "requiredAction" not in done.model_dump()
    assert done.output.text == "echo: weather? | lookup -> sunny"
    assert done.usage.inputTokens == 5 + 6 and done.usage.outputTokens == 6  # both steps, summed
    assert done.session.revision == 1
    assert done.session.status == "ready"
    read = await driver.read_session(session_id)
    assert read.history == [
        Message(role="user", content='!call lookup {"city": "Oslo"}\nweather?'),
        Message(role="assistant", content="echo: weather? | lookup -> sunny"),
    ]
    assert record.native == []

    recall = await driver.run(session_run(session_id, 1, "!recall"))
    assert recall.output.text == 'recall: 2 messages; last user: !call lookup {"city": "Oslo"}\nweather?'


async def test_in_native_mode_the_completed_exchange_is_kept_and_reaches_the_next_turn() -> None:
    driver = make_driver()
    session_id = await new_session(driver, "native")
    record = driver.store.get(session_id)
    paused = await driver.run(session_run(session_id, 0, '!call lookup {"city": "Oslo"}\nweather?', tools=[LOOKUP]))
    call_id = paused.requiredAction.calls[0].callId

    done = await driver.submit_run_actions(paused.id, results((call_id, "sunny")))

    assert done.output.text == "echo: weather? | lookup -> sunny"
    kinds = [json.loads(item)["type"] for item in record.native]
    assert kinds == ["message", "reasoning", "function_call", "function_call_output", "message"]
    call, output = json.loads(record.native[2]), json.loads(record.native[3])
    assert (call["call_id"], call["name"], call["arguments"]) == (call_id, "lookup", {"city": "Oslo"})
    assert (output["call_id"], output["output"]) == (call_id, "sunny")
    read = await driver.read_session(session_id)
    assert [m.role for m in read.history] == ["user", "assistant"]  # the export stays visible messages only

    recall = await driver.run(session_run(session_id, 1, "!recall"))
    assert recall.output.text.endswith("; tool exchanges: 1")
    assert recall.output.text.startswith("recall: 2 messages; last user: !call lookup")


async def test_native_exchange_items_count_against_max_native_messages() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000, maxNativeMessages=4),
        clock=ManualClock(),
    )
    session_id = await new_session(driver, "native")
    paused = await driver.run(session_run(session_id, 0, "!call lookup {}\nx", tools=[LOOKUP]))

    with pytest.raises(SessionLimitExceeded) as caught:  # five items: user, reasoning, call, output, assistant
        await driver.submit_run_actions(paused.id, results((paused.requiredAction.calls[0].callId, "y")))

    assert caught.value.limit == "maxNativeMessages"
    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "limit_exceeded"
    assert driver.store.get(session_id).native == []


async def test_a_stateless_run_can_call_a_function_and_continue() -> None:
    driver = make_driver()

    paused = await driver.run(RunRequest(provider="echo", model="echo-1", input="!call lookup\nhi", tools=[LOOKUP]))
    done = await driver.submit_run_actions(paused.id, results((paused.requiredAction.calls[0].callId, "{}")))

    assert paused.requiredAction.calls[0].arguments == {}
    assert "session" not in paused.model_dump()
    assert done.output.text == "echo: hi | lookup -> {}"


async def test_a_call_to_a_function_the_run_does_not_offer_is_a_provider_error_that_interrupts() -> None:
    driver = make_driver()
    session_id = await new_session(driver)

    with pytest.raises(ProviderError, match="'missing'"):
        await driver.run(session_run(session_id, 0, "!call missing {}\nhi", tools=[LOOKUP]))

    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "failed"


async def test_approvals_come_first_then_function_results_and_the_model_gets_every_answer_in_call_order() -> None:
    ask = Recorder(reply="yes")
    scripted = TwoCallProvider()
    driver = Driver(
        [scripted], sessions=SessionsConfig(retentionMs=60_000), clock=ManualClock(), tools=[HostTool("ask", ask)]
    )
    session_id = await new_session(driver, provider="scripted")

    first = await driver.run(session_run(session_id, 0, "go", provider="scripted", tools=[LOOKUP]))
    assert first.requiredAction.type == "approvals"
    assert [(c.callId, c.name) for c in first.requiredAction.approvals] == [("c2", "ask")]
    assert ask.calls == []

    second = await driver.submit_run_actions(first.id, decisions(ApprovalDecision(callId="c2", approve=True)))
    assert second.status == "requires_action"
    assert second.requiredAction.type == "function_calls"
    assert [(c.callId, c.name) for c in second.requiredAction.calls] == [("c1", "lookup")]
    assert ask.calls == [{"question": "may I?"}]

    done = await driver.submit_run_actions(first.id, results(("c1", "sunny")))
    assert done.output.text == "c1 lookup=sunny; c2 ask=yes"
    assert done.session.revision == 1
    assert [t.name for t in scripted.requests[0].tools] == ["lookup", "ask"]  # the run's own, then the host's


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


# -- declared tools ---------------------------------------------------------------------------


@pytest.mark.parametrize("stateless", [True, False], ids=["stateless", "session"])
async def test_declared_tools_that_collide_with_host_tools_or_each_other_are_refused_by_path(stateless: bool) -> None:
    driver = make_driver(HostTool("clock", Recorder()), max_concurrent_runs=1, max_queued_runs=0)
    session_id = await new_session(driver)
    tools = [
        ToolDefinition(name="clock", parameters={"type": "object"}),
        ToolDefinition(name="lookup", parameters={"type": "object"}),
        ToolDefinition(name="lookup", parameters={"type": "object"}),
    ]
    request = (
        RunRequest(provider="echo", model="echo-1", input="hi", tools=tools)
        if stateless
        else session_run(session_id, 0, "hi", tools=tools)
    )

    with pytest.raises(ToolNameConflict) as caught:
        await driver.run(request)

    assert caught.value.status == 422
    assert caught.value.code.value == "TOOL_NAME_CONFLICT"
    assert caught.value.errors == [
        {"location": "body.tools.0.name", "message": "'clock' is a host tool"},
        {"location": "body.tools.2.name", "message": "'lookup' is declared twice"},
    ]
    assert "'clock' is a host tool" in caught.value.detail
    record = driver.store.get(session_id)
    assert record.status == "ready" and record.active_run is None
    # nothing was reserved: the single slot still admits a run
    done = await driver.run(session_run(session_id, 0, "after"))
    assert done.session.revision == 1


async def test_a_declared_tool_gets_an_empty_description_when_none_is_given() -> None:
    scripted = TwoCallProvider()
    driver = Driver([scripted], clock=ManualClock())
    tools = [ToolDefinition(name="lookup", parameters={"type": "object"}), LOOKUP.model_copy(update={"name": "ask"})]

    paused = await driver.run(RunRequest(provider="scripted", model="echo-1", input="go", tools=tools))

    assert isinstance(paused, RunResult)
    offered = scripted.requests[0].tools
    assert [(t.name, t.description) for t in offered] == [("lookup", ""), ("ask", "Look a city's weather up.")]
    assert offered[1].parameters == LOOKUP.parameters
    await driver.cancel_run(paused.id)


async def test_a_tool_schema_holding_an_integer_beyond_64_bits_is_fingerprinted_not_an_internal_error() -> None:
    driver = make_driver()
    session_id = await new_session(driver)
    huge = ToolDefinition(
        name="huge", parameters={"type": "object", "properties": {"n": {"type": "integer", "maximum": 2**70}}}
    )

    result = await driver.run(session_run(session_id, 0, "hello", tools=[huge]))

    assert result.status == "completed"
    assert driver.store.get(session_id).tools_fingerprint is not None
