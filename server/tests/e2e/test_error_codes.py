"""Each error code, reached the way an application would reach it.

PERMISSION_DENIED is in test_grants, UNAUTHENTICATED in test_tokens,
SESSION_BUSY in test_concurrency, SESSION_LIMIT_EXCEEDED and SESSION_STORE_FULL
in test_bounds, VALIDATION_ERROR in test_bad_input.
"""

from __future__ import annotations

import asyncio

from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.runs import cancel_run, run
from agentic_driver_client.api.sessions import create_session, delete_session, read_session
from agentic_driver_client.models import (
    Attachment,
    CancelRunResponse,
    Discovery,
    ErrorCode,
    Problem,
    Retrieval,
    RetrievedDocument,
    SessionHandle,
)
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    MAIN_MAX_BODY_BYTES,
    Host,
    anew_session,
    aread_ok,
    assert_problem,
    create_request,
    messages,
    new_session,
    read_ok,
    run_ok,
    run_request,
    settle,
    wait_for_status,
)


def test_provider_and_model_not_found(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        body = assert_problem(
            create_session.sync_detailed(client=alice, body=create_request("nope")), 404, "PROVIDER_NOT_FOUND"
        )
        assert "nope" in body["detail"]
        assert_problem(
            create_session.sync_detailed(client=alice, body=create_request("echo", model="gpt-9")),
            404,
            "MODEL_NOT_FOUND",
        )
        assert_problem(
            run.sync_detailed(client=alice, body=run_request("Hi", provider="nope")), 404, "PROVIDER_NOT_FOUND"
        )
        assert_problem(run.sync_detailed(client=alice, body=run_request("Hi", model="gpt-9")), 404, "MODEL_NOT_FOUND")


def test_session_and_run_not_found(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        missing = "ses_doesNotExist0000000"
        assert_problem(read_session.sync_detailed(missing, client=alice), 404, "SESSION_NOT_FOUND")
        assert_problem(delete_session.sync_detailed(missing, client=alice), 404, "SESSION_NOT_FOUND")
        assert_problem(cancel_run.sync_detailed("run_doesNotExist0000000", client=alice), 404, "RUN_NOT_FOUND")

        created = new_session(alice)
        finished = run_ok(alice, run_request("Hi", created))
        # a run that is no longer active cannot be cancelled
        assert_problem(cancel_run.sync_detailed(finished.id, client=alice), 404, "RUN_NOT_FOUND")
        assert not isinstance(finished.session, Unset)
        # a session is bound to its provider instance and model: naming others does not find it
        calls = main_host.provider_calls("echo-other") + main_host.provider_calls("echo")
        assert_problem(
            run.sync_detailed(client=alice, body=run_request("Hi", finished.session, provider="echo-other")),
            404,
            "SESSION_NOT_FOUND",
        )
        assert_problem(
            run.sync_detailed(client=alice, body=run_request("Hi", finished.session, model="echo-2")),
            404,
            "SESSION_NOT_FOUND",
        )
        assert main_host.provider_calls("echo-other") + main_host.provider_calls("echo") == calls
        assert read_ok(alice, created.id).session.revision == 1
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204


def test_stale_revision_is_a_conflict_that_starts_no_model_call(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice)
        run_ok(alice, run_request("One", created))
        calls = main_host.provider_calls("echo")
        for stale in (0, 7):
            response = run.sync_detailed(client=alice, body=run_request("Two", created, revision=stale))
            assert_problem(response, 409, "SESSION_REVISION_CONFLICT", currentRevision=1)
            assert response.headers["x-should-retry"] == "false"
            assert response.parsed is not None and response.parsed.current_revision == 1
        assert main_host.provider_calls("echo") == calls
        read = read_ok(alice, created.id)
        assert (read.session.revision, read.session.status.value, read.session.message_count) == (1, "ready", 2)
        assert run_ok(alice, run_request("Two", created, revision=1)).output.text == "echo: Two"
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204


def test_unbound_provider_refuses_sessions_but_serves_stateless_runs(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        discovery = get_discovery.sync_detailed(client=alice).parsed
        assert isinstance(discovery, Discovery)
        bound = {p.id: p.account_bound for p in discovery.providers}
        assert bound["echo-unbound"] is False and bound["echo"] is True

        stored = main_host.sessions_stored()
        body = assert_problem(
            create_session.sync_detailed(client=alice, body=create_request("echo-unbound")),
            409,
            "SESSION_ACCOUNT_REQUIRED",
        )
        assert "echo-unbound" in body["detail"]
        assert main_host.sessions_stored() == stored
        result = run_ok(alice, run_request("Stateless is fine", provider="echo-unbound"))
        assert result.output.text == "echo: Stateless is fine"


def test_native_mode_on_a_history_only_provider(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        discovery = get_discovery.sync_detailed(client=alice).parsed
        assert isinstance(discovery, Discovery)
        capabilities = {p.id: p.capabilities for p in discovery.providers}
        assert capabilities["echo-history"].native_continuation is False
        assert capabilities["echo-history"].history_continuation is True

        assert_problem(
            create_session.sync_detailed(client=alice, body=create_request("echo-history", "native")),
            422,
            "UNSUPPORTED_CONTINUATION",
        )
        history_mode = new_session(alice, provider="echo-history")
        assert history_mode.mode.value == "history"
        assert delete_session.sync_detailed(history_mode.id, client=alice).status_code == 204


def test_session_runs_cannot_override_instructions_or_history(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice, instructions="Be brief.")
        calls = main_host.provider_calls("echo")
        attempts = [
            {"instructions": "Be verbose."},
            {"history": messages("I am someone else.")},
            {"instructions": "", "history": []},
        ]
        for extra in attempts:
            response = run.sync_detailed(client=alice, body=run_request("Hi", created, **extra))
            assert_problem(response, 422, "SESSION_OVERRIDE_REJECTED")
        assert main_host.provider_calls("echo") == calls
        read = read_ok(alice, created.id)
        assert (read.session.revision, read.session.status.value, read.instructions) == (0, "ready", "Be brief.")
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204


def test_session_runs_take_no_attachments_or_retrieval(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice)
        calls = main_host.provider_calls("echo")
        attachment = Attachment(name="notes.txt", media_type="text/plain", data="aGVsbG8=")
        retrieval = Retrieval(documents=[RetrievedDocument(id="doc-1", text="Ada Lovelace wrote notes.")])
        for extra in ({"attachments": [attachment]}, {"retrieval": retrieval}):
            response = run.sync_detailed(client=alice, body=run_request("Summarise", created, **extra))
            assert_problem(response, 422, "SESSION_CONTEXT_UNSUPPORTED")
        assert main_host.provider_calls("echo") == calls
        assert read_ok(alice, created.id).session.status.value == "ready"
        # the same context is fine on a stateless run
        stateless = run_ok(alice, run_request("Summarise", attachments=[attachment], retrieval=retrieval))
        assert stateless.output.text == "echo: Summarise"
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204


def test_an_attachment_type_the_instance_does_not_take_is_refused_before_model_work(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        calls = main_host.provider_calls("echo")
        archive = Attachment(name="notes.zip", media_type="application/zip", data="UEsFBgAAAAA=")
        response = run.sync_detailed(client=alice, body=run_request("Unpack", attachments=[archive]))
        body = assert_problem(
            response, 422, "ATTACHMENT_UNSUPPORTED", provider="echo", mediaType="application/zip", attachment=0
        )
        assert isinstance(response.parsed, Problem) and response.parsed.code == ErrorCode.ATTACHMENT_UNSUPPORTED
        assert "does not take this type" in body["detail"]
        assert main_host.provider_calls("echo") == calls
        # an image is fine on the same instance
        png = Attachment(name="dot.png", media_type="image/png", data="iVBORw0KGgo=")
        assert run_ok(alice, run_request("Describe", attachments=[png])).output.text == "echo: Describe"


def test_provider_failure_interrupts_the_session(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice)
        first = run_ok(alice, run_request("Before the failure", created))
        assert not isinstance(first.session, Unset)
        failed_before = main_host.provider_calls("echo", "failed")

        response = run.sync_detailed(client=alice, body=run_request("!fail\nThis breaks", first.session))
        assert_problem(response, 502, "PROVIDER_ERROR")
        assert main_host.provider_calls("echo", "failed") == failed_before + 1

        read = read_ok(alice, created.id)
        assert read.session.status.value == "interrupted"
        assert read.session.revision == 1
        assert [m.content for m in read.history] == ["Before the failure", "echo: Before the failure"]
        interrupted = read.interrupted_turn
        assert not isinstance(interrupted, Unset)
        assert interrupted.reason.value == "failed"
        assert interrupted.input_ == "!fail\nThis breaks"
        assert interrupted.run_id.startswith("run_")

        calls = main_host.provider_calls("echo")
        again = run.sync_detailed(client=alice, body=run_request("Try again", first.session))
        assert_problem(again, 409, "SESSION_INTERRUPTED")
        assert main_host.provider_calls("echo") == calls
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204

        # a stateless run fails the same way, with no session to interrupt
        assert_problem(run.sync_detailed(client=alice, body=run_request("!fail")), 502, "PROVIDER_ERROR")


async def test_cancel_after_model_work_started(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice:
        created = await anew_session(alice)
        slow = asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nLong", created)))
        running = await wait_for_status(alice, created.id, "running")
        assert running.session.expires_at is None  # retention is suspended while a turn is active

        busy = await run.asyncio_detailed(client=alice, body=run_request("Meanwhile", created))
        body = assert_problem(busy, 409, "SESSION_BUSY")
        run_id = body["activeRunId"]

        cancelled = await cancel_run.asyncio_detailed(run_id, client=alice)
        assert cancelled.status_code == 200
        assert isinstance(cancelled.parsed, CancelRunResponse)
        assert (cancelled.parsed.id, cancelled.parsed.status, cancelled.parsed.model_work_started) == (
            run_id,
            "cancelled",
            True,
        )
        assert not isinstance(cancelled.parsed.session, Unset)
        assert (cancelled.parsed.session.status.value, cancelled.parsed.session.revision) == ("interrupted", 0)

        own_answer = await settle(slow)
        assert_problem(own_answer, 409, "RUN_CANCELLED", reason="cancelled")
        assert isinstance(own_answer.parsed, Problem)
        assert own_answer.parsed.code is ErrorCode.RUN_CANCELLED

        read = await aread_ok(alice, created.id)
        assert read.session.status.value == "interrupted"
        assert read.session.revision == 0
        assert read.history == []
        assert not isinstance(read.interrupted_turn, Unset)
        assert (read.interrupted_turn.run_id, read.interrupted_turn.reason.value) == (run_id, "cancelled")
        assert read.interrupted_turn.input_ == "!sleep 5000\nLong"

        again = await run.asyncio_detailed(client=alice, body=run_request("Again", created))
        assert_problem(again, 409, "SESSION_INTERRUPTED")
        # a cancelled run is no longer active
        assert_problem(await cancel_run.asyncio_detailed(run_id, client=alice), 404, "RUN_NOT_FOUND")
        assert (await delete_session.asyncio_detailed(created.id, client=alice)).status_code == 204


def test_sessions_disabled(nosessions_host: Host) -> None:
    with nosessions_host.client(ALICE) as alice:
        discovery = get_discovery.sync_detailed(client=alice).parsed
        assert isinstance(discovery, Discovery)
        assert discovery.sessions.enabled is False
        assert discovery.sessions.retention_ms is None

        assert_problem(create_session.sync_detailed(client=alice, body=create_request()), 501, "SESSIONS_DISABLED")
        assert_problem(read_session.sync_detailed("ses_any", client=alice), 501, "SESSIONS_DISABLED")
        assert_problem(delete_session.sync_detailed("ses_any", client=alice), 501, "SESSIONS_DISABLED")
        session_run = run_request("Hi")
        session_run.session = SessionHandle(id="ses_any", revision=0)
        assert_problem(run.sync_detailed(client=alice, body=session_run), 501, "SESSIONS_DISABLED")
        assert nosessions_host.provider_calls("echo") == 0

        assert run_ok(alice, run_request("Stateless still works")).output.text == "echo: Stateless still works"


def test_payload_too_large(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        big = "a" * (MAIN_MAX_BODY_BYTES + 1)
        calls = main_host.provider_calls("echo")
        fields = {"limit": "maxBodyBytes", "maximum": MAIN_MAX_BODY_BYTES}
        assert_problem(run.sync_detailed(client=alice, body=run_request(big)), 413, "PAYLOAD_TOO_LARGE", **fields)
        stored = main_host.sessions_stored()
        response = create_session.sync_detailed(client=alice, body=create_request(instructions=big))
        assert_problem(response, 413, "PAYLOAD_TOO_LARGE", **fields)
        assert main_host.provider_calls("echo") == calls
        assert main_host.sessions_stored() == stored
        # just under the bound is read and served
        fits = "b" * (MAIN_MAX_BODY_BYTES - 200)
        assert run_ok(alice, run_request(fits)).output.text == "echo: " + fits


def test_unsupported_media_type(main_host: Host) -> None:
    with main_host.raw(ALICE) as http:
        for path, payload in (
            ("/v1/runs", '{"provider": "echo", "model": "echo-1", "input": "Hi"}'),
            ("/v1/sessions", '{"provider": "echo", "model": "echo-1", "mode": "history"}'),
        ):
            response = http.post(path, content=payload, headers={"Content-Type": "text/plain"})
            body = assert_problem(response, 415, "UNSUPPORTED_MEDIA_TYPE")
            assert body["instance"] == path
            untyped = http.post(path, content=payload.encode())
            assert_problem(untyped, 415, "UNSUPPORTED_MEDIA_TYPE")
        # application/json with parameters is accepted
        ok = http.post(
            "/v1/runs",
            content='{"provider": "echo", "model": "echo-1", "input": "Hi"}',
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        assert ok.status_code == 200 and ok.json()["output"]["text"] == "echo: Hi"


def test_undocumented_routes_and_methods(main_host: Host) -> None:
    with main_host.raw(ALICE) as http:
        for method, path in (("GET", "/v1/nothing-here"), ("POST", "/v2/runs"), ("GET", "/")):
            body = assert_problem(http.request(method, path), 404, "ROUTE_NOT_FOUND")
            assert body["instance"] == path
        for method, path, allowed in (
            ("PUT", "/v1/sessions", "POST"),
            ("GET", "/v1/runs", "POST"),
            ("DELETE", "/v1/discovery", "GET"),
            ("GET", "/v1/runs/run_x/cancel", "POST"),
        ):
            response = http.request(method, path)
            assert_problem(response, 405, "METHOD_NOT_ALLOWED")
            assert allowed in response.headers["allow"]
    assert main_host.healthy()
