"""Authorization: per-operation session grants, provider grants, discovery, and subject isolation."""

from __future__ import annotations

import asyncio

import pytest
from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.runs import cancel_run, run
from agentic_driver_client.api.sessions import create_session, delete_session, read_session
from agentic_driver_client.models import Discovery
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    ALICE_NO_CONTINUE,
    ALICE_NO_CREATE,
    ALICE_NO_DELETE,
    ALICE_NO_GRANTS,
    ALICE_NO_READ,
    ALICE_OTHER_ONLY,
    BOB,
    MAIN_CONFIG,
    RETENTION_MS,
    Host,
    anew_session,
    aread_ok,
    arun_ok,
    assert_problem,
    body_of,
    create_request,
    new_session,
    read_ok,
    run_ok,
    run_request,
    settle,
    wait_for_status,
)


def _attempt(operation: str, client, session):
    """Perform ``operation`` on alice's ``session`` the way an application would."""
    if operation == "create":
        return create_session.sync_detailed(client=client, body=create_request())
    if operation == "read":
        return read_session.sync_detailed(session.id, client=client)
    if operation == "continue":
        return run.sync_detailed(client=client, body=run_request("Hello", session))
    assert operation == "delete"
    return delete_session.sync_detailed(session.id, client=client)


@pytest.mark.parametrize(
    ("operation", "token", "ok_status"),
    [
        ("create", ALICE_NO_CREATE, 201),
        ("read", ALICE_NO_READ, 200),
        ("continue", ALICE_NO_CONTINUE, 200),
        ("delete", ALICE_NO_DELETE, 204),
    ],
)
def test_each_operation_needs_its_session_grant(main_host: Host, operation: str, token: str, ok_status: int) -> None:
    with main_host.client(ALICE) as alice, main_host.client(token) as lacking:
        session = new_session(alice)
        stored = main_host.sessions_stored()
        calls = main_host.provider_calls("echo")

        body = assert_problem(_attempt(operation, lacking, session), 403, "PERMISSION_DENIED")
        assert operation in body["detail"]
        # the refused operation changed nothing
        assert main_host.sessions_stored() == stored
        assert main_host.provider_calls("echo") == calls
        read = read_ok(alice, session.id)
        assert (read.session.revision, read.session.status.value) == (0, "ready")

        # the same subject with the grant may do it
        allowed = _attempt(operation, alice, session)
        assert int(allowed.status_code) == ok_status
        if operation == "create":
            assert main_host.sessions_stored() == stored + 1
            assert delete_session.sync_detailed(allowed.parsed.session.id, client=alice).status_code == 204
        if operation != "delete":
            assert delete_session.sync_detailed(session.id, client=alice).status_code == 204


def test_stateless_runs_need_no_session_grant(main_host: Host) -> None:
    with main_host.client(ALICE_NO_GRANTS) as nothing:
        assert run_ok(nothing, run_request("No grants needed")).output.text == "echo: No grants needed"
        assert_problem(create_session.sync_detailed(client=nothing, body=create_request()), 403, "PERMISSION_DENIED")


