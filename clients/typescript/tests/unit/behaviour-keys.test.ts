// clients/BEHAVIOUR.md: headers and idempotency keys, and forkSession keyed and retried as
// createSession is (behaviour-helpers.ts: the fake fetch and the local server).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import {
  AgenticDriverClient,
  APIError,
  generated,
  SessionBusyError,
  SessionRevisionConflictError,
  TimeoutError,
  USER_AGENT,
  VERSION,
} from '../../src/index.js';
import { rejection } from '../rejection.js';
import { clientWith, close, ok, problem, RUN, scripted, serve, TOKEN } from './behaviour-helpers.js';

describe('headers', () => {
  it('sends User-Agent agentic-driver-typescript/<version>, default headers, and the token last', async () => {
    const { fetch, seen } = scripted(ok({ status: 'ok' }));
    const client = clientWith(fetch, { defaultHeaders: { 'X-Team': 'a', Authorization: 'Bearer not-this-one' } });
    await client.getHealth({ headers: { Authorization: 'Bearer nor-this-one' } });
    const headers = seen[0]!.headers;
    assert.equal(USER_AGENT, `agentic-driver-typescript/${VERSION}`);
    assert.equal(headers.get('User-Agent'), USER_AGENT);
    assert.equal(headers.get('X-Team'), 'a');
    assert.equal(headers.get('Authorization'), `Bearer ${TOKEN}`);
  });

  it('keeps a caller-set User-Agent', async () => {
    const { fetch, seen } = scripted(ok({ status: 'ok' }));
    await clientWith(fetch, { defaultHeaders: { 'User-Agent': 'my-app/1' } }).getHealth();
    assert.equal(seen[0]!.headers.get('User-Agent'), 'my-app/1');
  });

  it('VERSION is package.json version', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(VERSION, manifest.version);
  });
});

describe('idempotency keys', () => {
  it('a fresh key per logical call, the caller key when given', async () => {
    const { fetch, seen } = scripted(ok());
    const client = clientWith(fetch);
    await client.run(RUN);
    await client.run(RUN);
    await client.run(RUN, { idempotencyKey: 'mine-1' });
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.notEqual(keys[0], keys[1]);
    assert.equal(keys[2], 'mine-1');
  });

  it('every operation that takes one sends one (fork too); truncate, cancel and reads send none', async () => {
    const session = { session: { id: 'ses_1', revision: 0 } };
    const { fetch, seen } = scripted(ok(session));
    const client = clientWith(fetch);
    await client.createSession({ provider: 'echo', model: 'echo-1', mode: 'history' });
    await client.forkSession('ses_1');
    await client.submitRunActions('run_1', { functionResults: [] } as never);
    await client.truncateSession('ses_1', { revision: 0, keepTurns: 0 } as never);
    await client.cancelRun('run_1');
    await client.readSession('ses_1');
    assert.deepEqual(
      seen.map((request) => [new URL(request.url).pathname, request.headers.has('Idempotency-Key')]),
      [
        ['/v1/sessions', true],
        ['/v1/sessions/ses_1/fork', true],
        ['/v1/runs/run_1/actions', true],
        ['/v1/sessions/ses_1/truncate', false],
        ['/v1/runs/run_1/cancel', false],
        ['/v1/sessions/ses_1', false],
      ],
    );
  });
});

