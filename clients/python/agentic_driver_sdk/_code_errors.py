# Generated from openapi.yaml's ErrorCode x-error-table by generator/error_python.py (make generate). DO NOT EDIT.
"""The class of each catalogue code under its status class and group (``_error_tree``): the ``fields`` every answer
with it carries as attributes, its ``optional`` ones as properties; ``CODE_ERRORS`` and ``REQUIRED_FIELDS``.
``_exceptions`` adds this client's note to a class's docstring and exports them all."""

from __future__ import annotations

from typing import Any

import httpx

from ._error_base import APIStatusError
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

__all__: tuple[str, ...] = (
    "ActionMismatchError",
    "AttachmentUnsupportedError",
    "HeadersTooLargeError",
    "HostBusyError",
    "HostUnavailableError",
    "IdempotencyKeyInUseError",
    "IdempotencyKeyReusedError",
    "InternalError",
    "MalformedRequestError",
    "MethodNotAllowedError",
    "MisdirectedRequestError",
    "ModelNotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "ProviderAuthFailedError",
    "ProviderError",
    "ProviderNotFoundError",
    "ProviderOverloadedError",
    "ProviderRateLimitedError",
    "ProviderRejectedError",
    "ProviderTimeoutError",
    "RequestTimeoutError",
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
    "UnsupportedContinuationError",
    "UnsupportedMediaTypeError",
    "ValidationError",
)


class UnauthenticatedError(AuthenticationError):
    """``UNAUTHENTICATED``: Send ``Authorization: Bearer <token>`` with a token configured on the host or a valid JWT
    from a trusted issuer; ``WWW-Authenticate``'s ``error_description`` says why a token was refused (e.g.
    ``expired``)."""


class PermissionDeniedError(APIStatusError):
    """``PERMISSION_DENIED``: The token lacks the session grant (``create``, ``read``, ``continue``, ``delete``) or
    the provider; ask the operator."""


class SessionNotFoundError(NotFoundError):
    """``SESSION_NOT_FOUND``: Unknown, expired, deleted, or not yours (also: wrong provider/model for it, or its
    provider's account binding changed). Start a new session."""


class RunNotFoundError(NotFoundError):
    """``RUN_NOT_FOUND``: The run is not yours, or it ended (nothing to cancel or answer) and, past
    ``runs.retentionMs``, is no longer readable either: read its session for the outcome."""


class ProviderNotFoundError(NotFoundError):
    """``PROVIDER_NOT_FOUND``: Check ``GET /v1/discovery`` for the instances and models you may use."""


class ModelNotFoundError(NotFoundError):
    """``MODEL_NOT_FOUND``: Check ``GET /v1/discovery`` for the instances and models you may use."""


class RouteNotFoundError(NotFoundError):
    """``ROUTE_NOT_FOUND``: Outside the contract: check the path and method."""


class MethodNotAllowedError(APIStatusError):
    """``METHOD_NOT_ALLOWED``: Outside the contract: check the path and method."""


class SessionRevisionConflictError(ConflictError):
    """``SESSION_REVISION_CONFLICT``: Your revision is stale (``currentRevision`` says the current one;
    ``x-should-retry: false``). Read the session, reconcile, retry with the current revision."""

    current_revision: int
    """The session's current revision; the contract guarantees it on this code."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.current_revision = problem["currentRevision"]


class SessionBusyError(ConflictError):
    """``SESSION_BUSY``: Another turn is active (``activeRunId``); wait ``Retry-After`` seconds and retry, or cancel
    that run."""

    active_run_id: str
    """The run that holds the session; the contract guarantees it on this code."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.active_run_id = problem["activeRunId"]


class SessionInterruptedError(ConflictError):
    """``SESSION_INTERRUPTED``: A turn stopped after model work started. Read the session (``interruptedTurn``),
    reconcile side effects, create a new session with the history you choose."""


