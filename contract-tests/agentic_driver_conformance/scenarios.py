"""The Python runner of contract-tests/scenarios/*.json: every request goes through the generated client.

For a request step the runner finds the generated module for the step's
operationId (``agentic_driver_client.api.<tag>.<operation_id>``), builds the
body model with ``from_dict`` from the step's wire JSON, calls
``sync_detailed`` and then checks four things about the answer:

1. schemathesis validates the raw HTTP response (``validation.validate``: every
   configured check, including the contract's own);
2. the step's ``expect`` holds (status, code, body pointers, headers);
3. the generated client parsed it into the model the spec documents for that
   status (a problem's parsed ``code`` equals the wire ``code``);
4. the observation is recorded for the metrics.

The format is documented in scenarios/README.md and scenarios/schema.json. Tokens are given by name
(``Runner(..., tokens={"full": secret, ...})``); every session a scenario creates and does not delete itself
(because a step failed, say) is deleted when the scenario ends, so a run leaves nothing behind on the host.

Requests route as a client's do (``routing.py``): each request that names an existing session or run sends
``Agentic-Host`` with the host its id names, unless the step sets that header itself. So the player works
through a proxy in front of several hosts. A scenario about one host process (``ONE_PROCESS``: it fills one
host's run slots or store, reads its ``/metrics`` counters, or expects discovery and the session to name the same
host) is played on one host there: given ``pin_host``, its requests that name nothing send ``Agentic-Host`` with
that host, and its metric steps read that host's ``/metrics``.

This module loads the scenarios and plays them (``Runner``); one request through the generated client is
``scenario_client.py`` (``call``, ``Exchange``, ``ScenarioFailure``), what a step expects of its answer
``scenario_expect.py`` (``resolve``, ``pointer``, ``check_expect``, ``check_parsed``). Their names are exported
from here too.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from jsonschema import Draft202012Validator
from schemathesis.core.failures import FailureGroup

from . import observations, routing, validation
from .resources import SCENARIOS_DIR
from .scenario_client import INVALID_TOKEN as INVALID_TOKEN
from .scenario_client import REQUEST_TIMEOUT_S as REQUEST_TIMEOUT_S
from .scenario_client import ClientParseError as ClientParseError
from .scenario_client import Exchange as Exchange
from .scenario_client import ScenarioFailure as ScenarioFailure
from .scenario_client import _read_stream as _read_stream
from .scenario_client import call as call
from .scenario_client import client_module as client_module
from .scenario_client import streams as streams
from .scenario_expect import MISSING as MISSING
from .scenario_expect import check_expect as check_expect
from .scenario_expect import check_parsed as check_parsed
from .scenario_expect import pointer as pointer
from .scenario_expect import resolve as resolve

ONE_PROCESS: dict[str, str] = {
    "host-busy": "fills one host's run slots and wait line (limits are per process)",
    "run-slots": "takes both run slots of one host",
    "session-flow": "expects the session to name the host that discovery names",
    "store-full": "fills one host's session store (maxEntries is per process)",
}
"""Scenarios about one host process beyond their metric steps (every scenario with a metric step is one too)."""


# -- loading --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    name: str
    path: Path
    data: dict[str, Any]

    @property
    def host(self) -> str:
        return str(self.data.get("host", "main"))

    @property
    def isolated(self) -> bool:
        return bool(self.data.get("isolated", False))

    @property
    def one_process(self) -> bool:
        """Whether the scenario is about one host process: behind a proxy, it is played on one host."""
        return self.name in ONE_PROCESS or any("metric" in step for step in self.data["steps"])


@functools.cache
def format_validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCENARIOS_DIR / "schema.json").read_text(encoding="utf-8")))


def load(path: Path) -> Scenario:
    data = json.loads(path.read_text(encoding="utf-8"))
    errors = sorted(format_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        details = "\n".join(f"  {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors)
        raise ScenarioFailure(f"{path.name} does not follow scenarios/schema.json:\n{details}")
    if data["name"] != path.stem:
        raise ScenarioFailure(f"{path.name}: name {data['name']!r} must equal the file name")
    return Scenario(name=data["name"], path=path, data=data)


def all_scenarios() -> list[Scenario]:
    return [load(path) for path in sorted(SCENARIOS_DIR.glob("*.json")) if path.name != "schema.json"]


# -- running --------------------------------------------------------------------------------------------------------


@dataclass
class Context:
    scenario: Scenario
    base_url: str
    variables: dict[str, Any] = field(default_factory=dict)
    background: dict[str, Future[Exchange]] = field(default_factory=dict)
    background_steps: dict[str, dict[str, Any]] = field(default_factory=dict)
    created: dict[str, str] = field(default_factory=dict)
    """Sessions this scenario created and has not deleted: id -> the token name that created it."""
    pinned: str | None = None
    """The host every request of a one-process scenario names when it names no session or run itself."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class Runner:
    """Plays scenarios against hosts given by name (main, no-sessions).

    A name may stand for several host processes behind a proxy. Every request naming a session or run sends
    ``Agentic-Host`` (``routing.py``); ``pin_host`` (a host id behind the ``main`` URL, the kit's: the one
    discovery named) is where one-process scenarios are played; or ``metrics_urls`` maps a base URL to the hosts
    whose ``/metrics`` a metric step adds up. ``request_hooks`` see every request before it is sent.
    """

    def __init__(
        self,
        base_urls: dict[str, str],
        tokens: dict[str, str],
        *,
        metrics_urls: dict[str, list[str]] | None = None,
        request_hooks: Sequence[Callable[[httpx.Request], None]] = (),
        pin_host: str | None = None,
    ) -> None:
        self.base_urls = base_urls
        self.tokens = tokens
        self.metrics_urls = metrics_urls or {}
        self.pin_host = pin_host
        self.request_hooks = tuple(request_hooks)
        self.pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="scenario")

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    def play(self, scenario: Scenario, base_url: str | None = None) -> None:
        base_url = base_url or self.base_urls[scenario.host]
        for iteration in range(int(scenario.data.get("repeat", 1))):
            context = Context(scenario, base_url, pinned=self._pinned(scenario, base_url))
            try:
                for index, step in enumerate(scenario.data["steps"]):
                    try:
                        self._step(context, step)
                    except ScenarioFailure as failure:
                        where = f"{scenario.name}, iteration {iteration + 1}, step {index + 1}"
                        note = f" ({step['note']})" if "note" in step else ""
                        raise ScenarioFailure(f"{where}{note}: {failure}") from None
            finally:
                # A failed step may leave background requests running: let them finish before the next scenario.
                for future in context.background.values():
                    future.exception(timeout=REQUEST_TIMEOUT_S)
                self._clean_up(context)

    def _pinned(self, scenario: Scenario, base_url: str) -> str | None:
        if self.pin_host is None or not scenario.one_process or base_url != self.base_urls.get("main"):
            return None
        return self.pin_host

    def _clean_up(self, context: Context) -> None:
        """Delete the sessions the scenario left behind (one bounded request each; a gone session answers 404)."""
        for session_id, auth in list(context.created.items()):
            authorization = {"Authorization": f"Bearer {self.tokens[auth]}"}
            headers = routing.with_routing_header(authorization, "deleteSession", {"sessionId": session_id}, None)
            with httpx.Client(base_url=context.base_url, trust_env=False, timeout=REQUEST_TIMEOUT_S) as http:
                http.delete(f"/v1/sessions/{quote(session_id, safe='')}", headers=headers)
        context.created.clear()

    def _track(self, context: Context, auth: str, exchange: Exchange) -> None:
        status = exchange.response.status_code
        body = exchange.json
        with context.lock:
            if exchange.operation_id in ("createSession", "forkSession") and status == 201 and isinstance(body, dict):
                session_id = (body.get("session") or {}).get("id")
                if isinstance(session_id, str) and auth in self.tokens:
                    context.created[session_id] = auth
            elif exchange.operation_id == "deleteSession" and status in (204, 404):
                context.created.pop(str(exchange.path.get("sessionId")), None)

    # steps -----------------------------------------------------------------------------------------------------

    def _step(self, context: Context, step: dict[str, Any]) -> None:
        if "call" in step:
            self._request(context, step)
        elif "await" in step:
            future = context.background.pop(step["await"], None)
            if future is None:
                raise ScenarioFailure(f"no background step named {step['await']!r} is pending")
            exchange = future.result(timeout=REQUEST_TIMEOUT_S)
            self._conclude(context, exchange, step)
        elif "parallel" in step:
            self._parallel(context, step)
        elif "metric" in step:
            self._metric(context, step)
        else:  # the format validator makes this unreachable
            raise ScenarioFailure(f"unknown step {step}")

    def _send(self, context: Context, step: dict[str, Any], ready: Callable[[], object] | None = None) -> Exchange:
        auth = step.get("as", context.scenario.data.get("as", "full"))
        path = resolve(step.get("path", {}), context.variables)
        headers = resolve(step.get("headers", {}), context.variables)
        body = resolve(step["body"], context.variables) if "body" in step else None
        # Through the generated client's own parameter, as a client sends it; a step's own header wins (it tests a
        # wrong one). A request naming nothing in a one-process scenario names the host the scenario is about.
        headers = routing.with_routing_header(headers, step["call"], path, body)
        hooks = self.request_hooks
        if context.pinned is not None and not routing.has_routing_header(headers):
            hooks = (_naming(context.pinned), *hooks)
        exchange = call(
            context.base_url,
            step["call"],
            auth=auth,
            tokens=self.tokens,
            path=path,
            headers=headers,
            body=body,
            transport=step.get("transport", {}),
            ready=ready,
            request_hooks=hooks,
        )
        self._track(context, auth, exchange)
        observations.record(
            "response",
            operation=exchange.operation_id,
            status=exchange.response.status_code,
            code=validation.problem_code(exchange.response),
            source=f"scenario:{context.scenario.name}",
        )
        try:
            validation.validate(
                exchange.operation_id, exchange.response, path=path, body=body, cut_short=exchange.cut_short
            )
        except FailureGroup as failure:
            raise ScenarioFailure(f"schemathesis rejected the answer:\n{exchange.describe()}\n{failure}") from None
        problems = check_parsed(exchange)
        if problems:
            raise ScenarioFailure("; ".join(problems) + f"\n{exchange.describe()}")
        return exchange

    def _request(self, context: Context, step: dict[str, Any]) -> None:
        if "background" in step:
            context.background[step["background"]] = self.pool.submit(self._send, context, step)
            return
        if "until" in step:
            deadline = time.monotonic() + step["until"]["timeoutMs"] / 1000
            while True:
                exchange = self._send(context, step)
                if not check_expect(exchange, step["expect"], context.variables) or time.monotonic() > deadline:
                    break
                time.sleep(step["until"].get("intervalMs", 20) / 1000)
            self._conclude(context, exchange, step)
            return
        for _ in range(int(resolve(step.get("times", 1), context.variables))):
            self._conclude(context, self._send(context, step), step)

    def _conclude(self, context: Context, exchange: Exchange, step: dict[str, Any]) -> None:
        problems = check_expect(exchange, step["expect"], context.variables)
        if problems:
            raise ScenarioFailure("; ".join(problems) + f"\n{exchange.describe()}")
        for name, location in step.get("capture", {}).items():
            value = pointer(exchange.json, location)
            if value is MISSING:
                raise ScenarioFailure(f"cannot capture {name}: {location} is not in the answer\n{exchange.describe()}")
            context.variables[name] = value

    def _parallel(self, context: Context, step: dict[str, Any]) -> None:
        requests = step["parallel"]
        barrier = threading.Barrier(len(requests))

        def fire(request: dict[str, Any]) -> Exchange:
            return self._send(context, request, ready=lambda: barrier.wait(timeout=REQUEST_TIMEOUT_S))

        futures = [self.pool.submit(fire, request) for request in requests]
        exchanges = [future.result(timeout=REQUEST_TIMEOUT_S) for future in futures]
        outcomes = step["outcomes"]
        for order in itertools.permutations(range(len(exchanges))):
            if all(not check_expect(exchanges[i], outcomes[j], context.variables) for j, i in enumerate(order)):
                return
        shown = "\n".join(exchange.describe() for exchange in exchanges)
        raise ScenarioFailure(f"the concurrent answers do not match the outcomes {json.dumps(outcomes)}:\n{shown}")

    def _metric(self, context: Context, step: dict[str, Any]) -> None:
        value = 0.0
        headers = {routing.ROUTING_HEADER: context.pinned} if context.pinned is not None else {}
        with httpx.Client(trust_env=False, timeout=REQUEST_TIMEOUT_S, headers=headers) as http:
            for url in self.metrics_urls.get(context.base_url, [context.base_url]):
                value += metric_value(http.get(f"{url}/metrics").text, step["metric"], step.get("labels", {}))
        if "expect" in step:
            since = resolve(step["expect"]["since"], context.variables)
            if value - since != step["expect"]["increase"]:
                raise ScenarioFailure(
                    f"{step['metric']}{step.get('labels', {})} grew by {value - since:g}, "
                    f"expected {step['expect']['increase']}"
                )
        if "capture" in step:
            context.variables[step["capture"]] = value


def _naming(host_id: str) -> Callable[[httpx.Request], None]:
    """A request hook: ``Agentic-Host: host_id`` on a request that names no host itself."""

    def name_the_host(request: httpx.Request) -> None:
        request.headers.setdefault(routing.ROUTING_HEADER, host_id)

    return name_the_host


_SAMPLE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)")
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


def metric_value(text: str, name: str, labels: dict[str, str]) -> float:
    """Sum of the samples called ``name`` whose labels include ``labels`` (0 when there is none yet)."""
    total = 0.0
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if match is None or line.startswith("#") or match.group(1) != name:
            continue
        found = dict(_LABEL.findall(match.group(2) or ""))
        if all(found.get(key) == value for key, value in labels.items()):
            total += float(match.group(3))
    return total
