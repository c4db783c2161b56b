"""The benchmark run: start each target, drive every phase, collect one results document.

Phases per target, in order (counts in ``COUNTS``; the peer's latency-bound
phases use ``PEER_COUNTS``, see bench/README.md):

1. start-up, three times: process start to first healthy response (median);
2. warm-up (not recorded), then one second idle to record background CPU;
3. ``create`` (concurrency 1) -> a pool of sessions;
4. ``turn.c1``, ``turn.c8``, ``turn.c32``: one turn per request, lanes own disjoint sessions;
5. ``stream.c1``: a streamed turn (time to first event, time to last event), where served;
6. ``read``, ``delete`` (concurrency 1): the store is empty again;
7. ``fill.create`` + ``fill.turns``: 1,000 sessions x 10 turns (250 lanes, round by round, stopping
   before a round that would end past ``Counts.fill_budget_s``), RSS before, between and after,
   then one second idle again;
8. ``full.turn.c1/c8/c32``, ``full.stream.c1``, ``full.read``: the same measurements on the full store;
9. host and floor only: the client probe, the same 1,024 turns at concurrency 32 through the raw
   client and through httpx, to see which side saturates first.

After host and floor, the buffering section (``buffering.py``) starts two more hosts, with and without
kept runs, for what the run log costs (RSS per kept run and per event, time to first replayed event);
then the peer. Host/floor CPU per turn is also set against the committed results and their spread. Last, in
process, the restart snapshot section (``snapshot.py``): write and restore of 1,000 sessions of 10 turns
against encoding and building those sessions' envelopes (``--no-snapshot`` skips it).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import http.client
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from . import procstat, report, targets
from .httpclient import Response
from .loadgen import PhaseResult, Work, open_connections, run_phase
from .targets import Api, RunningTarget, Session, TargetSpec, TargetUnavailable

__all__ = ["COUNTS", "PEER_COUNTS", "Counts", "main", "measure"]

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

TEXT = "the quick brown fox jumps over the lazy dog"


def turn_text(n: int) -> str:
    return f"turn {n}: {TEXT}"


def _lanes(items: Sequence[Work], concurrency: int) -> list[list[Work]]:
    return [list(items[lane::concurrency]) for lane in range(concurrency)]


def turn_lanes(
    api: Api,
    pool: Sequence[Session],
    concurrency: int,
    count: int,
    *,
    stream: bool = False,
    start: int = 0,
    text: Callable[[int], str] = turn_text,
) -> list[list[Work]]:
    """``count`` turns over ``concurrency`` lanes; lane j owns sessions pool[j::concurrency] and cycles over them.

    Turn ``n`` (counted from ``start``) sends ``text(n)``."""
    lanes: list[list[Work]] = []
    per_lane, extra = divmod(count, concurrency)
    serial = start
    for lane in range(concurrency):
        owned = pool[lane::concurrency]
        if not owned:
            raise ValueError(f"{concurrency} lanes need at least {concurrency} sessions, got {len(pool)}")
        work: list[Work] = []
        for k in range(per_lane + (1 if lane < extra else 0)):
            session = owned[k % len(owned)]
            sent = text(serial)
            serial += 1
            build = api.stream_turn if stream else api.turn
            work.append(
                Work(
                    make=lambda s=session, t=sent, b=build: b(s, t),
                    expect=200,
                    done=lambda _r, s=session: api.turned(s),
                )
            )
        lanes.append(work)
    return lanes


def merge(name: str, parts: Sequence[PhaseResult]) -> PhaseResult:
    """One result for consecutive phases (the fill's rounds)."""
    merged = PhaseResult(
        name=name, concurrency=max((p.concurrency for p in parts), default=0), requests=sum(p.requests for p in parts)
    )
    for part in parts:
        merged.errors += part.errors
        merged.error_samples += part.error_samples[: 5 - len(merged.error_samples)]
        merged.wall_s += part.wall_s
        merged.latencies_ns += part.latencies_ns
        merged.first_event_ns += part.first_event_ns
        merged.server_cpu_ns += part.server_cpu_ns
        merged.server_stat_cpu_ns += part.server_stat_cpu_ns
        merged.client_cpu_ns += part.client_cpu_ns
        merged.machine_busy_ns += part.machine_busy_ns
    if parts:
        merged.rss_before, merged.rss_after = parts[0].rss_before, parts[-1].rss_after
    return merged


def message_bytes(text: str) -> float:
    """Mean encoded size of the two visible messages a turn with this input stores (as the host counts them)."""
    user = orjson.dumps({"role": "user", "content": text})
    assistant = orjson.dumps({"role": "assistant", "content": "echo: " + text})
    return (len(user) + len(assistant)) / 2


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


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m harness", description="Host vs floor vs peer, one run.")
    parser.add_argument("--targets", default="host,floor,peer", help="comma-separated subset of host,floor,peer")
    parser.add_argument("--out", default=str(RESULTS / "latest.json"))
    parser.add_argument("--no-probe", action="store_true", help="skip the raw-vs-httpx client probe")
    parser.add_argument(
        "--no-buffering", action="store_true", help="skip the buffering section (kept runs: RSS, rejoin)"
    )
    parser.add_argument(
        "--no-snapshot", action="store_true", help="skip the restart snapshot section (write/restore, in process)"
    )
    parser.add_argument("--no-jwt", action="store_true", help="skip the JWT bearer vs static token section")
    parser.add_argument("--host-src", help="run the host(s) from this server/src directory (PYTHONPATH) instead")
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="results to set CPU per turn against (default: the committed results/latest.json, git HEAD)",
    )
    parser.add_argument(
        "--report", metavar="FILE", help="run nothing: recompute ratios and targets of a results file, print them"
    )
    options = parser.parse_args(argv)
    if options.report:
        return rereport(Path(options.report))
    names = [n.strip() for n in options.targets.split(",") if n.strip()]

    server_cpus, client_cpus = targets.server_cpus()
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    shell_autogroup = targets.autogroup_nice()
    priority = targets.raise_priority()
    try:
        return _run(options, names, server_cpus, client_cpus, priority)
    finally:
        targets.restore_autogroup(shell_autogroup)