describe('forkSession: keyed and retried as createSession is', () => {
  const FORK = { session: { id: 'ses_1.fork', revision: 1 } };
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const created = () => new Response(JSON.stringify(FORK), { status: 201, headers: { 'Content-Type': 'application/json' } });
  const refused = () => new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });

  it('sends one fresh key on every attempt of a call, kept across its retries', async () => {
    const full = problem(503, 'SESSION_STORE_FULL', {}, { 'Retry-After': '0' });
    const { fetch, seen } = scripted(full, refused, created);
    const { data, response } = await clientWith(fetch).forkSession('ses_1', { revision: 1 }).withResponse();
    assert.deepEqual(data, FORK);
    assert.equal(response.status, 201);
    assert.equal(seen.length, 3);
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.match(keys[0] ?? '', UUID_V4);
    assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);
    for (const request of seen) {
      assert.equal(request.method, 'POST');
      assert.equal(new URL(request.url).pathname, '/v1/sessions/ses_1/fork');
      assert.equal(request.headers.get('Content-Type'), 'application/json');
    }
    assert.deepEqual(await Promise.all(seen.map((request) => request.text())), Array(3).fill('{"revision":1}'));
  });

  it('a new key per logical call; the caller\'s key on every attempt; no body means {} (the current revision)', async () => {
    const { fetch, seen } = scripted(created);
    const client = clientWith(fetch);
    await client.forkSession('ses_1');
    await client.forkSession('ses_1', {});
    const busy = scripted(problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0' }), created);
    await clientWith(busy.fetch).forkSession('ses_1', undefined, { idempotencyKey: 'fork-mine-1' });
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.notEqual(keys[0], keys[1]);
    assert.deepEqual(busy.seen.map((request) => request.headers.get('Idempotency-Key')), ['fork-mine-1', 'fork-mine-1']);
    assert.deepEqual(await Promise.all([...seen, ...busy.seen].map((request) => request.text())), ['{}', '{}', '{}', '{}']);
  });

  it('the generated forkSession over client.raw gets a key too, the same on its retries', async () => {
    const { fetch, seen } = scripted(problem(409, 'IDEMPOTENCY_KEY_IN_USE', {}, { 'Retry-After': '0' }), created);
    const client = clientWith(fetch);
    const answer = await generated.forkSession({ client: client.raw, path: { sessionId: 'ses_1' }, body: {}, throwOnError: true });
    assert.deepEqual(answer.data, FORK);
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.match(keys[0] ?? '', UUID_V4);
    assert.equal(keys[1], keys[0]);
  });

  // Each answer, then a success: the fork makes exactly as many attempts as createSession.
  const cases: Array<[string, () => Response | Error, number]> = [
    ['HOST_BUSY', () => problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0' }), 2],
    ['SESSION_STORE_FULL', () => problem(503, 'SESSION_STORE_FULL', {}, { 'Retry-After': '0' }), 2],
    ['SHUTTING_DOWN', () => problem(503, 'SHUTTING_DOWN', {}, { 'Retry-After': '0' }), 2],
    ['IDEMPOTENCY_KEY_IN_USE', () => problem(409, 'IDEMPOTENCY_KEY_IN_USE', {}, { 'Retry-After': '0' }), 2],
    ['HOST_UNAVAILABLE', () => problem(503, 'HOST_UNAVAILABLE', { ownerHostId: 'alpha' }, { 'Retry-After': '0' }), 2],
    ["a proxy's 502 page", () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } }), 2],
    ['a connection failure', refused, 2],
    ['SESSION_BUSY', () => problem(409, 'SESSION_BUSY', { activeRunId: 'run_9' }, { 'Retry-After': '0' }), 1],
    ['SESSION_REVISION_CONFLICT', () => problem(409, 'SESSION_REVISION_CONFLICT', { currentRevision: 3 }, { 'x-should-retry': 'false' }), 1],
    ['SESSION_NOT_FOUND', () => problem(404, 'SESSION_NOT_FOUND'), 1],
    ['VALIDATION_ERROR', () => problem(422, 'VALIDATION_ERROR'), 1],
    ['PERMISSION_DENIED', () => problem(403, 'PERMISSION_DENIED'), 1],
    ['SESSIONS_DISABLED', () => problem(501, 'SESSIONS_DISABLED'), 1],
    ['SESSION_STORE_FULL with x-should-retry: false', () => problem(503, 'SESSION_STORE_FULL', {}, { 'Retry-After': '0', 'x-should-retry': 'false' }), 1],
  ];
  for (const [name, answer, attempts] of cases) {
    it(`${name}: ${attempts === 1 ? 'never retried' : 'retried'}, as createSession`, async () => {
      const fork = scripted(answer, created);
      const create = scripted(answer, created);
      const forked = await clientWith(fork.fetch).forkSession('ses_1').then(() => undefined, (error: unknown) => error);
      const createdSession = await clientWith(create.fetch)
        .createSession({ provider: 'echo', model: 'echo-1', mode: 'history' })
        .then(() => undefined, (error: unknown) => error);
      assert.equal(fork.seen.length, attempts);
      assert.equal(create.seen.length, attempts);
      assert.equal(forked?.constructor, createdSession?.constructor);
      if (attempts === 1) assert.ok(forked instanceof APIError, String(forked));
      if (name === 'SESSION_BUSY') assert.ok(forked instanceof SessionBusyError && forked.activeRunId === 'run_9');
      if (name === 'SESSION_REVISION_CONFLICT') assert.ok(forked instanceof SessionRevisionConflictError && forked.currentRevision === 3);
    });
  }

  it('a read timeout is not retried (a POST), as createSession', async () => {
    const { url, server, hits } = await serve(() => undefined);
    try {
      const client = new AgenticDriverClient({ baseUrl: url, timeouts: { read: 100 } });
      const error = await rejection(client.forkSession('ses_1'));
      assert.ok(error instanceof TimeoutError && error.kind === 'read', String(error));
      assert.equal(hits(), 1);
    } finally {
      await close(server);
    }
  });
});
