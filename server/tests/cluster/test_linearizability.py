"""The reliability suite's linearizability check, once through the proxy over two hosts.

The same seeded workload as ``reliability/test_histories.py`` (32 clients sharing a few
session slots: runs at current and stale revisions, function calls, streams read to the
end or abandoned, cancels by run id, reads, deletes), sent to the proxy with the
``Agentic-Host`` header the contract asks clients to send. Every session's history must
be linearizable against the session model, and the hosts together must count exactly
the model calls the history implies.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from e2e.conftest import ALICE, Host
from reliability.analysis import analyse
from reliability.conftest import history_config
from reliability.harness import run_workload

from agentic_driver.ids import owner_of

from .conftest import aadd_owner_header

CLIENTS = 32
SLOTS = 4
OPERATIONS = 14
MAX_MESSAGES = 100
SEED = 1


def provider_calls(hosts: list[Host]) -> dict[str, int]:
    calls: dict[str, int] = {}
    for host in hosts:
        for name, labels, value in host.metrics():
            if name == "agentic_driver_provider_calls_total":
                calls[labels["outcome"]] = calls.get(labels["outcome"], 0) + int(value)
    return calls


async def quiet(hosts: list[Host]) -> None:
    """Wait (bounded) until no host has an active run: abandoned streams settle a moment after the close."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        active = [v for host in hosts for n, _, v in host.metrics() if n == "agentic_driver_active_runs"]
        if active and not any(active):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("runs still active 10 s after the workload ended")


async def test_histories_through_the_proxy_over_two_hosts_are_linearizable(make_cluster: Any) -> None:
    config = history_config("unused", 64, MAX_MESSAGES)
    cluster = make_cluster(["lin-a", "lin-b"], config)
    hosts = list(cluster.hosts.values())
    before = provider_calls(hosts)

    workload = await run_workload(
        cluster.url,
        ALICE,
        seed=SEED,
        clients=CLIENTS,
        operations=OPERATIONS,
        slots=SLOTS,
        max_sessions=60,
        before_final_reads=lambda: quiet(hosts),
        event_hooks={"request": [aadd_owner_header]},
    )
    analysis = analyse(workload, MAX_MESSAGES)
    after = provider_calls(hosts)
    print(f"\nthrough the proxy over two hosts: {analysis.summary()}")

    assert not analysis.problems, "\n".join(analysis.problems[:20])
    assert {owner_of(session_id) for session_id in workload.sessions} == {"lin-a", "lin-b"}
    delta = {k: after.get(k, 0) - before.get(k, 0) for k in set(after) | set(before)}
    known, unknown = analysis.reached["yes"], analysis.reached["unknown"]
    assert known <= sum(delta.values()) <= known + unknown, (delta, dict(analysis.reached))
    assert len(workload.records) >= CLIENTS * OPERATIONS
    for host in hosts:
        assert host.error_count("MISDIRECTED_REQUEST") == 0
        assert "Traceback" not in host.log_text(), host.log_text()[-3000:]
