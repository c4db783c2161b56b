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
        ├── MisdirectedRequestError             421 MISDIRECTED_REQUEST (.host_id, .owner_host_id: str)
        ├── HeadersTooLargeError                431 HEADERS_TOO_LARGE
        ├── MalformedRequestError               400 MALFORMED_REQUEST
        ├── RateLimitError                      429
        │   └── ProviderRateLimitedError            PROVIDER_RATE_LIMITED (.retry_after)
        └── InternalServerError                 5xx
            ├── InternalError                       INTERNAL_ERROR
            ├── SessionsDisabledError               SESSIONS_DISABLED
            ├── ProviderError                       PROVIDER_ERROR
            ├── ProviderAuthFailedError             PROVIDER_AUTH_FAILED
            ├── ProviderRejectedError               PROVIDER_REJECTED
            ├── ProviderOverloadedError             PROVIDER_OVERLOADED
            ├── ShuttingDownError                   SHUTTING_DOWN (.retry_after)
            ├── SessionStoreFullError               SESSION_STORE_FULL (.retry_after)
            ├── HostBusyError                       HOST_BUSY (.retry_after)
            ├── HostUnavailableError                HOST_UNAVAILABLE (.owner_host_id: str | None, .retry_after)
            └── ProviderTimeoutError                PROVIDER_TIMEOUT

A problem with a code this client does not know (from a newer host) raises
the class of its status, with ``.code`` still set: branching on ``code`` alone
always works. The httpx error behind a connection error is its ``__cause__``;
httpx errors never reach the caller otherwise.
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
    "ProviderNotFoundError",
    "ProviderOverloadedError",
    "ProviderRateLimitedError",
    "ProviderRejectedError",
    "ProviderTimeoutError",
    "RateLimitError",
    "RequestTimeoutError",
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
    "SessionPrefixChangedError",
    "SessionRevisionConflictError",
    "SessionStoreFullError",
    "SessionsDisabledError",
    "ShuttingDownError",
    "ToolNameConflictError",
    "UnauthenticatedError",
    "UnprocessableEntityError",
    "UnsupportedContinuationError",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "error_from_response",
    "parse_retry_after",
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
        """The whole answer (its ``.request`` too); the body was read."""
        self.status_code = response.status_code
        self.problem = problem
        """The problem document as sent (a dict), with the fields this client has no accessor for."""
        self.code: str | None = problem.get("code") if isinstance(problem.get("code"), str) else None
        """The catalogue code as the host sent it, also one newer than this client; None for a proxy's page."""
        self.detail: str = str(problem.get("detail", response.reason_phrase))
        body_id = problem.get("requestId")
        self.request_id: str | None = response.headers.get("x-request-id") or (
            body_id if isinstance(body_id, str) else None
        )
        """The host's id for this request (``X-Request-Id``, else the problem's ``requestId``): every host log
        line and trace span of the request carries it, so quote it when reporting a problem."""
        super().__init__(f"{self.status_code} {self.code or response.reason_phrase}: {self.detail}")

    @property
    def headers(self) -> httpx.Headers:
        """The answer's headers (``Retry-After``, ``X-Request-Id``, ``x-should-retry``, ...)."""
        return self.response.headers

    @property
    def retry_after(self) -> float | None:
        """Seconds the host asks to wait (``Retry-After``, delta-seconds or an HTTP date), when it says so."""
        return parse_retry_after(self.response.headers.get("retry-after"))


def parse_retry_after(header: str | None) -> float | None:
    """``Retry-After`` in seconds: delta-seconds, or an HTTP date (counted from now); None when absent or invalid."""
    if header is None:
        return None
    try:
        return max(float(header), 0.0)
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    import datetime

    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return max((when - datetime.datetime.now(datetime.UTC)).total_seconds(), 0.0)


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
    """``RUN_NOT_FOUND``: No active run with this id for you: it finished already (nothing left to cancel or
    answer) or is not yours.
    """


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
    """``SESSION_REVISION_CONFLICT``: Your revision is stale (``current_revision`` says the current one;
    ``x-should-retry: false``). Read the session, reconcile, retry with the current revision. Never retried.
    """

    current_revision: int
    """The session's revision now (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.current_revision = problem["currentRevision"]


class SessionBusyError(ConflictError):
    """``SESSION_BUSY``: Another turn is active (``active_run_id``). Never retried: wait with
    ``client.sessions.wait_until_idle(session_id, busy=error)`` and decide what to send at the revision it returns,
    or cancel that run.
    """

    active_run_id: str
    """The run holding the session (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.active_run_id = problem["activeRunId"]


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
    session_deleted``), its client disconnected (``reason: disconnected``), the host stopped before it finished
    (``reason: shutdown``), or its required action was not answered within its ``actionTimeoutMs`` (``reason:
    action_timeout``; read the session: it is interrupted).
    """

    @property
    def reason(self) -> str | None:
        value = self.problem.get("reason")
        return value if isinstance(value, str) else None


class RunNotWaitingError(ConflictError):
    """``RUN_NOT_WAITING``: The run is still active but waits for no action (for example, someone answered first
    and it is running again). A finished run is ``RUN_NOT_FOUND``.
    """


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


class SessionPrefixChangedError(UnprocessableEntityError):
    """``SESSION_PREFIX_CHANGED``: a native session on a provider with a fixed request prefix (e.g. Anthropic) got
    tools that differ from its first turn's; send the same tools, or start a new session."""


