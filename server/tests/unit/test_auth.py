"""Bearer tokens -> principals (literal, SHA-256 or environment secrets) and the grant checks."""

from __future__ import annotations

import hashlib

import pytest

from agentic_driver.auth import SessionPrincipal, TokenPolicy, sha256_hex
from agentic_driver.config import ConfigError, TokenConfig, parse_config
from agentic_driver.errors import PermissionDenied

SECRET = "s3cret-token-value-0123456789"


def test_a_literal_token_authenticates_as_its_principal() -> None:
    policy = TokenPolicy([TokenConfig(subject="alice", token=SECRET, providers=["echo"], sessions=["read", "create"])])

    principal = policy.authenticate(SECRET)

    assert principal == SessionPrincipal(
        subject="alice", providers=frozenset({"echo"}), grants=frozenset({"read", "create"})
    )


def test_a_sha256_token_authenticates_without_the_host_knowing_the_secret() -> None:
    digest = sha256_hex(SECRET)
    policy = TokenPolicy([TokenConfig(subject="bob", tokenSha256=digest, providers=["*"])])

    principal = policy.authenticate(SECRET)

    assert digest == hashlib.sha256(SECRET.encode()).hexdigest()
    assert principal is not None
    assert principal.subject == "bob"
    assert principal.providers is None
    assert principal.grants == frozenset()


def test_an_environment_token_authenticates_with_the_variable_read_at_construction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AD_UNIT_TEST_TOKEN", SECRET)
    policy = TokenPolicy([TokenConfig(subject="carol", tokenEnv="AD_UNIT_TEST_TOKEN", providers=["echo"])])
    monkeypatch.delenv("AD_UNIT_TEST_TOKEN")

    principal = policy.authenticate(SECRET)

    assert principal is not None
    assert principal.subject == "carol"


@pytest.mark.parametrize("value", [None, ""], ids=["unset", "empty"])
def test_an_environment_token_whose_variable_is_unset_or_empty_is_a_config_error(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("AD_UNIT_TEST_TOKEN", raising=False)
    else:
        monkeypatch.setenv("AD_UNIT_TEST_TOKEN", value)
    tokens = [
        TokenConfig(subject="a", token=SECRET, providers=["*"]),
        TokenConfig(subject="b", tokenEnv="AD_UNIT_TEST_TOKEN", providers=["*"]),
    ]

    with pytest.raises(ConfigError) as caught:
        TokenPolicy(tokens)

    assert caught.value.problems == ["tokens[1].tokenEnv: environment variable AD_UNIT_TEST_TOKEN is not set"]


@pytest.mark.parametrize("presented", ["", "wrong-token-value-0123456789", SECRET[:-1], SECRET + " ", SECRET.upper()])
def test_any_other_token_authenticates_as_nobody(presented: str) -> None:
    policy = TokenPolicy([TokenConfig(subject="alice", token=SECRET, providers=["*"])])

    assert policy.authenticate(presented) is None


def test_each_token_maps_to_its_own_principal() -> None:
    other = "another-secret-value-9876543210"
    policy = TokenPolicy(
        [
            TokenConfig(subject="alice", token=SECRET, providers=["*"]),
            TokenConfig(subject="bob", tokenSha256=sha256_hex(other), providers=["echo"]),
        ]
    )

    alice, bob = policy.authenticate(SECRET), policy.authenticate(other)

    assert alice is not None and alice.subject == "alice"
    assert bob is not None and bob.subject == "bob"


def test_no_repr_or_str_shows_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AD_UNIT_TEST_TOKEN", "environment-secret-value-42")
    config = parse_config(
        {
            "providers": [{"id": "echo", "kind": "echo"}],
            "tokens": [
                {"subject": "alice", "token": SECRET, "providers": ["*"], "sessions": ["read"]},
                {"subject": "bob", "tokenEnv": "AD_UNIT_TEST_TOKEN", "providers": ["echo"]},
            ],
        }
    )
    policy = TokenPolicy(config.tokens)
    principal = policy.authenticate(SECRET)

    shown = [
        repr(policy),
        str(policy),
        repr(config.tokens[0]),
        str(config.tokens[0]),
        repr(config),
        str(config),
        repr(principal),
    ]

    assert repr(policy) == "TokenPolicy(2 tokens)"
    assert "alice" in repr(config.tokens[0])
    for text in shown:
        assert SECRET not in text
        assert sha256_hex(SECRET) not in text
        assert "environment-secret-value-42" not in text


def test_a_rejected_token_config_does_not_echo_its_secret() -> None:
    short = "too-short-secret"[:15]

    with pytest.raises(ConfigError) as caught:
        parse_config(
            {
                "providers": [{"id": "echo", "kind": "echo"}],
                "tokens": [{"subject": "a", "token": short, "providers": ["*"]}],
            }
        )

    assert caught.value.problems[0].startswith("tokens[0].token: ")
    assert short not in str(caught.value)


def test_the_default_principal_is_local_with_every_provider_and_grant() -> None:
    principal = SessionPrincipal()

    assert principal.subject == "local"
    assert principal.may_use("anything")
    for grant in ("create", "read", "continue", "delete"):
        principal.require_grant(grant)


def test_a_principal_without_a_grant_or_provider_is_denied_by_name() -> None:
    principal = SessionPrincipal(subject="alice", providers=frozenset({"echo"}), grants=frozenset({"read"}))

    principal.require_grant("read")
    principal.require_provider("echo")
    with pytest.raises(PermissionDenied, match="'create'"):
        principal.require_grant("create")
    with pytest.raises(PermissionDenied, match="'other'"):
        principal.require_provider("other")
    assert principal.may_use("other") is False
