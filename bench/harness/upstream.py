"""What a model call costs through the host over TLS, against a direct keep-alive client (``make bench-upstream``).

    ../.venv/bin/python -m harness.upstream                               # a few minutes
    ../.venv/bin/python -m harness.upstream --rounds 2 --calls 40         # a quick look, well under a minute
    ../.venv/bin/python -m harness.upstream --host-src /tmp/ref/server/src     # another checkout's host
    ../.venv/bin/python -m harness.upstream --compare-src /tmp/ref/server/src  # that host and this one, alternating

Three processes besides the load generator: the TLS fake provider
(``harness.fakeprovider``: its own CA, counts TCP connections, TLS handshakes
and requests), the host (``agentic-driver serve --config``, one provider
instance per adapter and streamed-or-not, each with ``baseUrl`` at the fake
over https, trusting its CA through ``SSL_CERT_FILE`` as a user would), and the
floor (``harness.directclient``: the same provider request through one
long-lived ``httpx.AsyncClient``). The host and the floor are pinned to the
server core, the fake and the load generator to the other one.

Each round runs, for every adapter (openai-chat, anthropic, openai-responses,
gemini), streamed and not, at concurrency 1 and 8, one phase of ``--calls``
model calls through the host (stateless ``POST /v1/runs`` over plain HTTP
keep-alive, one connection per lane, raw client) and one phase straight to the
fake from the floor, in an order that alternates round by round (with
``--compare-src`` the old host takes its turn too). A warm-up pass comes first
and is not recorded. Per row it reports, over every round: connections and
handshakes per call on the host path (the fake's counters over the phase, per
call), and, as medians over the rounds, p50 and p99 per call for both paths and
their difference, and CPU per call of the host process and of the floor
client process, with their ratio; the load average during the run says how
quiet the machine was. Results go to ``bench/results/upstream.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import orjson

from . import procstat
from .fakeprovider import MODEL, PROTOCOLS, REPLY
from .httpclient import Request, Response
from .jsonpipe import Document, JsonChild
from .loadgen import PhaseResult, Work, open_connections, run_phase
from .stats import percentile
from .targets import BENCH, RunningTarget, TargetSpec, host_spec, server_cpus, start

__all__ = [
    "Phase",
    "Row",
    "connections_bar",
    "host_config",
    "instance_id",
    "main",
    "summarize_row",
]

RESULTS = BENCH / "results"
LOGS = RESULTS / "logs"
CONCURRENCY = (1, 8)
API_KEY_ENV = "BENCH_UPSTREAM_API_KEY"
API_KEY = "bench-upstream-key-" + "k" * 16
HOST_TOKEN_ENV = "AGENTIC_DRIVER_TOKEN"  # what host_spec() sets and AgenticApi presents
SEQUENTIAL_BAR = 0.05
ADDED_P50_BAR_US = 1000.0
CALL_TIMEOUT_S = 5.0
"""A phase may take this long per call before the harness gives up on a child (it never should)."""

Pair = tuple[str, bool]
"""(adapter, streamed?)"""


def instance_id(protocol: str, stream: bool) -> str:
    return f"{protocol}-{'sse' if stream else 'json'}"


def host_config(provider_origin: str, pairs: Sequence[Pair]) -> Document:
    """Host JSON with one provider instance per (adapter, streamed?) at ``provider_origin``, and the bench token."""
    providers = [
        {
            "id": instance_id(protocol, stream),
            "kind": protocol,
            # openai-chat posts {baseUrl}/chat/completions; the other adapters put /v1... after the origin themselves
            "baseUrl": provider_origin + ("/v1" if protocol == "openai-chat" else ""),
            "apiKeyEnv": API_KEY_ENV,
            "models": [MODEL],
            "stream": stream,
        }
        for protocol, stream in pairs
    ]
    return {
        "hostId": "bench-upstream",
        "providers": providers,
        "tokens": [{"subject": "bench", "tokenEnv": HOST_TOKEN_ENV, "providers": ["*"]}],
    }


# -- one phase ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phase:
    """One side (a host, or the floor) running ``calls`` model calls of one adapter at one concurrency."""

    calls: int
    errors: int
    p50_us: float
    p99_us: float
    cpu_us: float
    """CPU per call of the side's own process: the host's (its process tree), or the floor client's."""
    provider_cpu_us: float
    """CPU per call of the fake provider over the phase (it pays for every handshake too)."""
    connections: int
    handshakes: int
    resumed: int
    requests: int
    error_samples: tuple[str, ...] = ()


