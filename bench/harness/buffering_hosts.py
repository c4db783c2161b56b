"""The buffering section's hosts and what is done to them: the counts, the two host JSONs (``kept`` and
``keep1``), and a ``Host`` under measurement with its memory phases and the rejoin rounds.

``Host`` streams session turns of ``!chunks N`` deltas over raw keep-alive connections and reads RSS
and the ``agentic_driver_run_event_bytes`` / ``agentic_driver_runs_retained`` gauges before and after
each phase; ``rejoin_rounds`` times an ordinary stream, a rejoin of it once finished and a live run's
rejoin. ``buffering.py`` starts the hosts, runs these and derives the figures.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from . import procstat, targets
from .httpclient import Request, Response
from .lanes import TEXT, turn_lanes
from .loadgen import PhaseResult, open_connections, run_phase
from .stats import summarize
from .streamclient import Answer, StreamConnection
from .targets import AgenticApi, RunningTarget, Session, TargetSpec


@dataclass(frozen=True, slots=True)
class Counts:
    sessions: int = 125
    """Sessions the memory phases' turns go to (8 turns each per phase at the default ``runs``)."""
    runs: int = 1000
    """Turns per memory phase: ``runs.maxEntries``' default, so the second phase replaces every kept run."""
    concurrency: int = 8
    small: int = 1
    """Deltas per turn in the first memory phase (``!chunks``)."""
    large: int = 33
    """Deltas per turn in the second."""
    warmup_turns: int = 256
    rounds: int = 300
    """Rejoin rounds (each: an ordinary stream, a rejoin of it, a live run rejoined)."""
    warmup_rounds: int = 20
    rejoin_deltas: int = 16
    """Deltas of the ordinary (and rejoined) run."""
    live_deltas: int = 8
    """Deltas the live run sends before it stops making progress (``!hangafter``)."""


COUNTS = Counts()

LONG_TEXT = " ".join([TEXT] * 12)
"""About 530 characters, so that even ``large`` deltas carry some 16 characters each."""


def chunked_text(deltas: int, hang_after: int | None = None) -> Callable[[int], str]:
    """Turn ``n``'s input: the echo provider streams its reply (``echo: <text>``) in ``deltas`` deltas."""
    head = f"!chunks {deltas}\n" + (f"!hangafter {hang_after}\n" if hang_after is not None else "")
    return lambda n: f"{head}turn {n}: {LONG_TEXT}"


# -- the two hosts -------------------------------------------------------------------------------


def host_config(runs: dict[str, Any] | None) -> dict[str, Any]:
    """Host JSON for both hosts: the embedded default's echo instance, sessions and token; ``runs`` as given."""
    config: dict[str, Any] = {
        "hostId": "bench-host",
        "providers": [{"id": "echo", "kind": "echo", "accountId": "local", "models": ["echo-1"]}],
        "sessions": {"retentionMs": 24 * 60 * 60 * 1000},
        "tokens": [
            {
                "subject": "local",
                "tokenEnv": "AGENTIC_DRIVER_TOKEN",
                "providers": ["echo"],
                "sessions": ["create", "read", "continue", "delete"],
            }
        ],
    }
    if runs is not None:
        config["runs"] = runs
    return config


HOSTS = {"kept": None, "keep1": {"maxEntries": 1}}
"""The two hosts' ``runs`` blocks: the defaults (5 minutes, 1,000 runs), and one ended run kept."""


def host_spec(name: str, runs: dict[str, Any] | None, host_src: Path | None = None) -> TargetSpec:
    spec = targets.host_spec()
    if host_src is not None:
        spec.env["PYTHONPATH"] = str(host_src.resolve())
    base = spec.command
    config = orjson.dumps(host_config(runs))

    def setup() -> Path:
        workdir = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
        (workdir / "host.json").write_bytes(config)
        return workdir

    spec.name = name
    spec.command = lambda port: [*base(port), "--config", "host.json"]
    spec.setup = setup
    spec.description = f"agentic-driver serve --config host.json (echo, latency 0), runs: {json.dumps(runs or {})}"
    return spec


