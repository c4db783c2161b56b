"""An embedded Driver behind its ASGI app, driven by scripted clients, with leak accounting.

``AsgiCall`` is one HTTP request whose client side the test scripts exactly:
when the body arrives, when the client disconnects, and whether the client
is reading (a closed ``reading`` gate makes every ``send`` of the app wait,
as a full socket buffer does). So a disconnect can be placed at any point of
a turn, deterministically.

``Rig`` holds the driver and app and, at the end of a test, checks that the
fault left nothing behind: no run, slot, waiter, task or loop timer that was
not there before, and every session gone once its (short) retention passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import time
from collections.abc import Callable
from typing import Any

from agentic_driver.auth import TokenPolicy
from agentic_driver.config import parse_config
from agentic_driver.driver import Driver
from agentic_driver.http import create_app
from agentic_driver.http.limits import Drain
from agentic_driver.sessions import SessionRecord
from agentic_driver.turns import ActiveRun

TOKEN = "in-process-token-0001"
RETENTION_MS = 300
WAIT_S = 5.0


def loop_timers() -> int:
    """Scheduled, not cancelled, timer handles of the running (selector) event loop."""
    scheduled = getattr(asyncio.get_running_loop(), "_scheduled", [])
    return sum(1 for handle in scheduled if not handle.cancelled())


def live(kind: type) -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


class AsgiCall:
    def __init__(
        self,
        app: Any,
        method: str,
        path: str,
        body: bytes | None = None,
        *,
        token: str | None = TOKEN,
        content_type: str | None = "application/json",
        headers: dict[str, str] | None = None,
    ) -> None:
        raw_headers = [(b"host", b"testserver")]
        if token is not None:
            raw_headers.append((b"authorization", f"Bearer {token}".encode()))
        if content_type is not None and body is not None:
            raw_headers.append((b"content-type", content_type.encode()))
        for name, value in (headers or {}).items():
            raw_headers.append((name.lower().encode(), value.encode()))
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": raw_headers,
            "client": ("127.0.0.1", 40000),
            "server": ("127.0.0.1", 80),
        }
        self._app = app
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._gone = False
        self.reading = asyncio.Event()
        self.reading.set()
        self.messages: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        if body is not None:
            self.send_body(body)
        self.task = asyncio.create_task(app(self.scope, self._receive, self._send))

    # the client side ------------------------------------------------------------------

    def send_body(self, chunk: bytes, more: bool = False) -> None:
        self._inbox.put_nowait({"type": "http.request", "body": chunk, "more_body": more})

    def disconnect(self) -> None:
        """The connection is lost: as with uvicorn, a send waiting for the socket returns and later sends
        are dropped; the app's next receive sees ``http.disconnect``."""
        self._gone = True
        self.reading.set()
        self._inbox.put_nowait({"type": "http.disconnect"})

    async def _receive(self) -> dict[str, Any]:
        if self._gone and self._inbox.empty():
            return {"type": "http.disconnect"}
        return await self._inbox.get()

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            await self.reading.wait()
        if self._gone:
            return
        self.messages.append(message)
        self._changed.set()

    # what the client saw ------------------------------------------------------------------

    @property
    def status(self) -> int | None:
        starts = [m for m in self.messages if m["type"] == "http.response.start"]
        return int(starts[0]["status"]) if starts else None

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages if m["type"] == "http.response.body")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def complete(self) -> bool:
        return any(m["type"] == "http.response.body" and not m.get("more_body") for m in self.messages)

    def events(self) -> list[dict[str, Any]]:
        """The SSE events received so far (data decoded)."""
        return [
            json.loads(line.removeprefix("data: "))
            for line in self.body.decode().split("\n")
            if line.startswith("data: ")
        ]

    def event_types(self) -> list[str]:
        return [event["type"] for event in self.events()]

    async def until(self, condition: Callable[[AsgiCall], bool], what: str, timeout_s: float = WAIT_S) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting until {what}; saw {self.body[:500]!r}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))

    async def finished(self, timeout_s: float = WAIT_S) -> AsgiCall:
        await asyncio.wait_for(self.task, timeout_s)
        return self