class Counts:
    """The fake's counters and CPU before a phase; ``delta`` gives what the phase added."""

    def __init__(self, fake: JsonChild) -> None:
        self._fake = fake
        self._before = fake.ask({"op": "counters"}, timeout_s=10)
        self._cpu_before = procstat.sample(fake.pid).cpu_ns

    def delta(self) -> tuple[dict[str, int], int]:
        after = self._fake.ask({"op": "counters"}, timeout_s=10)
        cpu = procstat.sample(self._fake.pid).cpu_ns - self._cpu_before
        keys = ("connections", "handshakes", "resumed", "failed_handshakes", "requests", "refused")
        return {key: int(after[key]) - int(self._before[key]) for key in keys}, cpu


def _phase(
    calls: int, latencies_ns: Sequence[int], errors: int, cpu_ns: int, counted: tuple[dict[str, int], int]
) -> Phase:
    """A phase's figures; CPU is per successful call, latencies are those of the answered calls."""
    counters, provider_cpu_ns = counted
    values = sorted(ns / 1000 for ns in latencies_ns)
    per_call = max(calls - errors, 1)
    return Phase(
        calls=calls,
        errors=errors,
        p50_us=percentile(values, 50),
        p99_us=percentile(values, 99),
        cpu_us=cpu_ns / per_call / 1000,
        provider_cpu_us=provider_cpu_ns / per_call / 1000,
        connections=counters["connections"],
        handshakes=counters["handshakes"],
        resumed=counters["resumed"],
        requests=counters["requests"],
    )


def _lane_sizes(calls: int, concurrency: int) -> list[int]:
    per_lane, extra = divmod(calls, concurrency)
    return [per_lane + (1 if lane < extra else 0) for lane in range(concurrency)]


def _run_request(pair: Pair) -> Request:
    body = {"provider": instance_id(*pair), "model": MODEL, "input": "ping"}
    return Request("POST", "/v1/runs", orjson.dumps(body))


async def _drive_host(host: RunningTarget, pair: Pair, concurrency: int, calls: int) -> tuple[PhaseResult, list[str]]:
    """``calls`` stateless runs through the host; answers whose text is not the fake's reply are listed."""
    api = host.spec.api
    request = _run_request(pair)
    wrong: list[str] = []

    def check(response: Response) -> None:
        result = orjson.loads(response.body)
        if result.get("status") != "completed" or (result.get("output") or {}).get("text") != REPLY:
            wrong.append(response.body[:300].decode("utf-8", "replace"))

    work = Work(lambda: request, 200, check)
    lanes = [[work] * size for size in _lane_sizes(calls, concurrency)]
    connections = await open_connections("raw", "127.0.0.1", host.port, api.headers, concurrency)
    try:
        result = await run_phase(f"upstream.c{concurrency}", lanes, server_pid=host.pid, connections=connections)
    finally:
        for connection in connections:
            await connection.close()
    return result, wrong


def measure_host(host: RunningTarget, fake: JsonChild, pair: Pair, concurrency: int, calls: int) -> Phase:
    counts = Counts(fake)
    result, wrong = asyncio.run(_drive_host(host, pair, concurrency, calls))
    counted = counts.delta()
    # An answer without the fake's reply is a failed call (its latency stays among the answered ones).
    phase = _phase(result.requests, result.latencies_ns, result.errors + len(wrong), result.server_cpu_ns, counted)
    return dataclasses.replace(phase, error_samples=tuple((result.error_samples + wrong)[:3]))


