#!/usr/bin/env python3
"""The contract suite's one entry point: proves that the reference host honours openapi.yaml.

    .venv/bin/python contract-tests/run.py [-- PYTEST-ARGS]

1. spec checks: openapi-spec-validator, Redocly lint (root redocly.yaml), Spectral with our ruleset;
2. starts hosts from contract-tests/host.json (one for the schema-wide run, one for the scenarios) and
   host-no-sessions.json on free 127.0.0.1 ports, while the spec checks run;
3. runs pytest on contract-tests/tests: the schemathesis phases, the scenarios through the generated
   client, the link test, the Spectral ruleset test and the broken-host (mutation) tests;
4. writes contract-tests/reports/contract-metrics.json and prints a one-screen summary.

Exits non-zero on any failure or any missed bar (see the summary). Extra arguments after ``--`` go to
pytest (for example ``-- -k scenario``); the bars then naturally report what was left out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

CONTRACT_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(CONTRACT_DIR))

import yaml  # noqa: E402
from openapi_spec_validator import validate  # noqa: E402

from harness import hosts, metrics  # noqa: E402
from harness.metrics import StageResult  # noqa: E402
from harness.paths import (  # noqa: E402
    HOST_CONFIG,
    LOGS_DIR,
    METRICS_PATH,
    NO_SESSIONS_HOST_CONFIG,
    REPORTS_DIR,
    ROOT,
    SPEC_PATH,
)

REDOCLY = ROOT / "node_modules" / ".bin" / "redocly"
SPECTRAL = CONTRACT_DIR / "node_modules" / ".bin" / "spectral"
RULESET = CONTRACT_DIR / "spectral" / "ruleset.yaml"
LINT_TIMEOUT_S = 120
PYTEST_TIMEOUT_S = 600


def _prepare_reports() -> dict | None:
    previous = json.loads(METRICS_PATH.read_text()) if METRICS_PATH.exists() else None
    REPORTS_DIR.mkdir(parents=True, exist_ok=True)
    for name in ("observations.jsonl", "schemathesis-observations.json", "pytest.xml", "schemathesis.txt"):
        (REPORTS_DIR / name).unlink(missing_ok=True)
    shutil.rmtree(LOGS_DIR, ignore_errors=True)
    return previous


def _start_lint(name: str, binary: Path, arguments: list[str], install_hint: str) -> tuple[str, float, object]:
    if not binary.exists():
        return name, time.monotonic(), f"{binary.relative_to(ROOT)} is missing: {install_hint}"
    log = open(REPORTS_DIR / f"{name}.txt", "w", encoding="utf-8")  # noqa: SIM115  (closed in _finish_lint)
    process = subprocess.Popen([str(binary), *arguments], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    return name, time.monotonic(), (process, log)


def _finish_lint(started: tuple[str, float, object]) -> StageResult:
    name, start, handle = started
    if isinstance(handle, str):
        return StageResult(name, False, 0.0, handle)
    process, log = handle  # type: ignore[misc]
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


def _pytest(host_urls: dict[str, str], extra: list[str]) -> StageResult:
    start = time.monotonic()
    env = {
        **os.environ,
        "CONTRACT_HOSTS": json.dumps(host_urls),
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
    print("pytest: schemathesis phases, scenarios, links, Spectral ruleset, broken hosts", flush=True)
    with open(REPORTS_DIR / "pytest.txt", "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            command, cwd=CONTRACT_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert process.stdout is not None
        for line in process.stdout:
            log.write(line)
            sys.stdout.write(line)
        code = process.wait(PYTEST_TIMEOUT_S)
    return StageResult("pytest", code == 0, time.monotonic() - start, f"exit {code}")


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    started = time.monotonic()
    previous = _prepare_reports()
    stages: list[StageResult] = []

    # The hosts boot while the spec is checked.
    booting = [
        hosts.spawn("schemathesis", HOST_CONFIG),
        hosts.spawn("main", HOST_CONFIG),
        hosts.spawn("no-sessions", NO_SESSIONS_HOST_CONFIG),
    ]
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
        stages.append(_pytest({host.name: host.base_url for host in booting}, extra))
    finally:
        for host in booting:
            host.stop()

    document = metrics.build(run_seconds=time.monotonic() - started, stages=stages, previous=previous)
    metrics.write(document)
    print()
    print(metrics.summary(document))
    return 0 if document["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
