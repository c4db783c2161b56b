"""The embedded Driver API: sessions, ownership, grants, account binding, modes and discovery."""

from __future__ import annotations

import json

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig, embedded_default
from agentic_driver.clock import format_ms
from agentic_driver.errors import (
    ModelNotFound,
    PermissionDenied,
    ProviderNotFound,
    RunNotFound,
    SessionAccountRequired,
    SessionContextUnsupported,
    SessionLimitExceeded,
    SessionNotFound,
    SessionOverrideRejected,
    SessionsDisabled,
    SessionStoreFull,
    UnsupportedContinuation,
)
from agentic_driver.models import (
    Attachment,
    CreateSessionRequest,
    Message,
    Retrieval,
    RetrievedDocument,
    RunRequest,
    SessionHandle,
    Turn,
)
from agentic_driver.providers import VisibleMessage


def provider_calls(driver: Driver, outcome: str = "completed") -> float:
    value = driver.metrics.registry.get_sample_value(
        "agentic_driver_provider_calls_total", {"provider": "echo", "outcome": outcome}
    )
    return value or 0.0


async def test_create_session_returns_revision_zero_expiring_one_retention_after_creation() -> None:
    clock = ManualClock(start_ms=1_795_000_000_123)
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        host_id="host-a",
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock,
    )

    created = await driver.create_session(
        CreateSessionRequest(
            provider="echo",
            model="echo-1",
            mode="history",
            instructions="Be brief.",
            history=[Message(role="user", content="My name is Ada."), Message(role="assistant", content="Hi Ada.")],
        )
    )

    info = created.session
    assert info.id.startswith("ses_")
    assert (info.revision, info.status, info.provider, info.model, info.mode) == (
        0,
        "ready",
        "echo",
        "echo-1",
        "history",
    )
    assert info.createdAt == info.updatedAt == "2026-11-18T11:06:40.123Z"
    assert info.expiresAt == "2026-11-18T11:07:40.123Z"
    assert info.messageCount == 2
    assert info.recordBytes == driver.store.get(info.id).record_bytes > len("Be brief.")
    assert info.hostId == "host-a"
    assert driver.metrics.registry.get_sample_value("agentic_driver_sessions_stored") == 1


async def test_a_session_run_answers_from_the_stored_context_and_records_the_turn() -> None:
    clock = ManualClock()
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock,
    )
    session = (
        await driver.create_session(
            CreateSessionRequest(provider="echo", model="echo-1", mode="history", instructions="Be brief.")
        )
    ).session
    clock.advance(1_000)

    first = await driver.run(
        RunRequest(
            provider="echo", model="echo-1", input="hello there", session=SessionHandle(id=session.id, revision=0)
        )
    )
    second = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="more", session=SessionHandle(id=session.id, revision=1))
    )

    assert first.status == "completed"
    assert first.output.text == "echo: hello there"
    assert (first.usage.inputTokens, first.usage.outputTokens) == (2 + 2, 3)
    # the second turn also sends the first turn's two messages (2 + 3 words)
    assert (second.usage.inputTokens, second.usage.outputTokens) == (2 + 5 + 1, 2)
    assert second.session.revision == 2
    assert second.session.messageCount == 4
    assert second.session.updatedAt == format_ms(clock.now_ms())
    assert second.session.expiresAt == format_ms(clock.now_ms() + 60_000)
    read = await driver.read_session(session.id)
    assert read.instructions == "Be brief."
    assert [m.content for m in read.history] == ["hello there", "echo: hello there", "more", "echo: more"]
    at = format_ms(clock.now_ms())
    assert read.turns == [
        Turn(revision=1, runId=first.id, start=0, end=2, at=at),
        Turn(revision=2, runId=second.id, start=2, end=4, at=at),
    ]


async def test_a_stateless_run_uses_only_the_context_it_sends_and_stores_nothing() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )

    result = await driver.run(
        RunRequest(
            provider="echo",
            model="echo-1",
            input="!recall",
            instructions="Answer briefly.",
            history=[Message(role="user", content="My name is Ada."), Message(role="assistant", content="Hi Ada.")],
        )
    )

    assert result.output.text == "recall: 2 messages; last user: My name is Ada."
    assert result.usage.inputTokens == 2 + 4 + 2 + 1
    assert "session" not in result.model_dump()
    assert len(driver.store) == 0


async def test_read_does_not_extend_retention() -> None:
    clock = ManualClock()
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock,
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    clock.advance(59_999)
    read = await driver.read_session(session.id)
    assert read.session.expiresAt == session.expiresAt
    assert read.session.updatedAt == session.updatedAt

    clock.advance(1)
    with pytest.raises(SessionNotFound):
        await driver.read_session(session.id)
    assert len(driver.store) == 0
    assert driver.metrics.registry.get_sample_value("agentic_driver_sessions_stored") == 0


async def test_delete_removes_the_session_for_good() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    await driver.delete_session(session.id)

    with pytest.raises(SessionNotFound):
        await driver.read_session(session.id)
    with pytest.raises(SessionNotFound):
        await driver.delete_session(session.id)
    with pytest.raises(SessionNotFound):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
        )
    assert provider_calls(driver) == 0


