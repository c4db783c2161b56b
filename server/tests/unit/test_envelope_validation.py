"""Embedded export/import (Python ``Driver`` only): what an import checks and reports.

What changed since the export (instructions, the tool surface) is reported, not refused; newer
and minimal envelope versions load; anything malformed (not an envelope, a bad field, invalid
session values) is import-rejected by its path and nothing is stored; interrupted and filtered
native sessions and timestamps survive the round trip.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from envelope_support import (
    ALICE,
    IMPORTED,
    INSTRUCTIONS,
    LOOKUP_SPEC,
    START_MS,
    conversation,
    echo,
    make_driver,
    session_run,
)

from agentic_driver import ManualClock
from agentic_driver.clock import format_ms
from agentic_driver.envelope import ImportRejected
from agentic_driver.errors import (
    ProviderError,
)
from agentic_driver.models import (
    CreateSessionRequest,
    TruncateSessionRequest,
)
from agentic_driver.providers.base import ToolSpec
from agentic_driver.tools import HostTool

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
