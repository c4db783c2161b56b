// Generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.
// Each code's class, under its group (errors-base.ts), and PROBLEM_ERRORS; errors.ts re-exports them.

import type { ErrorCode } from './generated/types.gen.js';
import { ProblemError, ConflictError, NotFoundError, ProviderFailedError, RetryLaterError, UnprocessableError, type ProblemErrorClass } from './errors-base.js';

/**
 * 401 `UNAUTHENTICATED`: Send `Authorization: Bearer <token>` with a token configured on the host or a
 * valid JWT from a trusted issuer; `WWW-Authenticate`'s `error_description` says why a token was
 * refused (e.g. `expired`).
 */
export class UnauthenticatedError extends ProblemError<'UNAUTHENTICATED'> {}
/**
 * 403 `PERMISSION_DENIED`: The token lacks the session grant (`create`, `read`, `continue`, `delete`)
 * or the provider; ask the operator.
 */
export class PermissionDeniedError extends ProblemError<'PERMISSION_DENIED'> {}
/**
 * 404 `SESSION_NOT_FOUND`: Unknown, expired, deleted, or not yours (also: wrong provider/model for it,
 * or its provider's account binding changed). Start a new session.
 */
export class SessionNotFoundError extends NotFoundError<'SESSION_NOT_FOUND'> {}
/**
 * 404 `RUN_NOT_FOUND`: The run is not yours, or it ended (nothing to cancel or answer) and, past
 * `runs.retentionMs`, is no longer readable either: read its session for the outcome.
 */
export class RunNotFoundError extends NotFoundError<'RUN_NOT_FOUND'> {}
/**
 * 404 `PROVIDER_NOT_FOUND`: Check `GET /v1/discovery` for the instances and models you may use.
 */
export class ProviderNotFoundError extends NotFoundError<'PROVIDER_NOT_FOUND'> {}
/**
 * 404 `MODEL_NOT_FOUND`: Check `GET /v1/discovery` for the instances and models you may use.
 */
export class ModelNotFoundError extends NotFoundError<'MODEL_NOT_FOUND'> {}
/**
 * 404 `ROUTE_NOT_FOUND`: Outside the contract: check the path and method.
 */
export class RouteNotFoundError extends NotFoundError<'ROUTE_NOT_FOUND'> {}
/**
 * 405 `METHOD_NOT_ALLOWED`: Outside the contract: check the path and method.
 */
export class MethodNotAllowedError extends ProblemError<'METHOD_NOT_ALLOWED'> {}
/**
 * 409 `SESSION_REVISION_CONFLICT`: Your revision is stale (`currentRevision` says the current one;
 * `x-should-retry: false`). Read the session, reconcile, retry with the current revision.
 */
export class SessionRevisionConflictError extends ConflictError<'SESSION_REVISION_CONFLICT'> {
  declare readonly currentRevision: number;
}
/**
 * 409 `SESSION_BUSY`: Another turn is active (`activeRunId`); wait `Retry-After` seconds and retry, or
 * cancel that run.
 */
export class SessionBusyError extends ConflictError<'SESSION_BUSY'> {
  declare readonly activeRunId: string;
}
/**
 * 409 `SESSION_INTERRUPTED`: A turn stopped after model work started. Read the session
 * (`interruptedTurn`), reconcile side effects, create a new session with the history you choose.
 */
export class SessionInterruptedError extends ConflictError<'SESSION_INTERRUPTED'> {}
/**
 * 409 `SESSION_ACCOUNT_REQUIRED`: The provider instance has no account binding: use stateless runs, or
 * bind it (`accountId`) in host config.
 */
export class SessionAccountRequiredError extends ConflictError<'SESSION_ACCOUNT_REQUIRED'> {}
/**
 * 409 `RUN_CANCELLED`: Your run was cancelled (`reason: cancelled`), its session deleted (`reason:
 * session_deleted`), its client disconnected (`reason: disconnected`), the host stopped before it
 * finished (`reason: shutdown`), or its required action was not answered within its `actionTimeoutMs`
 * (`reason: action_timeout`; read the session: it is interrupted).
 */
export class RunCancelledError extends ConflictError<'RUN_CANCELLED'> {}
/**
 * 409 `RUN_NOT_WAITING`: The run is still active but waits for no action (for example, someone
 * answered first and it is running again). A finished run is `RUN_NOT_FOUND`.
 */