class ToolNameConflictError(UnprocessableEntityError):
    """``TOOL_NAME_CONFLICT``: two declared tools share a name, or one is named like a host tool; rename it."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


class AttachmentUnsupportedError(UnprocessableEntityError):
    """``ATTACHMENT_UNSUPPORTED``: a stateless run's attachment of a type the instance does not take (see its
    ``attachmentMediaTypes`` in discovery), or larger than the host's bound (``limit``, ``maximum``); nothing reached
    the model."""

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


class RequestTimeoutError(APIStatusError):
    """``REQUEST_TIMEOUT``: the request body did not arrive within the host's limit; nothing was started."""


class HeadersTooLargeError(APIStatusError):
    """``HEADERS_TOO_LARGE``: the request head exceeds the host's ``maxHeaderBytes``; send smaller headers."""


class MalformedRequestError(APIStatusError):
    """``MALFORMED_REQUEST``: the bytes sent were not valid HTTP/1.1 (the host closed the connection); a client
    or a proxy in front is broken."""


class MisdirectedRequestError(APIStatusError):
    """``MISDIRECTED_REQUEST``: the host ``host_id`` answered for a session or run that host ``owner_host_id``
    owns; nothing was done. The client already sent the request once more to the owner (``Agentic-Host``); this
    is the second 421 of the call: check that the proxy routes on ``Agentic-Host``.
    """

    host_id: str
    """The host that answered (the contract guarantees it on this code)."""
    owner_host_id: str
    """The host that owns the session or run (the contract guarantees it on this code)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.host_id = problem["hostId"]
        self.owner_host_id = problem["ownerHostId"]


class RateLimitError(APIStatusError):
    """429: too many requests. Never retried (``clients/BEHAVIOUR.md``): neither ``PROVIDER_RATE_LIMITED`` nor a
    proxy's 429."""


class ProviderRateLimitedError(RateLimitError):
    """``PROVIDER_RATE_LIMITED``: the provider refused for rate or quota after the host's own retries; wait
    ``retry_after`` when it is set (without it, a spend or quota limit, waiting will not help)."""


class InternalServerError(APIStatusError):
    """5xx: the host, its provider or a proxy failed. Retried: ``HOST_BUSY``, ``SESSION_STORE_FULL``,
    ``SHUTTING_DOWN``, ``HOST_UNAVAILABLE`` (after ``Retry-After``) and a 502/503/504 that is not a problem
    document (a proxy's page).
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
    """``HOST_BUSY``: Every run slot is taken and the wait line is full (``limit: maxQueuedRuns``),
    ``maxWaitingRuns`` runs that may wait for the application are active (``limit: maxWaitingRuns``), or the host
    holds its maximum of connections (``limit: maxConnections``); retry after ``Retry-After``.
    """


class HostUnavailableError(InternalServerError):
    """``HOST_UNAVAILABLE``: the proxy in front of the hosts cannot reach host ``owner_host_id``, which owns this
    session or run, or (``owner_host_id`` None) no host takes new work (retried after ``Retry-After`` like
    ``HOST_BUSY``). Sessions never move: once that host is back it answers ``SESSION_NOT_FOUND`` for sessions it
    lost; read what you need elsewhere or create a new session.
    """

    owner_host_id: str | None
    """The host the request was for; None when the request named no session or run (no host took new work)."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        owner = problem.get("ownerHostId")
        self.owner_host_id = owner if isinstance(owner, str) else None


class ProviderAuthFailedError(InternalServerError):
    """``PROVIDER_AUTH_FAILED``: the provider refused the host's credentials; the operator must fix them."""


class ProviderRejectedError(InternalServerError):
    """``PROVIDER_REJECTED``: the provider refused the request itself (for example a tampered signed block)."""


class ProviderOverloadedError(InternalServerError):
    """``PROVIDER_OVERLOADED``: the provider is overloaded or unavailable; a session turn left the session
    interrupted."""


class ShuttingDownError(InternalServerError):
    """``SHUTTING_DOWN``: the host is draining before it stops; retry after ``retry_after`` (on another host
    process if there is one). Nothing was started."""


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
    "ATTACHMENT_UNSUPPORTED": AttachmentUnsupportedError,
    "SESSION_PREFIX_CHANGED": SessionPrefixChangedError,
    "PROVIDER_RATE_LIMITED": ProviderRateLimitedError,
    "PROVIDER_AUTH_FAILED": ProviderAuthFailedError,
    "PROVIDER_REJECTED": ProviderRejectedError,
    "PROVIDER_OVERLOADED": ProviderOverloadedError,
    "SHUTTING_DOWN": ShuttingDownError,
    "HEADERS_TOO_LARGE": HeadersTooLargeError,
    "MALFORMED_REQUEST": MalformedRequestError,
    "REQUEST_TIMEOUT": RequestTimeoutError,
    "INTERNAL_ERROR": InternalError,
    "SESSIONS_DISABLED": SessionsDisabledError,
    "PROVIDER_ERROR": ProviderError,
    "SESSION_STORE_FULL": SessionStoreFullError,
    "HOST_BUSY": HostBusyError,
    "PROVIDER_TIMEOUT": ProviderTimeoutError,
    "MISDIRECTED_REQUEST": MisdirectedRequestError,
    "HOST_UNAVAILABLE": HostUnavailableError,
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


_REQUIRED_FIELDS: dict[type[APIStatusError], tuple[tuple[str, type], ...]] = {
    SessionRevisionConflictError: (("currentRevision", int),),
    SessionBusyError: (("activeRunId", str),),
    MisdirectedRequestError: (("hostId", str), ("ownerHostId", str)),
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
