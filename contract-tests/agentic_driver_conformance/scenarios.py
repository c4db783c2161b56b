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
"""

from __future__ import annotations

import functools
import importlib
import inspect
import itertools
import json
import pkgutil
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx
from jsonschema import Draft202012Validator
from schemathesis.core.failures import FailureGroup

from . import checks, observations, routing, validation
from .resources import SCENARIOS_DIR
from .spec import operations

if TYPE_CHECKING:
    from agentic_driver_client import AuthenticatedClient, Client

REQUEST_TIMEOUT_S = 20.0
ONE_PROCESS: dict[str, str] = {
    "host-busy": "fills one host's run slots and wait line (limits are per process)",
    "run-slots": "takes both run slots of one host",
    "session-flow": "expects the session to name the host that discovery names",
    "store-full": "fills one host's session store (maxEntries is per process)",
}
"""Scenarios about one host process beyond their metric steps (every scenario with a metric step is one too)."""
INVALID_TOKEN = "contract-token-no-host-knows-0"
_MISSING = object()


class ScenarioFailure(AssertionError):
    pass


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


# -- the generated client -------------------------------------------------------------------------------------------


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


@functools.cache
def client_module(operation_id: str) -> Any:
    """The generated module of an operation, found by name under agentic_driver_client.api."""
    api = importlib.import_module("agentic_driver_client.api")
    wanted = _snake(operation_id)
    for info in pkgutil.walk_packages(api.__path__, prefix="agentic_driver_client.api."):
        if info.name.rsplit(".", 1)[-1] == wanted:
            return importlib.import_module(info.name)
    raise ScenarioFailure(f"the generated client has no module for operationId {operation_id!r}")


def _normalise(name: str) -> str:
    """A spec parameter name as the generated client spells it, minus separators (Idempotency-Key ~ idempotency_key)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass(frozen=True)
class ClientParseError:
    """The generated client raised while reading an answer."""

    error: Exception


@dataclass
class Exchange:
    """One request through the generated client and everything it produced."""

    operation_id: str
    path: dict[str, Any]
    body: Any
    response: httpx.Response
    parsed: Any
    cut_short: bool = False
    """The runner closed the stream early on purpose (transport.disconnectAfterEvents)."""

    @property
    def is_stream(self) -> bool:
        content_type: str = self.response.headers.get("content-type", "")
        return content_type.split(";")[0].strip() == "text/event-stream"

    @property
    def json(self) -> Any:
        """The body as JSON; an event stream reads as the array of its events' data."""
        try:
            if self.is_stream:
                return [json.loads(m["data"]) for m in checks.parse_event_stream(self.response.content)]
            return json.loads(self.response.content or b"null")
        except ValueError:
            return None

    def describe(self) -> str:
        request = self.response.request
        content = request.content.decode("utf-8", "replace") if request.content else ""
        return (
            f"{request.method} {request.url} {content[:400]}\n"
            f"  -> {self.response.status_code} {self.response.text[:800]}"
        )


def _client(
    base_url: str,
    auth: str,
    tokens: dict[str, str],
    transport: dict[str, Any],
    captured: list[httpx.Response] | None,
    request_hooks: Sequence[Callable[[httpx.Request], None]] = (),
) -> Client | AuthenticatedClient:
    """A generated client; ``captured`` collects every raw response (read whole: not for streams);
    ``request_hooks`` see each request before it is sent (a cluster test adds the routing header with one)."""
    from agentic_driver_client import AuthenticatedClient, Client

    def on_request(request: httpx.Request) -> None:
        if "contentType" in transport:
            request.headers["Content-Type"] = transport["contentType"]

    def on_response(response: httpx.Response) -> None:
        response.read()
        assert captured is not None
        captured.append(response)

    hooks: dict[str, list[Callable[..., None]]] = {"request": [on_request, *request_hooks]}
    if captured is not None:
        hooks["response"] = [on_response]
    httpx_args: dict[str, Any] = {"trust_env": False, "event_hooks": hooks}
    timeout = httpx.Timeout(REQUEST_TIMEOUT_S)
    if auth == "none":
        return Client(base_url=base_url, timeout=timeout, httpx_args=httpx_args)
    if auth != "invalid" and auth not in tokens:
        raise ScenarioFailure(f"no secret for token {auth!r}")
    token = INVALID_TOKEN if auth == "invalid" else tokens[auth]
    return AuthenticatedClient(token=token, base_url=base_url, timeout=timeout, httpx_args=httpx_args)


