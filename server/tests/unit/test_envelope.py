"""Embedded export/import: a versioned, JSON-clean session envelope (Python ``Driver`` only, never over HTTP).

Echo signs native items with a per-instance secret, so a restored native session verifies only on an echo that
holds the same secret: the cross-driver tests give both drivers the same ``EchoProvider`` object, or a second
instance built with the first one's secret.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
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
    FunctionResult,
    Message,
    RunRequest,
    ServedModelRuns,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
    TruncateSessionRequest,
)
from agentic_driver.providers.base import ToolSpec
from agentic_driver.tools import HostTool

INSTRUCTIONS = "Remember names."
IMPORTED = [Message(role="user", content="My name is Ada."), Message(role="assistant", content="Hello Ada.")]
LOOKUP = ToolDefinition(name="lookup", description="Look it up.", parameters={"type": "object"})
LOOKUP_SPEC = ToolSpec("lookup", "Look it up.", {"type": "object"})
START_MS = 1_795_000_000_123
ALICE = SessionPrincipal(subject="alice")
BOB = SessionPrincipal(subject="bob")


def echo(account: str | None = "acct-1", **options: Any) -> EchoProvider:
    return EchoProvider(id="echo", models=("echo-1",), account_id=account, **options)


def make_driver(
    *providers: Any, clock: ManualClock | None = None, host_id: str = "local-host", **sessions: Any
) -> Driver:
    return Driver(
        list(providers) or [echo()],
        host_id=host_id,
        sessions=SessionsConfig(retentionMs=60_000, **sessions),
        clock=clock or ManualClock(START_MS),
    )


def session_run(session: SessionInfo, text: str, **extra: Any) -> RunRequest:
    handle = SessionHandle(id=session.id, revision=session.revision)
    return RunRequest(provider="echo", model="echo-1", input=text, session=handle, **extra)


async def conversation(driver: Driver, clock: ManualClock, principal: SessionPrincipal = ALICE) -> SessionInfo:
    """A native session (instructions, imported history) with a plain turn and a turn with a tool exchange."""
    created = await driver.create_session(
        CreateSessionRequest(
            provider="echo", model="echo-1", mode="native", instructions=INSTRUCTIONS, history=IMPORTED
        ),
        principal,
    )
    clock.advance(1_000)
    paused = await driver.run(session_run(created.session, "!call lookup {}\nWhat is tea?", tools=[LOOKUP]), principal)
    answer = FunctionResult(callId=paused.requiredAction.calls[0].callId, output="a drink")
    info = (
        await driver.submit_run_actions(paused.id, SubmitRunActionsRequest(functionResults=[answer]), principal)
    ).session
    clock.advance(1_000)
    return (await driver.run(session_run(info, "I like tea.", tools=[LOOKUP]), principal)).session


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


# -- what changed since the export is reported, not refused -------------------------------------------------


async def test_changed_instructions_are_reported_and_the_given_instructions_are_used() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)

    same = make_driver(shared).import_session(envelope, ALICE, instructions=INSTRUCTIONS, tools=[LOOKUP_SPEC])
    assert same.instructions_changed is False

    changed_driver = make_driver(shared)
    changed = changed_driver.import_session(envelope, ALICE, instructions="Forget names.", tools=[LOOKUP_SPEC])
    assert changed.instructions_changed is True
    assert (await changed_driver.read_session(info.id, ALICE)).instructions == "Forget names."

    missing = make_driver(shared).import_session(envelope, ALICE, tools=[LOOKUP_SPEC])
    assert missing.instructions_changed is True  # the session had instructions; none were given now


async def test_a_changed_tool_surface_is_reported_including_host_tools() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)  # its first turn offered exactly LOOKUP
    envelope = source.export_session(info.id, ALICE, include_instructions=True)

    assert make_driver(shared).import_session(envelope, ALICE, tools=[LOOKUP_SPEC]).tools_changed is False
    assert make_driver(shared).import_session(envelope, ALICE).tools_changed is True
    renamed = ToolSpec("lookup", "Look it up, carefully.", {"type": "object"})
    assert make_driver(shared).import_session(envelope, ALICE, tools=[renamed]).tools_changed is True

    async def clock_tool() -> str:
        return "noon"

    with_host_tool = make_driver(shared)
    with_host_tool.register_tool(HostTool("clock", clock_tool, approval="never"))
    report = with_host_tool.import_session(envelope, ALICE, tools=[LOOKUP_SPEC])
    assert report.tools_changed is True
    assert report.session is not None  # restored all the same


async def test_a_session_that_never_ran_a_turn_reports_no_tool_change() -> None:
    shared = echo()
    source = make_driver(shared)
    created = await source.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"), ALICE)
    envelope = source.export_session(created.session.id, ALICE)
    assert envelope["toolsFingerprint"] is None
    assert envelope["instructionsFingerprint"] is None

    report = make_driver(shared).import_session(envelope, ALICE, tools=[LOOKUP_SPEC])

    assert (report.tools_changed, report.instructions_changed) == (False, False)
    assert report.session.runCount == 0


# -- versions and malformed input -----------------------------------------------------------------------------


async def test_a_newer_envelope_loads_with_a_warning_and_its_unknown_keys_are_ignored() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE, include_instructions=True)
    envelope["schemaVersion"] = 2
    envelope["summary"] = {"text": "a future feature"}
    envelope["session"]["region"] = "eu"
    envelope["accounting"]["carbonGrams"] = 3
    target = make_driver(shared)

    with pytest.warns(UserWarning, match="schemaVersion 2"):
        report = target.import_session(envelope, ALICE)

    assert len(report.warnings) == 1 and "schemaVersion 2" in report.warnings[0]
    restored = (await target.read_session(info.id, ALICE)).session
    assert restored.runCount == 2
    assert (await target.run(session_run(restored, "!recall"), ALICE)).output.text.startswith("recall: 6 messages")


async def test_a_minimal_version_1_envelope_without_optional_parts_loads_with_empty_defaults() -> None:
    envelope = {
        "schemaVersion": 1,
        "kind": "agentic-driver.session",
        "session": {
            "id": "ses_from_an_older_writer",
            "provider": "echo",
            "account": "acct-1",
            "model": "echo-1",
            "mode": "history",
            "revision": 4,
            "createdAt": "2026-11-18T11:06:40.123Z",
            "updatedAt": "2026-11-18T11:06:41.000Z",
        },
        "history": [m.model_dump() for m in IMPORTED],
    }
    driver = make_driver()

    report = driver.import_session(envelope, ALICE)

    info = report.session
    assert info.id.startswith("ses_local-host.")  # an id of this host: the older one named none
    assert (info.revision, info.messageCount, info.runCount, info.nativeHistory) == (
        4,
        2,
        0,
        "full",
    )
    assert info.createdAt == "2026-11-18T11:06:40.123Z"
    assert (await driver.run(session_run(info, "!recall"), ALICE)).output.text == (
        "recall: 2 messages; last user: My name is Ada."
    )


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        "agentic-driver.session",
        {"provider": "echo", "history": [{"role": "user", "content": "hi"}]},  # an old-style ad hoc dump
        {"kind": "agentic-driver.session", "history": []},  # no schemaVersion
        {"kind": "agentic-driver.session", "schemaVersion": "1", "session": {}},  # not an integer
        {"kind": "something.else", "schemaVersion": 1},
        {"kind": "agentic-driver.session", "schemaVersion": 1},  # no session
        {"kind": "agentic-driver.session", "schemaVersion": 1, "session": {"provider": "echo"}},
    ],
)
def test_anything_that_is_not_a_session_envelope_is_import_rejected(data: Any) -> None:
    driver = make_driver()

    with pytest.raises(ImportRejected):
        driver.import_session(data, ALICE)

    assert len(driver.store) == 0


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("history",), None),
        (("history",), [{"role": "user"}]),
        (("session", "createdAt"), "yesterday"),
        (("turns",), [{"revision": 1}]),
        (("turns",), [{"revision": 2**64, "runId": "run_x", "start": 0, "end": 2, "at": "2026-11-29T18:50:42.123Z"}]),
        (("turns",), [{"revision": "1", "runId": "run_x", "start": 0, "end": 2, "at": "2026-11-29T18:50:42.123Z"}]),
    ],
)
async def test_a_malformed_envelope_is_import_rejected_and_nothing_is_stored(path: tuple[str, ...], value: Any) -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)
    holder = envelope
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    target = make_driver(shared)

    with pytest.raises(ImportRejected):
        target.import_session(envelope, ALICE)

    assert len(target.store) == 0


async def test_an_interrupted_session_travels_interrupted_and_a_truncation_recovers_it_after_import() -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    with pytest.raises(ProviderError):
        await source.run(session_run(info, "!fail\nboom"), ALICE)
    envelope = source.export_session(info.id, ALICE)
    assert envelope["interruptedTurn"] == {
        "runId": envelope["interruptedTurn"]["runId"],
        "input": "!fail\nboom",
        "reason": "failed",
        "at": format_ms(clock.now_ms()),
    }
    assert envelope["accounting"]["runCount"] == 3
    target = make_driver(shared)

    restored = target.import_session(envelope, ALICE).session

    assert restored.status == "interrupted"
    read = await target.read_session(info.id, ALICE)
    assert (read.interruptedTurn.input, read.interruptedTurn.reason) == ("!fail\nboom", "failed")
    kept = await target.truncate_session(info.id, TruncateSessionRequest(revision=2, keepTurns=2), ALICE)
    assert (kept.session.status, kept.session.revision) == ("ready", 3)
    done = await target.run(session_run(kept.session, "!recall"), ALICE)
    assert done.output.text.endswith("; tool exchanges: 1")
    assert done.session.runCount == 4


async def test_a_filtered_native_session_keeps_its_filter_through_export_and_import() -> None:
    shared = echo()
    source = make_driver(shared)
    created = await source.create_session(
        CreateSessionRequest(provider="echo", model="echo-1", mode="native", nativeHistory="no_reasoning"), ALICE
    )
    info = (await source.run(session_run(created.session, "one"), ALICE)).session
    envelope = source.export_session(info.id, ALICE)
    assert envelope["session"]["nativeHistory"] == "no_reasoning"
    target = make_driver(shared)

    restored = target.import_session(envelope, ALICE).session
    after = await target.run(session_run(restored, "two"), ALICE)

    assert restored.nativeHistory == "no_reasoning"
    assert after.session.revision == 2
    kinds = [json.loads(item)["type"] for item in target.store.get(info.id).native]
    assert "reasoning" not in kinds and len(kinds) == 4


@pytest.mark.parametrize("start_ms", [START_MS, 2_183_226_373_411, 1_079_337_347_472])
async def test_timestamps_survive_the_round_trip_to_the_millisecond(start_ms: int) -> None:
    shared = echo()
    clock = ManualClock(start_ms)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    before = await source.read_session(info.id, ALICE)
    target = make_driver(shared, clock=clock)

    target.import_session(source.export_session(info.id, ALICE), ALICE)

    restored = await target.read_session(info.id, ALICE)
    assert restored.session.createdAt == before.session.createdAt == format_ms(start_ms)
    assert restored.turns == before.turns  # each turn's "at" too


@pytest.mark.parametrize(
    ("key", "value"), [("mode", "bogus"), ("nativeHistory", "bogus"), ("revision", -3)], ids=["mode", "filter", "rev"]
)
async def test_an_envelope_with_invalid_session_values_is_import_rejected_and_nothing_is_stored(
    key: str, value: Any
) -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)
    envelope["session"][key] = value
    target = make_driver(shared)

    try:
        with pytest.raises(ImportRejected):
            target.import_session(envelope, ALICE)
    finally:
        assert len(target.store) == 0


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        (("accounting", "cost"), "0.5", "accounting.cost"),
        (("accounting", "runCount"), -1, "accounting.runCount"),
        (("accounting", "usage", "inputTokens"), -5, "accounting.usage.inputTokens"),
        (("accounting", "retries", "usage", "outputTokens"), 1.5, "accounting.retries.usage.outputTokens"),
        (("turns", 0, "revision"), 0, "turns[0].revision"),
        (("history", 0, "content"), ["not", "text"], "history[0].content"),
        (("history", 0, "role"), "system", "history[0].role"),
        (("native", 0), {"type": "user"}, "native[0]"),
        (("session", "createdAt"), "2026-13-45T00:00:00Z", "session.createdAt"),
        (("turns", 0, "at"), "2026-11-29T18:50:42", "turns[0].at"),
        (("session", "revision"), True, "session.revision"),
    ],
)
async def test_each_malformed_field_is_import_rejected_by_its_path_and_nothing_is_stored(
    path: tuple[str | int, ...], value: Any, named: str
) -> None:
    shared = echo()
    clock = ManualClock(START_MS)
    source = make_driver(shared, clock=clock)
    info = await conversation(source, clock)
    envelope = source.export_session(info.id, ALICE)
    holder: Any = envelope
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    target = make_driver(shared)

    with pytest.raises(ImportRejected, match=re.escape(named)):
        target.import_session(envelope, ALICE)

    assert len(target.store) == 0
