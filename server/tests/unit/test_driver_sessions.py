"""The embedded Driver API, sessions: create, run, read and delete; the store's bounds; account binding;
history and native modes; a driver from the embedded default config.
"""

from __future__ import annotations

import json

import pytest
from driver_support import (
    provider_calls,
)

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig, embedded_default
from agentic_driver.clock import format_ms
from agentic_driver.errors import (
    SessionAccountRequired,
    SessionLimitExceeded,
    SessionNotFound,
    SessionStoreFull,
    UnsupportedContinuation,
)
from agentic_driver.models import (
    CreateSessionRequest,
    Message,
    RunRequest,
    SessionHandle,
    Turn,
)
from agentic_driver.providers import VisibleMessage


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
