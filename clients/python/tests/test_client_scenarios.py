"""The Python player of the shared client scenarios (``contract-tests/scenarios/clients/``): the reference player.

Each file is validated against ``schema.json`` and played through ``AgenticDriver``
(sync) with its default retries and timeouts, against a host started from
``contract-tests/host.json``, through the fault-injecting proxy
(``contract-tests/harness/faultproxy.py``) started here and read from its
``listening on URL`` line. ``metric`` steps read the host directly. The format
is ``contract-tests/scenarios/clients/README.md``; only the busy helper's bound
is shortened (10 s), as that README allows.
"""

from __future__ import annotations

import json
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

import agentic_driver_sdk as sdk
from agentic_driver_sdk import AgenticDriver

from .conftest import Host, launch_host, stop_process

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "contract-tests" / "scenarios" / "clients"
HOST_JSON = ROOT / "contract-tests" / "host.json"
FAULT_PROXY = ROOT / "contract-tests" / "harness" / "faultproxy.py"
PROXY_START_TIMEOUT_S = 15.0
WAIT_UNTIL_IDLE_BOUND_S = 10.0
FILES = sorted(p for p in SCENARIOS.glob("*.json") if p.name != "schema.json")
TOKEN_SECRETS = {
    "CONTRACT_TOKEN_FULL": "py-scenarios-full-token-0001",
    "CONTRACT_TOKEN_NO_GRANTS": "py-scenarios-no-grants-0001",
    "CONTRACT_TOKEN_OTHER": "py-scenarios-other-token-001",
}
"""host.json names its tokens by environment variable; the player writes these test secrets in their place."""
FULL = TOKEN_SECRETS["CONTRACT_TOKEN_FULL"]


# -- the host and the proxy ----------------------------------------------------------------------------------------


@dataclass
class Proxy:
    base_url: str
    process: subprocess.Popen[str]

    def control(self) -> httpx.Client:
        return httpx.Client(base_url=self.base_url, timeout=10.0, trust_env=False)

    def stop(self) -> None:
        stop_process(self.process)
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_proxy(upstream: str) -> Proxy:
    """``faultproxy.py --upstream URL``; returns once it printed ``listening on URL`` (bounded in time)."""
    process = subprocess.Popen(
        [sys.executable, str(FAULT_PROXY), "--upstream", upstream],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + PROXY_START_TIMEOUT_S
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while (remaining := deadline - time.monotonic()) > 0:
            if not selector.select(remaining):
                break
            line = process.stdout.readline()
            if not line:
                break
            found = re.search(r"listening on (http://\S+)", line)
            if found:
                return Proxy(found.group(1), process)
    proxy = Proxy("", process)
    proxy.stop()
    raise RuntimeError("the fault proxy did not print 'listening on URL'")


def contract_config() -> dict[str, Any]:
    config: dict[str, Any] = json.loads(HOST_JSON.read_text(encoding="utf-8"))
    for token in config["tokens"]:
        token["token"] = TOKEN_SECRETS[token.pop("tokenEnv")]
    return config


@pytest.fixture(scope="module")
def scenario_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Host]:
    host = launch_host("scenarios", contract_config(), tmp_path_factory.mktemp("scenarios"))
    host.token = FULL
    try:
        yield host
    finally:
        host.stop()


@pytest.fixture(scope="module")
def proxy(scenario_host: Host) -> Iterator[Proxy]:
    started = start_proxy(scenario_host.base_url)
    try:
        yield started
    finally:
        started.stop()


# -- values, matchers, pointers (the references and matchers of contract-tests/scenarios/README.md) ----------------

MISSING = object()
REFERENCE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*")
JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def lookup(variables: dict[str, Any], reference: str) -> Any:
    name, *parts = reference.split(".")
    assert name in variables, f"${reference}: nothing was captured as {name!r}"
    value = variables[name]
    for part in parts:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise AssertionError(f"${reference}: {part!r} is not in the captured value {value!r}")
    return value


