"""truncateSession end to end through the generated client (agentic_driver_client.api.sessions.truncate_session):
exact prefixes, recorded turns, the rules of a run (conflict, busy, validation), recovery of an interrupted
session, grants and ownership."""

from __future__ import annotations

import asyncio

import httpx
from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import delete_session
from agentic_driver_client.models import Problem, SessionInfo
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    ALICE_NO_CONTINUE,
    ALICE_NO_READ,
    BOB,
    Host,
    anew_session,
    assert_problem,
    atruncate,
    function_results,
    function_tool,
    messages,
    new_session,
    read_ok,
    run_ok,
    run_request,
    settle,
    submit_ok,
    truncate,
    truncate_ok,
    visible_bytes,
    wait_for_status,
)


def _turns(client: AuthenticatedClient, session: SessionInfo, *texts: str) -> list[SessionInfo]:
    """Run ``texts`` as consecutive turns; the session after each."""
    infos = []
    info = session
    for text in texts:
        result = run_ok(client, run_request(text, info))
        assert not isinstance(result.session, Unset)
        info = result.session
        infos.append(info)
    return infos


def test_truncation_keeps_exact_prefixes_and_the_session_continues(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice, mode="native", history=messages("My name is Ada.", "Hello Ada."))
        after = _turns(alice, session, "I like tea.", "I like coffee.", "I like cocoa.")
        full = read_ok(alice, session.id)
        assert [(t.revision, t.start, t.end) for t in full.turns] == [(1, 2, 4), (2, 4, 6), (3, 6, 8)]
        for turn in full.turns:
            user, assistant = full.history[turn.start : turn.end]
            assert (user.role.value, assistant.role.value) == ("user", "assistant")
        assert full.session.run_count == len(full.turns) == 3

        kept = truncate_ok(alice, session.id, 3, 1)

        assert (kept.revision, kept.status.value, kept.message_count, kept.run_count) == (4, "ready", 4, 3)
        assert kept.record_bytes == after[0].record_bytes  # what the record held right after turn 1
        read = read_ok(alice, session.id)
        assert [(m.role, m.content) for m in read.history] == [(m.role, m.content) for m in full.history[:4]]
        assert [t.to_dict() for t in read.turns] == [full.turns[0].to_dict()]
        assert (len(read.turns), read.session.run_count) == (1, 3)

        # the kept native items still verify on the next turn, which sees exactly the kept conversation
        recall = run_ok(alice, run_request("!recall", kept))
        assert recall.output.text == "recall: 4 messages; last user: I like tea."
        assert not isinstance(recall.session, Unset)
        assert recall.session.revision == 5

        # to zero: only the imported history stays
        empty = truncate_ok(alice, session.id, 5, 0)
        assert (empty.revision, empty.message_count) == (6, 2)
        assert empty.record_bytes == visible_bytes("user", "My name is Ada.") + visible_bytes("assistant", "Hello Ada.")
        assert read_ok(alice, session.id).turns == []
        recall = run_ok(alice, run_request("!recall", empty))
        assert recall.output.text == "recall: 2 messages; last user: My name is Ada."
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_a_stale_revision_is_a_conflict_and_too_many_turns_a_validation_error(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice)
        _turns(alice, session, "one", "two")

        stale = truncate(alice, session.id, 1, 0)
        assert_problem(stale, 409, "SESSION_REVISION_CONFLICT", currentRevision=2)

        too_many = truncate(alice, session.id, 2, 3)
        body = assert_problem(too_many, 422, "VALIDATION_ERROR")
        assert isinstance(too_many.parsed, Problem)
        assert body["errors"] == [{"location": "body.keepTurns", "message": "at most 2"}]

        with main_host.raw(ALICE) as http:
            for bad in ({"revision": 2, "keepTurns": -1}, {"revision": 2}, {"revision": "2", "keepTurns": 0}, {}):
                response = http.post(f"/v1/sessions/{session.id}/truncate", json=bad)
                assert_problem(response, 422, "VALIDATION_ERROR")
            extra = http.post(f"/v1/sessions/{session.id}/truncate", json={"revision": 2, "keepTurns": 0, "x": 1})
            assert_problem(extra, 422, "VALIDATION_ERROR")

        read = read_ok(alice, session.id)
        assert (read.session.revision, read.session.message_count) == (2, 4)  # nothing changed
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


