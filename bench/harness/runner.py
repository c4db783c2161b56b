"""The benchmark run's phases on each target: the counts, the ``Runner`` that drives one target through
every phase, and ``measure``, which starts the targets and steps their runners alternately.

The phases themselves are listed in ``run.py``'s docstring; ``run.py`` puts the results of ``measure``
together with the other sections into one results document.
"""

from __future__ import annotations

import asyncio
import dataclasses
import http.client
import json
import statistics
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import procstat, targets
from .httpclient import Response
from .lanes import _lanes, merge, message_bytes, turn_lanes, turn_text
from .loadgen import PhaseResult, Work, open_connections, run_phase
from .targets import RunningTarget, Session, TargetSpec, TargetUnavailable

RESULTS = targets.BENCH / "results"


@dataclass(frozen=True, slots=True)
class Counts:
    warmup_sessions: int = 64
    warmup_turns: int = 256
    create: int = 512
    turn_c1: int = 1024
    turn_c8: int = 1024
    turn_c32: int = 2048
    stream: int = 256
    read: int = 512
    delete: int = 512
    fill_sessions: int = 1000
    fill_turns: int = 10
    fill_concurrency: int = 250
    fill_budget_s: float = 60.0
    probe_turns: int = 1024
    starts: int = 3


COUNTS = Counts()
PEER_COUNTS = Counts(create=256, read=256, delete=256, turn_c1=6, turn_c8=48, turn_c32=96, stream=6, warmup_turns=64)
"""The peer answers a turn only after its in-memory queue polls (0.5 s sleeps), so each turn takes
about a second whatever the load: the same counts would take many minutes. Percentiles of its
latency-bound phases therefore rest on fewer samples; CPU per turn is per request either way."""


