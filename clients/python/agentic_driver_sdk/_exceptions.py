"""Every error the client raises, one class per HTTP status class and one per catalogue code.

    AgenticDriverError
    ├── APIConnectionError                      the request did not get an answer (refused, reset, closed, DNS)
    │   └── APITimeoutError                         connect, read or stream-idle timeout (or wait_until_idle's bound)
    └── APIStatusError                          an error answer: .status_code, .code, .detail, .problem, .headers,
        │                                       .retry_after, .request_id, .response
        ├── AuthenticationError                 401
        │   └── UnauthenticatedError                UNAUTHENTICATED
        ├── PermissionDeniedError               403 PERMISSION_DENIED
        ├── NotFoundError                       404
        │   ├── SessionNotFoundError                SESSION_NOT_FOUND
        │   ├── RunNotFoundError                    RUN_NOT_FOUND
        │   ├── ProviderNotFoundError               PROVIDER_NOT_FOUND
        │   ├── ModelNotFoundError                  MODEL_NOT_FOUND
        │   └── RouteNotFoundError                  ROUTE_NOT_FOUND
        ├── MethodNotAllowedError               405 METHOD_NOT_ALLOWED
        ├── ConflictError                       409
        │   ├── SessionRevisionConflictError        SESSION_REVISION_CONFLICT (.current_revision: int)
        │   ├── SessionBusyError                    SESSION_BUSY (.active_run_id: str, .retry_after)
        │   ├── SessionInterruptedError             SESSION_INTERRUPTED
        │   ├── SessionAccountRequiredError         SESSION_ACCOUNT_REQUIRED
        │   ├── RunCancelledError                   RUN_CANCELLED (.reason)
        │   ├── RunNotWaitingError                  RUN_NOT_WAITING
        │   └── IdempotencyKeyInUseError            IDEMPOTENCY_KEY_IN_USE
        ├── PayloadTooLargeError                413 PAYLOAD_TOO_LARGE
        ├── UnsupportedMediaTypeError           415 UNSUPPORTED_MEDIA_TYPE
        ├── UnprocessableEntityError            422
        │   ├── ValidationError                     VALIDATION_ERROR (.errors)
        │   ├── UnsupportedContinuationError        UNSUPPORTED_CONTINUATION
        │   ├── SessionContextUnsupportedError      SESSION_CONTEXT_UNSUPPORTED
        │   ├── SessionOverrideRejectedError        SESSION_OVERRIDE_REJECTED
        │   ├── SessionLimitExceededError           SESSION_LIMIT_EXCEEDED (.limit, .maximum)
        │   ├── ActionMismatchError                 ACTION_MISMATCH
        │   ├── IdempotencyKeyReusedError           IDEMPOTENCY_KEY_REUSED
        │   ├── ToolNameConflictError               TOOL_NAME_CONFLICT
        │   ├── AttachmentUnsupportedError          ATTACHMENT_UNSUPPORTED (.media_type, .provider, .limit)
        │   └── SessionPrefixChangedError           SESSION_PREFIX_CHANGED
        ├── RequestTimeoutError                 408 REQUEST_TIMEOUT
        ├── RunEventsExpiredError               410 RUN_EVENTS_EXPIRED (.first_event_id: int)
        ├── MisdirectedRequestError             421 MISDIRECTED_REQUEST (.host_id, .owner_host_id: str)
        ├── HeadersTooLargeError                431 HEADERS_TOO_LARGE
        ├── MalformedRequestError               400 MALFORMED_REQUEST
        ├── RateLimitError                      429
        │   ├── ProviderRateLimitedError            PROVIDER_RATE_LIMITED (.retry_after)             [P]
        │   └── SubjectQuotaExceededError           SUBJECT_QUOTA_EXCEEDED (.limit, .maximum, .retry_after)
        └── InternalServerError                 5xx
            ├── InternalError                       INTERNAL_ERROR
            ├── SessionsDisabledError               SESSIONS_DISABLED
            ├── ProviderError                       PROVIDER_ERROR                                   [P]
            ├── ProviderAuthFailedError             PROVIDER_AUTH_FAILED                             [P]
            ├── ProviderRejectedError               PROVIDER_REJECTED                                [P]
            ├── ProviderOverloadedError             PROVIDER_OVERLOADED                              [P]
            ├── ShuttingDownError                   SHUTTING_DOWN (.retry_after)                     [R]
            ├── SessionStoreFullError               SESSION_STORE_FULL (.retry_after)                [R]
            ├── HostBusyError                       HOST_BUSY (.retry_after)                         [R]
            ├── HostUnavailableError                HOST_UNAVAILABLE (.owner_host_id: str | None, .retry_after) [R]
            └── ProviderTimeoutError                PROVIDER_TIMEOUT                                 [P]

[P] is also a ``ProviderFailedError`` and [R] a ``RetryLaterError``: the server's two groups that cut across
statuses (its ``NotFound``, ``Conflict`` and ``Unprocessable`` are ``NotFoundError``, ``ConflictError`` and
``UnprocessableEntityError`` here), so the same families can be caught in every client.

A problem with a code this client does not know (from a newer host) raises
the class of its status, with ``.code`` still set: branching on ``code`` alone
always works. The httpx error behind a connection error is its ``__cause__``;
httpx errors never reach the caller otherwise.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import httpx

from ._error_base import AgenticDriverError, APIConnectionError, APIStatusError, APITimeoutError, parse_retry_after
from ._fix_it import FIX_IT

__all__ = [
    "CODE_ERRORS",
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "ActionMismatchError",
    "AgenticDriverError",
    "AttachmentUnsupportedError",
    "AuthenticationError",
    "ConflictError",
    "HeadersTooLargeError",
    "HostBusyError",
    "HostUnavailableError",
    "IdempotencyKeyInUseError",
    "IdempotencyKeyReusedError",
    "InternalError",
    "InternalServerError",
    "MalformedRequestError",
    "MethodNotAllowedError",
    "MisdirectedRequestError",
    "ModelNotFoundError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "ProviderAuthFailedError",
    "ProviderError",
    "ProviderFailedError",
    "ProviderNotFoundError",
    "ProviderOverloadedError",
    "ProviderRateLimitedError",
    "ProviderRejectedError",
    "ProviderTimeoutError",
    "RateLimitError",
    "RequestTimeoutError",
    "RetryLaterError",
    "RouteNotFoundError",
    "RunCancelledError",
    "RunEventsExpiredError",
    "RunNotFoundError",
    "RunNotWaitingError",
    "SessionAccountRequiredError",
    "SessionBusyError",
    "SessionContextUnsupportedError",
    "SessionInterruptedError",
    "SessionLimitExceededError",
    "SessionNotFoundError",
    "SessionOverrideRejectedError",
    "SessionPrefixChangedError",
    "SessionRevisionConflictError",
    "SessionStoreFullError",
    "SessionsDisabledError",
    "ShuttingDownError",
    "SubjectQuotaExceededError",
    "ToolNameConflictError",
    "UnauthenticatedError",
    "UnprocessableEntityError",
    "UnsupportedContinuationError",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "error_from_response",
    "parse_retry_after",
]


# The API reference shows the whole tree on the root class (the module is private).
AgenticDriverError.__doc__ = f"{AgenticDriverError.__doc__}\n\n{__doc__}"


CODE_ERRORS: dict[str, type[APIStatusError]] = {}
"""Each catalogue code's class (a test keeps this in step with openapi.yaml's ErrorCode)."""

_Error = TypeVar("_Error", bound=type[APIStatusError])


def _code(code: str) -> Callable[[_Error], _Error]:
    """Registers the class of a catalogue code. Its docstring is the code's fix-it text (``_fix_it.py``, generated
    from openapi.yaml's x-error-table, as the host's is, so both say the same), then the class's own note about
    this client, if any."""

    def register(cls: _Error) -> _Error:
        if code not in FIX_IT:
            raise LookupError(f"{code} has no fix-it text: add its row to openapi.yaml's x-error-table, make generate")
        note = f"\n\n{inspect.cleandoc(cls.__doc__)}" if cls.__doc__ else ""
        cls.__doc__ = f"``{code}``: {FIX_IT[code]}{note}"
        CODE_ERRORS[code] = cls
        return cls

    return register


class AuthenticationError(APIStatusError):
    """401: the host did not accept the credentials."""


@_code("UNAUTHENTICATED")
class UnauthenticatedError(AuthenticationError): ...


@_code("PERMISSION_DENIED")
class PermissionDeniedError(APIStatusError): ...


class NotFoundError(APIStatusError):
    """404: the thing named does not exist for this caller."""


@_code("SESSION_NOT_FOUND")
class SessionNotFoundError(NotFoundError): ...


@_code("RUN_NOT_FOUND")
class RunNotFoundError(NotFoundError): ...


@_code("PROVIDER_NOT_FOUND")
class ProviderNotFoundError(NotFoundError): ...


@_code("MODEL_NOT_FOUND")
class ModelNotFoundError(NotFoundError): ...


@_code("ROUTE_NOT_FOUND")
class RouteNotFoundError(NotFoundError): ...


@_code("METHOD_NOT_ALLOWED")
class MethodNotAllowedError(APIStatusError): ...


class ConflictError(APIStatusError):
    """409: the request conflicts with the current state of a session, run or idempotency key."""


@_code("SESSION_REVISION_CONFLICT")
class SessionRevisionConflictError(ConflictError):
    """Never retried; ``current_revision`` is the current one."""

    current_revision: int
    """The session's revision now (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.current_revision = problem["currentRevision"]