def resolve(value: Any, variables: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value.startswith("$$"):
            return value[1:]
        if REFERENCE.fullmatch(value):
            return lookup(variables, value[1:])
        return value
    if isinstance(value, dict):
        if set(value) == {"$repeat"}:
            spec = value["$repeat"]
            return str(resolve(spec["text"], variables)) * int(resolve(spec["times"], variables))
        return {key: resolve(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, variables) for item in value]
    return value


def resolve_path(path: str, variables: dict[str, Any]) -> str:
    """A fault or log path: references may sit inside it (``/v1/sessions/$s.id``)."""
    return REFERENCE.sub(lambda m: str(lookup(variables, m.group(0)[1:])), path)


def pointer(document: Any, location: str) -> Any:
    if location == "":
        return document
    value = document
    for raw in location[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return MISSING
    return value


def matches(actual: Any, expected: Any, variables: dict[str, Any]) -> bool:
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        ((operator, argument),) = expected.items()
        if operator != "$repeat":
            argument = resolve(argument, variables)
            if operator == "$exists":
                return (actual is not MISSING) == argument
            if actual is MISSING:
                return False
            if operator == "$len":
                return hasattr(actual, "__len__") and len(actual) == int(argument)
            if operator == "$in":
                return bool(actual in argument)
            if operator == "$ne":
                return bool(actual != argument)
            if operator == "$type":
                return JSON_TYPES[argument](actual)
            raise AssertionError(f"unknown matcher {operator}")
    return actual is not MISSING and bool(actual == resolve(expected, variables))


# -- one call of the hand-written client ------------------------------------------------------------------------------


@dataclass
class Outcome:
    body: Any = None
    error: BaseException | None = None


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


RUN_ARGUMENTS = {
    "provider",
    "model",
    "input",
    "session",
    "instructions",
    "history",
    "attachments",
    "retrieval",
    "tools",
    "idleTimeoutMs",
    "actionTimeoutMs",
    "onDisconnect",
}


def run_arguments(body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    unknown = set(body) - RUN_ARGUMENTS
    assert not unknown, f"run body fields this player does not map: {sorted(unknown)}"
    arguments = {_snake(k): v for k, v in body.items()}
    if "Idempotency-Key" in headers:
        arguments["idempotency_key"] = headers["Idempotency-Key"]
    return arguments


def event_data(event: sdk.Event) -> Any:
    if isinstance(event, sdk.UnknownEvent):
        return event.data
    return event.to_dict()


def perform(client: AgenticDriver, step: dict[str, Any], variables: dict[str, Any]) -> Outcome:
    """One logical call, its answer rebuilt in the operation's wire form (README: ``expect.ok.body``)."""
    name = step["call"]
    path = resolve(step.get("path", {}), variables)
    body = resolve(step.get("body", {}), variables)
    headers = resolve(step.get("headers", {}), variables)
    key = headers.get("Idempotency-Key")
    try:
        if name == "createSession":
            info = client.sessions.create(**{_snake(k): v for k, v in body.items()}, idempotency_key=key)
            return Outcome({"session": info.to_dict()})
        if name == "readSession":
            return Outcome(client.sessions.read(path["sessionId"]).to_dict())
        if name == "deleteSession":
            client.sessions.delete(path["sessionId"])
            return Outcome(None)
        if name == "truncateSession":
            handle = {"id": path["sessionId"], "revision": body["revision"]}
            return Outcome({"session": client.sessions.truncate(handle, keep_turns=body["keepTurns"]).to_dict()})
        if name == "forkSession":
            # A ForkSessionRequest; a step without a body forks at the current revision, as ``{}`` does.
            unknown = set(body) - {"revision"}
            assert not unknown, f"fork body fields this player does not map: {sorted(unknown)}"
            fork = client.sessions.fork(path["sessionId"], revision=body.get("revision"), idempotency_key=key)
            return Outcome({"session": fork.to_dict()})
        if name == "run":
            return Outcome(client.run(**run_arguments(body, headers)).to_dict())
        if name == "streamRun":
            with client.runs.stream(**run_arguments(body, headers)) as stream:
                return Outcome([event_data(event) for event in stream])
        if name == "submitRunActions":
            result = client.runs.submit_actions(
                path["runId"],
                function_results=body.get("functionResults"),
                approvals=body.get("approvals"),
                on_disconnect=body.get("onDisconnect"),
                idempotency_key=key,
            )
            return Outcome(result.to_dict())
        if name == "getRun":
            return Outcome(client.runs.retrieve(path["runId"]).to_dict())
        if name == "streamRunEvents":
            last = headers.get("Last-Event-ID")
            with client.runs.events(path["runId"], last_event_id=None if last is None else int(last)) as events:
                return Outcome([event_data(event) for event in events])
        if name == "cancelRun":
            return Outcome(client.runs.cancel(path["runId"]).to_dict())
        if name == "waitUntilIdle":
            read = client.sessions.wait_until_idle(path["sessionId"], timeout=WAIT_UNTIL_IDLE_BOUND_S)
            return Outcome(read.to_dict())
    except sdk.AgenticDriverError as error:
        return Outcome(error=error)
    raise AssertionError(f"unknown call {name!r}")


def check(outcome: Outcome, expect: dict[str, Any], variables: dict[str, Any]) -> list[str]:
    """Every unmet expectation, as readable lines (empty when the outcome is as expected)."""
    if "ok" in expect:
        if outcome.error is not None:
            return [f"expected success, got {type(outcome.error).__name__}: {outcome.error}"]
        return [
            f"{where}: expected {resolve(expected, variables)!r}, got {pointer(outcome.body, where)!r}"
            for where, expected in expect.get("body", {}).items()
            if not matches(pointer(outcome.body, where), expected, variables)
        ]
    wanted = expect["error"]
    error = outcome.error
    if error is None:
        return [f"expected an error ({wanted}), the call returned {json.dumps(outcome.body)[:300]}"]
    if wanted["kind"] == "connection":
        return [] if isinstance(error, sdk.APIConnectionError) else [f"expected a connection error, got {error!r}"]
    if wanted["kind"] == "timeout":
        return [] if isinstance(error, sdk.APITimeoutError) else [f"expected a timeout error, got {error!r}"]
    if not isinstance(error, sdk.APIStatusError):
        return [f"expected the problem {wanted['code']}, got {error!r}"]
    problems = []
    if (error.code, error.status_code) != (wanted["code"], wanted["status"]):
        problems.append(f"expected {wanted['status']} {wanted['code']}, got {error.status_code} {error.code}")
    typed = sdk.CODE_ERRORS.get(wanted["code"])
    if typed is not None and type(error) is not typed:
        problems.append(f"expected the typed error {typed.__name__}, got {type(error).__name__}")
    for wire, expected in wanted.get("fields", {}).items():
        accessor = _snake(wire)
        actual = getattr(error, accessor, MISSING)
        if actual is MISSING or not matches(actual, expected, variables):
            problems.append(f"{type(error).__name__}.{accessor}: expected {expected!r}, got {actual!r}")
    return problems


def capture(outcome: Outcome, captures: dict[str, str], variables: dict[str, Any]) -> None:
    for name, where in captures.items():
        value = pointer(outcome.body, where)
        assert value is not MISSING, f"capture {name}: {where} is not in the answer"
        variables[name] = value


# -- the steps ------------------------------------------------------------------------------------------------------


def metric(host: Host, name: str, labels: dict[str, str]) -> float:
    return sum(v for n, sample, v in host.metrics() if n == name and all(sample.get(k) == x for k, x in labels.items()))


@dataclass
class Player:
    client: AgenticDriver
    proxy: Proxy
    host: Host
    variables: dict[str, Any] = field(default_factory=dict)
    background: dict[str, Future[Outcome]] = field(default_factory=dict)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=4))

    def step(self, step: dict[str, Any]) -> None:
        if "call" in step:
            self.call(step)
        elif "await" in step:
            outcome = self.background.pop(step["await"]).result(timeout=60)
            self.expect(outcome, step["expect"], step.get("capture", {}))
        elif "faults" in step:
            with self.proxy.control() as control:
                faults = [
                    {**resolve(fault, self.variables), "path": resolve_path(fault["path"], self.variables)}
                    for fault in step["faults"]
                ]
                answer = control.post("/__faults", json={"faults": faults})
            assert answer.status_code == 204, answer.text
        elif "proxyLog" in step:
            self.proxy_log(step["proxyLog"], step["expect"])
        elif "metric" in step:
            value = metric(self.host, step["metric"], step.get("labels", {}))
            if "capture" in step:
                self.variables[step["capture"]] = value
            if "expect" in step:
                since = resolve(step["expect"]["since"], self.variables)
                increase = value - since
                assert increase == step["expect"]["increase"], f"{step['metric']} grew by {increase}"
        else:
            raise AssertionError(f"unknown step {step}")

    def call(self, step: dict[str, Any]) -> None:
        if "background" in step:
            self.background[step["background"]] = self.pool.submit(perform, self.client, step, dict(self.variables))
            return
        until = step.get("until")
        deadline = time.monotonic() + (until["timeoutMs"] / 1000 if until else 0)
        interval = (until or {}).get("intervalMs", 20) / 1000
        while True:
            outcome = perform(self.client, step, self.variables)
            problems = check(outcome, step["expect"], self.variables)
            if not problems or until is None or time.monotonic() > deadline:
                break
            time.sleep(interval)  # a poll interval the scenario names, bounded by timeoutMs
        assert not problems, f"{step['call']}: " + "; ".join(problems)
        capture(outcome, step.get("capture", {}), self.variables)

    def expect(self, outcome: Outcome, expect: dict[str, Any], captures: dict[str, str]) -> None:
        problems = check(outcome, expect, self.variables)
        assert not problems, "; ".join(problems)
        capture(outcome, captures, self.variables)

    def proxy_log(self, selection: dict[str, str], expect: dict[str, Any]) -> None:
        with self.proxy.control() as control:
            entries = control.get("/__faults/log").json()["requests"]
        path = resolve_path(selection["path"], self.variables)
        chosen = [e for e in entries if e["method"] == selection["method"] and e["path"] == path]
        where = f"{selection['method']} {path}"
        if "count" in expect:
            assert len(chosen) == expect["count"], f"{where}: {len(chosen)} requests reached the proxy: {chosen}"
        if "idempotencyKeys" in expect:
            keys = [e["idempotencyKey"] for e in chosen]
            assert None not in keys, f"{where}: an attempt without an Idempotency-Key: {chosen}"
            assert len(set(keys)) == expect["idempotencyKeys"], f"{where}: keys {keys}"
        if "minGapMs" in expect:
            gaps = [b["atMs"] - a["atMs"] for a, b in pairwise(chosen)]
            assert gaps and min(gaps) >= expect["minGapMs"], f"{where}: gaps {gaps} ms"
        if "agenticHosts" in expect:
            hosts = [e["agenticHost"] for e in chosen]
            assert hosts == expect["agenticHosts"], f"{where}: Agentic-Host {hosts}, expected {expect['agenticHosts']}"
        if "lastEventIds" in expect:
            ids = [e["lastEventId"] for e in chosen]
            assert ids == expect["lastEventIds"], f"{where}: Last-Event-ID {ids}, expected {expect['lastEventIds']}"
        if "userAgentPrefix" in expect:
            agents = [e["userAgent"] for e in chosen]
            assert all(isinstance(a, str) and a.startswith(expect["userAgentPrefix"]) for a in agents), agents


# -- the tests ------------------------------------------------------------------------------------------------------

VALIDATOR = Draft202012Validator(json.loads((SCENARIOS / "schema.json").read_text(encoding="utf-8")))


def test_there_are_scenarios_to_play() -> None:
    assert len(FILES) >= 10, FILES


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_client_scenario(path: Path, proxy: Proxy, scenario_host: Host) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    errors = sorted(VALIDATOR.iter_errors(scenario), key=lambda e: list(e.absolute_path))
    assert not errors, f"{path.name} does not match schema.json: " + "; ".join(e.message for e in errors[:5])
    assert scenario["name"] == path.stem
    with AgenticDriver(base_url=proxy.base_url, token=FULL) as client:
        player = Player(client, proxy, scenario_host)
        try:
            for number, step in enumerate(scenario["steps"], 1):
                try:
                    player.step(step)
                except AssertionError as failure:
                    raise AssertionError(f"{path.name} step {number} ({step.get('note', '')}): {failure}") from None
            assert not player.background, f"background calls never awaited: {sorted(player.background)}"
        finally:
            player.pool.shutdown(wait=True, cancel_futures=True)
