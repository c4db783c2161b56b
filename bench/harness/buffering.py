"""What keeping runs for rejoining costs: RSS per kept run and per buffered event, time to first replayed event.

    ../.venv/bin/python -m harness.buffering            # this section alone -> results/buffering.json
    ../.venv/bin/python -m harness                      # make bench: the same section, in results/latest.json

The host logs every event of every run (``run.started``, each delta, the outcome) and keeps an ended run
readable for ``runs.retentionMs`` (5 minutes), ``runs.maxEntries`` (1,000) of them at most. Two hosts
run side by side on the server core, started and pinned as ``make bench`` does, from one host JSON that
differs only in its ``runs`` block:

- ``kept``: the defaults (every run of the last 5 minutes kept, 1,000 at most);
- ``keep1``: ``"runs": {"maxEntries": 1}`` (one ended run kept: almost nothing).

Memory. Each host streams the same session turns (history mode, ``Counts.concurrency`` lanes): first
``runs`` turns of ``small`` deltas each, then ``runs`` turns of ``large`` deltas (the echo provider's
``!chunks N`` directive), RSS and the ``agentic_driver_run_event_bytes`` and ``agentic_driver_runs_retained``
gauges read before and after each phase. What ``kept`` grows beyond ``keep1`` over the first phase,
per run it then keeps, is the RSS of a kept run; the second phase replaces those runs by runs with more
events, so its growth beyond ``keep1`` gives the RSS per buffered event. The same arithmetic on the gauge
gives the bytes the host counts toward ``maxRunEventBytes``, and the two are compared.

Rejoin. On ``kept`` (holding its 1,000 kept runs), round after round: an ordinary streamed run
(``POST /v1/runs/stream``, time to first event and to its end); a rejoin of that finished run from the
middle (``GET /v1/runs/{id}/events`` with ``Last-Event-ID``); and a live run (``!hangafter``: it stops
after some deltas and stays running), rejoined from the middle of what it sent, then cancelled. Time to
first event is measured from writing the request to the first complete SSE block, as ``stream.c1`` is.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httptools
import orjson

from . import procstat, targets
from .httpclient import Request, Response, encode_request
from .loadgen import PhaseResult, open_connections, run_phase
from .run import TEXT, turn_lanes
from .stats import ratio, summarize
from .targets import AgenticApi, RunningTarget, Session, TargetSpec

__all__ = [
    "COUNTS",
    "RECORDED_CPU_SPREAD",
    "Counts",
    "StreamConnection",
    "compare_recorded",
    "cpu_line",
    "derive",
    "main",
    "measure",
    "recorded_baseline",
    "table",
]

RESULTS = targets.BENCH / "results"

RECORDED_CPU_SPREAD = (2.06, 2.40)
"""Host/floor CPU per turn in the two ``make bench`` runs behind the committed ``results/latest.json``
(bench/README.md, "Latest results"): the run-to-run spread the bar "buffering must not move the CPU per
turn ratio beyond the run-to-run spread" is read against. Update it with the committed results."""


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


# -- a streaming SSE client ------------------------------------------------------------------------


@dataclass(slots=True)
class Event:
    id: int | None
    type: str
    data: bytes
    at_ns: int
    """``perf_counter_ns`` when the block that completed it arrived."""


