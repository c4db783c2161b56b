"""Ratios to the floor and the peer, the issue's targets as met / missed, and the stdout tables.

Every ratio is host / other from the same run: below 1 the host is cheaper or
faster, above 1 it costs more. A figure a target could not produce is None and
prints as "n/a".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from .stats import ratio

__all__ = [
    "MESSAGE_CONSTANT_BYTES",
    "bottleneck",
    "bottleneck_table",
    "figures",
    "goals",
    "goals_table",
    "other_load",
    "ratios",
    "table",
    "turn_cpu_us",
]

TARGETS = ("host", "floor", "peer")
TURN_PHASES = ("turn.c1", "turn.c8", "turn.c32")
FULL_TURN_PHASES = tuple(f"full.{p}" for p in TURN_PHASES)
PHASE_ORDER = (
    "create",
    *TURN_PHASES,
    "stream.c1",
    "read",
    "delete",
    "fill.create",
    "fill.turns",
    *FULL_TURN_PHASES,
    "full.stream.c1",
    "full.read",
    "probe.raw",
    "probe.httpx",
)
MESSAGE_CONSTANT_BYTES = 256
"""The "small constant" of the memory target: per stored visible message, on top of 2x its encoded size
(a Python object header, a list slot and a share of the turn record already take about 150 bytes)."""

Getter = Callable[[dict[str, Any]], float | None]


def _get(data: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _finite(value: Any) -> float | None:
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def turn_cpu_us(target: dict[str, Any], phases: Iterable[str], key: str = "server_cpu_net_us_per_op") -> float | None:
    """Server CPU per turn, in microseconds: the mean over the phases (concurrency 1, 8, 32) of each one's
    CPU per successful turn, net of the server's idle background CPU (``key`` picks gross instead)."""
    values = [_finite(_get(target, "phases", name, key)) for name in phases]
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None) / len(values)


def other_load(target: dict[str, Any]) -> float | None:
    """Mean CPU (in cores) that other processes on the machine used while this target's phases ran."""
    phases = (target.get("phases") or {}).values()
    wall = sum(p["wall_s"] for p in phases)
    busy = sum((p.get("other_cpu_util") or 0.0) * p["wall_s"] for p in phases)
    return busy / wall if wall else None


def figures(results: dict[str, Any]) -> list[tuple[str, str, Getter]]:
    """(key, label, getter) for every figure the table and the ratios report."""
    rows: list[tuple[str, str, Getter]] = [
        ("startup_s", "start-up to healthy, s", lambda t: _get(t, "startup_s", "median")),
        ("idle_cpu_ms_per_s", "idle CPU, ms/s", lambda t: _get(t, "idle_cpu_ms_per_s")),
        ("other_load_cores", "other processes' load, cores", other_load),
        ("turn_cpu_us", "CPU per turn (net, mean c1/c8/c32), us", lambda t: turn_cpu_us(t, TURN_PHASES)),
        (
            "turn_cpu_gross_us",
            "CPU per turn (gross), us",
            lambda t: turn_cpu_us(t, TURN_PHASES, "server_cpu_us_per_op"),
        ),
        ("full_turn_cpu_us", "CPU per turn, full store (net), us", lambda t: turn_cpu_us(t, FULL_TURN_PHASES)),
    ]
    present = {name for t in results["targets"].values() for name in (t.get("phases") or {})}
    for phase in PHASE_ORDER:
        if phase not in present:
            continue
        rows += [
            (f"{phase}.p50_ms", f"{phase} p50, ms", lambda t, p=phase: _get(t, "phases", p, "latency", "p50_ms")),
            (f"{phase}.p90_ms", f"{phase} p90, ms", lambda t, p=phase: _get(t, "phases", p, "latency", "p90_ms")),
            (f"{phase}.p99_ms", f"{phase} p99, ms", lambda t, p=phase: _get(t, "phases", p, "latency", "p99_ms")),
        ]
        if "stream" in phase:
            rows += [
                (
                    f"{phase}.first_event_p50_ms",
                    f"{phase} first event p50, ms",
                    lambda t, p=phase: _get(t, "phases", p, "first_event", "p50_ms"),
                ),
                (
                    f"{phase}.first_event_p99_ms",
                    f"{phase} first event p99, ms",
                    lambda t, p=phase: _get(t, "phases", p, "first_event", "p99_ms"),
                ),
            ]
        rows += [
            (
                f"{phase}.cpu_us",
                f"{phase} server CPU/op, us",
                lambda t, p=phase: _get(t, "phases", p, "server_cpu_us_per_op"),
            ),
            (f"{phase}.rps", f"{phase} throughput, req/s", lambda t, p=phase: _get(t, "phases", p, "throughput_rps")),
        ]
    rows += [
        ("memory.bytes_per_session", "RSS per stored session, B", lambda t: _get(t, "memory", "bytes_per_session")),
        ("memory.bytes_per_turn", "RSS per stored turn, B", lambda t: _get(t, "memory", "bytes_per_turn")),
        ("memory.bytes_per_message", "RSS per visible message, B", lambda t: _get(t, "memory", "bytes_per_message")),
        ("memory.rss_full_mb", "RSS with full store, MB", lambda t: (_get(t, "memory", "rss_full") or math.nan) / 1e6),
    ]
    return rows


