"""The host with one layer removed or doubled, for ``harness.instructions``' differential counts only.

    python -m harness.variants VARIANT serve --host 127.0.0.1 --port P --log-level warning
    python -m harness.variants bare --host 127.0.0.1 --port P

Each variant patches the host's modules (or uvicorn's, FastAPI's, Starlette's) in this process and then
runs ``agentic_driver.cli.main`` with the remaining arguments, exactly as ``python -m agentic_driver`` would.
A *removed* layer's cost is the host's count minus the variant's; a *doubled* layer (its work done twice,
the second result thrown away) costs the variant's count minus the host's. The variants are only correct
on the benchmark's happy path (one echo turn after another: no refusal, no error, no HEAD, no drain) and
are never a way to serve anything; nothing here is imported by the host.

Every host run here, ``host`` included, also sets the JSON run's disconnect-watch delay
(``http.app.DISCONNECT_WATCH_DELAY_S``) to a minute: under valgrind a turn takes 30-60 times as long as
natively, so the watcher that a native turn never reaches (it answers within the 10 ms delay) would start
on every turn and be counted. ``bare`` is no host at all: uvicorn with httptools and uvloop under the same
settings, answering the benchmark's requests with canned bodies from a raw ASGI callable (what the server
itself costs per request, beneath any app).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["VARIANTS", "main"]

WATCH_DELAY_S = 60.0


class _Skip:
    """A middleware class that is not there: Starlette's ``cls(app, **options)`` returns the inner app."""

    def __new__(cls, app: Any, *args: Any, **kwargs: Any) -> Any:
        return app


def _watch_delay() -> None:
    try:  # where the watch lives since the handlers moved to module level; before, in http.app
        from agentic_driver.http import disconnect as module
    except ImportError:
        from agentic_driver.http import app as module  # type: ignore[no-redef,unused-ignore]

    if hasattr(module, "DISCONNECT_WATCH_DELAY_S"):
        module.DISCONNECT_WATCH_DELAY_S = WATCH_DELAY_S  # type: ignore[attr-defined,unused-ignore]


def _without_host_middleware(name: str) -> Callable[[], None]:
    def patch() -> None:
        from agentic_driver.http import app

        if not hasattr(app, name):
            raise SystemExit(f"this host has no middleware {name} in agentic_driver.http.app")
        setattr(app, name, _Skip)

    return patch


def _plain_protocol() -> None:
    """uvicorn's own httptools protocol: no connection, head-size or head-time bounds, no parser problems.

    It still marks a body that arrived whole (``BODY_RECEIVED``), so ``RequestGuard`` skips the body deadline
    as it does behind the bounded protocol."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from agentic_driver import cli

    try:
        from agentic_driver.http.limits import BODY_RECEIVED
    except ImportError:  # a host from before the mark
        BODY_RECEIVED = None

    class Plain(HttpToolsProtocol):
        def on_message_complete(self) -> None:
            super().on_message_complete()
            if BODY_RECEIVED is not None:
                self.cycle.scope[BODY_RECEIVED] = True  # type: ignore[literal-required]

    cli.bounded_protocol = lambda limits, metrics: Plain  # type: ignore[assignment,unused-ignore]


def _without_fastapi_layers() -> None:
    """FastAPI's three layers around the user middleware: exception telemetry, body limit, exit stack."""
    from fastapi import applications

    for name in ("ExceptionTelemetryMiddleware", "AppBodyLimitMiddleware", "AsyncExitStackMiddleware"):
        if hasattr(applications, name):
            setattr(applications, name, _Skip)


def _without_starlette_layers() -> None:
    """Starlette's two layers FastAPI keeps: ServerErrorMiddleware (outermost) and ExceptionMiddleware."""
    from fastapi import applications

    applications.ServerErrorMiddleware = _Skip  # type: ignore[misc,assignment]
    applications.ExceptionMiddleware = _Skip  # type: ignore[misc,assignment]


