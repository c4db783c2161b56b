"""The host's operations: one module-level handler per ``operationId`` of ``openapi.yaml``, and their table.

A handler is ``async def handler(served: Served, request: Request) -> Response``: it authenticates,
parses the generated model, calls one ``Driver`` method and renders its answer. All policy lives in the
driver. ``Served`` is what one app serves with (its driver, bearer policy, owner check and bounds);
``app.create_app`` binds it to each handler of ``OPERATIONS`` and registers the routes in that order.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import orjson
import yaml
from pydantic import MISSING, BaseModel
from starlette.requests import Request
from starlette.responses import Response

from ..auth import SessionPrincipal
from ..bearer import Authenticator
from ..driver import Driver
from ..errors import ValidationFailed
from ..models import (
    CreateSessionRequest,
    ForkSessionRequest,
    RunRequest,
    SubmitRunActionsRequest,
    TruncateSessionRequest,
)
from ..views import NumberedEvents
from .body import parse_body
from .disconnect import unless_disconnected
from .headers import request_header
from .limits import Drain
from .metrics_access import MetricsAccess
from .owner import OwnerCheck
from .problems import problem_response
from .sse import EventStreamResponse

__all__ = ["OPERATIONS", "Handler", "Operation", "Served", "idempotency_key", "instance", "last_event_id"]

IDEMPOTENCY_KEY_MAX = 255
LAST_EVENT_ID = re.compile(r"[1-9][0-9]{0,17}")


@dataclass(frozen=True, slots=True)
class Served:
    """What one app's operations serve with."""

    driver: Driver
    auth: Authenticator
    """Read once per request, so a reload (SIGHUP, see cli) applies from the next request on."""
    owner: OwnerCheck
    drain: Drain
    spec_yaml: str
    metrics_access: MetricsAccess
    max_body_bytes: int = 4 * 1024 * 1024
    heartbeat_s: float = 15.0
    stall_s: float | None = None

    async def principal(self, request: Request) -> SessionPrincipal:
        return await self.auth.principal(request_header(request, b"authorization") or "")

    async def owned_id(self, request: Request, name: str) -> tuple[str, SessionPrincipal]:
        """The path's session or run id and the caller, once the id is known to belong to this host."""
        principal = await self.principal(request)
        an_id: str = request.path_params[name]
        self.owner.path_id(request, an_id)
        return an_id, principal

    async def run_body(self, request: Request) -> RunRequest:
        """The run's body, read only once the header says the request is for this host; its session id too."""
        self.owner.header(request)
        body = await parse_body(request, RunRequest, self.max_body_bytes)
        if body.session is not MISSING:
            self.owner.body_id(body.session.id)
        return body

    def events(self, events: NumberedEvents) -> EventStreamResponse:
        return EventStreamResponse(events, self.heartbeat_s, self.stall_s)


Handler = Callable[[Served, Request], Awaitable[Response]]


@dataclass(frozen=True, slots=True)
class Operation:
    """One row of the route table: the contract's operation, its method and Starlette path, its handler."""

    operation_id: str
    method: str
    path: str
    handler: Handler
    template: str = field(init=False)
    """``/v1/runs/{run_id:any}/actions`` -> ``/v1/runs/{runId}/actions``: the path as the contract names it."""

    def __post_init__(self) -> None:
        template = re.sub(r"\{(\w+?)(?::\w+)?\}", lambda match: "{" + _camel(match.group(1)) + "}", self.path)
        object.__setattr__(self, "template", template)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


# -- request pieces -------------------------------------------------------------------------------


def instance(request: Request) -> str:
    """The request path exactly as sent (still percent-encoded): a URI reference, unlike the decoded path."""
    raw = request.scope.get("raw_path")
    return raw.decode("latin-1") if isinstance(raw, bytes) else request.url.path


def idempotency_key(request: Request) -> str | None:
    key = request_header(request, b"idempotency-key")
    if key is not None and not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX:
        raise ValidationFailed(
            f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters.",
            errors=[{"location": "header.Idempotency-Key", "message": "length out of range"}],
        )
    return key


def last_event_id(request: Request) -> int:
    """The ``Last-Event-ID`` header as an event id; 0 (from the first event) when absent."""
    value = request_header(request, b"last-event-id")
    if value is None:
        return 0
    if LAST_EVENT_ID.fullmatch(value) is None:
        raise ValidationFailed(
            "Last-Event-ID must be a positive integer: the id of the last event received.",
            errors=[{"location": "header.Last-Event-ID", "message": "not a positive integer"}],
        )
    return int(value)


def _json(model: BaseModel, status_code: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status_code, media_type="application/json")


