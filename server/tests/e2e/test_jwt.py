"""JWT access tokens over HTTP: a real host verifying tokens of a fake identity provider.

The provider publishes its JWKS over HTTPS on loopback (a trustme CA the host trusts through
``SSL_CERT_FILE``); a second issuer's keys come from a JWKS file. Good tokens drive a session; every token
of the negative matrix is a 401 ``UNAUTHENTICATED`` with ``error="invalid_token"`` and its reason class; a
token lacking a scope is 403 for that operation only. No answer is a 5xx, and neither the host's log (at
debug level) nor any answer holds a token that was sent. A key the provider starts to sign with is picked
up without a restart.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import trustme
from fakes.issuer import ALL_SCOPES, NEGATIVE_MATRIX, FakeIssuer

from .conftest import ALICE, ALL_GRANTS, RETENTION_MS, Host, assert_problem, echo_provider, launch_host, token_entry

INVALID = 'Bearer realm="agentic-driver", error="invalid_token", error_description="{}"'
MIN_REFETCH_S = 1


@dataclass
class JwtHost:
    host: Host
    idp: FakeIssuer
    """Its keys are served at a JWKS URL."""
    kc: FakeIssuer
    """Its keys are read from a JWKS file; its subjects are prefixed ``kc:``."""
    sent: list[str] = field(default_factory=list)
    """Every token sent, to scan the log and the answers for."""
    answers: list[httpx.Response] = field(default_factory=list)

    def call(self, token: str, method: str, path: str, json: Any = None) -> httpx.Response:
        self.sent.append(token)
        with self.host.raw(token) as http:
            response = http.request(method, path, json=json)
        self.answers.append(response)
        assert response.status_code < 500, response.text
        return response


@pytest.fixture(scope="module")
def jwt_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JwtHost]:
    workdir = tmp_path_factory.mktemp("jwt")
    ca = trustme.CA()
    bundle = workdir / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    idp = FakeIssuer(issuer="https://idp.example.test/", audience="agentic-driver")
    idp.add_key("RSA", "rsa-1")
    idp.add_key("EC", "ec-1")
    kc = FakeIssuer(issuer="https://kc.example.test/realms/apps", audience="agentic-driver-kc")
    kc.add_key("RSA", "rsa-1")
    kc.add_key("EC", "ec-1")
    with idp.serve_jwks(ca) as url:
        config = {
            "hostId": "e2e-jwt",
            "providers": [echo_provider("echo"), echo_provider("echo-other", account="acct-2")],
            "sessions": {"retentionMs": RETENTION_MS},
            "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
            "auth": {
                "jwt": [
                    {
                        "issuer": idp.issuer,
                        "audience": [idp.audience, "another-api"],
                        "jwksUrl": url,
                        "algorithms": ["RS256", "PS256", "ES256"],
                        "leewaySeconds": 5,
                        "providers": ["echo"],
                        "jwksMinRefetchSeconds": MIN_REFETCH_S,
                    },
                    {
                        "issuer": kc.issuer,
                        "audience": kc.audience,
                        "jwksFile": str(kc.write_jwks(workdir / "kc-jwks.json")),
                        "algorithms": ["RS256", "PS256", "ES256"],
                        "subjectPrefix": "kc:",
                        "providers": ["*"],
                    },
                ]
            },
        }
        host = launch_host("jwt", config, workdir, env={"SSL_CERT_FILE": str(bundle)}, log_level="debug")
        try:
            yield JwtHost(host, idp, kc)
        finally:
            host.stop()


def test_good_tokens_of_both_issuers_drive_sessions(jwt_host: JwtHost) -> None:
    for idp, subject in ((jwt_host.idp, "user-1"), (jwt_host.kc, "kc:user-1")):
        for key in idp.keys:
            token = idp.token(key)
            discovery = jwt_host.call(token, "GET", "/v1/discovery")
            assert discovery.status_code == 200, discovery.text
            assert discovery.json()["subject"] == subject
            assert sorted(discovery.json()["sessionGrants"]) == sorted(ALL_GRANTS)
            created = jwt_host.call(
                token, "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}
            )
            assert created.status_code == 201, created.text
            session = created.json()["session"]
            run = {
                "provider": "echo",
                "model": "echo-1",
                "input": "Hi",
                "session": {"id": session["id"], "revision": 0},
            }
            assert jwt_host.call(token, "POST", "/v1/runs", run).status_code == 200
            assert (
                jwt_host.call(idp.token(key, sub="user-1"), "GET", f"/v1/sessions/{session['id']}").status_code == 200
            )

    # the URL issuer's tokens may use only its own providers list
    refused = jwt_host.call(
        jwt_host.idp.token(), "POST", "/v1/sessions", {"provider": "echo-other", "model": "echo-1", "mode": "history"}
    )
    assert_problem(refused, 403, "PERMISSION_DENIED")


def test_subjects_of_two_issuers_never_share_sessions(jwt_host: JwtHost) -> None:
    body = {"provider": "echo", "model": "echo-1", "mode": "history"}
    created = jwt_host.call(jwt_host.idp.token(sub="same-id"), "POST", "/v1/sessions", body)
    session_id = created.json()["session"]["id"]

    other = jwt_host.call(jwt_host.kc.token(sub="same-id"), "GET", f"/v1/sessions/{session_id}")

    assert_problem(other, 404, "SESSION_NOT_FOUND")


@pytest.mark.parametrize(("case", "reason"), list(NEGATIVE_MATRIX.items()), ids=list(NEGATIVE_MATRIX))
def test_every_bad_token_is_a_401_naming_its_reason(jwt_host: JwtHost, case: str, reason: str) -> None:
    token = jwt_host.idp.bad_token(case)
    calls = jwt_host.host.provider_calls("echo")

    for method, path, body in (
        ("GET", "/v1/discovery", None),
        ("POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}),
        ("POST", "/v1/runs", {"provider": "echo", "model": "echo-1", "input": "Hi"}),
        ("GET", "/v1/sessions/ses_e2e-jwt.any", None),
    ):
        response = jwt_host.call(token, method, path, body)
        assert_problem(response, 401, "UNAUTHENTICATED")
        assert response.headers["www-authenticate"] == INVALID.format(reason)
        assert response.json()["detail"] == f"The bearer token is not valid: {reason}."

    assert jwt_host.host.provider_calls("echo") == calls


def test_a_token_of_an_issuer_not_configured_is_a_wrong_issuer(jwt_host: JwtHost) -> None:
    stranger = FakeIssuer(issuer="https://stranger.example.test/")
    stranger.add_key("RSA", "rsa-1")

    response = jwt_host.call(stranger.token(), "GET", "/v1/discovery")

    assert_problem(response, 401, "UNAUTHENTICATED")
    assert response.headers["www-authenticate"] == INVALID.format("wrong issuer")


@pytest.mark.parametrize("grant", ALL_GRANTS)
def test_a_token_lacking_a_scope_is_refused_that_operation_only(jwt_host: JwtHost, grant: str) -> None:
    idp = jwt_host.idp
    full = idp.token()
    created = jwt_host.call(full, "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"})
    session = created.json()["session"]
    lacking = idp.token(scope=" ".join(word for word in ALL_SCOPES.split() if word != f"sessions:{grant}"))
    operations = {
        "create": ("POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}),
        "read": ("GET", f"/v1/sessions/{session['id']}", None),
        "continue": (
            "POST",
            "/v1/runs",
            {"provider": "echo", "model": "echo-1", "input": "Hi", "session": {"id": session["id"], "revision": 0}},
        ),
        "delete": ("DELETE", f"/v1/sessions/{session['id']}", None),
    }

    refused = jwt_host.call(lacking, *operations[grant])
    discovery = jwt_host.call(lacking, "GET", "/v1/discovery")

    assert_problem(refused, 403, "PERMISSION_DENIED")
    assert grant not in discovery.json()["sessionGrants"]
    assert jwt_host.call(full, *operations[grant]).status_code in (200, 201, 204)


def test_a_key_the_provider_starts_to_sign_with_is_fetched_without_restart(jwt_host: JwtHost) -> None:
    idp = jwt_host.idp
    assert jwt_host.call(idp.token(), "GET", "/v1/discovery").status_code == 200
    rotated = idp.add_key("RSA", f"rsa-rotated-{len(idp.keys)}")
    time.sleep(MIN_REFETCH_S + 0.1)  # past the refetch limit (a made-up kid before may have used it)
    fetches = idp.fetches

    accepted = jwt_host.call(idp.token(rotated), "GET", "/v1/discovery")
    made_up = [jwt_host.call(idp.token(headers={"kid": f"made-up-{n}"}), "GET", "/v1/discovery") for n in range(10)]

    assert accepted.status_code == 200, accepted.text
    assert idp.fetches == fetches + 1  # the new kid was fetched once; the made-up ones within the limit, never
    for response in made_up:
        assert response.headers["www-authenticate"] == INVALID.format("unknown key")


def test_no_token_is_in_the_log_or_any_answer(jwt_host: JwtHost) -> None:
    # every token sent so far, by this test and by those that ran before it
    for idp in (jwt_host.idp, jwt_host.kc):
        for token in [idp.token(key) for key in idp.keys] + [idp.bad_token(case) for case in NEGATIVE_MATRIX]:
            for path in ("/v1/discovery", "/v1/sessions/ses_e2e-jwt.any"):
                jwt_host.call(token, "GET", path)
    log = jwt_host.host.log_text()
    assert "JWKS of issuer https://idp.example.test/ fetched" in log  # the log is there, at debug level

    secrets = {part for token in jwt_host.sent for part in token.split(".") if len(part) >= 16}
    leaked = [part for part in secrets if part in log]
    echoed = [part for part in secrets for answer in jwt_host.answers if part in answer.text + str(answer.headers)]

    assert len(jwt_host.sent) >= 4 * len(NEGATIVE_MATRIX)
    assert leaked == [] and echoed == []
    assert jwt_host.host.error_count("INTERNAL_ERROR") == 0
