"""The FastAPI adapter: the route table of ``operations`` served over one ``Driver``.

``create_app`` only assembles: the middlewares, the problem rendering of every failure, and one route per
row of ``operations.OPERATIONS`` (operation id as the route name), each bound to this app's ``Served``.
It serves ``openapi.yaml`` itself and loads nothing from the internet (FastAPI's CDN-backed docs pages
are off; the optional ``/docs`` page ships its renderer, see ``docs_page``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable
from importlib import resources

from fastapi import FastAPI
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Match, Route

from ..auth import Rejection, TokenPolicy
from ..bearer import Authenticator, BearerPolicy
from ..driver import Driver
from ..errors import DriverError, InternalError, MethodNotAllowed, RouteNotFound
from .docs_page import DOCS_PAGE
from .head import HeadAsGet
from .limits import Drain, RequestGuard
from .metrics_access import MetricsAccess
from .observe import RequestObserver
from .operations import METRICS, OPERATIONS, Operation, Served, instance
from .owner import OwnerCheck
from .problems import problem_response

__all__ = ["OperationEndpoint", "OperationRoute", "create_app", "openapi_document"]

log = logging.getLogger("agentic_driver.http")


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


class OperationEndpoint(functools.partial[Awaitable[Response]]):
    """An operation's handler bound to its app's ``Served``; it keeps the row it serves, which the request's
    log line and span report (``observe`` finds it as the scope's ``endpoint``)."""

    operation: Operation


class OperationRoute(Route):
    """A route serving exactly its operation's method, and HEAD beside GET (RFC 9110 section 9.3.2: the GET
    answer's status and headers, without its content; see HeadAsGet), named by its operation id."""

    def __init__(self, operation: Operation, served: Served) -> None:
        endpoint = OperationEndpoint(operation.handler, served)
        endpoint.operation = operation
        super().__init__(
            operation.path, endpoint, methods=[operation.method], name=operation.operation_id, include_in_schema=False
        )
        self.methods = {operation.method, "HEAD"} if operation.method == "GET" else {operation.method}


def _allowed_methods(app: FastAPI, request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette's own 405 names only the first route's)."""
    methods: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE and isinstance(route, Route) and route.methods:
            methods |= route.methods
    return sorted(methods)


# -- failures, each answered with a problem ----------------------------------------------------------


async def _driver_error(served: Served, request: Request, error: Exception) -> Response:
    assert isinstance(error, DriverError)
    return problem_response(error, instance(request), served.driver.metrics)


async def _routing_error(served: Served, request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    metrics = served.driver.metrics
    if error.status_code != 405:
        return problem_response(RouteNotFound(f"No route {request.url.path}."), instance(request), metrics)
    refused = MethodNotAllowed(f"{request.method} is not allowed on {request.url.path}.")
    response = problem_response(refused, instance(request), metrics)
    response.headers["Allow"] = ", ".join(_allowed_methods(request.app, request))
    return response


async def _client_gone(served: Served, request: Request, error: Exception) -> Response:
    # The client went away while its body was arriving: nothing was admitted and nobody is listening.
    return Response(status_code=400)


async def _defect(served: Served, request: Request, error: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem_response(InternalError("The host failed unexpectedly."), instance(request), served.driver.metrics)


FAILURES = (
    (DriverError, _driver_error),
    (HTTPException, _routing_error),
    (ClientDisconnect, _client_gone),
    (Exception, _defect),
)


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
    # OpenTelemetry API for its providers), and the host's operations are plain Starlette routes
    # (OperationRoute): they take the raw Request and validate bodies themselves, so FastAPI's
    # per-request dependency solving would only repeat work. Both measured in bench/README.md.
    app = FastAPI(
        title="Agentic Driver",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    drain = drain or Drain()
    access = metrics_access or MetricsAccess()
    served = Served(
        driver,
        tokens if isinstance(tokens, Authenticator) else Authenticator(BearerPolicy(tokens)),
        OwnerCheck(driver.host_id),
        drain,
        openapi_document(),
        access,
        max_body_bytes,
        heartbeat_ms / 1000,
        None if stream_stall_ms is None else stream_stall_ms / 1000,
    )
    driver.metrics.declare_auth_reasons(reason.value for reason in Rejection)
    app.add_middleware(RequestGuard, body_timeout_ms=body_timeout_ms, drain=drain, metrics=driver.metrics)
    app.add_middleware(HeadAsGet)
    app.add_middleware(RequestObserver)  # outermost: every answer, the guards' refusals too, has a request id
    for kind, answer in FAILURES:
        app.add_exception_handler(kind, functools.partial(answer, served))
    served_operations = (*OPERATIONS, *(DOCS_PAGE if docs else ()), *((METRICS,) if access.on_api else ()))
    app.router.routes.extend(OperationRoute(operation, served) for operation in served_operations)
    return app
