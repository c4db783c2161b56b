"""Session bounds: maxMessages, maxRecordBytes and maxEntries reject clearly and truncate nothing."""

from __future__ import annotations

from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import create_session, delete_session
from agentic_driver_client.models import Problem
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    RETENTION_MS,
    Host,
    assert_problem,
    create_request,
    messages,
    new_session,
    read_ok,
    run_ok,
    run_request,
    visible_bytes,
)

MAX_MESSAGES = 6
MAX_RECORD_BYTES = 4000


def test_max_messages_on_import_and_on_run(bounds_host: Host) -> None:
    with bounds_host.client(ALICE) as alice:
        stored = bounds_host.sessions_stored()
        too_many = messages(*(f"message {i}" for i in range(MAX_MESSAGES + 1)))
        response = create_session.sync_detailed(client=alice, body=create_request(history=too_many))
        assert_problem(response, 422, "SESSION_LIMIT_EXCEEDED", limit="maxMessages", maximum=MAX_MESSAGES)
        assert bounds_host.sessions_stored() == stored

        session = new_session(alice, history=messages("one", "two", "three", "four"))
        result = run_ok(alice, run_request("five", session))
        assert not isinstance(result.session, Unset)
        assert (result.session.revision, result.session.message_count) == (1, MAX_MESSAGES)

        calls = bounds_host.provider_calls("echo")
        response = run.sync_detailed(client=alice, body=run_request("seven", result.session))
        body = assert_problem(response, 422, "SESSION_LIMIT_EXCEEDED", limit="maxMessages", maximum=MAX_MESSAGES)
        assert str(MAX_MESSAGES) in body["detail"]
        assert bounds_host.provider_calls("echo") == calls  # refused before any model work

        read = read_ok(alice, session.id)
        assert (read.session.status.value, read.session.revision, read.session.message_count) == ("ready", 1, 6)
        assert isinstance(read.interrupted_turn, Unset)
        assert [m.content for m in read.history] == ["one", "two", "three", "four", "five", "echo: five"]
        # nothing is truncated: the same refusal, again, and the session is still ready at revision 1
        again = run.sync_detailed(client=alice, body=run_request("eight", result.session))
        assert_problem(again, 422, "SESSION_LIMIT_EXCEEDED", limit="maxMessages")
        assert read_ok(alice, session.id).session.status.value == "ready"
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_max_record_bytes_on_import_and_on_run(bounds_host: Host) -> None:
    with bounds_host.client(ALICE) as alice:
        stored = bounds_host.sessions_stored()
        response = create_session.sync_detailed(
            client=alice, body=create_request(instructions="x" * (MAX_RECORD_BYTES + 1))
        )
        assert_problem(response, 422, "SESSION_LIMIT_EXCEEDED", limit="maxRecordBytes", maximum=MAX_RECORD_BYTES)
        history = messages("y" * 2000, "z" * 2000)
        response = create_session.sync_detailed(client=alice, body=create_request(history=history))
        assert_problem(response, 422, "SESSION_LIMIT_EXCEEDED", limit="maxRecordBytes", maximum=MAX_RECORD_BYTES)
        assert bounds_host.sessions_stored() == stored

        exactly = new_session(alice, instructions="x" * MAX_RECORD_BYTES)
        assert exactly.record_bytes == MAX_RECORD_BYTES
        assert delete_session.sync_detailed(exactly.id, client=alice).status_code == 204

        session = new_session(alice)
        assert session.record_bytes == 0
        calls = bounds_host.provider_calls("echo")
        response = run.sync_detailed(client=alice, body=run_request("w" * MAX_RECORD_BYTES, session))
        assert_problem(response, 422, "SESSION_LIMIT_EXCEEDED", limit="maxRecordBytes", maximum=MAX_RECORD_BYTES)
        assert bounds_host.provider_calls("echo") == calls
        read = read_ok(alice, session.id)
        assert (read.session.status.value, read.session.revision, read.session.record_bytes) == ("ready", 0, 0)

        # still usable at the same revision with an input that fits
        result = run_ok(alice, run_request("hello", session, revision=0))
        assert not isinstance(result.session, Unset)
        assert result.session.revision == 1
        assert result.session.record_bytes == visible_bytes("user", "hello") + visible_bytes("assistant", "echo: hello")
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_a_reply_that_outgrows_the_record_interrupts_the_turn(bounds_host: Host) -> None:
    """The input fits, so model work starts; the input plus the reply does not, so the turn cannot be kept.

    The host reports SESSION_LIMIT_EXCEEDED and, because model work had started,
    records the turn as interrupted (reason ``limit_exceeded``) without storing any of it.
    """
    with bounds_host.client(ALICE) as alice:
        session = new_session(alice)
        text = "v" * 2500
        assert visible_bytes("user", text) <= MAX_RECORD_BYTES
        assert visible_bytes("user", text) + visible_bytes("assistant", "echo: " + text) > MAX_RECORD_BYTES
        calls = bounds_host.provider_calls("echo")

        response = run.sync_detailed(client=alice, body=run_request(text, session))
        assert_problem(response, 422, "SESSION_LIMIT_EXCEEDED", limit="maxRecordBytes", maximum=MAX_RECORD_BYTES)
        assert bounds_host.provider_calls("echo") == calls + 1

        read = read_ok(alice, session.id)
        assert (read.session.revision, read.session.message_count, read.session.record_bytes) == (0, 0, 0)
        assert read.session.status.value == "interrupted"
        assert not isinstance(read.interrupted_turn, Unset)
        assert read.interrupted_turn.reason.value == "limit_exceeded"
        assert_problem(run.sync_detailed(client=alice, body=run_request("short", session)), 409, "SESSION_INTERRUPTED")
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_full_store_rejects_new_sessions_until_one_is_deleted(full_host: Host) -> None:
    with full_host.client(ALICE) as alice:
        kept = [new_session(alice), new_session(alice)]
        assert full_host.sessions_stored() == 2

        response = create_session.sync_detailed(client=alice, body=create_request())
        body = assert_problem(response, 503, "SESSION_STORE_FULL", limit="maxEntries", maximum=2)
        retry_after = int(response.headers["retry-after"])
        assert 1 <= retry_after <= RETENTION_MS // 1000
        assert body["retryAfterSeconds"] == retry_after
        assert isinstance(response.parsed, Problem)
        assert full_host.sessions_stored() == 2

        # existing sessions keep working while the store is full
        assert run_ok(alice, run_request("Still served", kept[0])).output.text == "echo: Still served"

        assert delete_session.sync_detailed(kept[1].id, client=alice).status_code == 204
        replacement = new_session(alice)
        assert replacement.id not in {s.id for s in kept}
        for session_id in (kept[0].id, replacement.id):
            assert delete_session.sync_detailed(session_id, client=alice).status_code == 204
        assert full_host.sessions_stored() == 0