class SessionAccountRequiredError(ConflictError):
    """``SESSION_ACCOUNT_REQUIRED``: The provider instance has no account binding: use stateless runs, or bind it
    (``accountId``) in host config."""


class RunCancelledError(ConflictError):
    """``RUN_CANCELLED``: Your run was cancelled (``reason: cancelled``), its session deleted (``reason:
    session_deleted``), its client disconnected (``reason: disconnected``), the host stopped before it finished
    (``reason: shutdown``), or its required action was not answered within its ``actionTimeoutMs`` (``reason:
    action_timeout``; read the session: it is interrupted)."""

    @property
    def reason(self) -> str | None:
        value = self.problem.get("reason")
        return value if isinstance(value, str) else None


class RunNotWaitingError(ConflictError):
    """``RUN_NOT_WAITING``: The run is still active but waits for no action (for example, someone answered first and
    it is running again). A finished run is ``RUN_NOT_FOUND``."""


class IdempotencyKeyInUseError(ConflictError):
    """``IDEMPOTENCY_KEY_IN_USE``: The first request with this key is still running; retry after it finishes."""


class RequestTimeoutError(APIStatusError):
    """``REQUEST_TIMEOUT``: The request body did not arrive within ``limits.bodyTimeoutMs``."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class PayloadTooLargeError(APIStatusError):
    """``PAYLOAD_TOO_LARGE``: The body exceeds ``limits.maxBodyBytes``."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class UnsupportedMediaTypeError(APIStatusError):
    """``UNSUPPORTED_MEDIA_TYPE``: Send ``Content-Type: application/json``."""


class ValidationError(UnprocessableEntityError):
    """``VALIDATION_ERROR``: Fix the request; ``errors`` lists each problem with its location. Unknown fields are
    refused."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


class UnsupportedContinuationError(UnprocessableEntityError):
    """``UNSUPPORTED_CONTINUATION``: The provider cannot keep that mode (see ``capabilities`` in discovery); choose
    the other mode."""


class SessionContextUnsupportedError(UnprocessableEntityError):
    """``SESSION_CONTEXT_UNSUPPORTED``: Sessions take text input only; send attachments or retrieval in a stateless
    run."""


class SessionOverrideRejectedError(UnprocessableEntityError):
    """``SESSION_OVERRIDE_REJECTED``: A session owns its instructions and history; do not send them with a session
    run."""


class SessionLimitExceededError(UnprocessableEntityError):
    """``SESSION_LIMIT_EXCEEDED``: A bound named in ``limit`` (with ``maximum``) would be exceeded; start a new
    session with a shorter history."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class SessionPrefixChangedError(UnprocessableEntityError):
    """``SESSION_PREFIX_CHANGED``: A native session on a provider whose request prefix must stay byte-identical
    (Anthropic) got other tools than its first turn; nothing reached the model. Send the same tools, or start a
    new session."""


class ActionMismatchError(UnprocessableEntityError):
    """``ACTION_MISMATCH``: Answer exactly the ``requiredAction``: the right kind, every call id once, no others."""


class IdempotencyKeyReusedError(UnprocessableEntityError):
    """``IDEMPOTENCY_KEY_REUSED``: This key was used with a different request; use a new key."""


class ToolNameConflictError(UnprocessableEntityError):
    """``TOOL_NAME_CONFLICT``: Two declared tools share a name, or one is named like a host tool (``errors`` says
    which)."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        value = self.problem.get("errors")
        return value if isinstance(value, list) else []


class ProviderRateLimitedError(RateLimitError, ProviderFailedError):
    """``PROVIDER_RATE_LIMITED``: The provider refused for rate or quota after the host's own retries; wait
    ``Retry-After`` when present. Without it (a spend or quota limit), waiting will not help."""


class InternalError(InternalServerError):
    """``INTERNAL_ERROR``: A host defect; please report it."""


class HeadersTooLargeError(APIStatusError):
    """``HEADERS_TOO_LARGE``: The request head exceeds ``limits.maxHeaderBytes``."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class SessionsDisabledError(InternalServerError):
    """``SESSIONS_DISABLED``: The host sets no ``sessions.retentionMs``; use stateless runs."""


