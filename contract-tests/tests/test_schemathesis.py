"""The schema-wide schemathesis run: examples, coverage, fuzzing and stateful phases, every check."""

from __future__ import annotations

from harness.schemathesis_run import Background
from harness.spec import operations

STALE_LINK = "POST /v1/runs -> [200] replayStaleRevision -> POST /v1/runs"


def test_schema_wide_run(schema_wide_run: Background) -> None:
    """Started by conftest.py with the session; here its outcome is judged (reports/schemathesis.txt)."""
    run = schema_wide_run.wait()
    observed = run.observations
    assert observed, f"the run left no observations:\n{run.output[-4000:]}"
    assert run.returncode == 0, f"schemathesis found failures (reports/schemathesis.txt):\n{run.failure_section}"
    assert not observed["errors"], observed["errors"]
    assert set(observed["statuses"]) == set(operations()), "every operation of the spec is tested"
    assert {"examples", "coverage", "fuzzing", "stateful"} <= set(observed["casesByPhase"])
    # The test-only link reached the revision check, and every stale replay was refused with the conflict.
    assert STALE_LINK in observed["links"]["covered"]
    replays = observed["links"]["staleReplays"]
    assert replays.get("409 SESSION_REVISION_CONFLICT", 0) >= 1, replays
    assert not any(outcome.startswith("2") for outcome in replays), replays
