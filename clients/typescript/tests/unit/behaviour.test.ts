// clients/BEHAVIOUR.md, item by item: retries, idempotency keys, timeouts, the error tree,
// headers, logging, raw responses and the busy helper. A fake fetch where the wire does not
// matter; a local node:http server on 127.0.0.1 where it does (timeouts, broken connections).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';

import {
  AbortError,
  AgenticDriverClient,
  AgenticDriverError,
  APIError,
  ConnectionError,
  generated,
  HostBusyError,
  ProblemError,
  type ReadSessionResponse,
  SessionBusyError,
  SessionRevisionConflictError,
  TimeoutError,
  UnexpectedResponseError,
  UnknownProblemError,
  USER_AGENT,
  VERSION,
} from '../../src/index.js';
import { nextIdleWaitMs } from '../../src/client.js';
import { backoffMs, nodeDispatcher, retryableAnswer } from '../../src/transport.js';
import { rejection } from '../rejection.js';

const TOKEN = 'unit-token-0123456789';
const RUN = { provider: 'echo', model: 'echo-1', input: 'x' };
const RESULT = {
  id: 'run_1',
  status: 'completed',
  output: { text: 'echo: x' },
  usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: null,
  retries: { count: 0, inputTokens: 0, outputTokens: 0, cost: null },
  servedModel: 'echo-1',
};

function problem(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  const body = { type: `urn:agentic-driver:problem:${code}`, title: code, status, code, detail: code.toLowerCase(), ...extra };
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json', ...headers } });
}

const ok = (body: unknown = RESULT, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });

