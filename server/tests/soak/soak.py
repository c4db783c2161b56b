"""Soak: mixed load against one real host for a while, then a report, and a verdict.

    python server/tests/soak/soak.py [--seconds N] [--clients N] [--max-rss-mb N]

``SOAK_SECONDS`` sets the default duration (300 s). The host is started here on a free loopback
port with short session retention, so sessions expire all along. Clients (asyncio + httpx) loop
over a seeded mix: create a session, JSON and streamed runs, stale revisions, reads, function
calls answered by a second request, cancels, abandoned streams, idempotent retries, stateless
runs, provider failures, bad bodies, deletes, and sessions simply left to expire. Meanwhile, every few
seconds, host JSON's tokens are rewritten and the host sent SIGHUP: a token added, the last one revoked; the
soak fails unless each added token is accepted, each revoked one refused from the next request, a session
made before the reload is as it was, and the load's own token (unchanged) gets no answer outside the contract.

Every second the host's RSS (``/proc/<pid>/status``) and gauges (tasks, active runs, sessions,
connections) are sampled. The report gives throughput, answers by code, p50/p99 latency per
operation, RSS and task counts over time. The soak fails (exit 1) on any answer outside the
contract (a 500, an unexpected code), an RSS above ``--max-rss-mb`` or still growing in the last
third of the run, or if, once the load stops, runs, tasks, connections or sessions do not return to
their baseline (sessions: none, after retention). The model call and run slot histograms must be
there, with observations, and with bounded series: the same number at two scrapes late in the run and
after it, at most what the configured instances, models, outcomes and token types allow, and no label
value but a configured model, although clients keep asking for models that are not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import httpx

from agentic_driver import metrics

TOKEN = "soak-token-000000000001"
RETENTION_MS = 3_000
MODELS = ("echo-1", "echo-2")
HISTOGRAMS = (
    "agentic_driver_model_call_duration_seconds",
    "agentic_driver_model_call_time_to_first_output_seconds",
    "agentic_driver_model_call_tokens",
    "agentic_driver_run_slot_wait_seconds",
)
LOOKUP = [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}]
EXPECTED = {
    200,
    201,
    204,
    404,  # deleted or expired sessions (SESSION_NOT_FOUND), finished runs (RUN_NOT_FOUND)
    409,  # busy, stale, interrupted, cancelled
    422,  # the deliberate bad bodies
    502,  # the deliberate provider failures
}


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Host:
    def __init__(self, workdir: Path) -> None:
        config = {
            "hostId": "soak",
            "providers": [{"id": "echo", "kind": "echo", "accountId": "acct-1", "models": list(MODELS)}],
            "sessions": {"retentionMs": RETENTION_MS, "maxEntries": 1_000, "maxMessages": 40},
            "limits": {"maxConcurrentRuns": 32, "maxQueuedRuns": 256, "drainTimeoutMs": 5_000},
            "idempotency": {"maxKeys": 500, "ttlMs": 30_000},
            "tokens": [
                {
                    "subject": "soak",
                    "token": TOKEN,
                    "providers": ["*"],
                    "sessions": ["create", "read", "continue", "delete"],
                }
            ],
        }
        self.config = config
        path = workdir / "soak.json"
        path.write_text(json.dumps(config))
        self.config_path = path
        try:
            self.host = testing.start(
                lambda port: testing.serve_command(port, "--config", str(path)),
                lambda attempt, port: workdir / f"soak-{attempt}.log",
                name="the soak host",
            )
        except testing.HostStartError as failed:
            raise SystemExit(f"the host did not start: {failed}") from failed
        self.port, self.base_url, self.process = self.host.port, self.host.base_url, self.host.process
        self.log_path = self.host.log_path
        self.labels_seen: set[tuple[str, str]] = set()

    def gauges(self) -> dict[str, float]:
        """The unlabelled samples, and per histogram ``series:<name>`` (its labelled bucket, sum and count
        samples) and ``count:<name>`` (observations, all labels together); every label value seen is kept
        in ``labels_seen``."""
        text = httpx.get(self.base_url + "/metrics", trust_env=False, timeout=5, headers={"Connection": "close"}).text
        values: dict[str, float] = {f"{kind}:{name}": 0.0 for name in HISTOGRAMS for kind in ("series", "count")}
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            if "{" not in line:
                name, value = line.split()
                values[name] = float(value)
                continue
            name, _, rest = line.partition("{")
            labels, _, value = rest.rpartition("} ")
            family = name.removesuffix("_bucket").removesuffix("_sum").removesuffix("_count")
            if family in HISTOGRAMS and name != family:
                values[f"series:{family}"] += 1
                if name.endswith("_count"):
                    values[f"count:{family}"] += float(value)
                for pair in labels.split(","):
                    key, _, quoted = pair.partition("=")
                    self.labels_seen.add((key, quoted.strip('"')))
        return values

    def stop(self) -> int:
        self.host.stop(timeout_s=15)
        return self.process.returncode


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.codes: Counter[str] = Counter()
        self.unexpected: list[str] = []

    def record(self, operation: str, started: float, status: int, code: str | None) -> None:
        self.latency[operation].append(time.perf_counter() - started)
        self.codes[f"{status} {code or ''}".strip()] += 1
        if status not in EXPECTED:
            self.unexpected.append(f"{operation}: {status} {code}")


def _code(response: httpx.Response) -> str | None:
    if response.status_code < 400:
        return None
    try:
        code: str | None = response.json().get("code")
    except ValueError:
        return "not-json"
    return code


async def _call(stats: Stats, operation: str, request: Any) -> httpx.Response | None:
    started = time.perf_counter()
    try:
        response: httpx.Response = await request
    except httpx.TransportError as error:
        stats.record(operation, started, 599, type(error).__name__)
        return None
    stats.record(operation, started, response.status_code, _code(response))
    return response


async def _stream(stats: Stats, http: httpx.AsyncClient, body: dict[str, Any], abandon: bool) -> dict[str, Any] | None:
    started = time.perf_counter()
    last: dict[str, Any] | None = None
    operation = "stream-abandoned" if abandon else "stream"
    async with http.stream("POST", "/v1/runs/stream", json=body) as response:
        if response.status_code != 200:
            await response.aread()
            stats.record(operation, started, response.status_code, _code(response))
            return None
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                last = json.loads(line[6:])
                if abandon and last["type"] == "output.delta":
                    break
    code = last["problem"]["code"] if last and last["type"] == "run.failed" else None
    stats.record(operation, started, 200, code)
    return last


def _run(session: dict[str, Any] | None, text: str, model: str = "echo-1", **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"provider": "echo", "model": model, "input": text, **extra}
    if session is not None:
        body["session"] = {"id": session["id"], "revision": session["revision"]}
        body["model"] = session["model"]
    return body


def _series_bound(config: dict[str, Any]) -> dict[str, int]:
    """The most series each histogram may have: per configured (instance, model), every outcome of the
    duration, the first output, every token type; per host, the slot wait outcomes (buckets, +Inf, sum, count)."""
    pairs = sum(len(p.get("models", ["echo-1"])) for p in config["providers"])
    duration, tokens, wait = (
        len(b) + 3 for b in (metrics.DURATION_BUCKETS, metrics.TOKEN_BUCKETS, metrics.SLOT_WAIT_BUCKETS)
    )
    return {
        HISTOGRAMS[0]: pairs * len(metrics.MODEL_CALL_OUTCOMES) * duration,
        HISTOGRAMS[1]: pairs * duration,
        HISTOGRAMS[2]: pairs * len(metrics.TOKEN_TYPES) * tokens,
        HISTOGRAMS[3]: len(metrics.SLOT_WAIT_OUTCOMES) * wait,
    }


async def _client(index: int, base_url: str, until: float, stats: Stats, seed: int) -> None:
    rng = random.Random(f"{seed}:{index}")
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30, trust_env=False) as http:
        while time.monotonic() < until:
            created = await _call(
                stats,
                "create",
                http.post(
                    "/v1/sessions",
                    json={"provider": "echo", "model": rng.choice(MODELS), "mode": rng.choice(["history", "native"])},
                ),
            )
            if created is None or created.status_code != 201:
                await asyncio.sleep(0.1)
                continue
            session = created.json()["session"]
            for _ in range(rng.randint(1, 12)):
                if time.monotonic() >= until:
                    break
                pick = rng.random()
                text = f"turn {rng.randint(0, 10**6)} " + "x" * rng.randint(0, 200)
                if pick < 0.30:
                    answer = await _call(
                        stats, "run", http.post("/v1/runs", json=_run(session, rng.choice(["", "!sleep 20\n"]) + text))
                    )
                    if answer is not None and answer.status_code == 200:
                        session = answer.json()["session"]
                elif pick < 0.45:
                    last = await _stream(stats, http, _run(session, "!chunks 4\n" + text), abandon=False)
                    if last and last["type"] == "run.completed":
                        session = last["run"]["session"]
                elif pick < 0.50:
                    await _stream(stats, http, _run(session, "!chunks 4\n!sleep 10\n" + text), abandon=True)
                    break  # the session is interrupted now
                elif pick < 0.60:
                    await _call(stats, "read", http.get(f"/v1/sessions/{session['id']}"))
                elif pick < 0.65:
                    await _call(
                        stats,
                        "run-stale",
                        http.post("/v1/runs", json=_run({**session, "revision": session["revision"] + 1}, text)),
                    )
                elif pick < 0.72:
                    paused = await _call(
                        stats,
                        "run-function",
                        http.post("/v1/runs", json=_run(session, "!call lookup {}\n" + text, tools=LOOKUP)),
                    )
                    if paused is None or paused.status_code != 200:
                        continue
                    run = paused.json()
                    call_id = run["requiredAction"]["calls"][0]["callId"]
                    if rng.random() < 0.2:
                        await _call(stats, "cancel", http.post(f"/v1/runs/{run['id']}/cancel"))
                        break
                    done = await _call(
                        stats,
                        "actions",
                        http.post(
                            f"/v1/runs/{run['id']}/actions",
                            json={"functionResults": [{"callId": call_id, "output": "42"}]},
                        ),
                    )
                    if done is not None and done.status_code == 200:
                        session = done.json()["session"]
                elif pick < 0.78:
                    key = f"soak-{index}-{rng.randint(0, 10**9)}"
                    body = _run(session, text)
                    first = await _call(
                        stats, "run-idempotent", http.post("/v1/runs", json=body, headers={"Idempotency-Key": key})
                    )
                    await _call(stats, "run-replay", http.post("/v1/runs", json=body, headers={"Idempotency-Key": key}))
                    if first is not None and first.status_code == 200:
                        session = first.json()["session"]
                elif pick < 0.86:
                    body = _run(None, text, rng.choice(MODELS), instructions="Be brief.")
                    await _call(stats, "stateless", http.post("/v1/runs", json=body))
                elif pick < 0.88:
                    await _call(stats, "run-fail", http.post("/v1/runs", json=_run(None, "!fail\n" + text)))
                elif pick < 0.90:  # a model the instance does not serve: MODEL_NOT_FOUND, and never a series
                    body = _run(None, text, f"unlisted-{rng.randint(0, 10**9)}")
                    await _call(stats, "run-unlisted", http.post("/v1/runs", json=body))
                elif pick < 0.92:
                    await _call(
                        stats,
                        "bad-body",
                        http.post(
                            "/v1/runs",
                            content=b'{"provider": "echo", "input": 1',
                            headers={"Content-Type": "application/json"},
                        ),
                    )
                else:
                    await _call(stats, "delete", http.delete(f"/v1/sessions/{session['id']}"))
                    break
            # sessions not deleted are left to expire


RELOAD_EVERY_S = 4.0
RELOAD_SEEN_WITHIN_S = 5.0


class Reloads:
    """What the SIGHUP reloads under load did: each adds a token and revokes the previous one."""

    def __init__(self) -> None:
        self.done = 0
        self.revoked_refused = 0
        self.added_accepted = 0
        self.sessions_kept = 0
        self.failures: list[str] = []


async def _status(http: httpx.AsyncClient, token: str) -> int:
    response = await http.get("/v1/discovery", headers={"Authorization": f"Bearer {token}"})
    return response.status_code


async def _reload(host: Host, tokens: list[str]) -> None:
    """Rewrite host JSON (atomically) with the load's token and ``tokens``, and signal the host."""
    config = {**host.config, "tokens": host.config["tokens"][:1] + [
        {"subject": "soak-reload", "token": t, "providers": ["*"], "sessions": ["read"]} for t in tokens
    ]}  # fmt: skip
    staged = host.config_path.with_suffix(".json.new")
    staged.write_text(json.dumps(config))
    os.replace(staged, host.config_path)
    os.kill(host.process.pid, signal.SIGHUP)


