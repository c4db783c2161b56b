"""JWT access tokens -> principals: keys made in the test (RSA, EC, Ed25519), every refusal with its reason class.

Each refused token is a 401 ``Unauthenticated`` whose ``invalid_token`` (the challenge's ``error_description``)
names the reason class and whose text holds no part of the token. The JWKS tests serve the keys over HTTPS on
loopback (a trustme CA, trusted through ``SSL_CERT_FILE`` as the host would be) and count the fetches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest
import trustme
from fakes.issuer import NEGATIVE_MATRIX, FakeIssuer

from agentic_driver import auth_jwt
from agentic_driver.auth import Rejection, SessionPrincipal
from agentic_driver.bearer import Authenticator, BearerPolicy, looks_like_jwt
from agentic_driver.config import ConfigError, HostConfig, parse_config
from agentic_driver.errors import PermissionDenied, Unauthenticated
from agentic_driver.http.problems import bearer_challenge

STATIC = "static-token-value-0000001"


def host_config(issuers: list[dict[str, Any]], tokens: list[dict[str, Any]] | None = None) -> HostConfig:
    return parse_config(
        {
            "providers": [{"id": "echo", "kind": "echo"}, {"id": "other", "kind": "echo"}],
            "tokens": tokens if tokens is not None else [],
            "auth": {"jwt": issuers},
        }
    )


def issuer_entry(idp: FakeIssuer, jwks: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    entry = {
        "issuer": idp.issuer,
        "audience": idp.audience,
        "algorithms": ["RS256", "PS256", "ES256", "EdDSA"],
        "providers": ["*"],
        "leewaySeconds": 0,
        **jwks,
        **overrides,
    }
    return {name: value for name, value in entry.items() if value is not None}


@pytest.fixture
def idp() -> FakeIssuer:
    idp = FakeIssuer()
    idp.add_key("RSA", "rsa-1")
    idp.add_key("EC", "ec-1")
    idp.add_key("Ed25519", "ed-1")
    return idp


@pytest.fixture
def file_policy(idp: FakeIssuer, tmp_path: Path) -> BearerPolicy:
    jwks = {"jwksFile": str(idp.write_jwks(tmp_path / "jwks.json"))}
    tokens = [{"subject": "static-user", "token": STATIC, "providers": ["echo"], "sessions": ["read"]}]
    return BearerPolicy.from_config(host_config([issuer_entry(idp, jwks)], tokens))


async def refusal(policy: BearerPolicy, token: str) -> Unauthenticated:
    with pytest.raises(Unauthenticated) as caught:
        await policy.authenticate(token)
    error = caught.value
    for part in token.split("."):
        if len(part) >= 8:
            assert part not in str(error) and part not in error.detail
            assert part not in bearer_challenge(error.invalid_token)
    return error


# -- tokens that are accepted --------------------------------------------------------------------------------


@pytest.mark.parametrize(("kid", "alg"), [("rsa-1", "RS256"), ("rsa-1", "PS256"), ("ec-1", "ES256"), ("ed-1", "EdDSA")])
async def test_a_good_token_of_each_key_type_is_its_principal(
    idp: FakeIssuer, file_policy: BearerPolicy, kid: str, alg: str
) -> None:
    principal = await file_policy.authenticate(idp.token(idp.key(kid), alg))

    assert principal == SessionPrincipal(
        subject="user-1", providers=None, grants=frozenset({"create", "read", "continue", "delete"})
    )


async def test_a_static_token_and_a_jwt_are_accepted_side_by_side(idp: FakeIssuer, file_policy: BearerPolicy) -> None:
    static = await file_policy.authenticate(STATIC)
    token = await file_policy.authenticate(idp.token())

    assert (static.subject, static.providers, static.grants) == ("static-user", frozenset({"echo"}), {"read"})
    assert token.subject == "user-1"


async def test_the_scope_words_are_the_grants_and_others_are_ignored(
    idp: FakeIssuer, file_policy: BearerPolicy
) -> None:
    principal = await file_policy.authenticate(idp.token(scope="openid profile sessions:read sessions:continue"))

    assert principal.grants == frozenset({"read", "continue"})


@pytest.mark.parametrize("grant", ["create", "read", "continue", "delete"])
async def test_a_token_without_a_grants_scope_is_denied_that_operation(
    idp: FakeIssuer, file_policy: BearerPolicy, grant: str
) -> None:
    others = " ".join(f"sessions:{g}" for g in ("create", "read", "continue", "delete") if g != grant)

    principal = await file_policy.authenticate(idp.token(scope=others))

    # an authenticated token lacking a grant is 403 PERMISSION_DENIED (RFC 6750's insufficient_scope), not 401
    with pytest.raises(PermissionDenied, match=f"'{grant}'"):
        principal.require_grant(grant)  # type: ignore[arg-type]
    assert principal.grants == frozenset({"create", "read", "continue", "delete"}) - {grant}


async def test_a_token_without_the_grants_claim_has_no_grant(idp: FakeIssuer, file_policy: BearerPolicy) -> None:
    principal = await file_policy.authenticate(idp.token(scope=None))

    assert principal.grants == frozenset()


async def test_claims_are_mapped_as_configured(idp: FakeIssuer, tmp_path: Path) -> None:
    jwks = {"jwksFile": str(idp.write_jwks(tmp_path / "jwks.json"))}
    entry = issuer_entry(
        idp,
        jwks,
        subjectClaim="oid",
        subjectPrefix="kc:",
        grantsClaim="permissions",
        providersClaim="agentic_providers",
        providers=["echo"],
    )
    policy = BearerPolicy.from_config(host_config([entry]))

    principal = await policy.authenticate(
        idp.token(oid="0af3", permissions=["sessions:create", "sessions:read"], agentic_providers="echo other")
    )
    unnamed = await policy.authenticate(idp.token(oid="0af3", agentic_providers=None))

    # the claim names providers within the entry's own list, never beyond it
    assert principal == SessionPrincipal(subject="kc:0af3", providers=frozenset({"echo"}), grants={"create", "read"})
    assert unnamed.providers == frozenset()


async def test_the_audience_may_be_one_of_several(idp: FakeIssuer, tmp_path: Path) -> None:
    jwks = {"jwksFile": str(idp.write_jwks(tmp_path / "jwks.json"))}
    policy = BearerPolicy.from_config(host_config([issuer_entry(idp, jwks, audience=["api://one", "api://two"])]))

    principal = await policy.authenticate(idp.token(aud=["api://elsewhere", "api://two"]))

    assert principal.subject == "user-1"
    assert (await refusal(policy, idp.token(aud="api://three"))).invalid_token == Rejection.WRONG_AUDIENCE


async def test_leeway_accepts_a_token_just_expired(idp: FakeIssuer, tmp_path: Path) -> None:
    jwks = {"jwksFile": str(idp.write_jwks(tmp_path / "jwks.json"))}
    policy = BearerPolicy.from_config(host_config([issuer_entry(idp, jwks, leewaySeconds=60)]))
    now = int(time.time())

    principal = await policy.authenticate(idp.token(exp=now - 30, iat=now - 600, nbf=now - 600))

    assert principal.subject == "user-1"
    assert (await refusal(policy, idp.token(exp=now - 90))).invalid_token == Rejection.EXPIRED


# -- the negative matrix -------------------------------------------------------------------------------------

MATRIX = list(NEGATIVE_MATRIX.items())


@pytest.mark.parametrize(("case", "reason"), MATRIX, ids=[case for case, _ in MATRIX])
async def test_every_bad_token_is_refused_with_its_reason_class(
    idp: FakeIssuer, file_policy: BearerPolicy, case: str, reason: str
) -> None:
    token = idp.bad_token(case)
    assert looks_like_jwt(token)

    error = await refusal(file_policy, token)

    assert error.status == 401
    assert error.invalid_token == reason == Rejection(reason).value
    assert error.detail == f"The bearer token is not valid: {reason}."
    assert bearer_challenge(error.invalid_token) == (
        f'Bearer realm="agentic-driver", error="invalid_token", error_description="{reason}"'
    )


async def test_a_declared_key_algorithm_is_the_only_one_that_key_verifies(idp: FakeIssuer, tmp_path: Path) -> None:
    declared = FakeIssuer()
    declared.add_key("RSA", "rsa-declared", declare_alg=True)  # its JWK says "alg": "RS256"
    jwks = {"jwksFile": str(declared.write_jwks(tmp_path / "jwks.json"))}
    policy = BearerPolicy.from_config(host_config([issuer_entry(declared, jwks)]))

    assert (await policy.authenticate(declared.token(alg="RS256"))).subject == "user-1"
    assert (await refusal(policy, declared.token(alg="PS256"))).invalid_token == Rejection.ALGORITHM_NOT_ALLOWED


async def test_a_token_that_is_not_jwt_shaped_nor_static_is_an_unknown_token(file_policy: BearerPolicy) -> None:
    for token in ("not-a-configured-token-at-all", "a.b", "a.b.c.d", "a=.b.c", STATIC + "x"):
        assert (await refusal(file_policy, token)).invalid_token == Rejection.UNKNOWN_TOKEN


async def test_a_jwt_goes_to_no_verifier_when_no_issuer_is_configured(idp: FakeIssuer) -> None:
    policy = BearerPolicy.from_config(host_config([], [{"subject": "s", "token": STATIC, "providers": ["*"]}]))

    assert (await refusal(policy, idp.token())).invalid_token == Rejection.UNKNOWN_TOKEN
    assert repr(policy) == "BearerPolicy(1 tokens, 0 issuers)"


def test_every_reason_class_is_a_valid_rfc_6750_error_description() -> None:
    # error_description: %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash)
    for reason in Rejection:
        assert all(0x20 <= ord(c) <= 0x7E and c not in '"\\' for c in reason.value), reason
    assert bearer_challenge(None) == 'Bearer realm="agentic-driver"'


# -- the verified-token cache --------------------------------------------------------------------------------


async def test_a_repeated_token_is_verified_once_until_its_exp(
    idp: FakeIssuer, file_policy: BearerPolicy, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp = int(time.time()) + 120
    token = idp.token(exp=exp)
    first = await file_policy.authenticate(token)
    decoded = []
    real_decode = auth_jwt.jwt.decode
    monkeypatch.setattr(auth_jwt.jwt, "decode", lambda *a, **k: decoded.append(1) or real_decode(*a, **k))

    again = [await file_policy.authenticate(token) for _ in range(5)]
    assert decoded == []  # a dictionary lookup each
    clock.wall = exp + 1.0  # past exp (leeway 0): the cache forgets it and the token is verified again
    await file_policy.authenticate(token)  # (PyJWT reads the real clock, for which it is still valid)

    assert again == [first] * 5
    assert decoded == [1]


async def test_the_cache_is_bounded(
    idp: FakeIssuer, file_policy: BearerPolicy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auth_jwt, "VERIFIED_TOKENS_MAX", 3)
    for n in range(10):
        await file_policy.authenticate(idp.token(sub=f"user-{n}"))

    assert len(file_policy._issuers._verified) == 3  # type: ignore[union-attr]


# -- keys from a JWKS URL ------------------------------------------------------------------------------------


class Clock:
    """Stands for the ``time`` module in ``auth_jwt``: the fetch limits' clock and the cache's wall clock."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.wall: float | None = None

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return time.time() if self.wall is None else self.wall


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(auth_jwt, "time", clock)
    return clock


