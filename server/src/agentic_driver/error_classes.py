# Generated from openapi.yaml's ErrorCode x-error-table by generator/error_server.py. DO NOT EDIT.
"""The exception class of each catalogue code, under its group (``error_base``); ``errors`` re-exports them.

DriverError
├── Unauthenticated                     401 UNAUTHENTICATED
├── PermissionDenied                    403 PERMISSION_DENIED
├── NotFound
│   ├── SessionNotFound                 404 SESSION_NOT_FOUND
│   ├── RunNotFound                     404 RUN_NOT_FOUND
│   ├── ProviderNotFound                404 PROVIDER_NOT_FOUND
│   ├── ModelNotFound                   404 MODEL_NOT_FOUND
│   └── RouteNotFound                   404 ROUTE_NOT_FOUND
├── MethodNotAllowed                    405 METHOD_NOT_ALLOWED
├── Conflict
│   ├── SessionRevisionConflict         409 SESSION_REVISION_CONFLICT
│   ├── SessionBusy                     409 SESSION_BUSY
│   ├── SessionInterrupted              409 SESSION_INTERRUPTED
│   ├── SessionAccountRequired          409 SESSION_ACCOUNT_REQUIRED
│   ├── RunCancelled                    409 RUN_CANCELLED
│   ├── RunNotWaiting                   409 RUN_NOT_WAITING
│   └── IdempotencyKeyInUse             409 IDEMPOTENCY_KEY_IN_USE
├── RequestTimeout                      408 REQUEST_TIMEOUT
├── PayloadTooLarge                     413 PAYLOAD_TOO_LARGE
├── UnsupportedMediaType                415 UNSUPPORTED_MEDIA_TYPE
├── Unprocessable
│   ├── ValidationFailed                422 VALIDATION_ERROR
│   ├── UnsupportedContinuation         422 UNSUPPORTED_CONTINUATION
│   ├── SessionContextUnsupported       422 SESSION_CONTEXT_UNSUPPORTED
│   ├── SessionOverrideRejected         422 SESSION_OVERRIDE_REJECTED
│   ├── SessionLimitExceeded            422 SESSION_LIMIT_EXCEEDED
│   ├── SessionPrefixChanged            422 SESSION_PREFIX_CHANGED
│   ├── ActionMismatch                  422 ACTION_MISMATCH
│   ├── IdempotencyKeyReused            422 IDEMPOTENCY_KEY_REUSED
│   ├── ToolNameConflict                422 TOOL_NAME_CONFLICT
│   └── AttachmentUnsupported           422 ATTACHMENT_UNSUPPORTED
├── ProviderFailed
│   ├── ProviderRateLimited             429 PROVIDER_RATE_LIMITED
│   ├── ProviderError                   502 PROVIDER_ERROR
│   ├── ProviderAuthFailed              502 PROVIDER_AUTH_FAILED
│   ├── ProviderRejected                502 PROVIDER_REJECTED
│   ├── ProviderOverloaded              503 PROVIDER_OVERLOADED
│   └── ProviderTimeout                 504 PROVIDER_TIMEOUT
├── InternalError                       500 INTERNAL_ERROR
├── HeadersTooLarge                     431 HEADERS_TOO_LARGE
├── SessionsDisabled                    501 SESSIONS_DISABLED
├── RetryLater
│   ├── SessionStoreFull                503 SESSION_STORE_FULL
│   ├── HostBusy                        503 HOST_BUSY
│   ├── ShuttingDown                    503 SHUTTING_DOWN
│   └── HostUnavailable                 503 HOST_UNAVAILABLE
├── MalformedRequest                    400 MALFORMED_REQUEST
├── MisdirectedRequest                  421 MISDIRECTED_REQUEST
├── RunEventsExpired                    410 RUN_EVENTS_EXPIRED
└── SubjectQuotaExceeded                429 SUBJECT_QUOTA_EXCEEDED
"""

from __future__ import annotations

from .error_base import Conflict, DriverError, NotFound, ProviderFailed, RetryLater, Unprocessable, present
from .error_table import ErrorCode

