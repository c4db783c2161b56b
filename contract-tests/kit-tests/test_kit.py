"""The conformance kit as users get it: built into a wheel, installed into a fresh venv, run against live hosts.

- the kit installed from its wheel (not editable) passes against a reference host that this test starts from a
  config it writes from the kit's default profile (and that config is exactly contract-tests/host.json);
- it fails, naming the failing check, against every broken host of harness/mutants.py;
- against a host that lacks a provider of the profile it lists the skipped checks with the reason, and
  ``--strict`` exits non-zero;
- the same kit passes against two reference hosts (the same config, host ids kit-a and kit-b) behind the HAProxy
  configuration that ``agentic-driver cluster config`` generates, and both hosts' own /metrics show the kit's
  runs reached each of them (the quick budget: it adds the proxy and the routing, not new checks);
- its JUnit XML validates against the JUnit XSD that pytest's own tests use (fixtures/junit-10.xsd);
- the read-only profile makes no model call and creates no session;
- the CI recipes in docs/ci/ install and invoke the kit as its CLI expects.

Run times and figures go to reports/kit-tests.json (gitignored) and are printed.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import httpx
import pytest
import xmlschema
import yaml

from agentic_driver_conformance import cli, scenarios
from agentic_driver_conformance.profile import load_profile
from harness import hosts
from harness.haproxy import running_haproxy
from harness.mutants import MUTATIONS
from harness.paths import CONTRACT_DIR, HOST_CONFIG, REPORTS_DIR, ROOT

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures"
INSTALL_TIMEOUT_S = 600
KIT_TIMEOUT_S = 600
FIGURES: dict[str, Any] = {}

# Which check of the kit each broken host fails, and the symptom its JUnit report must give for it (a failure for
# another reason, such as a 500 from a mutant that broke more than it meant to, must not pass); the kit runs just
# those checks (a full run per mutant would take minutes each; the reference run shows they pass there).
MUTANT_CHECKS: dict[str, tuple[list[str], str, str]] = {
    "stale-revision-accepted": (
        ["scenario session-revision-conflict"],
        "scenario session-revision-conflict",
        "got 200 instead of 409 SESSION_REVISION_CONFLICT",
    ),
    "busy-as-400": (["scenario session-busy"], "scenario session-busy", '"status":400,"code":"SESSION_BUSY"'),
    "busy-without-retry-after": (
        ["scenario session-busy"],
        "scenario session-busy",
        "`retryAfterSeconds` is 1 but Retry-After is None",
    ),
    "weakened-served-spec": (["spec"], "spec served-document", "components.schemas differs"),
    "run-not-found-as-session-not-found": (
        ["scenario not-found"],
        "scenario not-found",
        "answered 404 with code 'SESSION_NOT_FOUND'; that answer documents RUN_NOT_FOUND",
    ),
    "defect": (["spec", "discovery"], "discovery answer", "GET /v1/discovery answered 500"),
}


# -- the host config a profile describes ----------------------------------------------------------------------------


def config_from_profile(profile: dict[str, Any], *, host_id: str = "contract-host") -> dict[str, Any]:
    """A reference host config that exposes exactly what the profile requires."""
    providers = []
    for provider_id, spec in profile["providers"].items():
        entry: dict[str, Any] = {"id": provider_id, "kind": spec["kind"]}
        if spec.get("accountBound"):
            entry["accountId"] = "acct-contract"
        entry["models"] = spec["models"]
        settings = dict(spec.get("declared", {}).get("settings", {}))
        if spec.get("capabilities", {}).get("nativeContinuation") is False:
            settings["native"] = False
        if settings:
            entry["settings"] = settings
        providers.append(entry)
    sessions = {key: value for key, value in profile["sessions"].items() if key != "enabled"}
    tools = [
        {
            "name": tool["name"],
            "handler": tool["handler"],
            "approval": tool["approval"],
            "description": "Waits `delay` seconds, then answers `result`.",
            "parameters": {
                "type": "object",
                "properties": {"delay": {"type": "number"}, "result": {"type": "string"}},
            },
        }
        for tool in profile["declared"]["hostTools"]
    ]
    tokens = [
        {
            "subject": spec["subject"],
            "tokenEnv": spec["env"],
            "providers": ["*"] if spec["providers"] == "*" else spec["providers"],
            "sessions": spec["sessionGrants"],
        }
        for spec in profile["tokens"].values()
    ]
    return {
        "hostId": host_id,
        "providers": providers,
        "sessions": sessions,
        "limits": profile["declared"]["limits"],
        "idempotency": {"maxKeys": 1000, "ttlMs": 600000},
        "tools": tools,
        "tokens": tokens,
    }


def test_the_default_profile_describes_host_json() -> None:
    """A host started from contract-tests/host.json is what the default profile asks for, nothing more or less."""
    assert config_from_profile(load_profile(None)) == json.loads(HOST_CONFIG.read_text(encoding="utf-8"))


# -- the kit from its wheel -----------------------------------------------------------------------------------------


def _run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)
    if done.returncode != 0:
        raise AssertionError(f"{shlex.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


@pytest.fixture(scope="session")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The ``agentic-driver-conformance`` command of a fresh venv holding the client and kit wheels (no editable)."""
    started = time.monotonic()
    base = tmp_path_factory.mktemp("kit")
    dist = base / "dist"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(dist),
            "./clients/python",
            "./contract-tests",
        ],
        cwd=ROOT,
        timeout=INSTALL_TIMEOUT_S,
    )
    wheels = sorted(dist.glob("*.whl"))
    assert [wheel.name.split("-")[0] for wheel in wheels] == ["agentic_driver_client", "agentic_driver_conformance"]
    venv.create(base / "venv", with_pip=True, clear=True)
    python = base / "venv" / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", *map(str, wheels)], timeout=INSTALL_TIMEOUT_S)
    where = _run(
        [str(python), "-c", "import agentic_driver_conformance.resources as r; print(r.INSTALLED, r.SPEC_PATH)"],
        cwd=base,
    ).stdout.split()
    assert where[0] == "True" and where[1].startswith(str(base / "venv")), where
    FIGURES["installSeconds"] = round(time.monotonic() - started, 1)
    yield base / "venv" / "bin" / "agentic-driver-conformance"