async def _reloader(host: Host, until: float, reloads: Reloads) -> None:
    """Every few seconds, under the clients' load: a session turn, a reload adding a token and revoking the
    last one, the new token accepted (bounded poll: how the reload is seen applied), the revoked one refused on
    the next request, the session as it was."""
    headers = {"Authorization": f"Bearer {TOKEN}"}
    previous: str | None = None
    async with httpx.AsyncClient(base_url=host.base_url, headers=headers, timeout=30, trust_env=False) as http:
        while time.monotonic() + RELOAD_EVERY_S < until:
            await asyncio.sleep(RELOAD_EVERY_S)
            created = (
                await http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
            ).json()["session"]
            ran = await http.post("/v1/runs", json=_run(created, "before the reload"))
            before = ran.json()["session"]
            added = f"soak-added-{reloads.done:04d}-token"
            await _reload(host, [added])
            deadline = time.monotonic() + RELOAD_SEEN_WITHIN_S
            while await _status(http, added) != 200:
                if time.monotonic() > deadline:
                    reloads.failures.append(f"reload {reloads.done + 1}: the added token was never accepted")
                    return
                await asyncio.sleep(0.05)
            reloads.done += 1
            reloads.added_accepted += 1
            if previous is not None:
                status = await _status(http, previous)
                if status == 401:
                    reloads.revoked_refused += 1
                else:
                    reloads.failures.append(f"reload {reloads.done}: a revoked token answered {status}")
            read = (await http.get(f"/v1/sessions/{created['id']}")).json()
            if read["session"]["revision"] == before["revision"] == 1 and len(read["history"]) == 2:
                reloads.sessions_kept += 1
            else:
                reloads.failures.append(f"reload {reloads.done}: the session changed: {read['session']['revision']}")
            await http.delete(f"/v1/sessions/{created['id']}")
            previous = added


