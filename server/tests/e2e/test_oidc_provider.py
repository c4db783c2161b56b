"""A real OpenID provider issues the access tokens a real host verifies (panva's certified oidc-provider).

``tests/idp`` runs oidc-provider (the version its package-lock.json pins) on a free loopback port over HTTPS
(a trustme CA the host trusts through ``SSL_CERT_FILE``). Tokens are obtained as an application obtains
them: the client_credentials grant at the token endpoint, HTTP Basic client authentication, a resource
indicator (RFC 8707) that makes the token an RFC 9068 JWT for this host's audience. The host's ``auth.jwt``
entry names the provider's issuer and the ``jwks_uri`` of its discovery document.

Good tokens drive a session and a turn through the generated client; a tampered token, one for another
resource server of the same provider, an expired one and an opaque one (no resource asked) are each a 401
with its reason class. The provider rotates its signing key without a restart (new key published and
signing, old one still published), then retires the old key: the host accepts the new key's tokens as soon
as its refetch limit allows, and refuses a never-seen token of the retired key once its cached JWKS is older
than ``jwksCacheSeconds`` and was fetched again; a token it verified before stays accepted until its ``exp``.
Waits are bounded polls on the answers (and on the provider's own record of JWKS fetches), never blind
sleeps; the expiry test waits for a 2-second token lifetime. No token appears in the host's log.

The provider must be installed (``make setup-test`` runs ``npm ci`` in tests/idp): without it these tests
fail, saying how to install it; they never skip.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.sessions import read_session
from agentic_driver_client.models import Discovery, SessionInfo
from idp.harness import APP, SHORT_LIVED, Idp, start_idp

from .conftest import RETENTION_MS, Host, assert_problem, echo_provider, launch_host, new_session, run_ok, run_request

INVALID = 'Bearer realm="agentic-driver", error="invalid_token", error_description="{}"'
JWKS_CACHE_S = 2
"""The host's ``jwksCacheSeconds`` in the rotation test: how long a retired key may still verify new tokens."""
JWKS_MIN_REFETCH_S = 1
"""The host's ``jwksMinRefetchSeconds``: how soon after a fetch a token with a new ``kid`` can be verified."""
POLL_S = 0.1
SLACK_S = 1.5
"""What a poll may take beyond the window it watches (request latency, a busy machine)."""
SUBJECT_PREFIX = "idp:"


@dataclass
class OidcHost:
    host: Host
    idp: Idp
    sent: list[str] = field(default_factory=list)
    """Every token sent to the host, to scan its log for."""

    def call(self, token: str, method: str = "GET", path: str = "/v1/discovery", json: Any = None) -> httpx.Response:
        self.sent.append(token)
        with self.host.raw(token) as http:
            response = http.request(method, path, json=json)
        assert response.status_code < 500, response.text
        return response

    def assert_refused(self, token: str, reason: str) -> None:
        for method, path, body in (
            ("GET", "/v1/discovery", None),
            ("POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}),
            ("POST", "/v1/runs", {"provider": "echo", "model": "echo-1", "input": "Hi"}),
        ):
            response = self.call(token, method, path, body)
            assert_problem(response, 401, "UNAUTHENTICATED")
            assert response.headers["www-authenticate"] == INVALID.format(reason)
            assert response.json()["detail"] == f"The bearer token is not valid: {reason}."

    def assert_no_token_logged(self) -> None:
        log = self.host.log_text()
        assert "JWKS of issuer" in log, "the host's debug log is not there to scan"
        tokens = set(self.sent) | set(self.idp.issued)
        parts = {part for token in tokens for part in token.split(".") if len(part) >= 16}
        assert tokens and parts
        leaked = sorted(part[:12] + "..." for part in parts if part in log)
        assert leaked == [], f"token parts in the host's log: {leaked}"


def oidc_host(workdir: Path, name: str, **issuer: Any) -> Iterator[OidcHost]:
    """A provider and a host (debug log) whose one ``auth.jwt`` entry trusts it, with ``issuer`` overrides."""
    with start_idp(workdir / "idp") as idp:
        config = {
            "hostId": f"e2e-{name}",
            "providers": [echo_provider("echo")],
            "sessions": {"retentionMs": RETENTION_MS},
            "auth": {"jwt": [idp.host_issuer(subjectPrefix=SUBJECT_PREFIX, providers=["echo"], **issuer)]},
        }
        host = launch_host(name, config, workdir, env=idp.host_env(), log_level="debug")
        oidc = OidcHost(host, idp)
        try:
            yield oidc
        finally:
            host.stop()
        oidc.assert_no_token_logged()  # whatever the tests sent, as the host wrote its last lines


@pytest.fixture(scope="module")
def oidc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OidcHost]:
    """No leeway, so that a token is expired at its ``exp``."""
    yield from oidc_host(tmp_path_factory.mktemp("oidc"), "oidc", leewaySeconds=0)