@pytest.fixture
def ca(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> trustme.CA:
    ca = trustme.CA()
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))  # what the host process is given
    return ca


async def test_a_rotated_key_is_fetched_without_restart_and_refetches_are_rate_limited(
    idp: FakeIssuer, ca: trustme.CA, clock: Clock
) -> None:
    with idp.serve_jwks(ca) as url:
        entry = issuer_entry(idp, {"jwksUrl": url}, jwksMinRefetchSeconds=30, jwksCacheSeconds=3600)
        policy = BearerPolicy.from_config(host_config([entry]))
        assert idp.fetches == 0  # nothing is fetched before a token needs it

        assert (await policy.authenticate(idp.token())).subject == "user-1"
        assert idp.fetches == 1
        for _ in range(5):
            await policy.authenticate(idp.token(sub="user-2"))
        assert idp.fetches == 1  # cached

        rotated = idp.add_key("RSA", "rsa-2")
        clock.now += 31
        assert (await policy.authenticate(idp.token(rotated))).subject == "user-1"
        assert idp.fetches == 2  # the unknown kid was fetched

        for n in range(20):  # made-up key ids: at most one fetch per jwksMinRefetchSeconds
            forged = idp.token(headers={"kid": f"made-up-{n}"})
            assert (await refusal(policy, forged)).invalid_token == Rejection.UNKNOWN_KEY
        assert idp.fetches == 2

        newer = idp.add_key("EC", "ec-2")
        clock.now += 10
        assert (await refusal(policy, idp.token(newer))).invalid_token == Rejection.UNKNOWN_KEY
        clock.now += 21
        assert (await policy.authenticate(idp.token(newer))).subject == "user-1"
        assert idp.fetches == 3


