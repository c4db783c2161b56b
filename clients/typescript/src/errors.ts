/**
 * Typed errors: every problem response (RFC 9457, `application/problem+json`) becomes a
 * `ProblemError`, and each code of the catalogue (`ErrorCode`, generated from openapi.yaml)
 * has its own subclass, so callers branch with `instanceof` or on the discriminant `code`.
 *
 *     AgenticDriverError                    everything this client throws (../BEHAVIOUR.md, "Errors")
 *     ├── ConnectionError                   no answer: refused, reset, closed, DNS (`cause`: the platform error)
 *     │   └── TimeoutError                  `kind`: connect, read, stream-idle or idle-wait
 *     ├── AbortError                        the caller's `signal` aborted the call (`cause`: its reason)
 *     ├── APIError                          an answer with an error status: status, headers, retryAfterSeconds
 *     │   ├── ProblemError                  a problem response: code, detail, problem, fields, requestId
 *     │   │   ├── SessionRevisionConflictError  one subclass per ErrorCode (PROBLEM_ERRORS)
 *     │   │   ├── SessionBusyError
 *     │   │   ├── ...
 *     │   │   └── UnknownProblemError       a code newer than this client (`code` is the string sent)
 *     │   └── UnexpectedResponseError       an answer that is not a problem document (a proxy's page)
 *     └── StreamProtocolError               a malformed Server-Sent Event
 *
 * `PROBLEM_ERRORS` is typed as a mapped type over `ErrorCode`, so a code added to the spec
 * (and regenerated) fails the build until it has a class here.
 */

import { ErrorCode } from './generated/types.gen.js';
import type { Problem, ValidationIssue } from './generated/types.gen.js';

/** The base of every error this client raises. */
export class AgenticDriverError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No answer arrived: the connection was refused, reset or closed (`cause` is the platform's error). */
export class ConnectionError extends AgenticDriverError {}

/** Which limit a `TimeoutError` hit. */
export type TimeoutKind = 'connect' | 'read' | 'stream-idle' | 'idle-wait';

/**
 * A timeout: `connect` (opening the connection), `read` (waiting for the answer's head or between
 * its body bytes), `stream-idle` (silence between two events of a stream) or `idle-wait` (the
 * bound of `waitUntilIdle`).
 */
export class TimeoutError extends ConnectionError {
  constructor(
    readonly kind: TimeoutKind,
    /** The limit that was hit, in milliseconds. */
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`${kind} timeout after ${timeoutMs} ms`, options);
  }
}

/**
 * The caller's `signal` aborted the call; `cause` is the signal's reason. Its `name` is
 * `'AbortError'`, as the platform's own abort is, so `error.name === 'AbortError'` checks hold.
 */
export class AbortError extends AgenticDriverError {
  constructor(options?: { cause?: unknown }) {
    super('the call was aborted', options);
    this.name = 'AbortError';
  }
}

/** An answer with an error status. `headers` are the answer's; `retryAfterSeconds` its `Retry-After`. */
export class APIError extends AgenticDriverError {
  /** The answer's headers (empty for a problem that arrived inside a stream). */
  readonly headers: Headers;
  /** Seconds to wait before retrying (the body's field, else the `Retry-After` header). */
  readonly retryAfterSeconds?: number;

  constructor(
    /** The HTTP status. */
    readonly status: number,
    message: string,
    headers?: Headers,
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.headers = headers ?? new Headers();
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The answer's `X-Request-Id`, when it had one. */
  get requestId(): string | undefined {
    return this.headers.get('X-Request-Id') ?? undefined;
  }
}

/** A problem document as it arrived; `code` may be one this client does not know yet. */
export type ProblemDocument = Omit<Problem, 'code'> & { code: string; [field: string]: unknown };

/** A problem response. Subclasses narrow `code`; `problem` keeps the whole document. */
export class ProblemError<C extends string = ErrorCode> extends APIError {
  /** The stable machine-readable code. */
  readonly code: C;
  /** What happened, for a person. */
  readonly detail: string;
  readonly title: string;
  /** `urn:agentic-driver:problem:<code>`. */
  readonly type: string;
  readonly instance?: string;
  /** `SESSION_REVISION_CONFLICT`: the session's current revision. */
  readonly currentRevision?: number;
  /** `SESSION_BUSY`: the run that holds the session. */
  readonly activeRunId?: string;
  /** The bound that was hit, by its host setting name. */
  readonly limit?: string;
  /** The value of that bound. */
  readonly maximum?: number;
  /** `RUN_CANCELLED`: `cancelled`, `session_deleted` or `disconnected`. */
  readonly reason?: string;
  /** `VALIDATION_ERROR`: every problem found in the request. */
  readonly errors?: ValidationIssue[];
  /** `MISDIRECTED_REQUEST`: the host that answered. */
  readonly hostId?: string;
  /** `MISDIRECTED_REQUEST`, `HOST_UNAVAILABLE`: the host that owns the session or run. */
  readonly ownerHostId?: string;
  /** `RUN_EVENTS_EXPIRED`: the oldest event id of the run still buffered. */
  readonly firstEventId?: number;
  /** The problem document as sent. */
  readonly problem: ProblemDocument;

