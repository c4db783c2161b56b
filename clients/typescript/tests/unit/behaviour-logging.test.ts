// clients/BEHAVIOUR.md: debug logging, and raw responses (withResponse(), and the status, headers
// and request id of errors), over the fake fetch of behaviour-helpers.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { APIError, ProblemError, SessionRevisionConflictError, UnexpectedResponseError } from '../../src/index.js';
import { rejection } from '../rejection.js';
import { clientWith, ok, problem, RESULT, RUN, scripted, TOKEN } from './behaviour-helpers.js';

describe('logging', () => {
  it('a logger gets one line per attempt: method, path, status, attempt, wait, request id; never the token or a body', async () => {
    const lines: string[] = [];
    const { fetch } = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0', 'X-Request-Id': 'req_1' }), ok(RESULT, { 'X-Request-Id': 'req_2' }));
    await clientWith(fetch, { logger: { debug: (line) => lines.push(line) } }).run({ ...RUN, input: 'secret-body-text' });
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /POST \/v1\/runs -> 503 request-id req_1 \(attempt 1\/3\); retrying in 0\.000 s/);
    assert.match(lines[1]!, /POST \/v1\/runs -> 200 request-id req_2 \(attempt 2\/3\)$/);
    for (const line of lines) {
      assert.ok(!line.includes(TOKEN) && !line.includes('secret-body-text') && !line.includes('echo: x'), line);
    }
  });

  it('is off by default, and AGENTIC_DRIVER_LOG=debug sends the lines to standard error', async () => {
    const original = console.error;
    const printed: unknown[] = [];
    console.error = (...args: unknown[]) => void printed.push(args.join(' '));
    try {
      await clientWith(scripted(ok({ status: 'ok' })).fetch).getHealth();
      assert.equal(printed.length, 0);
      process.env.AGENTIC_DRIVER_LOG = 'debug';
      await clientWith(scripted(ok({ status: 'ok' })).fetch).getHealth();
      assert.equal(printed.length, 1);
      assert.match(String(printed[0]), /GET \/healthz -> 200/);
      await clientWith(scripted(ok({ status: 'ok' })).fetch, { logLevel: 'off' }).getHealth();
      assert.equal(printed.length, 1);
    } finally {
      delete process.env.AGENTIC_DRIVER_LOG;
      console.error = original;
    }
  });

  it('logs a connection failure as such', async () => {
    const lines: string[] = [];
    const { fetch } = scripted(new TypeError('fetch failed'));
    await rejection(clientWith(fetch, { maxRetries: 0, logger: { debug: (line) => lines.push(line) } }).getHealth());
    assert.match(lines[0]!, /GET \/healthz -> ConnectionError: connection failed: fetch failed \(attempt 1\/1\)/);
  });
});

describe('raw responses', () => {
  it('withResponse() gives the status and headers of a success', async () => {
    const { fetch } = scripted(ok(RESULT, { 'X-Request-Id': 'req_7' }));
    const { data, response } = await clientWith(fetch).run(RUN).withResponse();
    assert.deepEqual(data, RESULT);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('X-Request-Id'), 'req_7');
  });

  it('withResponse() of a delete resolves to undefined data and the 204', async () => {
    const { fetch } = scripted(new Response(null, { status: 204 }));
    const { data, response } = await clientWith(fetch).deleteSession('ses_1').withResponse();
    assert.equal(data, undefined);
    assert.equal(response.status, 204);
  });

  it('errors carry status, headers and request id', async () => {
    const { fetch } = scripted(problem(409, 'SESSION_REVISION_CONFLICT', { currentRevision: 2 }, { 'X-Request-Id': 'req_9' }));
    const error = await rejection(clientWith(fetch).run(RUN));
    assert.ok(error instanceof SessionRevisionConflictError);
    const current: number = error.currentRevision; // not optional in the type
    assert.equal(current, 2);
    assert.equal(error.status, 409);
    assert.equal(error.headers.get('X-Request-Id'), 'req_9');
    assert.equal(error.requestId, 'req_9');
    const page = scripted(new Response('nope', { status: 418, headers: { 'X-Request-Id': 'req_p' } }));
    const unexpected = await rejection(clientWith(page.fetch).getHealth());
    assert.ok(unexpected instanceof UnexpectedResponseError && unexpected instanceof APIError && !(unexpected instanceof ProblemError));
    assert.equal(unexpected.requestId, 'req_p');
  });
});
