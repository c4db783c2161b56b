"""The request a piece of work is done for: its id, operation, and the session and run it touched.

The HTTP layer opens one ``RequestContext`` per request (``http.observe``) and keeps it in a context
variable, so every log line written while the request is served carries its id, and so does the run's
own task (asyncio copies the context into the tasks a request starts) and the upstream call it makes.

A client may send its own ``X-Request-Id``; the host keeps it when it is well formed (1 to 128
characters of ``A-Z a-z 0-9 . _ : -``: nothing that could split a header, a log line or a shell word),
otherwise it mints one (32 hex digits).
"""

from __future__ import annotations

import re
import secrets
import time
from contextvars import ContextVar
from dataclasses import dataclass, field

__all__ = ["REQUEST_ID_HEADER", "RequestContext", "current", "mint_request_id", "well_formed_request_id"]

REQUEST_ID_HEADER = "X-Request-Id"
_WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def well_formed_request_id(value: str | None) -> bool:
    return value is not None and _WELL_FORMED.fullmatch(value) is not None


def mint_request_id() -> str:
    return secrets.token_hex(16)


@dataclass(slots=True)
class RequestContext:
    request_id: str
    method: str = ""
    path: str = ""
    operation: str | None = None
    """The OpenAPI operationId, once the request was routed."""
    status: int | None = None
    code: str | None = None
    """The problem code the request was answered with, if any."""
    session_id: str | None = None
    run_id: str | None = None
    started: float = field(default_factory=time.perf_counter)

    def duration_ms(self) -> float:
        return round((time.perf_counter() - self.started) * 1000, 3)


_CURRENT: ContextVar[RequestContext | None] = ContextVar("agentic_driver_request", default=None)


def current() -> RequestContext | None:
    """The request being served in this context (None outside a request: start-up, embedded use)."""
    return _CURRENT.get()


def enter(context: RequestContext) -> object:
    return _CURRENT.set(context)


def leave(token: object) -> None:
    _CURRENT.reset(token)  # type: ignore[arg-type]


def note_session(session_id: str | None) -> None:
    """Record the session the current request works on (for its log lines and spans)."""
    context = _CURRENT.get()
    if context is not None and session_id is not None:
        context.session_id = session_id


def note_run(run_id: str) -> None:
    context = _CURRENT.get()
    if context is not None:
        context.run_id = run_id
