"""Live hosts for the SDK's tests, and helpers that let one scenario drive both clients.

Every host is a separate ``python -m agentic_driver serve`` process on a free
127.0.0.1 port, started from a host JSON under pytest's tmp directory, polled on
``/healthz`` (bounded in count and time) until it serves, and terminated (then
killed) at teardown. Hosts are session-scoped and started on first use; each
test creates its own sessions, so tests never share state through a host.
Hosts with tight limits (one run slot, a tiny store, small bodies) are separate.

``driver`` is parametrized over ``AgenticDriver`` and ``AsyncAgenticDriver``:
a scenario written once against ``Driver`` (``await d(client.run(...))``) runs
through both clients, which is the parity test.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import agentic_driver_testing as testing
import httpx
import pytest
from agentic_driver_testing import stop_process

from agentic_driver_sdk import AgenticDriver, AsyncAgenticDriver

T = TypeVar("T")

STARTUP_TIMEOUT_S = 20.0
POLL_INTERVAL_S = 0.02
WAIT_TIMEOUT_S = 10.0

TOKEN = "sdk-tests-full-token-01"
NO_GRANTS = "sdk-tests-no-grants-001"
ALL_GRANTS = ["create", "read", "continue", "delete"]
RETENTION_MS = 600_000


# -- host processes ------------------------------------------------------------


_METRIC = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$")
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


@dataclass
class Host:
    name: str
    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    token: str = TOKEN

    def sync(self, **options: Any) -> AgenticDriver:
        return AgenticDriver(**{"base_url": self.base_url, "token": self.token, "timeout": 20.0, **options})

    def async_(self, **options: Any) -> AsyncAgenticDriver:
        return AsyncAgenticDriver(**{"base_url": self.base_url, "token": self.token, "timeout": 20.0, **options})

    def raw(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token}"}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=10.0, trust_env=False)

    def metrics(self) -> list[tuple[str, dict[str, str], float]]:
        with self.raw() as http:
            text = http.get("/metrics").text
        samples = []
        for line in text.splitlines():
            if line and not line.startswith("#"):
                match = _METRIC.match(line)
                assert match is not None, line
                name, labels, value = match.groups()
                samples.append((name, dict(_LABEL.findall(labels or "")), float(value)))
        return samples

    def provider_calls(self, provider: str = "echo") -> int:
        """Model calls made on ``provider`` so far (agentic_driver_provider_calls_total, every outcome)."""
        return int(
            sum(
                value
                for name, labels, value in self.metrics()
                if name == "agentic_driver_provider_calls_total" and labels.get("provider") == provider
            )
        )

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        stop_process(self.process)


def launch_host(name: str, config: dict[str, Any], workdir: Path) -> Host:
    """Start a real host for ``config``; returns once ``/healthz`` answers."""
    config_path = workdir / f"{name}.json"
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    started = testing.start(
        lambda port: testing.serve_command(port, "--config", str(config_path)),
        lambda attempt, port: workdir / f"{name}-{attempt}.log",
        name=f"host {name!r}",
        timeout_s=STARTUP_TIMEOUT_S,
        cwd=workdir,
    )
    return Host(name, started.base_url, started.process, started.log_path)


def echo(provider_id: str, *, account: str | None = "acct-1", native: bool = True) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": provider_id,
        "kind": "echo",
        "models": ["echo-1", "echo-2"],
        "settings": {"native": native, "latencyMs": 0},
    }
    if account is not None:
        entry["accountId"] = account
    return entry


def config(
    host_id: str,
    *,
    sessions: dict[str, Any] | None = None,
    limits: dict[str, Any] | None = None,
    sessions_enabled: bool = True,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "hostId": host_id,
        "providers": [echo("echo"), echo("echo-unbound", account=None), echo("echo-history", native=False)],
        "limits": {"maxConcurrentRuns": 32, "maxBodyBytes": 65_536, **(limits or {})},
        "tokens": [
            {"subject": "tester", "token": TOKEN, "providers": ["*"], "sessions": ALL_GRANTS},
            {"subject": "tester", "token": NO_GRANTS, "providers": ["*"], "sessions": []},
        ],
    }
    if sessions_enabled:
        body["sessions"] = {"retentionMs": RETENTION_MS, **(sessions or {})}
    return body


@pytest.fixture(scope="session")
def launch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str, dict[str, Any]], Host]]:
    hosts: list[Host] = []

    def _launch(name: str, host_config: dict[str, Any]) -> Host:
        host = launch_host(name, host_config, tmp_path_factory.mktemp(name))
        hosts.append(host)
        return host

    yield _launch
    for host in hosts:
        host.stop()


@pytest.fixture(scope="session")
def host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """Generous limits; bound, unbound and history-only echo instances."""
    return launch("main", config("sdk-main"))


@pytest.fixture(scope="session")
def busy_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """One run slot and no waiting line: a second concurrent run is HOST_BUSY."""
    return launch("busy", config("sdk-busy", limits={"maxConcurrentRuns": 1, "maxQueuedRuns": 0}))


@pytest.fixture(scope="session")
def tight_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """Small bodies (4 KiB) and short sessions (4 messages)."""
    return launch("tight", config("sdk-tight", sessions={"maxMessages": 4}, limits={"maxBodyBytes": 4096}))


@pytest.fixture(scope="session")
def full_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """A store that holds one session (the test fills it)."""
    return launch("full", config("sdk-full", sessions={"maxEntries": 1}))


@pytest.fixture(scope="session")
def nosessions_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    return launch("nosessions", config("sdk-nosessions", sessions_enabled=False))


# -- one scenario, both clients ----------------------------------------------------


async def d(value: T | Awaitable[T]) -> T:
    """The value of a sync call, or the awaited value of an async one."""
    if inspect.isawaitable(value):
        return await value
    return value


@dataclass
class Driver:
    """A client under test plus what a scenario needs to drive either kind the same way."""

    kind: str
    client: Any
    host: Host
    extra: list[Any] = field(default_factory=list)

    async def collect(self, stream: Any, stop_after: int | None = None, sink: list[Any] | None = None) -> list[Any]:
        """Events of a stream context manager; with ``stop_after``, leave the block after that many.

        ``sink`` receives the events as they arrive (what came before a failure stays readable)."""
        events: list[Any] = [] if sink is None else sink
        if self.kind == "sync":
            with stream as iterator:
                for event in iterator:
                    events.append(event)
                    if stop_after is not None and len(events) >= stop_after:
                        break
        else:
            async with stream as iterator:
                async for event in iterator:
                    events.append(event)
                    if stop_after is not None and len(events) >= stop_after:
                        break
        return events

    def background(self, call: Callable[[], Any]) -> asyncio.Future[Any]:
        """Start a call without waiting: in a thread for the sync client, as a task for the async one."""
        if self.kind == "sync":
            return asyncio.ensure_future(asyncio.to_thread(call))
        return asyncio.ensure_future(call())

    def with_options(self, **changes: Any) -> Driver:
        copy = self.client.with_options(**changes)
        self.extra.append(copy)
        return Driver(self.kind, copy, self.host)

    async def close(self) -> None:
        for client in [self.client, *self.extra]:
            await d(client.close())


@asynccontextmanager
async def driver_for(kind: str, host: Host, **options: Any) -> AsyncIterator[Driver]:
    client = host.sync(**options) if kind == "sync" else host.async_(**options)
    driver = Driver(kind, client, host)
    try:
        yield driver
    finally:
        await driver.close()


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def driver(kind: str, host: Host) -> AsyncIterator[Driver]:
    """The main host through ``AgenticDriver`` or ``AsyncAgenticDriver`` (each test runs with both)."""
    async with driver_for(kind, host) as each:
        yield each


async def wait_for_status(driver: Driver, session_id: str, status: str) -> Any:
    """Poll readSession (bounded in count and time) until the session reports ``status``."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    seen = None
    for _ in range(int(WAIT_TIMEOUT_S / POLL_INTERVAL_S) + 1):
        read = await d(driver.client.sessions.read(session_id))
        seen = str(read.session.status)
        if seen == status or time.monotonic() > deadline:
            break
        await asyncio.sleep(POLL_INTERVAL_S)
    assert seen == status, f"session {session_id} never reached {status!r} (last seen {seen!r})"
    return read