class ProviderError(InternalServerError, ProviderFailedError):
    """``PROVIDER_ERROR``: The model provider failed; a session turn left the session interrupted."""


class ProviderAuthFailedError(InternalServerError, ProviderFailedError):
    """``PROVIDER_AUTH_FAILED``: The provider refused the host's credentials: the operator must fix the key
    (``apiKeyEnv``)."""


class ProviderRejectedError(InternalServerError, ProviderFailedError):
    """``PROVIDER_REJECTED``: The provider refused the request itself (for example a signed native item that no
    longer verifies); a session turn left the session interrupted."""


class SessionStoreFullError(InternalServerError, RetryLaterError):
    """``SESSION_STORE_FULL``: The store holds ``maxEntries`` sessions; retry after ``Retry-After`` or delete
    sessions."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class HostBusyError(InternalServerError, RetryLaterError):
    """``HOST_BUSY``: Every run slot is taken and the wait line is full (``limit: maxQueuedRuns``),
    ``maxWaitingRuns`` runs that may wait for the application are active (``limit: maxWaitingRuns``), or the host
    holds its maximum of connections (``limit: maxConnections``); retry after ``Retry-After``."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class ProviderOverloadedError(InternalServerError, ProviderFailedError):
    """``PROVIDER_OVERLOADED``: The provider was overloaded (its 503, Anthropic's 529) after the host's own retries;
    retry later."""


class ShuttingDownError(InternalServerError, RetryLaterError):
    """``SHUTTING_DOWN``: The host is stopping and starts no new work (also ``/readyz`` while it drains). A stateless
    run or a new session: retry after ``Retry-After`` (behind a proxy it lands on another host). A session ends
    with its host: read its history while the host still answers, and create a new session on another host with
    what it should see."""


class ProviderTimeoutError(InternalServerError, ProviderFailedError):
    """``PROVIDER_TIMEOUT``: The provider made no progress for ``idleTimeoutMs``; a session turn left the session
    interrupted."""


class AttachmentUnsupportedError(UnprocessableEntityError):
    """``ATTACHMENT_UNSUPPORTED``: Attachment ``attachment`` (``mediaType``) is a type the instance ``provider`` does
    not take (see its ``attachmentMediaTypes`` in discovery), or larger than ``limit`` (``maxAttachmentBytes``,
    ``maxRunAttachmentBytes``; ``maximum`` bytes); nothing reached the model."""

    @property
    def attachment(self) -> int | None:
        value = self.problem.get("attachment")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

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

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class MalformedRequestError(APIStatusError):
    """``MALFORMED_REQUEST``: The bytes sent are not valid HTTP/1.1 (a control byte in a header, a bad request line
    or path, a bad ``Content-Length`` or chunk size, a header line without a colon); the host answers and closes
    the connection (``Connection: close``). Fix the client or the proxy in front."""


class MisdirectedRequestError(APIStatusError):
    """``MISDIRECTED_REQUEST``: The request named a session or run of another host process (``ownerHostId``;
    ``hostId`` is the host that answered); nothing was done. Retry once with ``Agentic-Host: <ownerHostId>``
    (clients do it for you). See Scaling."""

    host_id: str
    """The host process that answered; the contract guarantees it on this code."""
    owner_host_id: str
    """The host process that owns the session or run the request names (send ``Agentic-Host`` with it); the contract
    guarantees it on this code."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.host_id = problem["hostId"]
        self.owner_host_id = problem["ownerHostId"]


class HostUnavailableError(InternalServerError, RetryLaterError):
    """``HOST_UNAVAILABLE``: Sent by the proxy, not a host: the host that owns the session or run (``ownerHostId``)
    is down or restarting (without ``ownerHostId``: no host takes new work). Retry after ``Retry-After`` a few
    times; a host that comes back has lost its sessions (``SESSION_NOT_FOUND``): then start a new session."""

    @property
    def owner_host_id(self) -> str | None:
        value = self.problem.get("ownerHostId")
        return value if isinstance(value, str) else None


class RunEventsExpiredError(APIStatusError):
    """``RUN_EVENTS_EXPIRED``: The events after your ``Last-Event-ID`` outgrew the run's buffer
    (``limits.maxRunEventBytes``); ``firstEventId`` is the oldest still held. Read the run (``GET
    /v1/runs/{runId}``) for its outcome, or rejoin from ``firstEventId - 1`` accepting the gap."""

    first_event_id: int
    """The oldest event id of the run still buffered; the contract guarantees it on this code."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        super().__init__(response, problem)
        self.first_event_id = problem["firstEventId"]