async def test_concurrent_requests_for_a_new_key_share_one_fetch(idp: FakeIssuer, ca: trustme.CA, clock: Clock) -> None:
    with idp.serve_jwks(ca) as url:
        policy = BearerPolicy.from_config(host_config([issuer_entry(idp, {"jwksUrl": url})]))
        tokens = [idp.token(idp.keys[n % 3], sub=f"user-{n}") for n in range(30)]

        principals = await asyncio.gather(*(policy.authenticate(token) for token in tokens))

    assert {p.subject for p in principals} == {f"user-{n}" for n in range(30)}
    assert idp.fetches == 1


async def test_stale_keys_are_fetched_again_and_kept_while_the_issuer_is_down(
    idp: FakeIssuer, ca: trustme.CA, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    with idp.serve_jwks(ca) as url:
        entry = issuer_entry(idp, {"jwksUrl": url}, jwksCacheSeconds=300, jwksMinRefetchSeconds=30)
        policy = BearerPolicy.from_config(host_config([entry]))
        token = idp.token(exp=int(time.time()) + 3600)
        await policy.authenticate(token)
        clock.now += 301
        await policy.authenticate(idp.token(sub="user-2"))  # served by the keys held; a fetch starts
        await policy._issuers.refreshed()  # type: ignore[union-attr]
        assert idp.fetches == 2
    clock.now += 301  # stale, and the issuer no longer answers

    with caplog.at_level(logging.WARNING, logger="agentic_driver.auth"):
        principal = await policy.authenticate(idp.token(sub="user-3"))
        await policy._issuers.refreshed()  # type: ignore[union-attr]
        again = await policy.authenticate(idp.token(sub="user-4"))  # the failed fetch is not retried at once

    assert (principal.subject, again.subject) == ("user-3", "user-4")
    assert caplog.text.count("not fetched") == 1 and "the keys fetched before stay in use" in caplog.text
    assert token not in caplog.text


async def test_while_stale_keys_are_fetched_again_the_keys_held_serve(
    idp: FakeIssuer, ca: trustme.CA, clock: Clock
) -> None:
    with idp.serve_jwks(ca) as url:
        entry = issuer_entry(idp, {"jwksUrl": url}, jwksCacheSeconds=300, jwksMinRefetchSeconds=30)
        policy = BearerPolicy.from_config(host_config([entry]))
        await policy.authenticate(idp.token())
        clock.now += 301
        idp.fetch_delay_s = 1.0

        started = time.monotonic()
        first = await policy.authenticate(idp.token(sub="finds-the-keys-stale"))
        second = await policy.authenticate(idp.token(sub="served-meanwhile"))
        waited = time.monotonic() - started

        assert (first.subject, second.subject) == ("finds-the-keys-stale", "served-meanwhile") and waited < 0.5
        await policy._issuers.refreshed()  # type: ignore[union-attr]
        assert idp.fetches == 2  # one fetch, in the background


async def test_a_retired_key_stops_verifying_once_the_cache_window_passed_whatever_the_refetch_limit(
    idp: FakeIssuer, ca: trustme.CA, clock: Clock
) -> None:
    with idp.serve_jwks(ca) as url:
        entry = issuer_entry(idp, {"jwksUrl": url}, jwksCacheSeconds=10, jwksMinRefetchSeconds=30)
        policy = BearerPolicy.from_config(host_config([entry]))
        old = idp.keys[0]
        await policy.authenticate(idp.token(old))
        idp.keys.remove(old)  # the issuer retires its key
        idp.add_key("EC", "ec-new")
        clock.now += 9
        assert (await policy.authenticate(idp.token(old, sub="within-the-window"))).subject == "within-the-window"
        clock.now += 2  # the keys held are 11 s old: past jwksCacheSeconds, within jwksMinRefetchSeconds
        assert (await policy.authenticate(idp.token(old, sub="as-the-fetch-starts"))).subject == "as-the-fetch-starts"
        await policy._issuers.refreshed()  # type: ignore[union-attr]

        refused = await refusal(policy, idp.token(old, sub="after-the-fetch"))

    assert refused.invalid_token == Rejection.UNKNOWN_KEY
    assert idp.fetches == 2


async def test_an_issuer_never_reached_is_keys_unavailable_and_logged(
    idp: FakeIssuer, ca: trustme.CA, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    with idp.serve_jwks(ca) as url:
        pass  # the port is closed again: nothing answers there
    policy = BearerPolicy.from_config(host_config([issuer_entry(idp, {"jwksUrl": url})]))
    token = idp.token()

    with caplog.at_level(logging.WARNING, logger="agentic_driver.auth"):
        error = await refusal(policy, token)

    assert error.invalid_token == Rejection.KEYS_UNAVAILABLE
    assert "no keys yet" in caplog.text and token not in caplog.text


async def test_an_untrusted_certificate_is_not_a_source_of_keys(
    idp: FakeIssuer, clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with idp.serve_jwks(trustme.CA()) as url:  # a CA the host does not trust
        policy = BearerPolicy.from_config(host_config([issuer_entry(idp, {"jwksUrl": url})]))
        with caplog.at_level(logging.WARNING, logger="agentic_driver.auth"):
            error = await refusal(policy, idp.token())

    assert error.invalid_token == Rejection.KEYS_UNAVAILABLE
    assert "CERTIFICATE_VERIFY_FAILED" in caplog.text or "certificate" in caplog.text.lower()
    assert idp.fetches == 0


def test_a_jwks_file_that_cannot_be_used_is_a_config_error_naming_its_path(idp: FakeIssuer, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    not_jwks = tmp_path / "not-jwks.json"
    not_jwks.write_text('{"kid": "x"}', encoding="utf-8")

    problems = []
    for path in (missing, not_jwks):
        with pytest.raises(ConfigError) as caught:
            BearerPolicy.from_config(host_config([issuer_entry(idp, {"jwksFile": str(path)})]))
        problems += caught.value.problems

    assert problems[0].startswith(f"auth.jwt[0].jwksFile: cannot read {missing}")
    assert problems[1] == f'auth.jwt[0].jwksFile: {not_jwks}: not a JWKS: no "keys" list'


def test_symmetric_and_encryption_keys_of_a_jwks_are_left_out() -> None:
    keys = auth_jwt.parse_jwks(
        b'{"keys": [{"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"}, {"kty": "RSA", "kid": "enc", "use": "enc"},'
        b' {"kty": "EC", "kid": "sig", "crv": "P-256", "x": "x", "y": "y"}]}'
    )

    assert list(keys) == ["sig"]


# -- reload ------------------------------------------------------------------------------------------------


async def test_a_replaced_policy_applies_from_the_next_request_and_a_bad_one_changes_nothing(
    idp: FakeIssuer, tmp_path: Path
) -> None:
    jwks = {"jwksFile": str(idp.write_jwks(tmp_path / "jwks.json"))}
    before = [{"subject": "old", "token": STATIC, "providers": ["*"]}]
    auth = Authenticator(BearerPolicy.from_config(host_config([issuer_entry(idp, jwks)], before)))
    assert (await auth.principal(f"Bearer {STATIC}")).subject == "old"

    added = "added-token-value-00000002"
    auth.replace(host_config([], [{"subject": "new", "token": added, "providers": ["*"]}]))
    with pytest.raises(Unauthenticated) as revoked:
        await auth.principal(f"Bearer {STATIC}")
    with pytest.raises(Unauthenticated) as jwt_gone:
        await auth.principal(f"Bearer {idp.token()}")
    current = auth.policy
    with pytest.raises(ConfigError):
        auth.replace(host_config([issuer_entry(idp, {"jwksFile": str(tmp_path / "gone.json")})]))

    assert revoked.value.invalid_token == Rejection.UNKNOWN_TOKEN
    assert jwt_gone.value.invalid_token == Rejection.UNKNOWN_TOKEN
    assert auth.policy is current
    assert (await auth.principal(f"bearer {added}")).subject == "new"


async def test_a_missing_token_is_unauthenticated_without_an_error_code(file_policy: BearerPolicy) -> None:
    auth = Authenticator(file_policy)

    for header in ("", "Bearer", "Bearer   ", f"Basic {STATIC}", STATIC):
        with pytest.raises(Unauthenticated) as caught:
            await auth.principal(header)
        assert caught.value.invalid_token is None


# -- the configuration ------------------------------------------------------------------------------------


def issuer_problems(**fields: Any) -> list[str]:
    entry = {"issuer": "https://i/", "audience": "a", "jwksUrl": "https://i/jwks", "providers": ["*"], **fields}
    with pytest.raises(ConfigError) as caught:
        host_config([entry])
    return caught.value.problems


def test_none_and_hmac_algorithms_are_refused_when_the_config_is_read() -> None:
    problems = issuer_problems(algorithms=["RS256", "none", "HS256", "hs512", "ES256K"])

    assert problems == [
        "auth.jwt[0].algorithms[1]: 'none' is never accepted: an unsigned token proves nothing",
        "auth.jwt[0].algorithms[2]: 'HS256' is refused: HMAC verifies with a shared secret, and beside a JWKS that "
        "'secret' would be a public key anyone can read; only RS*, PS*, ES* and EdDSA are accepted",
        "auth.jwt[0].algorithms[3]: 'hs512' is refused: HMAC verifies with a shared secret, and beside a JWKS that "
        "'secret' would be a public key anyone can read; only RS*, PS*, ES* and EdDSA are accepted",
        "auth.jwt[0].algorithms[4]: 'ES256K' is not an accepted algorithm (one of RS256, RS384, RS512, PS256, "
        "PS384, PS512, ES256, ES384, ES512, EdDSA)",
    ]
    assert issuer_problems(algorithms=[]) == [
        "auth.jwt[0].algorithms: List should have at least 1 item after validation, not 0"
    ]


@pytest.mark.parametrize(
    ("url", "accepted"),
    [
        ("https://idp.example.com/jwks", True),
        ("http://127.0.0.1:8080/jwks", True),
        ("http://[::1]:8080/jwks", True),
        ("http://localhost/jwks", True),
        ("http://idp.example.com/jwks", False),
        ("http://10.0.0.5/jwks", False),
    ],
)
def test_keys_are_fetched_over_https_unless_from_loopback(url: str, accepted: bool) -> None:
    entry = {"issuer": "i", "audience": "a", "jwksUrl": url, "algorithms": ["RS256"], "providers": ["*"]}
    if accepted:
        assert host_config([entry]).auth.jwt[0].jwksUrl == url
    else:
        with pytest.raises(ConfigError) as caught:
            host_config([entry])
        assert caught.value.problems == [
            "auth.jwt[0].jwksUrl: keys are fetched over HTTPS only (plain HTTP only from a loopback address)"
        ]


def test_an_issuer_entry_needs_one_key_source_a_unique_issuer_and_known_providers() -> None:
    entry = {"issuer": "i", "audience": "a", "algorithms": ["RS256"], "providers": ["echo", "nope"]}

    with pytest.raises(ConfigError) as caught:
        host_config([{**entry, "jwksFile": "f", "jwksUrl": "https://i/"}, {**entry, "jwksFile": "f"}])

    assert caught.value.problems == [
        "auth.jwt[0]: give exactly one of jwksUrl, jwksFile",
        "auth.jwt[1].issuer: duplicate issuer 'i' (first at auth.jwt[0])",
        "auth.jwt[0].providers: unknown provider 'nope'",
        "auth.jwt[1].providers: unknown provider 'nope'",
    ]
    assert host_config([{**entry, "providers": ["echo"], "jwksFile": "f"}]).auth.jwt[0].audience == ["a"]
