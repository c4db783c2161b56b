# Generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.
"""The error-code catalogue: each code's status, title, group and fix-it text (``errors`` builds on it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["CATALOGUE", "WHAT_TO_DO", "CodeSpec", "ErrorCode"]


class ErrorCode(StrEnum):
    UNAUTHENTICATED = "UNAUTHENTICATED"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    SESSION_NOT_FOUND = "SESSION_NOT_FOUND"
    RUN_NOT_FOUND = "RUN_NOT_FOUND"
    PROVIDER_NOT_FOUND = "PROVIDER_NOT_FOUND"
    MODEL_NOT_FOUND = "MODEL_NOT_FOUND"
    ROUTE_NOT_FOUND = "ROUTE_NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    SESSION_REVISION_CONFLICT = "SESSION_REVISION_CONFLICT"
    SESSION_BUSY = "SESSION_BUSY"
    SESSION_INTERRUPTED = "SESSION_INTERRUPTED"
    SESSION_ACCOUNT_REQUIRED = "SESSION_ACCOUNT_REQUIRED"
    RUN_CANCELLED = "RUN_CANCELLED"
    RUN_NOT_WAITING = "RUN_NOT_WAITING"
    IDEMPOTENCY_KEY_IN_USE = "IDEMPOTENCY_KEY_IN_USE"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    VALIDATION_ERROR = "VALIDATION_ERROR"
    UNSUPPORTED_CONTINUATION = "UNSUPPORTED_CONTINUATION"
    SESSION_CONTEXT_UNSUPPORTED = "SESSION_CONTEXT_UNSUPPORTED"
    SESSION_OVERRIDE_REJECTED = "SESSION_OVERRIDE_REJECTED"
    SESSION_LIMIT_EXCEEDED = "SESSION_LIMIT_EXCEEDED"
    SESSION_PREFIX_CHANGED = "SESSION_PREFIX_CHANGED"
    ACTION_MISMATCH = "ACTION_MISMATCH"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    TOOL_NAME_CONFLICT = "TOOL_NAME_CONFLICT"
    PROVIDER_RATE_LIMITED = "PROVIDER_RATE_LIMITED"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    HEADERS_TOO_LARGE = "HEADERS_TOO_LARGE"
    SESSIONS_DISABLED = "SESSIONS_DISABLED"
    PROVIDER_ERROR = "PROVIDER_ERROR"
    PROVIDER_AUTH_FAILED = "PROVIDER_AUTH_FAILED"
    PROVIDER_REJECTED = "PROVIDER_REJECTED"
    SESSION_STORE_FULL = "SESSION_STORE_FULL"
    HOST_BUSY = "HOST_BUSY"
    PROVIDER_OVERLOADED = "PROVIDER_OVERLOADED"
    SHUTTING_DOWN = "SHUTTING_DOWN"
    PROVIDER_TIMEOUT = "PROVIDER_TIMEOUT"
    ATTACHMENT_UNSUPPORTED = "ATTACHMENT_UNSUPPORTED"
    MALFORMED_REQUEST = "MALFORMED_REQUEST"
    MISDIRECTED_REQUEST = "MISDIRECTED_REQUEST"
    HOST_UNAVAILABLE = "HOST_UNAVAILABLE"
    RUN_EVENTS_EXPIRED = "RUN_EVENTS_EXPIRED"
    SUBJECT_QUOTA_EXCEEDED = "SUBJECT_QUOTA_EXCEEDED"


@dataclass(frozen=True, slots=True)
class CodeSpec:
    status: int
    """The HTTP status every response with this code carries."""
    title: str
    """The problem's short, fixed summary."""
    group: str | None
    """The family an embedded caller catches it with (``errors.NotFound``, ...), or None."""


