"""A quick host-versus-floor probe of the turn path, for one optimisation at a time (about 10 s).

    ../.venv/bin/python -m harness.quick                      # make bench-quick
    ../.venv/bin/python -m harness.quick --host-src ../../old/server/src   # another checkout's host

Both servers run side by side (pinned and started as ``make bench`` does); each
round creates 128 sessions on each, then runs 8 turns on each session at
concurrency 1 and again at concurrency 8 (2,048 turns a round), host and floor
alternating. It prints the medians over the rounds of server CPU per turn and
of the client's p50 and p99, and their host/floor ratios. ``make bench`` stays
the measurement of record; this is the loop for trying a change.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
from dataclasses import dataclass
from pathlib import Path

from .loadgen import Work, open_connections, run_phase
from .run import turn_lanes
from .stats import percentile
from .targets import BENCH, RunningTarget, Session, floor_spec, host_spec, server_cpus, start

__all__ = ["main"]

CONCURRENCY = (1, 8)


@dataclass(frozen=True, slots=True)
class TurnFigures:
    cpu_us: float
    p50_us: float
    p99_us: float


async def _turns(target: RunningTarget, sessions: int, turns: int) -> dict[int, TurnFigures]:
    api = target.spec.api
    created: list[Session] = []
    (connection,) = await open_connections("raw", "127.0.0.1", target.port, api.headers, 1)
    creates = [Work(api.create, api.create_status, lambda r: created.append(api.created(r))) for _ in range(sessions)]
    await run_phase("create", [creates], server_pid=target.pid, connections=[connection])
    figures = {}
    for concurrency in CONCURRENCY:
        connections = await open_connections("raw", "127.0.0.1", target.port, api.headers, concurrency)
        lanes = turn_lanes(api, created, concurrency, turns * len(created))
        result = await run_phase(f"turn.c{concurrency}", lanes, server_pid=target.pid, connections=connections)
        if result.errors:
            raise RuntimeError(f"{target.spec.name}: {result.errors} failed turns, e.g. {result.error_samples[:1]}")
        latencies = sorted(ns / 1000 for ns in result.latencies_ns)
        figures[concurrency] = TurnFigures(
            result.server_cpu_ns / result.ok / 1000, percentile(latencies, 50), percentile(latencies, 99)
        )
        for opened in connections:
            await opened.close()
    deletes = [Work(lambda s=s: api.delete(s), api.delete_status) for s in created]
    await run_phase("delete", [deletes], server_pid=target.pid, connections=[connection])
    await connection.close()
    return figures


def _median(rounds: list[dict[int, TurnFigures]], concurrency: int) -> TurnFigures:
    return TurnFigures(
        *(statistics.median(getattr(r[concurrency], name) for r in rounds) for name in ("cpu_us", "p50_us", "p99_us"))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.quick", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7); medians are printed")
    parser.add_argument("--host-src", help="run the host from this server/src directory (PYTHONPATH) instead")
    options = parser.parse_args(argv)
    server_cores, client_cores = server_cpus()
    own_cores = os.sched_getaffinity(0)
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    host = host_spec()
    if options.host_src:
        host.env["PYTHONPATH"] = str(Path(options.host_src).resolve())
    logs = BENCH / "results" / "logs"
    running = {spec.name: start(spec, logs, server_cores) for spec in (host, floor_spec())}
    rounds: dict[str, list[dict[int, TurnFigures]]] = {name: [] for name in running}
    try:
        for target in running.values():
            asyncio.run(_turns(target, 64, 4))  # warm-up, not recorded
        for _ in range(options.rounds):
            for name, target in running.items():
                rounds[name].append(asyncio.run(_turns(target, 128, 8)))
    finally:
        for target in running.values():
            target.stop()
        os.sched_setaffinity(0, own_cores)
    print(f"medians of {options.rounds} rounds   CPU/turn us   p50 us   p99 us")
    for concurrency in CONCURRENCY:
        host_c, floor_c = (_median(rounds[name], concurrency) for name in ("host", "floor"))
        for name, figures in (("host", host_c), ("floor", floor_c)):
            print(f"{name:5} c{concurrency:<2}  {figures.cpu_us:25.0f} {figures.p50_us:8.0f} {figures.p99_us:8.0f}")
        ratios = (host_c.cpu_us / floor_c.cpu_us, host_c.p50_us / floor_c.p50_us, host_c.p99_us / floor_c.p99_us)
        print(f"host/floor c{concurrency:<2} {ratios[0]:24.2f}x {ratios[1]:7.2f}x {ratios[2]:7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
