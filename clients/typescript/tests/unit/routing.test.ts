// clients/BEHAVIOUR.md, "Routing": Agentic-Host from the id, one 421 followed to its owner,
// HOST_UNAVAILABLE retried then typed. A fake fetch: only the requests matter.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  AgenticDriverClient,
  APIError,
  generated,
  HostUnavailableError,
  MisdirectedRequestError,
  ProblemError,
} from '../../src/index.js';
import { hostOf, routingHost } from '../../src/transport.js';
import { rejection } from '../rejection.js';

const TOKEN = 'unit-token-0123456789';
const ECHO = { provider: 'echo', model: 'echo-1' };
const SESSION = 'ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ';
const RUN_ID = 'run_beta.AAECAwQFBgcICQoLDA0ODw';
const CANCELLED = { id: RUN_ID, status: 'cancelled', modelWorkStarted: false };

function problem(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  const body = { type: `urn:agentic-driver:problem:${code}`, title: code, status, code, detail: code.toLowerCase(), ...extra };
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json', ...headers } });
}

const misdirected = (owner = 'alpha-1', answeredBy = 'other-host') =>
  problem(421, 'MISDIRECTED_REQUEST', { hostId: answeredBy, ownerHostId: owner });
const notFound = () => problem(404, 'SESSION_NOT_FOUND');
const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** A fake fetch answering from a script (the last entry repeats); records every request. */
function scripted(...answers: Array<() => Response>) {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return answers[Math.min(seen.length - 1, answers.length - 1)]!();
  };
  const hosts = () => seen.map((request) => request.headers.get('Agentic-Host'));
  return { fetch: fetch as typeof globalThis.fetch, seen, hosts };
}

function clientWith(fetch: typeof globalThis.fetch, maxRetries?: number) {
  return new AgenticDriverClient({ baseUrl: 'http://host.test', token: TOKEN, fetch, ...(maxRetries === undefined ? {} : { maxRetries }) });
}

describe('the owner of an id', () => {
  const cases: Array<[string, string | undefined]> = [
    [SESSION, 'alpha-1'],
    [RUN_ID, 'beta'],
    ['ses_a.x', 'a'],
    ['ses_0.x', '0'],
    [`ses_${'a'.repeat(63)}.x`, 'a'.repeat(63)],
    ['run_host-7.with.more.dots', 'host-7'],
    ['ses_alpha.', 'alpha'],
    ['ses_k3Jx9_Qw-Zp0aBcDeFgHiJ', undefined], // an old id: no host part
    [`ses_${'a'.repeat(64)}.x`, undefined], // longer than a DNS label
    ['ses_Alpha.x', undefined],
    ['ses_-alpha.x', undefined],
    ['ses_alpha-.x', undefined],
    ['ses_al_pha.x', undefined],
    ['ses_.x', undefined],
    ['sess_alpha.x', undefined],
    ['alpha.x', undefined],
    ['', undefined],
  ];
  for (const [id, host] of cases) {
    it(`${JSON.stringify(id)} -> ${String(host)}`, () => assert.equal(hostOf(id), host));
  }

  it('routingHost reads the path, else a run body (parsed or as JSON text)', () => {
    assert.equal(routingHost(`/v1/sessions/${encodeURIComponent(SESSION)}/truncate`, undefined), 'alpha-1');
    assert.equal(routingHost(`/v1/sessions/${encodeURIComponent(SESSION)}/fork`, JSON.stringify({ revision: 1 })), 'alpha-1');
    assert.equal(routingHost(`/v1/runs/${RUN_ID}/actions/stream`, undefined), 'beta');
    assert.equal(routingHost('/v1/runs/stream', JSON.stringify({ ...ECHO, input: 'x', session: { id: SESSION, revision: 0 } })), 'alpha-1');
    assert.equal(routingHost('/v1/runs', { ...ECHO, input: 'x' }), undefined);
    assert.equal(routingHost('/v1/runs', 'not json'), undefined);
    assert.equal(routingHost('/v1/sessions', { ...ECHO, mode: 'history' }), undefined);
    assert.equal(routingHost('/v1/discovery', undefined), undefined);
  });
});

describe('Agentic-Host', () => {
  it('is sent on every request that names a session or run, and on no other', async () => {
    const { fetch, hosts } = scripted(notFound);
    const client = clientWith(fetch);
    const handle = { id: SESSION, revision: 0 };
    const calls: Array<[string, () => Promise<unknown>, string | null]> = [
      ['discovery', () => client.getDiscovery(), null],
      ['health', () => client.getHealth(), null],
      ['create', () => client.createSession({ ...ECHO, mode: 'history' }), null],
      ['stateless run', () => client.run({ ...ECHO, input: 'x' }), null],
      ['stateless stream', () => client.streamRun({ ...ECHO, input: 'x' }), null],
      ['session run', () => client.run({ ...ECHO, input: 'x', session: handle }), 'alpha-1'],
      ['session stream', () => client.streamRun({ ...ECHO, input: 'x', session: handle }), 'alpha-1'],
      ['read', () => client.readSession(SESSION), 'alpha-1'],
      ['truncate', () => client.truncateSession(SESSION, { revision: 0, keepTurns: 0 }), 'alpha-1'],
      ['fork', () => client.forkSession(SESSION), 'alpha-1'],
      ['fork at a boundary', () => client.forkSession(SESSION, { revision: 2 }), 'alpha-1'],
      ['delete', () => client.deleteSession(SESSION), 'alpha-1'],
      ['actions', () => client.submitRunActions(RUN_ID, { approvals: [{ callId: 'c', approve: true }] }), 'beta'],
      ['actions stream', () => client.streamRunActions(RUN_ID, { approvals: [{ callId: 'c', approve: true }] }), 'beta'],
      ['cancel', () => client.cancelRun(RUN_ID), 'beta'],
      ['old session id', () => client.readSession('ses_k3Jx9_Qw-Zp0aBcDeFgHiJ'), null],
    ];
    for (const [name, call] of calls) assert.ok((await rejection(call())) instanceof APIError, name);
    assert.deepEqual(
      hosts().map((host, i) => [calls[i]![0], host]),
      calls.map(([name, , host]) => [name, host]),
    );
  });

  it('the generated SDK functions over client.raw send it too', async () => {
    const { fetch, hosts } = scripted(notFound);
    const client = clientWith(fetch);
    await rejection(generated.readSession({ client: client.raw, path: { sessionId: SESSION }, throwOnError: true }));
    await rejection(generated.run({ client: client.raw, body: { ...ECHO, input: 'x', session: { id: SESSION, revision: 1 } }, throwOnError: true }));
    await rejection(generated.run({ client: client.raw, body: { ...ECHO, input: 'x' }, throwOnError: true }));
    await rejection(generated.forkSession({ client: client.raw, path: { sessionId: SESSION }, body: {}, throwOnError: true }));
    assert.deepEqual(hosts(), ['alpha-1', 'alpha-1', null, 'alpha-1']);
  });
});