def ratios(results: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for key, _, getter in figures(results):
        values = {name: _value(results, name, getter) for name in TARGETS}
        out[key] = values | {
            "host/floor": ratio(values["host"], values["floor"]),
            "host/peer": ratio(values["host"], values["peer"]),
        }
    return out


def _value(results: dict[str, Any], name: str, getter: Getter) -> float | None:
    target = results["targets"].get(name) or {}
    if not target.get("available"):
        return None
    return _finite(getter(target))


def _status(ok: bool | None) -> str:
    return "not available" if ok is None else ("met" if ok else "missed")


def goals(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's targets, each computed from this run and judged met / missed / not available."""
    t = results["targets"]
    host, floor, peer = (t.get(n) if (t.get(n) or {}).get("available") else None for n in TARGETS)
    out: list[dict[str, Any]] = []

    def add(name: str, target: str, ok: bool | None, value: str, **detail: Any) -> None:
        out.append({"goal": name, "target": target, "status": _status(ok), "value": value, **detail})

    # CPU per session turn.
    h = turn_cpu_us(host, TURN_PHASES) if host else None
    f = turn_cpu_us(floor, TURN_PHASES) if floor else None
    p = turn_cpu_us(peer, TURN_PHASES) if peer else None
    vs_floor, peer_over_host = ratio(h, f), ratio(p, h)
    gross = {
        name: turn_cpu_us(data, TURN_PHASES, "server_cpu_us_per_op") if data else None
        for name, data in (("host", host), ("floor", floor), ("peer", peer))
    }
    add(
        "cpu_per_turn_vs_floor",
        "host CPU/turn <= 4x floor",
        None if vs_floor is None else vs_floor <= 4,
        _x(vs_floor),
        host_us=h,
        floor_us=f,
        gross_us=gross,
    )
    add(
        "cpu_per_turn_vs_peer",
        "host CPU/turn >= 15x less than peer",
        None if peer_over_host is None else peer_over_host >= 15,
        f"peer/host {_x(peer_over_host)}",
        host_us=h,
        peer_us=p,
        gross_us=gross,
        gross_peer_over_host=ratio(gross["peer"], gross["host"]),
    )

    # Latency at concurrency 1.
    for pct, limit in (("p50", 2.0), ("p99", 3.0)):
        hv = _finite(_get(host or {}, "phases", "turn.c1", "latency", f"{pct}_ms"))
        fv = _finite(_get(floor or {}, "phases", "turn.c1", "latency", f"{pct}_ms"))
        r = ratio(hv, fv)
        add(
            f"latency_c1_{pct}",
            f"turn {pct} at c1 <= {limit:g}x floor",
            None if r is None else r <= limit,
            _x(r),
            host_ms=hv,
            floor_ms=fv,
        )

    # Full store against the store before the fill.
    empty = turn_cpu_us(host, TURN_PHASES) if host else None
    full = turn_cpu_us(host, FULL_TURN_PHASES) if host else None
    r = ratio(full, empty)
    # The floor pays for a bigger heap and longer histories too: its own ratio shows what is not the store's.
    floor_r = ratio(turn_cpu_us(floor, FULL_TURN_PHASES), turn_cpu_us(floor, TURN_PHASES)) if floor else None
    add(
        "full_store_turn_cost",
        "CPU/turn on the full store within 10% of the empty store",
        None if r is None else r <= 1.10,
        f"{_x(r)} (floor {_x(floor_r)})",
        empty_us=empty,
        full_us=full,
        floor_full_over_empty=floor_r,
        p50_c1_full_over_empty=ratio(
            _finite(_get(host or {}, "phases", "full.turn.c1", "latency", "p50_ms")),
            _finite(_get(host or {}, "phases", "turn.c1", "latency", "p50_ms")),
        ),
    )

    # Memory per stored visible message.
    per_message = _finite(_get(host or {}, "memory", "bytes_per_message"))
    encoded = _finite(_get(host or {}, "memory", "encoded_message_bytes"))
    bound = 2 * encoded + MESSAGE_CONSTANT_BYTES if encoded is not None else None
    host_turn = _finite(_get(host or {}, "memory", "bytes_per_turn"))
    peer_turn = _finite(_get(peer or {}, "memory", "bytes_per_turn"))
    add(
        "memory_per_message",
        f"RSS/visible message <= 2x encoded size + {MESSAGE_CONSTANT_BYTES} B",
        None if per_message is None or bound is None else per_message <= bound,
        f"{_n(per_message)} B vs bound {_n(bound)} B (encoded {_n(encoded)} B)",
        host_bytes_per_turn=host_turn,
        peer_bytes_per_turn=peer_turn,
        host_over_peer_per_turn=ratio(host_turn, peer_turn),
        peer_turns_stored=_get(peer or {}, "memory", "turns_stored"),
    )

    # Streaming: first event through the host against the provider's own first output.
    provider_ms = _finite(_get(results, "meta", "provider_first_output_ms"))
    first = _finite(_get(host or {}, "phases", "stream.c1", "first_event", "p50_ms"))
    if host is not None and not host.get("streaming"):
        add(
            "stream_first_event",
            "first event <= provider's first output + 1 ms",
            None,
            "host serves no /v1/runs/stream",
            provider_ms=provider_ms,
        )
    else:
        over = None if first is None or provider_ms is None else first - provider_ms
        add(
            "stream_first_event",
            "first event <= provider's first output + 1 ms",
            None if over is None else over <= 1.0,
            f"+{_n(over, 3)} ms",
            host_ms=first,
            provider_ms=provider_ms,
            floor_ms=_finite(_get(floor or {}, "phases", "stream.c1", "first_event", "p50_ms")),
        )

    # Start-up.
    hs = _finite(_get(host or {}, "startup_s", "median"))
    fs = _finite(_get(floor or {}, "startup_s", "median"))
    add(
        "startup",
        "host start-up <= floor's + 0.5 s",
        None if hs is None or fs is None else hs <= fs + 0.5,
        f"{_n(hs, 3)} s vs floor {_n(fs, 3)} s",
        host_s=hs,
        floor_s=fs,
    )
    return out


def bottleneck(results: dict[str, Any]) -> dict[str, Any]:
    """From the client probe: what one request costs each side, the rate each could sustain on its own core,
    and so which side saturates first, per client and target."""
    out: dict[str, Any] = {}
    for name in ("host", "floor"):
        target = results["targets"].get(name) or {}
        for client in ("raw", "httpx"):
            phase = _get(target, "phases", f"probe.{client}")
            if not phase:
                continue
            client_us, server_us = phase["client_cpu_us_per_op"], phase["server_cpu_us_per_op"]
            client_cap = 1e6 / client_us if client_us else math.inf
            server_cap = 1e6 / server_us if server_us else math.inf
            out[f"{name}.{client}"] = {
                "client_cpu_us_per_op": client_us,
                "server_cpu_us_per_op": server_us,
                "client_capacity_rps": client_cap,
                "server_capacity_rps": server_cap,
                "measured_rps": phase["throughput_rps"],
                "client_cpu_util": phase["client_cpu_util"],
                "server_cpu_util": phase["server_cpu_util"],
                "other_cpu_util": phase.get("other_cpu_util"),
                "saturates_first": "client" if client_cap < server_cap else "server",
            }
    return out


def bottleneck_table(results: dict[str, Any]) -> str:
    found = results.get("bottleneck") or bottleneck(results)
    if not found:
        return ""
    lines = [
        "client probe (same turns at c32): CPU per request on each side and the rate each core could sustain",
        f"{'target.client':14} {'client us/req':>13} {'server us/req':>13} {'client max/s':>12} "
        f"{'server max/s':>12} {'measured/s':>10}  saturates first",
    ]
    for key, b in found.items():
        lines.append(
            f"{key:14} {b['client_cpu_us_per_op']:13.1f} {b['server_cpu_us_per_op']:13.1f} "
            f"{b['client_capacity_rps']:12,.0f} {b['server_capacity_rps']:12,.0f} {b['measured_rps']:10,.0f}  "
            f"{b['saturates_first']}"
        )
    return "\n".join(lines)


def _x(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def _n(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def _cell(value: float | None) -> str:
    if value is None:
        return "n/a"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 0.1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _ratio_cell(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" if value < 0.1 else f"{value:.2f}"


def table(results: dict[str, Any]) -> str:
    header = ("figure", "host", "floor", "peer", "host/floor", "host/peer")
    rows = [header]
    computed = results.get("ratios") or ratios(results)
    for key, label, _ in figures(results):
        values = computed[key]
        rows.append(
            (
                label,
                _cell(values["host"]),
                _cell(values["floor"]),
                _cell(values["peer"]),
                _ratio_cell(values["host/floor"]),
                _ratio_cell(values["host/peer"]),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = []
    for index, row in enumerate(rows):
        lines.append(
            "  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
        )
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    loads = [v for v in (computed["other_load_cores"][n] for n in TARGETS) if v is not None]
    if loads and max(loads) > 0.25:
        lines.append("")
        lines.append(
            f"warning: other processes kept {max(loads):.2f} of {results['meta']['machine']['cpus']} cores busy "
            "during the run; latencies (and to a lesser degree CPU figures) carry that noise."
        )
    for name in TARGETS:
        memory = (results["targets"].get(name) or {}).get("memory") or {}
        planned = (results["targets"][name].get("counts") or {}) if memory else {}
        wanted = planned.get("fill_sessions", 0) * planned.get("fill_turns", 0)
        if wanted and memory.get("turns_stored", wanted) < wanted:
            lines.append(
                f"note: the {name}'s fill stored {memory['turns_stored']:,} of {wanted:,} turns within its "
                f"{planned.get('fill_budget_s', 0):.0f} s budget; its full-store figures are for that store."
            )
    unavailable = [f"{name}: {t.get('reason')}" for name, t in results["targets"].items() if not t.get("available")]
    if unavailable:
        lines.append("")
        lines += [f"unavailable  {line}" for line in unavailable]
    return "\n".join(lines)


def goals_table(results: dict[str, Any]) -> str:
    found = results.get("goals") or goals(results)
    width = max(len(g["target"]) for g in found)
    lines = ["targets (issue 8)", "-" * (width + 40)]
    for goal in found:
        lines.append(f"{goal['status']:>13}  {goal['target'].ljust(width)}  {goal['value']}")
    return "\n".join(lines)