def _run(
    options: Any, names: list[str], server_cpus: set[int] | None, client_cpus: set[int] | None, priority: bool
) -> int:
    from . import buffering  # it builds on this module

    started = time.time()
    results: dict[str, Any] = {
        "meta": {
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
            "priority": f"nice {targets.NICE} for servers and client" if priority else "default (not permitted)",
            "pinning": {
                "server_cpus": sorted(server_cpus) if server_cpus else None,
                "client_cpus": sorted(client_cpus) if client_cpus else None,
            },
            "client": "raw (asyncio + httptools, one keep-alive connection per lane) on "
            + ("uvloop" if _has_uvloop() else "asyncio"),
            "counts": dataclasses.asdict(COUNTS),
            "peer_counts": {k: v for k, v in dataclasses.asdict(PEER_COUNTS).items() if getattr(COUNTS, k) != v},
        },
        "targets": {},
    }
    results["meta"]["provider_first_output_ms"] = provider_first_output_ms()
    if options.host_src:
        results["meta"]["host_src"] = str(Path(options.host_src).resolve())
    # Read before this run may write over it.
    baseline = buffering.recorded_baseline(Path(options.baseline) if options.baseline else None)
    log = lambda line: print(line, flush=True)  # noqa: E731
    for name in ("host", "floor", "peer"):
        if name not in names:
            results["targets"][name] = {"available": False, "reason": "not selected (--targets)"}
    # Host and floor run side by side, their phases alternating; the peer alone afterwards, because its
    # in-memory queue keeps polling (and, with a full store, scanning) in the background.
    for group in (("host", "floor"), ("peer",)):
        plans: list[Planned] = []
        for name in (n for n in group if n in names):
            try:
                if name == "peer":
                    targets.ensure_peer_venv(log)
                spec = {"host": targets.host_spec, "floor": targets.floor_spec, "peer": targets.peer_spec}[name]()
                if name == "host" and options.host_src:
                    spec.env["PYTHONPATH"] = str(Path(options.host_src).resolve())
            except TargetUnavailable as error:
                log(f"  {name} unavailable: {error}")
                results["targets"][name] = {"available": False, "reason": str(error)}
                continue
            plans.append(
                Planned(spec, PEER_COUNTS if name == "peer" else COUNTS, probe=name != "peer" and not options.no_probe)
            )
        if plans:
            log(" + ".join(p.spec.name for p in plans) + ":")
            results["targets"].update(measure(plans, server_cpus=server_cpus, priority=priority, log=log))
        if group[0] == "host" and "host" in names and not options.no_buffering:
            log("buffering (kept + keep1):")
            try:
                results["buffering"] = buffering.measure(
                    server_cpus=server_cpus,
                    priority=priority,
                    log=log,
                    host_src=Path(options.host_src) if options.host_src else None,
                )
            except (TargetUnavailable, AssertionError, OSError, TimeoutError) as error:
                # The section's own failure (a host that will not start, an answer it did not expect) is
                # recorded; the figures already measured are still written.
                log(f"  buffering unavailable: {error!r}")
                results["buffering"] = {"available": False, "reason": repr(error)}
    if "host" in names and not options.no_jwt:
        from . import jwt

        log("JWT bearer vs static token (same host JSON, alternating):")
        results["jwt"] = jwt.measure(rounds=3, log=log)
        log(jwt.render(results["jwt"]))
    if not options.no_snapshot:
        from . import snapshot

        log("restart snapshot (in process):")
        results["snapshot"] = snapshot.measure(log=log)
    results["meta"]["duration_s"] = time.time() - started
    results["ratios"] = report.ratios(results)
    results["goals"] = report.goals(results)
    results["bottleneck"] = report.bottleneck(results)
    results["cpu_vs_recorded"] = buffering.compare_recorded(results, baseline)
    out = Path(options.out)
    _write(out, results)
    _print(results)
    with contextlib.suppress(ValueError):
        print(f"\nresults: {out.relative_to(Path.cwd())}")
    return 0


