#!/usr/bin/env python3
"""The repository's contract run (`make contract`): the reference host, checked by the conformance kit as users run it.

    .venv/bin/python contract-tests/run.py [-- PYTEST-ARGS]

1. spec checks of the repository: openapi-spec-validator, Redocly lint (root redocly.yaml), Spectral with our
   ruleset, while hosts from contract-tests/host.json and host-no-sessions.json boot on free 127.0.0.1 ports;
2. the kit, ``python -m agentic_driver_conformance`` (the code path of the ``agentic-driver-conformance``
   command) with the default profile and ``--strict``, twice at once on two hosts from host.json (so that the run
   takes the time of its longest part): ``--only`` spec, discovery, probes and scenarios on one, the schemathesis
   phases on the other (reports/kit/checks/ and reports/kit/schemathesis/: report.json, junit.xml, kit.txt);
3. at the same time, pytest on contract-tests/tests (checks no host run can make): the link test, the Spectral
   ruleset test, the broken-host (mutation) tests and a host defect, each on hosts of their own;
4. writes contract-tests/reports/contract-metrics.json (the kit's figures plus the repository's bars) and prints
   the one-screen summary.

Exits non-zero on any failure or any missed bar (see the summary). Extra arguments after ``--`` go to the
repository's pytest run (for example ``-- -k links``).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

CONTRACT_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(CONTRACT_DIR))

import yaml  # noqa: E402
from openapi_spec_validator import validate  # noqa: E402

from agentic_driver_conformance import metrics  # noqa: E402
from agentic_driver_conformance.metrics import Inputs, StageResult  # noqa: E402
from harness import hosts  # noqa: E402
from harness.paths import (  # noqa: E402
    HOST_CONFIG,
    KIT_DIR,
    LOGS_DIR,
    METRICS_PATH,
    NO_SESSIONS_HOST_CONFIG,
    QUOTAS_HOST_CONFIG,
    REPORTS_DIR,
    ROOT,
    SPEC_PATH,
)

REDOCLY = ROOT / "node_modules" / ".bin" / "redocly"
SPECTRAL = CONTRACT_DIR / "node_modules" / ".bin" / "spectral"
RULESET = CONTRACT_DIR / "spectral" / "ruleset.yaml"
LINT_TIMEOUT_S = 120
PYTEST_TIMEOUT_S = 600
KIT_TIMEOUT_S = 900
# Every check of the kit but the schemathesis phases (which the second kit run does on a host of its own).
KIT_CHECKS = ("spec", "discovery", "probe", "scenario")
MUTATION_TESTS = (
    "test_stale_revision_answered_200_is_caught",
    "test_busy_answered_with_400_is_caught",
    "test_a_code_the_answer_does_not_list_is_caught",
)


def _prepare_reports() -> dict[str, Any] | None:
    previous = json.loads(METRICS_PATH.read_text()) if METRICS_PATH.exists() else None
    REPORTS_DIR.mkdir(parents=True, exist_ok=True)
    for name in ("observations.jsonl", "schemathesis-observations.json", "pytest.xml", "schemathesis.txt"):
        (REPORTS_DIR / name).unlink(missing_ok=True)
    shutil.rmtree(LOGS_DIR, ignore_errors=True)
    shutil.rmtree(KIT_DIR, ignore_errors=True)
    return previous


_Lint = tuple[str, float, str | tuple[subprocess.Popen[bytes], IO[str]]]
"""A started lint: its name, its start time, and why it could not start or its process and log."""


def _start_lint(name: str, binary: Path, arguments: list[str], install_hint: str) -> _Lint:
    if not binary.exists():
        return name, time.monotonic(), f"{binary.relative_to(ROOT)} is missing: {install_hint}"
    log = open(REPORTS_DIR / f"{name}.txt", "w", encoding="utf-8")  # noqa: SIM115  (closed in _finish_lint)
    process = subprocess.Popen([str(binary), *arguments], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    return name, time.monotonic(), (process, log)


def _finish_lint(started: _Lint) -> StageResult:
    name, start, handle = started
    if isinstance(handle, str):
        return StageResult(name, False, 0.0, handle)
    process, log = handle
    try:
        code = process.wait(LINT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        code = -1
    log.close()
    output = (REPORTS_DIR / f"{name}.txt").read_text(encoding="utf-8", errors="replace")
    if code != 0:
        print(f"--- {name} failed (reports/{name}.txt) ---\n{output[-3000:]}")
    return StageResult(name, code == 0, time.monotonic() - start, f"exit {code}")


def _validate_spec() -> StageResult:
    start = time.monotonic()
    try:
        validate(yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")))
    except Exception as error:  # the validator raises its own exception tree
        print(f"--- openapi-spec-validator failed ---\n{error}")
        return StageResult("openapi-spec-validator", False, time.monotonic() - start, str(error)[:500])
    return StageResult("openapi-spec-validator", True, time.monotonic() - start)


def _start_pytest(extra: list[str]) -> tuple[float, subprocess.Popen[str]]:
    """The repository's own tests, in the background (each starts the hosts it needs)."""
    env = {
        **os.environ,
        "CONTRACT_OBSERVATIONS": str(REPORTS_DIR / "observations.jsonl"),
        "PYTHONPATH": str(CONTRACT_DIR),
    }
    env.pop("SCHEMATHESIS_HOOKS", None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-c",
        str(CONTRACT_DIR / "pytest.ini"),
        "--rootdir",
        str(CONTRACT_DIR),
        "tests",
        "-q",
        "--tb=short",
        "-o",
        "junit_family=xunit2",
        f"--junitxml={REPORTS_DIR / 'pytest.xml'}",
        *extra,
    ]
    log = open(REPORTS_DIR / "pytest.txt", "w", encoding="utf-8")  # noqa: SIM115  (the process writes it to the end)
    process = subprocess.Popen(command, cwd=CONTRACT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)
    return time.monotonic(), process