export class RunNotWaitingError extends ConflictError<'RUN_NOT_WAITING'> {}
/**
 * 409 `IDEMPOTENCY_KEY_IN_USE`: The first request with this key is still running; retry after it
 * finishes.
 */
export class IdempotencyKeyInUseError extends ConflictError<'IDEMPOTENCY_KEY_IN_USE'> {}
/**
 * 408 `REQUEST_TIMEOUT`: The request body did not arrive within `limits.bodyTimeoutMs`.
 */
export class RequestTimeoutError extends ProblemError<'REQUEST_TIMEOUT'> {}
/**
 * 413 `PAYLOAD_TOO_LARGE`: The body exceeds `limits.maxBodyBytes`.
 */
export class PayloadTooLargeError extends ProblemError<'PAYLOAD_TOO_LARGE'> {}
/**
 * 415 `UNSUPPORTED_MEDIA_TYPE`: Send `Content-Type: application/json`.
 */
export class UnsupportedMediaTypeError extends ProblemError<'UNSUPPORTED_MEDIA_TYPE'> {}
/**
 * 422 `VALIDATION_ERROR`: Fix the request; `errors` lists each problem with its location. Unknown
 * fields are refused.
 */
export class ValidationError extends UnprocessableError<'VALIDATION_ERROR'> {}
/**
 * 422 `UNSUPPORTED_CONTINUATION`: The provider cannot keep that mode (see `capabilities` in
 * discovery); choose the other mode.
 */
export class UnsupportedContinuationError extends UnprocessableError<'UNSUPPORTED_CONTINUATION'> {}
/**
 * 422 `SESSION_CONTEXT_UNSUPPORTED`: Sessions take text input only; send attachments or retrieval in a
 * stateless run.
 */
export class SessionContextUnsupportedError extends UnprocessableError<'SESSION_CONTEXT_UNSUPPORTED'> {}
/**
 * 422 `SESSION_OVERRIDE_REJECTED`: A session owns its instructions and history; do not send them with
 * a session run.
 */
export class SessionOverrideRejectedError extends UnprocessableError<'SESSION_OVERRIDE_REJECTED'> {}
/**
 * 422 `SESSION_LIMIT_EXCEEDED`: A bound named in `limit` (with `maximum`) would be exceeded; start a
 * new session with a shorter history.
 */
export class SessionLimitExceededError extends UnprocessableError<'SESSION_LIMIT_EXCEEDED'> {}
/**
 * 422 `SESSION_PREFIX_CHANGED`: A native session on a provider whose request prefix must stay byte-
 * identical (Anthropic) got other tools than its first turn; nothing reached the model. Send the same
 * tools, or start a new session.
 */
export class SessionPrefixChangedError extends UnprocessableError<'SESSION_PREFIX_CHANGED'> {}
/**
 * 422 `ACTION_MISMATCH`: Answer exactly the `requiredAction`: the right kind, every call id once, no
 * others.
 */
export class ActionMismatchError extends UnprocessableError<'ACTION_MISMATCH'> {}
/**
 * 422 `IDEMPOTENCY_KEY_REUSED`: This key was used with a different request; use a new key.
 */
export class IdempotencyKeyReusedError extends UnprocessableError<'IDEMPOTENCY_KEY_REUSED'> {}
/**
 * 422 `TOOL_NAME_CONFLICT`: Two declared tools share a name, or one is named like a host tool
 * (`errors` says which).
 */
export class ToolNameConflictError extends UnprocessableError<'TOOL_NAME_CONFLICT'> {}
/**
 * 429 `PROVIDER_RATE_LIMITED`: The provider refused for rate or quota after the host's own retries;
 * wait `Retry-After` when present. Without it (a spend or quota limit), waiting will not help.
 */
export class ProviderRateLimitedError extends ProviderFailedError<'PROVIDER_RATE_LIMITED'> {}
/**
 * 500 `INTERNAL_ERROR`: A host defect; please report it.
 */
export class InternalError extends ProblemError<'INTERNAL_ERROR'> {}
/**
 * 431 `HEADERS_TOO_LARGE`: The request head exceeds `limits.maxHeaderBytes`.
 */
export class HeadersTooLargeError extends ProblemError<'HEADERS_TOO_LARGE'> {}
/**
 * 501 `SESSIONS_DISABLED`: The host sets no `sessions.retentionMs`; use stateless runs.
 */