def streams(operation_id: str) -> bool:
    """Whether the operation answers 200 with an event stream."""
    return "text/event-stream" in operations()[operation_id].response_media_types.get("200", ())


def _read_stream(response: httpx.Response, disconnect_after: int | None) -> tuple[bytes, bool]:
    """The stream's bytes; with ``disconnect_after``, only its first complete messages, then the connection closes."""
    content = b""
    for chunk in response.iter_bytes():
        searched = max(len(content) - 1, 0)
        content += chunk
        if disconnect_after is not None and response.status_code == 200:
            # One read may bring many events: keep exactly the first ``disconnect_after`` (comments aside).
            while (boundary := content.find(b"\n\n", searched)) != -1:
                searched = boundary + 2
                if len(checks.parse_event_stream(content[:searched])) >= disconnect_after:
                    return content[:searched], True
    return content, False


def call(
    base_url: str,
    operation_id: str,
    *,
    auth: str,
    tokens: dict[str, str],
    path: dict[str, Any],
    headers: dict[str, Any],
    body: Any,
    transport: dict[str, Any],
    ready: Callable[[], object] | None = None,
    request_hooks: Sequence[Callable[[httpx.Request], None]] = (),
) -> Exchange:
    """One request through the generated client. ``ready`` runs once the connection is open, just before sending.

    The generated client builds every request. Event streams are read through its httpx client (the generator
    does not stream) and their events parsed by the hand-written layer beside it (agentic_driver_sdk).
    """
    module = client_module(operation_id)
    signature = inspect.signature(module.sync_detailed)
    kwargs: dict[str, Any] = {}
    for name, value in {**path, **headers}.items():
        matches = [p for p in signature.parameters if _normalise(p) == _normalise(name)]
        if not matches:
            raise ScenarioFailure(f"{operation_id} has no parameter {name!r} in the generated client")
        kwargs[matches[0]] = value
    if body is not None:
        model = signature.parameters["body"].annotation
        kwargs["body"] = model.from_dict(body)
    captured: list[httpx.Response] = []
    streaming = streams(operation_id)
    with _client(base_url, auth, tokens, transport, None if streaming else captured, request_hooks) as client:
        if ready is not None:
            client.get_httpx_client().get("/healthz")  # open the connection before the starting signal
            ready()
        if streaming:
            return _call_streaming(module, client, operation_id, path, body, kwargs, transport)
        try:
            parsed = module.sync_detailed(client=client, **kwargs).parsed
        except Exception as error:  # the client could not parse the answer: judged after validation
            if not captured:
                raise
            parsed = ClientParseError(error)
    assert captured, "the client sent no request"
    return Exchange(operation_id, path, body, captured[-1], parsed)


def _call_streaming(
    module: Any,
    client: Any,
    operation_id: str,
    path: dict[str, Any],
    body: Any,
    kwargs: dict[str, Any],
    transport: dict[str, Any],
) -> Exchange:
    from agentic_driver_sdk import parse_event
    from httpx_sse import ServerSentEvent

    request = module._get_kwargs(**kwargs)
    request["headers"] = {**request.get("headers", {}), "Accept": "text/event-stream"}
    with client.get_httpx_client().stream(**request) as streamed:
        content, cut_short = _read_stream(streamed, transport.get("disconnectAfterEvents"))
        response = httpx.Response(
            streamed.status_code, headers=streamed.headers, content=content, request=streamed.request
        )
    response.elapsed = streamed.elapsed
    parsed: Any
    try:
        if response.status_code == 200:
            parsed = [
                parse_event(ServerSentEvent(event=m.get("event", ""), data=m["data"], id=m.get("id", "")))
                for m in checks.parse_event_stream(content)
            ]
        else:
            parsed = module._parse_response(client=client, response=response)
    except Exception as error:
        parsed = ClientParseError(error)
    return Exchange(operation_id, path, body, response, parsed, cut_short=cut_short)


# -- values, expectations, captures ---------------------------------------------------------------------------------