__all__ = [
    "ActionMismatch",
    "AttachmentUnsupported",
    "HeadersTooLarge",
    "HostBusy",
    "HostUnavailable",
    "IdempotencyKeyInUse",
    "IdempotencyKeyReused",
    "InternalError",
    "MalformedRequest",
    "MethodNotAllowed",
    "MisdirectedRequest",
    "ModelNotFound",
    "PayloadTooLarge",
    "PermissionDenied",
    "ProviderAuthFailed",
    "ProviderError",
    "ProviderNotFound",
    "ProviderOverloaded",
    "ProviderRateLimited",
    "ProviderRejected",
    "ProviderTimeout",
    "RequestTimeout",
    "RouteNotFound",
    "RunCancelled",
    "RunEventsExpired",
    "RunNotFound",
    "RunNotWaiting",
    "SessionAccountRequired",
    "SessionBusy",
    "SessionContextUnsupported",
    "SessionInterrupted",
    "SessionLimitExceeded",
    "SessionNotFound",
    "SessionOverrideRejected",
    "SessionPrefixChanged",
    "SessionRevisionConflict",
    "SessionStoreFull",
    "SessionsDisabled",
    "ShuttingDown",
    "SubjectQuotaExceeded",
    "ToolNameConflict",
    "Unauthenticated",
    "UnsupportedContinuation",
    "UnsupportedMediaType",
    "ValidationFailed",
]


class Unauthenticated(DriverError):
    """401 ``UNAUTHENTICATED``: Send `Authorization: Bearer <token>` with a token configured on the host or a valid
    JWT from a trusted issuer; `WWW-Authenticate`'s `error_description` says why a token was refused (e.g.
    `expired`)."""

    code = ErrorCode.UNAUTHENTICATED

    def __init__(
        self, detail: str, *, invalid_token: str | None = None, retry_after_seconds: int | None = None
    ) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds)
        self.invalid_token = invalid_token


class PermissionDenied(DriverError):
    """403 ``PERMISSION_DENIED``: The token lacks the session grant (`create`, `read`, `continue`, `delete`) or the
    provider; ask the operator."""

    code = ErrorCode.PERMISSION_DENIED


class SessionNotFound(NotFound):
    """404 ``SESSION_NOT_FOUND``: Unknown, expired, deleted, or not yours (also: wrong provider/model for it, or its
    provider's account binding changed). Start a new session."""

    code = ErrorCode.SESSION_NOT_FOUND


class RunNotFound(NotFound):
    """404 ``RUN_NOT_FOUND``: The run is not yours, or it ended (nothing to cancel or answer) and, past
    `runs.retentionMs`, is no longer readable either: read its session for the outcome."""

    code = ErrorCode.RUN_NOT_FOUND


class ProviderNotFound(NotFound):
    """404 ``PROVIDER_NOT_FOUND``: Check `GET /v1/discovery` for the instances and models you may use."""

    code = ErrorCode.PROVIDER_NOT_FOUND


class ModelNotFound(NotFound):
    """404 ``MODEL_NOT_FOUND``: Check `GET /v1/discovery` for the instances and models you may use."""

    code = ErrorCode.MODEL_NOT_FOUND


class RouteNotFound(NotFound):
    """404 ``ROUTE_NOT_FOUND``: Outside the contract: check the path and method."""

    code = ErrorCode.ROUTE_NOT_FOUND


class MethodNotAllowed(DriverError):
    """405 ``METHOD_NOT_ALLOWED``: Outside the contract: check the path and method."""

    code = ErrorCode.METHOD_NOT_ALLOWED


class SessionRevisionConflict(Conflict):
    """409 ``SESSION_REVISION_CONFLICT``: Your revision is stale (`currentRevision` says the current one;
    `x-should-retry: false`). Read the session, reconcile, retry with the current revision."""

    code = ErrorCode.SESSION_REVISION_CONFLICT

    def __init__(self, detail: str, *, current_revision: int, retry_after_seconds: int | None = None) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"currentRevision": current_revision})
        )
        self.current_revision = current_revision


class SessionBusy(Conflict):
    """409 ``SESSION_BUSY``: Another turn is active (`activeRunId`); wait `Retry-After` seconds and retry, or cancel
    that run."""

    code = ErrorCode.SESSION_BUSY

    def __init__(self, detail: str, *, active_run_id: str, retry_after_seconds: int | None = 1) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **present({"activeRunId": active_run_id}))
        self.active_run_id = active_run_id


class SessionInterrupted(Conflict):
    """409 ``SESSION_INTERRUPTED``: A turn stopped after model work started. Read the session (`interruptedTurn`),
    reconcile side effects, create a new session with the history you choose."""

    code = ErrorCode.SESSION_INTERRUPTED