async def test_cancelling_a_session_run_needs_the_continue_grant(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice, main_host.client(ALICE_NO_CONTINUE) as lacking:
        session = await anew_session(alice)
        slow = asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nLong", session)))
        await wait_for_status(alice, session.id, "running")
        run_id = assert_problem(
            await run.asyncio_detailed(client=alice, body=run_request("Peek", session)), 409, "SESSION_BUSY"
        )["activeRunId"]

        assert_problem(await cancel_run.asyncio_detailed(run_id, client=lacking), 403, "PERMISSION_DENIED")
        assert (await aread_ok(alice, session.id)).session.status.value == "running"

        assert (await cancel_run.asyncio_detailed(run_id, client=alice)).status_code == 200
        assert_problem(await settle(slow), 409, "RUN_CANCELLED", reason="cancelled")
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204


async def test_every_operation_needs_the_provider_grant(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice, main_host.client(ALICE_OTHER_ONLY) as other_only:
        session = await anew_session(alice)  # on "echo", which other_only's token does not grant
        calls = main_host.provider_calls("echo")

        denied = [
            await create_session.asyncio_detailed(client=other_only, body=create_request("echo")),
            await read_session.asyncio_detailed(session.id, client=other_only),
            await run.asyncio_detailed(client=other_only, body=run_request("Hi", session)),
            await run.asyncio_detailed(client=other_only, body=run_request("Stateless", provider="echo")),
            await delete_session.asyncio_detailed(session.id, client=other_only),
        ]
        for response in denied:
            body = assert_problem(response, 403, "PERMISSION_DENIED")
            assert "echo" in body["detail"]
        assert main_host.provider_calls("echo") == calls

        slow = asyncio.create_task(run.asyncio_detailed(client=alice, body=run_request("!sleep 5000\nLong", session)))
        await wait_for_status(alice, session.id, "running")
        run_id = assert_problem(
            await run.asyncio_detailed(client=alice, body=run_request("Peek", session)), 409, "SESSION_BUSY"
        )["activeRunId"]
        assert_problem(await cancel_run.asyncio_detailed(run_id, client=other_only), 403, "PERMISSION_DENIED")
        assert (await cancel_run.asyncio_detailed(run_id, client=alice)).status_code == 200
        assert_problem(await settle(slow), 409, "RUN_CANCELLED")

        # the granted instance works for the same token
        own = await anew_session(other_only, provider="echo-other")
        assert own.provider == "echo-other"
        result = await arun_ok(other_only, run_request("Hi", own))
        assert result.output.text == "echo: Hi"
        for token_client, session_id in ((other_only, own.id), (alice, session.id)):
            assert (await delete_session.asyncio_detailed(session_id, client=token_client)).status_code == 204


def _discovery(host: Host, token: str) -> tuple[Discovery, dict]:
    with host.client(token) as client:
        response = get_discovery.sync_detailed(client=client)
    assert response.status_code == 200
    assert isinstance(response.parsed, Discovery)
    return response.parsed, body_of(response)


def test_discovery_shows_only_what_the_token_grants(main_host: Host) -> None:
    other_only, _ = _discovery(main_host, ALICE_OTHER_ONLY)
    assert other_only.subject == "alice"
    assert [p.id for p in other_only.providers] == ["echo-other"]
    assert [g.value for g in other_only.session_grants] == ["create", "read", "continue", "delete"]
    assert other_only.host_id == "e2e-main"

    no_create, _ = _discovery(main_host, ALICE_NO_CREATE)
    assert [g.value for g in no_create.session_grants] == ["read", "continue", "delete"]
    no_grants, _ = _discovery(main_host, ALICE_NO_GRANTS)
    assert no_grants.session_grants == []

    bob, raw = _discovery(main_host, BOB)
    assert bob.subject == "bob"
    configured = {p["id"]: p for p in MAIN_CONFIG["providers"]}
    assert [p.id for p in bob.providers] == list(configured)
    for provider in bob.providers:
        assert provider.kind == "echo"
        assert provider.models == configured[provider.id]["models"]
        assert provider.account_bound is ("accountId" in configured[provider.id])
        assert provider.capabilities.native_continuation is configured[provider.id]["settings"]["native"]
    policy = bob.sessions
    assert (policy.enabled, policy.retention_ms, policy.max_entries) == (True, RETENTION_MS, 500)
    assert (policy.max_messages, policy.max_record_bytes) == (100, 200_000)
    # the account binding is reported as a boolean only, never as the account id
    text = str(raw)
    assert "acct-1" not in text and "acct-2" not in text


async def test_subjects_cannot_see_each_others_sessions_or_runs(main_host: Host) -> None:
    async with main_host.client(ALICE) as alice, main_host.client(BOB) as bob:
        session = await anew_session(alice)
        calls = main_host.provider_calls("echo")

        not_found = [
            await read_session.asyncio_detailed(session.id, client=bob),
            await run.asyncio_detailed(client=bob, body=run_request("Let me in", session)),
            await delete_session.asyncio_detailed(session.id, client=bob),
        ]
        for response in not_found:
            assert_problem(response, 404, "SESSION_NOT_FOUND")
        assert main_host.provider_calls("echo") == calls

        # bob learns nothing from the answer: a session that does not exist looks the same
        missing = "ses_" + "x" * (len(session.id) - 4)
        real = body_of(not_found[0])
        fake = body_of(await read_session.asyncio_detailed(missing, client=bob))
        own = ("detail", "instance", "requestId")  # requestId: each answer's own random id
        assert {k: v for k, v in real.items() if k not in own} == {k: v for k, v in fake.items() if k not in own}
        assert real["detail"].replace(session.id, missing) == fake["detail"]

        slow = asyncio.create_task(arun_ok(alice, run_request("!sleep 1000\nMine", session)))
        await wait_for_status(alice, session.id, "running")
        run_id = assert_problem(
            await run.asyncio_detailed(client=alice, body=run_request("Peek", session)), 409, "SESSION_BUSY"
        )["activeRunId"]
        assert_problem(await cancel_run.asyncio_detailed(run_id, client=bob), 404, "RUN_NOT_FOUND")

        # alice's run was not disturbed and her session is intact
        finished = await settle(slow)
        assert finished.output.text == "echo: Mine"
        assert not isinstance(finished.session, Unset)
        read = await aread_ok(alice, session.id)
        assert (read.session.revision, read.session.status.value, read.session.message_count) == (1, "ready", 2)
        assert (await delete_session.asyncio_detailed(session.id, client=alice)).status_code == 204