class SubjectQuotaExceededError(RateLimitError):
    """``SUBJECT_QUOTA_EXCEEDED``: Your subject holds the most this host allows it (``limit``:
    ``perSubject.maxSessions`` stored sessions, ``perSubject.maxActiveRuns`` active runs, or
    ``perSubject.runsPerMinute`` runs started in the last 60 s; ``maximum`` is the bound); nothing was started.
    Delete a session, let a run end, or wait ``Retry-After``."""

    @property
    def limit(self) -> str | None:
        value = self.problem.get("limit")
        return value if isinstance(value, str) else None

    @property
    def maximum(self) -> int | None:
        value = self.problem.get("maximum")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


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
    "REQUEST_TIMEOUT": RequestTimeoutError,
    "PAYLOAD_TOO_LARGE": PayloadTooLargeError,
    "UNSUPPORTED_MEDIA_TYPE": UnsupportedMediaTypeError,
    "VALIDATION_ERROR": ValidationError,
    "UNSUPPORTED_CONTINUATION": UnsupportedContinuationError,
    "SESSION_CONTEXT_UNSUPPORTED": SessionContextUnsupportedError,
    "SESSION_OVERRIDE_REJECTED": SessionOverrideRejectedError,
    "SESSION_LIMIT_EXCEEDED": SessionLimitExceededError,
    "SESSION_PREFIX_CHANGED": SessionPrefixChangedError,
    "ACTION_MISMATCH": ActionMismatchError,
    "IDEMPOTENCY_KEY_REUSED": IdempotencyKeyReusedError,
    "TOOL_NAME_CONFLICT": ToolNameConflictError,
    "PROVIDER_RATE_LIMITED": ProviderRateLimitedError,
    "INTERNAL_ERROR": InternalError,
    "HEADERS_TOO_LARGE": HeadersTooLargeError,
    "SESSIONS_DISABLED": SessionsDisabledError,
    "PROVIDER_ERROR": ProviderError,
    "PROVIDER_AUTH_FAILED": ProviderAuthFailedError,
    "PROVIDER_REJECTED": ProviderRejectedError,
    "SESSION_STORE_FULL": SessionStoreFullError,
    "HOST_BUSY": HostBusyError,
    "PROVIDER_OVERLOADED": ProviderOverloadedError,
    "SHUTTING_DOWN": ShuttingDownError,
    "PROVIDER_TIMEOUT": ProviderTimeoutError,
    "ATTACHMENT_UNSUPPORTED": AttachmentUnsupportedError,
    "MALFORMED_REQUEST": MalformedRequestError,
    "MISDIRECTED_REQUEST": MisdirectedRequestError,
    "HOST_UNAVAILABLE": HostUnavailableError,
    "RUN_EVENTS_EXPIRED": RunEventsExpiredError,
    "SUBJECT_QUOTA_EXCEEDED": SubjectQuotaExceededError,
}
"""Each catalogue code's class (a test keeps this in step with openapi.yaml's ErrorCode)."""

