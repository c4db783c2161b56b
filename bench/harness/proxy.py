"""What the generated HAProxy configuration costs, and what two hosts behind it give (``make bench-proxy``).

    ../.venv/bin/python -m harness.proxy [--rounds 5]

1. Added cost per turn: one host, reached directly and through HAProxy (the
   config of ``agentic-driver cluster config --format haproxy``), alternating
   in rounds; each round creates 64 sessions and runs 8 session turns on each
   at concurrency 1. Every turn carries ``Agentic-Host`` (the header clients
   send), direct too. Printed: p50 and p99 per turn and their difference, and
   CPU per turn (host, plus HAProxy when proxied), as ratios proxied/direct.
2. Throughput: two hosts behind HAProxy against one host direct, the same
   closed-loop load at concurrency 16 (each lane on its own connection, turns
   on sessions of one host), turns per second. On a two-core machine the load
   generator and HAProxy share the cores with the hosts; their CPU shares are
   printed beside the figures.

The host is pinned to the first core and the client (and HAProxy) to the
second, as ``make bench`` does, for part 1. Results go to
``bench/results/proxy.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from . import procstat
from .loadgen import PhaseResult, Work, open_connections, run_phase
from .run import turn_lanes
from .stats import percentile
from .targets import BENCH, TOKEN, AgenticApi, RunningTarget, Session, free_port, host_spec, server_cpus, start

__all__ = ["main"]

HEADER = "Agentic-Host"
THROUGHPUT_LANES = 16
THROUGHPUT_TURNS = 4_000


@dataclass(frozen=True, slots=True)
class TurnCost:
    p50_us: float
    p99_us: float
    host_cpu_us: float
    proxy_cpu_us: float


class Proxy:
    """``haproxy -db`` with the product's generated config for ``hosts`` (host id -> port)."""

    def __init__(self, hosts: dict[str, int], cpus: set[int] | None, logs: Path) -> None:
        self.port = free_port()
        arguments = [f"--host={host_id}=127.0.0.1:{port}" for host_id, port in hosts.items()]
        command = [sys.executable, "-m", "agentic_driver", "cluster", "config", "--format", "haproxy"]
        config = subprocess.run(
            [*command, "--bind", f"127.0.0.1:{self.port}", *arguments],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        logs.mkdir(parents=True, exist_ok=True)
        self.config_path = logs / f"haproxy-{self.port}.cfg"
        self.config_path.write_text(config, encoding="utf-8")
        self.process = subprocess.Popen(
            ["haproxy", "-db", "-f", str(self.config_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )
        self._wait(list(hosts))

    def _wait(self, host_ids: list[str]) -> None:
        import httpx

        deadline = time.monotonic() + 20
        with httpx.Client(base_url=f"http://127.0.0.1:{self.port}", trust_env=False) as http:
            while time.monotonic() < deadline:
                try:
                    answers = [
                        http.get("/v1/discovery", headers={HEADER: h, "Authorization": f"Bearer {TOKEN}"})
                        for h in host_ids
                    ]
                    if all(
                        a.status_code == 200 and a.json()["hostId"] == h for a, h in zip(answers, host_ids, strict=True)
                    ):
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("HAProxy did not route to every host")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _host(host_id: str, logs: Path, cpus: set[int] | None) -> RunningTarget:
    spec = host_spec()
    spec.name = f"host-{host_id}"
    spec.env["AGENTIC_DRIVER_HOST_ID"] = host_id
    spec.api.headers[HEADER] = host_id
    return start(spec, logs, cpus)


async def _sessions(api: AgenticApi, port: int, count: int) -> list[Session]:
    created: list[Session] = []
    (connection,) = await open_connections("raw", "127.0.0.1", port, api.headers, 1)
    work = [Work(api.create, api.create_status, lambda r: created.append(api.created(r))) for _ in range(count)]
    await run_phase("create", [work], server_pid=None, connections=[connection])
    await connection.close()
    return created


async def _cpu_turns(api: AgenticApi, port: int, pids: list[int], proxy_pid: int | None) -> TurnCost:
    sessions = await _sessions(api, port, 64)
    connections = await open_connections("raw", "127.0.0.1", port, api.headers, 1)
    before = {pid: procstat.sample(pid).cpu_ns for pid in [*pids, *([proxy_pid] if proxy_pid else [])]}
    result = await run_phase(
        "turn.c1", turn_lanes(api, sessions, 1, 8 * len(sessions)), server_pid=None, connections=connections
    )
    used = {pid: procstat.sample(pid).cpu_ns - ns for pid, ns in before.items()}
    for connection in connections:
        await connection.close()
    _check(result)
    latencies = sorted(ns / 1000 for ns in result.latencies_ns)
    host_cpu = sum(used[pid] for pid in pids) / result.ok / 1000
    proxy_cpu = used[proxy_pid] / result.ok / 1000 if proxy_pid else 0.0
    return TurnCost(percentile(latencies, 50), percentile(latencies, 99), host_cpu, proxy_cpu)


def _check(result: PhaseResult) -> None:
    if result.errors:
        raise RuntimeError(f"{result.errors} failed turns, e.g. {result.error_samples[:1]}")


def added_cost(rounds: int, logs: Path) -> dict[str, object]:
    server_cores, client_cores = server_cpus()
    host = _host("bench-1", logs, server_cores)
    proxy = Proxy({"bench-1": host.port}, client_cores, logs)
    api = host.spec.api
    assert isinstance(api, AgenticApi)
    figures: dict[str, list[TurnCost]] = {"direct": [], "proxied": []}
    try:
        asyncio.run(_cpu_turns(api, host.port, [host.pid], None))  # warm-up, not recorded
        asyncio.run(_cpu_turns(api, proxy.port, [host.pid], proxy.process.pid))
        for _ in range(rounds):
            figures["direct"].append(asyncio.run(_cpu_turns(api, host.port, [host.pid], None)))
            figures["proxied"].append(asyncio.run(_cpu_turns(api, proxy.port, [host.pid], proxy.process.pid)))
    finally:
        proxy.stop()
        host.stop()
    medians = {name: _median(values) for name, values in figures.items()}
    direct, proxied = medians["direct"], medians["proxied"]
    return {
        "rounds": rounds,
        "direct": asdict(direct),
        "proxied": asdict(proxied),
        "added_p50_us": proxied.p50_us - direct.p50_us,
        "added_p99_us": proxied.p99_us - direct.p99_us,
        "p50_ratio": proxied.p50_us / direct.p50_us,
        "p99_ratio": proxied.p99_us / direct.p99_us,
        "cpu_ratio": (proxied.host_cpu_us + proxied.proxy_cpu_us) / direct.host_cpu_us,
    }


def _median(values: list[TurnCost]) -> TurnCost:
    names = ("p50_us", "p99_us", "host_cpu_us", "proxy_cpu_us")
    return TurnCost(*(statistics.median(getattr(v, name) for v in values) for name in names))


async def _throughput(lanes_by_host: dict[str, tuple[int, list[Session]]], api: AgenticApi) -> PhaseResult:
    """THROUGHPUT_LANES lanes split evenly over the hosts; each lane's connection names its host."""
    lanes: list[list[Work]] = []
    connections = []
    per_host = THROUGHPUT_LANES // len(lanes_by_host)
    for host_id, (port, sessions) in lanes_by_host.items():
        headers = {**api.headers, HEADER: host_id}
        connections += await open_connections("raw", "127.0.0.1", port, headers, per_host)
        lanes += turn_lanes(api, sessions, per_host, THROUGHPUT_TURNS // len(lanes_by_host))
    result = await run_phase(f"turn.c{THROUGHPUT_LANES}", lanes, server_pid=None, connections=connections)
    for connection in connections:
        await connection.close()
    _check(result)
    return result


def throughput(logs: Path) -> dict[str, object]:
    cores = sorted(os.sched_getaffinity(0))
    figures: dict[str, object] = {"cores": len(cores), "lanes": THROUGHPUT_LANES, "turns": THROUGHPUT_TURNS}
    one = _host("solo", logs, {cores[0]})
    try:
        api = one.spec.api
        assert isinstance(api, AgenticApi)
        sessions = asyncio.run(_sessions(api, one.port, 128))
        figures["one_direct"] = _measure(lambda: _throughput({"solo": (one.port, sessions)}, api), [one.pid], None)
    finally:
        one.stop()
    hosts = {f"pair-{i}": _host(f"pair-{i}", logs, {cores[i % len(cores)]}) for i in range(2)}
    proxy = Proxy({h: t.port for h, t in hosts.items()}, None, logs)
    try:
        api = next(iter(hosts.values())).spec.api
        assert isinstance(api, AgenticApi)
        owned = {}
        for host_id, target in hosts.items():
            target_api = target.spec.api
            assert isinstance(target_api, AgenticApi)
            owned[host_id] = (proxy.port, asyncio.run(_sessions(target_api, target.port, 64)))
        pids = [t.pid for t in hosts.values()]
        figures["two_proxied"] = _measure(lambda: _throughput(owned, api), pids, proxy.process.pid)
    finally:
        proxy.stop()
        for target in hosts.values():
            target.stop()
    one_rps = figures["one_direct"]["turns_per_s"]  # type: ignore[index]
    two_rps = figures["two_proxied"]["turns_per_s"]  # type: ignore[index]
    figures["ratio"] = two_rps / one_rps
    return figures


def _measure(run: object, pids: list[int], proxy_pid: int | None) -> dict[str, float]:
    watched = [*pids, *([proxy_pid] if proxy_pid else [])]
    before = {pid: procstat.sample(pid).cpu_ns for pid in watched}
    busy = procstat.machine_busy_ns()
    result: PhaseResult = asyncio.run(run())  # type: ignore[operator]
    machine = procstat.machine_busy_ns() - busy
    used = {pid: procstat.sample(pid).cpu_ns - ns for pid, ns in before.items()}
    wall = result.wall_s
    return {
        "turns_per_s": result.ok / wall,
        "p50_us": percentile(sorted(ns / 1000 for ns in result.latencies_ns), 50),
        "hosts_cpu_util": sum(used[p] for p in pids) / 1e9 / wall,
        "proxy_cpu_util": used[proxy_pid] / 1e9 / wall if proxy_pid else 0.0,
        "loadgen_cpu_util": result.client_cpu_ns / 1e9 / wall,
        "machine_cpu_util": machine / 1e9 / wall,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.proxy", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds for the added cost (medians)")
    options = parser.parse_args(argv)
    logs = BENCH / "results" / "logs"
    own = os.sched_getaffinity(0)
    _, client_cores = server_cpus()
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    try:
        cost = added_cost(options.rounds, logs)
    finally:
        os.sched_setaffinity(0, own)
    scale = throughput(logs)
    results = {"added_cost": cost, "throughput": scale}
    (BENCH / "results" / "proxy.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    _print(cost, scale)
    return 0


def _print(cost: dict[str, object], scale: dict[str, object]) -> None:
    direct, proxied = cost["direct"], cost["proxied"]
    assert isinstance(direct, dict) and isinstance(proxied, dict)
    print(f"added cost per session turn, concurrency 1, medians of {cost['rounds']} rounds")
    for name, row in (("direct", direct), ("proxied", proxied)):
        print(
            f"  {name:9} p50 {row['p50_us']:7.0f} us  p99 {row['p99_us']:7.0f} us"
            f"  CPU {row['host_cpu_us']:5.0f} us host + {row['proxy_cpu_us']:.0f} us HAProxy"
        )
    print(f"  added     p50 {cost['added_p50_us']:+7.0f} us  p99 {cost['added_p99_us']:+7.0f} us")
    print(
        f"  proxied/direct: p50 {cost['p50_ratio']:.2f}x  p99 {cost['p99_ratio']:.2f}x"
        f"  CPU per turn {cost['cpu_ratio']:.2f}x"
    )
    one, two = scale["one_direct"], scale["two_proxied"]
    assert isinstance(one, dict) and isinstance(two, dict)
    print(f"throughput, {scale['lanes']} lanes, {scale['turns']} turns, {scale['cores']} cores")
    for name, row in (("one host direct", one), ("two hosts + proxy", two)):
        print(
            f"  {name:18} {row['turns_per_s']:7.0f} turns/s  CPU: hosts {row['hosts_cpu_util']:.2f}"
            f"  HAProxy {row['proxy_cpu_util']:.2f}  load generator {row['loadgen_cpu_util']:.2f}"
            f"  machine {row['machine_cpu_util']:.2f} cores"
        )
    print(f"  two hosts behind the proxy / one host direct: {scale['ratio']:.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