class SessionAccountRequired(Conflict):
    """409 ``SESSION_ACCOUNT_REQUIRED``: The provider instance has no account binding: use stateless runs, or bind it
    (`accountId`) in host config."""

    code = ErrorCode.SESSION_ACCOUNT_REQUIRED


class RunCancelled(Conflict):
    """409 ``RUN_CANCELLED``: Your run was cancelled (`reason: cancelled`), its session deleted (`reason:
    session_deleted`), its client disconnected (`reason: disconnected`), the host stopped before it finished
    (`reason: shutdown`), or its required action was not answered within its `actionTimeoutMs` (`reason:
    action_timeout`; read the session: it is interrupted)."""

    code = ErrorCode.RUN_CANCELLED

    def __init__(self, detail: str, *, reason: str | None = None, retry_after_seconds: int | None = None) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **present({"reason": reason}))
        self.reason = reason


class RunNotWaiting(Conflict):
    """409 ``RUN_NOT_WAITING``: The run is still active but waits for no action (for example, someone answered first
    and it is running again). A finished run is `RUN_NOT_FOUND`."""

    code = ErrorCode.RUN_NOT_WAITING


class IdempotencyKeyInUse(Conflict):
    """409 ``IDEMPOTENCY_KEY_IN_USE``: The first request with this key is still running; retry after it finishes."""

    code = ErrorCode.IDEMPOTENCY_KEY_IN_USE

    def __init__(
        self, detail: str, *, run_id: str | None = None, after: int = 0, retry_after_seconds: int | None = None
    ) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds)
        self.run_id = run_id
        self.after = after


class RequestTimeout(DriverError):
    """408 ``REQUEST_TIMEOUT``: The request body did not arrive within `limits.bodyTimeoutMs`."""

    code = ErrorCode.REQUEST_TIMEOUT

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = "bodyTimeoutMs",
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum


class PayloadTooLarge(DriverError):
    """413 ``PAYLOAD_TOO_LARGE``: The body exceeds `limits.maxBodyBytes`."""

    code = ErrorCode.PAYLOAD_TOO_LARGE

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = "maxBodyBytes",
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum


class UnsupportedMediaType(DriverError):
    """415 ``UNSUPPORTED_MEDIA_TYPE``: Send `Content-Type: application/json`."""

    code = ErrorCode.UNSUPPORTED_MEDIA_TYPE


class ValidationFailed(Unprocessable):
    """422 ``VALIDATION_ERROR``: Fix the request; `errors` lists each problem with its location. Unknown fields are
    refused."""

    code = ErrorCode.VALIDATION_ERROR

    def __init__(
        self, detail: str, *, errors: list[dict[str, str]] | None = None, retry_after_seconds: int | None = None
    ) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **present({"errors": errors}))
        self.errors = errors


class UnsupportedContinuation(Unprocessable):
    """422 ``UNSUPPORTED_CONTINUATION``: The provider cannot keep that mode (see `capabilities` in discovery); choose
    the other mode."""

    code = ErrorCode.UNSUPPORTED_CONTINUATION


class SessionContextUnsupported(Unprocessable):
    """422 ``SESSION_CONTEXT_UNSUPPORTED``: Sessions take text input only; send attachments or retrieval in a
    stateless run."""

    code = ErrorCode.SESSION_CONTEXT_UNSUPPORTED


class SessionOverrideRejected(Unprocessable):
    """422 ``SESSION_OVERRIDE_REJECTED``: A session owns its instructions and history; do not send them with a
    session run."""

    code = ErrorCode.SESSION_OVERRIDE_REJECTED


class SessionLimitExceeded(Unprocessable):
    """422 ``SESSION_LIMIT_EXCEEDED``: A bound named in `limit` (with `maximum`) would be exceeded; start a new
    session with a shorter history."""

    code = ErrorCode.SESSION_LIMIT_EXCEEDED

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = None,
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum


class SessionPrefixChanged(Unprocessable):
    """422 ``SESSION_PREFIX_CHANGED``: A native session on a provider whose request prefix must stay byte-identical
    (Anthropic) got other tools than its first turn; nothing reached the model. Send the same tools, or start
    a new session."""

    code = ErrorCode.SESSION_PREFIX_CHANGED


