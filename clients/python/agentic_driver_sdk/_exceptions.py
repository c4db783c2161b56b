"""Every error the client raises, one class per HTTP status class and one per catalogue code.

    AgenticDriverError
    ├── APIConnectionError                      the request did not get an answer
    │   └── APITimeoutError
    └── APIStatusError                          the host answered with a problem (status, code, detail)
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
        │   ├── SessionRevisionConflictError        SESSION_REVISION_CONFLICT (.current_revision)
        │   ├── SessionBusyError                    SESSION_BUSY (.active_run_id, .retry_after)
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
        │   └── ToolNameConflictError               TOOL_NAME_CONFLICT
        ├── RateLimitError                      429
        └── InternalServerError                 5xx
            ├── InternalError                       INTERNAL_ERROR
            ├── SessionsDisabledError               SESSIONS_DISABLED
            ├── ProviderError                       PROVIDER_ERROR
            ├── SessionStoreFullError               SESSION_STORE_FULL (.retry_after)
            ├── HostBusyError                       HOST_BUSY (.retry_after)
            └── ProviderTimeoutError                PROVIDER_TIMEOUT

A problem with a code this client does not know (from a newer host) raises
the class of its status, with ``.code`` still set: branching on ``code`` alone
always works.
"""

from __future__ import annotations

from typing import Any

import httpx

__all__ = [
    "CODE_ERRORS",
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "ActionMismatchError",
    "AgenticDriverError",
    "AuthenticationError",
    "ConflictError",
    "HostBusyError",
    "IdempotencyKeyInUseError",
    "IdempotencyKeyReusedError",
    "InternalError",
    "InternalServerError",
    "MethodNotAllowedError",
    "ModelNotFoundError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "ProviderError",
    "ProviderNotFoundError",
    "ProviderTimeoutError",
    "RateLimitError",
    "RouteNotFoundError",
    "RunCancelledError",
    "RunNotFoundError",
    "RunNotWaitingError",
    "SessionAccountRequiredError",
    "SessionBusyError",
    "SessionContextUnsupportedError",
    "SessionInterruptedError",
    "SessionLimitExceededError",
    "SessionNotFoundError",
    "SessionOverrideRejectedError",
    "SessionRevisionConflictError",
    "SessionStoreFullError",
    "SessionsDisabledError",
    "ToolNameConflictError",
    "UnauthenticatedError",
    "UnprocessableEntityError",
    "UnsupportedContinuationError",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "error_from_response",
]


class AgenticDriverError(Exception):
    """The root of every error this client raises."""


# The API reference shows the whole tree on the root class (the module is private).
AgenticDriverError.__doc__ = f"{AgenticDriverError.__doc__}\n\n{__doc__}"


class APIConnectionError(AgenticDriverError):
    """No answer: the connection failed or broke before a response arrived."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request
        """The request that got no answer, when known."""
        self.hung_up = False
        """The client stopped waiting for an answer (a read timeout) after the host had the request."""


class APITimeoutError(APIConnectionError):
    """No answer within the configured timeout."""


class APIStatusError(AgenticDriverError):
    """The host answered with an error status and (normally) a problem document."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        self.response = response
        self.status_code = response.status_code
        self.problem = problem
        self.code: str | None = problem.get("code") if isinstance(problem.get("code"), str) else None
        self.detail: str = str(problem.get("detail", response.reason_phrase))
        self.request_id: str | None = response.headers.get("x-request-id")
        super().__init__(f"{self.status_code} {self.code or response.reason_phrase}: {self.detail}")

    @property
    def retry_after(self) -> float | None:
        """Seconds the host asks to wait (``Retry-After``), when it says so."""
        header = self.response.headers.get("retry-after")
        try:
            return float(header) if header is not None else None
        except ValueError:
            return None


class AuthenticationError(APIStatusError):
    """401: the host did not accept the credentials."""


class UnauthenticatedError(AuthenticationError):
    """``UNAUTHENTICATED``: Send ``Authorization: Bearer <token>`` with a token configured on the host."""


class PermissionDeniedError(APIStatusError):
    """``PERMISSION_DENIED``: The token lacks the session grant (``create``, ``read``, ``continue``, ``delete``) or
    the provider; ask the operator.
    """


class NotFoundError(APIStatusError):
    """404: the thing named does not exist for this caller."""


