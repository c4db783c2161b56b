"""The error-code catalogue and the exception tree.

Every failure the driver reports is a ``DriverError`` subclass carrying one
stable ``code`` of the catalogue (``error_table``, generated from ``openapi.yaml``);
the HTTP layer renders it as an RFC 9457 problem with that code's status, and
embedded callers catch the same classes. The ``PROVIDER_*`` codes report upstream
failures after model work started (see ``providers.base.ProviderFailure``).

    DriverError
    ├── Unauthenticated                  401 UNAUTHENTICATED
    ├── PermissionDenied                 403 PERMISSION_DENIED
    ├── NotFound                         404
    │   ├── SessionNotFound                  SESSION_NOT_FOUND
    │   ├── RunNotFound                      RUN_NOT_FOUND
    │   ├── ProviderNotFound                 PROVIDER_NOT_FOUND
    │   ├── ModelNotFound                    MODEL_NOT_FOUND
    │   └── RouteNotFound                    ROUTE_NOT_FOUND
    ├── MethodNotAllowed                 405 METHOD_NOT_ALLOWED
    ├── MalformedRequest                 400 MALFORMED_REQUEST
    ├── Conflict                         409
    │   ├── SessionRevisionConflict          SESSION_REVISION_CONFLICT
    │   ├── SessionBusy                      SESSION_BUSY
    │   ├── SessionInterrupted               SESSION_INTERRUPTED
    │   ├── SessionAccountRequired           SESSION_ACCOUNT_REQUIRED
    │   ├── RunCancelled                     RUN_CANCELLED
    │   ├── RunNotWaiting                    RUN_NOT_WAITING
    │   └── IdempotencyKeyInUse              IDEMPOTENCY_KEY_IN_USE
    ├── RequestTimeout                   408 REQUEST_TIMEOUT
    ├── RunEventsExpired                 410 RUN_EVENTS_EXPIRED
    ├── MisdirectedRequest               421 MISDIRECTED_REQUEST
    ├── PayloadTooLarge                  413 PAYLOAD_TOO_LARGE
    ├── UnsupportedMediaType             415 UNSUPPORTED_MEDIA_TYPE
    ├── Unprocessable                    422
    │   ├── ValidationFailed                 VALIDATION_ERROR
    │   ├── UnsupportedContinuation          UNSUPPORTED_CONTINUATION
    │   ├── SessionContextUnsupported        SESSION_CONTEXT_UNSUPPORTED
    │   ├── SessionOverrideRejected          SESSION_OVERRIDE_REJECTED
    │   ├── SessionLimitExceeded             SESSION_LIMIT_EXCEEDED
    │   ├── SessionPrefixChanged             SESSION_PREFIX_CHANGED
    │   ├── ActionMismatch                   ACTION_MISMATCH
    │   ├── IdempotencyKeyReused             IDEMPOTENCY_KEY_REUSED
    │   ├── ToolNameConflict                 TOOL_NAME_CONFLICT
    │   └── AttachmentUnsupported            ATTACHMENT_UNSUPPORTED
    ├── SubjectQuotaExceeded             429 SUBJECT_QUOTA_EXCEEDED
    ├── HeadersTooLarge                  431 HEADERS_TOO_LARGE
    ├── InternalError                    500 INTERNAL_ERROR
    ├── SessionsDisabled                 501 SESSIONS_DISABLED
    ├── ProviderFailed                   the provider failed after model work started
    │   ├── ProviderRateLimited          429 PROVIDER_RATE_LIMITED
    │   ├── ProviderError                502 PROVIDER_ERROR
    │   ├── ProviderAuthFailed           502 PROVIDER_AUTH_FAILED
    │   ├── ProviderRejected             502 PROVIDER_REJECTED
    │   ├── ProviderOverloaded           503 PROVIDER_OVERLOADED
    │   └── ProviderTimeout              504 PROVIDER_TIMEOUT
    └── RetryLater                       503, with Retry-After: the host takes no new work now
        ├── SessionStoreFull                 SESSION_STORE_FULL
        ├── HostBusy                         HOST_BUSY
        ├── ShuttingDown                     SHUTTING_DOWN
        └── HostUnavailable                  HOST_UNAVAILABLE (answered by the proxy, never by a host)

The groups (``NotFound``, ``Conflict``, ``Unprocessable``, ``ProviderFailed``, ``RetryLater``) carry no code of
their own: they mirror the SDK's classes so an embedded caller can catch a family at once. Each code's status,
title, group and fix-it text come from ``openapi.yaml``'s ``x-error-table`` (``error_table``, generated); a test
checks that each class below sits under the group the table gives its code.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .error_table import CATALOGUE, CodeSpec, ErrorCode

__all__ = [
    "CATALOGUE",
    "ActionMismatch",
    "AttachmentUnsupported",
    "CodeSpec",
    "Conflict",
    "DriverError",
    "ErrorCode",
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
    "NotFound",
    "PayloadTooLarge",
    "PermissionDenied",
    "ProviderAuthFailed",
    "ProviderError",
    "ProviderFailed",
    "ProviderNotFound",
    "ProviderOverloaded",
    "ProviderRateLimited",
    "ProviderRejected",
    "ProviderTimeout",
    "RequestTimeout",
    "RetryLater",
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
    "Unprocessable",
    "UnsupportedContinuation",
    "UnsupportedMediaType",
    "ValidationFailed",
    "error_of_problem",
]


class DriverError(Exception):
    """A failure with a stable code; ``fields`` are the code-specific problem members."""

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL_ERROR

    def __init__(self, detail: str, *, retry_after_seconds: int | None = None, **fields: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after_seconds = retry_after_seconds
        self.fields = fields

    @property
    def status(self) -> int:
        return CATALOGUE[self.code].status

    @property
    def title(self) -> str:
        return CATALOGUE[self.code].title

    def problem(self, instance: str | None = None) -> dict[str, Any]:
        """The RFC 9457 problem body for this error."""
        body: dict[str, Any] = {
            "type": f"urn:agentic-driver:problem:{self.code.value}",
            "title": self.title,
            "status": self.status,
            "code": self.code.value,
            "detail": self.detail,
        }
        if instance is not None:
            body["instance"] = instance
        if self.retry_after_seconds is not None:
            body["retryAfterSeconds"] = self.retry_after_seconds
        body.update(self.fields)
        return body

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value}: {self.detail!r})"


def error_of_problem(code: str, detail: str, retry_after_seconds: int | None, fields: dict[str, Any]) -> DriverError:
    """The error a problem answered, as the class of its code, with its members as they were (an idempotency
    record kept across a restart replays it). Raises ValueError for a code this catalogue does not know."""
    cls = _CLASSES[ErrorCode(code)]
    error = cls.__new__(cls)  # a class's own __init__ takes its fields by name; these are the answered members
    DriverError.__init__(error, detail, retry_after_seconds=retry_after_seconds, **fields)
    return error


class NotFound(DriverError):
    """404: the session, run, provider, model or route named does not exist for this caller."""


class Conflict(DriverError):
    """409: the request conflicts with the current state of a session, a run or an idempotency key."""


class Unprocessable(DriverError):
    """422: the request is well-formed but cannot be carried out as sent; nothing was done."""


class ProviderFailed(DriverError):
    """The model provider failed after model work started (every ``PROVIDER_*`` code but ``PROVIDER_NOT_FOUND``,
    which is a lookup); a session turn is left interrupted. Adapters raise ``providers.base.ProviderFailure``."""


class RetryLater(DriverError):
    """503 from the host side: no new work is taken now (slots, store, drain, or the proxy cannot reach the
    host); ``Retry-After`` says when to try again, and nothing was started."""


class Unauthenticated(DriverError):
    code = ErrorCode.UNAUTHENTICATED

    invalid_token: str | None = None
    """Why a presented token was refused, a reason class (``auth.Rejection``) that the challenge carries as
    ``error="invalid_token", error_description=...``; ``None`` when no bearer token was presented at all."""

    def __init__(self, detail: str, *, invalid_token: str | None = None) -> None:
        super().__init__(detail)
        self.invalid_token = invalid_token


class PermissionDenied(DriverError):
    code = ErrorCode.PERMISSION_DENIED


class SessionNotFound(NotFound):
    code = ErrorCode.SESSION_NOT_FOUND


class RunNotFound(NotFound):
    code = ErrorCode.RUN_NOT_FOUND


class ProviderNotFound(NotFound):
    code = ErrorCode.PROVIDER_NOT_FOUND


class ModelNotFound(NotFound):
    code = ErrorCode.MODEL_NOT_FOUND


class RouteNotFound(NotFound):
    code = ErrorCode.ROUTE_NOT_FOUND


class MethodNotAllowed(DriverError):
    code = ErrorCode.METHOD_NOT_ALLOWED


class MalformedRequest(DriverError):
    """The bytes received are not a valid HTTP/1.1 request (answered by the host's HTTP protocol itself)."""

    code = ErrorCode.MALFORMED_REQUEST


class SessionRevisionConflict(Conflict):
    code = ErrorCode.SESSION_REVISION_CONFLICT

    def __init__(self, detail: str, *, current_revision: int) -> None:
        super().__init__(detail, currentRevision=current_revision)
        self.current_revision = current_revision


class SessionBusy(Conflict):
    code = ErrorCode.SESSION_BUSY

    def __init__(self, detail: str, *, active_run_id: str, retry_after_seconds: int = 1) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, activeRunId=active_run_id)
        self.active_run_id = active_run_id