class ActionMismatch(Unprocessable):
    """422 ``ACTION_MISMATCH``: Answer exactly the `requiredAction`: the right kind, every call id once, no others."""

    code = ErrorCode.ACTION_MISMATCH


class IdempotencyKeyReused(Unprocessable):
    """422 ``IDEMPOTENCY_KEY_REUSED``: This key was used with a different request; use a new key."""

    code = ErrorCode.IDEMPOTENCY_KEY_REUSED


class ToolNameConflict(Unprocessable):
    """422 ``TOOL_NAME_CONFLICT``: Two declared tools share a name, or one is named like a host tool (`errors` says
    which)."""

    code = ErrorCode.TOOL_NAME_CONFLICT

    def __init__(
        self, detail: str, *, errors: list[dict[str, str]] | None = None, retry_after_seconds: int | None = None
    ) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **present({"errors": errors}))
        self.errors = errors


class ProviderRateLimited(ProviderFailed):
    """429 ``PROVIDER_RATE_LIMITED``: The provider refused for rate or quota after the host's own retries; wait
    `Retry-After` when present. Without it (a spend or quota limit), waiting will not help."""

    code = ErrorCode.PROVIDER_RATE_LIMITED


class InternalError(DriverError):
    """500 ``INTERNAL_ERROR``: A host defect; please report it."""

    code = ErrorCode.INTERNAL_ERROR


class HeadersTooLarge(DriverError):
    """431 ``HEADERS_TOO_LARGE``: The request head exceeds `limits.maxHeaderBytes`."""

    code = ErrorCode.HEADERS_TOO_LARGE

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = "maxHeaderBytes",
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum


class SessionsDisabled(DriverError):
    """501 ``SESSIONS_DISABLED``: The host sets no `sessions.retentionMs`; use stateless runs."""

    code = ErrorCode.SESSIONS_DISABLED


class ProviderError(ProviderFailed):
    """502 ``PROVIDER_ERROR``: The model provider failed; a session turn left the session interrupted."""

    code = ErrorCode.PROVIDER_ERROR


class ProviderAuthFailed(ProviderFailed):
    """502 ``PROVIDER_AUTH_FAILED``: The provider refused the host's credentials: the operator must fix the key
    (`apiKeyEnv`)."""

    code = ErrorCode.PROVIDER_AUTH_FAILED


class ProviderRejected(ProviderFailed):
    """502 ``PROVIDER_REJECTED``: The provider refused the request itself (for example a signed native item that no
    longer verifies); a session turn left the session interrupted."""

    code = ErrorCode.PROVIDER_REJECTED


class SessionStoreFull(RetryLater):
    """503 ``SESSION_STORE_FULL``: The store holds `maxEntries` sessions; retry after `Retry-After` or delete
    sessions."""

    code = ErrorCode.SESSION_STORE_FULL

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = "maxEntries",
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum


class HostBusy(RetryLater):
    """503 ``HOST_BUSY``: Every run slot is taken and the wait line is full (`limit: maxQueuedRuns`),
    `maxWaitingRuns` runs that may wait for the application are active (`limit: maxWaitingRuns`), or the host
    holds its maximum of connections (`limit: maxConnections`); retry after `Retry-After`."""

    code = ErrorCode.HOST_BUSY

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = "maxQueuedRuns",
        maximum: int | None = None,
        retry_after_seconds: int | None = 1,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum


class ProviderOverloaded(ProviderFailed):
    """503 ``PROVIDER_OVERLOADED``: The provider was overloaded (its 503, Anthropic's 529) after the host's own
    retries; retry later."""

    code = ErrorCode.PROVIDER_OVERLOADED


class ShuttingDown(RetryLater):
    """503 ``SHUTTING_DOWN``: The host is stopping and starts no new work (also `/readyz` while it drains). A
    stateless run or a new session: retry after `Retry-After` (behind a proxy it lands on another host). A
    session ends with its host: read its history while the host still answers, and create a new session on
    another host with what it should see."""

    code = ErrorCode.SHUTTING_DOWN

    def __init__(self, detail: str, *, retry_after_seconds: int | None = 1) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds)


class ProviderTimeout(ProviderFailed):
    """504 ``PROVIDER_TIMEOUT``: The provider made no progress for `idleTimeoutMs`; a session turn left the session
    interrupted."""

    code = ErrorCode.PROVIDER_TIMEOUT


