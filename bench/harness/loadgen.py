"""The load generator: fixed request counts in closed-loop lanes, one connection per lane.

A phase is a list of lanes; each lane is a list of ``Work`` items run one after
another on the lane's own keep-alive connection, so the number of lanes is the
concurrency and no two lanes share a session. Around the phase the generator
samples the server's own CPU and RSS accounting (``procstat``) and the client's
CPU, so every phase says which side was busy.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import procstat
from .httpclient import Connection, Request, Response, connect
from .stats import summarize

__all__ = ["PhaseResult", "Work", "open_connections", "run_phase"]


@dataclass(slots=True)
class Work:
    make: Callable[[], Request]
    """Builds the request when its turn comes (a session's revision may have moved)."""
    expect: int = 200
    done: Callable[[Response], None] | None = None
    """Called with a successful response (e.g. to record a created session)."""


@dataclass(slots=True)
class PhaseResult:
    name: str
    concurrency: int
    requests: int
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    latencies_ns: list[int] = field(default_factory=list)
    first_event_ns: list[int] = field(default_factory=list)
    server_cpu_ns: int = 0
    server_stat_cpu_ns: int = 0
    rss_before: int = 0
    rss_after: int = 0
    client_cpu_ns: int = 0
    machine_busy_ns: int = 0
    """Busy time of every CPU of the machine during the phase (/proc/stat), to see load from other processes."""

    @property
    def ok(self) -> int:
        return self.requests - self.errors

    @property
    def other_busy_ns(self) -> int:
        """CPU time the machine spent on anything but this server and this client (other processes)."""
        return max(0, self.machine_busy_ns - self.server_cpu_ns - self.client_cpu_ns)

    def to_dict(self) -> dict[str, Any]:
        per_op = self.server_cpu_ns / self.ok / 1000 if self.ok else None
        result: dict[str, Any] = {
            "concurrency": self.concurrency,
            "requests": self.requests,
            "errors": self.errors,
            "error_samples": self.error_samples,
            "wall_s": self.wall_s,
            "throughput_rps": self.ok / self.wall_s if self.wall_s else None,
            "latency": summarize(self.latencies_ns),
            "server_cpu_ms": self.server_cpu_ns / 1e6,
            "server_stat_cpu_ms": self.server_stat_cpu_ns / 1e6,
            "server_cpu_us_per_op": per_op,
            "server_cpu_util": self.server_cpu_ns / 1e9 / self.wall_s if self.wall_s else None,
            "client_cpu_util": self.client_cpu_ns / 1e9 / self.wall_s if self.wall_s else None,
            "client_cpu_us_per_op": self.client_cpu_ns / self.requests / 1000 if self.requests else None,
            "other_cpu_util": self.other_busy_ns / 1e9 / self.wall_s if self.wall_s else None,
            "rss_before": self.rss_before,
            "rss_after": self.rss_after,
        }
        if self.first_event_ns:
            result["first_event"] = summarize(self.first_event_ns)
        return result


async def open_connections(client: str, host: str, port: int, headers: dict[str, str], count: int) -> list[Connection]:
    return list(await asyncio.gather(*(connect(client, host, port, headers) for _ in range(count))))


async def _lane(connection: Connection, work: Sequence[Work], result: PhaseResult) -> None:
    clock = time.perf_counter_ns
    latencies = result.latencies_ns
    for item in work:
        request = item.make()
        started = clock()
        try:
            response = await connection.request(request)
        except (OSError, ConnectionError) as error:
            result.errors += 1
            if len(result.error_samples) < 5:
                result.error_samples.append(f"{request.method} {request.path}: {error!r}")
            continue
        ended = clock()
        if response.status != item.expect:
            result.errors += 1
            if len(result.error_samples) < 5:
                sample = response.body[:300].decode("utf-8", "replace")
                result.error_samples.append(f"{request.method} {request.path}: {response.status} {sample}")
            continue
        latencies.append(ended - started)
        if request.stream:
            result.first_event_ns.append(response.first_event_ns - started)
        if item.done is not None:
            item.done(response)


async def run_phase(
    name: str,
    lanes: Sequence[Sequence[Work]],
    *,
    server_pid: int | None,
    connections: Sequence[Connection],
) -> PhaseResult:
    """Run every lane to its end, concurrently, each on its own connection; measure both sides."""
    if len(connections) < len(lanes):
        raise ValueError(f"{len(lanes)} lanes need as many connections, got {len(connections)}")
    result = PhaseResult(name=name, concurrency=len(lanes), requests=sum(len(lane) for lane in lanes))
    before = procstat.sample(server_pid) if server_pid else None
    busy_before = procstat.machine_busy_ns()
    client_before = time.process_time_ns()
    started = time.perf_counter()
    await asyncio.gather(*(_lane(conn, lane, result) for conn, lane in zip(connections, lanes, strict=False)))
    result.wall_s = time.perf_counter() - started
    result.client_cpu_ns = time.process_time_ns() - client_before
    result.machine_busy_ns = procstat.machine_busy_ns() - busy_before
    if before is not None and server_pid:
        after = procstat.sample(server_pid)
        result.server_cpu_ns = after.cpu_ns - before.cpu_ns
        result.server_stat_cpu_ns = after.stat_cpu_ns - before.stat_cpu_ns
        result.rss_before, result.rss_after = before.rss_bytes, after.rss_bytes
    return result
