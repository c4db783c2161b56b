"""The suite rejects a broken host: each mutation of harness/mutants.py must fail the part that covers it.

- ``stale-revision-accepted`` (a run on a stale revision answered 200): the SESSION_REVISION_CONFLICT
  scenario fails, and so does the schemathesis stateful phase (the test-only stale-revision link plus the
  ``session_revisions_honoured`` check).
- ``busy-as-400`` (SESSION_BUSY sent with status 400): the SESSION_BUSY scenario and the race fail on
  schemathesis' status_code_conformance.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_driver_conformance import scenarios
from agentic_driver_conformance.schemathesis_run import run_schemathesis
from harness import hosts
from harness.paths import HOST_CONFIG

pytestmark = pytest.mark.slow


def _scenario(name: str) -> scenarios.Scenario:
    return next(scenario for scenario in scenarios.all_scenarios() if scenario.name == name)


def _failure_of(scenario_name: str, base_url: str) -> str:
    runner = scenarios.Runner({"main": base_url}, hosts.TOKENS)
    try:
        runner.play(_scenario(scenario_name))
    except AssertionError as failure:
        return str(failure)
    finally:
        runner.close()
    raise AssertionError(f"the {scenario_name} scenario passed against a broken host")


@pytest.fixture
def quiet_observations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Broken hosts' answers must not count towards the metrics of the real host."""
    monkeypatch.setenv("CONTRACT_OBSERVATIONS", str(tmp_path / "observations.jsonl"))
    return tmp_path


def test_stale_revision_answered_200_is_caught(quiet_observations: Path) -> None:
    with hosts.running([("mutant-stale", HOST_CONFIG, "stale-revision-accepted")]) as (host,):
        failure = _failure_of("session-revision-conflict", host.base_url)
        assert "status 200, expected 409" in failure or "Stale revision accepted" in failure, failure

        run = run_schemathesis(
            host.base_url,
            hosts.TOKENS["full"],
            quiet_observations / "schemathesis-observations.json",
            output_path=quiet_observations / "schemathesis.txt",
            # Only the session flow (createSession and run links, the stale replay among them), stopping at the first
            # failure: the point is that the stateful phase notices, not how much else it would find.
            extra_args=[
                "--phases",
                "stateful",
                "--include-operation-id",
                "createSession",
                "--include-operation-id",
                "run",
                "--max-failures",
                "1",
                "--no-shrink",
            ],
        )
    assert run.returncode != 0, "the stateful phase passed against a host that accepts stale revisions"
    caught = {failure["check"] for failure in run.observations["failures"]}
    assert "session_revisions_honoured" in caught, run.failure_section


def test_a_code_the_answer_does_not_list_is_caught(quiet_observations: Path) -> None:
    # The schema's `code` is open to later codes, so only the answer's x-error-codes list can tell.
    with hosts.running([("mutant-code", HOST_CONFIG, "run-not-found-as-session-not-found")]) as (host,):
        failure = _failure_of("not-found", host.base_url)
    assert "cancelRun answered 404 with code 'SESSION_NOT_FOUND'" in failure, failure


def test_busy_answered_with_400_is_caught(quiet_observations: Path) -> None:
    with hosts.running([("mutant-busy", HOST_CONFIG, "busy-as-400")]) as (host,):
        for name in ("session-busy", "session-race"):
            failure = _failure_of(name, host.base_url)
            assert "Undocumented status code" in failure and "Received: 400" in failure, failure