class AttachmentUnsupported(Unprocessable):
    """422 ``ATTACHMENT_UNSUPPORTED``: Attachment `attachment` (`mediaType`) is a type the instance `provider` does
    not take (see its `attachmentMediaTypes` in discovery), or larger than `limit` (`maxAttachmentBytes`,
    `maxRunAttachmentBytes`; `maximum` bytes); nothing reached the model."""

    code = ErrorCode.ATTACHMENT_UNSUPPORTED

    def __init__(
        self,
        detail: str,
        *,
        attachment: int | None = None,
        media_type: str | None = None,
        provider: str | None = None,
        limit: str | None = None,
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail,
            retry_after_seconds=retry_after_seconds,
            **present(
                {
                    "attachment": attachment,
                    "mediaType": media_type,
                    "provider": provider,
                    "limit": limit,
                    "maximum": maximum,
                }
            ),
        )
        self.attachment = attachment
        self.media_type = media_type
        self.provider = provider
        self.limit = limit
        self.maximum = maximum


class MalformedRequest(DriverError):
    """400 ``MALFORMED_REQUEST``: The bytes sent are not valid HTTP/1.1 (a control byte in a header, a bad request
    line or path, a bad `Content-Length` or chunk size, a header line without a colon); the host answers and
    closes the connection (`Connection: close`). Fix the client or the proxy in front."""

    code = ErrorCode.MALFORMED_REQUEST


class MisdirectedRequest(DriverError):
    """421 ``MISDIRECTED_REQUEST``: The request named a session or run of another host process (`ownerHostId`;
    `hostId` is the host that answered); nothing was done. Retry once with `Agentic-Host: <ownerHostId>`
    (clients do it for you). See [Scaling](cluster.md)."""

    code = ErrorCode.MISDIRECTED_REQUEST

    def __init__(
        self, detail: str, *, host_id: str, owner_host_id: str, retry_after_seconds: int | None = None
    ) -> None:
        super().__init__(
            detail,
            retry_after_seconds=retry_after_seconds,
            **present({"hostId": host_id, "ownerHostId": owner_host_id}),
        )
        self.host_id = host_id
        self.owner_host_id = owner_host_id


class HostUnavailable(RetryLater):
    """503 ``HOST_UNAVAILABLE``: Sent by the proxy, not a host: the host that owns the session or run (`ownerHostId`)
    is down or restarting (without `ownerHostId`: no host takes new work). Retry after `Retry-After` a few
    times; a host that comes back has lost its sessions (`SESSION_NOT_FOUND`): then start a new session."""

    code = ErrorCode.HOST_UNAVAILABLE

    def __init__(self, detail: str, *, owner_host_id: str | None = None, retry_after_seconds: int | None = 1) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **present({"ownerHostId": owner_host_id}))
        self.owner_host_id = owner_host_id


class RunEventsExpired(DriverError):
    """410 ``RUN_EVENTS_EXPIRED``: The events after your `Last-Event-ID` outgrew the run's buffer
    (`limits.maxRunEventBytes`); `firstEventId` is the oldest still held. Read the run (`GET
    /v1/runs/{runId}`) for its outcome, or rejoin from `firstEventId - 1` accepting the gap."""

    code = ErrorCode.RUN_EVENTS_EXPIRED

    def __init__(self, detail: str, *, first_event_id: int, retry_after_seconds: int | None = None) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **present({"firstEventId": first_event_id}))
        self.first_event_id = first_event_id


class SubjectQuotaExceeded(DriverError):
    """429 ``SUBJECT_QUOTA_EXCEEDED``: Your subject holds the most this host allows it (`limit`:
    `perSubject.maxSessions` stored sessions, `perSubject.maxActiveRuns` active runs, or
    `perSubject.runsPerMinute` runs started in the last 60 s; `maximum` is the bound); nothing was started.
    Delete a session, let a run end, or wait `Retry-After`."""

    code = ErrorCode.SUBJECT_QUOTA_EXCEEDED

    def __init__(
        self,
        detail: str,
        *,
        limit: str | None = None,
        maximum: int | None = None,
        retry_after_seconds: int | None = None,
    ) -> None:
        super().__init__(
            detail, retry_after_seconds=retry_after_seconds, **present({"limit": limit, "maximum": maximum})
        )
        self.limit = limit
        self.maximum = maximum
