"""Shared helpers of the tool loop tests (``test_tool_loop_*.py``): a driver with host tools, session
runs, answers, bounded waiting, a recording host tool and a provider that calls two functions in one step.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.models import (
    ApprovalDecision,
    CreateSessionRequest,
    FunctionResult,
    RunRequest,
    SessionHandle,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.base import (
    Capabilities,
    ModelRequest,
    TextDelta,
    ToolCall,
    TurnEvent,
    Usage,
    UsageReport,
)
from agentic_driver.tools import HostTool

LOOKUP = ToolDefinition(
    name="lookup",
    description="Look a city's weather up.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)


def make_driver(*tools: HostTool, clock: ManualClock | None = None, **options: Any) -> Driver:
    return Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=clock or ManualClock(),
        tools=tools,
        **options,
    )


async def new_session(driver: Driver, mode: str = "history", provider: str = "echo") -> str:
    created = await driver.create_session(CreateSessionRequest(provider=provider, model="echo-1", mode=mode))
    return created.session.id


def session_run(session_id: str, revision: int, text: str, provider: str = "echo", **extra: Any) -> RunRequest:
    return RunRequest(
        provider=provider, model="echo-1", input=text, session=SessionHandle(id=session_id, revision=revision), **extra
    )


def results(*pairs: tuple[str, str]) -> SubmitRunActionsRequest:
    return SubmitRunActionsRequest(functionResults=[FunctionResult(callId=c, output=o) for c, o in pairs])


def decisions(*items: ApprovalDecision) -> SubmitRunActionsRequest:
    return SubmitRunActionsRequest(approvals=list(items))


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


@dataclass
class Recorder:
    """A host tool handler that records its calls and answers ``reply`` (or waits for ``gate``)."""

    reply: Any = "ok"
    gate: asyncio.Event | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)

    async def __call__(self, **arguments: Any) -> Any:
        self.calls.append(arguments)
        if self.gate is not None:
            await self.gate.wait()
        return self.reply


@dataclass
class TwoCallProvider:
    """Calls ``lookup`` and ``ask`` in one step, then reports every answer it got, in call order."""

    id: str = "scripted"
    models: tuple[str, ...] = ("echo-1",)
    account_id: str | None = "acct-1"
    kind: str = "scripted"
    requests: list[ModelRequest] = field(default_factory=list)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=True
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        self.requests.append(request)
        if not request.exchange:
            yield ToolCall("c1", "lookup", {"city": "Oslo"})
            yield ToolCall("c2", "ask", {"question": "may I?"})
            return
        yield TextDelta("; ".join(f"{e.call_id} {e.name}={e.output}" for e in request.exchange))
        yield UsageReport(Usage(1, 1))