def _direct_route() -> None:
    """``POST /v1/runs`` handed to its endpoint without routing: no route matching, no ``Route.handle``, no
    ``request_response`` wrapper and exception-handler closure (no error is raised on the benchmark's path).
    Every other request is routed as usual. Patched on Starlette's ``Router`` and on FastAPI's ``APIRouter``
    (which has a routing loop of its own)."""
    from starlette.requests import Request
    from starlette.routing import Route, Router

    classes: list[type[Router]] = [Router]
    try:
        from fastapi.routing import APIRouter

        classes.append(APIRouter)
    except ImportError:
        pass
    found: dict[int, Route] = {}

    def direct(routed: Any) -> Any:
        async def app(self: Router, scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == "/v1/runs":
                route = found.get(id(self))
                if route is None:
                    route = found[id(self)] = next(
                        r
                        for r in self.routes
                        if isinstance(r, Route) and r.path == "/v1/runs" and "POST" in (r.methods or ())
                    )
                scope["router"] = self
                scope["route"] = route
                scope["endpoint"] = route.endpoint
                scope["path_params"] = {}
                response = await route.endpoint(Request(scope, receive, send))
                await response(scope, receive, send)
                return
            await routed(self, scope, receive, send)

        return app

    for cls in classes:
        if "app" in vars(cls):
            cls.app = direct(vars(cls)["app"])  # type: ignore[method-assign]


def _twice_auth() -> None:
    """The bearer token's SHA-256 and constant-time comparison done twice."""
    from agentic_driver.auth import TokenPolicy

    once = TokenPolicy.authenticate

    def authenticate(self: TokenPolicy, presented: str) -> Any:
        once(self, presented)
        return once(self, presented)

    TokenPolicy.authenticate = authenticate  # type: ignore[method-assign]


def _twice_headers() -> None:
    """Every lookup of a request header through Starlette's ``Headers`` done twice (``get``, ``[]``, ``in``)."""
    from starlette.datastructures import Headers

    item, contains = Headers.__getitem__, Headers.__contains__

    def getitem(self: Headers, key: str) -> str:
        with contextlib.suppress(KeyError):
            item(self, key)
        return item(self, key)

    def has(self: Headers, key: Any) -> bool:
        contains(self, key)
        return contains(self, key)

    Headers.__getitem__ = getitem  # type: ignore[method-assign]
    Headers.__contains__ = has  # type: ignore[method-assign]


def _twice_decode() -> None:
    """The request body's JSON decoding (``http.body._decode_json``, with its strict-JSON checks) done twice."""
    from agentic_driver.http import body

    once = body._decode_json

    def decode(raw: bytes) -> Any:
        once(raw)
        return once(raw)

    body._decode_json = decode  # type: ignore[assignment]


def _twice_validate() -> None:
    """The strict validation of a decoded ``RunRequest`` against the generated model done twice."""
    from agentic_driver.models import RunRequest

    once = RunRequest.model_validate.__func__  # type: ignore[attr-defined]

    def validate(cls: type[RunRequest], obj: Any, **options: Any) -> RunRequest:
        once(cls, obj, **options)
        return once(cls, obj, **options)  # type: ignore[no-any-return]

    RunRequest.model_validate = classmethod(validate)  # type: ignore[method-assign,assignment]


def _twice_encode() -> None:
    """The ``RunResult``'s JSON encoding (pydantic-core's ``model_dump_json``) done twice."""
    from agentic_driver.models import RunResult

    once = RunResult.model_dump_json

    def dump(self: RunResult, **options: Any) -> str:
        once(self, **options)
        return once(self, **options)

    RunResult.model_dump_json = dump  # type: ignore[method-assign]


def _stub_turn() -> None:
    """``Driver.run`` answers the result of its first real call again (nothing admitted, stored or counted):
    the host minus this is the driver's turn itself (admission, store, provider, lifecycle, metrics, log)."""
    from agentic_driver.driver import Driver

    real = Driver.run
    kept: list[Any] = []

    async def run(self: Driver, request: Any, principal: Any = None, **options: Any) -> Any:
        if not kept:
            kept.append(await real(self, request, principal, **options))
        return kept[0]

    Driver.run = run  # type: ignore[method-assign]


def _without_metric_updates() -> None:
    """No Prometheus value changes (counter, gauge, histogram, summary updates are no-ops), and the driver's
    ``Metrics`` hooks that return nothing do nothing: what keeping the metrics current costs per turn."""
    import inspect

    from prometheus_client import metrics as prom

    from agentic_driver.metrics import Metrics

    def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    for cls, names in (
        (prom.Counter, ("inc",)),
        (prom.Gauge, ("inc", "dec", "set")),
        (prom.Histogram, ("observe",)),
        (prom.Summary, ("observe",)),
    ):
        for name in names:
            setattr(cls, name, nothing)
    keep = {"render", "watch", "snapshot_restored"}
    for name, function in list(vars(Metrics).items()):
        if name.startswith("_") or name in keep or not inspect.isfunction(function):
            continue
        hints = function.__annotations__.get("return")
        if hints in (None, "None"):
            setattr(Metrics, name, nothing)


def _keep_one_run() -> None:
    """Ended runs kept for ``getRun`` and rejoining: one at most instead of ``runs.maxEntries`` (1,000 by default).
    Each run is still freed once, so this is what keeping a thousand costs beyond freeing them (the collector
    walking them, the registry's dict), not what building and freeing a run costs."""
    from agentic_driver.turns.runs import RunRegistry

    made = RunRegistry.__init__

    def init(self: RunRegistry, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.max_ended = 1

    RunRegistry.__init__ = init  # type: ignore[method-assign]


def _without_collector() -> None:
    """The cyclic garbage collector off once the host has started (reference counting still frees everything
    a turn leaves that is not a cycle): what the collector's passes cost per turn."""
    import gc

    from agentic_driver import cli

    settle = cli._settle_heap

    def settle_then_disable() -> None:
        settle()
        gc.disable()

    cli._settle_heap = settle_then_disable  # type: ignore[attr-defined]


VARIANTS: dict[str, tuple[str, Callable[[], None] | None]] = {
    "host": ("the host as it is", None),
    "no-protocol-bounds": ("uvicorn's httptools protocol instead of the bounded one", _plain_protocol),
    "no-observer": ("without RequestObserver", _without_host_middleware("RequestObserver")),
    "no-head": ("without HeadAsGet", _without_host_middleware("HeadAsGet")),
    "no-guard": ("without RequestGuard", _without_host_middleware("RequestGuard")),
    "no-fastapi-layers": ("without FastAPI's telemetry, body-limit and exit-stack layers", _without_fastapi_layers),
    "no-starlette-layers": ("without ServerErrorMiddleware and ExceptionMiddleware", _without_starlette_layers),
    "direct-route": ("POST /v1/runs reaches its endpoint without Starlette's routing", _direct_route),
    "auth-twice": ("token authentication done twice", _twice_auth),
    "headers-twice": ("every Starlette header lookup done twice", _twice_headers),
    "decode-twice": ("the body's JSON decoding done twice", _twice_decode),
    "validate-twice": ("the RunRequest validation done twice", _twice_validate),
    "encode-twice": ("the RunResult's JSON encoding done twice", _twice_encode),
    "stub-turn": ("Driver.run answers a kept result", _stub_turn),
    "no-metrics": ("metric updates are no-ops", _without_metric_updates),
    "keep-one-run": ("one ended run kept instead of 1,000", _keep_one_run),
    "no-gc": ("the cyclic collector off after start-up", _without_collector),
}


# -- bare: uvicorn beneath any app ------------------------------------------------------------------

_SESSION = b'{"session":{"id":"ses_bare","revision":0}}'
_RESULT = (
    b'{"id":"run_local-host.0123456789abcdef0123456789abcdef","status":"completed","output":{"text":"echo: turn 1: the '
    b'quick brown fox jumps over the lazy dog"},"usage":{"inputTokens":10,"outputTokens":11},"session":{"id":'
    b'"ses_bare","revision":1,"status":"ready","provider":"echo","model":"echo-1","mode":"history","createdAt":'
    b'"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","expiresAt":"2026-01-02T00:00:00.000Z",'
    b'"messageCount":2,"recordBytes":120,"hostId":"local-host"}}'
)
_JSON = [(b"content-type", b"application/json")]


async def _bare(scope: Any, receive: Any, send: Any) -> None:
    """Reads the whole body, then answers: 201 with a session for ``POST /v1/sessions``, 204 for ``DELETE``,
    a RunResult-sized 200 for ``POST /v1/runs``, ``{"status":"ok"}`` otherwise."""
    if scope["type"] != "http":
        return
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            break
    method, path = scope["method"], scope["path"]
    if method == "DELETE":
        status, body = 204, b""
    elif method == "POST" and path == "/v1/sessions":
        status, body = 201, _SESSION
    elif method == "POST":
        status, body = 200, _RESULT
    else:
        status, body = 200, b'{"status":"ok"}'
    headers = [*_JSON, (b"content-length", str(len(body)).encode())] if body else []
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _serve_bare(argv: list[str]) -> int:
    import argparse

    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m harness.variants bare")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    options, _ = parser.parse_known_args(argv)
    # The floor's settings (harness.floor), with the host's proxy-header and Server-header choices.
    uvicorn.run(
        _bare,
        host=options.host,
        port=options.port,
        log_level="warning",
        access_log=False,
        lifespan="off",
        proxy_headers=False,
        server_header=False,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or (args[0] not in VARIANTS and args[0] != "bare"):
        known = ", ".join([*VARIANTS, "bare"])
        print(f"usage: python -m harness.variants VARIANT ARGS... (VARIANT: {known})", file=sys.stderr)
        return 2
    name, rest = args[0], args[1:]
    if name == "bare":
        return _serve_bare(rest)
    _watch_delay()
    patch = VARIANTS[name][1]
    if patch is not None:
        patch()
    from agentic_driver.cli import main as serve

    return serve(rest)


if __name__ == "__main__":
    raise SystemExit(main())
