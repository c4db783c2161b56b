"""Network faults between each network adapter and its provider, mapped as the contract says.

Every adapter (openai-responses, anthropic, gemini, openai-chat), with its
upstream call streamed and not, runs one session turn through the contract
tests' fault proxy (``fakes/faults.py``) in front of its fake upstream, with
one fault armed. Each case then checks the answer's code, what the stream
client saw, the session (a failure after model work started interrupts it and
commits no partial text), the driver's provider-call counter and how many
times the proxy saw the adapter call (retries only before the answer's head).

Stalls are detected by the timeouts themselves, set small: the run's
``idleTimeoutMs`` (``PROVIDER_TIMEOUT``), or without it the instance's
``timeoutMs`` (``PROVIDER_ERROR``); nothing here sleeps.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIChatFake, OpenAIResponsesFake
from fakes.faults import FaultProxy

from agentic_driver import Driver
from agentic_driver.config import parse_config
from agentic_driver.errors import DriverError
from agentic_driver.models import (
    CreateSessionRequest,
    InterruptedTurn,
    OutputDeltaEvent,
    ReadSessionResponse,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequest,
    SessionHandle,
)

KEY = "sk-fault-matrix-secret-5d1e"
KEY_ENV = "AGENTIC_DRIVER_FAULT_MATRIX_KEY"
MAX_RETRIES = 2
SHORT_MS = 400
"""The run's ``idleTimeoutMs``, or the ``-short`` instances' ``timeoutMs``: what detects a stall. The idle
deadline is armed before the request is sent, so it must also cover reaching the first event through the
proxy on a loaded machine (100 ms failed there once, before any output)."""
MARKER = "You said"
"""The start of every first reply (the fakes' script); a mid-answer fault cuts just after the event holding it."""
INPUT = "Hello"
REPLY = "You said: Hello. Before that you said: nothing."


@dataclass(frozen=True)
class Adapter:
    name: str
    kind: str
    model: str
    fake: type[FakeUpstream]

    def path(self, stream: bool) -> str:
        if self.kind == "gemini":
            return f"/v1beta/models/{self.model}:{'streamGenerateContent' if stream else 'generateContent'}"
        return {"openai-responses": "/v1/responses", "anthropic": "/v1/messages"}.get(self.kind, "/v1/chat/completions")

    def base_url(self, proxy: FaultProxy) -> str:
        """The proxy in place of the fake (OpenAI-compatible servers are configured with ``/v1`` included)."""
        return proxy.base_url + ("/v1" if self.kind == "openai-chat" else "")


ADAPTERS = [
    Adapter("openai", "openai-responses", "gpt-5", OpenAIResponsesFake),
    Adapter("claude", "anthropic", "claude-sonnet-5", AnthropicFake),
    Adapter("gemini", "gemini", "gemini-2.5-flash", GeminiFake),
    Adapter("chat", "openai-chat", "gpt-4o", OpenAIChatFake),
]

HTML_502 = (
    "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>"
    f"<body><h1>502 Bad Gateway</h1><p>upstream rejected Authorization: Bearer {KEY}</p></body></html>"
)


@dataclass(frozen=True)
class Fault:
    """One row of the matrix: what the proxy does and what must follow."""

    name: str
    action: dict[str, Any]
    times: int = 1
    code: str | None = "PROVIDER_ERROR"
    """None: the run completes (the fault was retried away)."""
    attempts: int = 1
    reason: str = "failed"
    outcome: str = "failed"
    output_first: bool = False
    """Streamed: the client saw the reply's first delta before the failure."""
    idle: bool = False
    """The run sets ``idleTimeoutMs``."""
    short: bool = False
    """The instance's ``timeoutMs`` is small."""
    detail: tuple[str, ...] = field(default=())
    """Text the problem's detail must hold."""


def _cut(end: str, plus: int = 0) -> dict[str, Any]:
    return {"action": "cut", "after": MARKER, "plus": plus, "end": end}


FAULTS = [
    Fault("reset-before-headers-once", {"action": "abort"}, code=None, attempts=2, outcome="completed"),
    Fault("reset-before-headers", {"action": "abort"}, times=3, attempts=3, detail=("could not reach",)),
    Fault("closed-before-headers", {"action": "reset"}, times=3, attempts=3, detail=("could not reach",)),
    Fault(
        "html-5xx",
        {"action": "respond", "status": 502, "headers": {"Content-Type": "text/html"}, "body": HTML_502},
        times=3,
        attempts=3,
        detail=("HTTP 502", "502 Bad Gateway upstream rejected", "[redacted]"),
    ),
    Fault("reset-mid-stream", _cut("reset"), output_first=True, detail=("while the provider answered",)),
    Fault(
        "stall-idle-timeout",
        _cut("stall"),
        code="PROVIDER_TIMEOUT",
        reason="idle_timeout",
        outcome="timeout",
        output_first=True,
        idle=True,
        detail=(f"no progress for {SHORT_MS} ms",),
    ),
    Fault("stall-timeout-ms", _cut("stall"), output_first=True, short=True, detail=("timeoutMs", "while it answered")),
    Fault("chunked-cut-short", _cut("close"), output_first=True, detail=("while the provider answered",)),
    Fault("sse-cut-mid-line", _cut("finish", plus=60), output_first=True),  # 60: inside the next data line
    Fault(
        "unknown-shape",
        {"action": "respond", "status": 200},
        detail=("not of the shape this adapter reads", "Input should be a valid dictionary"),
    ),
]
"""``unknown-shape`` answers 200 with a body of the wrong shape (an array where an object belongs): the
provider's answer is a PROVIDER_ERROR that says what is wrong, never an INTERNAL_ERROR."""


def _armed(fault: Fault, adapter: Adapter, stream: bool) -> dict[str, Any]:
    action = dict(fault.action)
    if fault.name == "unknown-shape":
        action["headers"] = {"Content-Type": "text/event-stream" if stream else "application/json"}
        action["body"] = "data: [1]\n\n" if stream else "[1]"
    return {"method": "POST", "path": adapter.path(stream), "times": fault.times, **action}


@pytest.fixture(scope="module")
def proxies() -> Iterator[dict[str, FaultProxy]]:
    fakes = {a.name: a.fake(api_key=KEY).start() for a in ADAPTERS}
    started: dict[str, FaultProxy] = {}
    try:
        for name, fake in fakes.items():
            started[name] = FaultProxy(fake.base_url)
        yield started
    finally:
        for proxy in started.values():
            proxy.stop()
        for fake in fakes.values():
            fake.stop()


def _instance(adapter: Adapter, proxy: FaultProxy, stream: bool, short: bool) -> dict[str, Any]:
    return {
        "id": f"{adapter.name}-{'stream' if stream else 'nostream'}{'-short' if short else ''}",
        "kind": adapter.kind,
        "accountId": "acct-faults",
        "models": [adapter.model],
        "baseUrl": adapter.base_url(proxy),
        "apiKeyEnv": KEY_ENV,
        "stream": stream,
        "maxRetries": MAX_RETRIES,
        "retryBaseMs": 1,
        "timeoutMs": SHORT_MS if short else 10_000,
    }


@pytest.fixture
async def driver(proxies: dict[str, FaultProxy], monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Driver]:
    monkeypatch.setenv(KEY_ENV, KEY)
    providers = [
        _instance(adapter, proxies[adapter.name], stream, short)
        for adapter in ADAPTERS
        for stream in (True, False)
        for short in (False, True)
    ]
    async with Driver.from_config(parse_config({"providers": providers, "sessions": {"retentionMs": 60_000}})) as made:
        yield made


@dataclass
class Ending:
    code: str | None
    detail: str
    deltas: list[str]


async def _turn(driver: Driver, request: RunRequest, stream: bool) -> Ending:
    """The run's code (None when it completed), its detail and, streamed, the deltas the client saw."""
    if not stream:
        try:
            result = await driver.run(request)
        except DriverError as error:
            return Ending(error.code.value, error.detail, [])
        return Ending(None, result.output.text, [])
    deltas: list[str] = []
    async for event in await driver.stream_run(request):
        if isinstance(event, OutputDeltaEvent):
            deltas.append(event.text)
        elif isinstance(event, RunFailedEvent):
            return Ending(event.problem.code, event.problem.detail, deltas)
        elif isinstance(event, RunCompletedEvent):
            return Ending(None, event.run.output.text, deltas)
    raise AssertionError("the stream ended without a final event")


def _provider_calls(driver: Driver, provider: str, outcome: str) -> float:
    value = driver.metrics.registry.get_sample_value(
        "agentic_driver_provider_calls_total", {"provider": provider, "outcome": outcome}
    )
    return value or 0.0


def _matrix() -> list[Any]:
    return [
        pytest.param(adapter, stream, fault, id=f"{adapter.name}-{'stream' if stream else 'nostream'}-{fault.name}")
        for adapter in ADAPTERS
        for stream in (True, False)
        for fault in FAULTS
    ]


@pytest.mark.parametrize(("adapter", "stream", "fault"), _matrix())
async def test_a_network_fault_ends_the_turn_as_the_contract_says(
    driver: Driver,
    proxies: dict[str, FaultProxy],
    caplog: pytest.LogCaptureFixture,
    adapter: Adapter,
    stream: bool,
    fault: Fault,
) -> None:
    caplog.set_level(logging.DEBUG, logger="agentic_driver")
    proxy = proxies[adapter.name]
    provider = _instance(adapter, proxy, stream, fault.short)["id"]
    session = (
        await driver.create_session(CreateSessionRequest(provider=provider, model=adapter.model, mode="history"))
    ).session
    proxy.arm(_armed(fault, adapter, stream))
    request = RunRequest(
        provider=provider,
        model=adapter.model,
        input=INPUT,
        session=SessionHandle(id=session.id, revision=0),
        **({"idleTimeoutMs": SHORT_MS} if fault.idle else {}),
    )

    ending = await _turn(driver, request, stream)

    read = await driver.read_session(session.id)
    assert ending.code == fault.code, ending.detail
    assert len(proxy.requests(adapter.path(stream))) == fault.attempts
    assert _provider_calls(driver, provider, fault.outcome) == 1
    assert KEY not in ending.detail and KEY not in caplog.text
    if fault.code is None:
        assert ending.detail == REPLY
        _assert_committed(read)
        return
    for text in fault.detail:
        assert text in ending.detail, ending.detail
    assert "<" not in ending.detail  # an HTML page is reported as its text, never as markup
    if stream and fault.output_first:
        assert ending.deltas and REPLY.startswith("".join(ending.deltas)) and MARKER in ending.deltas[0]
    _assert_interrupted(read, fault.reason)


def _assert_committed(read: ReadSessionResponse) -> None:
    assert (read.session.status, read.session.revision) == ("ready", 1)
    assert [(m.role, m.content) for m in read.history] == [("user", INPUT), ("assistant", REPLY)]


def _assert_interrupted(read: ReadSessionResponse, reason: str) -> None:
    """Interrupted, with the turn recorded, and nothing of the partial reply kept."""
    assert (read.session.status, read.session.revision) == ("interrupted", 0)
    assert read.history == [] and read.turns == []
    interrupted = read.interruptedTurn
    assert isinstance(interrupted, InterruptedTurn)
    assert (interrupted.input, interrupted.reason) == (INPUT, reason)