async def _sample(host: Host, until: float, samples: list[dict[str, float]], started: float) -> None:
    while time.monotonic() < until:
        gauges = await asyncio.to_thread(host.gauges)
        gauges["rss_mb"] = _rss_mb(host.process.pid)
        gauges["t"] = time.monotonic() - started
        samples.append(gauges)
        await asyncio.sleep(1.0)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def soak(seconds: float, clients: int, max_rss_mb: float, seed: int) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="soak-"))
    host = Host(workdir)
    failures: list[str] = []
    try:
        baseline = host.gauges()
        stats = Stats()
        reloads = Reloads()
        samples: list[dict[str, float]] = []
        started = time.monotonic()
        until = started + seconds
        await asyncio.gather(
            _sample(host, until, samples, started),
            _reloader(host, until, reloads),
            *(_client(i, host.base_url, until, stats, seed) for i in range(clients)),
        )
        elapsed = time.monotonic() - started

        # quiescence: runs end, tasks and connections return, sessions expire
        deadline = time.monotonic() + RETENTION_MS / 1000 + 10
        settled = host.gauges()
        while time.monotonic() < deadline:
            settled = host.gauges()
            if (
                settled["agentic_driver_active_runs"] == 0
                and settled["agentic_driver_sessions_stored"] == 0
                and settled["agentic_driver_asyncio_tasks"] <= baseline["agentic_driver_asyncio_tasks"]
                and settled["agentic_driver_open_connections"] <= baseline["agentic_driver_open_connections"]
            ):
                break
            await asyncio.sleep(0.2)
        settled["rss_mb"] = _rss_mb(host.process.pid)
    finally:
        exit_code = host.stop()

    total = sum(len(v) for v in stats.latency.values())
    print(f"\nsoak: {seconds:.0f} s, {clients} clients, seed {seed}, host log {host.log_path}")
    print(f"  throughput: {total} requests in {elapsed:.1f} s = {total / elapsed:.0f}/s")
    print("  answers by status and code:")
    for code, count in sorted(stats.codes.items()):
        print(f"    {code:<40} {count}")
    print(f"  {'operation':<18} {'count':>7} {'p50 ms':>9} {'p99 ms':>9}")
    for operation, values in sorted(stats.latency.items()):
        p50, p99 = statistics.median(values) * 1000, _percentile(values, 0.99) * 1000
        print(f"  {operation:<18} {len(values):>7} {p50:>9.1f} {p99:>9.1f}")
    print("  over time (t s, RSS MB, tasks, active runs, sessions, connections):")
    step = max(1, len(samples) // 12)
    for sample in samples[::step]:
        print(
            f"    {sample['t']:6.0f} {sample['rss_mb']:8.1f} {sample['agentic_driver_asyncio_tasks']:6.0f} "
            f"{sample['agentic_driver_active_runs']:6.0f} {sample['agentic_driver_sessions_stored']:6.0f} "
            f"{sample['agentic_driver_open_connections']:6.0f}"
        )
    tasks, runs = settled["agentic_driver_asyncio_tasks"], settled["agentic_driver_active_runs"]
    sessions, connections = settled["agentic_driver_sessions_stored"], settled["agentic_driver_open_connections"]
    print(
        f"  after the load: RSS {settled['rss_mb']:.1f} MB, tasks {tasks:.0f} "
        f"(baseline {baseline['agentic_driver_asyncio_tasks']:.0f}), active runs {runs:.0f}, "
        f"sessions {sessions:.0f}, connections {connections:.0f}; host exit code {exit_code}"
    )
    print(
        f"  SIGHUP reloads under the load: {reloads.done} (each added a token and revoked the last); added "
        f"tokens accepted {reloads.added_accepted}, revoked refused on the next request {reloads.revoked_refused}, "
        f"sessions untouched {reloads.sessions_kept}; the load's unchanged token: every answer counted above"
    )
    bound = _series_bound(host.config)
    late = samples[2 * len(samples) // 3 :] or [settled]
    print("  histograms (series at 2/3 of the run, at its end, after it; bound; observations):")
    for name in HISTOGRAMS:
        counts = " ".join(f"{s[f'series:{name}']:5.0f}" for s in (late[0], late[-1], settled))
        print(f"    {name:<56} {counts} {bound[name]:6d} {settled[f'count:{name}']:8.0f}")

    failures += reloads.failures
    if reloads.done < 2 and seconds >= 3 * RELOAD_EVERY_S:
        failures.append(f"only {reloads.done} SIGHUP reloads were done under the load")
    if stats.unexpected:
        failures.append(f"{len(stats.unexpected)} answers outside the contract, e.g. {stats.unexpected[:5]}")
    rss = [s["rss_mb"] for s in samples]
    if rss and max(rss) > max_rss_mb:
        failures.append(f"RSS reached {max(rss):.1f} MB, above the bound of {max_rss_mb} MB")
    if len(rss) >= 9:
        third = len(rss) // 3
        middle, last = max(rss[third : 2 * third]), max(rss[2 * third :])
        if last > middle * 1.10 + 8:
            failures.append(f"RSS still growing: {middle:.1f} MB in the middle third, {last:.1f} MB in the last")
    if settled["agentic_driver_active_runs"] or settled["agentic_driver_sessions_stored"]:
        failures.append("runs or sessions remained after the load and retention")
    if settled["agentic_driver_asyncio_tasks"] > baseline["agentic_driver_asyncio_tasks"]:
        failures.append("asyncio tasks did not return to their baseline")
    if settled["agentic_driver_open_connections"] > baseline["agentic_driver_open_connections"]:
        failures.append("connections did not return to their baseline")
    for name in HISTOGRAMS:
        counts = {late[0][f"series:{name}"], late[-1][f"series:{name}"], settled[f"series:{name}"]}
        if not settled[f"series:{name}"] or not settled[f"count:{name}"]:
            failures.append(f"{name} is missing from /metrics or observed nothing")
        elif len(counts) != 1:
            failures.append(f"{name} series kept changing late in the run: {sorted(counts)}")
        elif settled[f"series:{name}"] > bound[name]:
            failures.append(f"{name} has {settled[f'series:{name}']:.0f} series, above the bound of {bound[name]}")
    strangers = {v for k, v in host.labels_seen if k == "model"} - set(MODELS)
    if strangers:
        failures.append(f"histogram series for models that are not configured: {sorted(strangers)[:5]}")
    if exit_code != 0:
        failures.append(f"the host exited {exit_code} on SIGTERM")
    if "Traceback" in host.log_path.read_text():
        failures.append("the host logged a traceback")
    for failure in failures:
        print(f"  FAILED: {failure}")
    print(f"soak: {0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "300")))
    parser.add_argument("--clients", type=int, default=int(os.environ.get("SOAK_CLIENTS", "24")))
    parser.add_argument("--max-rss-mb", type=float, default=float(os.environ.get("SOAK_MAX_RSS_MB", "400")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SOAK_SEED", "1")))
    options = parser.parse_args()
    return asyncio.run(soak(options.seconds, options.clients, options.max_rss_mb, options.seed))


if __name__ == "__main__":
    sys.exit(main())