def payload(token: str) -> dict[str, Any]:
    """A JWT's claims, unverified (what the test knows of a token it was given)."""
    part = token.split(".")[1]
    decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return decoded


def header(token: str) -> dict[str, Any]:
    part = token.split(".")[0]
    decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return decoded


def discovery(host: Host, token: str) -> Discovery:
    with host.client(token) as client:
        response = get_discovery.sync_detailed(client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, Discovery)
    return response.parsed


def poll(answer: Callable[[], httpx.Response], done: Callable[[httpx.Response], bool], within_s: float) -> list[Any]:
    """Call ``answer`` every ``POLL_S`` until ``done`` (bounded in time and count); every (sent, answered,
    response) triple, in ``time.monotonic()``. Fails if ``done`` never held."""
    seen: list[tuple[float, float, httpx.Response]] = []
    deadline = time.monotonic() + within_s
    for _ in range(int(within_s / POLL_S) + 2):
        sent = time.monotonic()
        response = answer()
        seen.append((sent, time.monotonic(), response))
        if done(response):
            return seen
        if time.monotonic() > deadline:
            break
        time.sleep(POLL_S)
    pytest.fail(
        f"not done within {within_s} s: {[(r.status_code, r.headers.get('www-authenticate')) for *_, r in seen]}"
    )


def challenge(response: httpx.Response) -> str | None:
    value: str | None = response.headers.get("www-authenticate")
    return value


# -- tokens obtained as an application obtains them ---------------------------------------------------------


def test_a_client_credentials_token_drives_a_session_and_a_turn(oidc: OidcHost) -> None:
    idp = oidc.idp
    token = idp.token()
    claims = payload(token)
    assert header(token)["typ"] == "at+jwt" and header(token)["kid"] == idp.signing_kid
    assert (claims["iss"], claims["aud"], claims["sub"]) == (idp.issuer, idp.audience, APP)
    oidc.sent.append(token)

    who = discovery(oidc.host, token)
    assert who.subject == SUBJECT_PREFIX + APP
    assert sorted(g.value for g in who.session_grants) == ["continue", "create", "delete", "read"]
    with oidc.host.client(token) as client:
        session = new_session(client)
        first = run_ok(client, run_request("My name is Ada.", session))
        assert first.output.text == "echo: My name is Ada."
        assert isinstance(first.session, SessionInfo) and first.session.revision == 1
        read = read_session.sync_detailed(session.id, client=client)
    assert read.status_code == 200, read.content


def test_the_scope_the_provider_granted_is_the_grants_the_host_applies(oidc: OidcHost) -> None:
    token = oidc.idp.token(scope="sessions:read")
    assert payload(token)["scope"] == "sessions:read"
    oidc.sent.append(token)

    assert [g.value for g in discovery(oidc.host, token).session_grants] == ["read"]
    created = oidc.call(token, "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"})
    assert_problem(created, 403, "PERMISSION_DENIED")


# -- tokens the host refuses --------------------------------------------------------------------------------


def test_a_tampered_token_is_a_bad_signature(oidc: OidcHost) -> None:
    head, body, signature = oidc.idp.token(scope="sessions:read").split(".")
    claims = payload(f"{head}.{body}.{signature}")
    claims["scope"] = "sessions:create sessions:read sessions:continue sessions:delete"  # a wider grant
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()

    oidc.assert_refused(f"{head}.{forged}.{signature}", "bad signature")


def test_a_token_for_another_resource_server_is_a_wrong_audience(oidc: OidcHost) -> None:
    token = oidc.idp.token(audience=oidc.idp.other_audience)
    assert payload(token)["aud"] == oidc.idp.other_audience
    assert payload(token)["iss"] == oidc.idp.issuer  # the same issuer, its key: only the audience is wrong

    oidc.assert_refused(token, "wrong audience")