@pytest.fixture(scope="session", autouse=True)
def figures() -> Iterator[dict[str, Any]]:
    yield FIGURES
    REPORTS_DIR.mkdir(parents=True, exist_ok=True)
    (REPORTS_DIR / "kit-tests.json").write_text(json.dumps(FIGURES, indent=2) + "\n", encoding="utf-8")
    print("\nkit figures: " + json.dumps(FIGURES))


class KitRun:
    def __init__(self, returncode: int, output: str, out: Path, seconds: float, cpu_seconds: float) -> None:
        self.returncode = returncode
        self.output = output
        self.report: dict[str, Any] = (
            json.loads((out / "report.json").read_text()) if (out / "report.json").exists() else {}
        )
        self.junit = out / "junit.xml"
        self.seconds = seconds
        self.cpu_seconds = cpu_seconds
        """User + system time of the kit and everything it started (pytest, the schemathesis CLI)."""

    @property
    def failed_checks(self) -> list[str]:
        from agentic_driver_conformance.metrics import check_name

        return sorted(check_name(name) for name in self.report["testCases"]["pytest"]["failures"])


@dataclass
class StartedKit:
    process: subprocess.Popen[bytes]
    out: Path
    started: float


def start_kit(kit: Path, out: Path, base_url: str, *arguments: str) -> StartedKit:
    """The installed kit's command, started; its output goes to out/kit-output.txt (two can run at once)."""
    out.mkdir(parents=True, exist_ok=True)
    command = [str(kit), "--base-url", base_url, "--report", str(out / "report.json"), *arguments]
    env = {**os.environ, **hosts.token_environment()}
    env.pop("PYTHONPATH", None)
    with (out / "kit-output.txt").open("wb") as log:
        process = subprocess.Popen(command, cwd=out, env=env, stdout=log, stderr=subprocess.STDOUT)
    return StartedKit(process, out, time.monotonic())


def finish_kit(started: StartedKit) -> KitRun:
    """Waits (bounded) for the kit and reaps it with os.wait4, whose rusage is this kit's own CPU time."""
    deadline = started.started + KIT_TIMEOUT_S
    pid, status, usage = os.wait4(started.process.pid, os.WNOHANG)
    while pid == 0 and time.monotonic() < deadline:
        time.sleep(0.2)  # polling a child's exit: os.wait4 has no timeout of its own
        pid, status, usage = os.wait4(started.process.pid, os.WNOHANG)
    if pid == 0:
        started.process.kill()
        _, status, usage = os.wait4(started.process.pid, 0)
    started.process.returncode = os.waitstatus_to_exitcode(status)
    output = (started.out / "kit-output.txt").read_text(encoding="utf-8", errors="replace")
    seconds = time.monotonic() - started.started
    return KitRun(started.process.returncode, output, started.out, seconds, usage.ru_utime + usage.ru_stime)