def measure_floor(floor: JsonChild, fake: JsonChild, pair: Pair, concurrency: int, calls: int) -> Phase:
    counts = Counts(fake)
    command = {"op": "round", "protocol": pair[0], "stream": pair[1], "calls": calls, "concurrency": concurrency}
    answer = floor.ask(command, timeout_s=30 + calls * CALL_TIMEOUT_S)
    phase = _phase(calls, answer["latencies_ns"], int(answer["errors"]), int(answer["cpu_ns"]), counts.delta())
    return dataclasses.replace(phase, error_samples=tuple(answer["error_samples"]))


# -- rows: a side's phases over the rounds, against the floor's ---------------------------------


def connections_bar(concurrency: int, calls: int) -> float:
    """The issue's bar for connections per model call: 0.05 sequentially, (c + 1) / N at concurrency c."""
    return SEQUENTIAL_BAR if concurrency == 1 else (concurrency + 1) / calls


@dataclass(frozen=True, slots=True)
class Row:
    adapter: str
    stream: bool
    concurrency: int
    host: list[Phase]
    floor: list[Phase]
    """The same rounds, in order: round i of one was run next to round i of the other."""


def _median(phases: Sequence[Phase], name: str) -> float:
    return float(statistics.median(getattr(phase, name) for phase in phases))


def _per_call(phases: Sequence[Phase], name: str) -> float:
    calls = sum(phase.calls for phase in phases)
    return sum(getattr(phase, name) for phase in phases) / calls if calls else float("nan")


def summarize_row(row: Row, calls: int) -> Document:
    """The figures of one row; counts are over every round, times are medians over the rounds."""
    host, floor = row.host, row.floor
    added = {
        name: statistics.median(h - f for h, f in zip(_values(host, name), _values(floor, name), strict=True))
        for name in ("p50_us", "p99_us")
    }
    bar = connections_bar(row.concurrency, calls)
    worst = max(phase.connections / phase.calls for phase in host) if host else float("nan")
    host_cpu, floor_cpu = _median(host, "cpu_us"), _median(floor, "cpu_us")
    return {
        "adapter": row.adapter,
        "stream": row.stream,
        "concurrency": row.concurrency,
        "calls": sum(phase.calls for phase in host),
        "errors": sum(phase.errors for phase in host),
        "floor_errors": sum(phase.errors for phase in floor),
        "connections_per_call": _per_call(host, "connections"),
        "handshakes_per_call": _per_call(host, "handshakes"),
        "resumed_per_call": _per_call(host, "resumed"),
        "requests_per_call": _per_call(host, "requests"),
        "worst_round_connections_per_call": worst,
        "connections_bar": bar,
        "connections_met": worst <= bar,
        "floor_connections_per_call": _per_call(floor, "connections"),
        "host": {name: _median(host, name) for name in ("p50_us", "p99_us", "cpu_us", "provider_cpu_us")},
        "floor": {name: _median(floor, name) for name in ("p50_us", "p99_us", "cpu_us", "provider_cpu_us")},
        "added_p50_us": added["p50_us"],
        "added_p99_us": added["p99_us"],
        "added_p50_met": added["p50_us"] <= ADDED_P50_BAR_US,
        "cpu_ratio": host_cpu / floor_cpu if floor_cpu > 0 else None,
        "error_samples": sorted({s for phase in (*host, *floor) for s in phase.error_samples})[:3],
        "rounds": [
            {"host": dataclasses.asdict(h), "floor": dataclasses.asdict(f)} for h, f in zip(host, floor, strict=True)
        ],
    }


def _values(phases: Sequence[Phase], name: str) -> Iterator[float]:
    return (float(getattr(phase, name)) for phase in phases)