async def test_truncation_is_busy_while_a_turn_runs_or_waits_for_function_results(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice:
        session = await anew_session(alice, mode="native")
        sleeping = asyncio.create_task(
            run.asyncio_detailed(client=alice, body=run_request("!sleep 1000\nslow", session))
        )
        await wait_for_status(alice, session.id, "running")
        busy = await atruncate(alice, session.id, 0, 0)
        run_id = assert_problem(busy, 409, "SESSION_BUSY", retryAfterSeconds=1)["activeRunId"]
        assert busy.headers["retry-after"] == "1"
        first = await settle(sleeping)
        assert first.status_code == 200 and first.parsed.id == run_id

    with main_host.client(ALICE) as alice:
        info = first.parsed.session
        paused = run_ok(alice, run_request("!call lookup {}\nx", info, tools=[function_tool("lookup")]))
        assert paused.status.value == "requires_action"
        waiting = truncate(alice, session.id, 1, 0)
        assert_problem(waiting, 409, "SESSION_BUSY", activeRunId=paused.id)

        done = submit_ok(alice, paused.id, function_results((paused.required_action.calls[0].call_id, "y")))
        assert not isinstance(done.session, Unset)
        assert done.session.revision == 2
        kept = truncate_ok(alice, session.id, 2, 1)
        assert (kept.revision, kept.message_count) == (3, 2)
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_an_interrupted_session_truncated_to_its_last_good_turn_is_ready_again(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice, mode="native")
        good = _turns(alice, session, "one", "two")[-1]
        assert_problem(run.sync_detailed(client=alice, body=run_request("!fail\nthree", good)), 502, "PROVIDER_ERROR")
        interrupted = read_ok(alice, session.id)
        assert interrupted.session.status.value == "interrupted"
        assert_problem(run.sync_detailed(client=alice, body=run_request("four", good)), 409, "SESSION_INTERRUPTED")

        kept = truncate_ok(alice, session.id, 2, len(interrupted.turns))

        assert (kept.status.value, kept.revision, kept.message_count, kept.run_count) == ("ready", 3, 4, 3)
        read = read_ok(alice, session.id)
        assert isinstance(read.interrupted_turn, Unset)
        result = run_ok(alice, run_request("!recall", kept))
        assert result.output.text == "recall: 4 messages; last user: two"
        assert not isinstance(result.session, Unset)
        assert (result.session.revision, result.session.status.value) == (4, "ready")
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_truncation_needs_the_continue_grant_and_the_owner(main_host: Host, nosessions_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice)
        _turns(alice, session, "one")

    with main_host.client(ALICE_NO_CONTINUE) as no_continue:
        assert_problem(truncate(no_continue, session.id, 1, 0), 403, "PERMISSION_DENIED")
    with main_host.client(BOB) as bob:
        assert_problem(truncate(bob, session.id, 1, 0), 404, "SESSION_NOT_FOUND")
    with main_host.client(ALICE_NO_READ) as no_read:  # continue is enough
        assert truncate_ok(no_read, session.id, 1, 1).revision == 2
    with main_host.client(ALICE) as alice:
        assert_problem(truncate(alice, "ses_doesnotexist", 0, 0), 404, "SESSION_NOT_FOUND")
        assert read_ok(alice, session.id).session.revision == 2
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
    with main_host.raw() as anonymous:
        response = anonymous.post(f"/v1/sessions/{session.id}/truncate", json={"revision": 0, "keepTurns": 0})
        assert_problem(response, 401, "UNAUTHENTICATED")
    with nosessions_host.client(ALICE) as alice:
        assert_problem(truncate(alice, "ses_any", 0, 0), 501, "SESSIONS_DISABLED")


def test_truncate_accepts_only_post_and_json(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice)
    with main_host.raw(ALICE) as http:
        path = f"/v1/sessions/{session.id}/truncate"
        not_json = http.post(path, content=b"revision=0", headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert_problem(not_json, 415, "UNSUPPORTED_MEDIA_TYPE")
        assert_problem(http.get(path), 405, "METHOD_NOT_ALLOWED")
        assert_problem(
            http.post(path, content=b"{", headers={"Content-Type": "application/json"}), 422, "VALIDATION_ERROR"
        )
    with main_host.client(ALICE) as alice:
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_the_spec_documents_truncate_session(main_host: Host) -> None:
    with httpx.Client(base_url=main_host.base_url, trust_env=False) as http:
        spec = http.get("/openapi.json").json()
    operation = spec["paths"]["/v1/sessions/{sessionId}/truncate"]["post"]
    assert operation["operationId"] == "truncateSession"
    assert {"200", "401", "403", "404", "409", "422", "501"} <= set(operation["responses"])
