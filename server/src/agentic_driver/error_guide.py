"""What a caller should do about each error code: the fix-it text of the error reference.

One text per :class:`~agentic_driver.errors.ErrorCode`, written for the person reading a problem answer.
``generator/docs_reference.py`` renders ``docs/errors.md`` from these texts and the catalogue's statuses
(``errors.CATALOGUE``), after checking the catalogue against ``openapi.yaml``'s ``ErrorCode`` enum, and writes them
as reST into the Python SDK (``agentic_driver_sdk/_fix_it.py``, the head of each exception's docstring); a test
fails when a code has no text here or a committed copy differs. Texts are Markdown; links are relative to
``docs/`` (the SDK keeps a link's words only).
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import ErrorCode

__all__ = ["WHAT_TO_DO"]

WHAT_TO_DO: Mapping[ErrorCode, str] = {
    ErrorCode.UNAUTHENTICATED: (
        "Send `Authorization: Bearer <token>` with a token configured on the host or a valid JWT from a trusted "
        "issuer; `WWW-Authenticate`'s `error_description` says why a token was refused (e.g. `expired`)."
    ),
    ErrorCode.PERMISSION_DENIED: (
        "The token lacks the session grant (`create`, `read`, `continue`, `delete`) or the provider; ask the operator."
    ),
    ErrorCode.SESSION_NOT_FOUND: (
        "Unknown, expired, deleted, or not yours (also: wrong provider/model for it, or its provider's "
        "account binding changed). Start a new session."
    ),
    ErrorCode.RUN_NOT_FOUND: (
        "The run is not yours, or it ended (nothing to cancel or answer) and, past `runs.retentionMs`, is no "
        "longer readable either: read its session for the outcome."
    ),
    ErrorCode.PROVIDER_NOT_FOUND: ("Check `GET /v1/discovery` for the instances and models you may use."),
    ErrorCode.MODEL_NOT_FOUND: ("Check `GET /v1/discovery` for the instances and models you may use."),
    ErrorCode.SESSION_REVISION_CONFLICT: (
        "Your revision is stale (`currentRevision` says the current one; `x-should-retry: false`). Read the "
        "session, reconcile, retry with the current revision."
    ),
    ErrorCode.SESSION_BUSY: (
        "Another turn is active (`activeRunId`); wait `Retry-After` seconds and retry, or cancel that run."
    ),
    ErrorCode.SESSION_INTERRUPTED: (
        "A turn stopped after model work started. Read the session (`interruptedTurn`), reconcile side "
        "effects, create a new session with the history you choose."
    ),
    ErrorCode.SESSION_ACCOUNT_REQUIRED: (
        "The provider instance has no account binding: use stateless runs, or bind it (`accountId`) in host config."
    ),
    ErrorCode.RUN_NOT_WAITING: (
        "The run is still active but waits for no action (for example, someone answered first and it is "
        "running again). A finished run is `RUN_NOT_FOUND`."
    ),
    ErrorCode.RUN_CANCELLED: (
        "Your run was cancelled (`reason: cancelled`), its session deleted (`reason: session_deleted`), its "
        "client disconnected (`reason: disconnected`), the host stopped before it finished (`reason: "
        "shutdown`), or its required action was not answered within its `actionTimeoutMs` (`reason: "
        "action_timeout`; read the session: it is interrupted)."
    ),
    ErrorCode.IDEMPOTENCY_KEY_IN_USE: ("The first request with this key is still running; retry after it finishes."),
    ErrorCode.PAYLOAD_TOO_LARGE: ("The body exceeds `limits.maxBodyBytes`."),
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: ("Send `Content-Type: application/json`."),
    ErrorCode.VALIDATION_ERROR: (
        "Fix the request; `errors` lists each problem with its location. Unknown fields are refused."
    ),
    ErrorCode.UNSUPPORTED_CONTINUATION: (
        "The provider cannot keep that mode (see `capabilities` in discovery); choose the other mode."
    ),
    ErrorCode.ATTACHMENT_UNSUPPORTED: (
        "Attachment `attachment` (`mediaType`) is a type the instance `provider` does not take (see its "
        "`attachmentMediaTypes` in discovery), or larger than `limit` (`maxAttachmentBytes`, "
        "`maxRunAttachmentBytes`; `maximum` bytes); nothing reached the model."
    ),
    ErrorCode.SESSION_CONTEXT_UNSUPPORTED: (
        "Sessions take text input only; send attachments or retrieval in a stateless run."
    ),
    ErrorCode.SESSION_OVERRIDE_REJECTED: (
        "A session owns its instructions and history; do not send them with a session run."
    ),
    ErrorCode.SESSION_LIMIT_EXCEEDED: (
        "A bound named in `limit` (with `maximum`) would be exceeded; start a new session with a shorter history."
    ),
    ErrorCode.SESSION_PREFIX_CHANGED: (
        "A native session on a provider whose request prefix must stay byte-identical (Anthropic) got other "
        "tools than its first turn; nothing reached the model. Send the same tools, or start a new session."
    ),
    ErrorCode.ACTION_MISMATCH: ("Answer exactly the `requiredAction`: the right kind, every call id once, no others."),
    ErrorCode.IDEMPOTENCY_KEY_REUSED: ("This key was used with a different request; use a new key."),
    ErrorCode.TOOL_NAME_CONFLICT: (
        "Two declared tools share a name, or one is named like a host tool (`errors` says which)."
    ),
    ErrorCode.PROVIDER_RATE_LIMITED: (
        "The provider refused for rate or quota after the host's own retries; wait `Retry-After` when "
        "present. Without it (a spend or quota limit), waiting will not help."
    ),
    ErrorCode.SESSIONS_DISABLED: ("The host sets no `sessions.retentionMs`; use stateless runs."),
    ErrorCode.PROVIDER_ERROR: ("The model provider failed; a session turn left the session interrupted."),
    ErrorCode.PROVIDER_AUTH_FAILED: (
        "The provider refused the host's credentials: the operator must fix the key (`apiKeyEnv`)."
    ),
    ErrorCode.PROVIDER_REJECTED: (
        "The provider refused the request itself (for example a signed native item that no longer verifies); "
        "a session turn left the session interrupted."
    ),
    ErrorCode.SESSION_STORE_FULL: (
        "The store holds `maxEntries` sessions; retry after `Retry-After` or delete sessions."
    ),
    ErrorCode.PROVIDER_OVERLOADED: (
        "The provider was overloaded (its 503, Anthropic's 529) after the host's own retries; retry later."
    ),
    ErrorCode.HOST_BUSY: (
        "Every run slot is taken and the wait line is full (`limit: maxQueuedRuns`), `maxWaitingRuns` runs "
        "that may wait for the application are active (`limit: maxWaitingRuns`), or the host holds its "
        "maximum of connections (`limit: maxConnections`); retry after `Retry-After`."
    ),
    ErrorCode.SHUTTING_DOWN: (
        "The host is stopping and starts no new work (also `/readyz` while it drains). A stateless run or a "
        "new session: retry after `Retry-After` (behind a proxy it lands on another host). A session ends "
        "with its host: read its history while the host still answers, and create a new session on another "
        "host with what it should see."
    ),
    ErrorCode.MISDIRECTED_REQUEST: (
        "The request named a session or run of another host process (`ownerHostId`; `hostId` is the host that "
        "answered); nothing was done. Retry once with `Agentic-Host: <ownerHostId>` (clients do it for you). "
        "See [Scaling](cluster.md)."
    ),
    ErrorCode.RUN_EVENTS_EXPIRED: (
        "The events after your `Last-Event-ID` outgrew the run's buffer (`limits.maxRunEventBytes`); "
        "`firstEventId` is the oldest still held. Read the run (`GET /v1/runs/{runId}`) for its outcome, or "
        "rejoin from `firstEventId - 1` accepting the gap."
    ),
    ErrorCode.SUBJECT_QUOTA_EXCEEDED: (
        "Your subject holds the most this host allows it (`limit`: `perSubject.maxSessions` stored sessions, "
        "`perSubject.maxActiveRuns` active runs, or `perSubject.runsPerMinute` runs started in the last 60 s; "
        "`maximum` is the bound); nothing was started. Delete a session, let a run end, or wait `Retry-After`."
    ),
    ErrorCode.HOST_UNAVAILABLE: (
        "Sent by the proxy, not a host: the host that owns the session or run (`ownerHostId`) is down or "
        "restarting (without `ownerHostId`: no host takes new work). Retry after `Retry-After` a few times; a "
        "host that comes back has lost its sessions (`SESSION_NOT_FOUND`): then start a new session."
    ),
    ErrorCode.REQUEST_TIMEOUT: ("The request body did not arrive within `limits.bodyTimeoutMs`."),
    ErrorCode.HEADERS_TOO_LARGE: ("The request head exceeds `limits.maxHeaderBytes`."),
    ErrorCode.PROVIDER_TIMEOUT: (
        "The provider made no progress for `idleTimeoutMs`; a session turn left the session interrupted."
    ),
    ErrorCode.ROUTE_NOT_FOUND: ("Outside the contract: check the path and method."),
    ErrorCode.METHOD_NOT_ALLOWED: ("Outside the contract: check the path and method."),
    ErrorCode.MALFORMED_REQUEST: (
        "The bytes sent are not valid HTTP/1.1 (a control byte in a header, a bad request line or path, a bad "
        "`Content-Length` or chunk size, a header line without a colon); the host answers and closes the "
        "connection (`Connection: close`). Fix the client or the proxy in front."
    ),
    ErrorCode.INTERNAL_ERROR: ("A host defect; please report it."),
}
