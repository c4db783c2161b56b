import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  AgenticDriverError,
  ConflictError,
  ErrorCode,
  errorFromResponse,
  isProblem,
  type KnownProblemError,
  NotFoundError,
  PROBLEM_ERRORS,
  ProblemError,
  ProviderFailedError,
  RetryLaterError,
  SessionAccountRequiredError,
  SessionBusyError,
  SessionInterruptedError,
  SessionRevisionConflictError,
  UnexpectedResponseError,
  UnknownProblemError,
  UnprocessableError,
} from '../../src/index.js';

function problem(code: string, fields: Record<string, unknown> = {}) {
  return { type: `urn:agentic-driver:problem:${code}`, title: 'T', status: 409, code, detail: `about ${code}`, ...fields };
}

describe('typed errors', () => {
  it('has one class per catalogue code, each constructing its own code', () => {
    const codes = Object.values(ErrorCode);
    assert.ok(codes.length >= 30);
    assert.deepEqual(Object.keys(PROBLEM_ERRORS).sort(), [...codes].sort());
    assert.equal(new Set(Object.values(PROBLEM_ERRORS)).size, codes.length, 'every code has its own class');
    for (const code of codes) {
      const error = errorFromResponse(400, problem(code));
      assert.ok(error instanceof PROBLEM_ERRORS[code], code);
      assert.ok(error instanceof ProblemError && error instanceof AgenticDriverError && error instanceof Error);
      assert.equal((error as ProblemError).code, code);
      assert.ok(isProblem(error, code));
    }
  });

  it('carries status, detail and the code-specific fields', () => {
    const conflict = errorFromResponse(409, problem('SESSION_REVISION_CONFLICT', { currentRevision: 3 }));
    assert.ok(conflict instanceof SessionRevisionConflictError);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.currentRevision, 3);
    assert.equal(conflict.detail, 'about SESSION_REVISION_CONFLICT');
    assert.equal(conflict.message, 'SESSION_REVISION_CONFLICT (409): about SESSION_REVISION_CONFLICT');
    assert.equal(conflict.name, 'SessionRevisionConflictError');

    const busy = errorFromResponse(409, problem('SESSION_BUSY', { activeRunId: 'run_1' }), new Headers({ 'Retry-After': '2' }));
    assert.ok(busy instanceof SessionBusyError);
    assert.equal(busy.activeRunId, 'run_1');
    assert.equal(busy.retryAfterSeconds, 2, 'from the Retry-After header when the body has none');
    assert.equal(busy.problem.activeRunId, 'run_1');
  });

  it('reads the request id from the header, else from the problem body', () => {
    const both = errorFromResponse(404, problem('SESSION_NOT_FOUND', { requestId: 'body-id' }), new Headers({ 'X-Request-Id': 'header-id' }));
    assert.equal((both as ProblemError).requestId, 'header-id');
    const bodyOnly = errorFromResponse(404, problem('SESSION_NOT_FOUND', { requestId: 'body-id' }));
    assert.equal((bodyOnly as ProblemError).requestId, 'body-id');
    assert.equal((errorFromResponse(404, problem('SESSION_NOT_FOUND')) as ProblemError).requestId, undefined);
  });

  it('distinguishes the four session codes by type alone', () => {
    const errors = ['SESSION_REVISION_CONFLICT', 'SESSION_BUSY', 'SESSION_INTERRUPTED', 'SESSION_ACCOUNT_REQUIRED'].map(
      (code) => errorFromResponse(409, problem(code)),
    );
    const classes = [SessionRevisionConflictError, SessionBusyError, SessionInterruptedError, SessionAccountRequiredError];
    errors.forEach((error, index) => {
      classes.forEach((Class, other) => assert.equal(error instanceof Class, index === other));
    });
  });

  it('narrows on code in a switch', () => {
    const error = errorFromResponse(409, problem('SESSION_REVISION_CONFLICT', { currentRevision: 5 })) as KnownProblemError;
    switch (error.code) {
      case 'SESSION_REVISION_CONFLICT':
        assert.equal(error.currentRevision satisfies number, 5);
        break;
      default:
        assert.fail(error.code);
    }
  });

  it('keeps a code newer than this client', () => {
    const error = errorFromResponse(418, problem('TEAPOT_EMPTY', { extra: true }));
    assert.ok(error instanceof UnknownProblemError);
    assert.equal(error.code, 'TEAPOT_EMPTY');
    assert.equal(error.problem.extra, true);
  });

  it('reports an answer that is not a problem document', () => {
    const error = errorFromResponse(502, '<html>bad gateway</html>');
    assert.ok(error instanceof UnexpectedResponseError && !(error instanceof ProblemError));
    assert.equal(error.status, 502);
  });
});

describe('the groups (one tree shape in every client)', () => {
  const groupOf = (code: ErrorCode): string | undefined => {
    const error = errorFromResponse(400, problem(code));
    const groups = { NotFoundError, ConflictError, UnprocessableError, ProviderFailedError, RetryLaterError };
    const found = Object.entries(groups).filter(([, Group]) => error instanceof Group);
    assert.ok(found.length <= 1, `${code} is in ${found.map(([name]) => name).join(', ')}`);
    return found[0]?.[0];
  };

  it('puts each code under the group openapi.yaml\'s x-error-table gives it', () => {
    assert.equal(groupOf('SESSION_NOT_FOUND'), 'NotFoundError');
    assert.equal(groupOf('SESSION_BUSY'), 'ConflictError');
    assert.equal(groupOf('VALIDATION_ERROR'), 'UnprocessableError');
    assert.equal(groupOf('PROVIDER_TIMEOUT'), 'ProviderFailedError');
    assert.equal(groupOf('PROVIDER_RATE_LIMITED'), 'ProviderFailedError');
    assert.equal(groupOf('HOST_BUSY'), 'RetryLaterError');
    assert.equal(groupOf('HOST_UNAVAILABLE'), 'RetryLaterError');
    assert.equal(groupOf('UNAUTHENTICATED'), undefined);
    assert.equal(groupOf('SUBJECT_QUOTA_EXCEEDED'), undefined);
  });

  it('gives every code a group or none, and keeps each class a ProblemError', () => {
    for (const code of Object.values(ErrorCode)) {
      groupOf(code);
      assert.ok(errorFromResponse(400, problem(code)) instanceof ProblemError, code);
    }
  });
});
