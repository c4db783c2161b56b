// clients/BEHAVIOUR.md, item by item: retries and cancellation. The other items are in the
// behaviour-*.test.ts files: timeouts, headers and idempotency keys, logging and raw responses, the
// busy helper. A fake fetch where the wire does not matter; a local node:http server on 127.0.0.1
// where it does (behaviour-helpers.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  AbortError,
  AgenticDriverClient,
  AgenticDriverError,
  APIError,
  ConnectionError,
  HostBusyError,
  TimeoutError,
  UnknownProblemError,
} from '../../src/index.js';
import { backoffMs, retryableAnswer } from '../../src/transport.js';
import { rejection } from '../rejection.js';
import { clientWith, close, ok, problem, RESULT, RUN, scripted, serve } from './behaviour-helpers.js';

describe('retries', () => {
  it('retries HOST_BUSY after Retry-After, sending one Idempotency-Key on every attempt', async () => {
    const { fetch, seen } = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0' }), ok());
    const result = await clientWith(fetch).run(RUN);
    assert.deepEqual(result, RESULT);
    assert.equal(seen.length, 2);
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.match(keys[0] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(keys[1], keys[0]);
  });

  for (const code of ['SESSION_STORE_FULL', 'SHUTTING_DOWN', 'IDEMPOTENCY_KEY_IN_USE']) {
    it(`retries ${code}`, async () => {
      const status = code === 'IDEMPOTENCY_KEY_IN_USE' ? 409 : 503;
      const { fetch, seen } = scripted(problem(status, code, {}, { 'Retry-After': '0' }), ok());
      await clientWith(fetch).run(RUN);
      assert.equal(seen.length, 2);
    });
  }

  for (const status of [502, 503, 504]) {
    it(`retries a ${status} that is not a problem document (a proxy's page)`, async () => {
      const page = new Response('<h1>Bad Gateway</h1>', { status, headers: { 'Content-Type': 'text/html' } });
      const { fetch, seen } = scripted(page, ok({ status: 'ok' }));
      await clientWith(fetch).getHealth();
      assert.equal(seen.length, 2);
    });
  }

  const never: Array<[string, Response]> = [
    ['SESSION_REVISION_CONFLICT', problem(409, 'SESSION_REVISION_CONFLICT', { currentRevision: 3 }, { 'x-should-retry': 'false' })],
    ['SESSION_BUSY', problem(409, 'SESSION_BUSY', { activeRunId: 'run_9' }, { 'Retry-After': '0' })],
    ['SESSION_INTERRUPTED', problem(409, 'SESSION_INTERRUPTED')],
    ['PROVIDER_OVERLOADED (503)', problem(503, 'PROVIDER_OVERLOADED', {}, { 'Retry-After': '0' })],
    ['PROVIDER_TIMEOUT (504)', problem(504, 'PROVIDER_TIMEOUT')],
    ['PROVIDER_RATE_LIMITED (429)', problem(429, 'PROVIDER_RATE_LIMITED', {}, { 'Retry-After': '0' })],
    ['INTERNAL_ERROR (500)', problem(500, 'INTERNAL_ERROR')],
    ['VALIDATION_ERROR (400)', problem(400, 'VALIDATION_ERROR')],
    ['HOST_BUSY with x-should-retry: false', problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0', 'x-should-retry': 'false' })],
    ['a 500 page that is not a problem', new Response('oops', { status: 500, headers: { 'Content-Type': 'text/plain' } })],
  ];
  for (const [name, answer] of never) {
    it(`never retries ${name}`, async () => {
      const { fetch, seen } = scripted(answer, ok());
      const error = await rejection(clientWith(fetch).run(RUN));
      assert.ok(error instanceof APIError, String(error));
      assert.equal(seen.length, 1);
    });
  }

  it('makes 3 attempts by default, then raises the last answer as its typed error', async () => {
    const { fetch, seen } = scripted(problem(503, 'HOST_BUSY', { retryAfterSeconds: 0 }, { 'Retry-After': '0' }));
    const error = await rejection(clientWith(fetch).run(RUN));
    assert.ok(error instanceof HostBusyError);
    assert.equal(seen.length, 3);
    assert.equal(new Set(seen.map((request) => request.headers.get('Idempotency-Key'))).size, 1);
  });

  it('maxRetries: 0 turns retries off; a call may override the client', async () => {
    const off = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0' }));
    await rejection(clientWith(off.fetch, { maxRetries: 0 }).run(RUN));
    assert.equal(off.seen.length, 1);
    const perCall = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0' }));
    await rejection(clientWith(perCall.fetch).run(RUN, { maxRetries: 4 }));
    assert.equal(perCall.seen.length, 5);
  });

  it('raises at once when Retry-After asks more than 60 s, with the asked delay on the error', async () => {
    const { fetch, seen } = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '120' }), ok());
    const started = Date.now();
    const error = await rejection(clientWith(fetch).run(RUN));
    assert.ok(error instanceof HostBusyError);
    assert.equal(error.retryAfterSeconds, 120);
    assert.equal(seen.length, 1);
    assert.ok(Date.now() - started < 1_000);
  });

  it('waits what Retry-After says (delta-seconds)', async () => {
    const { fetch, seen } = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '1' }), ok());
    const started = Date.now();
    await clientWith(fetch).run(RUN);
    assert.equal(seen.length, 2);
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
  });

  it('reads Retry-After given as an HTTP date', async () => {
    const when = new Date(Date.now() + 90_000).toUTCString();
    const { fetch, seen } = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': when }), ok());
    const error = await rejection(clientWith(fetch).run(RUN));
    assert.ok(error instanceof HostBusyError && error.retryAfterSeconds! > 60, 'a date 90 s out is past the cap');
    assert.equal(seen.length, 1);
  });

  it('backs off exponentially with jitter, capped at 8 s, without Retry-After', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 1 - Number.EPSILON)).map(Math.round), [500, 1000, 2000, 4000, 8000, 8000]);
    assert.deepEqual([0, 1, 5].map((n) => backoffMs(n, () => 0)), [375, 750, 6000]);
  });

  it('retries a connection failure, raising ConnectionError (cause: the platform error) when they persist', async () => {
    const platform = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const { fetch, seen } = scripted(platform);
    const error = await rejection(clientWith(fetch).getDiscovery());
    assert.ok(error instanceof ConnectionError && !(error instanceof TimeoutError), String(error));
    assert.ok(error instanceof AgenticDriverError);
    assert.equal(error.cause, platform);
    assert.equal(seen.length, 3);
  });

  it('a refused connection to a real port is a ConnectionError, never a bare TypeError', async () => {
    const { url, server } = await serve(() => undefined);
    await close(server); // the port is now closed
    const error = await rejection(new AgenticDriverClient({ baseUrl: url, maxRetries: 0 }).getHealth());
    assert.ok(error instanceof ConnectionError, String(error));
    assert.ok(error.cause instanceof TypeError);
  });

  it('classifies a connect timeout as TimeoutError("connect") and retries it', async () => {
    const platform = new TypeError('fetch failed', { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) });
    const { fetch, seen } = scripted(platform, ok());
    await clientWith(fetch).run(RUN);
    assert.equal(seen.length, 2);
    const always = scripted(platform);
    const error = await rejection(clientWith(always.fetch, { maxRetries: 0, timeouts: { connect: 1234 } }).run(RUN));
    assert.ok(error instanceof TimeoutError && error.kind === 'connect' && error.timeoutMs === 1234, String(error));
  });

  it('keeps a code newer than the client: UnknownProblemError with the code sent, an APIError, not retried', async () => {
    const { fetch, seen } = scripted(problem(503, 'HOST_ON_FIRE', { temperature: 9000 }, { 'Retry-After': '0' }), ok());
    const error = await rejection(clientWith(fetch).run(RUN));
    assert.ok(error instanceof UnknownProblemError && error instanceof APIError && error instanceof AgenticDriverError, String(error));
    assert.equal(error.code, 'HOST_ON_FIRE');
    assert.equal(error.status, 503);
    assert.equal(error.problem.temperature, 9000);
    assert.equal(seen.length, 1);
  });

  it('retryableAnswer needs application/problem+json to read a code', () => {
    const json = JSON.stringify({ code: 'INTERNAL_ERROR', detail: 'x' });
    assert.equal(retryableAnswer(502, new Headers({ 'Content-Type': 'application/problem+json' }), json), false);
    assert.equal(retryableAnswer(502, new Headers({ 'Content-Type': 'text/plain' }), json), true);
  });
});

describe('cancellation', () => {
  it('an abort during the wait before a retry rejects at once with AbortError, and sends nothing more', async () => {
    const { fetch, seen } = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '30' }), ok());
    const controller = new AbortController();
    const started = Date.now();
    const pending = clientWith(fetch).run(RUN, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 50);
    const error = await rejection(pending);
    assert.ok(error instanceof AbortError && error instanceof AgenticDriverError, String(error));
    assert.equal(error.name, 'AbortError');
    assert.equal((error.cause as Error).message, 'user gave up');
    assert.ok(Date.now() - started < 5_000);
    assert.equal(seen.length, 1);
  });

  it('an abort of a pending request rejects with AbortError and is not retried', async () => {
    const { url, server, hits } = await serve(() => undefined); // never answers
    try {
      const controller = new AbortController();
      const pending = new AgenticDriverClient({ baseUrl: url }).getDiscovery({ signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      assert.ok((await rejection(pending)) instanceof AbortError);
      assert.equal(hits(), 1);
    } finally {
      await close(server);
    }
  });
});