class SessionInterrupted(Conflict):
    code = ErrorCode.SESSION_INTERRUPTED


class SessionAccountRequired(Conflict):
    code = ErrorCode.SESSION_ACCOUNT_REQUIRED


class RunCancelled(Conflict):
    code = ErrorCode.RUN_CANCELLED

    def __init__(self, detail: str, *, reason: str) -> None:
        super().__init__(detail, reason=reason)
        self.reason = reason


class RunNotWaiting(Conflict):
    code = ErrorCode.RUN_NOT_WAITING


class IdempotencyKeyInUse(Conflict):
    code = ErrorCode.IDEMPOTENCY_KEY_IN_USE

    def __init__(
        self, detail: str, *, retry_after_seconds: int | None = None, run_id: str | None = None, after: int = 0
    ) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds)
        self.run_id = run_id
        """The run the first request started or answered, once admitted. Neither this nor ``after`` is a problem
        field: a retry of a run that continues on disconnect joins it (after event ``after``) instead."""
        self.after = after


class RunEventsExpired(DriverError):
    code = ErrorCode.RUN_EVENTS_EXPIRED

    def __init__(self, detail: str, *, first_event_id: int) -> None:
        super().__init__(detail, firstEventId=first_event_id)


class PayloadTooLarge(DriverError):
    code = ErrorCode.PAYLOAD_TOO_LARGE

    def __init__(self, detail: str, *, maximum: int) -> None:
        super().__init__(detail, limit="maxBodyBytes", maximum=maximum)


