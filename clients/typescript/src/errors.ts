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
 *     │   │   ├── NotFoundError, ConflictError, UnprocessableError, ProviderFailedError, RetryLaterError
 *     │   │   │   └── SessionBusyError, ...  the groups, as in every client, and under them
 *     │   │   ├── UnauthenticatedError, ...  one subclass per ErrorCode (PROBLEM_ERRORS)
 *     │   │   └── UnknownProblemError       a code newer than this client (`code` is the string sent)
 *     │   └── UnexpectedResponseError       an answer that is not a problem document (a proxy's page)
 *     └── StreamProtocolError               a malformed Server-Sent Event
 *
 * The tree's shape and groups are errors-base.ts; each code's class and `PROBLEM_ERRORS` are
 * generated from openapi.yaml's x-error-table into errors.gen.ts (`make generate`), so a code added
 * to the spec has its class, under its group, without an edit here.
 */

import { ErrorCode } from './generated/types.gen.js';
import {
  type AgenticDriverError,
  type ProblemDocument,
  type ProblemError,
  type ProblemErrorClass,
  retryAfterSeconds,
  UnexpectedResponseError,
  UnknownProblemError,
} from './errors-base.js';
import { PROBLEM_ERRORS } from './errors.gen.js';

export * from './errors-base.js';
export * from './errors.gen.js';

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

function isKnownCode(code: string): code is ErrorCode {
  return KNOWN_CODES.has(code);
}

function isProblemDocument(body: unknown): body is ProblemDocument {
  if (typeof body !== 'object' || body === null) return false;
  const { code, detail } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof detail === 'string';
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