def test_an_opaque_token_asked_without_a_resource_is_an_unknown_token(oidc: OidcHost) -> None:
    # An application that forgets `resource` gets an opaque token (oidc-provider's default format), no JWT.
    response = oidc.idp.request_token(scope="sessions:read")
    assert response.status_code == 200, response.text
    opaque = response.json()["access_token"]
    assert opaque.count(".") == 0

    oidc.assert_refused(opaque, "unknown token")


def test_an_expired_token_is_refused_and_a_verified_one_is_not_kept_past_its_exp(oidc: OidcHost) -> None:
    idp = oidc.idp
    seen_token, unseen_token = idp.token(client=SHORT_LIVED), idp.token(client=SHORT_LIVED)
    exp = payload(seen_token)["exp"]
    assert exp - payload(seen_token)["iat"] == idp.short_ttl_seconds == 2
    assert time.time() < exp, "the token expired before the test could send it"

    accepted = oidc.call(seen_token)  # verified, so remembered: but only until its exp (no leeway here)
    assert accepted.status_code == 200, accepted.text
    answers = poll(lambda: oidc.call(seen_token), lambda r: r.status_code == 401, idp.short_ttl_seconds + SLACK_S)

    refused = answers[-1][2]
    assert exp <= time.time() <= exp + SLACK_S  # refused from its exp on, not before, not much later
    assert challenge(refused) == INVALID.format("expired")
    assert refused.json()["detail"] == "The bearer token is not valid: expired."
    assert all(r.status_code == 200 for *_, r in answers[:-1])
    oidc.assert_refused(unseen_token, "expired")


class RefreshingTokens:
    """What an application's token provider does (clients/BEHAVIOUR.md, Tokens): a client-credentials token
    from the identity provider's token endpoint, kept until the host refuses it, then asked for anew."""

    def __init__(self, oidc: OidcHost) -> None:
        self.oidc = oidc
        self.token: str | None = None
        self.told: list[str | None] = []

    def __call__(self, refused: str | None) -> str:
        self.told.append(refused)
        if self.token is None or refused == self.token:
            self.token = self.oidc.idp.token(client=SHORT_LIVED)  # lives 2 s
            self.oidc.sent.append(self.token)
        return self.token


def test_the_python_sdk_refreshes_an_expired_token_through_its_provider(oidc: OidcHost) -> None:
    from agentic_driver_sdk import AgenticDriver

    tokens = RefreshingTokens(oidc)
    with AgenticDriver(base_url=oidc.host.base_url, token=tokens, max_retries=0) as client:
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        first = client.run(provider="echo", model="echo-1", input="Before it expires.", session=session)
        held = tokens.token
        assert held is not None and tokens.told == [None, None]  # one token, asked for every request
        # Until the host refuses the held token (its exp, no leeway): the provider is not told anything.
        poll(lambda: oidc.call(held), lambda r: r.status_code == 401, oidc.idp.short_ttl_seconds + SLACK_S)

        second = client.run(provider="echo", model="echo-1", input="After it expired.", session=first.session)

    assert second.output.text == "echo: After it expired." and second.session.revision == 2
    assert tokens.told == [None, None, None, held]  # refused once, then asked anew with the refused token
    assert tokens.token != held


def test_no_token_is_in_the_log(oidc: OidcHost) -> None:
    # Every kind of token this module sends, at least once, before the log is scanned.
    idp = oidc.idp
    good = idp.token()
    head, body, signature = good.split(".")
    for token in (good, f"{head}.{body}.{signature[::-1]}", idp.token(audience=idp.other_audience)):
        oidc.call(token)
        oidc.call(token, "GET", "/v1/sessions/ses_e2e-oidc.unknown")
    oidc.assert_no_token_logged()
    idp_log = idp.log_path.read_text(encoding="utf-8")  # the provider's own output neither
    assert '"event":"ready"' in idp_log
    assert not [token for token in idp.issued if token.split(".")[1] in idp_log]
    assert not [c.client_secret for c in idp.clients.values() if c.client_secret in idp_log]


# -- key rotation at the provider, without a restart of either -------------------------------------------


@pytest.fixture
def rotating(tmp_path: Path) -> Iterator[OidcHost]:
    """Its own provider and host: the keys change under them."""
    yield from oidc_host(
        tmp_path, "oidc-rotation", jwksCacheSeconds=JWKS_CACHE_S, jwksMinRefetchSeconds=JWKS_MIN_REFETCH_S
    )