def _finish_pytest(started: tuple[float, subprocess.Popen[str]]) -> StageResult:
    start, process = started
    try:
        code = process.wait(PYTEST_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        code = -1
    output = (REPORTS_DIR / "pytest.txt").read_text(encoding="utf-8", errors="replace")
    last = (output.strip().splitlines() or ["(no output)"])[-1]
    print(f"repository tests (links, Spectral ruleset, broken hosts, host defect): {last}")
    if code != 0:
        print(f"--- repository tests failed (reports/pytest.txt) ---\n{output[-4000:]}")
    return StageResult("repository tests", code == 0, time.monotonic() - start, f"exit {code}")


def _kit(
    part: str, base_url: str, no_sessions: hosts.Host, only: list[str], quotas: hosts.Host | None = None
) -> tuple[str, float, subprocess.Popen[str]]:
    """The kit's CLI, exactly as a user runs it, against a reference host (tokens from the environment)."""
    out = KIT_DIR / part
    out.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "agentic_driver_conformance",
        "--base-url",
        base_url,
        "--no-sessions-base-url",
        no_sessions.base_url,
        *(["--quotas-base-url", quotas.base_url] if quotas is not None else []),
        "--strict",
        "--report",
        str(out / "report.json"),
        "--junit",
        str(out / "junit.xml"),
        *[f"--only={check}" for check in only],
    ]
    print(f"kit ({part}): agentic-driver-conformance " + " ".join(command[3:]), flush=True)
    env = {**os.environ, **hosts.token_environment()}
    log = open(out / "kit.txt", "w", encoding="utf-8")  # noqa: SIM115  (the process writes it to the end)
    return part, time.monotonic(), subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)


