"""Property: every imported envelope either restores a session that reads and continues, or is refused with
nothing stored. Never a raw exception, never a stored session that a later read cannot show.

Envelopes are made by breaking a valid export at a random path (a native session with a tool exchange, and
an interrupted one): a random JSON value in place of the old one, the member removed, or an unknown member
added; sometimes two breaks at once. "Continues" means the next run on the restored session either completes
or fails with a contract error (a tampered native item is the provider's to refuse, an interrupted session
answers SESSION_INTERRUPTED), and the session still reads afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import warnings
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.envelope import ImportRejected
from agentic_driver.errors import DriverError, ProviderError
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    RunRequest,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
)

from .properties import PROPERTY_EXAMPLES, JsonPath, json_paths, json_values, tally

ALICE = SessionPrincipal(subject="alice")
ECHO = EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")
LOOKUP = ToolDefinition(name="lookup", description="Look it up.", parameters={"type": "object"})
ENVELOPE_EXAMPLES = PROPERTY_EXAMPLES * 30


def make_driver() -> Driver:
    return Driver([ECHO], sessions=SessionsConfig(retentionMs=60_000), clock=ManualClock(1_795_000_000_123))


def session_run(session: SessionInfo, text: str, **extra: Any) -> RunRequest:
    handle = SessionHandle(id=session.id, revision=session.revision)
    return RunRequest(provider="echo", model="echo-1", input=text, session=handle, **extra)


async def exported_sessions() -> list[dict[str, Any]]:
    driver = make_driver()
    created = await driver.create_session(
        CreateSessionRequest(provider="echo", model="echo-1", mode="native", instructions="Be brief."), ALICE
    )
    paused = await driver.run(session_run(created.session, "!call lookup {}\nWhat is tea?", tools=[LOOKUP]), ALICE)
    answer = FunctionResult(callId=paused.requiredAction.calls[0].callId, output="a drink")
    answered = await driver.submit_run_actions(paused.id, SubmitRunActionsRequest(functionResults=[answer]), ALICE)
    assert answered.session is not None
    info = answered.session
    info = (await driver.run(session_run(info, "I like tea.", tools=[LOOKUP]), ALICE)).session
    native = driver.export_session(info.id, ALICE, include_instructions=True)
    history = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"), ALICE)
    done = (await driver.run(session_run(history.session, "one"), ALICE)).session
    with contextlib.suppress(ProviderError):  # the turn fails after model work started: interrupted
        await driver.run(session_run(done, "!fail\nboom"), ALICE)
    return [native, driver.export_session(done.id, ALICE)]


BASES = asyncio.run(exported_sessions())
assert BASES[1]["interruptedTurn"] is not None, "the second base is an interrupted session"


PATHS = [json_paths(base)[1:] for base in BASES]  # never the root: an envelope, not a random value


def _break(draw: st.DrawFn, envelope: dict[str, Any], paths: list[JsonPath]) -> str:
    path = draw(st.sampled_from(paths))
    parent: Any = envelope
    try:
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        current = parent[last]
    except (KeyError, IndexError, TypeError):
        return "gone"  # an earlier break removed or replaced what this path went through
    if not isinstance(parent, dict | list):
        return "gone"  # an earlier break left a string there: it indexes, but cannot be assigned to
    how = draw(st.sampled_from(["replace", "remove", "add"]))
    if how == "remove" and isinstance(parent, dict):
        del parent[last]
    elif how == "add" and isinstance(current, dict):
        current[draw(st.text(min_size=1, max_size=12))] = draw(json_values)
    else:
        parent[last] = draw(json_values)
        how = "replace"
    return how


@st.composite
def broken_envelopes(draw: st.DrawFn) -> dict[str, Any]:
    which = draw(st.sampled_from([0, 1]))
    envelope = copy.deepcopy(BASES[which])
    for _ in range(draw(st.integers(1, 2))):
        tally("envelope", _break(draw, envelope, PATHS[which]))
    return envelope


async def import_then_use(envelope: dict[str, Any]) -> None:
    driver = make_driver()
    try:
        with warnings.catch_warnings():  # a newer schemaVersion loads with a documented warning
            warnings.filterwarnings("ignore", "The envelope has schemaVersion", UserWarning)
            restored = driver.import_session(envelope, ALICE).session
    except (ImportRejected, DriverError):
        assert len(driver.store) == 0, "a refused import stored something"
        return
    assert restored is not None and len(driver.store) == 1
    read = await driver.read_session(restored.id, ALICE)
    assert read.session.revision == restored.revision
    try:
        after = await driver.run(session_run(read.session, "!recall"), ALICE)
        assert after.session is not None and after.session.revision == restored.revision + 1
    except DriverError:
        pass  # refused or failed with a contract code: the session is still there and still reads
    await driver.read_session(restored.id, ALICE)


@settings(max_examples=ENVELOPE_EXAMPLES)
@given(broken_envelopes())
def test_every_import_restores_a_usable_session_or_stores_nothing(envelope: dict[str, Any]) -> None:
    asyncio.run(import_then_use(envelope))


def test_the_unbroken_exports_import_and_continue() -> None:
    for base in BASES:
        asyncio.run(import_then_use(copy.deepcopy(base)))