# -- the run -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Settings:
    rounds: int
    calls: int
    concurrency: tuple[int, ...]
    pairs: tuple[Pair, ...]
    hosts: dict[str, str | None]
    """label -> server/src directory to run it from (None: this checkout's)."""


@dataclass(slots=True)
class Load:
    """How busy the machine was: load averages, and the whole machine's busy CPU over the run."""

    before: tuple[float, float, float]
    samples: list[float] = dataclasses.field(default_factory=list)
    started_s: float = dataclasses.field(default_factory=time.perf_counter)
    busy_before_ns: int = dataclasses.field(default_factory=procstat.machine_busy_ns)

    def sample(self) -> None:
        self.samples.append(os.getloadavg()[0])

    def report(self) -> Document:
        wall = time.perf_counter() - self.started_s
        busy = procstat.machine_busy_ns() - self.busy_before_ns
        return {
            "cores": len(os.sched_getaffinity(0)),
            "loadavg_before": list(self.before),
            "loadavg_1m_during_max": max(self.samples, default=float("nan")),
            "loadavg_after": list(os.getloadavg()),
            "machine_busy_cores": busy / 1e9 / wall if wall > 0 else None,
            "wall_s": wall,
        }


def _child_env() -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "HOME")
    return {k: v for k, v in os.environ.items() if k in keep} | {"PYTHONPATH": str(BENCH)}


def _host_spec(label: str, config: Path, ca_file: str, src: str | None) -> TargetSpec:
    spec = host_spec()
    serve = spec.command
    spec.name = f"upstream-{label}"
    spec.command = lambda port: [*serve(port), "--config", str(config)]
    # The CA reaches the host as it would reach a user's: SSL_CERT_FILE, which httpx reads.
    spec.env |= {"SSL_CERT_FILE": ca_file, API_KEY_ENV: API_KEY}
    if src is not None:
        spec.env["PYTHONPATH"] = str(Path(src).resolve())
    spec.description = f"agentic-driver serve --config (8 network instances at the TLS fake), from {src or 'this tree'}"
    return spec


class Bench:
    """The fake, the hosts and the floor, started once; ``phase`` runs one side's phase."""

    def __init__(self, settings: Settings, workdir: Path) -> None:
        self.settings = settings
        server_cores, client_cores = server_cpus()
        python, env = sys.executable, _child_env()
        self.fake = JsonChild(
            "fake-provider",
            [python, "-m", "harness.fakeprovider", "--cert-dir", str(workdir), "--api-key", API_KEY],
            log=LOGS / "upstream-fake-provider.log",
            cpus=client_cores,
            env=env,
            cwd=BENCH,
        )
        self.hosts: dict[str, RunningTarget] = {}
        self.floor: JsonChild | None = None
        try:
            origin = f"https://127.0.0.1:{self.fake.ready['port']}"
            ca_file = str(self.fake.ready["ca_file"])
            config = workdir / "host.json"
            config.write_text(json.dumps(host_config(origin, settings.pairs), indent=2), encoding="utf-8")
            for label, src in settings.hosts.items():
                self.hosts[label] = start(_host_spec(label, config, ca_file, src), LOGS, server_cores)
            self.floor = JsonChild(
                "direct-client",
                [
                    python,
                    "-m",
                    "harness.directclient",
                    "--base-url",
                    origin,
                    "--ca-file",
                    ca_file,
                    "--api-key",
                    API_KEY,
                ],
                log=LOGS / "upstream-direct-client.log",
                cpus=server_cores,
                env=env,
                cwd=BENCH,
            )
        except BaseException:
            self.stop()
            raise

    @property
    def sides(self) -> list[str]:
        return [*self.hosts, "floor"]

    def phase(self, side: str, pair: Pair, concurrency: int, calls: int) -> Phase:
        if side == "floor":
            assert self.floor is not None
            return measure_floor(self.floor, self.fake, pair, concurrency, calls)
        return measure_host(self.hosts[side], self.fake, pair, concurrency, calls)

    def stop(self) -> None:
        if self.floor is not None:
            self.floor.stop()
        for host in self.hosts.values():
            host.stop()
        self.fake.stop()