def rereport(path: Path) -> int:
    """Recompute the derived sections of a results file from its measurements, rewrite it, print the tables."""
    from . import buffering

    results = json.loads(path.read_text())
    results["ratios"] = report.ratios(results)
    results["goals"] = report.goals(results)
    results["bottleneck"] = report.bottleneck(results)
    if "buffering" in results and results["buffering"].get("phases"):
        results["buffering"]["derived"] = buffering.derive(results["buffering"])
    if "cpu_vs_recorded" in results:
        results["cpu_vs_recorded"] = buffering.compare_recorded(results, results["cpu_vs_recorded"].get("recorded"))
    _write(path, results)
    _print(results)
    return 0


def _write(out: Path, results: dict[str, Any]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(results, indent=1, sort_keys=False) + "\n")
    tmp.replace(out)


def _print(results: dict[str, Any]) -> None:
    from . import buffering

    print()
    print(report.table(results))
    print()
    print(report.bottleneck_table(results))
    print()
    print(report.goals_table(results))
    section = results.get("buffering")
    if section and section.get("phases"):
        print()
        print(buffering.table(section, results.get("cpu_vs_recorded")))
    elif section:
        print(f"\nbuffering section unavailable: {section.get('reason')}")
    elif results.get("cpu_vs_recorded"):
        print()
        print(buffering.cpu_line(results["cpu_vs_recorded"]))
    if results.get("snapshot"):
        from . import snapshot

        print()
        print(snapshot.table(results["snapshot"]))


def _has_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