# -- transports that watch or break requests ---------------------------------------


@dataclass
class Seen:
    """What a recording transport saw: every request, in order."""

    requests: list[httpx.Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, request: httpx.Request) -> None:
        with self.lock:
            self.requests.append(request)

    def posts(self, path: str) -> list[httpx.Request]:
        return [r for r in self.requests if r.method == "POST" and r.url.path == path]


class Recording(httpx.HTTPTransport):
    """The real network transport, recording each request; ``drop_first`` loses the first answer.

    With ``drop_first``, the first request matching it reaches the host and is
    answered, then the answer is read and thrown away and ``httpx.ReadError``
    raised: the client sees a connection that broke after the host did the work.
    """

    def __init__(self, seen: Seen, drop_first: str | None = None) -> None:
        super().__init__()
        self.seen = seen
        self.drop_first = drop_first

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.add(request)
        response = super().handle_request(request)
        if self.drop_first is not None and request.url.path == self.drop_first:
            self.drop_first = None
            response.read()
            response.close()
            raise httpx.ReadError("connection dropped after the host answered (injected)", request=request)
        return response


class AsyncRecording(httpx.AsyncHTTPTransport):
    """The async form of ``Recording``."""

    def __init__(self, seen: Seen, drop_first: str | None = None) -> None:
        super().__init__()
        self.seen = seen
        self.drop_first = drop_first

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.add(request)
        response = await super().handle_async_request(request)
        if self.drop_first is not None and request.url.path == self.drop_first:
            self.drop_first = None
            await response.aread()
            await response.aclose()
            raise httpx.ReadError("connection dropped after the host answered (injected)", request=request)
        return response


