"""The request a piece of work is done for: its id, operation, and the session and run it touched.

The HTTP layer opens one ``RequestContext`` per request (``http.observe``) and keeps it in a context
variable, so every log line written while the request is served carries its id, and so does the run's
own task (asyncio copies the context into the tasks a request starts) and the upstream call it makes.

A client may send its own ``X-Request-Id``; the host keeps it when it is well formed (1 to 128
characters of ``A-Z a-z 0-9 . _ : -``: nothing that could split a header, a log line or a shell word),
otherwise it mints one (32 hex digits).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar, Token
from dataclasses import dataclass, field

__all__ = [
    "REQUEST_ID_HEADER",
    "RequestContext",
    "current",
    "mint_request_id",
    "request_id_of",
    "well_formed_request_id",
]

REQUEST_ID_HEADER = "X-Request-Id"
_HEADER_NAME = REQUEST_ID_HEADER.lower().encode("latin-1")
_WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{1,128}")
MINTED_PER_BATCH = 256
"""Ids minted from one ``os.urandom`` call (a system call per request cost more than the rest of minting)."""
_minted: list[str] = []


def well_formed_request_id(value: str | None) -> bool:
    return value is not None and _WELL_FORMED.fullmatch(value) is not None


def mint_request_id() -> str:
    """32 hex digits of fresh randomness (128 bits), as unguessable as ``secrets.token_hex(16)``."""
    try:
        return _minted.pop()
    except IndexError:
        # 32 hex digits per id, split in C: a space every 16 bytes (the block is a whole number of ids).
        _minted.extend(os.urandom(16 * MINTED_PER_BATCH).hex(" ", 16).split(" "))
        return _minted.pop()


os.register_at_fork(after_in_child=_minted.clear)  # a forked process must not hand out its parent's ids


def request_id_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The id for a request with these (ASGI) headers: the client's ``X-Request-Id`` if well formed, else a new one."""
    for name, value in headers:
        if name == _HEADER_NAME:
            presented = value.decode("latin-1")
            if _WELL_FORMED.fullmatch(presented) is not None:
                return presented
            break
    return mint_request_id()


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

# The context variable's own methods, not wrappers: these run on every request, and a Python call each
# was a measurable part of what the observer costs (bench/README.md, "What tracing costs").
current: Callable[[], RequestContext | None] = _CURRENT.get
"""The request being served in this context (None outside a request: start-up, embedded use)."""
enter: Callable[[RequestContext], Token[RequestContext | None]] = _CURRENT.set
leave: Callable[[Token[RequestContext | None]], None] = _CURRENT.reset


def note_session(session_id: str | None) -> None:
    """Record the session the current request works on (for its log lines and spans)."""
    context = _CURRENT.get()
    if context is not None and session_id is not None:
        context.session_id = session_id


def note_run(run_id: str, session_id: str | None = None) -> None:
    """Record the run (and, when given, the session) the current request works on."""
    context = _CURRENT.get()
    if context is not None:
        context.run_id = run_id
        if session_id is not None:
            context.session_id = session_id
