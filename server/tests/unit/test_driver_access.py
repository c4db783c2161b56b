"""The embedded Driver API, what a request may reach: a session run's own rules (no overrides, attachments
or retrieval), a disabled store, ownership (another subject's session is a missing one), grants per
operation and per provider, unknown providers and models, cancelling only one's own runs, and discovery.
"""

from __future__ import annotations

import pytest
from driver_support import (
    provider_calls,
)

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.errors import (
    ModelNotFound,
    PermissionDenied,
    ProviderNotFound,
    RunNotFound,
    SessionContextUnsupported,
    SessionNotFound,
    SessionOverrideRejected,
    SessionsDisabled,
)
from agentic_driver.models import (
    Attachment,
    CreateSessionRequest,
    Message,
    Retrieval,
    RetrievedDocument,
    RunRequest,
    SessionHandle,
)


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        pytest.param({"instructions": "Be rude."}, "instructions", id="instructions"),
        pytest.param({"history": [Message(role="user", content="x")]}, "history", id="history"),
        pytest.param(
            {"instructions": "x", "history": [Message(role="user", content="x")]}, "instructions or history", id="both"
        ),
    ],
)
async def test_a_session_run_cannot_override_the_sessions_instructions_or_history(extra: dict, named: str) -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    with pytest.raises(SessionOverrideRejected) as caught:
        await driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0), **extra
            )
        )

    assert f"cannot send {named}" in caught.value.detail
    assert caught.value.status == 422
    assert provider_calls(driver) == 0
    assert driver.store.get(session.id).status == "ready"


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        pytest.param({"attachments": [Attachment(name="a.txt", mediaType="text/plain", data="aGk=")]}, "attachments"),
        pytest.param({"retrieval": Retrieval(documents=[RetrievedDocument(id="d1", text="fact")])}, "retrieval"),
    ],
)
async def test_a_session_run_accepts_no_attachments_or_retrieval(extra: dict, named: str) -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    with pytest.raises(SessionContextUnsupported) as caught:
        await driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0), **extra
            )
        )
    stateless = await driver.run(RunRequest(provider="echo", model="echo-1", input="hi", **extra))

    assert named in caught.value.detail
    assert provider_calls(driver) == 1  # only the stateless run reached the model
    assert stateless.output.text == "echo: hi"
    assert driver.store.get(session.id).revision == 0


async def test_without_a_sessions_policy_every_session_operation_is_disabled() -> None:
    driver = Driver([EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")], clock=ManualClock())

    assert driver.store is None
    with pytest.raises(SessionsDisabled):
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    with pytest.raises(SessionsDisabled):
        await driver.read_session("ses_any")
    with pytest.raises(SessionsDisabled):
        await driver.delete_session("ses_any")
    with pytest.raises(SessionsDisabled) as caught:
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id="ses_any", revision=0))
        )
    assert caught.value.status == 501
    assert (await driver.run(RunRequest(provider="echo", model="echo-1", input="hi"))).output.text == "echo: hi"
    assert (await driver.discovery()).sessions.enabled is False


async def test_another_subjects_session_is_reported_exactly_like_a_missing_one() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    alice = SessionPrincipal(subject="alice")
    mallory = SessionPrincipal(subject="mallory")
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"), alice)
    ).session

    with pytest.raises(SessionNotFound) as foreign:
        await driver.read_session(session.id, mallory)
    with pytest.raises(SessionNotFound) as missing:
        await driver.read_session("ses_does_not_exist", mallory)
    with pytest.raises(SessionNotFound):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0)),
            mallory,
        )
    with pytest.raises(SessionNotFound):
        await driver.delete_session(session.id, mallory)

    assert foreign.value.detail == missing.value.detail.replace("ses_does_not_exist", session.id)
    assert provider_calls(driver) == 0
    assert (await driver.read_session(session.id, alice)).session.revision == 0


