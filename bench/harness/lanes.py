"""The work of a benchmark phase: session turns spread over lanes, and one result for consecutive phases.

``turn_lanes`` gives each lane its own sessions (lane j owns ``pool[j::concurrency]``) and the turns it
sends; ``merge`` sums consecutive phases (the fill's rounds); ``message_bytes`` is what a turn's two
visible messages count, as the host counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import orjson

from .loadgen import PhaseResult, Work
from .targets import Api, Session

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
