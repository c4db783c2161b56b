"""What tracing costs: server CPU per turn with tracing off, against a baseline host and with tracing on.

    ../.venv/bin/python -m harness.tracing                             # make bench-tracing
    ../.venv/bin/python -m harness.tracing --baseline-src DIR          # DIR: a checkout's server/src before tracing

Up to three hosts run side by side on the server core, started and pinned as ``make bench`` does, and
take turns round by round (the turn path of ``harness.quick``: 128 sessions x 8 turns at concurrency 1
and 8): ``off`` (this checkout, no ``OTEL_*`` variable: tracing off, the default), ``on`` (the same with
``OTEL_EXPORTER_OTLP_ENDPOINT`` set: every request exports a server, a turn and a model call span over
OTLP/HTTP to a loopback sink in this process) and, with ``--baseline-src``, ``baseline`` (that host
source, e.g. the commit before tracing). It prints the medians of CPU per turn and p50 and the ratios
``off/baseline`` (the cost of the hooks when tracing is off: should be 1.00 within the run-to-run
spread) and ``on/off`` (what tracing costs when an operator turns it on).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .quick import CONCURRENCY, TurnFigures, _turns
from .targets import BENCH, host_spec, server_cpus, start

__all__ = ["main"]


class _Sink:
    """Accepts OTLP/HTTP export requests and drops them (counting bytes), like a collector that keeps up."""

    def __init__(self) -> None:
        sink = self
        self.received_bytes = 0

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                sink.received_bytes += len(self.rfile.read(int(self.headers.get("content-length", "0"))))
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, name="otlp-sink", daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _median(rounds: list[dict[int, TurnFigures]], concurrency: int, field: str) -> float:
    return statistics.median(getattr(r[concurrency], field) for r in rounds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.tracing", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5); medians are printed")
    parser.add_argument("--baseline-src", help="also run the host from this server/src directory (PYTHONPATH)")
    options = parser.parse_args(argv)
    server_cores, client_cores = server_cpus()
    own_cores = os.sched_getaffinity(0)
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    sink = _Sink()
    specs = {}
    if options.baseline_src:
        specs["baseline"] = host_spec()
        specs["baseline"].env["PYTHONPATH"] = str(Path(options.baseline_src).resolve())
    specs["off"] = host_spec()
    specs["on"] = host_spec()
    specs["on"].env |= {"OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint, "OTEL_SERVICE_NAME": "bench"}
    for name, spec in specs.items():
        spec.name = f"host-{name}"
    logs = BENCH / "results" / "logs"
    running = {name: start(spec, logs, server_cores) for name, spec in specs.items()}
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
        sink.stop()
        os.sched_setaffinity(0, own_cores)
    if sink.received_bytes == 0:
        raise RuntimeError("the traced host exported nothing: tracing was not on")
    print(f"medians of {options.rounds} rounds   CPU/turn us   p50 us   (spans exported: {sink.received_bytes} bytes)")
    for concurrency in CONCURRENCY:
        cpu = {name: _median(r, concurrency, "cpu_us") for name, r in rounds.items()}
        p50 = {name: _median(r, concurrency, "p50_us") for name, r in rounds.items()}
        for name in rounds:
            print(f"{name:8} c{concurrency:<2}  {cpu[name]:22.0f} {p50[name]:8.0f}")
        if "baseline" in cpu:
            off_base = (cpu["off"] / cpu["baseline"], p50["off"] / p50["baseline"])
            print(f"off/baseline c{concurrency:<2} {off_base[0]:17.2f}x {off_base[1]:7.2f}x")
        print(f"on/off c{concurrency:<2} {cpu['on'] / cpu['off']:23.2f}x {p50['on'] / p50['off']:7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