class UnsupportedMediaType(DriverError):
    code = ErrorCode.UNSUPPORTED_MEDIA_TYPE


class ValidationFailed(Unprocessable):
    code = ErrorCode.VALIDATION_ERROR

    def __init__(self, detail: str, *, errors: list[dict[str, str]]) -> None:
        super().__init__(detail, errors=errors)
        self.errors = errors


class UnsupportedContinuation(Unprocessable):
    code = ErrorCode.UNSUPPORTED_CONTINUATION


class SessionContextUnsupported(Unprocessable):
    code = ErrorCode.SESSION_CONTEXT_UNSUPPORTED


class SessionOverrideRejected(Unprocessable):
    code = ErrorCode.SESSION_OVERRIDE_REJECTED


class SessionLimitExceeded(Unprocessable):
    code = ErrorCode.SESSION_LIMIT_EXCEEDED

    def __init__(self, detail: str, *, limit: str, maximum: int) -> None:
        super().__init__(detail, limit=limit, maximum=maximum)
        self.limit = limit
        self.maximum = maximum


class ActionMismatch(Unprocessable):
    code = ErrorCode.ACTION_MISMATCH


class SessionPrefixChanged(Unprocessable):
    """A native session whose provider needs a byte-identical request prefix got other instructions or tools."""

    code = ErrorCode.SESSION_PREFIX_CHANGED


class IdempotencyKeyReused(Unprocessable):
    code = ErrorCode.IDEMPOTENCY_KEY_REUSED


class ToolNameConflict(Unprocessable):
    code = ErrorCode.TOOL_NAME_CONFLICT

    def __init__(self, detail: str, *, errors: list[dict[str, str]]) -> None:
        super().__init__(detail, errors=errors)
        self.errors = errors


class AttachmentUnsupported(Unprocessable):
    """A stateless run's attachment that the instance does not take (its type) or the host does not (its size)."""

    code = ErrorCode.ATTACHMENT_UNSUPPORTED

    def __init__(
        self,
        detail: str,
        *,
        provider: str,
        media_type: str,
        attachment: int,
        limit: str | None = None,
        maximum: int | None = None,
    ) -> None:
        # limit and maximum only when a size bound refused it, never for a type.
        bound: dict[str, Any] = {} if limit is None else {"limit": limit, "maximum": maximum}
        super().__init__(detail, provider=provider, mediaType=media_type, attachment=attachment, **bound)
        self.provider = provider
        self.media_type = media_type
        self.attachment = attachment