export class SessionsDisabledError extends ProblemError<'SESSIONS_DISABLED'> {}
/**
 * 502 `PROVIDER_ERROR`: The model provider failed; a session turn left the session interrupted.
 */
export class ProviderError extends ProviderFailedError<'PROVIDER_ERROR'> {}
/**
 * 502 `PROVIDER_AUTH_FAILED`: The provider refused the host's credentials: the operator must fix the
 * key (`apiKeyEnv`).
 */
export class ProviderAuthFailedError extends ProviderFailedError<'PROVIDER_AUTH_FAILED'> {}
/**
 * 502 `PROVIDER_REJECTED`: The provider refused the request itself (for example a signed native item
 * that no longer verifies); a session turn left the session interrupted.
 */
export class ProviderRejectedError extends ProviderFailedError<'PROVIDER_REJECTED'> {}
/**
 * 503 `SESSION_STORE_FULL`: The store holds `maxEntries` sessions; retry after `Retry-After` or delete
 * sessions.
 */
export class SessionStoreFullError extends RetryLaterError<'SESSION_STORE_FULL'> {}
/**
 * 503 `HOST_BUSY`: Every run slot is taken and the wait line is full (`limit: maxQueuedRuns`),
 * `maxWaitingRuns` runs that may wait for the application are active (`limit: maxWaitingRuns`), or the
 * host holds its maximum of connections (`limit: maxConnections`); retry after `Retry-After`.
 */
export class HostBusyError extends RetryLaterError<'HOST_BUSY'> {}
/**
 * 503 `PROVIDER_OVERLOADED`: The provider was overloaded (its 503, Anthropic's 529) after the host's
 * own retries; retry later.
 */
export class ProviderOverloadedError extends ProviderFailedError<'PROVIDER_OVERLOADED'> {}
/**
 * 503 `SHUTTING_DOWN`: The host is stopping and starts no new work (also `/readyz` while it drains). A
 * stateless run or a new session: retry after `Retry-After` (behind a proxy it lands on another host).
 * A session ends with its host: read its history while the host still answers, and create a new
 * session on another host with what it should see.
 */
export class ShuttingDownError extends RetryLaterError<'SHUTTING_DOWN'> {}
/**
 * 504 `PROVIDER_TIMEOUT`: The provider made no progress for `idleTimeoutMs`; a session turn left the
 * session interrupted.
 */
export class ProviderTimeoutError extends ProviderFailedError<'PROVIDER_TIMEOUT'> {}
/**
 * 422 `ATTACHMENT_UNSUPPORTED`: Attachment `attachment` (`mediaType`) is a type the instance
 * `provider` does not take (see its `attachmentMediaTypes` in discovery), or larger than `limit`
 * (`maxAttachmentBytes`, `maxRunAttachmentBytes`; `maximum` bytes); nothing reached the model.
 */
export class AttachmentUnsupportedError extends UnprocessableError<'ATTACHMENT_UNSUPPORTED'> {}
/**
 * 400 `MALFORMED_REQUEST`: The bytes sent are not valid HTTP/1.1 (a control byte in a header, a bad
 * request line or path, a bad `Content-Length` or chunk size, a header line without a colon); the host
 * answers and closes the connection (`Connection: close`). Fix the client or the proxy in front.
 */
export class MalformedRequestError extends ProblemError<'MALFORMED_REQUEST'> {}
/**
 * 421 `MISDIRECTED_REQUEST`: The request named a session or run of another host process
 * (`ownerHostId`; `hostId` is the host that answered); nothing was done. Retry once with `Agentic-
 * Host: <ownerHostId>` (clients do it for you). See [Scaling](cluster.md).
 */
export class MisdirectedRequestError extends ProblemError<'MISDIRECTED_REQUEST'> {
  declare readonly hostId: string;
  declare readonly ownerHostId: string;
}
/**
 * 503 `HOST_UNAVAILABLE`: Sent by the proxy, not a host: the host that owns the session or run
 * (`ownerHostId`) is down or restarting (without `ownerHostId`: no host takes new work). Retry after
 * `Retry-After` a few times; a host that comes back has lost its sessions (`SESSION_NOT_FOUND`): then
 * start a new session.
 */
