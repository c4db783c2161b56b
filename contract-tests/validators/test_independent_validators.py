"""openapi.yaml as tools nobody here wrote read it: each pinned, run on the published document (make validate-spec).

Nothing here rewrites the spec or adds project rules: each tool runs with its own ruleset or defaults.

- Spectral (contract-tests/package.json) with only ``spectral:oas``: zero errors.
- Redocly CLI (root package.json) with ``recommended-strict`` (redocly-strict.yaml): zero errors; the
  exemptions are /healthz's and /readyz's ``operation-4xx-response`` in .redocly.lint-ignore.yaml (the probes
  have no client error to document).
- openapi-generator-cli (the Maven Central jar the Makefile fetches with ``mvn dependency:get``): ``validate``
  exits 0 and reports no error.
- openapi-generator's ``python`` and ``typescript-fetch`` clients: their stream methods are not typed as one
  JSON ``RunEvent``. Neither generator models an event stream (both read the answer as one JSON document), so
  what they can be given is what OpenAPI 3.1 allows: the type of one SSE message, ``RunEventMessage``.
- schemathesis (contract-tests/requirements.txt) with its defaults, every check, only the bearer token and a
  fresh Idempotency-Key per request (st_idempotency.py), against a live host: zero failures on the event-stream
  operations.
- Prism's validating proxy (contract-tests/package.json) in front of live hosts while the shared scenarios play
  through it: zero violations on every JSON answer. Prism cannot read an event stream (PRISM_EVENT_STREAM_LIMIT).

Each tool's version and outcome go to reports/validators.json.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import httpx
import pytest

from agentic_driver_conformance import scenarios
from harness import hosts
from harness.paths import CONTRACT_DIR, HOST_CONFIGS, REPORTS_DIR, ROOT, SPEC_PATH

VALIDATORS = CONTRACT_DIR / "validators"
NODE_BIN = CONTRACT_DIR / "node_modules" / ".bin"
ROOT_NODE_BIN = ROOT / "node_modules" / ".bin"
JAR = Path(os.environ.get("OPENAPI_GENERATOR_JAR", ""))
RESULTS_PATH = REPORTS_DIR / "validators.json"
TOOL_TIMEOUT_S = 540
EVENT_STREAM_OPERATIONS = ("streamRun", "streamRunActions")

PRISM_EVENT_STREAM_LIMIT = {
    "violation": {"location": ["response", "body"], "code": "type", "message": "Response body must be object"},
    "why": (
        "Prism 5 validates a text/event-stream body as one value against the media type's schema, and it reads "
        "the whole body before answering (no streaming through the proxy). A schema that describes one SSE "
        "message (OpenAPI 3.2's itemSchema reading) is not supported: stoplightio/prism#2727 (OpenAPI 3.2 "
        "support, open); stoplightio/prism#1321 (the proxy keeps bodies in memory for validation)."
    ),
}
"""The one violation Prism reports on an event stream, whatever the stream holds, and why (its own issues)."""

PRISM_CANNOT_PLAY = {
    "sessions-disabled": (
        "an upstream 501 (SESSIONS_DISABLED) makes Prism's proxy answer from its mock instead (a 201 from the "
        "spec's example): Prism treats 501 as 'not implemented yet'"
    ),
    "stream-disconnect": "Prism reads the whole stream before answering, so a client cannot hang up mid-stream",
    "stream-rejoin": "Prism reads the whole stream before answering, so a client cannot hang up mid-stream",
    "run-events-expired": "Prism reads the whole stream before answering, so a client cannot hang up mid-stream",
}
"""Scenarios that cannot pass through Prism for what Prism does, not for anything the host or the spec says."""

_RESULTS: dict[str, Any] = {}
_RESULTS_LOCK = threading.Lock()


def _record(tool: str, **fields: Any) -> None:
    with _RESULTS_LOCK:
        _RESULTS[tool] = {**_RESULTS.get(tool, {}), **fields}
        RESULTS_PATH.parent.mkdir(parents=True, exist_ok=True)
        RESULTS_PATH.write_text(json.dumps(_RESULTS, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _run(command: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, timeout=TOOL_TIMEOUT_S, check=False, **kwargs
    )


def _version(command: list[str | Path]) -> str:
    result = _run(command)
    lines = [line.strip() for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    return next((line for line in lines if re.search(r"\d+\.\d+\.\d+", line)), "unknown")


def _jar() -> Path:
    assert JAR.is_file(), f"OPENAPI_GENERATOR_JAR={JAR!s} is not a file: run `make validate-spec`"
    return JAR


# -- the document ---------------------------------------------------------------------------------------------------


def test_spectral_oas_ruleset_finds_no_error() -> None:
    ruleset = VALIDATORS / "spectral-oas.yaml"
    result = _run([NODE_BIN / "spectral", "lint", SPEC_PATH, "--ruleset", ruleset, "-f", "json"])
    start = result.stdout.find("[")
    assert start >= 0, result.stdout + result.stderr
    problems = json.loads(result.stdout[start:])
    errors = [f"{p['code']} at {'.'.join(map(str, p['path']))}: {p['message']}" for p in problems if p["severity"] == 0]
    version = _version([NODE_BIN / "spectral", "--version"])
    _record("spectral spectral:oas", version=version, errors=len(errors), warnings=len(problems) - len(errors))
    assert not errors, "\n".join(errors)


def test_redocly_recommended_strict_finds_no_error() -> None:
    command = [ROOT_NODE_BIN / "redocly", "lint", SPEC_PATH, "--config", ROOT / "redocly-strict.yaml"]
    result = _run([*command, "--format", "json"], cwd=ROOT)
    start = result.stdout.find("{")
    assert start >= 0, result.stdout + result.stderr
    report = json.loads(result.stdout[start:])
    totals = report["totals"]
    version = _version([ROOT_NODE_BIN / "redocly", "--version"])
    _record("redocly recommended-strict", version=version, **totals)
    errors = [f"{p['ruleId']}: {p['message']}" for p in report["problems"] if p["severity"] == "error"]
    assert totals["errors"] == 0 and not errors, "\n".join(errors)
    assert totals["ignored"] == 2, "exactly the documented /healthz and /readyz exemptions are ignored"


def test_openapi_generator_validate_accepts_the_document() -> None:
    result = _run(["java", "-jar", _jar(), "validate", "-i", SPEC_PATH])
    output = result.stdout + result.stderr
    _record(
        "openapi-generator validate",
        version=_version(["java", "-jar", _jar(), "version"]),
        exit=result.returncode,
        output=output.strip().splitlines()[-1] if output.strip() else "",
    )
    assert result.returncode == 0 and "Errors:" not in output, output


@pytest.mark.parametrize(
    ("generator", "method", "returns"),
    [
        ("python", re.compile(r"\n    def stream_run(?:_actions)?\(\n.*?\n    \) -> (\w+):", re.DOTALL), "api"),
        ("typescript-fetch", re.compile(r"async streamRun(?:Actions)?\([^)]*\):\s*Promise<(\w+)>"), "apis"),
    ],
)
def test_openapi_generator_clients_do_not_type_a_stream_as_one_run_event(
    tmp_path: Path, generator: str, method: re.Pattern[str], returns: str
) -> None:
    """Generated with openapi-generator's defaults: each stream method returns the type of one SSE message.

    Before the spec described the message, both typed the whole stream as ``RunEvent`` (``Promise<RunEvent>``,
    ``-> RunEvent``), which no stream is. They still read an answer as one JSON document (neither models event
    streams), so these methods cannot consume a live stream: that is the generators' limit, written down in
    contract-tests/README.md; what the spec gives them is the OpenAPI 3.1 description of one message.
    """
    output = tmp_path / generator
    options = ["--package-name", "validators_client"] if generator == "python" else []
    result = _run(["java", "-jar", _jar(), "generate", "-i", SPEC_PATH, "-g", generator, "-o", output, *options])
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    sources = "\n".join(path.read_text(encoding="utf-8") for path in sorted(output.rglob("*")) if _is_api(path))
    types = method.findall(sources)
    _record(f"openapi-generator {generator}", streamMethodsReturn=sorted(set(types)))
    assert len(types) == len(EVENT_STREAM_OPERATIONS), f"found {len(types)} stream methods in {returns}/"
    assert set(types) == {"RunEventMessage"}, types
    message = next(path for path in output.rglob("*") if path.stem in ("RunEventMessage", "run_event_message"))
    text = message.read_text(encoding="utf-8")
    assert re.search(r"\bdata\b[^\n]*(StrictStr|string)", text), "data is the event's JSON text"


def _is_api(path: Path) -> bool:
    return path.is_file() and path.suffix in (".py", ".ts") and path.parent.name in ("api", "apis")


# -- a live host ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def independent_host() -> Iterator[hosts.Host]:
    with hosts.running([("independent", VALIDATORS / "host.json", None)]) as (host,):
        yield host


def test_schemathesis_defaults_find_no_failure_on_event_streams(independent_host: hosts.Host, tmp_path: Path) -> None:
    env = {
        **os.environ,
        **hosts.token_environment(),
        "VALIDATORS_BASE_URL": independent_host.base_url,
        "SCHEMATHESIS_HOOKS": "validators.st_idempotency",
        "PYTHONPATH": str(CONTRACT_DIR),
    }
    only = [arg for operation in EVENT_STREAM_OPERATIONS for arg in ("--include-operation-id", operation)]
    command = [
        Path(sys.executable).parent / "schemathesis",
        "--config-file",
        VALIDATORS / "schemathesis.toml",
        "run",
        SPEC_PATH,
        "--checks",
        "all",
        *only,
        "--seed",
        "20261201",
        "--no-color",
    ]
    result = _run(command, env=env, cwd=tmp_path)  # its cache (.schemathesis/) stays out of the tree
    (REPORTS_DIR / "validators-schemathesis.txt").write_text(result.stdout + result.stderr, encoding="utf-8")
    summary = [line for line in result.stdout.splitlines() if re.search(r"\b(failures?|passed|generated)\b", line)]
    _record(
        "schemathesis (defaults, event streams)",
        version=_version([command[0], "--version"]),
        exit=result.returncode,
        summary=summary[-2:],
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


# -- Prism's validating proxy ---------------------------------------------------------------------------------------


class Prism:
    """``prism proxy openapi.yaml UPSTREAM``: Prism validates each exchange and reports it in ``sl-violations``."""

    def __init__(self, upstream: str, log: Path) -> None:
        self.port = hosts.free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log = log
        command = [NODE_BIN / "prism", "proxy", SPEC_PATH, upstream, "--host", "127.0.0.1", "--port", str(self.port)]
        started = testing.spawn([str(part) for part in command], self.port, log, cwd=CONTRACT_DIR)
        self.process = started.process
        hosts.wait_ready(hosts.Host("prism", self.base_url, started), timeout_s=60.0)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


class Recorder:
    """Every exchange the scenarios make through Prism, with the violations Prism found in it."""

    def __init__(self) -> None:
        self.exchanges: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def observe(self, scenario: str, operation_id: str, response: httpx.Response) -> None:
        violations = json.loads(response.headers.get("sl-violations", "[]"))
        media = response.headers.get("content-type", "").split(";")[0].strip()
        with self.lock:
            self.exchanges.append(
                {
                    "scenario": scenario,
                    "operation": operation_id,
                    "status": response.status_code,
                    "media": media,
                    "violations": violations,
                }
            )


def test_prism_proxy_sees_no_violation_while_the_scenarios_play(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    recorder = Recorder()
    playing = threading.local()
    original = scenarios.call

    def recording_call(*args: Any, **kwargs: Any) -> scenarios.Exchange:
        exchange = original(*args, **kwargs)
        recorder.observe(getattr(playing, "name", "?"), exchange.operation_id, exchange.response)
        return exchange

    monkeypatch.setattr(scenarios, "call", recording_call)
    played: dict[str, str] = {}
    with ExitStack() as stack:
        started = stack.enter_context(hosts.running([(name, config, None) for name, config in HOST_CONFIGS.items()]))
        proxies = {}
        for host in started:
            proxy = Prism(host.base_url, REPORTS_DIR / "logs" / f"prism-{host.name}.log")
            stack.callback(proxy.stop)
            proxies[host.name] = proxy.base_url
        runner = scenarios.Runner(proxies, hosts.TOKENS)
        stack.callback(runner.close)
        for scenario in scenarios.all_scenarios():
            if scenario.isolated:
                continue  # needs a host of its own; every other scenario plays through Prism
            playing.name = scenario.name
            try:
                runner.play(scenario)
                played[scenario.name] = "passed"
            except AssertionError as failure:
                played[scenario.name] = f"failed through Prism: {str(failure).splitlines()[0][:200]}"

    json_answers = [e for e in recorder.exchanges if e["media"] != "text/event-stream"]
    streams = [e for e in recorder.exchanges if e["media"] == "text/event-stream"]
    response_violations = [e for e in json_answers if any(v["location"][:1] == ["response"] for v in e["violations"])]
    limit = PRISM_EVENT_STREAM_LIMIT["violation"]
    unexplained = [
        e
        for e in streams
        if [{k: v.get(k) for k in ("location", "code", "message")} for v in e["violations"]] not in ([], [limit])
    ]
    # A request Prism calls invalid must be one the host refused too (scenarios send invalid requests on purpose).
    accepted_invalid = [
        e
        for e in recorder.exchanges
        if e["status"] < 400 and any(v["location"][:1] == ["request"] for v in e["violations"])
    ]
    _record(
        "prism proxy",
        version=_version([NODE_BIN / "prism", "--version"]),
        exchanges=len(recorder.exchanges),
        jsonExchanges=len(json_answers),
        jsonResponseViolations=len(response_violations),
        eventStreams=len(streams),
        eventStreamsWithOnlyTheKnownLimit=len(streams) - len(unexplained),
        eventStreamLimit=PRISM_EVENT_STREAM_LIMIT["why"],
        requestViolationsOnRefusedRequests=sum(1 for e in recorder.exchanges if e["status"] >= 400 and e["violations"]),
        scenarios=played,
        scenariosPrismCannotPlay=PRISM_CANNOT_PLAY,
    )
    assert recorder.exchanges, "no exchange went through Prism"
    assert json_answers and streams, "the scenarios exercise JSON answers and event streams"
    assert not response_violations, json.dumps(response_violations[:10], indent=1)
    assert not unexplained, json.dumps(unexplained[:10], indent=1)
    assert not accepted_invalid, json.dumps(accepted_invalid[:10], indent=1)
    failed = {name: outcome for name, outcome in played.items() if outcome != "passed"}
    assert set(failed) <= set(PRISM_CANNOT_PLAY), json.dumps(failed, indent=1)
