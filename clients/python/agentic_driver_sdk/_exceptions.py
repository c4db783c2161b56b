"""Every error the client raises, one class per HTTP status class and one per catalogue code."""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from ._code_errors import *  # noqa: F403 - every code's class is public API
from ._code_errors import (
    CODE_ERRORS,
    TREE,
    MethodNotAllowedError,
    PayloadTooLargeError,
    PermissionDeniedError,
    UnsupportedMediaTypeError,
)
from ._code_errors import REQUIRED_FIELDS as _REQUIRED_FIELDS

# mypy reads ``from m import __all__`` as m's exports, then adds a literal ``+=`` (it reads no other way of joining
# lists): so the generated classes stay public with no edit here. A tuple, so that ``+=`` leaves m's own alone.
from ._code_errors import __all__ as __all__
from ._error_base import AgenticDriverError, APIConnectionError, APIStatusError, APITimeoutError, parse_retry_after
from ._error_tree import (
    AuthenticationError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    ProviderFailedError,
    RateLimitError,
    RetryLaterError,
    UnprocessableEntityError,
)
from ._fix_it import FIX_IT

__all__ += (
    "CODE_ERRORS",
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "AgenticDriverError",
    "AuthenticationError",
    "ConflictError",
    "InternalServerError",
    "NotFoundError",
    "ProviderFailedError",
    "RateLimitError",
    "RetryLaterError",
    "UnprocessableEntityError",
    "error_from_response",
    "parse_retry_after",
)


_ROOTS = """\
    AgenticDriverError
    ├── APIConnectionError                      the request did not get an answer (refused, reset, closed, DNS)
    │   └── APITimeoutError                         connect, read or stream-idle timeout (or wait_until_idle's bound)
    └── APIStatusError                          an error answer: .status_code, .code, .detail, .problem, .headers,
        │                                       .retry_after, .request_id, .response
"""

_ABOUT_THE_TREE = """
[P] is also a ``ProviderFailedError`` and [R] a ``RetryLaterError``: the server's two groups that cut across
statuses (its ``NotFound``, ``Conflict`` and ``Unprocessable`` are ``NotFoundError``, ``ConflictError`` and
``UnprocessableEntityError`` here), so the same families can be caught in every client.

A problem with a code this client does not know (from a newer host) raises
the class of its status, with ``.code`` still set: branching on ``code`` alone
always works. The httpx error behind a connection error is its ``__cause__``;
httpx errors never reach the caller otherwise.

Each code's class is generated from openapi.yaml's ``x-error-table`` (``_code_errors.py``), under the status
and group classes of ``_error_tree.py``; this module gives it its docstring (the code's fix-it text, then this
client's note) and maps an answer to its class.
"""

# The code classes' part of the tree is drawn from openapi.yaml's x-error-table (``_code_errors.TREE``).
__doc__ = f"{__doc__}\n\n{_ROOTS}{textwrap.indent(TREE, ' ' * 8)}{_ABOUT_THE_TREE}"

# The API reference shows the whole tree on the root class (the module is private).
AgenticDriverError.__doc__ = f"{AgenticDriverError.__doc__}\n\n{__doc__}"


@dataclass(frozen=True, slots=True)
class _Note:
    """What this client says about a code beyond its fix-it text."""

    text: str = ""
    """Follows the fix-it text in the class's docstring (``inspect.cleandoc``: indent continuation lines freely)."""
    properties: Mapping[str, str] = field(default_factory=dict)
    """The docstring of each named property (an ``optional`` field of the code's row)."""


_NOTES: Mapping[str, _Note] = {
    "SESSION_REVISION_CONFLICT": _Note("Never retried; ``current_revision`` is the current one."),
    "SESSION_BUSY": _Note(
        """Never retried: wait with ``client.sessions.wait_until_idle(session_id, busy=error)`` and decide what to
        send at the revision it returns, or cancel that run."""
    ),
    "ATTACHMENT_UNSUPPORTED": _Note(
        "Read ``media_type``, ``provider`` and, for a size, ``limit`` to see which bound refused it."
    ),
    "RUN_EVENTS_EXPIRED": _Note(
        "Raised by a rejoin (``runs.events``, or a stream resuming itself) whose events are gone; never retried."
    ),
    "MISDIRECTED_REQUEST": _Note(
        """The client already sent the request once more to the owner (``Agentic-Host``); this is the second 421
        of the call: check that the proxy routes on ``Agentic-Host``."""
    ),
    "PROVIDER_RATE_LIMITED": _Note(
        "``retry_after`` is the provider's ``Retry-After`` when it sent one; never retried."
    ),
    "SUBJECT_QUOTA_EXCEEDED": _Note(
        """``limit`` names the host's bound (``perSubject.maxSessions``, ``perSubject.maxActiveRuns``,
        ``perSubject.runsPerMinute``), ``maximum`` its value; ``retry_after`` is set for the rate. Never retried."""
    ),
    "HOST_UNAVAILABLE": _Note(
        "Retried after ``Retry-After`` like ``HOST_BUSY``.",
        properties={
            "owner_host_id": (
                "The host the request was for; None when the request named no session or run (no host took new work)."
            ),
        },
    ),
    "SHUTTING_DOWN": _Note("Retried after ``retry_after``, on another host process if there is one."),
}
"""This client's notes, by code: the one place per-code text is written by hand in the SDK."""


def _document(code: str, cls: type[APIStatusError], note: _Note) -> None:
    """Gives a code's class its docstring: the code's fix-it text (``_fix_it.py``, generated from openapi.yaml's
    x-error-table, as the host's is, so both say the same), then the note of this client about it, if any."""
    if code not in FIX_IT:
        raise LookupError(f"{code} has no fix-it text: add its row to openapi.yaml's x-error-table, make generate")
    text = f"\n\n{inspect.cleandoc(note.text)}" if note.text else ""
    cls.__doc__ = f"``{code}``: {FIX_IT[code]}{text}"
    for name, doc in note.properties.items():
        accessor = vars(cls).get(name)
        if not isinstance(accessor, property):
            raise LookupError(f"_NOTES[{code!r}]: {cls.__name__} has no property {name!r} (is it still optional?)")
        accessor.__doc__ = doc


def _document_every_code() -> None:
    if stale := sorted(set(_NOTES) - set(CODE_ERRORS)):
        raise LookupError(f"_NOTES has notes for {stale}, codes openapi.yaml's x-error-table no longer has")
    for code, cls in CODE_ERRORS.items():
        _document(code, cls, _NOTES.get(code, _Note()))


_document_every_code()


_STATUS_ERRORS: dict[int, type[APIStatusError]] = {
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_from_response(response: httpx.Response, body: bytes) -> APIStatusError:
    """The most specific error for an error response: by code, else by status (``.code`` kept either way)."""
    problem = _problem_of(body)
    code = problem.get("code")
    cls = CODE_ERRORS.get(code) if isinstance(code, str) else None
    required = _REQUIRED_FIELDS.get(cls, ()) if cls is not None else ()
    for name, kind in required:
        value = problem.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            cls = None
    if cls is None:
        cls = InternalServerError if response.status_code >= 500 else _STATUS_ERRORS.get(response.status_code)
    return (cls or APIStatusError)(response, problem)


def _problem_of(body: bytes) -> dict[str, Any]:
    import json

    try:
        parsed = json.loads(body)
    except ValueError:
        return {"detail": body[:500].decode("utf-8", "replace")}
    return parsed if isinstance(parsed, dict) else {"detail": str(parsed)[:500]}