class Runner:
    def __init__(
        self, target: RunningTarget, counts: Counts, client: str = "raw", log: Callable[[str], None] = print
    ) -> None:
        self.target = target
        self.api = target.spec.api
        self.counts = counts
        self.client = client
        self.log = log
        self.phases: dict[str, PhaseResult] = {}
        self.serial = 0
        self.idle_cpu_ms = 0.0
        self.full_idle_cpu_ms = 0.0
        self.memory: dict[str, Any] = {}

    async def phase(self, name: str | None, lanes: list[list[Work]], *, client: str | None = None) -> PhaseResult:
        """Run lanes on fresh connections; record the result under ``name`` (None: warm-up, not recorded)."""
        if self.target.process.poll() is not None:
            raise TargetUnavailable(f"{self.target.spec.name} exited (status {self.target.process.returncode})")
        connections = await open_connections(
            client or self.client, "127.0.0.1", self.target.port, self.api.headers, len(lanes)
        )
        try:
            result = await run_phase(name or "warmup", lanes, server_pid=self.target.pid, connections=connections)
        finally:
            await asyncio.gather(*(c.close() for c in connections), return_exceptions=True)
        if name is not None:
            self.record(result)
        return result

    async def create(self, name: str | None, count: int, concurrency: int) -> list[Session]:
        made: list[Session] = []

        def done(response: Response) -> None:
            made.append(self.api.created(response))

        work = [Work(make=self.api.create, expect=self.api.create_status, done=done) for _ in range(count)]
        await self.phase(name, _lanes(work, concurrency))
        return made

    async def turns(
        self,
        name: str | None,
        pool: Sequence[Session],
        concurrency: int,
        count: int,
        *,
        stream: bool = False,
        client: str | None = None,
    ) -> PhaseResult:
        lanes = turn_lanes(self.api, pool, concurrency, count, stream=stream, start=self.serial)
        self.serial += count
        return await self.phase(name, lanes, client=client)

    async def chunked_turns(
        self, name: str, pool: Sequence[Session], count: int, *, stream: bool = False, chunk: int = 128
    ) -> AsyncIterator[str]:
        """Concurrency-1 turns in chunks, yielding between them: two targets' latency samples interleave finely."""
        parts: list[PhaseResult] = []
        done = 0
        while done < count:
            size = min(chunk, count - done)
            offset = done % len(pool)
            rotated = [*pool[offset:], *pool[:offset]]
            parts.append(await self.turns(None, rotated, 1, size, stream=stream))
            done += size
            yield name
        self.record(merge(name, parts))

    def record(self, result: PhaseResult) -> None:
        self.phases[result.name] = result
        note = f" ({result.errors} errors: {result.error_samples[:1]})" if result.errors else ""
        self.log(f"  {self.target.spec.name:5} {result.name:16} {result.requests:6} req  {result.wall_s:6.2f} s{note}")

    async def reads(self, name: str | None, pool: Sequence[Session], count: int) -> None:
        chosen = [pool[i % len(pool)] for i in range(count)]
        work = [Work(make=lambda s=s: self.api.read(s)) for s in chosen]
        await self.phase(name, [work])

    async def deletes(self, name: str | None, pool: Sequence[Session], concurrency: int = 1) -> None:
        work = [Work(make=lambda s=s: self.api.delete(s), expect=self.api.delete_status) for s in pool]
        await self.phase(name, _lanes(work, concurrency))

    async def idle_cpu(self, seconds: float = 1.0) -> float:
        """The server's background CPU, ms per second, while nothing is asked of it."""
        before = procstat.sample(self.target.pid).cpu_ns
        await asyncio.sleep(seconds)
        return (procstat.sample(self.target.pid).cpu_ns - before) / 1e6 / seconds

    def rss(self) -> int:
        return procstat.sample(self.target.pid).rss_bytes

    async def steps(self, streaming: bool, probe: bool) -> AsyncIterator[str]:
        """Every phase in order, yielding after each so that two targets' phases can alternate."""
        c = self.counts
        # Warm-up: imports, caches and allocator arenas settle before anything is recorded.
        pool = await self.create(None, c.warmup_sessions, 8)
        await self.turns(None, pool, 8, c.warmup_turns)
        if streaming:
            await self.turns(None, pool, 8, min(c.warmup_turns, 64), stream=True)
        await self.reads(None, pool, len(pool))
        await self.deletes(None, pool, 8)
        yield "warmup"
        self.idle_cpu_ms = await self.idle_cpu()
        yield "idle"

        # The store holds only the sessions these phases use.
        pool = await self.create("create", c.create, 1)
        yield "create"
        async for step in self.chunked_turns("turn.c1", pool, c.turn_c1):
            yield step
        await self.turns("turn.c8", pool, 8, c.turn_c8)
        yield "turn.c8"
        await self.turns("turn.c32", pool, 32, c.turn_c32)
        yield "turn.c32"
        if streaming:
            async for step in self.chunked_turns("stream.c1", pool, c.stream, stream=True):
                yield step
        await self.reads("read", pool, c.read)
        yield "read"
        await self.deletes("delete", pool[: c.delete])
        await self.deletes(None, pool[c.delete :], 8)
        yield "delete"

        # The fill: sessions x turns, round by round so a stopped fill leaves every session alike.
        await asyncio.sleep(0.2)
        rss_empty = self.rss()
        filled = await self.create("fill.create", c.fill_sessions, c.fill_concurrency)
        await asyncio.sleep(0.2)
        rss_sessions = self.rss()
        yield "fill.create"
        rounds: list[PhaseResult] = []
        fill_started = time.perf_counter()
        last_round_s = 0.0
        for _ in range(c.fill_turns):
            # Stop before a round that would end past the budget (a round costs at least what the last did).
            if time.perf_counter() - fill_started + last_round_s > c.fill_budget_s:
                break
            round_started = time.perf_counter()
            lanes = turn_lanes(self.api, filled, c.fill_concurrency, len(filled), start=self.serial)
            self.serial += len(filled)
            rounds.append(await self.phase(None, lanes))
            last_round_s = time.perf_counter() - round_started
            yield "fill.turns"
        fill = merge("fill.turns", rounds)
        self.record(fill)
        if len(rounds) < c.fill_turns:
            self.log(
                f"  {self.target.spec.name:5} fill stopped after {len(rounds)} of {c.fill_turns} rounds "
                f"(budget {c.fill_budget_s:.0f} s)"
            )
        await asyncio.sleep(0.2)
        rss_full = self.rss()
        self.full_idle_cpu_ms = await self.idle_cpu()
        yield "idle"

        # The same turn measurements on the full store.
        used = filled[: c.create]
        async for step in self.chunked_turns("full.turn.c1", used, c.turn_c1):
            yield step
        await self.turns("full.turn.c8", used, 8, c.turn_c8)
        yield "full.turn.c8"
        await self.turns("full.turn.c32", used, 32, c.turn_c32)
        yield "full.turn.c32"
        if streaming:
            streamed = filled[c.create : c.create + c.stream]
            async for step in self.chunked_turns("full.stream.c1", streamed, c.stream, stream=True):
                yield step
        await self.reads("full.read", used, c.read)
        yield "full.read"

        if probe:  # the same work through both clients: which side saturates first?
            spare = filled[c.create + c.stream :]
            await self.turns("probe.raw", spare, 32, c.probe_turns, client="raw")
            yield "probe.raw"
            await self.turns("probe.httpx", spare, 32, c.probe_turns, client="httpx")
            yield "probe.httpx"

        stored_turns = fill.ok
        self.memory = {
            "rss_empty": rss_empty,
            "rss_after_sessions": rss_sessions,
            "rss_full": rss_full,
            "sessions": len(filled),
            "turns_stored": stored_turns,
            "fill_rounds": len(rounds),
            "bytes_per_session": (rss_sessions - rss_empty) / len(filled) if filled else None,
            "bytes_per_turn": (rss_full - rss_sessions) / stored_turns if stored_turns else None,
            "bytes_per_message": (rss_full - rss_sessions) / (2 * stored_turns) if stored_turns else None,
            "encoded_message_bytes": message_bytes(turn_text(10**6)),
        }

    def results(self) -> dict[str, Any]:
        phases: dict[str, Any] = {}
        after_fill = False
        for name, result in self.phases.items():
            data = result.to_dict()
            # Net of the background CPU the server burns anyway (measured idle before and after the fill;
            # during the fill, their mean).
            if name == "fill.turns":
                idle_ms = (self.idle_cpu_ms + self.full_idle_cpu_ms) / 2
                after_fill = True
            else:
                idle_ms = self.full_idle_cpu_ms if after_fill else self.idle_cpu_ms
            idle_ns = idle_ms * 1e6
            net = max(0.0, result.server_cpu_ns - idle_ns * result.wall_s)
            data["server_cpu_net_us_per_op"] = net / result.ok / 1000 if result.ok else None
            phases[name] = data
        return {
            "idle_cpu_ms_per_s": self.idle_cpu_ms,
            "full_idle_cpu_ms_per_s": self.full_idle_cpu_ms,
            "phases": phases,
            "memory": self.memory,
        }