  constructor(status: number, problem: ProblemDocument, retryAfterSeconds?: number, headers?: Headers) {
    super(status, `${problem.code} (${status}): ${problem.detail}`, headers, problem.retryAfterSeconds ?? retryAfterSeconds);
    this.code = problem.code as C;
    this.detail = problem.detail;
    this.title = problem.title;
    this.type = problem.type;
    this.problem = problem;
    this.instance = problem.instance;
    this.currentRevision = problem.currentRevision;
    this.activeRunId = problem.activeRunId;
    this.limit = problem.limit;
    this.maximum = problem.maximum;
    this.reason = problem.reason;
    this.errors = problem.errors;
    this.hostId = typeof problem.hostId === 'string' ? problem.hostId : undefined;
    this.ownerHostId = typeof problem.ownerHostId === 'string' ? problem.ownerHostId : undefined;
    this.firstEventId = typeof problem.firstEventId === 'number' ? problem.firstEventId : undefined;
  }

  /** The host's id for this request: the `X-Request-Id` header, else the problem's `requestId`
   * (a problem inside a stream has no headers of its own). Host logs and trace spans carry it. */
  override get requestId(): string | undefined {
    return super.requestId ?? this.problem.requestId ?? undefined;
  }
}

export class UnauthenticatedError extends ProblemError<'UNAUTHENTICATED'> {}
export class PermissionDeniedError extends ProblemError<'PERMISSION_DENIED'> {}
export class SessionNotFoundError extends ProblemError<'SESSION_NOT_FOUND'> {}
export class RunNotFoundError extends ProblemError<'RUN_NOT_FOUND'> {}
export class ProviderNotFoundError extends ProblemError<'PROVIDER_NOT_FOUND'> {}
export class ModelNotFoundError extends ProblemError<'MODEL_NOT_FOUND'> {}
export class RouteNotFoundError extends ProblemError<'ROUTE_NOT_FOUND'> {}
export class MethodNotAllowedError extends ProblemError<'METHOD_NOT_ALLOWED'> {}
/** Your revision is stale: read the session, reconcile, retry with `currentRevision`. */
export class SessionRevisionConflictError extends ProblemError<'SESSION_REVISION_CONFLICT'> {
  declare readonly currentRevision: number;
}
/** Another turn is active (`activeRunId`): wait `retryAfterSeconds`, or cancel that run. */
export class SessionBusyError extends ProblemError<'SESSION_BUSY'> {
  declare readonly activeRunId: string;
}
/** A turn stopped after model work started: read the session and start a new one. */
export class SessionInterruptedError extends ProblemError<'SESSION_INTERRUPTED'> {}
/** The provider instance has no account binding: use stateless runs. */
export class SessionAccountRequiredError extends ProblemError<'SESSION_ACCOUNT_REQUIRED'> {}
export class RunCancelledError extends ProblemError<'RUN_CANCELLED'> {}
export class RunNotWaitingError extends ProblemError<'RUN_NOT_WAITING'> {}
export class IdempotencyKeyInUseError extends ProblemError<'IDEMPOTENCY_KEY_IN_USE'> {}
export class PayloadTooLargeError extends ProblemError<'PAYLOAD_TOO_LARGE'> {}
export class UnsupportedMediaTypeError extends ProblemError<'UNSUPPORTED_MEDIA_TYPE'> {}
export class ValidationError extends ProblemError<'VALIDATION_ERROR'> {}
export class UnsupportedContinuationError extends ProblemError<'UNSUPPORTED_CONTINUATION'> {}
export class SessionContextUnsupportedError extends ProblemError<'SESSION_CONTEXT_UNSUPPORTED'> {}
export class SessionOverrideRejectedError extends ProblemError<'SESSION_OVERRIDE_REJECTED'> {}
export class SessionLimitExceededError extends ProblemError<'SESSION_LIMIT_EXCEEDED'> {}
export class ActionMismatchError extends ProblemError<'ACTION_MISMATCH'> {}
export class IdempotencyKeyReusedError extends ProblemError<'IDEMPOTENCY_KEY_REUSED'> {}
/** Two declared tools share a name, or one is named like a host tool (`errors` says which). */
export class ToolNameConflictError extends ProblemError<'TOOL_NAME_CONFLICT'> {}
/** A stateless run's attachment the instance does not take (`mediaType`, `provider`) or too large (`limit`). */
export class AttachmentUnsupportedError extends ProblemError<'ATTACHMENT_UNSUPPORTED'> {}
export class InternalError extends ProblemError<'INTERNAL_ERROR'> {}
export class SessionsDisabledError extends ProblemError<'SESSIONS_DISABLED'> {}
export class ProviderError extends ProblemError<'PROVIDER_ERROR'> {}
export class SessionStoreFullError extends ProblemError<'SESSION_STORE_FULL'> {}
export class HostBusyError extends ProblemError<'HOST_BUSY'> {}
export class ProviderTimeoutError extends ProblemError<'PROVIDER_TIMEOUT'> {}
export class ProviderRateLimitedError extends ProblemError<'PROVIDER_RATE_LIMITED'> {}
/** Your subject holds the most this host allows it (`limit`, `maximum`; `retryAfterSeconds` for the rate). Never retried. */
export class SubjectQuotaExceededError extends ProblemError<'SUBJECT_QUOTA_EXCEEDED'> {}
export class ProviderOverloadedError extends ProblemError<'PROVIDER_OVERLOADED'> {}
export class ProviderAuthFailedError extends ProblemError<'PROVIDER_AUTH_FAILED'> {}
export class ProviderRejectedError extends ProblemError<'PROVIDER_REJECTED'> {}
export class SessionPrefixChangedError extends ProblemError<'SESSION_PREFIX_CHANGED'> {}
export class ShuttingDownError extends ProblemError<'SHUTTING_DOWN'> {}
/**
 * Host `hostId` answered for a session or run that host `ownerHostId` owns, and nothing was done.
 * The client already sent the request once more to the owner (`Agentic-Host`); this is the second
 * 421 of the call: check that the proxy routes on `Agentic-Host`.
 */
export class MisdirectedRequestError extends ProblemError<'MISDIRECTED_REQUEST'> {
  declare readonly hostId: string;
  declare readonly ownerHostId: string;
}
/**
 * The proxy has no live host `ownerHostId`, which owns this session or run, or (no
 * `ownerHostId`: the request named none) no host takes new work; retried after `Retry-After`,
 * like `HOST_BUSY`. Sessions never move: once back, that host answers `SESSION_NOT_FOUND` for
 * the sessions it lost.
 */
export class HostUnavailableError extends ProblemError<'HOST_UNAVAILABLE'> {}
export class HeadersTooLargeError extends ProblemError<'HEADERS_TOO_LARGE'> {}
export class RequestTimeoutError extends ProblemError<'REQUEST_TIMEOUT'> {}
/** The bytes sent were not valid HTTP/1.1; the host closed the connection. */
export class MalformedRequestError extends ProblemError<'MALFORMED_REQUEST'> {}
/**
 * The run's events after the `Last-Event-ID` sent are no longer all buffered (they outgrew the
 * host's `limits.maxRunEventBytes`); `firstEventId` is the oldest still held. Read the run
 * (`getRun`) for its outcome, or rejoin from `firstEventId - 1` accepting the gap.
 */
export class RunEventsExpiredError extends ProblemError<'RUN_EVENTS_EXPIRED'> {
  declare readonly firstEventId: number;
}

/** A problem whose code this client does not know (a newer host): branch on `code` or `status`. */
export class UnknownProblemError extends ProblemError<string> {}

type ProblemErrorClass<C extends string> = new (
  status: number,
  problem: ProblemDocument,
  retryAfterSeconds?: number,
  headers?: Headers,
) => ProblemError<C>;

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
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  UNSUPPORTED_MEDIA_TYPE: UnsupportedMediaTypeError,
  VALIDATION_ERROR: ValidationError,
  UNSUPPORTED_CONTINUATION: UnsupportedContinuationError,
  SESSION_CONTEXT_UNSUPPORTED: SessionContextUnsupportedError,
  SESSION_OVERRIDE_REJECTED: SessionOverrideRejectedError,
  SESSION_LIMIT_EXCEEDED: SessionLimitExceededError,
  ACTION_MISMATCH: ActionMismatchError,
  IDEMPOTENCY_KEY_REUSED: IdempotencyKeyReusedError,
  TOOL_NAME_CONFLICT: ToolNameConflictError,
  ATTACHMENT_UNSUPPORTED: AttachmentUnsupportedError,
  INTERNAL_ERROR: InternalError,
  SESSIONS_DISABLED: SessionsDisabledError,
  PROVIDER_ERROR: ProviderError,
  SESSION_STORE_FULL: SessionStoreFullError,
  HOST_BUSY: HostBusyError,
  PROVIDER_TIMEOUT: ProviderTimeoutError,
  PROVIDER_RATE_LIMITED: ProviderRateLimitedError,
  PROVIDER_OVERLOADED: ProviderOverloadedError,
  PROVIDER_AUTH_FAILED: ProviderAuthFailedError,
  PROVIDER_REJECTED: ProviderRejectedError,
  SESSION_PREFIX_CHANGED: SessionPrefixChangedError,
  SHUTTING_DOWN: ShuttingDownError,
  HEADERS_TOO_LARGE: HeadersTooLargeError,
  REQUEST_TIMEOUT: RequestTimeoutError,
  MALFORMED_REQUEST: MalformedRequestError,
  MISDIRECTED_REQUEST: MisdirectedRequestError,
  HOST_UNAVAILABLE: HostUnavailableError,
  RUN_EVENTS_EXPIRED: RunEventsExpiredError,
  SUBJECT_QUOTA_EXCEEDED: SubjectQuotaExceededError,
} as const satisfies { [C in ErrorCode]: ProblemErrorClass<C> };

