"""Bearer tokens in every configured form; missing and wrong tokens are 401 with a challenge."""

from __future__ import annotations

import hashlib

from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.health import get_health
from agentic_driver_client.api.runs import cancel_run, run
from agentic_driver_client.api.sessions import create_session, delete_session, read_session
from agentic_driver_client.models import Discovery, Health

from .conftest import ALICE, CAROL, DAVE, Host, assert_problem, create_request, new_session, run_request

CHALLENGE = 'Bearer realm="agentic-driver"'
"""No bearer token presented: a challenge without an error code (RFC 6750 section 3.1)."""
UNKNOWN_TOKEN = CHALLENGE + ', error="invalid_token", error_description="unknown token"'
"""A bearer token this host does not accept (never configured, or revoked)."""


def _discovery(host: Host, token: str) -> Discovery:
    with host.client(token) as client:
        response = get_discovery.sync_detailed(client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, Discovery)
    return response.parsed


def test_token_configured_as_sha256(main_host: Host) -> None:
    assert "tokenSha256" in next(t for t in main_host.config["tokens"] if t["subject"] == "carol")
    carol = _discovery(main_host, CAROL)
    assert carol.subject == "carol"
    assert [g.value for g in carol.session_grants] == ["read"]
    assert [p.id for p in carol.providers] == ["echo"]
    # the digest itself is not a credential
    with main_host.client(hashlib.sha256(CAROL.encode()).hexdigest()) as digest:
        assert_problem(get_discovery.sync_detailed(client=digest), 401, "UNAUTHENTICATED")


def test_token_configured_from_the_environment(main_host: Host) -> None:
    dave = _discovery(main_host, DAVE)
    assert dave.subject == "dave"
    assert [g.value for g in dave.session_grants] == ["create", "read"]
    with main_host.client(DAVE) as client:
        session = new_session(client)
        assert read_session.sync_detailed(session.id, client=client).status_code == 200
        assert_problem(delete_session.sync_detailed(session.id, client=client), 403, "PERMISSION_DENIED")
    with main_host.client(ALICE) as alice:  # another subject cannot clean it up either
        assert_problem(delete_session.sync_detailed(session.id, client=alice), 404, "SESSION_NOT_FOUND")


def test_wrong_token_is_unauthenticated(main_host: Host) -> None:
    calls = main_host.provider_calls("echo")
    for wrong in (ALICE + "x", ALICE[:-1], "not-a-configured-token-at-all"):
        with main_host.client(wrong) as client:
            responses = [
                get_discovery.sync_detailed(client=client),
                create_session.sync_detailed(client=client, body=create_request()),
                run.sync_detailed(client=client, body=run_request("Hi")),
                read_session.sync_detailed("ses_any", client=client),
                delete_session.sync_detailed("ses_any", client=client),
                cancel_run.sync_detailed("run_any", client=client),
            ]
        for response in responses:
            assert_problem(response, 401, "UNAUTHENTICATED")
            assert response.headers["www-authenticate"] == UNKNOWN_TOKEN
            assert wrong.encode() not in response.content
    assert main_host.provider_calls("echo") == calls


def test_missing_or_malformed_authorization_is_unauthenticated(main_host: Host) -> None:
    with main_host.anonymous() as anonymous:
        for response in (
            get_discovery.sync_detailed(client=anonymous),
            create_session.sync_detailed(client=anonymous, body=create_request()),
            run.sync_detailed(client=anonymous, body=run_request("Hi")),
        ):
            assert_problem(response, 401, "UNAUTHENTICATED")
            assert response.headers["www-authenticate"] == CHALLENGE
        # health needs no token
        health = get_health.sync_detailed(client=anonymous)
        assert health.status_code == 200 and isinstance(health.parsed, Health)
    with main_host.raw() as http:
        for authorization in (f"Basic {ALICE}", ALICE, "Bearer", f"Token {ALICE}"):
            response = http.get("/v1/discovery", headers={"Authorization": authorization})
            assert_problem(response, 401, "UNAUTHENTICATED")
            assert response.headers["www-authenticate"] == CHALLENGE
        response = http.get("/v1/discovery", headers={"Authorization": f"Bearer  {ALICE}x"})
        assert_problem(response, 401, "UNAUTHENTICATED")
        assert response.headers["www-authenticate"] == UNKNOWN_TOKEN
        # the scheme name is case-insensitive
        assert http.get("/v1/discovery", headers={"Authorization": f"bearer {ALICE}"}).status_code == 200


def auth_refusals(host: Host) -> dict[str, int]:
    return {
        labels["reason"]: int(value)
        for name, labels, value in host.metrics()
        if name == "agentic_driver_auth_refusals_total"
    }


def test_refusals_are_counted_by_reason_never_by_token(main_host: Host) -> None:
    before = auth_refusals(main_host)
    assert {"missing", "unknown_token", "expired", "bad_signature", "keys_unavailable"} <= set(before)
    with main_host.raw() as anonymous:
        assert anonymous.get("/v1/discovery").status_code == 401
    with main_host.raw("not-a-configured-token-01") as stranger:
        assert stranger.get("/v1/discovery").status_code == 401
        assert stranger.get("/v1/discovery").status_code == 401
    after = auth_refusals(main_host)
    assert after["missing"] - before["missing"] == 1
    assert after["unknown_token"] - before["unknown_token"] == 2
    with main_host.raw() as http:
        exposed = http.get("/metrics").text
    assert "not-a-configured-token-01" not in exposed