def junit_text(report: Path) -> str:
    """Every message and text of a JUnit report's failures, errors and skips: what a CI system shows."""
    parts = []
    for element in ElementTree.parse(report).iter():
        if element.tag in ("failure", "error", "skipped"):
            parts += [element.get("message", ""), element.text or ""]
    return "\n".join(parts)


def run_kit(kit: Path, out: Path, base_url: str, *arguments: str) -> KitRun:
    return finish_kit(start_kit(kit, out, base_url, *arguments))


def _write_config(tmp_path: Path, profile: dict[str, Any], drop_provider: str | None = None) -> Path:
    config = config_from_profile(profile)
    if drop_provider is not None:
        config["providers"] = [p for p in config["providers"] if p["id"] != drop_provider]
    path = tmp_path / "host.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


def _metric(base_url: str, name: str) -> float:
    text = httpx.get(f"{base_url}/metrics", trust_env=False, timeout=10.0).text
    return scenarios.metric_value(text, name, {})


CLUSTER = ("kit-a", "kit-b")
"""The host ids behind the proxy: one config, ``serve --host-id``."""


@pytest.fixture(scope="session")
def reference_runs(kit: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, KitRun]:
    """The installed kit with nothing but --base-url (and the quick budget), at once against a reference host
    started here from the profile's config, directly, and against a cluster of two more (the same config, host ids
    kit-a and kit-b) behind the generated HAProxy config.

    Every check and every schemathesis phase runs; the quick budget only divides the examples per operation.
    `make contract` runs the same kit code at the full budget and holds the three-minute bar (metrics.py).
    Each cluster host's own /metrics (read directly, not through the proxy) says what reached it.
    """
    tmp_path = tmp_path_factory.mktemp("reference")
    config = _write_config(tmp_path, load_profile(None))
    specs = [("kit-reference", config, None), ("kit-a", config, None), ("kit-b", config, None)]
    with (
        hosts.running(specs, host_ids={name: name for name in CLUSTER}) as (direct, *cluster),
        running_haproxy({host.name: host.base_url for host in cluster}, tmp_path, hosts.TOKENS["full"]) as proxy_url,
    ):
        started = {
            "direct": start_kit(kit, tmp_path / "direct", direct.base_url, "--budget", "quick"),
            "behind-haproxy": start_kit(kit, tmp_path / "behind-haproxy", proxy_url, "--budget", "quick"),
        }
        runs = {name: finish_kit(run) for name, run in started.items()}
        FIGURES["referenceRun"] = _figures(runs["direct"]) | {
            "sessionsLeftOnTheHost": _metric(direct.base_url, "agentic_driver_sessions_stored")
        }
        FIGURES["behindHaproxy"] = _figures(runs["behind-haproxy"]) | {
            "hosts": {host.name: _host_figures(host.base_url) for host in cluster}
        }
    return runs


def _host_figures(base_url: str) -> dict[str, float]:
    """What one host of the cluster says it did, from its own /metrics."""
    text = httpx.get(f"{base_url}/metrics", trust_env=False, timeout=10.0).text  # one scrape for all four
    return {
        "runsEnded": scenarios.metric_value(text, "agentic_driver_runs_total", {}),
        "providerCalls": scenarios.metric_value(text, "agentic_driver_provider_calls_total", {}),
        "misdirected": scenarios.metric_value(text, "agentic_driver_errors_total", {"code": "MISDIRECTED_REQUEST"}),
        "sessionsLeft": scenarios.metric_value(text, "agentic_driver_sessions_stored", {}),
    }


def _figures(run: KitRun) -> dict[str, Any]:
    return {
        "seconds": round(run.seconds, 1),
        "cpuSeconds": round(run.cpu_seconds, 1),
        "budget": "quick",
        "loadAverage1min": round(os.getloadavg()[0], 1),
        "passed": run.report.get("passed"),
        "stages": run.report.get("stages"),
        "schemathesisCases": run.report.get("testCases", {}).get("schemathesisByPhase"),
        "scenarioRequests": run.report.get("testCases", {}).get("scenarioRequests"),
        "checks": {k: run.report.get("checks", {}).get(k) for k in ("passed", "failed")},
    }


