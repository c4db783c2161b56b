"""Instructions per turn of the whole server process, host against floor, and what each layer costs.

    ../.venv/bin/python -m harness.instructions                     # make bench-instructions (~8 minutes)
    ../.venv/bin/python -m harness.instructions --only host,floor,bare   # just the totals (~1 minute)
    ../.venv/bin/python -m harness.instructions --ref-src /tmp/ref/server/src   # another checkout beside

CPU time on a shared machine moves by more than most changes, and this container has no hardware
counters (``perf stat -e instructions`` is not supported), so this counts instructions with valgrind's
callgrind. Each target is started under ``valgrind --tool=callgrind --instr-atstart=no`` (nothing is
counted while it starts and warms up); the harness switches counting on with ``callgrind_control`` only
around the measured phases and dumps a count after each. The workload is ``harness.quick``'s round: 128
sessions created, then 8 turns on each at concurrency 1 (``turn.c1``, 1,024 turns) and 8 more at
concurrency 8 (``turn.c8``), over keep-alive connections from the load generator on the other core. The
count is the whole process's user-space instructions (every thread; uvicorn, httptools, uvloop, the
app, the collector), from the first byte read to the last byte written of every request of the phase;
what the kernel does for the process's system calls is not in it. The process's idle work (uvicorn's
0.1 s tick) is counted for two seconds before the phases and subtracted over each phase's wall time.

Targets: ``host`` (``agentic-driver serve`` through ``harness.variants``, which only moves the JSON run's
disconnect-watch delay out of valgrind's reach), ``floor`` (``harness.floor``), ``bare`` (uvicorn beneath
any app, canned answers: ``harness.variants bare``), an optional ``ref`` host from ``--ref-src``, and the
host's variants (``harness.variants.VARIANTS``), each with one layer removed, stubbed or done twice.
The layer table is the differences: a removed layer costs host minus variant, a doubled one variant minus
host. ``--out`` writes every count as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .loadgen import Work, open_connections, run_phase
from .run import turn_lanes
from .targets import BENCH, RunningTarget, Session, TargetSpec, floor_spec, host_spec, server_cpus, start
from .variants import VARIANTS

__all__ = ["LAYERS", "Counted", "layer_rows", "main"]

PHASES = (1, 8)
"""Concurrency of the measured turn phases, as in ``harness.quick``."""
IDLE_S = 2.0
START_TIMEOUT_S = 300.0


@dataclass(slots=True)
class Counted:
    name: str
    description: str
    per_turn: dict[int, float] = field(default_factory=dict)
    """Instructions per turn, by phase concurrency, idle work subtracted."""
    raw: dict[int, int] = field(default_factory=dict)
    wall_s: dict[int, float] = field(default_factory=dict)
    idle_per_s: float = 0.0
    turns: int = 0
    error: str | None = None

    @property
    def mean(self) -> float:
        return sum(self.per_turn.values()) / len(self.per_turn) if self.per_turn else float("nan")


def _callgrind(spec: TargetSpec, out: Path) -> TargetSpec:
    inner = spec.command
    spec.command = lambda port: [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--dump-line=no",
        "--compress-strings=yes",
        f"--callgrind-out-file={out}",
        *inner(port),
    ]
    spec.start_timeout_s = START_TIMEOUT_S
    return spec


def _control(pid: int, *args: str) -> None:
    done = subprocess.run(["callgrind_control", *args, str(pid)], capture_output=True, text=True, timeout=120)
    if done.returncode != 0 or "OK" not in done.stdout:
        raise RuntimeError(f"callgrind_control {' '.join(args)} {pid}: {done.stdout.strip()} {done.stderr.strip()}")


def _dumped(out: Path, number: int) -> int:
    """The instruction total of dump ``number`` (callgrind writes ``<out>.<n>``)."""
    path = Path(f"{out}.{number}")
    for _ in range(200):
        if path.exists():
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith(("totals:", "summary:")):
                    return int(line.split()[1])
        time.sleep(0.05)
    raise RuntimeError(f"no callgrind dump {path}")


def _host(variant: str, src: str | None = None) -> TargetSpec:
    spec = host_spec()
    spec.name = variant
    spec.description = VARIANTS[variant][0] if variant in VARIANTS else spec.description
    path = [str(Path(src).resolve())] if src else []
    spec.env["PYTHONPATH"] = os.pathsep.join([*path, str(BENCH)])
    spec.env["PYTHONHASHSEED"] = "0"
    serve = spec.command
    name = "host" if variant == "ref" else variant
    spec.command = lambda port: [sys.executable, "-m", "harness.variants", name, *serve(port)[3:]]
    return spec


def _floor() -> TargetSpec:
    spec = floor_spec()
    spec.env["PYTHONHASHSEED"] = "0"
    return spec


def _bare() -> TargetSpec:
    spec = floor_spec()
    spec.name = "bare"
    spec.description = "uvicorn (httptools, uvloop) beneath any app: a raw ASGI callable with canned answers"
    spec.env["PYTHONHASHSEED"] = "0"
    spec.command = lambda port: [
        sys.executable, "-m", "harness.variants", "bare", "--host", "127.0.0.1", "--port", str(port)
    ]  # fmt: skip
    return spec


async def _create(target: RunningTarget, count: int) -> list[Session]:
    api = target.spec.api
    created: list[Session] = []
    (connection,) = await open_connections("raw", "127.0.0.1", target.port, api.headers, 1)
    works = [Work(api.create, api.create_status, lambda r: created.append(api.created(r))) for _ in range(count)]
    result = await run_phase("create", [works], server_pid=None, connections=[connection])
    await connection.close()
    if result.errors:
        raise RuntimeError(f"{target.spec.name}: {result.errors} failed creates, e.g. {result.error_samples[:1]}")
    return created


async def _turns(target: RunningTarget, pool: Sequence[Session], concurrency: int, count: int) -> None:
    api = target.spec.api
    connections = await open_connections("raw", "127.0.0.1", target.port, api.headers, concurrency)
    result = await run_phase(
        f"turn.c{concurrency}", turn_lanes(api, pool, concurrency, count), server_pid=None, connections=connections
    )
    for connection in connections:
        await connection.close()
    if result.errors:
        raise RuntimeError(f"{target.spec.name}: {result.errors} failed turns, e.g. {result.error_samples[:1]}")


async def _delete(target: RunningTarget, pool: Sequence[Session]) -> None:
    api = target.spec.api
    (connection,) = await open_connections("raw", "127.0.0.1", target.port, api.headers, 1)
    deletes = [Work(lambda s=s: api.delete(s), api.delete_status) for s in pool]
    await run_phase("delete", [deletes], server_pid=None, connections=[connection])
    await connection.close()


def count(spec: TargetSpec, workdir: Path, sessions: int, turns: int, server_cores: set[int] | None) -> Counted:
    """``spec`` under callgrind: warm up, then count ``sessions`` x ``turns`` turns at each of ``PHASES``."""
    counted = Counted(spec.name, spec.description)
    out = workdir / f"callgrind.{spec.name}.out"
    target = start(_callgrind(spec, out), workdir / "logs", server_cores)
    try:
        warm = asyncio.run(_create(target, 64))
        for concurrency in PHASES:
            asyncio.run(_turns(target, warm, concurrency, 4 * len(warm)))
        asyncio.run(_delete(target, warm))
        pool = asyncio.run(_create(target, sessions))
        _control(target.pid, "-i", "on")
        began = time.perf_counter()
        time.sleep(IDLE_S)
        _control(target.pid, "-d")
        dumped = time.perf_counter()
        counted.idle_per_s = _dumped(out, 1) / (dumped - began)
        for number, concurrency in enumerate(PHASES, start=2):
            asyncio.run(_turns(target, pool, concurrency, turns * len(pool)))
            _control(target.pid, "-d")
            ended = time.perf_counter()
            total = _dumped(out, number)
            counted.raw[concurrency] = total
            counted.wall_s[concurrency] = ended - dumped
            work = total - counted.idle_per_s * (ended - dumped)
            counted.per_turn[concurrency] = work / (turns * len(pool))
            dumped = ended
        _control(target.pid, "-i", "off")
        counted.turns = turns * len(pool) * len(PHASES)
        asyncio.run(_delete(target, pool))
    finally:
        target.stop()
    return counted


# -- the layer table --------------------------------------------------------------------------------

LAYERS: tuple[tuple[str, str, int], ...] = (
    # (row, variant, sign): removed layers cost host - variant (sign -1), doubled ones variant - host (+1).
    ("bounded protocol (http/server.py, over uvicorn's)", "no-protocol-bounds", -1),
    ("FastAPI layers (telemetry, body limit, exit stack)", "no-fastapi-layers", -1),
    ("Starlette layers (ServerError, Exception middleware)", "no-starlette-layers", -1),
    ("RequestObserver (request id, context, access line)", "no-observer", -1),
    ("HeadAsGet", "no-head", -1),
    ("RequestGuard (drain, body deadline)", "no-guard", -1),
    ("routing (match, Route.handle, request_response)", "direct-route", -1),
    ("auth (token SHA-256, compare)", "auth-twice", +1),
    ("header lookups (Starlette Headers)", "headers-twice", +1),
    ("JSON decode (strict, http/body.py)", "decode-twice", +1),
    ("RunRequest validation (pydantic, strict)", "validate-twice", +1),
    ("RunResult JSON encode (model_dump_json)", "encode-twice", +1),
    ("the driver's turn (Driver.run)", "stub-turn", -1),
)
SUB_LAYERS = (
    ("  of which metric updates", "no-metrics", -1),
    ("  of which keeping 1,000 ended runs (beyond one)", "keep-one-run", -1),
    ("the cyclic collector's passes (all layers)", "no-gc", -1),
)


def layer_rows(counts: dict[str, Counted]) -> list[tuple[str, dict[int, float] | None]]:
    """(row, instructions per turn by concurrency) for every layer whose variant was counted, then the server
    beneath the app (``bare``) and what is left of the host (endpoint glue, Request and Response objects,
    the app's own ``__call__``s, timers)."""
    host = counts.get("host")
    rows: list[tuple[str, dict[int, float] | None]] = []
    if host is None or not host.per_turn:
        return rows
    explained = dict.fromkeys(host.per_turn, 0.0)
    for label, variant, sign in (*LAYERS, *SUB_LAYERS):
        other = counts.get(variant)
        if other is None or not other.per_turn:
            continue
        cost = {c: sign * (other.per_turn[c] - host.per_turn[c]) for c in host.per_turn}
        rows.append((label, cost))
        if (label, variant, sign) in LAYERS:
            for c in cost:
                explained[c] += cost[c]
    bare = counts.get("bare")
    if bare is not None and bare.per_turn:
        rows.append(("uvicorn + httptools + uvloop, request in, response out (bare)", dict(bare.per_turn)))
        rest = {c: host.per_turn[c] - bare.per_turn[c] - explained[c] for c in host.per_turn}
        rows.append(("rest of the host (endpoint glue, Request/Response objects, ...)", rest))
    return rows


def _k(value: float) -> str:
    return f"{value / 1000:,.1f}k"


def report(counts: dict[str, Counted]) -> str:
    lines = ["instructions per turn (whole server process, user space, idle work subtracted)", ""]
    lines.append(f"{'target':22} {'turn.c1':>10} {'turn.c8':>10} {'mean':>10} {'/floor':>7}  what")
    floor = counts.get("floor")
    for name, counted in counts.items():
        if counted.error:
            lines.append(f"{name:22} failed: {counted.error}")
            continue
        ratio = f"{counted.mean / floor.mean:6.2f}x" if floor is not None and floor.per_turn else "   n/a"
        c1, c8 = (_k(counted.per_turn[c]) if c in counted.per_turn else "n/a" for c in PHASES)
        lines.append(f"{name:22} {c1:>10} {c8:>10} {_k(counted.mean):>10} {ratio}  {counted.description}")
    rows = layer_rows(counts)
    if rows:
        host = counts["host"]
        lines += ["", "what each layer of the host costs per turn (differences of the counts above)", ""]
        lines.append(f"{'layer':66} {'c1':>9} {'c8':>9} {'mean':>9} {'share':>6}")
        for label, cost in rows:
            assert cost is not None
            mean = sum(cost.values()) / len(cost)
            c1, c8 = (_k(cost[c]) for c in PHASES)
            lines.append(f"{label:66} {c1:>9} {c8:>9} {_k(mean):>9} {mean / host.mean:6.1%}")
        lines.append(f"{'host total':66} {_k(host.per_turn[1]):>9} {_k(host.per_turn[8]):>9} {_k(host.mean):>9}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.instructions", description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated targets: host, floor, bare, ref and variant names")
    parser.add_argument("--host-src", help="run the host (and its variants) from this server/src directory")
    parser.add_argument("--ref-src", help="also count the host of this server/src directory, as 'ref'")
    parser.add_argument("--sessions", type=int, default=128)
    parser.add_argument("--turns", type=int, default=8, help="turns per session in each phase (default 8)")
    parser.add_argument("--out", help="write the counts as JSON to this file")
    parser.add_argument("--keep", action="store_true", help="keep callgrind's output files (printed at the end)")
    options = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("harness.instructions needs valgrind (callgrind, callgrind_control) on PATH", file=sys.stderr)
        return 2
    names = ["host", "floor", "bare", *(["ref"] if options.ref_src else []), *(v for v in VARIANTS if v != "host")]
    if options.only:
        wanted = options.only.split(",")
        unknown = [n for n in wanted if n not in names and n != "ref"]
        if unknown:
            parser.error(f"unknown targets {unknown}; known: {', '.join(names)}")
        names = wanted
    if "ref" in names and not options.ref_src:
        parser.error("target 'ref' needs --ref-src")
    server_cores, client_cores = server_cpus()
    own_cores = os.sched_getaffinity(0)
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    workdir = Path(tempfile.mkdtemp(prefix="bench-instructions-"))
    counts: dict[str, Counted] = {}
    try:
        for name in names:
            if name == "floor":
                spec = _floor()
            elif name == "bare":
                spec = _bare()
            elif name == "ref":
                spec = _host("ref", options.ref_src)
                spec.description = f"the host of {options.ref_src}"
            else:
                spec = _host(name, options.host_src)
            began = time.perf_counter()
            try:
                counts[name] = count(spec, workdir, options.sessions, options.turns, server_cores)
            except Exception as error:  # one target failing leaves the others' counts
                counts[name] = Counted(name, spec.description, error=f"{type(error).__name__}: {error}")
            print(f"  counted {name} in {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    finally:
        os.sched_setaffinity(0, own_cores)
        if not options.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(report(counts))
    if options.keep:
        print(f"callgrind output: {workdir}")
    if options.out:
        document: dict[str, Any] = {
            "sessions": options.sessions,
            "turns_per_phase": options.sessions * options.turns,
            "targets": {
                name: {
                    "description": c.description,
                    "per_turn": c.per_turn,
                    "raw": c.raw,
                    "wall_s": c.wall_s,
                    "idle_per_s": c.idle_per_s,
                    "error": c.error,
                }
                for name, c in counts.items()
            },
            "layers": {label: cost for label, cost in layer_rows(counts)},
        }
        Path(options.out).write_text(json.dumps(document, indent=2) + "\n")
    return 1 if any(c.error for c in counts.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
