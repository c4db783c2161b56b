"""Concurrent session histories from a real host, checked for linearizability against the session model.

32 clients (asyncio + httpx, one connection pool each) share a few session
slots and issue a seeded random mix of JSON runs at current and stale
revisions (some sleeping, some failing, some pausing for a function result
that the same client answers a moment later unless another cancels the run
first), streamed runs (read to the end, or abandoned after run.started or
after the first delta), cancels, reads and deletes. Every request is
recorded with its invocation and answer times. Then, per session:

- the history is linearizable with respect to ``session_model.SessionModel``
  (which also requires every completed turn to advance the revision by exactly
  one and every read to see exactly the committed turns);
- no two successes share a revision, and the final visible history is exactly
  the successful turns in revision order, each answered as the echo provider does;

and for the host: the provider calls it counted (``agentic_driver_provider_calls_total``)
equal the turns that reached the model (completed, interrupted, failed).

The seed is printed; ``RELIABILITY_SEED=<n>`` reruns that schedule (the same
operations per client; the interleaving is the host's). ``RELIABILITY_OPS``
sets operations per client.
"""

from __future__ import annotations

import asyncio
import copy
import os
import time
from collections.abc import Callable
from typing import Any

import pytest
from e2e.conftest import ALICE, Host, parse_metrics

from .analysis import analyse
from .conftest import history_config
from .harness import run_workload

CLIENTS = 32
SLOTS = 4
MAX_MESSAGES = 100
OPERATIONS = int(os.environ.get("RELIABILITY_OPS", "14"))
SEEDS = [int(os.environ["RELIABILITY_SEED"])] if os.environ.get("RELIABILITY_SEED") else [1, 2]


def _provider_calls(host: Host) -> dict[str, int]:
    import httpx

    text = httpx.get(host.base_url + "/metrics", trust_env=False).text
    calls: dict[str, int] = {}
    for name, labels, value in parse_metrics(text):
        if name == "agentic_driver_provider_calls_total":
            calls[labels["outcome"]] = calls.get(labels["outcome"], 0) + int(value)
    return calls


async def _quiet(host: Host) -> None:
    """Wait (bounded) until the host has no active run: abandoned streams settle a moment after the close."""
    import httpx

    async with httpx.AsyncClient(base_url=host.base_url, trust_env=False) as http:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            samples = parse_metrics((await http.get("/metrics")).text)
            active = [v for n, _, v in samples if n == "agentic_driver_active_runs"]
            if active and active[0] == 0:
                return
            await asyncio.sleep(0.05)
    raise AssertionError("runs still active 10 s after the workload ended")


@pytest.fixture(scope="module")
def hosts(launch_reliability: Callable[..., Host]) -> dict[str, Host]:
    return {
        "wide": launch_reliability("histories-wide", history_config("histories-wide", 64, MAX_MESSAGES)),
        "narrow": launch_reliability("histories-narrow", history_config("histories-narrow", 3, MAX_MESSAGES)),
    }


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", ["wide", "narrow"])
async def test_concurrent_histories_are_linearizable(hosts: dict[str, Host], shape: str, seed: int) -> None:
    host = hosts[shape]
    print(f"\nreliability seed {seed} on the {shape} host (RELIABILITY_SEED={seed} reruns this schedule)")
    before = _provider_calls(host)
    started = time.monotonic()
    workload = await run_workload(
        host.base_url,
        ALICE,
        seed=seed,
        clients=CLIENTS,
        operations=OPERATIONS,
        slots=SLOTS,
        max_sessions=60,
        before_final_reads=lambda: _quiet(host),
    )
    elapsed = time.monotonic() - started
    after = _provider_calls(host)
    analysis = analyse(workload, MAX_MESSAGES)
    print(analysis.summary() + f", {elapsed:.1f} s")
    assert not analysis.problems, f"seed {seed}:\n" + "\n".join(analysis.problems[:20])

    # no hidden model calls: the host counted exactly the turns that reached the model
    delta: dict[str, Any] = {k: after.get(k, 0) - before.get(k, 0) for k in set(after) | set(before)}
    calls = sum(delta.values())
    known, unknown = analysis.reached["yes"], analysis.reached["unknown"]
    assert known <= calls <= known + unknown, (delta, dict(analysis.reached))
    seen, inferred, maybe = analysis.commits["seen"], analysis.commits["inferred"], analysis.commits["unknown"]
    assert seen + inferred <= delta.get("completed", 0) <= seen + inferred + maybe, (delta, dict(analysis.commits))
    failed = sum(n for key, n in analysis.outcomes.items() if key.endswith(":failed:PROVIDER_ERROR"))
    assert delta.get("failed", 0) == failed, (delta, failed)
    assert len(workload.records) >= CLIENTS * OPERATIONS
    assert "Traceback" not in host.log_text(), host.log_text()[-3000:]


def _second_success_reuses_a_revision(workload: Any) -> bool:
    for session_id in workload.sessions:
        ok = [r for r in workload.of_session(session_id) if r.outcome.get("type") == "ok"]
        if len(ok) >= 2:
            ok[1].outcome["revision"] = ok[0].outcome["revision"]
            return True
    return False


def _a_read_loses_a_turn(workload: Any) -> bool:
    for record in workload.records:
        body = record.outcome.get("body")
        if record.outcome.get("type") == "read" and body["session"]["revision"] >= 2:
            del body["history"][0:2]
            del body["turns"][-1]
            body["session"]["revision"] -= 1
            body["session"]["messageCount"] -= 2
            return True
    return False


DETERMINATE = frozenset({"ok", "refused", "read"})
"""Outcomes that leave the checker no choice: a session with only these can only have been interrupted if
its reads say so."""


def _a_refusal_claims_an_interruption_that_never_was(workload: Any) -> bool:
    for session_id in workload.sessions:
        records = workload.of_session(session_id)
        final = next(r for r in records if r.client == -1).outcome
        if final.get("type") != "read" or final["body"]["session"]["status"] != "ready":
            continue  # interruption is final, so only a session that ends ready was never interrupted
        if any(r.outcome.get("type") not in DETERMINATE for r in records):
            continue  # a cancelled, failed or disconnected run could be the (unseen) interruption
        for record in records:
            if record.outcome.get("type") == "refused":
                record.outcome["code"] = "SESSION_INTERRUPTED"
                return True
    return False


@pytest.mark.parametrize(
    "mutation",
    [_second_success_reuses_a_revision, _a_read_loses_a_turn, _a_refusal_claims_an_interruption_that_never_was],
)
async def test_the_checks_catch_a_forged_violation(hosts: dict[str, Host], mutation: Callable[[Any], bool]) -> None:
    """The same pipeline refuses a real history after one forged answer (so a pass means something).

    A seed's history may hold nothing this mutation can forge (say, no session that ends ready after a
    refusal), so the first of a few seeds whose history can be forged is used.
    """
    for seed in range(7, 47):
        workload = await run_workload(
            hosts["wide"].base_url, ALICE, seed=seed, clients=8, operations=10, slots=1, max_sessions=5
        )
        assert not analyse(workload, MAX_MESSAGES).problems
        forged = copy.deepcopy(workload)
        if mutation(forged):
            assert analyse(forged, MAX_MESSAGES).problems
            return
    pytest.fail("no seed gave a history this mutation can forge")
