"""The tool loop, application functions: a run pauses for the application's function results and the same
turn completes with them; declared tools and their names.

The model calls a function the run declared; the run pauses (``requires_action``) and the
application's ``functionResults`` complete the same turn, in history and native mode and on
stateless runs. Declared tools must not collide with host tools or each other.
"""

from __future__ import annotations

import json

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
)

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.errors import (
    ProviderError,
    SessionBusy,
    SessionLimitExceeded,
    ToolNameConflict,
)
from agentic_driver.models import (
    ApprovalDecision,
    Message,
    RunRequest,
    RunResult,
    ToolDefinition,
)
from agentic_driver.tools import HostTool

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
