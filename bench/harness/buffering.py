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

This module starts the hosts and derives, compares and prints the figures; the hosts' JSON, the load
and the rejoin rounds are in ``buffering_hosts.py``, the streaming SSE client in ``streamclient.py``,
and their names stay importable from here.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import targets

# The hosts' and the stream client's names, importable from here as before the split.
from .buffering_hosts import (  # noqa: F401
    COUNTS,
    HOSTS,
    LONG_TEXT,
    Counts,
    Host,
    chunked_text,
    gauges,
    host_config,
    host_spec,
    rejoin_rounds,
)
from .stats import ratio
from .streamclient import Answer, Event, StreamConnection  # noqa: F401
from .targets import RunningTarget

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