/** Any catalogue error, discriminated by `code`: `switch (error.code)` narrows to one class. */
export type KnownProblemError = InstanceType<(typeof PROBLEM_ERRORS)[ErrorCode]>;

/** An answer that is not a problem document (for example a proxy's HTML error page). */
export class UnexpectedResponseError extends APIError {
  constructor(
    status: number,
    readonly body: unknown,
    headers?: Headers,
  ) {
    const text = String(typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 200);
    super(status, `unexpected ${status} answer: ${text}`, headers, retryAfterSeconds(headers));
  }
}

/** A Server-Sent Event that does not carry a JSON object with a string `type`. */
export class StreamProtocolError extends AgenticDriverError {}

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

function isKnownCode(code: string): code is ErrorCode {
  return KNOWN_CODES.has(code);
}

function isProblemDocument(body: unknown): body is ProblemDocument {
  if (typeof body !== 'object' || body === null) return false;
  const { code, detail } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof detail === 'string';
}

/** Parses a `Retry-After` header: delta-seconds, or an HTTP date (seconds from now, at least 0). */
export function retryAfterSeconds(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const value = headers?.get('Retry-After')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** The typed error for a problem document: the code's class, or `UnknownProblemError`. */
export function problemError(status: number, problem: ProblemDocument, retryAfter?: number, headers?: Headers): ProblemError<string> {
  const Class: ProblemErrorClass<string> = isKnownCode(problem.code) ? PROBLEM_ERRORS[problem.code] : UnknownProblemError;
  return new Class(status, problem, retryAfter, headers);
}

/** The error to throw for a failed answer: a typed `ProblemError`, else `UnexpectedResponseError`. */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): AgenticDriverError {
  return isProblemDocument(body)
    ? problemError(status, body, retryAfterSeconds(headers), headers)
    : new UnexpectedResponseError(status, body, headers);
}

/** Whether `error` is the catalogue error for `code` (the same test as `instanceof` its class). */
export function isProblem<C extends ErrorCode>(
  error: unknown,
  code: C,
): error is InstanceType<(typeof PROBLEM_ERRORS)[C]> {
  return error instanceof PROBLEM_ERRORS[code];
}