def _lookup(variables: dict[str, Any], reference: str) -> Any:
    name, *parts = reference.split(".")
    if name not in variables:
        raise ScenarioFailure(f"${reference}: nothing was captured as {name!r}")
    value = variables[name]
    for part in parts:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise ScenarioFailure(f"${reference}: {part!r} is not in the captured value {value!r}")
    return value


def resolve(value: Any, variables: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value.startswith("$$"):
            return value[1:]
        if value.startswith("$") and re.fullmatch(r"\$[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*", value):
            return _lookup(variables, value[1:])
        return value
    if isinstance(value, dict):
        if set(value) == {"$repeat"}:
            spec = value["$repeat"]
            return str(resolve(spec["text"], variables)) * int(resolve(spec["times"], variables))
        return {key: resolve(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, variables) for item in value]
    return value


def pointer(document: Any, location: str) -> Any:
    """RFC 6901; a missing location is _MISSING."""
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
            return _MISSING
    return value


_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def _matches(actual: Any, expected: Any, variables: dict[str, Any]) -> bool:
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        ((operator, argument),) = expected.items()
        if operator != "$repeat":
            argument = resolve(argument, variables)
            if operator == "$exists":
                return bool((actual is not _MISSING) == argument)
            if actual is _MISSING:
                return False
            if operator == "$len":
                return hasattr(actual, "__len__") and len(actual) == int(argument)
            if operator == "$in":
                return actual in argument
            if operator == "$ne":
                return bool(actual != argument)
            if operator == "$type":
                return _JSON_TYPES[argument](actual)
            raise ScenarioFailure(f"unknown matcher {operator}")
    return actual is not _MISSING and actual == resolve(expected, variables)


def check_expect(exchange: Exchange, expect: dict[str, Any], variables: dict[str, Any]) -> list[str]:
    problems = []
    response = exchange.response
    if response.status_code != expect["status"]:
        problems.append(f"status {response.status_code}, expected {expect['status']}")
    if "code" in expect:
        wanted = expect["code"] if isinstance(expect["code"], list) else [expect["code"]]
        code = validation.problem_code(response)
        if code not in wanted:
            problems.append(f"code {code}, expected {' or '.join(wanted)}")
    body = exchange.json
    for location, expected in expect.get("body", {}).items():
        actual = pointer(body, location)
        if not _matches(actual, expected, variables):
            shown = "(missing)" if actual is _MISSING else json.dumps(actual)[:300]
            problems.append(f"body {location or '(whole)'} is {shown}, expected {json.dumps(expected)[:300]}")
    for name, expected in expect.get("headers", {}).items():
        actual = response.headers.get(name, _MISSING)
        if not _matches(actual, expected, variables):
            problems.append(
                f"header {name} is {actual if actual is not _MISSING else '(missing)'}, expected {expected}"
            )
    return problems


def check_parsed(exchange: Exchange) -> list[str]:
    """The generated client understood the answer as the spec documents it."""
    status = str(exchange.response.status_code)
    operation = operations()[exchange.operation_id]
    if isinstance(exchange.parsed, ClientParseError):
        error = exchange.parsed.error
        return [f"the generated client could not parse the {status} answer: {type(error).__name__}: {error}"]
    if status not in operation.statuses:
        return []  # undocumented: schemathesis' status_code_conformance reports it
    media = operation.response_media_types.get(status, ())
    if not media:
        return (
            []
            if exchange.parsed is None
            else [f"the client parsed a {status} without content into {exchange.parsed!r}"]
        )
    if exchange.parsed is None:
        return [f"the generated client did not parse the documented {status} answer"]
    if exchange.is_stream:
        from agentic_driver_sdk import UnknownEvent

        unknown = [event.type for event in exchange.parsed if isinstance(event, UnknownEvent)]
        return [f"the client layer does not know the event types {unknown}"] if unknown else []
    wire_code = validation.problem_code(exchange.response)
    if status in operation.codes_by_status:
        parsed_code = getattr(getattr(exchange.parsed, "code", None), "value", None)
        if parsed_code != wire_code:
            parsed_type = type(exchange.parsed).__name__
            return [f"the client parsed code {parsed_code!r} (as {parsed_type}), the wire says {wire_code!r}"]
    return []


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
            if value is _MISSING:
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