@_code("SESSION_BUSY")
class SessionBusyError(ConflictError):
    """Never retried: wait with ``client.sessions.wait_until_idle(session_id, busy=error)`` and decide what to
    send at the revision it returns, or cancel that run."""

    active_run_id: str
    """The run holding the session (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.active_run_id = problem["activeRunId"]


@_code("SESSION_INTERRUPTED")
class SessionInterruptedError(ConflictError): ...


@_code("SESSION_ACCOUNT_REQUIRED")
class SessionAccountRequiredError(ConflictError): ...


@_code("RUN_CANCELLED")
class RunCancelledError(ConflictError):
    @property
    def reason(self) -> str | None:
        value = self.problem.get("reason")
        return value if isinstance(value, str) else None


@_code("RUN_NOT_WAITING")
class RunNotWaitingError(ConflictError): ...


@_code("IDEMPOTENCY_KEY_IN_USE")
class IdempotencyKeyInUseError(ConflictError): ...


@_code("PAYLOAD_TOO_LARGE")
class PayloadTooLargeError(APIStatusError): ...


@_code("UNSUPPORTED_MEDIA_TYPE")
class UnsupportedMediaTypeError(APIStatusError): ...


class UnprocessableEntityError(APIStatusError):
    """422: the request is well-formed JSON but cannot be carried out as sent."""


@_code("VALIDATION_ERROR")
class ValidationError(UnprocessableEntityError):
    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


@_code("UNSUPPORTED_CONTINUATION")
class UnsupportedContinuationError(UnprocessableEntityError): ...


@_code("SESSION_CONTEXT_UNSUPPORTED")
class SessionContextUnsupportedError(UnprocessableEntityError): ...


@_code("SESSION_OVERRIDE_REJECTED")
class SessionOverrideRejectedError(UnprocessableEntityError): ...


@_code("SESSION_LIMIT_EXCEEDED")
class SessionLimitExceededError(UnprocessableEntityError):
    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) else None


@_code("ACTION_MISMATCH")
class ActionMismatchError(UnprocessableEntityError): ...


@_code("IDEMPOTENCY_KEY_REUSED")
class IdempotencyKeyReusedError(UnprocessableEntityError): ...


@_code("SESSION_PREFIX_CHANGED")
class SessionPrefixChangedError(UnprocessableEntityError): ...


@_code("TOOL_NAME_CONFLICT")
class ToolNameConflictError(UnprocessableEntityError):
    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


@_code("ATTACHMENT_UNSUPPORTED")
class AttachmentUnsupportedError(UnprocessableEntityError):
    """Read ``media_type``, ``provider`` and, for a size, ``limit`` to see which bound refused it."""

    @property
    def media_type(self) -> str | None:
        value = self.problem.get("mediaType")
        return value if isinstance(value, str) else None

    @property
    def provider(self) -> str | None:
        value = self.problem.get("provider")
        return value if isinstance(value, str) else None

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None


@_code("REQUEST_TIMEOUT")
class RequestTimeoutError(APIStatusError): ...


@_code("RUN_EVENTS_EXPIRED")
class RunEventsExpiredError(APIStatusError):
    """Raised by a rejoin (``runs.events``, or a stream resuming itself) whose events are gone; never retried."""

    first_event_id: int
    """The oldest event id of the run still buffered (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.first_event_id = problem["firstEventId"]


@_code("HEADERS_TOO_LARGE")
class HeadersTooLargeError(APIStatusError): ...


@_code("MALFORMED_REQUEST")
class MalformedRequestError(APIStatusError): ...


@_code("MISDIRECTED_REQUEST")
class MisdirectedRequestError(APIStatusError):
    """The client already sent the request once more to the owner (``Agentic-Host``); this is the second 421
    of the call: check that the proxy routes on ``Agentic-Host``."""

    host_id: str
    """The host that answered (the contract guarantees it on this code)."""
    owner_host_id: str
    """The host that owns the session or run (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.host_id = problem["hostId"]
        self.owner_host_id = problem["ownerHostId"]


class ProviderFailedError(APIStatusError):
    """The model provider failed after model work started (the server's ``ProviderFailed`` group, the same in
    every client): ``PROVIDER_RATE_LIMITED`` (429), ``PROVIDER_ERROR``, ``PROVIDER_AUTH_FAILED``,
    ``PROVIDER_REJECTED`` (502), ``PROVIDER_OVERLOADED`` (503), ``PROVIDER_TIMEOUT`` (504). Never retried: the
    host already retried upstream. Each is also under the class of its status."""


class RetryLaterError(APIStatusError):
    """The host takes no new work now (the server's ``RetryLater`` group, the same in every client): 503
    ``SESSION_STORE_FULL``, ``HOST_BUSY``, ``SHUTTING_DOWN``, ``HOST_UNAVAILABLE``, each with ``Retry-After``;
    retried after it, then raised. Each is also an ``InternalServerError``."""


class RateLimitError(APIStatusError):
    """429: too many requests. Never retried (``clients/BEHAVIOUR.md``): not ``PROVIDER_RATE_LIMITED``, not
    ``SUBJECT_QUOTA_EXCEEDED``, not a proxy's 429."""


@_code("PROVIDER_RATE_LIMITED")
class ProviderRateLimitedError(RateLimitError, ProviderFailedError):
    """``retry_after`` is the provider's ``Retry-After`` when it sent one; never retried."""


@_code("SUBJECT_QUOTA_EXCEEDED")
class SubjectQuotaExceededError(RateLimitError):
    """``limit`` names the host's bound (``perSubject.maxSessions``, ``perSubject.maxActiveRuns``,
    ``perSubject.runsPerMinute``), ``maximum`` its value; ``retry_after`` is set for the rate. Never retried."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class InternalServerError(APIStatusError):
    """5xx: the host, its provider or a proxy failed. Retried: ``HOST_BUSY``, ``SESSION_STORE_FULL``,
    ``SHUTTING_DOWN``, ``HOST_UNAVAILABLE`` (after ``Retry-After``) and a 502/503/504 that is not a problem
    document (a proxy's page).
    """


@_code("INTERNAL_ERROR")
class InternalError(InternalServerError): ...


@_code("SESSIONS_DISABLED")
class SessionsDisabledError(InternalServerError): ...


@_code("PROVIDER_ERROR")
class ProviderError(InternalServerError, ProviderFailedError): ...


@_code("SESSION_STORE_FULL")
class SessionStoreFullError(InternalServerError, RetryLaterError): ...


@_code("HOST_BUSY")
class HostBusyError(InternalServerError, RetryLaterError): ...


@_code("HOST_UNAVAILABLE")
class HostUnavailableError(InternalServerError, RetryLaterError):
    """Retried after ``Retry-After`` like ``HOST_BUSY``."""

    owner_host_id: str | None
    """The host the request was for; None when the request named no session or run (no host took new work)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        owner = problem.get("ownerHostId")
        self.owner_host_id = owner if isinstance(owner, str) else None


@_code("PROVIDER_AUTH_FAILED")
class ProviderAuthFailedError(InternalServerError, ProviderFailedError): ...


@_code("PROVIDER_REJECTED")
class ProviderRejectedError(InternalServerError, ProviderFailedError): ...


@_code("PROVIDER_OVERLOADED")
class ProviderOverloadedError(InternalServerError, ProviderFailedError): ...


@_code("SHUTTING_DOWN")
class ShuttingDownError(InternalServerError, RetryLaterError):
    """Retried after ``retry_after``, on another host process if there is one."""


@_code("PROVIDER_TIMEOUT")
class ProviderTimeoutError(InternalServerError, ProviderFailedError): ...


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


_REQUIRED_FIELDS: dict[type[APIStatusError], tuple[tuple[str, type], ...]] = {
    SessionRevisionConflictError: (("currentRevision", int),),
    SessionBusyError: (("activeRunId", str),),
    MisdirectedRequestError: (("hostId", str), ("ownerHostId", str)),
    RunEventsExpiredError: (("firstEventId", int),),
}
"""Fields a code's class exposes as non-optional; a problem without them gets its status class instead."""


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
