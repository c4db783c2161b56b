/**
 * The shape of the error tree (../BEHAVIOUR.md, "Errors"): the classes every error is one of, and the
 * groups the catalogue's codes are caught by. Each code's own class is generated from openapi.yaml's
 * x-error-table into errors.gen.ts; errors.ts puts the two together.
 */

import type { ErrorCode, Problem, ValidationIssue } from './generated/types.gen.js';

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


/** 404: the session, run, provider, model or route named does not exist for this caller. */
export class NotFoundError<C extends string = ErrorCode> extends ProblemError<C> {}
/** 409: the request conflicts with the session's or run's current state. */
export class ConflictError<C extends string = ErrorCode> extends ProblemError<C> {}
/** 422: the request is well-formed JSON that this host cannot act on as sent. */
export class UnprocessableError<C extends string = ErrorCode> extends ProblemError<C> {}
/** The model provider failed after model work started (never retried by this client). */
export class ProviderFailedError<C extends string = ErrorCode> extends ProblemError<C> {}
/** 503 with `Retry-After`: the host takes no new work now; retried by this client. */
export class RetryLaterError<C extends string = ErrorCode> extends ProblemError<C> {}

/** A problem whose code this client does not know (a newer host): branch on `code` or `status`. */
export class UnknownProblemError extends ProblemError<string> {}

export type ProblemErrorClass<C extends string> = new (
  status: number,
  problem: ProblemDocument,
  retryAfterSeconds?: number,
  headers?: Headers,
) => ProblemError<C>;

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

/** Parses a `Retry-After` header: delta-seconds, or an HTTP date (seconds from now, at least 0). */
export function retryAfterSeconds(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const value = headers?.get('Retry-After')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
