"""Discovery: its answer follows the spec, and each requirement of the profile is met (or skipped with the reason)."""

from __future__ import annotations

import httpx
import pytest

from agentic_driver_conformance import validation
from agentic_driver_conformance.profile import Plan
from agentic_driver_conformance.suite.conftest import read_plan, record, require

TIMEOUT_S = 10.0


@pytest.mark.parametrize("name", ["answer"])
def test_discovery(plan: Plan, name: str) -> None:
    """GET /v1/discovery as the full token answers 200 as the spec documents it (every schemathesis check)."""
    require(plan, "discovery answer")
    assert plan.token("full"), f"the full token's variable {plan.token_env.get('full')} is not set"
    headers = {"Authorization": f"Bearer {plan.token('full')}"}
    with httpx.Client(base_url=plan.base_url, trust_env=False, timeout=TIMEOUT_S) as http:
        response = http.get("/v1/discovery", headers=headers)
    record(response, "getDiscovery", "probes")
    validation.validate("getDiscovery", response, path={}, body=None)
    assert response.status_code == 200, f"GET /v1/discovery answered {response.status_code}: {response.text[:300]}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "requirement" in metafunc.fixturenames:
        names = sorted(read_plan().requirements)
        metafunc.parametrize("requirement", names, ids=names)


def test_requirement(plan: Plan, requirement: str) -> None:
    """One requirement of the profile, checked against discovery when the plan was made: met, or skipped with why."""
    reason = plan.requirements[requirement]
    if reason:
        pytest.skip(reason)
