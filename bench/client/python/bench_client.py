"""How much the Python SDK costs over plain httpx: one session turn, and importing the package.

    make bench-client-python   # or: .venv/bin/python bench/client/python/bench_client.py [--pairs N] [--imports N]

Starts the reference host (offline echo provider, no latency) on a free
127.0.0.1 port and times the same session turn (``POST /v1/runs`` continuing a
fresh session at revision 0, with an Idempotency-Key, answer parsed from JSON)
made two ways against it:

- ``sdk``: ``AgenticDriver.run(...)``, which builds the body from the generated
  models and parses the answer into ``RunResult``;
- ``httpx``: the same request with a plain ``httpx.Client`` and ``response.json()``.

The two are interleaved in pairs, alternating which goes first, so drift in the
machine or the host hits both alike; sessions are created and deleted outside
the timed part so every timed turn does identical host work. Overhead is the
ratio of the median turn times (target under 1.10).

Import time is measured in fresh interpreters, alternating ``import httpx``
(the floor: the SDK needs it) with ``import agentic_driver_sdk``, median of
several runs (target under 150 ms). For comparison it also times importing the
SDK plus every generated model, which is what the package cost before it
deferred the models to first use.

Prints the figures and writes them to bench/results/client-python.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import httpx

from agentic_driver_sdk import AgenticDriver

ROOT = Path(__file__).resolve().parents[3]
RESULTS = ROOT / "bench" / "results" / "client-python.json"
TURN_TARGET = 1.10
IMPORT_TARGET_MS = 150.0
PROVIDER = {"provider": "echo", "model": "echo-1"}
INPUT = "How long does one turn take?"


def start_host(token: str, logs: Path) -> testing.HostProcess:
    try:
        return testing.start(
            lambda port: testing.serve_command(port),
            lambda attempt, port: logs / f"host-{attempt}.log",
            env={**os.environ, "AGENTIC_DRIVER_TOKEN": token},
        )
    except testing.HostStartError as failed:
        raise SystemExit(str(failed)) from failed


# -- one turn, two ways ------------------------------------------------------------------


def bench_turns(base_url: str, token: str, pairs: int, warmup: int) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    setup = httpx.Client(base_url=base_url, headers=headers)
    plain = httpx.Client(base_url=base_url, headers=headers, timeout=30.0)
    sdk = AgenticDriver(base_url=base_url, token=token, timeout=30.0)

    def fresh_session() -> dict[str, Any]:
        response = setup.post("/v1/sessions", json={**PROVIDER, "mode": "history"})
        response.raise_for_status()
        session: dict[str, Any] = response.json()["session"]
        return session

    def with_httpx(session: dict[str, Any]) -> float:
        body = {**PROVIDER, "input": INPUT, "session": {"id": session["id"], "revision": session["revision"]}}
        started = time.perf_counter()
        response = plain.post("/v1/runs", json=body, headers={"Idempotency-Key": str(uuid.uuid4())})
        if response.status_code != 200:
            raise SystemExit(f"plain httpx turn failed: {response.status_code} {response.text}")
        text = response.json()["output"]["text"]
        elapsed = time.perf_counter() - started
        assert text == f"echo: {INPUT}"
        return elapsed

    def with_sdk(session: dict[str, Any]) -> float:
        started = time.perf_counter()
        result = sdk.run(**PROVIDER, input=INPUT, session=session)
        text = result.output.text
        elapsed = time.perf_counter() - started
        assert text == f"echo: {INPUT}"
        return elapsed

    def timed(arm: Callable[[dict[str, Any]], float]) -> float:
        session = fresh_session()
        try:
            return arm(session)
        finally:
            setup.delete(f"/v1/sessions/{session['id']}")

    for _ in range(warmup):
        timed(with_httpx)
        timed(with_sdk)
    samples: dict[str, list[float]] = {"httpx": [], "sdk": []}
    for i in range(pairs):
        order = [("httpx", with_httpx), ("sdk", with_sdk)]
        for name, arm in order if i % 2 == 0 else reversed(order):
            samples[name].append(timed(arm))
    sdk.close()
    plain.close()
    setup.close()

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "median_us": statistics.median(ordered) * 1e6,
            "p10_us": ordered[len(ordered) // 10] * 1e6,
            "p90_us": ordered[len(ordered) * 9 // 10] * 1e6,
            "mean_us": statistics.fmean(ordered) * 1e6,
        }

    per_pair = [s / h for s, h in zip(samples["sdk"], samples["httpx"], strict=True)]
    httpx_stats, sdk_stats = summary(samples["httpx"]), summary(samples["sdk"])
    return {
        "pairs": pairs,
        "warmup_pairs": warmup,
        "httpx": httpx_stats,
        "sdk": sdk_stats,
        "ratio_of_medians": sdk_stats["median_us"] / httpx_stats["median_us"],
        "median_of_pair_ratios": statistics.median(per_pair),
        "overhead_us": sdk_stats["median_us"] - httpx_stats["median_us"],
        "target_ratio": TURN_TARGET,
    }


# -- import time ---------------------------------------------------------------------------

IMPORTS = {
    "httpx": "import httpx",
    "agentic_driver_sdk": "import agentic_driver_sdk",
    "agentic_driver_sdk+models": "import agentic_driver_sdk, agentic_driver_client.models",
}


def import_ms(statement: str) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return float(out) * 1000


def bench_imports(runs: int) -> dict[str, Any]:
    for statement in IMPORTS.values():  # warm the file system cache and bytecode
        import_ms(statement)
    samples: dict[str, list[float]] = {name: [] for name in IMPORTS}
    for i in range(runs):
        names = list(IMPORTS) if i % 2 == 0 else list(reversed(IMPORTS))
        for name in names:
            samples[name].append(import_ms(IMPORTS[name]))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    return {
        "runs": runs,
        "median_ms": medians,
        "min_ms": {name: min(values) for name, values in samples.items()},
        "sdk_over_httpx_ms": medians["agentic_driver_sdk"] - medians["httpx"],
        "sdk_ratio_to_httpx": medians["agentic_driver_sdk"] / medians["httpx"],
        "target_ms": IMPORT_TARGET_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=1500, help="interleaved sdk/httpx turn pairs")
    parser.add_argument("--warmup", type=int, default=100, help="pairs run before timing")
    parser.add_argument("--imports", type=int, default=15, help="fresh-interpreter imports of each kind")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()

    token = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory(prefix="bench-client-") as logs:
        host = start_host(token, Path(logs))
        try:
            turns = bench_turns(host.base_url, token, args.pairs, args.warmup)
        finally:
            host.stop(timeout_s=10)
    imports = bench_imports(args.imports)

    print(f"one session turn, {turns['pairs']} interleaved pairs (median, p10-p90):")
    for name in ("httpx", "sdk"):
        s = turns[name]
        print(f"  {name:6} {s['median_us']:8.0f} us  ({s['p10_us']:.0f}-{s['p90_us']:.0f})")
    verdict = "ok" if turns["ratio_of_medians"] < TURN_TARGET else "MISSED"
    print(
        f"  client overhead: {turns['ratio_of_medians']:.3f}x of plain httpx "
        f"(+{turns['overhead_us']:.0f} us; median of pair ratios {turns['median_of_pair_ratios']:.3f}x; "
        f"target < {TURN_TARGET}x: {verdict})"
    )
    print(f"import time, fresh interpreter, median of {imports['runs']}:")
    for name, value in imports["median_ms"].items():
        print(f"  {name:28} {value:6.1f} ms")
    sdk_ms = imports["median_ms"]["agentic_driver_sdk"]
    verdict = "ok" if sdk_ms < IMPORT_TARGET_MS else "MISSED"
    print(
        f"  agentic_driver_sdk: {sdk_ms:.1f} ms = httpx + {imports['sdk_over_httpx_ms']:.1f} ms "
        f"({imports['sdk_ratio_to_httpx']:.2f}x; target < {IMPORT_TARGET_MS:.0f} ms: {verdict})"
    )

    args.output.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "benchmark": "client",
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cpus",
        "httpx": httpx.__version__,
        "turn": turns,
        "import": imports,
    }
    args.output.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
