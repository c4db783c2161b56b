"""The outermost middleware: a request id on every answer, the request's closing log line, its server span.

``RequestObserver`` keeps the client's ``X-Request-Id`` when it is well formed (``request_context``) and
mints one otherwise, answers with it on every response (problems also carry it as ``requestId``), and
makes it the current ``RequestContext`` so log lines, the run's task and upstream calls carry it. When
the request ends it writes one ``agentic_driver.access`` line (INFO) with the operation, status, problem
code, duration, session and run, and, with tracing on, ends the request's server span.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import request_context, telemetry
from ..logs import access_log

__all__ = ["RequestObserver"]

_REQUEST_ID = request_context.REQUEST_ID_HEADER.lower().encode("latin-1")
_INFO = logging.INFO


class RequestObserver:
    # Every request of the host passes here, traced or not, so this stays lean: one closure for ``send``,
    # the context variable's own set/reset, ids minted in batches (request_context), and the response
    # start message's headers replaced in place rather than the message copied. bench/README.md
    # ("What tracing costs") has the figures.
    __slots__ = ("_app",)

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        context = request_context.RequestContext(
            request_context.request_id_of(scope["headers"]), scope["method"], scope["path"]
        )
        header = (_REQUEST_ID, context.request_id.encode("latin-1"))

        def answer(message: Message) -> Awaitable[None]:
            # A plain function handing back send's own awaitable: no coroutine of its own per message.
            if message["type"] == "http.response.start":
                context.status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            return send(message)

        token = request_context.enter(context)
        span = None
        if telemetry.tracer is not None:
            span = telemetry.start_server_span(scope["method"], scope["path"], scope["headers"])
        try:
            await self._app(scope, receive, answer)
        finally:
            route = self._routed(scope, context)
            if access_log.isEnabledFor(_INFO):
                access_log.info(
                    "%s %s %s",
                    context.method,
                    context.path,
                    context.status,
                    extra={"status": context.status, "code": context.code, "duration_ms": context.duration_ms()},
                )
            if span is not None:
                telemetry.end_server_span(span[0], span[1], context, route)
            request_context.leave(token)

    @staticmethod
    def _routed(scope: Scope, context: request_context.RequestContext) -> str | None:
        """Fill the operation, session and run from the route that served the request; its path template."""
        # The endpoint that served it: only ``app.OperationEndpoint`` knows its operation.
        operation = getattr(scope.get("endpoint"), "operation", None)
        if operation is None:
            return None
        context.operation = operation.operation_id
        params = scope.get("path_params")
        if params:
            if context.session_id is None:
                context.session_id = params.get("session_id")
            if context.run_id is None:
                context.run_id = params.get("run_id")
        template: str = operation.template
        return template