@dataclass(slots=True)
class Answer:
    """One response, readable while it arrives: its events as they complete, then its end."""

    sent_ns: int
    done: asyncio.Future[None]
    status: int = 0
    body: bytearray = field(default_factory=bytearray)
    events: list[Event] = field(default_factory=list)
    ended_ns: int = 0
    _pending: bytes = b""
    _changed: asyncio.Future[None] | None = None

    def feed(self, chunk: bytes) -> None:
        now = time.perf_counter_ns()
        self.body += chunk
        self._pending += chunk
        while (end := self._pending.find(b"\n\n")) >= 0:
            block, self._pending = self._pending[:end], self._pending[end + 2 :]
            event_id, kind, data = None, "message", b""
            for line in block.split(b"\n"):
                name, _, value = line.partition(b": ")
                if name == b"id":
                    event_id = int(value)
                elif name == b"event":
                    kind = value.decode()
                elif name == b"data":
                    data = value
            if data or event_id is not None:  # not a comment (heartbeat)
                self.events.append(Event(event_id, kind, data, now))
        self._wake()

    def finish(self) -> None:
        self.ended_ns = time.perf_counter_ns()
        if not self.done.done():
            self.done.set_result(None)
        self._wake()

    def fail(self, error: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(error)
        self._wake()

    def _wake(self) -> None:
        if self._changed is not None and not self._changed.done():
            self._changed.set_result(None)
        self._changed = None

    @property
    def last_id(self) -> int:
        return next((e.id for e in reversed(self.events) if e.id is not None), 0)

    async def until(self, event_id: int) -> None:
        """Wait until the event with this id (or a later one) arrived; raise if the response ends first."""
        while self.last_id < event_id:
            if self.done.done():
                self.done.result()  # raises a connection error
                raise AssertionError(f"the response ended at event {self.last_id}, before {event_id}: {self.text()}")
            self._changed = asyncio.get_running_loop().create_future()
            await asyncio.wait((self._changed, self.done), return_when="FIRST_COMPLETED")

    async def end(self) -> None:
        await self.done

    def text(self) -> str:
        return bytes(self.body[:300]).decode("utf-8", "replace")

    def first_event_ms(self) -> float:
        return (self.events[0].at_ns - self.sent_ns) / 1e6

    def total_ms(self) -> float:
        return (self.ended_ns - self.sent_ns) / 1e6


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.answer: Answer | None = None
        self.lost: BaseException | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as error:
            if self.answer is not None:
                self.answer.fail(ConnectionError(f"bad HTTP response: {error}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or ConnectionError("connection closed by the server")
        if self.answer is not None:
            self.answer.fail(self.lost)

    def on_headers_complete(self) -> None:
        if self.answer is not None:
            self.answer.status = self.parser.get_status_code()

    def on_body(self, body: bytes) -> None:
        if self.answer is not None:
            self.answer.feed(body)

    def on_message_complete(self) -> None:
        if self.answer is not None:
            self.answer.finish()


class StreamConnection:
    """One keep-alive HTTP/1.1 connection whose answers can be read event by event while they arrive."""

    def __init__(self, protocol: _Protocol, host: str, headers: dict[str, str]) -> None:
        self._protocol, self._host, self._headers = protocol, host, headers

    @classmethod
    async def open(cls, host: str, port: int, headers: dict[str, str]) -> StreamConnection:
        _, protocol = await asyncio.get_running_loop().create_connection(_Protocol, host, port)
        return cls(protocol, f"{host}:{port}", headers)

    def send(self, request: Request, headers: dict[str, str] | None = None) -> Answer:
        """Write the request now; the answer fills in as it arrives (one request at a time per connection)."""
        protocol = self._protocol
        if protocol.lost is not None or protocol.transport is None:
            raise ConnectionError("connection is closed")
        if protocol.answer is not None and not protocol.answer.done.done():
            raise RuntimeError("the previous answer on this connection has not ended")
        raw = encode_request(request, self._host, self._headers | (headers or {}))
        answer = Answer(time.perf_counter_ns(), asyncio.get_running_loop().create_future())
        protocol.answer = answer
        protocol.transport.write(raw)
        return answer

    async def fetch(self, request: Request, headers: dict[str, str] | None = None, expect: int = 200) -> Answer:
        answer = self.send(request, headers)
        async with asyncio.timeout(30):  # a host that stops answering fails the section, not hangs it
            await answer.end()
        if answer.status != expect:
            raise AssertionError(f"{request.method} {request.path}: {answer.status} {answer.text()}")
        return answer

    async def close(self) -> None:
        if self._protocol.transport is not None:
            self._protocol.transport.close()


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


async def _measure(hosts: dict[str, Host], counts: Counts, log: Callable[[str], None]) -> dict[str, Any]:
    per_turn = {}
    for name, host in hosts.items():
        per_turn[name] = await host.warm_up(counts)
    # Alternate which host goes first, so a drift in machine load touches both alike.
    for index, (phase, deltas) in enumerate((("small", counts.small), ("large", counts.large))):
        order = list(hosts.values()) if index % 2 == 0 else list(reversed(hosts.values()))
        for host in order:
            await host.memory_phase(phase, deltas, counts)
            data = host.phases[phase]
            log(f"  {host.target.spec.name:5} stream.{deltas}-deltas {data['turns']:6} req  {data['wall_s']:6.2f} s")
    rejoin = await rejoin_rounds(hosts["kept"], counts, log)
    return {
        "events_per_turn": per_turn["kept"],
        "phases": {name: host.phases for name, host in hosts.items()},
        "rejoin": rejoin,
    }


def measure(
    counts: Counts = COUNTS,
    *,
    server_cpus: set[int] | None,
    priority: bool = False,
    log: Callable[[str], None] = print,
    host_src: Path | None = None,
) -> dict[str, Any]:
    """Start both hosts, run the memory phases on each and the rejoin rounds on ``kept``, stop them; the raw
    measurements and what they give (``derive``). ``host_src``: run the hosts from that ``server/src``."""
    started = time.time()
    logs = RESULTS / "logs"
    running: dict[str, RunningTarget] = {}
    try:
        for name, runs in HOSTS.items():
            running[name] = targets.start(host_spec(name, runs, host_src), logs, server_cpus, priority=priority)

        async def run() -> dict[str, Any]:
            hosts = {name: await Host.open(target) for name, target in running.items()}
            try:
                return await _measure(hosts, counts, log)
            finally:
                for host in hosts.values():
                    await host.control.close()

        from .run import _run_loop

        measured = _run_loop(run())
    finally:
        for target in running.values():
            target.stop()
    section = {
        "counts": dataclasses.asdict(counts),
        "hosts": {name: host_spec(name, runs).description for name, runs in HOSTS.items()},
        "host_src": str(host_src) if host_src is not None else None,
        "duration_s": time.time() - started,
        **measured,
    }
    section["derived"] = derive(section)
    return section


# -- what the measurements give ------------------------------------------------------------------------


def _delta(phase: dict[str, Any], key: str) -> float:
    return float(phase["after"].get(key, 0.0) - phase["before"].get(key, 0.0))


def _turnover(phase: dict[str, Any], runs: int) -> tuple[float, float]:
    """(runs of this phase a host keeps at its end, runs of the phase before it that it evicted meanwhile)."""
    before, after = phase["before"].get("runs_retained", 0.0), phase["after"].get("runs_retained", 0.0)
    added = min(float(runs), after)
    return added, min(before, max(0.0, before + runs - after))


def derive(section: dict[str, Any]) -> dict[str, Any]:
    """Per kept run and per buffered event: RSS, and the bytes the host counts (the gauge); ratios; CPU.

    Growth is always ``kept``'s beyond ``keep1``'s, and so are run counts: keep1 keeps one run too. With
    ``m(e) = a + b*e`` the cost of a kept run of ``e`` events: the first phase keeps ``n1`` more runs of
    ``e1`` events (``m1 = growth / n1``); the second keeps ``n2`` more runs of ``e2`` events while evicting
    ``x`` more of the first phase's (``m2 = (growth + x*m1) / n2``). Per event ``b = (m2 - m1) / (e2 - e1)``
    (the output text is the same in both phases, so this is what an event costs beyond its text), and the
    rest of a run ``a = m1 - b*e1``.
    """
    phases = section["phases"]
    runs = section["counts"]["runs"]
    kept, keep1 = phases["kept"], phases["keep1"]
    e1, e2 = section["events_per_turn"]["small"], section["events_per_turn"]["large"]
    out: dict[str, Any] = {"events_per_run": {"small": e1, "large": e2}}
    n1 = _delta(kept["small"], "runs_retained") - _delta(keep1["small"], "runs_retained")
    (kept_added, kept_evicted), (keep1_added, keep1_evicted) = (_turnover(h["large"], runs) for h in (kept, keep1))
    n2, evicted = kept_added - keep1_added, kept_evicted - keep1_evicted
    for measure_name, key in (("rss", "rss"), ("counted", "run_event_bytes")):
        growth1 = _delta(kept["small"], key) - _delta(keep1["small"], key)
        growth2 = _delta(kept["large"], key) - _delta(keep1["large"], key)
        m1 = growth1 / n1 if n1 > 0 else None
        m2 = (growth2 + evicted * m1) / n2 if m1 is not None and n2 > 0 else None
        b = (m2 - m1) / (e2 - e1) if m1 is not None and m2 is not None and e2 != e1 else None
        a = m1 - b * e1 if m1 is not None and b is not None else None
        out[measure_name] = {
            "growth_small_bytes": growth1,
            "growth_large_bytes": growth2,
            "per_run_small": m1,
            "per_run_large": m2,
            "per_event": b,
            "per_run_beyond_events": a,
        }
    out["runs_kept"] = {"small": n1, "large": n2, "evicted": evicted}
    rss, counted = out["rss"], out["counted"]
    out["rss_over_counted"] = {
        key: ratio(rss[key], counted[key]) for key in ("per_run_small", "per_run_large", "per_event")
    }
    out["cpu_kept_over_keep1"] = {
        name: ratio(kept[name]["server_cpu_us_per_turn"], keep1[name]["server_cpu_us_per_turn"])
        for name in ("small", "large")
    }
    first = section["rejoin"]["first_event"]
    out["rejoin"] = {
        f"{name}.{pct}": {
            "ms": first[name][f"{pct}_ms"],
            "stream_ms": first["stream"][f"{pct}_ms"],
            "minus_stream_ms": first[name][f"{pct}_ms"] - first["stream"][f"{pct}_ms"],
            "over_stream": ratio(first[name][f"{pct}_ms"], first["stream"][f"{pct}_ms"]),
        }
        for name in ("rejoin.finished", "rejoin.live")
        for pct in ("p50", "p99")
    }
    return out


def recorded_baseline(path: Path | None = None) -> dict[str, Any] | None:
    """Host and floor CPU per turn of the committed results (``git show HEAD:bench/results/latest.json``, else
    the file as it is), read before a run writes over it; None when there are none."""
    from . import report

    text = None
    if path is None:
        import subprocess

        with contextlib.suppress(OSError, subprocess.SubprocessError):
            shown = subprocess.run(
                ["git", "show", "HEAD:bench/results/latest.json"],
                cwd=targets.BENCH,
                capture_output=True,
                timeout=30,
                check=True,
            )
            text, source = shown.stdout, "git HEAD:bench/results/latest.json"
        path = RESULTS / "latest.json"
    if text is None:
        try:
            text, source = path.read_bytes(), str(path)
        except OSError:
            return None
    try:
        recorded = json.loads(text)
        host, floor = recorded["targets"]["host"], recorded["targets"]["floor"]
    except (ValueError, KeyError, TypeError):
        return None
    host_us, floor_us = (report.turn_cpu_us(t, report.TURN_PHASES) for t in (host, floor))
    return {
        "source": source,
        "started": (recorded.get("meta") or {}).get("started"),
        "host_us": host_us,
        "floor_us": floor_us,
        "host_over_floor": ratio(host_us, floor_us),
        "spread": list(RECORDED_CPU_SPREAD),
    }


def compare_recorded(results: dict[str, Any], baseline: dict[str, Any] | None) -> dict[str, Any]:
    """This run's host/floor CPU per turn (which now includes the run log) against the recorded results and
    their run-to-run spread; ``status`` is met while it stays at or below the spread's top."""
    from . import report

    t = results.get("targets") or {}
    host, floor = (t.get(n) if (t.get(n) or {}).get("available") else None for n in ("host", "floor"))
    host_us = report.turn_cpu_us(host, report.TURN_PHASES) if host else None
    floor_us = report.turn_cpu_us(floor, report.TURN_PHASES) if floor else None
    now = ratio(host_us, floor_us)
    spread = list((baseline or {}).get("spread") or RECORDED_CPU_SPREAD)
    recorded = (baseline or {}).get("host_over_floor")
    status = "not available" if now is None else ("met" if now <= max(spread) else "missed")
    return {
        "target": "host/floor CPU per turn within the recorded run-to-run spread",
        "status": status,
        "host_over_floor": now,
        "host_us": host_us,
        "floor_us": floor_us,
        "recorded": baseline,
        "over_recorded": ratio(now, recorded),
        "over_spread_top": ratio(now, max(spread)),
    }


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _b(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _x(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def table(section: dict[str, Any], cpu: dict[str, Any] | None = None) -> str:
    """The section as printed after the main tables."""
    d = section.get("derived") or derive(section)
    counts = section["counts"]
    e1, e2 = d["events_per_run"]["small"], d["events_per_run"]["large"]
    rss, counted = d["rss"], d["counted"]
    lines = [
        "buffering for rejoin (kept: runs defaults, 1,000 kept; keep1: runs.maxEntries 1), "
        f"{counts['runs']:,} session turns per phase at c{counts['concurrency']}",
        f"{'figure':44} {'RSS, B':>10} {'counted, B':>11} {'RSS/counted':>11}",
    ]
    for label, key in (
        (f"per kept run, {e1} events ({counts['small']} delta)", "per_run_small"),
        (f"per kept run, {e2} events ({counts['large']} deltas)", "per_run_large"),
        ("per buffered event (delta)", "per_event"),
    ):
        lines.append(f"{label:44} {_b(rss[key]):>10} {_b(counted[key]):>11} {_x(d['rss_over_counted'][key]):>11}")
    lines.append(
        f"{'per kept run beyond its events':44} {_b(rss['per_run_beyond_events']):>10} "
        f"{_b(counted['per_run_beyond_events']):>11}"
    )
    kept = section["phases"]["kept"]
    keep1 = section["phases"]["keep1"]
    lines.append(
        "server CPU per streamed turn, kept / keep1: "
        + ", ".join(
            f"{counts[name]} deltas {kept[name]['server_cpu_us_per_turn']:.0f} / "
            f"{keep1[name]['server_cpu_us_per_turn']:.0f} us ({_x(d['cpu_kept_over_keep1'][name])})"
            for name in ("small", "large")
        )
    )
    lines.append("")
    r = section["rejoin"]
    lines.append(
        f"time to first event, {r['rounds']} alternating rounds on kept: an ordinary stream "
        f"({counts['rejoin_deltas']} deltas), its rejoin from the middle once finished, a live run's rejoin"
    )
    lines.append(f"{'':34} {'p50 ms':>9} {'p99 ms':>9} {'p50 vs stream':>20} {'p99 vs stream':>20}")
    first = r["first_event"]
    lines.append(f"{'POST /v1/runs/stream':34} {_ms(first['stream']['p50_ms']):>9} {_ms(first['stream']['p99_ms']):>9}")
    for name, label in (("rejoin.finished", "GET events, finished run"), ("rejoin.live", "GET events, live run")):
        cells = []
        for pct in ("p50", "p99"):
            v = d["rejoin"][f"{name}.{pct}"]
            cells.append(f"{v['minus_stream_ms']:+.3f} ms {_x(v['over_stream']):>6}")
        lines.append(
            f"{label:34} {_ms(first[name]['p50_ms']):>9} {_ms(first[name]['p99_ms']):>9} {cells[0]:>20} {cells[1]:>20}"
        )
    last = r["last_event"]
    replayed = r["events_replayed"]["rejoin.finished"] / r["rounds"] if r["rounds"] else 0
    lines.append(
        f"to the last event, p50: stream {_ms(last['stream']['p50_ms'])} ms ({counts['rejoin_deltas'] + 2} events), "
        f"finished rejoin {_ms(last['rejoin.finished']['p50_ms'])} ms ({replayed:.0f} events replayed)"
    )
    if cpu:
        lines.append("")
        lines.append(cpu_line(cpu))
    return "\n".join(lines)


def cpu_line(cpu: dict[str, Any]) -> str:
    """This run's host/floor CPU per turn against the recorded one and its spread, in one line."""
    recorded = cpu.get("recorded") or {}
    spread = recorded.get("spread") or list(RECORDED_CPU_SPREAD)
    floor_now, floor_then = cpu.get("floor_us"), recorded.get("floor_us")
    return (
        f"CPU per turn host/floor (now with the run log): {_x(cpu['host_over_floor'])} this run; "
        f"recorded {_x(recorded.get('host_over_floor'))} ({recorded.get('started') or 'n/a'}), "
        f"run-to-run spread {spread[0]:.2f}-{spread[1]:.2f}x: {cpu['status']} "
        f"({_x(cpu['over_spread_top'])} the spread's top); the floor's own CPU per turn "
        f"{_b(floor_now)} us now, {_b(floor_then)} us then (the machine's state moves the ratio too)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.buffering", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(RESULTS / "buffering.json"))
    parser.add_argument("--runs", type=int, default=COUNTS.runs, help="turns per memory phase (default 1000)")
    parser.add_argument("--rounds", type=int, default=COUNTS.rounds, help="rejoin rounds (default 300)")
    parser.add_argument("--host-src", help="run the hosts from this server/src directory (PYTHONPATH) instead")
    options = parser.parse_args(argv)
    counts = dataclasses.replace(COUNTS, runs=options.runs, rounds=options.rounds)
    server_cores, client_cores = targets.server_cpus()
    own_cores = os.sched_getaffinity(0)
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    shell_autogroup = targets.autogroup_nice()
    priority = targets.raise_priority()
    log = lambda line: print(line, flush=True)  # noqa: E731
    try:
        host_src = Path(options.host_src) if options.host_src else None
        section = measure(counts, server_cpus=server_cores, priority=priority, log=log, host_src=host_src)
    finally:
        targets.restore_autogroup(shell_autogroup)
        os.sched_setaffinity(0, own_cores)
    results = {
        "meta": {
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - section["duration_s"])),
            "machine": {"cpus": os.cpu_count()},
            "load_average": os.getloadavg(),
        },
        "buffering": section,
    }
    out = Path(options.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
    print()
    print(table(section))
    with contextlib.suppress(ValueError):
        print(f"\nresults: {out.relative_to(Path.cwd())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
