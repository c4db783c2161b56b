"""The shared contract scenarios (contract-tests/scenarios), played through the proxy over two hosts.

The scenario player is the conformance kit's own (``agentic_driver_conformance.scenarios``, the generated
Python client); it sends the ``Agentic-Host`` header the way the contract asks every client to
(``agentic_driver_conformance.routing``), so requests that name a session in their body (session runs)
reach its owner. Metric steps add up the hosts' ``/metrics``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import Cluster, start_cluster

CONTRACT_DIR = Path(__file__).resolve().parents[3] / "contract-tests"
sys.path.insert(0, str(CONTRACT_DIR))

from agentic_driver_conformance import scenarios  # noqa: E402  (the conformance kit, from the path above)
from harness import hosts as contract_hosts  # noqa: E402  (contract-tests' harness, from the path above)

PER_PROCESS = {
    "host-busy": "fills one host's run slots and wait line (limits are per process; new work spreads over hosts)",
    "run-slots": "takes both run slots of one host",
    "session-flow": "expects the session to name the host that discovery names",
}
"""Scenarios about one process: played through the proxy in front of a single host (id contract-host)."""
ALL = scenarios.all_scenarios()
SPREAD = [s for s in ALL if s.host == "main" and not s.isolated and s.name not in PER_PROCESS]
SINGLE = [s for s in ALL if s.host == "main" and not s.isolated and s.name in PER_PROCESS]
ALONE = [s for s in ALL if s.isolated or s.host != "main"]
CONFIGS = {
    "main": CONTRACT_DIR / "host.json",
    "no-sessions": CONTRACT_DIR / "host-no-sessions.json",
    "quotas": CONTRACT_DIR / "host-quotas.json",
}


def contract_cluster(host_ids: list[str], config: Path, workdir: Path) -> Cluster:
    return start_cluster(
        host_ids,
        workdir,
        json.loads(config.read_text(encoding="utf-8")),
        env=contract_hosts.token_environment(),
        token=contract_hosts.TOKENS["full"],
    )


def runner_for(cluster: Cluster) -> scenarios.Runner:
    return scenarios.Runner(
        {"main": cluster.url, "no-sessions": cluster.url, "quotas": cluster.url},
        contract_hosts.TOKENS,
        metrics_urls={cluster.url: [host.base_url for host in cluster.hosts.values()]},
    )


@pytest.fixture(scope="module")
def spread_runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[scenarios.Runner]:
    cluster = contract_cluster(["contract-a", "contract-b"], CONFIGS["main"], tmp_path_factory.mktemp("spread"))
    runner = runner_for(cluster)
    yield runner
    runner.close()
    cluster.stop()


@pytest.fixture(scope="module")
def single_runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[scenarios.Runner]:
    cluster = contract_cluster(["contract-host"], CONFIGS["main"], tmp_path_factory.mktemp("single"))
    runner = runner_for(cluster)
    yield runner
    runner.close()
    cluster.stop()


@pytest.mark.parametrize("scenario", SPREAD, ids=[s.name for s in SPREAD])
def test_scenario_through_the_proxy_over_two_hosts(
    spread_runner: scenarios.Runner, scenario: scenarios.Scenario
) -> None:
    spread_runner.play(scenario)


@pytest.mark.parametrize("scenario", SINGLE, ids=[s.name for s in SINGLE])
def test_scenario_about_one_process_through_the_proxy(
    single_runner: scenarios.Runner, scenario: scenarios.Scenario
) -> None:
    single_runner.play(scenario)


@pytest.mark.parametrize("scenario", ALONE, ids=[s.name for s in ALONE])
def test_scenario_that_needs_a_host_of_its_own_through_the_proxy(scenario: scenarios.Scenario, tmp_path: Path) -> None:
    cluster = contract_cluster(["contract-host"], CONFIGS[scenario.host], tmp_path)
    runner = runner_for(cluster)
    try:
        runner.play(scenario)
    finally:
        runner.close()
        cluster.stop()


def test_every_scenario_is_played_through_the_proxy() -> None:
    assert {s.name for s in SPREAD + SINGLE + ALONE} == {s.name for s in ALL}
    assert len(SPREAD) >= 20 and set(PER_PROCESS) == {s.name for s in SINGLE}