@pytest.fixture(scope="session")
def reference_run(reference_runs: dict[str, KitRun]) -> KitRun:
    return reference_runs["direct"]


def test_the_installed_kit_passes_against_the_reference_host(reference_run: KitRun) -> None:
    assert reference_run.returncode == 0, reference_run.output[-6000:]
    report = reference_run.report
    assert report["passed"], report["bars"]
    assert report["plan"]["skipped"] == {}, report["plan"]["skipped"]
    assert list(report["plan"]["notApplicable"]) == ["scenario sessions-disabled", "scenario subject-quotas"]
    pytest_counts = report["testCases"]["pytest"]
    assert pytest_counts["failed"] == 0 and pytest_counts["passed"] > 30, pytest_counts
    assert set(report["testCases"]["schemathesisByPhase"]) == {"examples", "coverage", "fuzzing", "stateful"}
    assert "conformance: Agentic Driver" in reference_run.output and "->  PASS" in reference_run.output


def test_the_kit_leaves_no_session_behind(reference_run: KitRun) -> None:
    assert FIGURES["referenceRun"]["sessionsLeftOnTheHost"] == 0


def test_the_installed_kit_passes_against_two_reference_hosts_behind_haproxy(
    reference_runs: dict[str, KitRun],
) -> None:
    """Issue 20's bar for a deployment behind a proxy, with issue 17's routing: two hosts the profile describes
    (kit-a, kit-b), behind the generated HAProxy config, every check through the proxy's URL only. The kit sends
    Agentic-Host like a client, so a run naming its session in the body reaches the host that holds it; without
    the header the proxy balances such runs and about half of them are answered 421 (the rule itself:
    contract-tests/tests/test_routing.py)."""
    run = reference_runs["behind-haproxy"]
    assert run.returncode == 0, run.output[-6000:]
    report = run.report
    assert report["passed"], report["bars"]
    assert report["plan"]["skipped"] == {}, report["plan"]["skipped"]
    assert list(report["plan"]["notApplicable"]) == ["scenario sessions-disabled", "scenario subject-quotas"]
    assert report["plan"]["hostId"] in CLUSTER, report["plan"]["hostId"]
    assert report["testCases"]["pytest"]["failed"] == 0 and report["testCases"]["pytest"]["passed"] > 30
    assert set(report["testCases"]["schemathesisByPhase"]) == {"examples", "coverage", "fuzzing", "stateful"}
    # The hosts' own counters, read from each host directly: the kit's runs reached both, none left a session.
    per_host = FIGURES["behindHaproxy"]["hosts"]
    assert all(figures["runsEnded"] > 0 and figures["providerCalls"] > 0 for figures in per_host.values()), per_host
    assert all(figures["sessionsLeft"] == 0 for figures in per_host.values()), per_host


def test_the_junit_report_validates_against_the_junit_xsd(reference_run: KitRun, tmp_path: Path) -> None:
    schema = xmlschema.XMLSchema(str(FIXTURES / "junit-10.xsd"))
    schema.validate(str(reference_run.junit))
    names = {case.get("name", "") for case in ElementTree.parse(reference_run.junit).getroot().iter("testcase")}
    assert "test_scenario[session-busy]" in names and "test_schemathesis[phases]" in names, sorted(names)


# Mutations of the host's auth, which the main kit cannot see; the auth profile's own test below runs them.
AUTH_MUTATIONS = {"jwt-expiry-ignored"}


def test_every_mutation_is_run_by_one_kit_test() -> None:
    assert set(MUTANT_CHECKS).isdisjoint(AUTH_MUTATIONS)
    assert set(MUTANT_CHECKS) | AUTH_MUTATIONS == set(MUTATIONS), sorted(set(MUTATIONS) ^ set(MUTANT_CHECKS))


@pytest.mark.parametrize("mutation", sorted(MUTANT_CHECKS))
def test_the_kit_fails_against_a_broken_host(kit: Path, tmp_path: Path, mutation: str) -> None:
    only, failing, symptom = MUTANT_CHECKS[mutation]
    with hosts.running([(f"kit-mutant-{mutation}", HOST_CONFIG, mutation)]) as (host,):
        run = run_kit(kit, tmp_path / "out", host.base_url, *[f"--only={check}" for check in only])
    assert run.returncode == 1, run.output[-4000:]
    assert any(check.startswith(failing) for check in run.failed_checks), (run.failed_checks, run.output[-4000:])
    assert f"FAILED {failing}" in run.output, run.output[-4000:]
    assert symptom in junit_text(run.junit), junit_text(run.junit)[-4000:]
    # Failures and skips are JUnit too: the report still validates.
    xmlschema.XMLSchema(str(FIXTURES / "junit-10.xsd")).validate(str(run.junit))
    FIGURES.setdefault("mutants", {})[mutation] = {"failedChecks": run.failed_checks, "seconds": round(run.seconds, 1)}


