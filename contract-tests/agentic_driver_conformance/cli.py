"""``agentic-driver-conformance``: does the running host at --base-url honour openapi.yaml?

    agentic-driver-conformance --base-url URL [--profile FILE|NAME] [--read-only] [--strict]
                               [--junit FILE] [--report FILE] [--no-sessions-base-url URL]
                               [--quotas-base-url URL] [--only CHECK ...]

1. loads the profile (default: the shipped ``default`` profile, what contract-tests/host.json configures) and
   reads the tokens' secrets from the environment variables it names;
2. reads ``/v1/discovery`` as each token and makes the plan: every check, and for each one it cannot run, why
   (printed now, in the report and as a skipped JUnit test case);
3. runs the checks (pytest on ``agentic_driver_conformance.suite``): the spec checks, discovery, the auth and
   error-shape probes, the scenarios through the generated client, the schemathesis phases;
4. writes the metrics report (``--report``) and the JUnit XML (``--junit``), prints the one-screen summary and
   exits 1 on any failure (or, with ``--strict``, any skip), 2 when it cannot start (bad profile, bad arguments).

It starts and configures nothing: it only sends requests to the URLs it is given. Every loop is bounded, and the
sessions it creates are deleted again.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from . import metrics
from .metrics import Inputs, StageResult
from .profile import Plan, ProfileError, load_profile, make_plan
from .resources import SUITE_DIR

PYTEST_TIMEOUT_S = 900
# Check id prefix -> the suite's test that runs it.
TESTS = {
    "spec": "test_spec.py::test_spec",
    "discovery": "test_discovery.py::test_discovery",
    "probe": "test_probes.py::test_probe",
    "scenario": "test_scenarios.py::test_scenario",
    "schemathesis": "test_schemathesis.py::test_schemathesis",
}
SUITE_FILES = ("test_spec.py", "test_discovery.py", "test_probes.py", "test_scenarios.py", "test_schemathesis.py")
# --budget -> the divisor of every max-examples of schemathesis.toml. `full` is the shipped configuration (what make
# contract runs, about a minute of schemathesis on an idle two-core machine); `quick` runs every phase with a quarter
# of the examples, for a first look or a slow machine.
BUDGETS = {"full": 1, "quick": 4}


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="agentic-driver-conformance", description="Check a running Agentic Driver host against openapi.yaml."
    )
    parse.add_argument("--base-url", required=True, help="the host under test, e.g. http://127.0.0.1:8080")
    parse.add_argument("--profile", help="a profile file, or a shipped profile name: default, read-only")
    parse.add_argument("--read-only", action="store_true", help="no runs, no sessions, no model calls")
    parse.add_argument("--strict", action="store_true", help="any skipped check fails the run")
    parse.add_argument("--junit", type=Path, help="JUnit XML report (default: next to --report, junit.xml)")
    parse.add_argument("--report", type=Path, default=Path("conformance/report.json"), help="metrics JSON report")
    parse.add_argument(
        "--no-sessions-base-url", help="a second host of the deployment without sessions (SESSIONS_DISABLED checks)"
    )
    parse.add_argument(
        "--quotas-base-url",
        help="a host whose limits.perSubject allows 2 sessions, 1 active run and 4 runs a minute per subject, "
        "as contract-tests/host-quotas.json (SUBJECT_QUOTA_EXCEEDED checks)",
    )
    parse.add_argument(
        "--budget", choices=sorted(BUDGETS), default="full", help="schemathesis examples per operation (default full)"
    )
    parse.add_argument(
        "--only", action="append", default=[], metavar="CHECK", help="run only checks whose id starts with CHECK"
    )
    return parse


def _node_ids(plan: Plan, only: list[str]) -> list[str]:
    """The suite's test ids of the selected checks (all files when nothing is selected)."""
    if not only:
        return [str(SUITE_DIR / name) for name in SUITE_FILES]
    nodes = []
    for check in plan.checks:
        if not any(check["id"].startswith(prefix) for prefix in only):
            continue
        prefix = next(key for key in TESTS if check["id"].startswith(key))
        parameter = check["id"][len(prefix) :].strip()
        nodes.append(str(SUITE_DIR / TESTS[prefix]) + (f"[{parameter}]" if parameter else ""))
    if any("discovery".startswith(prefix) or prefix.startswith("discovery") for prefix in only):
        nodes.append(str(SUITE_DIR / "test_discovery.py::test_requirement"))  # each requirement, met or why not
    return nodes