describe('421 MISDIRECTED_REQUEST', () => {
  it('is followed once, at once, to its ownerHostId, and is not one of the retries', async () => {
    const { fetch, hosts } = scripted(() => misdirected('gamma'), () => ok(CANCELLED));
    const started = Date.now();
    const answer = await clientWith(fetch, 0).cancelRun(RUN_ID);
    assert.deepEqual(answer, CANCELLED);
    assert.deepEqual(hosts(), ['beta', 'gamma']);
    assert.ok(Date.now() - started < 400, 'no backoff before the follow-up');
  });

  it('a fork follows it to the owner with the same key and body', async () => {
    const { fetch, seen, hosts } = scripted(() => misdirected('gamma'), () => ok({ session: { id: 'ses_gamma.fork', revision: 1 } }));
    const answer = await clientWith(fetch, 0).forkSession(SESSION, { revision: 1 });
    assert.equal(answer.session.id, 'ses_gamma.fork');
    assert.deepEqual(hosts(), ['alpha-1', 'gamma']);
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.ok(keys[0] !== null && keys[0] === keys[1], String(keys));
    assert.deepEqual(await Promise.all(seen.map((request) => request.text())), ['{"revision":1}', '{"revision":1}']);
  });

  it('keeps the Idempotency-Key and the body', async () => {
    const { fetch, seen } = scripted(misdirected);
    await rejection(clientWith(fetch).run({ ...ECHO, input: 'once', session: { id: SESSION, revision: 3 } }));
    assert.equal(seen.length, 2);
    assert.equal(new Set(seen.map((request) => request.headers.get('Idempotency-Key'))).size, 1);
    const bodies = await Promise.all(seen.map((request) => request.text()));
    assert.equal(bodies[0], bodies[1]);
  });

  it('a second 421 is MisdirectedRequestError with both hosts, after two attempts', async () => {
    const { fetch, seen } = scripted(() => misdirected('alpha-1', 'delta'));
    const error = await rejection(clientWith(fetch).readSession(SESSION));
    assert.ok(error instanceof MisdirectedRequestError && error instanceof ProblemError, String(error));
    assert.equal(seen.length, 2);
    assert.deepEqual([error.status, error.code, error.hostId, error.ownerHostId], [421, 'MISDIRECTED_REQUEST', 'delta', 'alpha-1']);
  });

  it('after a retry it is still followed, and later retries keep the owner', async () => {
    const busy = () => problem(503, 'HOST_BUSY', {}, { 'Retry-After': '0' });
    const { fetch, hosts } = scripted(busy, () => misdirected('gamma'), busy, notFound);
    await rejection(clientWith(fetch).readSession(SESSION));
    assert.deepEqual(hosts(), ['alpha-1', 'alpha-1', 'gamma', 'gamma']);
  });

  it('is not followed without an ownerHostId that is a DNS label', async () => {
    const { fetch, seen } = scripted(() => misdirected('Not A Label'));
    await rejection(clientWith(fetch).readSession(SESSION));
    assert.equal(seen.length, 1);
  });

  it('a streamed run follows it before its head', async () => {
    const events = 'event: later.kind\ndata: {"type":"later.kind","n":1}\n\n';
    const stream = () => new Response(events, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    const { fetch, hosts } = scripted(() => misdirected('gamma'), stream);
    const received = [];
    for await (const event of await clientWith(fetch).streamRun({ ...ECHO, input: 'x', session: { id: SESSION, revision: 0 } })) {
      received.push(event.type === 'unknown' ? event.eventType : event.type);
    }
    assert.deepEqual(received, ['later.kind']);
    assert.deepEqual(hosts(), ['alpha-1', 'gamma']);
  });
});

describe('HOST_UNAVAILABLE', () => {
  it('is retried after Retry-After, then HostUnavailableError with its ownerHostId', async () => {
    const down = () => problem(503, 'HOST_UNAVAILABLE', { ownerHostId: 'alpha-1' }, { 'Retry-After': '0' });
    const { fetch, seen } = scripted(down);
    const error = await rejection(clientWith(fetch).readSession(SESSION));
    assert.ok(error instanceof HostUnavailableError, String(error));
    assert.equal(seen.length, 3);
    assert.deepEqual([error.status, error.ownerHostId], [503, 'alpha-1']);
  });
});
