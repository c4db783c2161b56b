"""Shared helpers of the session envelope tests (``test_envelope_*.py``): the principals, an echo provider
and a driver on a manual clock, session runs, and a native conversation with a tool exchange to export.
"""

from __future__ import annotations

from typing import Any

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    Message,
    RunRequest,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.base import ToolSpec

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