export class HostUnavailableError extends RetryLaterError<'HOST_UNAVAILABLE'> {}
/**
 * 410 `RUN_EVENTS_EXPIRED`: The events after your `Last-Event-ID` outgrew the run's buffer
 * (`limits.maxRunEventBytes`); `firstEventId` is the oldest still held. Read the run (`GET
 * /v1/runs/{runId}`) for its outcome, or rejoin from `firstEventId - 1` accepting the gap.
 */
export class RunEventsExpiredError extends ProblemError<'RUN_EVENTS_EXPIRED'> {
  declare readonly firstEventId: number;
}
/**
 * 429 `SUBJECT_QUOTA_EXCEEDED`: Your subject holds the most this host allows it (`limit`:
 * `perSubject.maxSessions` stored sessions, `perSubject.maxActiveRuns` active runs, or
 * `perSubject.runsPerMinute` runs started in the last 60 s; `maximum` is the bound); nothing was
 * started. Delete a session, let a run end, or wait `Retry-After`.
 */
export class SubjectQuotaExceededError extends ProblemError<'SUBJECT_QUOTA_EXCEEDED'> {}

/** The error class of each catalogue code. */
export const PROBLEM_ERRORS = {
  UNAUTHENTICATED: UnauthenticatedError,
  PERMISSION_DENIED: PermissionDeniedError,
  SESSION_NOT_FOUND: SessionNotFoundError,
  RUN_NOT_FOUND: RunNotFoundError,
  PROVIDER_NOT_FOUND: ProviderNotFoundError,
  MODEL_NOT_FOUND: ModelNotFoundError,
  ROUTE_NOT_FOUND: RouteNotFoundError,
  METHOD_NOT_ALLOWED: MethodNotAllowedError,
  SESSION_REVISION_CONFLICT: SessionRevisionConflictError,
  SESSION_BUSY: SessionBusyError,
  SESSION_INTERRUPTED: SessionInterruptedError,
  SESSION_ACCOUNT_REQUIRED: SessionAccountRequiredError,
  RUN_CANCELLED: RunCancelledError,
  RUN_NOT_WAITING: RunNotWaitingError,
  IDEMPOTENCY_KEY_IN_USE: IdempotencyKeyInUseError,
  REQUEST_TIMEOUT: RequestTimeoutError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  UNSUPPORTED_MEDIA_TYPE: UnsupportedMediaTypeError,
  VALIDATION_ERROR: ValidationError,
  UNSUPPORTED_CONTINUATION: UnsupportedContinuationError,
  SESSION_CONTEXT_UNSUPPORTED: SessionContextUnsupportedError,
  SESSION_OVERRIDE_REJECTED: SessionOverrideRejectedError,
  SESSION_LIMIT_EXCEEDED: SessionLimitExceededError,
  SESSION_PREFIX_CHANGED: SessionPrefixChangedError,
  ACTION_MISMATCH: ActionMismatchError,
  IDEMPOTENCY_KEY_REUSED: IdempotencyKeyReusedError,
  TOOL_NAME_CONFLICT: ToolNameConflictError,
  PROVIDER_RATE_LIMITED: ProviderRateLimitedError,
  INTERNAL_ERROR: InternalError,
  HEADERS_TOO_LARGE: HeadersTooLargeError,
  SESSIONS_DISABLED: SessionsDisabledError,
  PROVIDER_ERROR: ProviderError,
  PROVIDER_AUTH_FAILED: ProviderAuthFailedError,
  PROVIDER_REJECTED: ProviderRejectedError,
  SESSION_STORE_FULL: SessionStoreFullError,
  HOST_BUSY: HostBusyError,
  PROVIDER_OVERLOADED: ProviderOverloadedError,
  SHUTTING_DOWN: ShuttingDownError,
  PROVIDER_TIMEOUT: ProviderTimeoutError,
  ATTACHMENT_UNSUPPORTED: AttachmentUnsupportedError,
  MALFORMED_REQUEST: MalformedRequestError,
  MISDIRECTED_REQUEST: MisdirectedRequestError,
  HOST_UNAVAILABLE: HostUnavailableError,
  RUN_EVENTS_EXPIRED: RunEventsExpiredError,
  SUBJECT_QUOTA_EXCEEDED: SubjectQuotaExceededError,
} as const satisfies { [C in ErrorCode]: ProblemErrorClass<C> };

/** Any catalogue error, discriminated by `code`: `switch (error.code)` narrows to one class. */
export type KnownProblemError = InstanceType<(typeof PROBLEM_ERRORS)[ErrorCode]>;