def host_config(tokens: list[dict[str, Any]] | None = None, **limits: Any) -> dict[str, Any]:
    return {
        "hostId": "in-process",
        "providers": [{"id": "echo", "kind": "echo", "accountId": "acct-1"}],
        "sessions": {"retentionMs": RETENTION_MS},
        "runs": {"retentionMs": RETENTION_MS},  # ended runs are kept this long too, then nothing is left
        "limits": {"maxConcurrentRuns": 4, "maxQueuedRuns": 4, "heartbeatMs": 60_000, **limits},
        "tools": [
            {
                "name": "write_note",
                "handler": "reliability.inprocess:write_note",
                "parameters": {"type": "object"},
                "approval": "required",
            }
        ],
        "tokens": [
            {
                "subject": "alice",
                "token": TOKEN,
                "providers": ["*"],
                "sessions": ["create", "read", "continue", "delete"],
            },
            *(tokens or []),
        ],
    }


async def write_note(**arguments: Any) -> str:
    """A host tool that needs approval (for the paused-run tests)."""
    return "noted"


class Rig:
    def __init__(
        self, tokens: list[dict[str, Any]] | None = None, providers: list[dict[str, Any]] | None = None, **limits: Any
    ) -> None:
        retention = limits.pop("retentionMs", RETENTION_MS)
        raw = host_config(tokens, **limits)
        raw["sessions"]["retentionMs"] = retention
        raw["providers"] += providers or []
        config = parse_config(raw)
        self.driver = Driver.from_config(config)
        self.drain = Drain()
        self.app = create_app(
            self.driver,
            TokenPolicy(config.tokens),
            heartbeat_ms=config.limits.heartbeatMs,
            stream_stall_ms=config.limits.streamStallMs,
            body_timeout_ms=config.limits.bodyTimeoutMs,
            drain=self.drain,
        )

    def call(self, method: str, path: str, body: Any = None, **options: Any) -> AsgiCall:
        raw = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        return AsgiCall(self.app, method, path, raw, **options)

    async def request(self, method: str, path: str, body: Any = None, **options: Any) -> AsgiCall:
        return await self.call(method, path, body, **options).finished()

    async def new_session(self) -> dict[str, Any]:
        created = await self.request("POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"})
        assert created.status == 201, created.body
        session: dict[str, Any] = created.json()["session"]
        return session

    async def read(self, session_id: str) -> dict[str, Any]:
        read = await self.request("GET", f"/v1/sessions/{session_id}")
        assert read.status == 200, read.body
        body: dict[str, Any] = read.json()
        return body

    async def complete_turn(self, session: dict[str, Any], text: str) -> dict[str, Any]:
        result = await self.request("POST", "/v1/runs", run_body(session, text))
        assert result.status == 200, result.body
        updated: dict[str, Any] = result.json()["session"]
        return updated

    def provider_calls(self, outcome: str | None = None) -> int:
        metric = self.driver.metrics.provider_calls
        outcomes = [outcome] if outcome else ["completed", "failed", "cancelled", "timeout"]
        return int(sum(metric.labels("echo", o)._value.get() for o in outcomes))

    def errors(self, code: str) -> int:
        return int(self.driver.metrics.errors.labels(code)._value.get())

    async def quiet(self) -> None:
        """Wait (bounded) until no run is active, every session has expired and no ended run is kept."""
        store = self.driver.store
        assert store is not None
        runs = self.driver._runs
        deadline = time.monotonic() + WAIT_S + RETENTION_MS / 1000
        while len(runs) or runs.retained or runs.timer_armed or len(store) or store.pending_timers():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"not quiet: {len(runs)} runs, {runs.retained} kept, {len(store)} sessions, "
                    f"{store.pending_timers()} timers"
                )
            await asyncio.sleep(0.02)


class LeakCheck:
    """Counts taken before a test and compared after it."""

    def __init__(self) -> None:
        self.tasks = {t for t in asyncio.all_tasks() if not t.done()}
        self.timers = loop_timers()
        self.records = live(SessionRecord)
        self.runs = live(ActiveRun)

    async def verify(self, rig: Rig) -> None:
        await rig.quiet()
        slots = rig.driver.slots
        assert (slots.in_use, slots.waiting, slots._reserved) == (0, 0, 0), "a run slot or reservation leaked"
        await asyncio.sleep(0)  # let finished tasks' callbacks run
        current = asyncio.current_task()
        leftover = {t for t in asyncio.all_tasks() if not t.done() and t is not current} - self.tasks
        assert not leftover, f"tasks leaked: {leftover}"
        assert loop_timers() <= self.timers, f"loop timers leaked: {loop_timers()} > {self.timers}"
        assert live(SessionRecord) <= self.records, "session records are still in memory"
        assert live(ActiveRun) <= self.runs, "runs are still in memory"


def run_body(session: dict[str, Any] | None, text: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"provider": "echo", "model": "echo-1", "input": text, **extra}
    if session is not None:
        body["session"] = {"id": session["id"], "revision": session["revision"]}
    return body