REQUIRED_FIELDS: dict[type[APIStatusError], tuple[tuple[str, type], ...]] = {
    SessionRevisionConflictError: (("currentRevision", int),),
    SessionBusyError: (("activeRunId", str),),
    MisdirectedRequestError: (("hostId", str), ("ownerHostId", str)),
    RunEventsExpiredError: (("firstEventId", int),),
}
"""Fields a code's class exposes as non-optional; a problem without them gets its status class instead."""

TREE = """\
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
│   ├── SessionBusyError                    SESSION_BUSY (.active_run_id: str)
│   ├── SessionInterruptedError             SESSION_INTERRUPTED
│   ├── SessionAccountRequiredError         SESSION_ACCOUNT_REQUIRED
│   ├── RunCancelledError                   RUN_CANCELLED (.reason)
│   ├── RunNotWaitingError                  RUN_NOT_WAITING
│   └── IdempotencyKeyInUseError            IDEMPOTENCY_KEY_IN_USE
├── RequestTimeoutError                 408 REQUEST_TIMEOUT (.limit, .maximum)
├── PayloadTooLargeError                413 PAYLOAD_TOO_LARGE (.limit, .maximum)
├── UnsupportedMediaTypeError           415 UNSUPPORTED_MEDIA_TYPE
├── UnprocessableEntityError            422
│   ├── ValidationError                     VALIDATION_ERROR (.errors)
│   ├── UnsupportedContinuationError        UNSUPPORTED_CONTINUATION
│   ├── SessionContextUnsupportedError      SESSION_CONTEXT_UNSUPPORTED
│   ├── SessionOverrideRejectedError        SESSION_OVERRIDE_REJECTED
│   ├── SessionLimitExceededError           SESSION_LIMIT_EXCEEDED (.limit, .maximum)
│   ├── SessionPrefixChangedError           SESSION_PREFIX_CHANGED
│   ├── ActionMismatchError                 ACTION_MISMATCH
│   ├── IdempotencyKeyReusedError           IDEMPOTENCY_KEY_REUSED
│   ├── ToolNameConflictError               TOOL_NAME_CONFLICT (.errors)
│   └── AttachmentUnsupportedError          ATTACHMENT_UNSUPPORTED (.attachment, .media_type, .provider,
│                                               .limit, .maximum)
├── RateLimitError                      429
│   ├── ProviderRateLimitedError            PROVIDER_RATE_LIMITED [P]
│   └── SubjectQuotaExceededError           SUBJECT_QUOTA_EXCEEDED (.limit, .maximum)
├── InternalServerError                 5xx
│   ├── InternalError                       INTERNAL_ERROR
│   ├── SessionsDisabledError               SESSIONS_DISABLED
│   ├── ProviderError                       PROVIDER_ERROR [P]
│   ├── ProviderAuthFailedError             PROVIDER_AUTH_FAILED [P]
│   ├── ProviderRejectedError               PROVIDER_REJECTED [P]
│   ├── SessionStoreFullError               SESSION_STORE_FULL (.limit, .maximum) [R]
│   ├── HostBusyError                       HOST_BUSY (.limit, .maximum) [R]
│   ├── ProviderOverloadedError             PROVIDER_OVERLOADED [P]
│   ├── ShuttingDownError                   SHUTTING_DOWN [R]
│   ├── ProviderTimeoutError                PROVIDER_TIMEOUT [P]
│   └── HostUnavailableError                HOST_UNAVAILABLE (.owner_host_id) [R]
├── HeadersTooLargeError                431 HEADERS_TOO_LARGE (.limit, .maximum)
├── MalformedRequestError               400 MALFORMED_REQUEST
├── MisdirectedRequestError             421 MISDIRECTED_REQUEST (.host_id: str, .owner_host_id: str)
└── RunEventsExpiredError               410 RUN_EVENTS_EXPIRED (.first_event_id: int)
"""
"""The code classes under ``APIStatusError``, drawn as text (``_exceptions`` shows them)."""
