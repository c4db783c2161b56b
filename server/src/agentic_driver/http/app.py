"""The FastAPI adapter: authenticate, parse the generated model, call one Driver method, render.

All policy lives in the driver. This layer only maps bearer tokens to
principals, bodies to generated models, and driver errors to problem responses.
It serves ``openapi.yaml`` itself and loads nothing from the internet (FastAPI's
CDN-backed docs pages are off; the optional ``/docs`` page ships its renderer, see ``docs_page``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import TypeVar

import orjson
import yaml
from fastapi import FastAPI
from pydantic import MISSING, BaseModel
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Match, Route

from ..auth import Rejection, SessionPrincipal, TokenPolicy
from ..bearer import Authenticator, BearerPolicy
from ..driver import Driver
from ..errors import (
    DriverError,
    InternalError,
    MethodNotAllowed,
    RouteNotFound,
    RunCancelled,
    ValidationFailed,
)
from ..models import (
    CreateSessionRequest,
    ForkSessionRequest,
    RunRequest,
    SubmitRunActionsRequest,
    TruncateSessionRequest,
)
from .body import parse_body
from .docs_page import mount_docs_page
from .head import HeadAsGet
from .headers import request_header
from .limits import Drain, RequestGuard
from .metrics_access import MetricsAccess
from .observe import OPERATIONS, RequestObserver, operation_id
from .owner import OwnerCheck
from .problems import problem_response
from .sse import EventStreamResponse

__all__ = ["create_app", "openapi_document"]

log = logging.getLogger("agentic_driver.http")

T = TypeVar("T")
IDEMPOTENCY_KEY_MAX = 255


def openapi_document() -> str:
    """The contract, exactly as written (a copy of the repository's openapi.yaml kept by generator/)."""
    return resources.files(__package__).joinpath("openapi.yaml").read_text(encoding="utf-8")


class _AnyText(Convertor[str]):
    """Path parameters are opaque ids: once percent-decoded they may hold any character, '/' and
    line breaks included, and must still reach the operation (which answers *_NOT_FOUND)."""

    regex = r"[\s\S]*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


class _SessionId(_AnyText):
    """Any text, except a path that names a session's sub-resource (``/truncate``, ``/fork``), so other methods
    there still get METHOD_NOT_ALLOWED rather than reaching readSession or deleteSession."""

    regex = r"(?![\s\S]*/(?:truncate|fork)$)[\s\S]*"


class _RunId(_AnyText):
    """Any text, except a path that names a run's sub-resource (or ``/v1/runs/stream``), so other methods there
    still get METHOD_NOT_ALLOWED rather than reaching getRun."""

    regex = r"(?!stream$)(?![\s\S]*/(?:events|cancel|actions|actions/stream)$)[\s\S]*"


register_url_convertor("any", _AnyText())
register_url_convertor("session_id", _SessionId())
register_url_convertor("run_id", _RunId())


Endpoint = Callable[[Request], Awaitable[Response]]
RouteDecorator = Callable[[str, str], Callable[[Endpoint], Endpoint]]


def _router(app: FastAPI) -> RouteDecorator:
    """``@route(method, path)``: registers a Starlette route serving exactly ``method``, and HEAD beside
    GET (RFC 9110 section 9.3.2: the GET answer's status and headers, without its content; see HeadAsGet)."""

    def route(method: str, path: str) -> Callable[[Endpoint], Endpoint]:
        def register(endpoint: Endpoint) -> Endpoint:
            added = Route(path, endpoint, methods=[method], include_in_schema=False)
            added.methods = {method, "HEAD"} if method == "GET" else {method}
            app.router.routes.append(added)
            OPERATIONS[endpoint] = (operation_id(endpoint.__name__), _template(path))
            return endpoint

        return register

    return route


def _template(path: str) -> str:
    """``/v1/runs/{run_id:any}/actions`` -> ``/v1/runs/{runId}/actions``: the route as the contract names it."""
    return re.sub(r"\{(\w+?)(?::\w+)?\}", lambda match: "{" + operation_id(match.group(1)) + "}", path)


@functools.lru_cache(maxsize=1)
def _spec_json(spec_yaml: str) -> str:
    """The contract as JSON, converted on first request (parsing it took a sixth of the host's start-up)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: seven times faster
    return json.dumps(yaml.load(spec_yaml, Loader=loader), ensure_ascii=False)  # a safe loader


def _instance(request: Request) -> str:
    """The request path exactly as sent (still percent-encoded): a URI reference, unlike the decoded path."""
    raw = request.scope.get("raw_path")
    return raw.decode("latin-1") if isinstance(raw, bytes) else request.url.path


def _json(model: BaseModel, status_code: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status_code, media_type="application/json")


def _allowed_methods(app: FastAPI, request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette's own 405 names only the first route's)."""
    methods: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE and isinstance(route, Route) and route.methods:
            methods |= route.methods
    return sorted(methods)


def idempotency_key(request: Request) -> str | None:
    key = request_header(request, b"idempotency-key")
    if key is not None and not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX:
        raise ValidationFailed(
            f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters.",
            errors=[{"location": "header.Idempotency-Key", "message": "length out of range"}],
        )
    return key


LAST_EVENT_ID = re.compile(r"[1-9][0-9]{0,17}")


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


async def _client_gone(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


DISCONNECT_WATCH_DELAY_S = 0.01
"""How long a JSON run may take before its request starts watching for the client going away."""


async def unless_disconnected(request: Request, work: Awaitable[T]) -> T:
    """``work``'s result; if the client disconnects first, ``work`` is cancelled as ``disconnected``.

    ``work`` runs in the request's own task. Only if it takes longer than
    ``DISCONNECT_WATCH_DELAY_S`` does a watcher task start reading ``receive``; it
    cancels the request task when the client goes away. Most turns with a fast
    model end before that, and a watcher per request cost a task and two extra
    loop iterations (about an eighth of the host's latency at concurrency 1, measured in
    bench/README.md); a disconnect is still seen at most that delay late.
    """
    loop = asyncio.get_running_loop()
    current = asyncio.current_task()
    assert current is not None
    watcher: asyncio.Task[None] | None = None
    finished = False

    def on_gone(gone: asyncio.Future[None]) -> None:
        if not finished and not gone.cancelled():
            current.cancel("disconnected")

    def watch() -> None:
        nonlocal watcher
        watcher = loop.create_task(_client_gone(request))
        watcher.add_done_callback(on_gone)

    start_watching = loop.call_later(DISCONNECT_WATCH_DELAY_S, watch)
    try:
        return await work
    except asyncio.CancelledError:
        gone = watcher is not None and watcher.done() and not watcher.cancelled()
        if not gone or current.uncancel() > 0:
            raise  # cancelled for another reason (the server stopping): not a disconnect
        raise RunCancelled("The run was stopped because its client disconnected.", reason="disconnected") from None
    finally:
        finished = True
        start_watching.cancel()
        if watcher is not None:
            watcher.cancel()


def create_app(
    driver: Driver,
    tokens: TokenPolicy | Authenticator,
    *,
    max_body_bytes: int = 4 * 1024 * 1024,
    heartbeat_ms: int = 15_000,
    stream_stall_ms: int | None = None,
    body_timeout_ms: int = 30_000,
    drain: Drain | None = None,
    docs: bool = False,
    metrics_access: MetricsAccess | None = None,
) -> FastAPI:
    # FastAPI, so embedders can add routes, dependencies and middleware of their own. Its OpenTelemetry
    # hooks are off (the host exports Prometheus metrics; with them on, every request asks the
    # OpenTelemetry API for its providers), and the host's operations are plain Starlette routes (see
    # _router): they take the raw Request and validate bodies themselves, so FastAPI's per-request
    # dependency solving would only repeat work. Both measured in bench/README.md.
    app = FastAPI(
        title="Agentic Driver",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    route = _router(app)
    drain = drain or Drain()
    driver.metrics.declare_auth_reasons(reason.value for reason in Rejection)
    app.add_middleware(RequestGuard, body_timeout_ms=body_timeout_ms, drain=drain, metrics=driver.metrics)
    app.add_middleware(HeadAsGet)
    app.add_middleware(RequestObserver)  # outermost: every answer, the guards' refusals too, has a request id
    stall_s = None if stream_stall_ms is None else stream_stall_ms / 1000
    spec_yaml = openapi_document()
    owner = OwnerCheck(driver.host_id)

    # The policy is read once per request, so a reload (SIGHUP, see cli) applies from the next request on.
    auth = tokens if isinstance(tokens, Authenticator) else Authenticator(BearerPolicy(tokens))

    async def principal_of(request: Request) -> SessionPrincipal:
        return await auth.principal(request_header(request, b"authorization") or "")

    @app.exception_handler(DriverError)
    async def _driver_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, DriverError)
        return problem_response(error, _instance(request), driver.metrics)

    @app.exception_handler(HTTPException)
    async def _routing_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        mapped: DriverError
        if error.status_code == 405:
            mapped = MethodNotAllowed(f"{request.method} is not allowed on {request.url.path}.")
        else:
            mapped = RouteNotFound(f"No route {request.url.path}.")
        response = problem_response(mapped, _instance(request), driver.metrics)
        if error.status_code == 405:
            response.headers["Allow"] = ", ".join(_allowed_methods(app, request))
        return response

    @app.exception_handler(ClientDisconnect)
    async def _client_gone(request: Request, error: Exception) -> Response:
        # The client went away while its body was arriving: nothing was admitted and nobody is listening.
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def _defect(request: Request, error: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return problem_response(InternalError("The host failed unexpectedly."), _instance(request), driver.metrics)

    async def owned_id(request: Request, name: str) -> tuple[str, SessionPrincipal]:
        """The path's session or run id and the caller, once the id is known to belong to this host."""
        principal = await principal_of(request)
        an_id: str = request.path_params[name]
        owner.path_id(request, an_id)
        return an_id, principal

    async def run_body(request: Request) -> RunRequest:
        """The run's body, read only once the header says the request is for this host; its session id too."""
        owner.header(request)
        body = await parse_body(request, RunRequest, max_body_bytes)
        if body.session is not MISSING:
            owner.body_id(body.session.id)
        return body

    # Starlette tries routes in order, and each route passed over costs about 8,000 instructions
    # (bench/README.md, "Where a turn's CPU goes"): the operations come first, turns first of all.
    @route("POST", "/v1/runs")
    async def run(request: Request) -> Response:
        principal = await principal_of(request)
        key = idempotency_key(request)
        body = await run_body(request)
        return _json(await unless_disconnected(request, driver.run(body, principal, idempotency_key=key)))

    @route("POST", "/v1/runs/stream")
    async def stream_run(request: Request) -> EventStreamResponse:
        principal = await principal_of(request)
        key = idempotency_key(request)
        body = await run_body(request)
        events = await driver.stream_run(body, principal, idempotency_key=key)
        return EventStreamResponse(events, heartbeat_ms / 1000, stall_s)

    @route("POST", "/v1/sessions")
    async def create_session(request: Request) -> Response:
        principal = await principal_of(request)
        key = idempotency_key(request)
        body = await parse_body(request, CreateSessionRequest, max_body_bytes)
        return _json(await driver.create_session(body, principal, idempotency_key=key), 201)

    @route("GET", "/v1/sessions/{session_id:session_id}")
    async def read_session(request: Request) -> Response:
        return _json(await driver.read_session(*await owned_id(request, "session_id")))

    @route("POST", "/v1/sessions/{session_id:any}/truncate")
    async def truncate_session(request: Request) -> Response:
        session_id, principal = await owned_id(request, "session_id")
        body = await parse_body(request, TruncateSessionRequest, max_body_bytes)
        return _json(await driver.truncate_session(session_id, body, principal))

    @route("POST", "/v1/sessions/{session_id:any}/fork")
    async def fork_session(request: Request) -> Response:
        session_id, principal = await owned_id(request, "session_id")
        key = idempotency_key(request)
        body = await parse_body(request, ForkSessionRequest, max_body_bytes)
        return _json(await driver.fork_session(session_id, body, principal, idempotency_key=key), 201)

    @route("DELETE", "/v1/sessions/{session_id:session_id}")
    async def delete_session(request: Request) -> Response:
        await driver.delete_session(*await owned_id(request, "session_id"))
        return Response(status_code=204)

    @route("POST", "/v1/runs/{run_id:any}/actions")
    async def submit_run_actions(request: Request) -> Response:
        run_id, principal = await owned_id(request, "run_id")
        key = idempotency_key(request)
        body = await parse_body(request, SubmitRunActionsRequest, max_body_bytes)
        work = driver.submit_run_actions(run_id, body, principal, idempotency_key=key)
        return _json(await unless_disconnected(request, work))

    @route("POST", "/v1/runs/{run_id:any}/actions/stream")
    async def stream_run_actions(request: Request) -> EventStreamResponse:
        run_id, principal = await owned_id(request, "run_id")
        key = idempotency_key(request)
        body = await parse_body(request, SubmitRunActionsRequest, max_body_bytes)
        events = await driver.stream_run_actions(run_id, body, principal, idempotency_key=key)
        return EventStreamResponse(events, heartbeat_ms / 1000, stall_s)

    @route("GET", "/v1/runs/{run_id:any}/events")
    async def stream_run_events(request: Request) -> EventStreamResponse:
        run_id, principal = await owned_id(request, "run_id")
        events = await driver.stream_run_events(run_id, principal, after=last_event_id(request))
        return EventStreamResponse(events, heartbeat_ms / 1000, stall_s)

    @route("GET", "/v1/runs/{run_id:run_id}")
    async def get_run(request: Request) -> Response:
        return _json(await driver.get_run(*await owned_id(request, "run_id")))

    @route("POST", "/v1/runs/{run_id:any}/cancel")
    async def cancel_run(request: Request) -> Response:
        run_id, principal = await owned_id(request, "run_id")
        return _json(await driver.cancel_run(run_id, principal))

    @route("GET", "/v1/discovery")
    async def get_discovery(request: Request) -> Response:
        return _json(await driver.discovery(await principal_of(request)))

    @route("GET", "/healthz")
    async def get_health(request: Request) -> Response:
        return Response(b'{"status":"ok"}', media_type="application/json")

    @route("GET", "/readyz")
    async def get_readiness(request: Request) -> Response:
        if drain.draining:
            return problem_response(drain.refusal(), _instance(request), driver.metrics)
        if driver.restored is None:
            return Response(b'{"status":"ready"}', media_type="application/json")
        body = {"status": "ready", "restored": driver.restored.readiness()}
        return Response(orjson.dumps(body), media_type="application/json")

    @route("GET", "/openapi.yaml")
    async def get_openapi_yaml(request: Request) -> Response:
        return Response(spec_yaml, media_type="application/yaml")

    @route("GET", "/openapi.json")
    async def get_openapi_json(request: Request) -> Response:
        return Response(_spec_json(spec_yaml), media_type="application/json")

    if docs:
        mount_docs_page(route)

    access = metrics_access or MetricsAccess()
    if access.on_api:

        @route("GET", "/metrics")
        async def get_metrics(request: Request) -> Response:
            return access.render(request, driver.metrics)

    return app