def test_a_rotated_key_is_taken_up_and_a_retired_one_refused_after_the_cache_window(rotating: OidcHost) -> None:
    idp, host = rotating.idp, rotating.host
    old_kid = idp.signing_kid
    verified = idp.token()
    assert rotating.call(verified).status_code == 200  # the host fetches the JWKS: the old key only
    # Tokens of the old key the host will see only after the key is retired (each once: a verified token is
    # remembered until its exp, so each poll of the retired key needs a token never sent before).
    unseen_old = [idp.token() for _ in range(int((JWKS_CACHE_S + SLACK_S) / POLL_S) + 4)]
    assert {header(token)["kid"] for token in unseen_old} == {old_kid}

    # 1. Rotation: the new key is published and signs; the old one stays published.
    rotated_at = time.monotonic()
    new_kid = idp.rotate()
    rotation = idp.generation
    assert idp.published_kids == [new_kid, old_kid]
    fresh = idp.token()
    assert header(fresh)["kid"] == new_kid
    taken_up = poll(lambda: rotating.call(fresh), lambda r: r.status_code == 200, JWKS_MIN_REFETCH_S + SLACK_S)
    # Until the refetch limit allows a fetch, the new kid is unknown to the host: 401, never anything else.
    assert all(challenge(r) == INVALID.format("unknown key") for *_, r in taken_up[:-1])
    take_up_s = taken_up[-1][1] - rotated_at
    assert take_up_s <= JWKS_MIN_REFETCH_S + SLACK_S
    with host.client(fresh) as client:  # the new key's token works the whole way
        session = new_session(client)
        assert run_ok(client, run_request("After the rotation.", session)).output.text == "echo: After the rotation."
    rotating.sent.append(fresh)

    # 2. Retirement: only the new key is published from now on.
    assert idp.retire_old() == [old_kid]
    retirement = idp.generation
    assert idp.published_kids == [new_kid]
    retired_at = time.monotonic()
    pending = iter(unseen_old)
    answers = poll(lambda: rotating.call(next(pending)), lambda r: r.status_code == 401, JWKS_CACHE_S + SLACK_S)

    refused_sent, refused_at, refused = answers[-1]
    assert challenge(refused) == INVALID.format("unknown key")
    assert refused.json()["detail"] == "The bearer token is not valid: unknown key."
    assert all(r.status_code == 200 for *_, r in answers[:-1])  # the retired key's new tokens until then

    # What the provider saw (its own clock stamps; every line before the retirement's is read by now).
    refetch = idp.wait_for_jwks_request(lambda r: r.generation >= retirement)
    before = [r for r in idp.jwks_requests() if r.generation < retirement]
    first, rotated = before[0], [r for r in before if r.generation == rotation and r.at <= taken_up[-1][1]]
    # The new kid: one fetch, by the request the host accepted, once the refetch limit had passed.
    assert [r.kids for r in rotated] == [[new_kid, old_kid]], before
    assert taken_up[-1][0] <= rotated[0].at <= taken_up[-1][1]
    assert rotated[0].at >= first.at + JWKS_MIN_REFETCH_S - 0.5  # the limit counts from before the first fetch
    # The retired key: the keys the host held (fetched last before the retirement) verified new tokens until
    # they were jwksCacheSeconds old; the request that found them stale was still served by them while the host
    # fetched them again in the background, without the old key; the first request after that fetch is refused.
    held_since = before[-1].at
    assert refetch.kids == [new_kid]
    assert refetch.at <= refused_at
    assert refetch.at >= held_since + JWKS_CACHE_S  # not fetched again before the cache expired...
    assert refused_sent <= held_since + JWKS_CACHE_S + SLACK_S  # ...and the retired key refused soon after
    assert refused_at - retired_at <= JWKS_CACHE_S + SLACK_S

    # A token verified before the retirement stays accepted until its exp; the new key's tokens go on.
    assert rotating.call(verified).status_code == 200
    assert rotating.call(idp.token()).status_code == 200
    assert rotating.call(fresh).status_code == 200
    print(
        f"\nrotation: new key taken up {take_up_s:.2f} s after the rotation ({len(taken_up) - 1} 'unknown key' "
        f"answers first; its fetch {rotated[0].at - first.at:.2f} s after the first); retired key: "
        f"{len(answers) - 1} new tokens still accepted, refused {refused_at - retired_at:.2f} s after the retirement, "
        f"refetched {refetch.at - held_since:.2f} s after the host's last fetch of the old keys"
    )