class SessionNotFoundError(NotFoundError):
    """``SESSION_NOT_FOUND``: Unknown, expired, deleted, or not yours (also: wrong provider/model for it, or its
    provider's account binding changed). Start a new session.
    """


class RunNotFoundError(NotFoundError):
    """``RUN_NOT_FOUND``: The run finished already or is not yours; nothing to cancel."""


class ProviderNotFoundError(NotFoundError):
    """``PROVIDER_NOT_FOUND``: Check ``GET /v1/discovery`` for the instances and models you may use."""


class ModelNotFoundError(NotFoundError):
    """``MODEL_NOT_FOUND``: Check ``GET /v1/discovery`` for the instances and models you may use."""


class RouteNotFoundError(NotFoundError):
    """``ROUTE_NOT_FOUND``: Outside the contract: check the path and method."""


class MethodNotAllowedError(APIStatusError):
    """``METHOD_NOT_ALLOWED``: Outside the contract: check the path and method."""


class ConflictError(APIStatusError):
    """409: the request conflicts with the current state of a session, run or idempotency key."""


class SessionRevisionConflictError(ConflictError):
    """``SESSION_REVISION_CONFLICT``: Your revision is stale (``currentRevision`` says the current one; ``x-should-
    retry: false``). Read the session, reconcile, retry with the current revision.
    """

    @property
    def current_revision(self) -> int | None:
        value = self.problem.get("currentRevision")
        return value if isinstance(value, int) else None


class SessionBusyError(ConflictError):
    """``SESSION_BUSY``: Another turn is active (``activeRunId``); wait ``Retry-After`` seconds and retry, or cancel
    that run.
    """

    @property
    def active_run_id(self) -> str | None:
        value = self.problem.get("activeRunId")
        return value if isinstance(value, str) else None


class SessionInterruptedError(ConflictError):
    """``SESSION_INTERRUPTED``: A turn stopped after model work started. Read the session (``interruptedTurn``),
    reconcile side effects, create a new session with the history you choose.
    """


class SessionAccountRequiredError(ConflictError):
    """``SESSION_ACCOUNT_REQUIRED``: The provider instance has no account binding: use stateless runs, or bind it
    (``accountId``) in host config.
    """


class RunCancelledError(ConflictError):
    """``RUN_CANCELLED``: Your run was cancelled (``reason: cancelled``), its session deleted (``reason:
    session_deleted``), or its client disconnected (``reason: disconnected``).
    """

    @property
    def reason(self) -> str | None:
        value = self.problem.get("reason")
        return value if isinstance(value, str) else None


class RunNotWaitingError(ConflictError):
    """``RUN_NOT_WAITING``: The run waits for no action (it finished, or someone answered first)."""


class IdempotencyKeyInUseError(ConflictError):
    """``IDEMPOTENCY_KEY_IN_USE``: The first request with this key is still running; retry after it finishes."""


class PayloadTooLargeError(APIStatusError):
    """``PAYLOAD_TOO_LARGE``: The body exceeds ``limits.maxBodyBytes``."""


class UnsupportedMediaTypeError(APIStatusError):
    """``UNSUPPORTED_MEDIA_TYPE``: Send ``Content-Type: application/json``."""


class UnprocessableEntityError(APIStatusError):
    """422: the request is well-formed JSON but cannot be carried out as sent."""


class ValidationError(UnprocessableEntityError):
    """``VALIDATION_ERROR``: Fix the request; ``errors`` lists each problem with its location. Unknown fields are
    refused.
    """

    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


class UnsupportedContinuationError(UnprocessableEntityError):
    """``UNSUPPORTED_CONTINUATION``: The provider cannot keep that mode (see ``capabilities`` in discovery); choose
    the other mode.
    """


class SessionContextUnsupportedError(UnprocessableEntityError):
    """``SESSION_CONTEXT_UNSUPPORTED``: Sessions take text input only; send attachments or retrieval in a stateless
    run.
    """


class SessionOverrideRejectedError(UnprocessableEntityError):
    """``SESSION_OVERRIDE_REJECTED``: A session owns its instructions and history; do not send them with a session
    run.
    """


class SessionLimitExceededError(UnprocessableEntityError):
    """``SESSION_LIMIT_EXCEEDED``: A bound named in ``limit`` (with ``maximum``) would be exceeded; start a new
    session with a shorter history.
    """

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) else None


