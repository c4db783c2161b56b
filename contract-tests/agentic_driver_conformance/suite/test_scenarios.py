"""Every language-neutral scenario (the kit's copy of contract-tests/scenarios), through the generated client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agentic_driver_conformance import scenarios
from agentic_driver_conformance.profile import Plan
from agentic_driver_conformance.suite.conftest import require

# The scenario that fills the store runs last: every other one has cleaned up by then.
ALL = sorted(scenarios.all_scenarios(), key=lambda scenario: scenario.isolated)


@pytest.fixture(scope="session")
def runner(plan: Plan) -> Iterator[scenarios.Runner]:
    urls = {
        "main": plan.base_url,
        "no-sessions": plan.no_sessions_base_url or plan.base_url,
        "quotas": plan.quotas_base_url or plan.base_url,
    }
    runner = scenarios.Runner(urls, plan.tokens(), pin_host=plan.host_id)
    yield runner
    runner.close()


@pytest.mark.parametrize("scenario", ALL, ids=[scenario.name for scenario in ALL])
def test_scenario(plan: Plan, runner: scenarios.Runner, scenario: scenarios.Scenario) -> None:
    require(plan, f"scenario {scenario.name}")
    runner.play(scenario)
