"""The schemathesis CLI on the host: every phase and check (full mode), or the GET operations only (read-only)."""

from __future__ import annotations

import os

import pytest

from agentic_driver_conformance import spec
from agentic_driver_conformance.profile import Plan
from agentic_driver_conformance.resources import reports_dir
from agentic_driver_conformance.schemathesis_run import budget_config, run_schemathesis
from agentic_driver_conformance.suite.conftest import planned_checks, require

STALE_LINKS = (
    "POST /v1/runs -> [200] replayStaleRevision -> POST /v1/runs",
    "POST /v1/sessions/{sessionId}/truncate -> [200] replayStaleAfterTruncate -> POST /v1/runs",
)
READ_ONLY_ARGS = ["--include-method", "GET", "--phases", "examples,coverage,fuzzing"]


def _budget_divisor() -> int:
    """The CLI's --budget: 1 runs the shipped configuration, N divides its examples per phase by N."""
    return int(os.environ.get("CONFORMANCE_BUDGET_DIVISOR", "1"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Only the schemathesis checks of this run's mode: ``phases`` (full) or ``read-only-operations``."""
    if "name" in metafunc.fixturenames:
        names = [check.split(" ", 1)[1] for check in planned_checks() if check.startswith("schemathesis ")]
        metafunc.parametrize("name", names, ids=names)


STALE_REFUSALS = {"409 SESSION_REVISION_CONFLICT", "409 SESSION_BUSY", "404 SESSION_NOT_FOUND"}
"""How the host may refuse a replay of a stale revision, by the state the session is in when it arrives."""


def test_schemathesis(plan: Plan, name: str) -> None:
    require(plan, f"schemathesis {name}")
    extra = READ_ONLY_ARGS if name == "read-only-operations" else []
    run = run_schemathesis(
        plan.base_url,
        plan.token("full"),
        reports_dir() / "schemathesis-observations.json",
        output_path=reports_dir() / "schemathesis.txt",
        extra_args=extra,
        config=budget_config(_budget_divisor(), reports_dir()),
        host_id=plan.host_id,
    )
    observed = run.observations
    assert observed, f"the run left no observations:\n{run.output[-4000:]}"
    assert run.returncode == 0, f"schemathesis found failures (schemathesis.txt):\n{run.failure_section}"
    assert not observed["errors"], observed["errors"]
    if name == "read-only-operations":
        return
    assert set(observed["statuses"]) == set(spec.operations()), "every operation of the spec is tested"
    assert {"examples", "coverage", "fuzzing", "stateful"} <= set(observed["casesByPhase"])
    # No stale replay ran a turn; with the full budget the test-only link is reached for sure (a smaller budget may
    # stop the stateful phase before it: its figures then say so). Which refusal a replay meets depends on the walk,
    # and the walk on answers that depend on timing (a busy session): the conflict when the session is still there,
    # SESSION_NOT_FOUND once an earlier step of the chain deleted it (a CI run met only that), SESSION_BUSY while a
    # turn runs. The conflict itself is proved every run by the session-revision-conflict scenario.
    replays = observed["links"]["staleReplays"]
    assert not any(outcome.startswith("2") for outcome in replays), replays
    if _budget_divisor() == 1:
        assert set(STALE_LINKS) & set(observed["links"]["covered"]), observed["links"]["covered"]
        assert replays and set(replays) <= STALE_REFUSALS, replays