class ActionMismatchError(UnprocessableEntityError):
    """``ACTION_MISMATCH``: Answer exactly the ``requiredAction``: the right kind, every call id once, no others."""


class IdempotencyKeyReusedError(UnprocessableEntityError):
    """``IDEMPOTENCY_KEY_REUSED``: This key was used with a different request; use a new key."""


class ToolNameConflictError(UnprocessableEntityError):
    """``TOOL_NAME_CONFLICT``: two declared tools share a name, or one is named like a host tool; rename it."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


class RateLimitError(APIStatusError):
    """429: too many requests (sent by proxies in front of a host); retried, honouring Retry-After."""


class InternalServerError(APIStatusError):
    """5xx: the host, its provider or a proxy failed; 502/503/504 are retried unless the code says a retry cannot
    help.
    """


class InternalError(InternalServerError):
    """``INTERNAL_ERROR``: A host defect; please report it."""


class SessionsDisabledError(InternalServerError):
    """``SESSIONS_DISABLED``: The host sets no ``sessions.retentionMs``; use stateless runs."""


class ProviderError(InternalServerError):
    """``PROVIDER_ERROR``: The model provider failed; a session turn left the session interrupted."""


class SessionStoreFullError(InternalServerError):
    """``SESSION_STORE_FULL``: The store holds ``maxEntries`` sessions; retry after ``Retry-After`` or delete
    sessions.
    """


class HostBusyError(InternalServerError):
    """``HOST_BUSY``: Every run slot is taken and the wait line is full; retry after ``Retry-After``."""


class ProviderTimeoutError(InternalServerError):
    """``PROVIDER_TIMEOUT``: The provider made no progress for ``idleTimeoutMs``; a session turn left the session
    interrupted.
    """


CODE_ERRORS: dict[str, type[APIStatusError]] = {
    "UNAUTHENTICATED": UnauthenticatedError,
    "PERMISSION_DENIED": PermissionDeniedError,
    "SESSION_NOT_FOUND": SessionNotFoundError,
    "RUN_NOT_FOUND": RunNotFoundError,
    "PROVIDER_NOT_FOUND": ProviderNotFoundError,
    "MODEL_NOT_FOUND": ModelNotFoundError,
    "ROUTE_NOT_FOUND": RouteNotFoundError,
    "METHOD_NOT_ALLOWED": MethodNotAllowedError,
    "SESSION_REVISION_CONFLICT": SessionRevisionConflictError,
    "SESSION_BUSY": SessionBusyError,
    "SESSION_INTERRUPTED": SessionInterruptedError,
    "SESSION_ACCOUNT_REQUIRED": SessionAccountRequiredError,
    "RUN_CANCELLED": RunCancelledError,
    "RUN_NOT_WAITING": RunNotWaitingError,
    "IDEMPOTENCY_KEY_IN_USE": IdempotencyKeyInUseError,
    "PAYLOAD_TOO_LARGE": PayloadTooLargeError,
    "UNSUPPORTED_MEDIA_TYPE": UnsupportedMediaTypeError,
    "VALIDATION_ERROR": ValidationError,
    "UNSUPPORTED_CONTINUATION": UnsupportedContinuationError,
    "SESSION_CONTEXT_UNSUPPORTED": SessionContextUnsupportedError,
    "SESSION_OVERRIDE_REJECTED": SessionOverrideRejectedError,
    "SESSION_LIMIT_EXCEEDED": SessionLimitExceededError,
    "ACTION_MISMATCH": ActionMismatchError,
    "IDEMPOTENCY_KEY_REUSED": IdempotencyKeyReusedError,
    "TOOL_NAME_CONFLICT": ToolNameConflictError,
    "INTERNAL_ERROR": InternalError,
    "SESSIONS_DISABLED": SessionsDisabledError,
    "PROVIDER_ERROR": ProviderError,
    "SESSION_STORE_FULL": SessionStoreFullError,
    "HOST_BUSY": HostBusyError,
    "PROVIDER_TIMEOUT": ProviderTimeoutError,
}
"""Each catalogue code's class (a test keeps this in step with openapi.yaml's ErrorCode)."""

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
    """The most specific error for an error response: by code, else by status."""
    problem = _problem_of(body)
    code = problem.get("code")
    cls = CODE_ERRORS.get(code) if isinstance(code, str) else None
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
