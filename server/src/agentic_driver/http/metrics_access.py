"""Who may read ``/metrics`` and where it is served (host JSON ``metrics``).

- ``metrics.token`` (or ``tokenEnv``, ``tokenSha256``): ``/metrics`` requires
  ``Authorization: Bearer <that secret>``, a secret of its own (a scraper never holds an API token, and
  an API token never reads metrics); anything else is ``UNAUTHENTICATED``.
- ``metrics.listen``: ``/metrics`` (and ``/healthz``) are served on that separate address, and the API's
  address answers ``ROUTE_NOT_FOUND`` for ``/metrics``: an operator can keep the scrape port off the network
  the API is reachable from.
- neither: ``/metrics`` is open on the API's address only when that address is loopback (what ``make serve``
  and the tests use); on any other address it is not served, and the host says at start how to turn it on.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..auth import bearer_matches, secret_digest
from ..config import MetricsConfig
from ..errors import DriverError, MethodNotAllowed, RouteNotFound, Unauthenticated
from ..metrics import Metrics
from .problems import problem_response
from .tls import is_loopback

__all__ = ["MetricsAccess", "metrics_app"]

PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"


@dataclass(frozen=True, slots=True)
class MetricsAccess:
    on_api: bool = True
    """Whether the API's own address serves ``/metrics``."""
    token_digest: bytes | None = None
    """The SHA-256 of the bearer secret ``/metrics`` requires, if any."""

    @classmethod
    def of(cls, config: MetricsConfig, api_host: str) -> MetricsAccess:
        digest = secret_digest(config.token, config.tokenEnv, config.tokenSha256, "metrics")
        on_api = config.listen is None and (digest is not None or is_loopback(api_host))
        return cls(on_api=on_api, token_digest=digest)

    def check(self, request: Request) -> None:
        if self.token_digest is not None and not bearer_matches(
            request.headers.get("authorization", ""), self.token_digest
        ):
            raise Unauthenticated("The metrics bearer token is required.")

    def render(self, request: Request, metrics: Metrics) -> Response:
        """The scrape, or the problem that refuses it."""
        try:
            self.check(request)
        except DriverError as error:
            return problem_response(error, request.url.path, metrics)
        return Response(metrics.render(), media_type=PROMETHEUS_TEXT)


def metrics_app(metrics: Metrics, access: MetricsAccess) -> Starlette:
    """The app of the separate metrics address: ``/metrics`` and ``/healthz``, problems for anything else."""

    async def get_metrics(request: Request) -> Response:
        return access.render(request, metrics)

    async def get_health(request: Request) -> Response:
        return Response(b'{"status":"ok"}', media_type="application/json")

    async def routing_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        path = request.url.path
        mapped = MethodNotAllowed(f"{request.method} is not allowed on {path}.") if error.status_code == 405 else None
        return problem_response(mapped or RouteNotFound(f"No route {path} on the metrics address."), path, metrics)

    return Starlette(
        routes=[Route("/metrics", get_metrics, methods=["GET"]), Route("/healthz", get_health, methods=["GET"])],
        exception_handlers={HTTPException: routing_error},
    )