async def test_importing_a_history_over_max_messages_stores_nothing_and_names_the_limit() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000, maxMessages=2),
        clock=ManualClock(),
    )

    with pytest.raises(SessionLimitExceeded) as caught:
        await driver.create_session(
            CreateSessionRequest(
                provider="echo",
                model="echo-1",
                mode="history",
                history=[Message(role="user", content=str(n)) for n in range(3)],
            )
        )

    assert caught.value.problem()["limit"] == "maxMessages"
    assert caught.value.problem()["maximum"] == 2
    assert len(driver.store) == 0


async def test_a_full_store_refuses_a_new_session_with_a_retry_hint() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=90_000, maxEntries=1),
        clock=ManualClock(),
    )
    await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))

    with pytest.raises(SessionStoreFull) as caught:
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))

    assert caught.value.status == 503
    assert caught.value.retry_after_seconds == 90
    assert len(driver.store) == 1


async def test_after_the_account_binding_changes_a_session_can_be_read_and_deleted_but_not_continued() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    driver.bind_account("echo", "acct-2")

    with pytest.raises(SessionNotFound, match="no longer uses"):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
        )
    assert provider_calls(driver) == 0
    assert (await driver.read_session(session.id)).session.status == "ready"
    fresh = (await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))).session
    result = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=fresh.id, revision=0))
    )
    assert result.session.revision == 1
    await driver.delete_session(session.id)
    assert driver.store.get(session.id) is None


async def test_unbinding_the_account_stops_sessions_but_not_stateless_runs() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session

    driver.bind_account("echo", None)

    with pytest.raises(SessionNotFound):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
        )
    with pytest.raises(SessionAccountRequired):
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    assert (await driver.run(RunRequest(provider="echo", model="echo-1", input="hi"))).output.text == "echo: hi"


async def test_an_unbound_provider_serves_stateless_runs_but_no_sessions() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id=None)],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )

    with pytest.raises(SessionAccountRequired) as caught:
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    result = await driver.run(RunRequest(provider="echo", model="echo-1", input="hello"))

    assert caught.value.status == 409
    assert len(driver.store) == 0
    assert result.output.text == "echo: hello"

    driver.bind_account("echo", "acct-1")
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    assert created.session.revision == 0


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


async def test_a_provider_without_native_continuation_refuses_native_sessions_only() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1", native_supported=False)],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )

    with pytest.raises(UnsupportedContinuation, match="native"):
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))

    assert created.session.mode == "history"
    assert len(driver.store) == 1


async def test_a_history_session_sends_the_model_its_visible_history() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    await driver.run(
        RunRequest(provider="echo", model="echo-1", input="first", session=SessionHandle(id=session.id, revision=0))
    )
    record = driver.store.get(session.id)
    record.history[0] = VisibleMessage("user", "visible copy")

    recalled = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="!recall", session=SessionHandle(id=session.id, revision=1))
    )

    assert recalled.output.text == "recall: 2 messages; last user: visible copy"
    assert record.native == []


async def test_a_native_session_replays_its_signed_items_and_shows_only_visible_messages() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    imported = [Message(role="user", content="My name is Ada."), Message(role="assistant", content="Hi Ada.")]
    session = (
        await driver.create_session(
            CreateSessionRequest(provider="echo", model="echo-1", mode="native", history=imported)
        )
    ).session
    await driver.run(
        RunRequest(provider="echo", model="echo-1", input="first", session=SessionHandle(id=session.id, revision=0))
    )
    record = driver.store.get(session.id)
    items = [json.loads(item) for item in record.native]
    assert [item["type"] for item in items] == ["message", "reasoning", "message"]
    assert items[1]["summary"] == "considered 2 earlier messages"
    # The model sees the imported history plus its own items, not the visible copy of later turns.
    record.history[2] = VisibleMessage("user", "visible copy")

    recalled = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="!recall", session=SessionHandle(id=session.id, revision=1))
    )

    assert recalled.output.text == "recall: 4 messages; last user: first"
    assert len(record.native) == 6
    read = await driver.read_session(session.id)
    assert [m.role for m in read.history] == ["user", "assistant"] * 3
    assert all("signature" not in m.content for m in read.history)
    assert read.session.recordBytes == record.record_bytes
    assert record.record_bytes > sum(len(item.encode()) for item in record.native)


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


async def test_a_driver_built_from_the_embedded_default_config_runs_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTIC_DRIVER_TOKEN", raising=False)
    config, _ = embedded_default("a-local-secret-of-some-length")
    driver = Driver.from_config(config, clock=ManualClock())

    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session
    result = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="hi", session=SessionHandle(id=session.id, revision=0))
    )

    assert result.session.revision == 1
    assert result.session.hostId == "local-host"
    with pytest.raises(SessionAccountRequired):
        await driver.create_session(CreateSessionRequest(provider="echo-unbound", model="echo-1", mode="history"))
