"""The optional ``/docs`` page: an interactive API reference of the host's own ``openapi.yaml``.

The renderer is Swagger UI, vendored into this package at the version in
``docs/swagger-ui/VERSION`` (``server/docs-page/vendor.py`` copies it from the
pinned npm package ``swagger-ui-dist``, licence files included). The page,
its script and the renderer's assets are served from memory by the host itself;
the page reads the contract from ``/openapi.json``. A Content-Security-Policy
forbids the browser any other origin, so nothing is ever fetched from a CDN.

Off unless the host JSON says ``"docs": true`` (the embedded default of
``agentic-driver serve`` without ``--config`` turns it on): see docs/operating.md, API reference page.
"""

from __future__ import annotations

import functools
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response

from ..errors import RouteNotFound
from .operations import Operation

__all__ = ["CONTENT_SECURITY_POLICY", "DOCS_PAGE"]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Only this origin, for everything (Swagger UI sets inline styles and draws its icons as data: images)."""

ASSETS = {
    "init.js": "text/javascript; charset=utf-8",
    "swagger-ui/swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui/swagger-ui.css": "text/css; charset=utf-8",
    "swagger-ui/swagger-ui-bundle.js.LICENSE.txt": "text/plain; charset=utf-8",
    "swagger-ui/LICENSE": "text/plain; charset=utf-8",
    "swagger-ui/NOTICE": "text/plain; charset=utf-8",
    "swagger-ui/VERSION": "text/plain; charset=utf-8",
}
"""Everything under ``/docs/`` the page may load, with its media type; any other name is ROUTE_NOT_FOUND."""


def _read(name: str) -> bytes:
    return resources.files(__package__).joinpath("docs", *name.split("/")).read_bytes()


def _headers() -> dict[str, str]:
    return {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff"}


@functools.cache
def _page() -> bytes:
    return _read("index.html")


@functools.cache
def _assets() -> dict[str, tuple[bytes, str]]:
    return {name: (_read(name), media_type) for name, media_type in ASSETS.items()}


async def get_docs(served: object, request: Request) -> Response:
    return Response(_page(), media_type="text/html; charset=utf-8", headers=_headers())


async def get_docs_asset(served: object, request: Request) -> Response:
    found = _assets().get(request.path_params["asset"])
    if found is None:
        raise RouteNotFound(f"No route {request.url.path}.")
    content, media_type = found
    return Response(content, media_type=media_type, headers=_headers())


DOCS_PAGE = (
    Operation("getDocs", "GET", "/docs", get_docs),
    Operation("getDocsAsset", "GET", "/docs/{asset:path}", get_docs_asset),
)
"""``GET /docs`` and ``GET /docs/{asset}`` (HEAD too), each file read once, on its first request."""
