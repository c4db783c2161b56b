"""Interactive approvals for host tools (host JSON ``tools``, imported from ``host_tools``).

``write_note`` needs approval, ``add`` never does. The host process records every
tool call in ``tool_log``, which is how these tests prove a tool ran, or never did.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path

from agentic_driver_client.api.runs import run, submit_run_actions
from agentic_driver_client.api.sessions import delete_session, read_session
from agentic_driver_client.models import (
    ApprovalsAction,
    FunctionCall,
    RunCompletedEvent,
    RunRequiresActionEvent,
    RunResult,
)
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    Host,
    acollect,
    anew_session,
    approvals,
    assert_problem,
    function_results,
    kinds,
    new_session,
    read_ok,
    run_ok,
    run_request,
    submit_ok,
)
from .host_tools import tool_calls
from .sse import astream_run, astream_run_actions


def note_input(marker: str) -> str:
    return f'!tool write_note {{"text": "{marker}"}}\nPlease take a note'


def new_marker(label: str) -> str:
    return f"{label}-{secrets.token_hex(6)}"


def notes(tool_log: Path) -> list[str]:
    return [call["arguments"]["text"] for call in tool_calls(tool_log) if call["tool"] == "write_note"]


def pending_approval(result: RunResult) -> FunctionCall:
    assert result.status.value == "requires_action"
    action = result.required_action
    assert isinstance(action, ApprovalsAction)
    assert action.type_ == "approvals"
    assert len(action.approvals) == 1
    return action.approvals[0]


def test_approve_runs_the_tool(actions_host: Host, tool_log: Path) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        marker = new_marker("approved")
        paused = run_ok(alice, run_request(note_input(marker), session))
        call = pending_approval(paused)
        assert (call.name, call.arguments.to_dict()) == ("write_note", {"text": marker})
        assert marker not in notes(tool_log)  # nothing ran before the decision

        # waiting for a person is still the active turn
        busy = run.sync_detailed(client=alice, body=run_request("Meanwhile", session))
        assert_problem(busy, 409, "SESSION_BUSY", activeRunId=paused.id)
        read = read_ok(alice, session.id)
        assert (read.session.status.value, read.session.expires_at) == ("running", None)
        wrong_kind = submit_run_actions.sync_detailed(
            paused.id, client=alice, body=function_results((call.call_id, "done"))
        )
        assert_problem(wrong_kind, 422, "ACTION_MISMATCH")
        assert marker not in notes(tool_log)

        done = submit_ok(alice, paused.id, approvals((call.call_id, True, None)))
        assert done.status.value == "completed"
        assert done.output.text == f"echo: Please take a note | write_note -> noted: {marker}"
        assert notes(tool_log).count(marker) == 1
        assert not isinstance(done.session, Unset)
        assert (done.session.revision, done.session.status.value) == (1, "ready")
        read = read_ok(alice, session.id)
        assert [m.content for m in read.history] == [note_input(marker), done.output.text]
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_deny_never_runs_the_tool(actions_host: Host, tool_log: Path) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        marker = new_marker("denied")
        paused = run_ok(alice, run_request(note_input(marker), session))
        call = pending_approval(paused)

        done = submit_ok(alice, paused.id, approvals((call.call_id, False, "not today")))
        assert done.status.value == "completed"
        assert done.output.text == "echo: Please take a note | write_note -> denied: not today"
        assert marker not in notes(tool_log)
        assert not isinstance(done.session, Unset)
        assert done.session.revision == 1

        # a denial without a reason still tells the model it was declined
        marker = new_marker("denied-silently")
        paused = run_ok(alice, run_request(note_input(marker), done.session))
        done = submit_ok(alice, paused.id, approvals((pending_approval(paused).call_id, False, None)))
        assert done.output.text.startswith("echo: Please take a note | write_note -> denied: ")
        assert marker not in notes(tool_log)
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_delete_while_waiting_for_an_approval(actions_host: Host, tool_log: Path) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        marker = new_marker("deleted")
        paused = run_ok(alice, run_request(note_input(marker), session))
        call = pending_approval(paused)

        began = time.monotonic()
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
        assert time.monotonic() - began < 2.0
        assert_problem(read_session.sync_detailed(session.id, client=alice), 404, "SESSION_NOT_FOUND")
        late = submit_run_actions.sync_detailed(paused.id, client=alice, body=approvals((call.call_id, True, None)))
        assert_problem(late, 404, "RUN_NOT_FOUND")
        assert marker not in notes(tool_log)


def test_a_tool_without_approval_runs_without_pausing(actions_host: Host, tool_log: Path) -> None:
    with actions_host.client(ALICE) as alice:
        session = new_session(alice)
        a, b = 1_000 + secrets.randbelow(1_000_000), 7
        result = run_ok(alice, run_request(f'!tool add {{"a": {a}, "b": {b}}}\nAdd them', session))
        assert result.status.value == "completed"
        assert isinstance(result.required_action, Unset)
        assert result.output.text == f"echo: Add them | add -> {a + b}"
        assert {"tool": "add", "arguments": {"a": a, "b": b}} in tool_calls(tool_log)
        assert not isinstance(result.session, Unset)
        assert result.session.revision == 1
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


async def test_streamed_approval(actions_host: Host, tool_log: Path) -> None:
    async with actions_host.client(ALICE) as alice:
        session = await anew_session(alice, mode="native")
        marker = new_marker("streamed")
        async with astream_run(alice, run_request(note_input(marker), session)) as events:
            first_leg = await acollect(events)
        assert kinds(first_leg) == ["run.started", "run.requires_action"]
        assert isinstance(first_leg[1], RunRequiresActionEvent)
        paused = first_leg[1].run
        call = pending_approval(paused)
        assert marker not in notes(tool_log)

        async with astream_run_actions(alice, paused.id, approvals((call.call_id, True, None))) as events:
            second_leg = await acollect(events)
        assert kinds(second_leg) == ["output.delta", "run.completed"]
        completed = second_leg[-1]
        assert isinstance(completed, RunCompletedEvent)
        assert completed.run.output.text == f"echo: Please take a note | write_note -> noted: {marker}"
        assert notes(tool_log).count(marker) == 1
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204