def _finish_kit(started: tuple[str, float, subprocess.Popen[str]]) -> StageResult:
    part, start, process = started
    try:
        code = process.wait(KIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        code = -1
    output = (KIT_DIR / part / "kit.txt").read_text(encoding="utf-8", errors="replace")
    summary = output[output.find("conformance: ") :] if "conformance: " in output else output[-4000:]
    print(f"--- kit ({part}), {KIT_DIR.relative_to(ROOT) / part / 'kit.txt'} ---\n{summary}", flush=True)
    report = KIT_DIR / part / "report.json"
    # The kit's own measure of its run (both runs are waited for in turn, so the wall clock here would not say).
    seconds = json.loads(report.read_text())["runTimeSeconds"] if report.exists() else time.monotonic() - start
    return StageResult(f"kit {part}", code == 0, seconds, f"exit {code}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    started = time.monotonic()
    previous = _prepare_reports()
    stages: list[StageResult] = []

    # The hosts boot while the spec is checked. The kit runs twice at once, each run on a host of its own: the checks
    # that need one (spec, discovery, probes, scenarios) and the schemathesis phases, which fill the store on purpose.
    booting = [
        hosts.spawn("main", HOST_CONFIG),
        hosts.spawn("schemathesis", HOST_CONFIG),
        hosts.spawn("no-sessions", NO_SESSIONS_HOST_CONFIG),
        hosts.spawn("quotas", QUOTAS_HOST_CONFIG),
    ]
    main_host, schemathesis_host, no_sessions_host, quotas_host = booting
    try:
        lints = [
            _start_lint("redocly", REDOCLY, ["lint", "openapi.yaml"], "run `npm ci` at the repository root"),
            _start_lint(
                "spectral",
                SPECTRAL,
                ["lint", "openapi.yaml", "--ruleset", str(RULESET.relative_to(ROOT)), "--fail-severity=warn"],
                "run `npm ci` in contract-tests/",
            ),
        ]
        stages.append(_validate_spec())
        stages += [_finish_lint(lint) for lint in lints]
        for host in booting:
            hosts.wait_ready(host)
        print("spec checks: " + ", ".join(f"{s.name} {'ok' if s.passed else 'FAILED'}" for s in stages), flush=True)
        repository_tests = _start_pytest(extra)
        # Finished children only: the hosts and the repository tests are reaped after the kits, so this is the kits'.
        cpu_before_kits = _children_cpu()
        kits = [
            _kit("schemathesis", schemathesis_host.base_url, no_sessions_host, ["schemathesis"]),
            _kit("checks", main_host.base_url, no_sessions_host, [*KIT_CHECKS], quotas_host),
        ]
        stages += [_finish_kit(kit) for kit in kits]
        kit_cpu_seconds = _children_cpu() - cpu_before_kits
        stages.append(_finish_pytest(repository_tests))
    finally:
        for host in booting:
            host.stop()

    kit_report_path = KIT_DIR / "checks" / "report.json"
    kit_report = json.loads(kit_report_path.read_text()) if kit_report_path.exists() else {}
    document = metrics.build(
        run_seconds=time.monotonic() - started,
        stages=stages,
        previous=previous,
        inputs=Inputs(
            schemathesis=[KIT_DIR / "schemathesis" / "schemathesis-observations.json"],
            observations=[KIT_DIR / part / "observations.jsonl" for part in ("checks", "schemathesis")]
            + [REPORTS_DIR / "observations.jsonl"],
            junit=[KIT_DIR / part / "junit.xml" for part in ("checks", "schemathesis")] + [REPORTS_DIR / "pytest.xml"],
            plan=kit_report.get("plan"),
            fingerprint_files=[HOST_CONFIG, *sorted((ROOT / "server" / "src").rglob("*.py"))],
        ),
        kit_cpu_seconds=kit_cpu_seconds,
    )
    bars = metrics.kit_bars(document, strict=True) + metrics.coverage_bars(
        document, mutation_tests=list(MUTATION_TESTS)
    )
    document = metrics.with_bars(document, bars)
    metrics.write(document, METRICS_PATH)
    print()
    print(metrics.summary(document, title="contract tests", report=METRICS_PATH.relative_to(ROOT), artifacts=KIT_DIR))
    return 0 if document["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