async def test_a_session_run_must_name_the_sessions_own_provider_and_model() -> None:
    driver = Driver(
        [
            EchoProvider(id="echo", models=("echo-1", "echo-2"), account_id="acct-1"),
            EchoProvider(id="other", models=("echo-1",), account_id="acct-1"),
        ],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    with pytest.raises(SessionNotFound, match="this caller, provider and model"):
        await driver.run(
            RunRequest(provider="echo", model="echo-2", input="hi", session=SessionHandle(id=session.id, revision=0))
        )
    with pytest.raises(SessionNotFound):
        await driver.run(
            RunRequest(provider="other", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
        )

    assert driver.store.get(session.id).revision == 0


@pytest.mark.parametrize(
    ("grants", "denied"),
    [
        pytest.param(frozenset({"read", "continue", "delete"}), "create", id="create"),
        pytest.param(frozenset({"create", "continue", "delete"}), "read", id="read"),
        pytest.param(frozenset({"create", "read", "delete"}), "continue", id="continue"),
        pytest.param(frozenset({"create", "read", "continue"}), "delete", id="delete"),
    ],
)
async def test_each_session_operation_needs_its_own_grant(grants: frozenset, denied: str) -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(
            CreateSessionRequest(provider="echo", model="echo-1", mode="history"), SessionPrincipal(subject="alice")
        )
    ).session
    limited = SessionPrincipal(subject="alice", grants=grants)
    operations = {
        "create": lambda: driver.create_session(
            CreateSessionRequest(provider="echo", model="echo-1", mode="history"), limited
        ),
        "read": lambda: driver.read_session(session.id, limited),
        "continue": lambda: driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0)),
            limited,
        ),
        "delete": lambda: driver.delete_session(session.id, limited),
    }

    with pytest.raises(PermissionDenied, match=f"'{denied}'"):
        await operations[denied]()

    assert driver.store.get(session.id).revision == 0
    assert len(driver.store) == 1
    assert provider_calls(driver) == 0
    assert (
        await driver.run(RunRequest(provider="echo", model="echo-1", input="hi"), limited)
    ).output.text == "echo: hi"


async def test_a_provider_the_principal_is_not_granted_is_denied_for_every_operation() -> None:
    driver = Driver(
        [
            EchoProvider(id="echo", models=("echo-1",), account_id="acct-1"),
            EchoProvider(id="secret", models=("echo-1",), account_id="acct-1"),
        ],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(
            CreateSessionRequest(provider="secret", model="echo-1", mode="history"), SessionPrincipal(subject="alice")
        )
    ).session
    echo_only = SessionPrincipal(subject="alice", providers=frozenset({"echo"}))

    with pytest.raises(PermissionDenied, match="'secret'"):
        await driver.create_session(CreateSessionRequest(provider="secret", model="echo-1", mode="history"), echo_only)
    with pytest.raises(PermissionDenied, match="'secret'"):
        await driver.run(RunRequest(provider="secret", model="echo-1", input="hi"), echo_only)
    with pytest.raises(PermissionDenied, match="'secret'"):
        await driver.run(
            RunRequest(provider="secret", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0)),
            echo_only,
        )
    with pytest.raises(PermissionDenied, match="'secret'"):
        await driver.read_session(session.id, echo_only)
    with pytest.raises(PermissionDenied, match="'secret'"):
        await driver.delete_session(session.id, echo_only)

    assert driver.metrics.registry.get_sample_value("agentic_driver_provider_calls_total") is None
    assert [p.id for p in (await driver.discovery(echo_only)).providers] == ["echo"]
    assert driver.store.get(session.id) is not None


async def test_an_unknown_provider_or_model_is_not_found() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )

    with pytest.raises(ProviderNotFound):
        await driver.run(RunRequest(provider="nope", model="echo-1", input="hi"))
    with pytest.raises(ModelNotFound):
        await driver.run(RunRequest(provider="echo", model="gpt-9", input="hi"))
    with pytest.raises(ModelNotFound):
        await driver.create_session(CreateSessionRequest(provider="echo", model="gpt-9", mode="history"))
    with pytest.raises(ProviderNotFound):
        driver.bind_account("nope", "acct-1")

    assert len(driver.store) == 0


async def test_cancel_run_finds_only_the_callers_active_runs() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    finished = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
    )

    with pytest.raises(RunNotFound):
        await driver.cancel_run("run_unknown")
    with pytest.raises(RunNotFound):
        await driver.cancel_run(finished.id)


async def test_discovery_describes_the_granted_providers_and_the_sessions_policy() -> None:
    driver = Driver(
        [
            EchoProvider(id="echo", models=("echo-1",), account_id="acct-1"),
            EchoProvider(id="loose", models=("echo-1",), account_id=None, native_supported=False),
        ],
        host_id="host-a",
        sessions=SessionsConfig(retentionMs=5_000, maxEntries=7),
        clock=ManualClock(),
    )
    principal = SessionPrincipal(subject="alice", grants=frozenset({"delete", "read"}))

    discovery = await driver.discovery(principal)

    assert (discovery.hostId, discovery.subject) == ("host-a", "alice")
    assert discovery.sessionGrants == ["read", "delete"]
    assert [(p.id, p.accountBound, p.capabilities.nativeContinuation) for p in discovery.providers] == [
        ("echo", True, True),
        ("loose", False, False),
    ]
    assert "acct-1" not in discovery.model_dump_json()
    assert discovery.sessions.enabled is True
    assert (discovery.sessions.retentionMs, discovery.sessions.maxEntries) == (5_000, 7)
    assert discovery.sessions.maxMessages == 100