def gauges(scrape: bytes) -> dict[str, float]:
    """The buffering gauges of a Prometheus text scrape."""
    found: dict[str, float] = {}
    for line in scrape.decode().splitlines():
        name, _, value = line.partition(" ")
        if name in ("agentic_driver_run_event_bytes", "agentic_driver_runs_retained"):
            found[name.removeprefix("agentic_driver_")] = float(value)
    return found


# -- the measurements ----------------------------------------------------------------------------------


class Host:
    """One running host of the section, with a keep-alive connection for scrapes, creates and deletes."""

    def __init__(self, target: RunningTarget, control: StreamConnection) -> None:
        self.target = target
        self.api: AgenticApi = target.spec.api  # type: ignore[assignment]
        self.control = control
        self.serial = 0
        self.sessions: list[Session] = []
        self.phases: dict[str, dict[str, Any]] = {}

    @classmethod
    async def open(cls, target: RunningTarget) -> Host:
        return cls(target, await StreamConnection.open("127.0.0.1", target.port, target.spec.api.headers))

    async def snapshot(self) -> dict[str, float]:
        """RSS and the buffering gauges, once the host has settled for a moment."""
        await asyncio.sleep(0.2)
        scrape = await self.control.fetch(Request("GET", "/metrics"))
        return {"rss": procstat.sample(self.target.pid).rss_bytes, **gauges(bytes(scrape.body))}

    async def create(self, count: int) -> list[Session]:
        made = []
        for _ in range(count):
            answer = await self.control.fetch(self.api.create(), expect=201)
            made.append(self.api.created(_response(answer)))
        return made

    async def delete(self, pool: Sequence[Session]) -> None:
        for session in pool:
            await self.control.fetch(self.api.delete(session), expect=204)

    async def turns(self, pool: Sequence[Session], count: int, deltas: int, concurrency: int) -> PhaseResult:
        lanes = turn_lanes(
            self.api, pool, concurrency, count, stream=True, start=self.serial, text=chunked_text(deltas)
        )
        self.serial += count
        connections = await open_connections("raw", "127.0.0.1", self.target.port, self.api.headers, len(lanes))
        try:
            result = await run_phase("turns", lanes, server_pid=self.target.pid, connections=connections)
        finally:
            await asyncio.gather(*(c.close() for c in connections), return_exceptions=True)
        if result.errors:
            raise AssertionError(f"{self.target.spec.name}: {result.errors} failed turns: {result.error_samples[:2]}")
        return result

    async def events_per_turn(self, session: Session, deltas: int) -> int:
        """How many events one streamed turn of ``deltas`` deltas has (``run.started``, deltas, outcome)."""
        answer = await self.control.fetch(self.api.stream_turn(session, chunked_text(deltas)(0)))
        self.api.turned(session)
        return len(answer.events)

    async def warm_up(self, counts: Counts) -> dict[str, int]:
        """Turns of both shapes, on sessions deleted every ``2 * concurrency`` turns (which forgets their runs);
        events per turn. ``kept`` must not keep many warm-up runs at once: their memory, freed when their
        sessions go, would be reused by the measured runs and hide part of what those cost."""
        chunk = 2 * counts.concurrency
        per_turn: dict[str, int] = {}
        for index in range(max(1, counts.warmup_turns // chunk)):
            pool = await self.create(counts.concurrency)
            if index == 0:
                per_turn = {
                    name: await self.events_per_turn(pool[0], getattr(counts, name)) for name in ("small", "large")
                }
            await self.turns(pool, chunk, counts.small if index % 2 == 0 else counts.large, counts.concurrency)
            await self.delete(pool)
        self.sessions = await self.create(counts.sessions)
        return per_turn

    async def memory_phase(self, name: str, deltas: int, counts: Counts) -> None:
        before = await self.snapshot()
        result = await self.turns(self.sessions, counts.runs, deltas, counts.concurrency)
        after = await self.snapshot()
        self.phases[name] = {
            "deltas": deltas,
            "turns": result.ok,
            "wall_s": result.wall_s,
            "server_cpu_us_per_turn": result.server_cpu_ns / result.ok / 1000,
            "latency": summarize(result.latencies_ns),
            "other_cpu_util": result.other_busy_ns / 1e9 / result.wall_s if result.wall_s else None,
            "before": before,
            "after": after,
        }


async def rejoin_rounds(host: Host, counts: Counts, log: Callable[[str], None]) -> dict[str, Any]:
    """Round after round: an ordinary stream, a rejoin of it once finished, a live run rejoined; the order of
    the ordinary and the live part alternates between rounds."""
    api, port = host.api, host.target.port
    opened = [await StreamConnection.open("127.0.0.1", port, api.headers) for _ in range(3)]
    ordinary, rejoin, live = opened
    first: dict[str, list[float]] = {"stream": [], "rejoin.finished": [], "rejoin.live": []}
    total: dict[str, list[float]] = {"stream": [], "rejoin.finished": []}
    replayed = {"rejoin.finished": 0, "rejoin.live": 0}
    stateless = {"provider": "echo", "model": "echo-1"}

    async def finished(record: bool, n: int) -> None:
        body = orjson.dumps(stateless | {"input": chunked_text(counts.rejoin_deltas)(n)})
        answer = await ordinary.fetch(Request("POST", "/v1/runs/stream", body, stream=True))
        events = len(answer.events)
        if events != counts.rejoin_deltas + 2:
            raise AssertionError(f"expected {counts.rejoin_deltas + 2} events, got {events}: {answer.text()}")
        run_id = orjson.loads(answer.events[0].data)["runId"]
        middle = events // 2
        again = await rejoin.fetch(Request("GET", f"/v1/runs/{run_id}/events", stream=True), _after(middle))
        if [e.id for e in again.events] != list(range(middle + 1, events + 1)):
            raise AssertionError(f"rejoin after {middle} of {events}: {[e.id for e in again.events]}")
        if record:
            first["stream"].append(answer.first_event_ms())
            total["stream"].append(answer.total_ms())
            first["rejoin.finished"].append(again.first_event_ms())
            total["rejoin.finished"].append(again.total_ms())
            replayed["rejoin.finished"] += len(again.events)

    async def running(record: bool, n: int) -> None:
        sent = counts.live_deltas + 1  # run.started and the deltas before the run stops making progress
        body = orjson.dumps(stateless | {"input": chunked_text(counts.rejoin_deltas, counts.live_deltas)(n)})
        own = live.send(Request("POST", "/v1/runs/stream", body, stream=True))
        async with asyncio.timeout(10):
            await own.until(sent)
        run_id = orjson.loads(own.events[0].data)["runId"]
        middle = sent // 2
        again = rejoin.send(Request("GET", f"/v1/runs/{run_id}/events", stream=True), _after(middle))
        async with asyncio.timeout(10):
            await again.until(sent)
        if again.events[0].id != middle + 1:
            raise AssertionError(f"live rejoin after {middle} began at {again.events[0].id}")
        await host.control.fetch(Request("POST", f"/v1/runs/{run_id}/cancel"))
        async with asyncio.timeout(10):
            await asyncio.gather(own.end(), again.end())
        if record:
            first["rejoin.live"].append(again.first_event_ms())
            replayed["rejoin.live"] += sent - middle

    try:
        for index in range(counts.warmup_rounds + counts.rounds):
            record = index >= counts.warmup_rounds
            parts = (finished, running) if index % 2 == 0 else (running, finished)
            for part in parts:
                await part(record, host.serial)
                host.serial += 1
    finally:
        for connection in opened:
            await connection.close()
    log(f"  {host.target.spec.name:5} rejoin           {counts.rounds:6} rounds")
    return {
        "rounds": counts.rounds,
        "first_event": {name: summarize([int(v * 1e6) for v in values]) for name, values in first.items()},
        "last_event": {name: summarize([int(v * 1e6) for v in values]) for name, values in total.items()},
        "events_replayed": replayed,
    }


def _after(event_id: int) -> dict[str, str]:
    return {"Last-Event-ID": str(event_id)}


def _response(answer: Answer) -> Response:
    return Response(answer.status, bytes(answer.body))
