"""forkSession end to end through the generated client (agentic_driver_client.api.sessions.fork_session): the
fork holds the source up to its boundary (history, turns, native state that still verifies), the source is
unchanged, both continue apart; the boundaries, busy and interrupted sources, grants, ownership, idempotency."""

from __future__ import annotations

import asyncio

from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.runs import run
from agentic_driver_client.models import ReadSessionResponse, SessionInfo
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    ALICE_NO_CREATE,
    ALICE_NO_READ,
    BOB,
    Host,
    afork,
    anew_session,
    assert_problem,
    fork,
    fork_ok,
    function_results,
    function_tool,
    messages,
    new_session,
    read_ok,
    run_ok,
    run_request,
    settle,
    submit_ok,
    truncate_ok,
    wait_for_status,
)


def _turns(client: AuthenticatedClient, session: SessionInfo, *texts: str) -> SessionInfo:
    info = session
    for text in texts:
        result = run_ok(client, run_request(text, info))
        assert not isinstance(result.session, Unset)
        info = result.session
    return info


def _conversation(read: ReadSessionResponse) -> list[tuple[str, str]]:
    return [(m.role.value, m.content) for m in read.history]


def test_a_fork_holds_the_source_up_to_its_boundary_and_both_continue_apart(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice, mode="native", history=messages("My name is Ada.", "Hello Ada."))
        # a tool exchange in the native state too: the fork's copy must replay it and verify
        paused = run_ok(alice, run_request("!call lookup {}\nI like tea.", session, tools=[function_tool("lookup")]))
        assert paused.status.value == "requires_action"
        first = submit_ok(alice, paused.id, function_results((paused.required_action.calls[0].call_id, "tea")))
        assert not isinstance(first.session, Unset)
        now = _turns(alice, first.session, "I like coffee.", "I like cocoa.")
        source = read_ok(alice, session.id)
        assert [t.revision for t in source.turns] == [1, 2, 3]

        at_two = fork_ok(alice, session.id, 2)

        assert at_two.id != session.id and at_two.id.startswith(f"ses_{main_host.config['hostId']}.")
        assert (at_two.revision, at_two.status.value, at_two.mode.value) == (2, "ready", "native")
        assert (at_two.provider, at_two.model, at_two.native_history) == (now.provider, now.model, now.native_history)
        assert (at_two.run_count, at_two.usage.input_tokens, at_two.served_models) == (0, 0, [])
        forked = read_ok(alice, at_two.id)
        assert _conversation(forked) == _conversation(source)[: source.turns[1].end]
        assert [t.to_dict() for t in forked.turns] == [t.to_dict() for t in source.turns[:2]]
        assert at_two.record_bytes < now.record_bytes

        # the copied native state is the source's: the next turn replays it and every signature verifies
        recall = run_ok(alice, run_request("!recall", at_two))
        assert recall.output.text == "recall: 6 messages; last user: I like coffee.; tool exchanges: 1"
        assert not isinstance(recall.session, Unset)
        assert (recall.session.revision, recall.session.run_count) == (3, 1)

        # the source is untouched by the fork and by the fork's turn, and goes on by itself
        after = read_ok(alice, session.id)
        assert after.to_dict() == source.to_dict()
        onward = run_ok(alice, run_request("!recall", now))
        assert onward.output.text == "recall: 8 messages; last user: I like cocoa.; tool exchanges: 1"


def test_the_boundaries_a_fork_accepts(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice, mode="native", history=messages("Imported.", "Kept."))
        now = _turns(alice, session, "one", "two", "three")

        current = fork_ok(alice, session.id)
        assert (current.revision, current.message_count) == (now.revision, now.message_count)
        imported = fork_ok(alice, session.id, 0)
        assert (imported.revision, imported.message_count) == (0, 2)
        assert read_ok(alice, imported.id).turns == []
        assert run_ok(alice, run_request("!recall", imported)).output.text == "recall: 2 messages; last user: Imported."

        # truncation drops revisions 2 and 3 from the session: they are no longer states it can be forked at
        kept = truncate_ok(alice, session.id, 3, 1)
        for gone in (2, 3, 5):
            assert_problem(fork(alice, session.id, gone), 409, "SESSION_REVISION_CONFLICT", currentRevision=4)
        assert fork_ok(alice, session.id, 1).revision == 1
        assert fork_ok(alice, session.id, kept.revision).message_count == kept.message_count
        assert_problem(fork(alice, session.id, -1), 422, "VALIDATION_ERROR")


async def test_a_busy_source_is_refused_and_an_interrupted_one_forks_from_its_last_good_state(
    main_host: Host,
) -> None:
    async with main_host.client(ALICE) as alice:
        session = await anew_session(alice, mode="native")
        sleeping = asyncio.create_task(
            run.asyncio_detailed(client=alice, body=run_request("!sleep 1000\nslow", session))
        )
        await wait_for_status(alice, session.id, "running")
        busy = await afork(alice, session.id)
        run_id = assert_problem(busy, 409, "SESSION_BUSY", retryAfterSeconds=1)["activeRunId"]
        first = await settle(sleeping)
        assert first.status_code == 200 and first.parsed.id == run_id

    with main_host.client(ALICE) as alice:
        good = first.parsed.session
        assert_problem(run.sync_detailed(client=alice, body=run_request("!fail\ntwo", good)), 502, "PROVIDER_ERROR")
        assert read_ok(alice, session.id).session.status.value == "interrupted"

        rescued = fork_ok(alice, session.id)

        assert (rescued.status.value, rescued.revision, rescued.message_count) == ("ready", 1, 2)
        assert isinstance(read_ok(alice, rescued.id).interrupted_turn, Unset)
        recall = run_ok(alice, run_request("!recall", rescued)).output.text
        assert recall == "recall: 2 messages; last user: !sleep 1000\nslow"
        assert read_ok(alice, session.id).session.status.value == "interrupted"  # the source stays as it was


def test_a_fork_needs_read_and_create_and_the_owner(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice)
        _turns(alice, session, "one")
    with main_host.client(ALICE_NO_READ) as no_read:
        assert_problem(fork(no_read, session.id), 403, "PERMISSION_DENIED")
    with main_host.client(ALICE_NO_CREATE) as no_create:
        assert_problem(fork(no_create, session.id), 403, "PERMISSION_DENIED")
    with main_host.client(BOB) as bob:
        assert_problem(fork(bob, session.id), 404, "SESSION_NOT_FOUND")


def test_an_idempotent_fork_is_made_once(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(alice)
        _turns(alice, session, "one")
        first = fork(alice, session.id, key="fork-once-1")
        again = fork(alice, session.id, key="fork-once-1")
        assert first.status_code == again.status_code == 201
        assert again.parsed.session.id == first.parsed.session.id
        assert_problem(fork(alice, session.id, 0, key="fork-once-1"), 422, "IDEMPOTENCY_KEY_REUSED")