def recording(kind: str, seen: Seen, drop_first: str | None = None) -> httpx.BaseTransport | httpx.AsyncBaseTransport:
    return Recording(seen, drop_first) if kind == "sync" else AsyncRecording(seen, drop_first)


def problem(status: int, code: str | None, headers: dict[str, str] | None = None, **fields: Any) -> httpx.Response:
    """A canned problem response, as a host would send it."""
    body: dict[str, Any] = {"type": f"urn:agentic-driver:problem:{code}", "title": "t", "status": status}
    if code is not None:
        body["code"] = code
    body.update({"detail": f"canned {code}", **fields})
    return httpx.Response(
        status, headers={"content-type": "application/problem+json", **(headers or {})}, content=json.dumps(body)
    )


def mock_client(kind: str, handler: Callable[[httpx.Request], httpx.Response], **options: Any) -> Any:
    """A client of ``kind`` whose every request is answered by ``handler``."""
    transport = httpx.MockTransport(handler)
    if kind == "sync":
        return AgenticDriver(base_url="http://mock.invalid", token="t", transport=transport, **options)
    return AsyncAgenticDriver(base_url="http://mock.invalid", token="t", transport=transport, **options)


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record the SDK's backoff sleeps instead of sleeping."""
    slept: list[float] = []

    async def _asleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr("agentic_driver_sdk._client._sleep", slept.append)
    monkeypatch.setattr("agentic_driver_sdk._client._asleep", _asleep)
    return slept


@pytest.fixture(autouse=True)
def _no_ambient_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests set AGENTIC_DRIVER_URL / AGENTIC_DRIVER_TOKEN themselves when they mean to."""
    for name in ("AGENTIC_DRIVER_URL", "AGENTIC_DRIVER_TOKEN"):
        monkeypatch.delenv(name, raising=False)