def _warm_up(bench: Bench) -> None:
    """Every side, adapter and concurrency once, not recorded: imports, TLS contexts, pools; a failure stops the run."""
    for pair in bench.settings.pairs:
        for concurrency in bench.settings.concurrency:
            for side in bench.sides:
                phase = bench.phase(side, pair, concurrency, max(8, 2 * concurrency))
                if phase.errors:
                    raise RuntimeError(
                        f"warm-up: {side} {instance_id(*pair)} c{concurrency}: {phase.errors} failed calls, "
                        f"e.g. {list(phase.error_samples)}; logs in {LOGS}"
                    )


def _rounds(bench: Bench, load: Load) -> dict[tuple[str, Pair, int], list[Phase]]:
    settings = bench.settings
    phases: dict[tuple[str, Pair, int], list[Phase]] = {}
    sides = bench.sides
    for index in range(settings.rounds):
        order = sides[index % len(sides) :] + sides[: index % len(sides)]  # who goes first alternates
        for pair in settings.pairs:
            for concurrency in settings.concurrency:
                for side in order:
                    phases.setdefault((side, pair, concurrency), []).append(
                        bench.phase(side, pair, concurrency, settings.calls)
                    )
        load.sample()
        print(f"  round {index + 1}/{settings.rounds} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    return phases


def run(settings: Settings) -> Document:
    load = Load(before=os.getloadavg())
    own_cores = os.sched_getaffinity(0)
    _, client_cores = server_cpus()
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-upstream-") as workdir:
            bench = Bench(settings, Path(workdir))
            try:
                _warm_up(bench)
                load.sample()
                phases = _rounds(bench, load)
            finally:
                bench.stop()
    finally:
        os.sched_setaffinity(0, own_cores)
    hosts = {
        label: {
            "src": src or "this checkout (server/src)",
            "rows": [
                summarize_row(
                    Row(p, s, c, phases[(label, (p, s), c)], phases[("floor", (p, s), c)]),
                    settings.calls,
                )
                for p, s in settings.pairs
                for c in settings.concurrency
            ],
        }
        for label, src in settings.hosts.items()
    }
    return {"settings": _settings_document(settings), "load": load.report(), "versions": _versions(), "hosts": hosts}


def _settings_document(settings: Settings) -> Document:
    server_cores, client_cores = server_cpus()
    return {
        "rounds": settings.rounds,
        "calls_per_phase": settings.calls,
        "concurrency": list(settings.concurrency),
        "adapters": sorted({p for p, _ in settings.pairs}),
        "pinning": {
            "host_and_floor": sorted(server_cores) if server_cores else None,
            "fake_and_load_generator": sorted(client_cores) if client_cores else None,
        },
        "bars": {"connections_sequential": SEQUENTIAL_BAR, "connections_at_c": "(c+1)/N", "added_p50_us": 1000},
    }


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in ("httpx", "httpcore", "h11", "uvloop", "uvicorn"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "absent"
    return found


# -- the table ---------------------------------------------------------------------------------------


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def format_table(label: str, host: Document, results: Document) -> list[str]:
    settings, load = results["settings"], results["load"]
    lines = [
        f"{label}: {host['src']}",
        f"  model calls through the host vs the direct keep-alive client, medians of {settings['rounds']} rounds"
        f" x {settings['calls_per_phase']} calls a phase; connections and handshakes: the fake's counts per call",
        f"  {'adapter':16} {'body':4} {'c':>2} {'conn/call':>9} {'hs/call':>7}"
        f" | {'p50 ms: host':>12} {'floor':>6} {'added':>6} | {'p99 ms: host':>12} {'floor':>6} {'added':>6}"
        f" | {'CPU us: host':>12} {'floor':>6} {'ratio':>6} | bars: conn, p50",
    ]
    for row in host["rows"]:
        h, f = row["host"], row["floor"]
        ratio = f"{row['cpu_ratio']:5.1f}x" if row["cpu_ratio"] is not None else "   n/a"
        errors = f"  ({row['errors']} errors)" if row["errors"] else ""
        lines.append(
            f"  {row['adapter']:16} {'sse' if row['stream'] else 'json':4} {row['concurrency']:>2}"
            f" {row['connections_per_call']:>9.3f} {row['handshakes_per_call']:>7.3f}"
            f" | {h['p50_us'] / 1000:>12.2f} {f['p50_us'] / 1000:>6.2f} {row['added_p50_us'] / 1000:>+6.2f}"
            f" | {h['p99_us'] / 1000:>12.2f} {f['p99_us'] / 1000:>6.2f} {row['added_p99_us'] / 1000:>+6.2f}"
            f" | {h['cpu_us']:>12.0f} {f['cpu_us']:>6.0f} {ratio}"
            f" | {_verdict(row['connections_met'])} (<= {row['connections_bar']:.3f}),"
            f" {_verdict(row['added_p50_met'])}{errors}"
        )
    before = " ".join(f"{v:.2f}" for v in load["loadavg_before"])
    lines.append(
        f"  load: average {before} before the run, 1-minute up to {load['loadavg_1m_during_max']:.2f} during it"
        f" ({load['cores']} cores; the whole machine busy {load['machine_busy_cores']:.2f} cores on average,"
        " this benchmark included)"
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.upstream", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5); medians are reported")
    parser.add_argument("--calls", type=int, default=200, help="model calls per phase (default 200)")
    parser.add_argument("--concurrency", default="1,8", help="comma-separated concurrencies (default 1,8)")
    parser.add_argument("--adapters", default=",".join(PROTOCOLS), help="comma-separated subset of the adapters")
    parser.add_argument("--host-src", help="run the host from this server/src directory (PYTHONPATH) instead")
    parser.add_argument("--compare-src", help="also run the host from this server/src, alternating: before vs after")
    parser.add_argument("--out", type=Path, default=RESULTS / "upstream.json", help="where the results JSON goes")
    options = parser.parse_args(argv)
    settings = _settings(options, parser)
    print(
        f"bench-upstream: {settings.rounds} rounds x {len(settings.pairs)} adapter/body pairs x "
        f"concurrency {list(settings.concurrency)} x {settings.calls} calls, sides {[*settings.hosts, 'floor']}"
    )
    results = run(settings)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    for label, host in results["hosts"].items():
        print("\n".join(format_table(label, host, results)))
    print(f"results: {options.out}")
    return 0


def _settings(options: argparse.Namespace, parser: argparse.ArgumentParser) -> Settings:
    adapters = [name for name in options.adapters.split(",") if name]
    unknown = sorted(set(adapters) - set(PROTOCOLS))
    if unknown:
        parser.error(f"unknown adapters {unknown}; known: {', '.join(PROTOCOLS)}")
    concurrency = tuple(int(c) for c in options.concurrency.split(",") if c)
    if options.rounds < 1 or options.calls < 1 or not concurrency or min(concurrency) < 1:
        parser.error("--rounds, --calls and every --concurrency must be at least 1")
    if options.calls < max(concurrency):
        parser.error("--calls must be at least the highest concurrency (every lane makes a call)")
    hosts: dict[str, str | None] = {"host": options.host_src}
    if options.compare_src:
        hosts = {"before": options.compare_src, "after": options.host_src}
    pairs = tuple((adapter, stream) for adapter in adapters for stream in (True, False))
    return Settings(options.rounds, options.calls, concurrency, pairs, hosts)


if __name__ == "__main__":
    raise SystemExit(main())