CATALOGUE: Mapping[ErrorCode, CodeSpec] = {
    ErrorCode.UNAUTHENTICATED: CodeSpec(401, "Unauthenticated", None),
    ErrorCode.PERMISSION_DENIED: CodeSpec(403, "Permission denied", None),
    ErrorCode.SESSION_NOT_FOUND: CodeSpec(404, "Session not found", "NotFound"),
    ErrorCode.RUN_NOT_FOUND: CodeSpec(404, "Run not found", "NotFound"),
    ErrorCode.PROVIDER_NOT_FOUND: CodeSpec(404, "Provider not found", "NotFound"),
    ErrorCode.MODEL_NOT_FOUND: CodeSpec(404, "Model not found", "NotFound"),
    ErrorCode.ROUTE_NOT_FOUND: CodeSpec(404, "Route not found", "NotFound"),
    ErrorCode.METHOD_NOT_ALLOWED: CodeSpec(405, "Method not allowed", None),
    ErrorCode.SESSION_REVISION_CONFLICT: CodeSpec(409, "Session revision conflict", "Conflict"),
    ErrorCode.SESSION_BUSY: CodeSpec(409, "Session busy", "Conflict"),
    ErrorCode.SESSION_INTERRUPTED: CodeSpec(409, "Session interrupted", "Conflict"),
    ErrorCode.SESSION_ACCOUNT_REQUIRED: CodeSpec(409, "Session account required", "Conflict"),
    ErrorCode.RUN_CANCELLED: CodeSpec(409, "Run cancelled", "Conflict"),
    ErrorCode.RUN_NOT_WAITING: CodeSpec(409, "Run not waiting", "Conflict"),
    ErrorCode.IDEMPOTENCY_KEY_IN_USE: CodeSpec(409, "Idempotency key in use", "Conflict"),
    ErrorCode.REQUEST_TIMEOUT: CodeSpec(408, "Request timeout", None),
    ErrorCode.PAYLOAD_TOO_LARGE: CodeSpec(413, "Payload too large", None),
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: CodeSpec(415, "Unsupported media type", None),
    ErrorCode.VALIDATION_ERROR: CodeSpec(422, "Validation error", "Unprocessable"),
    ErrorCode.UNSUPPORTED_CONTINUATION: CodeSpec(422, "Unsupported continuation", "Unprocessable"),
    ErrorCode.SESSION_CONTEXT_UNSUPPORTED: CodeSpec(422, "Session context unsupported", "Unprocessable"),
    ErrorCode.SESSION_OVERRIDE_REJECTED: CodeSpec(422, "Session override rejected", "Unprocessable"),
    ErrorCode.SESSION_LIMIT_EXCEEDED: CodeSpec(422, "Session limit exceeded", "Unprocessable"),
    ErrorCode.SESSION_PREFIX_CHANGED: CodeSpec(422, "Session prefix changed", "Unprocessable"),
    ErrorCode.ACTION_MISMATCH: CodeSpec(422, "Action mismatch", "Unprocessable"),
    ErrorCode.IDEMPOTENCY_KEY_REUSED: CodeSpec(422, "Idempotency key reused", "Unprocessable"),
    ErrorCode.TOOL_NAME_CONFLICT: CodeSpec(422, "Tool name conflict", "Unprocessable"),
    ErrorCode.PROVIDER_RATE_LIMITED: CodeSpec(429, "Provider rate limited", "ProviderFailed"),
    ErrorCode.INTERNAL_ERROR: CodeSpec(500, "Internal error", None),
    ErrorCode.HEADERS_TOO_LARGE: CodeSpec(431, "Headers too large", None),
    ErrorCode.SESSIONS_DISABLED: CodeSpec(501, "Sessions disabled", None),
    ErrorCode.PROVIDER_ERROR: CodeSpec(502, "Provider error", "ProviderFailed"),
    ErrorCode.PROVIDER_AUTH_FAILED: CodeSpec(502, "Provider authentication failed", "ProviderFailed"),
    ErrorCode.PROVIDER_REJECTED: CodeSpec(502, "Provider rejected the request", "ProviderFailed"),
    ErrorCode.SESSION_STORE_FULL: CodeSpec(503, "Session store full", "RetryLater"),
    ErrorCode.HOST_BUSY: CodeSpec(503, "Host busy", "RetryLater"),
    ErrorCode.PROVIDER_OVERLOADED: CodeSpec(503, "Provider overloaded", "ProviderFailed"),
    ErrorCode.SHUTTING_DOWN: CodeSpec(503, "Shutting down", "RetryLater"),
    ErrorCode.PROVIDER_TIMEOUT: CodeSpec(504, "Provider timeout", "ProviderFailed"),
    ErrorCode.ATTACHMENT_UNSUPPORTED: CodeSpec(422, "Attachment unsupported", "Unprocessable"),
    ErrorCode.MALFORMED_REQUEST: CodeSpec(400, "Malformed request", None),
    ErrorCode.MISDIRECTED_REQUEST: CodeSpec(421, "Misdirected request", None),
    ErrorCode.HOST_UNAVAILABLE: CodeSpec(503, "Host unavailable", "RetryLater"),
    ErrorCode.RUN_EVENTS_EXPIRED: CodeSpec(410, "Run events expired", None),
    ErrorCode.SUBJECT_QUOTA_EXCEEDED: CodeSpec(429, "Subject quota exceeded", None),
}