/** A fake fetch answering from a script (the last entry repeats); records every request. */
function scripted(...answers: Array<Response | Error | (() => Response | Error)>) {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    const next = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    const answer = typeof next === 'function' ? next() : next;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

function clientWith(fetch: typeof globalThis.fetch, extra: Partial<ConstructorParameters<typeof AgenticDriverClient>[0]> = {}) {
  return new AgenticDriverClient({ baseUrl: 'http://host.test', token: TOKEN, fetch, ...extra });
}

/** A local server; `handle` decides each answer. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    handle(request, response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, hits: () => hits };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((done) => server.close(() => done()));
}

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

describe('timeouts', () => {
  it('a read timeout of a GET is retried and then raised as TimeoutError("read")', async () => {
    const { url, server, hits } = await serve(() => undefined);
    try {
      const client = new AgenticDriverClient({ baseUrl: url, timeouts: { read: 100 }, maxRetries: 1 });
      const error = await rejection(client.getDiscovery());
      assert.ok(error instanceof TimeoutError && error.kind === 'read' && error.timeoutMs === 100, String(error));
      assert.ok(error instanceof ConnectionError);
      assert.equal(hits(), 2);
    } finally {
      await close(server);
    }
  });

  it('a read timeout of a POST is never retried (the host stops a run whose client hung up)', async () => {
    const { url, server, hits } = await serve(() => undefined);
    try {
      const client = new AgenticDriverClient({ baseUrl: url, timeouts: { read: 100 } });
      const error = await rejection(client.run(RUN));
      assert.ok(error instanceof TimeoutError && error.kind === 'read', String(error));
      assert.equal(hits(), 1);
    } finally {
      await close(server);
    }
  });

  it('the read timeout also bounds silence inside a JSON body; a call may override it', async () => {
    const { url, server } = await serve((_, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"status":'); // and never the rest
    });
    try {
      const client = new AgenticDriverClient({ baseUrl: url });
      const error = await rejection(client.getHealth({ timeouts: { read: 100 } }));
      assert.ok(error instanceof TimeoutError && error.kind === 'read', String(error));
    } finally {
      await close(server);
    }
  });

  it('a stream silent for longer than streamIdle fails with TimeoutError("stream-idle")', async () => {
    const { url, server } = await serve((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('data: {"type":"run.started","runId":"run_1"}\n\n'); // then silence
    });
    try {
      const client = new AgenticDriverClient({ baseUrl: url, timeouts: { streamIdle: 150 } });
      const stream = await client.streamRun(RUN);
      const types: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const event of stream) types.push(event.type);
        })(),
      );
      assert.deepEqual(types, ['run.started']);
      assert.ok(error instanceof TimeoutError && error.kind === 'stream-idle' && error.timeoutMs === 150, String(error));
    } finally {
      await close(server);
    }
  });

  it('a stream cut after its head is a ConnectionError, never a bare "terminated"', async () => {
    const { url, server } = await serve((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('data: {"type":"run.started","runId":"run_1"}\n\n', () => setTimeout(() => response.socket?.destroy(), 20));
    });
    try {
      const stream = await new AgenticDriverClient({ baseUrl: url }).streamRun(RUN);
      const error = await rejection(
        (async () => {
          for await (const _ of stream) {
            // draining
          }
        })(),
      );
      assert.ok(error instanceof ConnectionError && !(error instanceof TimeoutError), String(error));
    } finally {
      await close(server);
    }
  });

  it('under Node, the platform fetch is given a dispatcher with the connect timeout, and undici limits off', async () => {
    await nodeDispatcher(1234); // made with the real fetch, before the spy below
    const platform = globalThis.fetch;
    let dispatcher: unknown;
    globalThis.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      dispatcher = (init as { dispatcher?: unknown } | undefined)?.dispatcher;
      return ok({ status: 'ok' });
    }) as typeof fetch;
    try {
      await new AgenticDriverClient({ baseUrl: 'http://host.test', timeouts: { connect: 1234 } }).getHealth();
    } finally {
      globalThis.fetch = platform;
    }
    const agent = (dispatcher as { agent: object }).agent; // behind the 421 keeper (transport.ts, keeping421)
    assert.equal((agent as { constructor: { name: string } }).constructor.name, 'Agent');
    const options = Object.getOwnPropertySymbols(agent)
      .filter((symbol) => symbol.description === 'options')
      .map((symbol) => (agent as Record<symbol, unknown>)[symbol])[0] as Record<string, unknown>;
    assert.deepEqual(options.connect, { timeout: 1234 });
    assert.equal(options.headersTimeout, 0);
    assert.equal(options.bodyTimeout, 0);
  });

  it('with the caller\'s own fetch, no dispatcher is passed', async () => {
    let init: RequestInit | undefined;
    const fetch = (async (_input: RequestInfo | URL, given?: RequestInit) => {
      init = given;
      return ok({ status: 'ok' });
    }) as typeof globalThis.fetch;
    await clientWith(fetch).getHealth();
    assert.equal((init as { dispatcher?: unknown }).dispatcher, undefined);
  });
});

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

describe('waitUntilIdle', () => {
  const read = (status: string, revision: number): ReadSessionResponse =>
    ({ session: { id: 'ses_1', revision, status }, instructions: null, history: [], turns: [] }) as unknown as ReadSessionResponse;

  it('reads until the session is no longer running and returns that read', async () => {
    const { fetch, seen } = scripted(ok(read('running', 0)), ok(read('running', 0)), ok(read('ready', 1)));
    const idle = await clientWith(fetch).waitUntilIdle('ses_1');
    assert.equal(idle.session.status, 'ready');
    assert.equal(idle.session.revision, 1);
    assert.equal(seen.length, 3);
    assert.ok(seen.every((request) => request.method === 'GET' && new URL(request.url).pathname === '/v1/sessions/ses_1'));
  });

  it('waits first for the busy error\'s Retry-After', async () => {
    const { fetch } = scripted(ok(read('ready', 1)));
    const busy = new SessionBusyError(409, { type: 't', title: 't', status: 409, code: 'SESSION_BUSY', detail: 'd', activeRunId: 'run_1', retryAfterSeconds: 0.3 });
    const started = Date.now();
    await clientWith(fetch).waitUntilIdle('ses_1', { busy });
    assert.ok(Date.now() - started >= 290, `waited ${Date.now() - started} ms`);
  });

  it('raises TimeoutError("idle-wait") past its bound', async () => {
    const { fetch } = scripted(ok(read('running', 0)));
    const error = await rejection(clientWith(fetch).waitUntilIdle('ses_1', { timeout: 300 }));
    assert.ok(error instanceof TimeoutError && error.kind === 'idle-wait' && error.timeoutMs === 300, String(error));
  });

  it('honours the caller\'s signal', async () => {
    const { fetch } = scripted(ok(read('running', 0)));
    const error = await rejection(clientWith(fetch).waitUntilIdle('ses_1', { signal: AbortSignal.timeout(150) }));
    assert.ok(error instanceof AbortError, String(error));
  });

  it('makes each wait twice the one before (a wait under 0.1 s counting as 0.1 s), at most 1 s', () => {
    const schedules = [
      [100, 200, 400, 800, 1000, 1000], // no busy error
      [0, 200, 400], // Retry-After: 0
      [1000, 1000, 1000], // Retry-After: 1
      [3000, 1000], // Retry-After: 3
    ];
    for (const schedule of schedules) {
      for (let i = 1; i < schedule.length; i++) assert.equal(nextIdleWaitMs(schedule[i - 1]!), schedule[i], String(schedule));
    }
  });
});