def _pytest(plan_path: Path, artifacts: Path, junit: Path, nodes: list[str], budget: str) -> StageResult:
    started = time.monotonic()
    env = {
        **os.environ,
        "CONFORMANCE_PLAN": str(plan_path),
        "CONTRACT_REPORTS_DIR": str(artifacts),
        "CONTRACT_OBSERVATIONS": str(artifacts / "observations.jsonl"),
        "CONFORMANCE_BUDGET_DIVISOR": str(BUDGETS[budget]),
    }
    env.pop("SCHEMATHESIS_HOOKS", None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-c",
        str(SUITE_DIR / "pytest.ini"),
        "--rootdir",
        str(SUITE_DIR),
        "-q",
        "--tb=short",
        "-rfEs",
        f"--junitxml={junit}",
        *nodes,
    ]
    with open(artifacts / "pytest.txt", "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            command, cwd=artifacts, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert process.stdout is not None
        for line in process.stdout:
            log.write(line)
            sys.stdout.write(line)
        try:
            code = process.wait(PYTEST_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            code = -1
    return StageResult("checks", code in (0, 5), time.monotonic() - started, f"pytest exit {code}")


def _print_plan(plan: Plan, nodes: int, only: list[str]) -> None:
    skipped, not_applicable = plan.skipped(), plan.not_applicable()
    print(f"profile {plan.profile_name} ({plan.mode}) from {plan.profile_path}; host {plan.base_url}")
    print(f"plan: {len(plan.checks)} checks, {len(skipped)} skipped, {len(not_applicable)} not applicable")
    for check, reason in {**skipped, **not_applicable}.items():
        print(f"  skip {check}: {reason}")
    if only:
        print(f"--only {' '.join(only)}: {nodes} of {len(plan.checks)} checks selected")
    sys.stdout.flush()


def run(options: argparse.Namespace) -> int:
    started = time.monotonic()
    report: Path = options.report.resolve()
    artifacts = report.parent
    junit: Path = (options.junit or artifacts / "junit.xml").resolve()
    artifacts.mkdir(parents=True, exist_ok=True)
    previous = json.loads(report.read_text()) if report.exists() else None
    for name in ("observations.jsonl", "schemathesis-observations.json", "schemathesis.txt"):
        (artifacts / name).unlink(missing_ok=True)
    junit.unlink(missing_ok=True)

    planning = time.monotonic()
    plan = make_plan(
        load_profile(options.profile),
        options.base_url.rstrip("/"),
        no_sessions_base_url=options.no_sessions_base_url.rstrip("/") if options.no_sessions_base_url else None,
        quotas_base_url=options.quotas_base_url.rstrip("/") if options.quotas_base_url else None,
        strict=options.strict,
        read_only=options.read_only,
    )
    plan_path = artifacts / "plan.json"
    plan.write(plan_path)
    stages = [StageResult("plan", True, time.monotonic() - planning, "discovery read as every token")]
    nodes = _node_ids(plan, options.only)
    _print_plan(plan, len(nodes), options.only)
    if not nodes:
        print(f"--only {' '.join(options.only)} selects no check", file=sys.stderr)
        return 2
    stages.append(_pytest(plan_path, artifacts, junit, nodes, options.budget))

    summary = plan.summary()
    summary["selected"] = options.only or "all"
    document = metrics.build(
        run_seconds=time.monotonic() - started,
        stages=stages,
        previous=previous,
        inputs=Inputs(
            schemathesis=[artifacts / "schemathesis-observations.json"],
            observations=[artifacts / "observations.jsonl"],
            junit=[junit],
            plan=summary,
        ),
    )
    document = metrics.with_bars(document, metrics.kit_bars(document, strict=options.strict))
    document["junit"] = str(junit)
    metrics.write(document, report)
    print()
    print(metrics.summary(document, title="conformance", report=report, artifacts=artifacts, details=False))
    return 0 if document["passed"] else 1


def main(argv: list[str] | None = None) -> int:
    options = parser().parse_args(argv)
    try:
        return run(options)
    except ProfileError as error:
        print(f"agentic-driver-conformance: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