WHAT_TO_DO: Mapping[ErrorCode, str] = {
    ErrorCode.UNAUTHENTICATED: "Send `Authorization: Bearer <token>` with a token configured on the host or a valid JWT from a trusted issuer; `WWW-Authenticate`'s `error_description` says why a token was refused (e.g. `expired`).",
    ErrorCode.PERMISSION_DENIED: "The token lacks the session grant (`create`, `read`, `continue`, `delete`) or the provider; ask the operator.",
    ErrorCode.SESSION_NOT_FOUND: "Unknown, expired, deleted, or not yours (also: wrong provider/model for it, or its provider's account binding changed). Start a new session.",
    ErrorCode.RUN_NOT_FOUND: "The run is not yours, or it ended (nothing to cancel or answer) and, past `runs.retentionMs`, is no longer readable either: read its session for the outcome.",
    ErrorCode.PROVIDER_NOT_FOUND: "Check `GET /v1/discovery` for the instances and models you may use.",
    ErrorCode.MODEL_NOT_FOUND: "Check `GET /v1/discovery` for the instances and models you may use.",
    ErrorCode.ROUTE_NOT_FOUND: "Outside the contract: check the path and method.",
    ErrorCode.METHOD_NOT_ALLOWED: "Outside the contract: check the path and method.",
    ErrorCode.SESSION_REVISION_CONFLICT: "Your revision is stale (`currentRevision` says the current one; `x-should-retry: false`). Read the session, reconcile, retry with the current revision.",
    ErrorCode.SESSION_BUSY: "Another turn is active (`activeRunId`); wait `Retry-After` seconds and retry, or cancel that run.",
    ErrorCode.SESSION_INTERRUPTED: "A turn stopped after model work started. Read the session (`interruptedTurn`), reconcile side effects, create a new session with the history you choose.",
    ErrorCode.SESSION_ACCOUNT_REQUIRED: "The provider instance has no account binding: use stateless runs, or bind it (`accountId`) in host config.",
    ErrorCode.RUN_CANCELLED: "Your run was cancelled (`reason: cancelled`), its session deleted (`reason: session_deleted`), its client disconnected (`reason: disconnected`), the host stopped before it finished (`reason: shutdown`), or its required action was not answered within its `actionTimeoutMs` (`reason: action_timeout`; read the session: it is interrupted).",
    ErrorCode.RUN_NOT_WAITING: "The run is still active but waits for no action (for example, someone answered first and it is running again). A finished run is `RUN_NOT_FOUND`.",
    ErrorCode.IDEMPOTENCY_KEY_IN_USE: "The first request with this key is still running; retry after it finishes.",
    ErrorCode.REQUEST_TIMEOUT: "The request body did not arrive within `limits.bodyTimeoutMs`.",
    ErrorCode.PAYLOAD_TOO_LARGE: "The body exceeds `limits.maxBodyBytes`.",
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: "Send `Content-Type: application/json`.",
    ErrorCode.VALIDATION_ERROR: "Fix the request; `errors` lists each problem with its location. Unknown fields are refused.",
    ErrorCode.UNSUPPORTED_CONTINUATION: "The provider cannot keep that mode (see `capabilities` in discovery); choose the other mode.",
    ErrorCode.SESSION_CONTEXT_UNSUPPORTED: "Sessions take text input only; send attachments or retrieval in a stateless run.",
    ErrorCode.SESSION_OVERRIDE_REJECTED: "A session owns its instructions and history; do not send them with a session run.",
    ErrorCode.SESSION_LIMIT_EXCEEDED: "A bound named in `limit` (with `maximum`) would be exceeded; start a new session with a shorter history.",
    ErrorCode.SESSION_PREFIX_CHANGED: "A native session on a provider whose request prefix must stay byte-identical (Anthropic) got other tools than its first turn; nothing reached the model. Send the same tools, or start a new session.",
    ErrorCode.ACTION_MISMATCH: "Answer exactly the `requiredAction`: the right kind, every call id once, no others.",
    ErrorCode.IDEMPOTENCY_KEY_REUSED: "This key was used with a different request; use a new key.",
    ErrorCode.TOOL_NAME_CONFLICT: "Two declared tools share a name, or one is named like a host tool (`errors` says which).",
    ErrorCode.PROVIDER_RATE_LIMITED: "The provider refused for rate or quota after the host's own retries; wait `Retry-After` when present. Without it (a spend or quota limit), waiting will not help.",
    ErrorCode.INTERNAL_ERROR: "A host defect; please report it.",
    ErrorCode.HEADERS_TOO_LARGE: "The request head exceeds `limits.maxHeaderBytes`.",
    ErrorCode.SESSIONS_DISABLED: "The host sets no `sessions.retentionMs`; use stateless runs.",
    ErrorCode.PROVIDER_ERROR: "The model provider failed; a session turn left the session interrupted.",
    ErrorCode.PROVIDER_AUTH_FAILED: "The provider refused the host's credentials: the operator must fix the key (`apiKeyEnv`).",
    ErrorCode.PROVIDER_REJECTED: "The provider refused the request itself (for example a signed native item that no longer verifies); a session turn left the session interrupted.",
    ErrorCode.SESSION_STORE_FULL: "The store holds `maxEntries` sessions; retry after `Retry-After` or delete sessions.",
    ErrorCode.HOST_BUSY: "Every run slot is taken and the wait line is full (`limit: maxQueuedRuns`), `maxWaitingRuns` runs that may wait for the application are active (`limit: maxWaitingRuns`), or the host holds its maximum of connections (`limit: maxConnections`); retry after `Retry-After`.",
    ErrorCode.PROVIDER_OVERLOADED: "The provider was overloaded (its 503, Anthropic's 529) after the host's own retries; retry later.",
    ErrorCode.SHUTTING_DOWN: "The host is stopping and starts no new work (also `/readyz` while it drains). A stateless run or a new session: retry after `Retry-After` (behind a proxy it lands on another host). A session ends with its host: read its history while the host still answers, and create a new session on another host with what it should see.",
    ErrorCode.PROVIDER_TIMEOUT: "The provider made no progress for `idleTimeoutMs`; a session turn left the session interrupted.",
    ErrorCode.ATTACHMENT_UNSUPPORTED: "Attachment `attachment` (`mediaType`) is a type the instance `provider` does not take (see its `attachmentMediaTypes` in discovery), or larger than `limit` (`maxAttachmentBytes`, `maxRunAttachmentBytes`; `maximum` bytes); nothing reached the model.",
    ErrorCode.MALFORMED_REQUEST: "The bytes sent are not valid HTTP/1.1 (a control byte in a header, a bad request line or path, a bad `Content-Length` or chunk size, a header line without a colon); the host answers and closes the connection (`Connection: close`). Fix the client or the proxy in front.",
    ErrorCode.MISDIRECTED_REQUEST: "The request named a session or run of another host process (`ownerHostId`; `hostId` is the host that answered); nothing was done. Retry once with `Agentic-Host: <ownerHostId>` (clients do it for you). See [Scaling](cluster.md).",
    ErrorCode.HOST_UNAVAILABLE: "Sent by the proxy, not a host: the host that owns the session or run (`ownerHostId`) is down or restarting (without `ownerHostId`: no host takes new work). Retry after `Retry-After` a few times; a host that comes back has lost its sessions (`SESSION_NOT_FOUND`): then start a new session.",
    ErrorCode.RUN_EVENTS_EXPIRED: "The events after your `Last-Event-ID` outgrew the run's buffer (`limits.maxRunEventBytes`); `firstEventId` is the oldest still held. Read the run (`GET /v1/runs/{runId}`) for its outcome, or rejoin from `firstEventId - 1` accepting the gap.",
    ErrorCode.SUBJECT_QUOTA_EXCEEDED: "Your subject holds the most this host allows it (`limit`: `perSubject.maxSessions` stored sessions, `perSubject.maxActiveRuns` active runs, or `perSubject.runsPerMinute` runs started in the last 60 s; `maximum` is the bound); nothing was started. Delete a session, let a run end, or wait `Retry-After`.",
}
"""What a caller should do about each code (Markdown; links relative to ``docs/``)."""