@functools.lru_cache(maxsize=1)
def _spec_json(spec_yaml: str) -> str:
    """The contract as JSON, converted on first request (parsing it took a sixth of the host's start-up)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: seven times faster
    return json.dumps(yaml.load(spec_yaml, Loader=loader), ensure_ascii=False)  # a safe loader


# -- runs -----------------------------------------------------------------------------------------


async def run(served: Served, request: Request) -> Response:
    principal = await served.principal(request)
    key = idempotency_key(request)
    body = await served.run_body(request)
    return _json(await unless_disconnected(request, served.driver.run(body, principal, idempotency_key=key)))


async def stream_run(served: Served, request: Request) -> Response:
    principal = await served.principal(request)
    key = idempotency_key(request)
    body = await served.run_body(request)
    return served.events(await served.driver.stream_run(body, principal, idempotency_key=key))


async def submit_run_actions(served: Served, request: Request) -> Response:
    run_id, principal = await served.owned_id(request, "run_id")
    key = idempotency_key(request)
    body = await parse_body(request, SubmitRunActionsRequest, served.max_body_bytes)
    work = served.driver.submit_run_actions(run_id, body, principal, idempotency_key=key)
    return _json(await unless_disconnected(request, work))


async def stream_run_actions(served: Served, request: Request) -> Response:
    run_id, principal = await served.owned_id(request, "run_id")
    key = idempotency_key(request)
    body = await parse_body(request, SubmitRunActionsRequest, served.max_body_bytes)
    return served.events(await served.driver.stream_run_actions(run_id, body, principal, idempotency_key=key))


async def stream_run_events(served: Served, request: Request) -> Response:
    run_id, principal = await served.owned_id(request, "run_id")
    return served.events(await served.driver.stream_run_events(run_id, principal, after=last_event_id(request)))


async def get_run(served: Served, request: Request) -> Response:
    return _json(await served.driver.get_run(*await served.owned_id(request, "run_id")))


async def cancel_run(served: Served, request: Request) -> Response:
    return _json(await served.driver.cancel_run(*await served.owned_id(request, "run_id")))


# -- sessions -------------------------------------------------------------------------------------


async def create_session(served: Served, request: Request) -> Response:
    principal = await served.principal(request)
    key = idempotency_key(request)
    body = await parse_body(request, CreateSessionRequest, served.max_body_bytes)
    return _json(await served.driver.create_session(body, principal, idempotency_key=key), 201)


async def read_session(served: Served, request: Request) -> Response:
    return _json(await served.driver.read_session(*await served.owned_id(request, "session_id")))


async def truncate_session(served: Served, request: Request) -> Response:
    session_id, principal = await served.owned_id(request, "session_id")
    body = await parse_body(request, TruncateSessionRequest, served.max_body_bytes)
    return _json(await served.driver.truncate_session(session_id, body, principal))


async def fork_session(served: Served, request: Request) -> Response:
    session_id, principal = await served.owned_id(request, "session_id")
    key = idempotency_key(request)
    body = await parse_body(request, ForkSessionRequest, served.max_body_bytes)
    return _json(await served.driver.fork_session(session_id, body, principal, idempotency_key=key), 201)


async def delete_session(served: Served, request: Request) -> Response:
    await served.driver.delete_session(*await served.owned_id(request, "session_id"))
    return Response(status_code=204)


# -- the host itself ------------------------------------------------------------------------------


async def get_discovery(served: Served, request: Request) -> Response:
    return _json(await served.driver.discovery(await served.principal(request)))


async def get_health(served: Served, request: Request) -> Response:
    return Response(b'{"status":"ok"}', media_type="application/json")


async def get_readiness(served: Served, request: Request) -> Response:
    if served.drain.draining:
        return problem_response(served.drain.refusal(), instance(request), served.driver.metrics)
    restored = served.driver.restored
    if restored is None:
        return Response(b'{"status":"ready"}', media_type="application/json")
    return Response(orjson.dumps({"status": "ready", "restored": restored.readiness()}), media_type="application/json")


async def get_openapi_yaml(served: Served, request: Request) -> Response:
    return Response(served.spec_yaml, media_type="application/yaml")


async def get_openapi_json(served: Served, request: Request) -> Response:
    return Response(_spec_json(served.spec_yaml), media_type="application/json")


async def get_metrics(served: Served, request: Request) -> Response:
    return served.metrics_access.render(request, served.driver.metrics)


# Starlette tries routes in order, and each route passed over costs about 8,000 instructions
# (bench/README.md, "Where a turn's CPU goes"): the operations come first, turns first of all.
OPERATIONS: tuple[Operation, ...] = (
    Operation("run", "POST", "/v1/runs", run),
    Operation("streamRun", "POST", "/v1/runs/stream", stream_run),
    Operation("createSession", "POST", "/v1/sessions", create_session),
    Operation("readSession", "GET", "/v1/sessions/{session_id:session_id}", read_session),
    Operation("truncateSession", "POST", "/v1/sessions/{session_id:any}/truncate", truncate_session),
    Operation("forkSession", "POST", "/v1/sessions/{session_id:any}/fork", fork_session),
    Operation("deleteSession", "DELETE", "/v1/sessions/{session_id:session_id}", delete_session),
    Operation("submitRunActions", "POST", "/v1/runs/{run_id:any}/actions", submit_run_actions),
    Operation("streamRunActions", "POST", "/v1/runs/{run_id:any}/actions/stream", stream_run_actions),
    Operation("streamRunEvents", "GET", "/v1/runs/{run_id:any}/events", stream_run_events),
    Operation("getRun", "GET", "/v1/runs/{run_id:run_id}", get_run),
    Operation("cancelRun", "POST", "/v1/runs/{run_id:any}/cancel", cancel_run),
    Operation("getDiscovery", "GET", "/v1/discovery", get_discovery),
    Operation("getHealth", "GET", "/healthz", get_health),
    Operation("getReadiness", "GET", "/readyz", get_readiness),
    Operation("getOpenapiYaml", "GET", "/openapi.yaml", get_openapi_yaml),
    Operation("getOpenapiJson", "GET", "/openapi.json", get_openapi_json),
)
"""Every operation the host serves, in the order its routes are tried; ``GET /metrics`` (``METRICS``) and
the docs page are added after them when host JSON turns them on."""

METRICS = Operation("getMetrics", "GET", "/metrics", get_metrics)