def test_a_missing_provider_is_listed_as_skips_and_strict_fails(kit: Path, tmp_path: Path) -> None:
    config = _write_config(tmp_path, load_profile(None), drop_provider="echo-fixed")
    only = ["--only=spec", "--only=scenario provider-failures"]
    with hosts.running([("kit-missing-provider", config, None)]) as (host,):
        lenient = run_kit(kit, tmp_path / "lenient", host.base_url, *only)
        strict = run_kit(kit, tmp_path / "strict", host.base_url, *only, "--strict")
    skipped = lenient.report["plan"]["skipped"]
    assert "scenario provider-failures" in skipped, skipped
    assert "echo-fixed" in skipped["scenario provider-failures"], skipped
    assert lenient.report["plan"]["requirements"]["provider:echo-fixed"], "the requirement is reported unmet"
    assert "skip scenario provider-failures: provider:echo-fixed" in lenient.output, lenient.output[-3000:]
    assert lenient.returncode == 0, lenient.output[-4000:]
    assert strict.returncode == 1, strict.output[-4000:]
    assert "[ ] nothing skipped (--strict)" in strict.output, strict.output[-3000:]
    from xml.etree import ElementTree

    skipped_cases = [
        case for case in ElementTree.parse(lenient.junit).getroot().iter("testcase") if case.find("skipped") is not None
    ]
    assert [case.get("name") for case in skipped_cases] == ["test_scenario[provider-failures]"]
    assert "echo-fixed" in (skipped_cases[0].find("skipped").get("message") or "")  # type: ignore[union-attr]
    FIGURES["missingProvider"] = {"skipped": skipped, "strictExit": strict.returncode}


def test_the_read_only_profile_calls_no_model_and_creates_no_session(kit: Path, tmp_path: Path) -> None:
    with hosts.running([("kit-read-only", HOST_CONFIG, None)]) as (host,):
        calls = _metric(host.base_url, "agentic_driver_provider_calls_total")
        run = run_kit(kit, tmp_path / "out", host.base_url, "--profile", "read-only")
        assert _metric(host.base_url, "agentic_driver_provider_calls_total") == calls
        assert _metric(host.base_url, "agentic_driver_sessions_stored") == 0
    assert run.returncode == 0, run.output[-6000:]
    plan = run.report["plan"]
    assert plan["mode"] == "read-only"
    not_run = sorted(plan["skipped"])
    assert "schemathesis phases" in not_run and all(
        check.startswith(("scenario ", "schemathesis phases", "probe permission-denied")) for check in not_run
    ), not_run
    ran = [check for check in plan["checks"] if check not in plan["skipped"]]
    assert "schemathesis read-only-operations" in ran and "probe unauthenticated" in ran, ran
    FIGURES["readOnly"] = {"seconds": round(run.seconds, 1), "ran": ran, "skipped": len(not_run)}


# -- CI recipes -----------------------------------------------------------------------------------------------------

CI_DIR = ROOT / "docs" / "ci"


def _kit_commands(script: list[str]) -> list[list[str]]:
    commands = []
    for entry in script:
        for line in str(entry).replace("\\\n", " ").splitlines():
            words = shlex.split(line)
            if words and words[0] == "agentic-driver-conformance":
                commands.append(words[1:])
    return commands


def _check_invocation(script: list[str], env: dict[str, str]) -> None:
    text = "\n".join(map(str, script))
    assert "pip install ./clients/python ./contract-tests" in text, "the recipe installs the kit from the checkout"
    (arguments,) = _kit_commands(script)
    options = cli.parser().parse_args(arguments)
    assert options.base_url and options.junit and options.report
    for spec in load_profile(None)["tokens"].values():
        assert spec["env"] in env, f"the recipe sets {spec['env']} for the kit"