def _openapi(port: int) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/openapi.json")
        response = connection.getresponse()
        body = response.read()
        return json.loads(body) if response.status == 200 else {}
    except (OSError, ValueError):
        return {}
    finally:
        connection.close()


def provider_first_output_ms(samples: int = 2000) -> float | None:
    """Median time the echo provider itself takes to yield its first event (in-process, latency 0)."""
    try:
        from agentic_driver.providers.base import ModelRequest, TextDelta
        from agentic_driver.providers.echo import EchoProvider
    except ImportError:
        return None
    provider = EchoProvider(id="echo", models=("echo-1",), account_id="local")
    request = ModelRequest(model="echo-1", input=turn_text(1))

    async def once() -> int:
        started = time.perf_counter_ns()
        events = provider.turn(request, native=False)
        async for event in events:
            if isinstance(event, TextDelta):
                elapsed = time.perf_counter_ns() - started
                await events.aclose()  # type: ignore[attr-defined]
                return elapsed
        return time.perf_counter_ns() - started

    async def many() -> list[int]:
        return [await once() for _ in range(samples)]

    return statistics.median(_run_loop(many())) / 1e6


def _run_loop(coroutine: Any) -> Any:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


@dataclass(slots=True)
class Planned:
    spec: TargetSpec
    counts: Counts
    probe: bool


async def _alternate(runners: Sequence[Runner], streaming: Sequence[bool], probes: Sequence[bool]) -> None:
    """Step every runner through its phases in turn, so slow drifts of machine load touch each alike."""
    active = [r.steps(s, p) for r, s, p in zip(runners, streaming, probes, strict=True)]
    while active:
        for steps in list(active):
            try:
                await anext(steps)
            except StopAsyncIteration:
                active.remove(steps)


def measure(
    plans: Sequence[Planned],
    *,
    server_cpus: set[int] | None,
    priority: bool = False,
    log: Callable[[str], None] = print,
) -> dict[str, dict[str, Any]]:
    """Start the targets together (each start timed, alternating), run their phases alternately, stop them.

    Returns results per target name; a target that cannot start is reported unavailable with the reason.
    """
    logs = RESULTS / "logs"
    out: dict[str, dict[str, Any]] = {}
    startups: dict[str, list[float]] = {p.spec.name: [] for p in plans}
    running: dict[str, RunningTarget] = {}
    try:
        starts = max(p.counts.starts for p in plans)
        for attempt in range(starts):
            for plan in plans:
                name = plan.spec.name
                if name in out:
                    continue
                try:
                    target = targets.start(plan.spec, logs, server_cpus, priority=priority)
                except TargetUnavailable as error:
                    log(f"  {name} unavailable: {error}")
                    out[name] = {"available": False, "reason": str(error)}
                    continue
                startups[name].append(target.startup_s)
                if attempt < starts - 1:
                    target.stop()
                else:
                    running[name] = target
        live = [p for p in plans if p.spec.name in running]
        for plan in live:
            log(
                f"  {plan.spec.name:5} started in {statistics.median(startups[plan.spec.name]) * 1000:.0f} ms "
                f"(median of {len(startups[plan.spec.name])})"
            )
        streaming = [p.spec.api.streaming_available(_openapi(running[p.spec.name].port)) for p in live]
        runners = [Runner(running[p.spec.name], p.counts, log=log) for p in live]
        _run_loop(_alternate(runners, streaming, [p.probe for p in live]))
    finally:
        for target in running.values():
            target.stop()
    for plan, runner, streams in zip(live, runners, streaming, strict=True):
        samples = startups[plan.spec.name]
        out[plan.spec.name] = {
            "available": True,
            "description": plan.spec.description,
            "versions": plan.spec.versions(),
            "startup_s": {"median": statistics.median(samples), "samples": samples},
            "streaming": streams,
            "counts": dataclasses.asdict(plan.counts),
            **runner.results(),
        }
    return out