class ProviderRateLimited(ProviderFailed):
    """The provider refused for rate or quota; ``Retry-After`` is set when the provider said when to retry."""

    code = ErrorCode.PROVIDER_RATE_LIMITED


class SubjectQuotaExceeded(DriverError):
    """The caller's subject holds the most of something ``limits.perSubject`` allows this host process (stored
    sessions, active runs, runs a minute); refused before any model work. ``Retry-After`` only for the rate."""

    code = ErrorCode.SUBJECT_QUOTA_EXCEEDED

    def __init__(self, detail: str, *, limit: str, maximum: int, retry_after_seconds: int | None = None) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, limit=limit, maximum=maximum)
        self.limit = limit
        self.maximum = maximum


class InternalError(DriverError):
    code = ErrorCode.INTERNAL_ERROR


class SessionsDisabled(DriverError):
    code = ErrorCode.SESSIONS_DISABLED


class ProviderError(ProviderFailed):
    code = ErrorCode.PROVIDER_ERROR


class ProviderAuthFailed(ProviderFailed):
    """The provider did not accept the host's credentials (an operator must fix the key)."""

    code = ErrorCode.PROVIDER_AUTH_FAILED


class ProviderRejected(ProviderFailed):
    """The provider refused the request as invalid (for example a tampered signed native item)."""

    code = ErrorCode.PROVIDER_REJECTED


class SessionStoreFull(RetryLater):
    code = ErrorCode.SESSION_STORE_FULL

    def __init__(self, detail: str, *, maximum: int, retry_after_seconds: int) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, limit="maxEntries", maximum=maximum)


class HostBusy(RetryLater):
    code = ErrorCode.HOST_BUSY

    def __init__(
        self, detail: str, *, maximum: int, retry_after_seconds: int = 1, limit: str = "maxQueuedRuns"
    ) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds, limit=limit, maximum=maximum)


class ShuttingDown(RetryLater):
    """The host is draining before it stops: it starts no new work. A stateless run or a new session can be
    retried on another host; a session ends with its host (read its history, create a new session elsewhere)."""

    code = ErrorCode.SHUTTING_DOWN

    def __init__(self, detail: str, *, retry_after_seconds: int = 1) -> None:
        super().__init__(detail, retry_after_seconds=retry_after_seconds)


class MisdirectedRequest(DriverError):
    """The request names a session or run of another host process (by its id or its ``Agentic-Host`` header);
    nothing was done. ``ownerHostId`` is where it belongs; a client retries it there once."""

    code = ErrorCode.MISDIRECTED_REQUEST

    def __init__(self, detail: str, *, host_id: str, owner_host_id: str) -> None:
        super().__init__(detail, hostId=host_id, ownerHostId=owner_host_id)
        self.host_id = host_id
        self.owner_host_id = owner_host_id


class HostUnavailable(RetryLater):
    """The proxy in front of the hosts could not reach the host that owns the session or run (it is down, or
    restarting: a restarted host has lost its sessions). Hosts never answer it; it is here so that the
    catalogue, the spec and the clients agree, and so the proxy configuration can spell its body."""

    code = ErrorCode.HOST_UNAVAILABLE

    def __init__(self, detail: str, *, owner_host_id: str | None = None, retry_after_seconds: int = 1) -> None:
        fields = {} if owner_host_id is None else {"ownerHostId": owner_host_id}
        super().__init__(detail, retry_after_seconds=retry_after_seconds, **fields)


class RequestTimeout(DriverError):
    code = ErrorCode.REQUEST_TIMEOUT

    def __init__(self, detail: str, *, maximum: int) -> None:
        super().__init__(detail, limit="bodyTimeoutMs", maximum=maximum)


class HeadersTooLarge(DriverError):
    code = ErrorCode.HEADERS_TOO_LARGE

    def __init__(self, detail: str, *, maximum: int) -> None:
        super().__init__(detail, limit="maxHeaderBytes", maximum=maximum)


class ProviderOverloaded(ProviderFailed):
    code = ErrorCode.PROVIDER_OVERLOADED


class ProviderTimeout(ProviderFailed):
    code = ErrorCode.PROVIDER_TIMEOUT


def _classes() -> dict[ErrorCode, type[DriverError]]:
    """Each code's class: the subclass of DriverError that declares it."""
    found: dict[ErrorCode, type[DriverError]] = {}
    pending: list[type[DriverError]] = [DriverError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "code" in cls.__dict__:
            found[cls.code] = cls
    return found


_CLASSES = _classes()