def test_the_github_actions_recipe_runs_the_kit() -> None:
    workflow = yaml.safe_load((CI_DIR / "github-actions.yml").read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    script = [step["run"] for step in steps if "run" in step]
    env = {**workflow.get("env", {}), **job.get("env", {})}
    for step in steps:
        env.update(step.get("env", {}))
    _check_invocation(script, env)
    junit = str(cli.parser().parse_args(_kit_commands(script)[0]).junit)
    uploads = [step for step in steps if str(step.get("uses", "")).startswith("actions/upload-artifact@")]
    assert uploads and junit in str(uploads[0]["with"]["path"]), "the JUnit report is kept as an artifact"
    assert uploads[0].get("if") == "always()", "the reports are kept when the kit fails too"


def test_the_gitlab_ci_recipe_runs_the_kit() -> None:
    pipeline = yaml.safe_load((CI_DIR / "gitlab-ci.yml").read_text(encoding="utf-8"))
    jobs = {name: job for name, job in pipeline.items() if isinstance(job, dict) and "script" in job}
    (job,) = jobs.values()
    _check_invocation(job["script"], {**pipeline.get("variables", {}), **job.get("variables", {})})
    junit = str(cli.parser().parse_args(_kit_commands(job["script"])[0]).junit)
    assert job["artifacts"]["reports"]["junit"] == junit, "GitLab shows the kit's JUnit report"
    assert job["artifacts"]["when"] == "always"


def test_the_kit_readme_names_the_shipped_profiles() -> None:
    profiles = sorted(path.stem for path in (CONTRACT_DIR / "agentic_driver_conformance" / "profiles").glob("*.json"))
    assert profiles == ["default", "profile.schema", "read-only"]
    text = (ROOT / "docs" / "conformance-profile.md").read_text(encoding="utf-8")
    for requirement in ("CONTRACT_TOKEN_FULL", "CONTRACT_TOKEN_NO_GRANTS", "CONTRACT_TOKEN_OTHER", "echo-fixed"):
        assert requirement in text


def _auth_host_config(tmp_path: Path, jwks: Path) -> Path:
    config = {
        "hostId": "kit-auth",
        "providers": [{"id": "echo", "kind": "echo", "accountId": "acct-kit", "models": ["echo-1"]}],
        "sessions": {"retentionMs": 60_000},
        "limits": {"perSubject": {"maxSessions": 2}},
        "auth": {
            "jwt": [
                {"issuer": AUTH_ISSUER, "audience": AUTH_AUDIENCE, "jwksFile": str(jwks), "algorithms": ["ES256"],
                 "providers": ["*"], "leewaySeconds": 5}
            ]
        },
    }  # fmt: skip
    path = tmp_path / "auth-host.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


AUTH_ISSUER = "https://issuer.kit.invalid"
AUTH_AUDIENCE = "https://api.kit.invalid"


def _auth_check(kit: Path, keys: Path, base_url: str, report: Path) -> subprocess.CompletedProcess[str]:
    auth = kit.parent / "agentic-driver-conformance-auth"
    command = [str(auth), "check", "--base-url", base_url, "--issuer", AUTH_ISSUER, "--audience", AUTH_AUDIENCE]
    command += ["--key", str(keys / "signing-key.jwk"), "--max-sessions", "2", "--report", str(report)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_the_installed_auth_profile_passes_against_a_host_trusting_its_key_and_fails_a_broken_one(
    kit: Path, tmp_path: Path
) -> None:
    """Issue 29's kit profile, as a user runs it: keygen, the host's auth.jwt given the JWKS, check. Every forged
    token refused with its reason, every missing scope 403, the quota's N+1th session 429, no 5xx, no token
    echoed. Against a host that ignores exp the same run fails, on exactly the expired case."""
    auth = kit.parent / "agentic-driver-conformance-auth"
    subprocess.run([str(auth), "keygen", str(tmp_path / "keys")], check=True, capture_output=True, timeout=60)
    config = _auth_host_config(tmp_path, tmp_path / "keys" / "jwks.json")
    with hosts.running([("kit-auth", config, None), ("kit-auth-broken", config, "jwt-expiry-ignored")]) as started:
        good, broken = started
        passed = _auth_check(kit, tmp_path / "keys", good.base_url, tmp_path / "good.json")
        failed = _auth_check(kit, tmp_path / "keys", broken.base_url, tmp_path / "broken.json")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    report = json.loads((tmp_path / "good.json").read_text())
    assert report["passed"] and len(report["cases"]) == 18, report
    assert failed.returncode == 1, failed.stdout
    failures = [
        case["name"] for case in json.loads((tmp_path / "broken.json").read_text())["cases"] if not case["passed"]
    ]
    assert failures == ["expired"], failed.stdout
