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

This module holds the command line and the results document; the phases run in ``runner.py``
(``Runner``, ``measure``) on lanes of work from ``lanes.py`` (``turn_lanes``, ``merge``), and both
modules' names stay importable from here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import report, targets

# The phases' names, importable from here as before the split (harness.run is what the other sections and
# the bench tests import them from).
from .lanes import TEXT, merge, message_bytes, turn_lanes, turn_text  # noqa: F401
from .runner import (  # noqa: F401
    COUNTS,
    PEER_COUNTS,
    RESULTS,
    Counts,
    Planned,
    Runner,
    _run_loop,
    measure,
    provider_first_output_ms,
)
from .targets import TargetUnavailable

__all__ = ["COUNTS", "PEER_COUNTS", "Counts", "main", "measure"]


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
