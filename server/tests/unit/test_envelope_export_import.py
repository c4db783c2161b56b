"""Embedded export/import (Python ``Driver`` only, never over HTTP): the session envelope and importing it.

The envelope carries everything but the instructions text (unless asked for) and is JSON-clean;
an import into a fresh driver restores a session that continues where it stopped, under the
importing host's ids and subject, within the target store's bounds and grants. Echo signs native
items with a per-instance secret, so a restored native session verifies only on an echo that holds
the same secret: the cross-driver tests give both drivers the same ``EchoProvider`` object, or a
second instance built with the first one's secret.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re

import pytest
from envelope_support import (
    ALICE,
    BOB,
    INSTRUCTIONS,
    LOOKUP_SPEC,
    START_MS,
    conversation,
    echo,
    make_driver,
    session_run,
)

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal
from agentic_driver.clock import format_ms
from agentic_driver.envelope import SCHEMA_VERSION, ImportRejected, ImportReport
from agentic_driver.errors import (
    ModelNotFound,
    PermissionDenied,
    ProviderError,
    SessionLimitExceeded,
    SessionNotFound,
    SessionsDisabled,
    SessionStoreFull,
)
from agentic_driver.models import (
    CreateSessionRequest,
    ServedModelRuns,
)

# -- the envelope ------------------------------------------------------------------------------------------


async def test_the_envelope_carries_everything_but_the_instructions_text_and_is_json_clean() -> None:
    clock = ManualClock(START_MS)
    driver = make_driver(clock=clock)
    info = await conversation(driver, clock)
    record = driver.store.get(info.id)
    read = await driver.read_session(info.id, ALICE)

    envelope = driver.export_session(info.id, ALICE)

    assert envelope["schemaVersion"] == SCHEMA_VERSION == 1
    assert envelope["kind"] == "agentic-driver.session"
    assert envelope["session"] == {
        "id": info.id,
        "provider": "echo",
        "providerKind": "echo",
        "account": "acct-1",
        "model": "echo-1",
        "mode": "native",
        "nativeHistory": "full",
        "revision": 2,
        "createdAt": format_ms(START_MS),
        "updatedAt": format_ms(START_MS + 2_000),
    }
    assert envelope["instructionsFingerprint"] == hashlib.sha256(INSTRUCTIONS.encode()).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", envelope["toolsFingerprint"])
    assert "instructions" not in envelope
    assert INSTRUCTIONS not in json.dumps(envelope)  # only the fingerprint travels
    assert envelope["history"] == [m.model_dump() for m in read.history]
    assert envelope["imported"] == 2
    assert envelope["native"] == record.native  # byte for byte
    assert envelope["turns"] == [
        {"revision": t.revision, "runId": t.runId, "start": t.start, "end": t.end, "nativeEnd": n, "at": t.at}
        for t, n in zip(read.turns, (5, 8), strict=True)
    ]
    assert envelope["interruptedTurn"] is None
    assert envelope["accounting"] == {
        "runCount": 2,
        "usage": read.session.usage.model_dump(),
        "cost": None,
        "retries": {
            "count": 0,
            "usage": {
                "inputTokens": 0,
                "outputTokens": 0,
                "cachedInputTokens": 0,
                "cacheWriteTokens": 0,
                "reasoningTokens": 0,
            },
            "cost": None,
        },
        "servedModels": ["echo-1", "echo-1"],
        "servedModelRuns": [{"model": "echo-1", "runs": 2}],
    }
    # JSON-clean: plain JSON types only, the same after a round trip through text
    text = json.dumps(envelope, allow_nan=False)
    assert json.loads(text) == envelope


async def test_the_instructions_text_travels_only_when_asked_for() -> None:
    clock = ManualClock(START_MS)
    driver = make_driver(clock=clock)
    info = await conversation(driver, clock)

    envelope = driver.export_session(info.id, ALICE, include_instructions=True)

    assert envelope["instructions"] == INSTRUCTIONS
    assert json.loads(json.dumps(envelope)) == envelope


async def test_export_needs_the_read_grant_and_the_owner() -> None:
    clock = ManualClock(START_MS)
    driver = make_driver(clock=clock)
    info = await conversation(driver, clock)

    with pytest.raises(PermissionDenied, match="'read'"):
        driver.export_session(info.id, SessionPrincipal(subject="alice", grants=frozenset({"create", "continue"})))
    with pytest.raises(SessionNotFound):
        driver.export_session(info.id, BOB)
    with pytest.raises(SessionNotFound):
        driver.export_session("ses_unknown", ALICE)


# -- import ---------------------------------------------------------------------------------------------


async def test_an_import_into_a_fresh_driver_restores_a_session_that_continues_where_it_stopped() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    before = await source.read_session(info.id, ALICE)
    native = list(source.store.get(info.id).native)
    envelope = json.loads(json.dumps(source.export_session(info.id, ALICE)))  # as if read back from a file
    clock.advance(5_000)
    target = make_driver(shared, clock=clock)

    report = target.import_session(envelope, ALICE, instructions=INSTRUCTIONS, tools=[LOOKUP_SPEC])

    assert isinstance(report, ImportReport)
    assert (report.instructions_changed, report.tools_changed, report.warnings) == (False, False, [])
    assert report.session.id == info.id  # kept: it is free on this host
    restored = await target.read_session(info.id, ALICE)
    assert restored.history == before.history
    assert restored.turns == before.turns
    assert restored.instructions == INSTRUCTIONS
    assert target.store.get(info.id).native == native
    session = restored.session
    assert (session.revision, session.status, session.mode, session.nativeHistory) == (2, "ready", "native", "full")
    assert (session.createdAt, session.updatedAt) == (before.session.createdAt, format_ms(clock.now_ms()))
    assert session.expiresAt == format_ms(clock.now_ms() + 60_000)
    assert session.recordBytes == before.session.recordBytes
    assert (session.runCount, session.usage, session.cost, session.retries, session.servedModelRuns) == (
        before.session.runCount,
        before.session.usage,
        before.session.cost,
        before.session.retries,
        before.session.servedModelRuns,
    )
    assert report.session == session

    # the same echo verifies every restored signed item; imported text and earlier turns are all seen
    recall = await target.run(session_run(session, "!recall"), ALICE)
    assert recall.output.text == "recall: 6 messages; last user: I like tea.; tool exchanges: 1"
    assert (recall.session.revision, recall.session.runCount) == (3, 3)
    assert recall.session.servedModelRuns == [ServedModelRuns(model="echo-1", runs=3)]


async def test_a_second_echo_built_with_the_same_secret_verifies_the_restored_state_and_another_does_not() -> None:
    signer = echo()
    clock = ManualClock(START_MS)
    source = make_driver(signer, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)

    twin = make_driver(echo(_secret=signer._secret))
    twin.import_session(envelope, ALICE)
    restored = (await twin.read_session(info.id, ALICE)).session
    assert (await twin.run(session_run(restored, "!recall"), ALICE)).output.text.startswith("recall: 6 messages")

    stranger = make_driver(echo())  # a fresh secret: the signed items no longer verify
    stranger.import_session(envelope, ALICE)
    restored = (await stranger.read_session(info.id, ALICE)).session
    with pytest.raises(ProviderError, match="signature does not verify"):
        await stranger.run(session_run(restored, "!recall"), ALICE)
    assert (await stranger.read_session(info.id, ALICE)).session.status == "interrupted"


async def test_an_import_keeps_the_id_only_when_it_is_free_and_the_copies_are_independent() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    driver = make_driver(shared, clock=clock)
    info = await conversation(driver, clock)
    envelope = driver.export_session(info.id, ALICE)

    copy_ = driver.import_session(envelope, ALICE).session

    assert copy_.id != info.id and copy_.id.startswith("ses_")
    assert len(driver.store) == 2
    after = await driver.run(session_run(copy_, "only in the copy"), ALICE)
    assert after.session.revision == 3
    assert (await driver.read_session(info.id, ALICE)).session.revision == 2


async def test_an_import_gets_an_id_of_the_importing_host_and_keeps_its_turns_run_ids() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock, host_id="host-a")
    info = await conversation(source, clock)
    exported = source.export_session(info.id, ALICE)
    same_host_again = make_driver(shared, host_id="host-a")  # host-a restarted, restoring what it exported
    other_host = make_driver(shared, host_id="host-b")

    kept = same_host_again.import_session(exported, ALICE).session
    moved = other_host.import_session(exported, ALICE).session

    assert kept.id == info.id
    assert moved.id.startswith("ses_host-b.") and moved.id != info.id
    turns = (await other_host.read_session(moved.id, ALICE)).turns
    assert [t.runId for t in turns] == [t["runId"] for t in exported["turns"]]
    assert all(t.runId.startswith("run_host-a.") for t in turns)
    after = await other_host.run(session_run(moved, "on host b"), ALICE)
    assert after.id.startswith("run_host-b.") and after.session.revision == moved.revision + 1


async def test_the_imported_session_belongs_to_the_importing_subject() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    target = make_driver(shared)

    target.import_session(source.export_session(info.id, ALICE), BOB)

    assert (await target.read_session(info.id, BOB)).session.id == info.id
    with pytest.raises(SessionNotFound):
        await target.read_session(info.id, ALICE)


@pytest.mark.parametrize(
    ("bounds", "limit"),
    [
        ({"maxMessages": 5}, "maxMessages"),
        ({"maxNativeMessages": 7}, "maxNativeMessages"),
        ({"maxRecordBytes": 500}, "maxRecordBytes"),
    ],
)
async def test_the_target_stores_bounds_apply_to_an_import(bounds: dict[str, int], limit: str) -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)  # 6 messages, 8 native items, well over 500 bytes
    target = make_driver(shared, **bounds)

    with pytest.raises(SessionLimitExceeded) as caught:
        target.import_session(source.export_session(info.id, ALICE), ALICE)

    assert caught.value.limit == limit
    assert len(target.store) == 0


async def test_an_import_into_a_full_store_or_a_driver_without_sessions_is_refused() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)

    full = make_driver(shared, maxEntries=1)
    await full.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    with pytest.raises(SessionStoreFull):
        full.import_session(envelope, ALICE)

    with pytest.raises(SessionsDisabled):
        Driver([shared], clock=ManualClock()).import_session(envelope, ALICE)


@pytest.mark.parametrize(
    "target_provider",
    [
        EchoProvider(id="echo", models=("echo-1",), account_id="acct-2"),  # another account
        EchoProvider(id="echo", models=("echo-1",), account_id=None),  # no account at all
        EchoProvider(id="other", models=("echo-1",), account_id="acct-1"),  # the provider is not configured here
    ],
    ids=["other-account", "unbound", "other-provider"],
)
async def test_another_provider_or_account_is_import_rejected(target_provider: EchoProvider) -> None:
    clock = ManualClock(START_MS)
    source = make_driver(clock=clock)
    info = await conversation(source, clock)
    target = make_driver(target_provider)

    with pytest.raises(ImportRejected):
        target.import_session(source.export_session(info.id, ALICE), ALICE)

    assert len(target.store) == 0


async def test_an_envelope_edited_to_name_another_account_is_rejected() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)
    envelope["session"]["account"] = "acct-9"

    with pytest.raises(ImportRejected, match="acct-9"):
        make_driver(shared).import_session(envelope, ALICE)


async def test_import_needs_the_create_grant_and_the_provider_grant_and_a_served_model() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)
    target = make_driver(shared)

    with pytest.raises(PermissionDenied, match="'create'"):
        target.import_session(envelope, SessionPrincipal(subject="alice", grants=frozenset({"read", "continue"})))
    with pytest.raises(PermissionDenied):
        target.import_session(envelope, SessionPrincipal(subject="alice", providers=frozenset({"elsewhere"})))
    other_model = copy.deepcopy(envelope)
    other_model["session"]["model"] = "echo-9"
    with pytest.raises(ModelNotFound):
        target.import_session(other_model, ALICE)
    assert len(target.store) == 0
