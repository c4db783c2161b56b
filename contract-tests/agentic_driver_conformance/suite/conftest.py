"""The plan of this run (``CONFORMANCE_PLAN``: written by the CLI after reading discovery) and what it decided.

Every test is one check of the plan, named as the plan names it; a check the plan skips is skipped here with the
plan's reason, so the JUnit report shows it (never a silent omission).
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from agentic_driver_conformance import observations, profile, validation


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    validation.flush_check_counts()


def read_plan() -> profile.Plan:
    return profile.Plan.read(Path(os.environ["CONFORMANCE_PLAN"]))


def planned_checks() -> list[str]:
    return [check["id"] for check in read_plan().checks]


@pytest.fixture(scope="session")
def plan() -> profile.Plan:
    return read_plan()


def record(response: httpx.Response, operation: str, source: str) -> None:
    """Count an answer a probe received towards the report's statuses and codes."""
    code = validation.problem_code(response)
    observations.record("response", operation=operation, status=response.status_code, code=code, source=source)


def require(plan: profile.Plan, check_id: str) -> None:
    """Skip the running test with the plan's reason when the plan skips this check."""
    reason = plan.skip_reason(check_id)
    if reason:
        pytest.skip(reason)
