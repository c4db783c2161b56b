// clients/BEHAVIOUR.md, "Resuming a stream": a stream of a run sent with onDisconnect: continue
// (and every streamRunEvents stream) that drops before the run's last event is rejoined with
// Last-Event-ID, each event delivered once, within the call's retry budget. A fake fetch whose
// event streams end as each test says: an error (a reset), a clean end, or silence.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  AbortError,
  AgenticDriverClient,
  ConnectionError,
  RunEventsExpiredError,
  type RunStreamEvent,
  TimeoutError,
  UnexpectedResponseError,
} from '../../src/index.js';
import { rejection } from '../rejection.js';

const TOKEN = 'unit-token-0123456789';
const RUN_ID = 'run_beta.AAECAwQFBgcICQoLDA0ODw';
const CONTINUE = { provider: 'echo', model: 'echo-1', input: 'x', onDisconnect: 'continue' } as const;
const RESULT = {
  id: RUN_ID,
  status: 'completed',
  output: { text: 'echo: x' },
  usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: null,
  retries: { count: 0, inputTokens: 0, outputTokens: 0, cost: null },
  servedModel: 'echo-1',
};

/** The run's events by id: 1 is run.started, the last (`LAST`) run.completed, the others deltas. */
const LAST = 6;
function event(id: number): Record<string, unknown> {
  if (id === 1) return { type: 'run.started', runId: RUN_ID };
  if (id === LAST) return { type: 'run.completed', runId: RUN_ID, run: RESULT };
  return { type: 'output.delta', runId: RUN_ID, text: `d${id}` };
}

type End = 'finish' | 'reset' | 'stall';

/**
 * An event stream answer carrying `ids` (as the host writes them), then ending as `end` says; as
 * fetch's own body does, it fails when the request's signal aborts (the client's timers, a close).
 */
function sse(ids: number[], end: End = 'finish'): (signal: AbortSignal | null) => Response {
  return (signal) => {
    const text = ids.map((id) => `id: ${id}\nevent: ${String(event(id).type)}\ndata: ${JSON.stringify(event(id))}\n\n`).join('');
    let sent = text === '';
    let stop: ((reason: unknown) => void) | undefined;
    signal?.addEventListener('abort', () => stop?.(signal.reason), { once: true });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        stop = (reason) => controller.error(reason);
      },
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode(text));
          return undefined;
        }
        if (end === 'finish') controller.close();
        else if (end === 'reset') controller.error(new TypeError('terminated', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }));
        return end === 'stall' ? new Promise<void>(() => undefined) : undefined; // stall: nothing more until aborted
      },
    }, { highWaterMark: 0 });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  };
}

function problem(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): () => Response {
  const body = { type: `urn:agentic-driver:problem:${code}`, title: code, status, code, detail: code.toLowerCase(), ...extra };
  return () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json', ...headers } });
}

/** A fake fetch answering from a script (the last entry repeats); records every request. */
function scripted(...answers: Array<(signal: AbortSignal | null) => Response>) {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return answers[Math.min(seen.length - 1, answers.length - 1)]!(init?.signal ?? null);
  };
  const requests = () => seen.map((request) => `${request.method} ${decodeURIComponent(new URL(request.url).pathname)}`);
  const header = (name: string) => seen.map((request) => request.headers.get(name));
  return { fetch: fetch as typeof globalThis.fetch, seen, requests, header };
}

function clientWith(fetch: typeof globalThis.fetch, extra: Partial<ConstructorParameters<typeof AgenticDriverClient>[0]> = {}) {
  return new AgenticDriverClient({ baseUrl: 'http://host.test', token: TOKEN, fetch, ...extra });
}

/** The ids of the events a stream delivers (deltas as `d<id>`), read to its end. */
async function drain(stream: AsyncIterable<RunStreamEvent>): Promise<string[]> {
  const delivered: string[] = [];
  for await (const item of stream) {
    delivered.push(item.type === 'output.delta' ? item.text : item.type);
  }
  return delivered;
}

const ALL = ['run.started', 'd2', 'd3', 'd4', 'd5', 'run.completed'];
const EVENTS_PATH = `GET /v1/runs/${RUN_ID}/events`;

describe('resuming a continue stream', () => {
  it('rejoins after a reset with Last-Event-ID and Agentic-Host from the run id, each event once', async () => {
    // The rejoin starts earlier than asked (as a joined retry does): the client skips what it delivered.
    const { fetch, requests, header } = scripted(sse([1, 2, 3], 'reset'), sse([2, 3, 4, 5, 6]));
    const stream = await clientWith(fetch).streamRun(CONTINUE);
    assert.deepEqual(await drain(stream), ALL);
    assert.deepEqual(requests(), ['POST /v1/runs/stream', EVENTS_PATH]);
    assert.deepEqual(header('Last-Event-ID'), [null, '3']);
    assert.deepEqual(header('Agentic-Host'), [null, 'beta']);
    assert.equal(header('Authorization')[1], `Bearer ${TOKEN}`);
    assert.equal(header('Idempotency-Key')[1], null, 'the rejoin is a GET: no key');
    assert.equal(stream.lastEventId, String(LAST));
  });

  it('rejoins after a body that simply ends before the last event', async () => {
    const { fetch, requests } = scripted(sse([1, 2], 'finish'), sse([3, 4, 5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch).streamRun(CONTINUE)), ALL);
    assert.deepEqual(requests(), ['POST /v1/runs/stream', EVENTS_PATH]);
  });

  it('rejoins after a stream-idle timeout', async () => {
    const { fetch, header } = scripted(sse([1, 2, 3, 4], 'stall'), sse([5, 6]));
    const client = clientWith(fetch, { timeouts: { streamIdle: 100 } });
    assert.deepEqual(await drain(await client.streamRun(CONTINUE)), ALL);
    assert.deepEqual(header('Last-Event-ID'), [null, '4']);
  });

  it('sends the streamRun again with the same Idempotency-Key when it dropped before run.started', async () => {
    const { fetch, requests, header } = scripted(sse([], 'reset'), sse([1, 2, 3, 4, 5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch).streamRun(CONTINUE, { idempotencyKey: 'key-1' })), ALL);
    assert.deepEqual(requests(), ['POST /v1/runs/stream', 'POST /v1/runs/stream']);
    assert.deepEqual(header('Idempotency-Key'), ['key-1', 'key-1']);
    const generated = scripted(sse([], 'finish'), sse([1, 2, 3, 4, 5, 6]));
    await drain(await clientWith(generated.fetch).streamRun(CONTINUE));
    const keys = generated.header('Idempotency-Key');
    assert.ok(keys[0] !== null && keys[0] === keys[1], `one key for both: ${JSON.stringify(keys)}`);
  });

  it('never resumes a run sent without continue: the drop is raised as ConnectionError', async () => {
    for (const end of ['reset', 'finish'] as const) {
      const { fetch, seen } = scripted(sse([1, 2], end), sse([3, 4, 5, 6]));
      const delivered: string[] = [];
      const error = await rejection(drain(await clientWith(fetch).streamRun({ ...CONTINUE, onDisconnect: 'cancel' })).then((d) => delivered.push(...d)));
      assert.ok(error instanceof ConnectionError && !(error instanceof TimeoutError), `${end}: ${String(error)}`);
      assert.equal(seen.length, 1, `${end}: nothing is sent again`);
    }
  });

  it('a stream ending after an event type newer than the client ends quietly (a later contract may end runs so)', async () => {
    const later = () =>
      new Response('id: 1\nevent: run.started\ndata: {"type":"run.started","runId":"r"}\n\nid: 2\nevent: run.handed_off\ndata: {"type":"run.handed_off"}\n\n', {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
      });
    for (const body of [CONTINUE, { ...CONTINUE, onDisconnect: 'cancel' as const }]) {
      const { fetch, seen } = scripted(later);
      assert.deepEqual(await drain(await clientWith(fetch).streamRun(body)), ['run.started', 'unknown']);
      assert.equal(seen.length, 1);
    }
  });

  it('rejoins an actions stream sent with continue after its last delivered event', async () => {
    const { fetch, requests, header } = scripted(sse([4, 5], 'reset'), sse([6]));
    const stream = await clientWith(fetch).streamRunActions(RUN_ID, { functionResults: [], onDisconnect: 'continue' } as never);
    assert.deepEqual(await drain(stream), ['d4', 'd5', 'run.completed']);
    assert.deepEqual(requests(), [`POST /v1/runs/${RUN_ID}/actions/stream`, EVENTS_PATH]);
    assert.deepEqual(header('Last-Event-ID'), [null, '5']);
    assert.deepEqual(header('Agentic-Host'), ['beta', 'beta']);
  });

  it('sends an actions stream that dropped before its first event again, with the same key (the host joins it)', async () => {
    const { fetch, requests, header } = scripted(sse([], 'reset'), sse([4, 5, 6]));
    const stream = await clientWith(fetch).streamRunActions(RUN_ID, { functionResults: [], onDisconnect: 'continue' } as never, { idempotencyKey: 'k' });
    assert.deepEqual(await drain(stream), ['d4', 'd5', 'run.completed']);
    const actions = `POST /v1/runs/${RUN_ID}/actions/stream`;
    assert.deepEqual(requests(), [actions, actions]);
    assert.deepEqual(header('Idempotency-Key'), ['k', 'k']);
  });
});

describe('the resume budget', () => {
  /** A proxy's page that asks for no wait: a rejoin that failed before its head, retried at once. */
  const gateway = () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html', 'Retry-After': '0' } });

  it('rejoins that deliver nothing new use the retry budget; when it is spent, the last failure is raised', async () => {
    // The first rejoin is free; each one after it that brings nothing new is one of the 2 retries.
    const { fetch, requests } = scripted(sse([1, 2], 'reset'), sse([1, 2], 'reset'));
    const error = await rejection(drain(await clientWith(fetch).streamRun(CONTINUE)));
    assert.ok(error instanceof ConnectionError, String(error));
    assert.deepEqual(requests(), ['POST /v1/runs/stream', EVENTS_PATH, EVENTS_PATH, EVENTS_PATH]);
  });

  it('the first rejoin after a drop is not a retry: maxRetries 0 still rejoins once', async () => {
    const { fetch, requests, header } = scripted(sse([1, 2], 'reset'), sse([3, 4, 5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch, { maxRetries: 0 }).streamRun(CONTINUE)), ALL);
    assert.deepEqual(requests(), ['POST /v1/runs/stream', EVENTS_PATH]);
    assert.deepEqual(header('Last-Event-ID'), [null, '2']);
    // Per call too, and after each drop: every rejoin that delivers makes the next drop's rejoin free again.
    const again = scripted(sse([1, 2], 'reset'), sse([3, 4], 'finish'), sse([5, 6]));
    assert.deepEqual(await drain(await clientWith(again.fetch).streamRun(CONTINUE, { maxRetries: 0 })), ALL);
    assert.deepEqual(again.header('Last-Event-ID'), [null, '2', '4']);
  });

  it('with maxRetries 0 the first rejoin that fails is raised', async () => {
    const failed = scripted(sse([1, 2], 'reset'), gateway);
    const error = await rejection(drain(await clientWith(failed.fetch, { maxRetries: 0 }).streamRun(CONTINUE)));
    assert.ok(error instanceof UnexpectedResponseError && error.status === 502, String(error));
    assert.deepEqual(failed.requests(), ['POST /v1/runs/stream', EVENTS_PATH]);
    // A rejoined stream that ends again without a new event failed too: its drop is raised.
    for (const end of ['reset', 'finish'] as const) {
      const empty = scripted(sse([1, 2], 'reset'), sse([2], end));
      const dropped = await rejection(drain(await clientWith(empty.fetch, { maxRetries: 0 }).streamRun(CONTINUE)));
      assert.ok(dropped instanceof ConnectionError && !(dropped instanceof TimeoutError), `${end}: ${String(dropped)}`);
      assert.deepEqual(empty.requests(), ['POST /v1/runs/stream', EVENTS_PATH], end);
    }
  });

  it('the first rejoin has the whole budget even when the request that opened the stream used retries', async () => {
    // Opened after both retries, then dropped before its first event: sent again at once, with 2 retries of its own.
    const { fetch, requests } = scripted(gateway, gateway, sse([], 'reset'), gateway, gateway, sse([1, 2, 3, 4, 5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch).streamRun(CONTINUE)), ALL);
    assert.deepEqual(requests(), Array(6).fill('POST /v1/runs/stream'));
  });

  it('a rejoin that delivers a new event gives the budget back', async () => {
    const { fetch, header } = scripted(sse([1], 'reset'), sse([2], 'reset'), sse([3], 'finish'), sse([4], 'reset'), sse([5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch, { maxRetries: 1 }).streamRun(CONTINUE)), ALL);
    assert.deepEqual(header('Last-Event-ID'), [null, '1', '2', '3', '4']);
    // One retry in all; two rejoins fail, but each failure follows a drop after news.
    const failing = scripted(sse([1, 2], 'reset'), gateway, sse([3, 4], 'reset'), gateway, sse([5, 6]));
    assert.deepEqual(await drain(await clientWith(failing.fetch, { maxRetries: 1 }).streamRun(CONTINUE)), ALL);
    assert.deepEqual(failing.header('Last-Event-ID'), [null, '2', '2', '4', '4']);
  });

  it('a rejoin that ends with nothing new is retried after a backoff; the first rejoin is at once', async () => {
    const at: number[] = [];
    const { fetch: inner, requests } = scripted(sse([1, 2], 'reset'), sse([2], 'finish'), sse([3, 4, 5, 6]));
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      at.push(Date.now());
      return inner(input, init);
    }) as typeof globalThis.fetch;
    assert.deepEqual(await drain(await clientWith(fetch, { maxRetries: 1 }).streamRun(CONTINUE)), ALL);
    assert.deepEqual(requests(), ['POST /v1/runs/stream', EVENTS_PATH, EVENTS_PATH]);
    assert.ok(at[1]! - at[0]! < 300, `the first rejoin waited ${at[1]! - at[0]!} ms`);
    assert.ok(at[2]! - at[1]! >= 370, `the retried rejoin waited only ${at[2]! - at[1]!} ms`); // 0.5 s * [0.75, 1.0]
  });

  it('a proxy 502 on the rejoin is retried; a 421 is followed once to its owner, which later rejoins keep', async () => {
    const page = () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    const misdirected = problem(421, 'MISDIRECTED_REQUEST', { hostId: 'other', ownerHostId: 'gamma' });
    const { fetch, requests, header } = scripted(sse([1, 2], 'reset'), misdirected, page, sse([3, 4, 5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch).streamRun(CONTINUE)), ALL);
    assert.deepEqual(requests(), ['POST /v1/runs/stream', EVENTS_PATH, EVENTS_PATH, EVENTS_PATH]);
    assert.deepEqual(header('Agentic-Host'), [null, 'beta', 'gamma', 'gamma']);
    assert.deepEqual(header('Last-Event-ID'), [null, '2', '2', '2']);
  });

  it('a proxy page that persists is raised when the budget is spent', async () => {
    const page = () => new Response('<h1>Gateway Timeout</h1>', { status: 504, headers: { 'Content-Type': 'text/html', 'Retry-After': '0' } });
    const { fetch, seen } = scripted(sse([1, 2], 'reset'), page);
    const error = await rejection(drain(await clientWith(fetch).streamRun(CONTINUE)));
    assert.ok(error instanceof UnexpectedResponseError && error.status === 504, String(error));
    assert.equal(seen.length, 4, 'the stream, the free rejoin, and its 2 retries');
  });
});

describe('refusals of a rejoin', () => {
  it('RUN_EVENTS_EXPIRED is raised at once as RunEventsExpiredError with firstEventId', async () => {
    const { fetch, seen } = scripted(sse([1, 2], 'reset'), problem(410, 'RUN_EVENTS_EXPIRED', { firstEventId: 40 }));
    const delivered: string[] = [];
    const stream = await clientWith(fetch).streamRun(CONTINUE);
    const error = await rejection(
      (async () => {
        for await (const item of stream) delivered.push(item.type);
      })(),
    );
    assert.ok(error instanceof RunEventsExpiredError, String(error));
    const first: number = error.firstEventId; // not optional in the type
    assert.equal(first, 40);
    assert.equal(error.status, 410);
    assert.deepEqual(delivered, ['run.started', 'output.delta']);
    assert.equal(seen.length, 2, 'not retried');
  });

  it('RUN_NOT_FOUND is raised as usual', async () => {
    const { fetch, seen } = scripted(sse([1, 2], 'reset'), problem(404, 'RUN_NOT_FOUND'));
    const error = await rejection(drain(await clientWith(fetch).streamRun(CONTINUE)));
    assert.equal((error as { code?: string }).code, 'RUN_NOT_FOUND');
    assert.equal(seen.length, 2);
  });

  it("the caller's abort during the wait before a rejoin rejects with AbortError and sends nothing more", async () => {
    // The first rejoin is at once and brings nothing new; the wait is before its retry.
    const { fetch, seen } = scripted(sse([1], 'reset'), sse([1], 'reset'), sse([2, 3, 4, 5, 6]));
    const controller = new AbortController();
    const stream = await clientWith(fetch).streamRun(CONTINUE, { signal: controller.signal });
    const error = await rejection(
      (async () => {
        for await (const item of stream) if (item.type === 'run.started') setTimeout(() => controller.abort(), 50);
      })(),
    );
    assert.ok(error instanceof AbortError, String(error));
    assert.equal(seen.length, 2);
  });
});

describe('getRun and streamRunEvents', () => {
  it('getRun reads GET /v1/runs/{runId} with Agentic-Host from the run id', async () => {
    const state = { id: RUN_ID, status: 'completed', onDisconnect: 'continue', firstEventId: 1, lastEventId: 6, result: RESULT };
    const ok = () => new Response(JSON.stringify(state), { status: 200, headers: { 'Content-Type': 'application/json' } });
    const { fetch, requests, header } = scripted(ok);
    const read = await clientWith(fetch).getRun(RUN_ID);
    assert.deepEqual(read, state);
    assert.deepEqual(requests(), [`GET /v1/runs/${RUN_ID}`]);
    assert.deepEqual(header('Agentic-Host'), ['beta']);
  });

  it('getRun is retried after a connection failure (a GET)', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response('{"id":"r"}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof globalThis.fetch;
    await clientWith(fetch).getRun(RUN_ID);
    assert.equal(calls, 2);
  });

  it('streamRunEvents sends the caller\'s Last-Event-ID, and resumes by itself after the last delivered event', async () => {
    const { fetch, requests, header } = scripted(sse([4], 'reset'), sse([4, 5, 6]));
    const stream = await clientWith(fetch).streamRunEvents(RUN_ID, { lastEventId: 3 });
    assert.equal(stream.lastEventId, '3');
    assert.deepEqual(await drain(stream), ['d4', 'd5', 'run.completed']);
    assert.deepEqual(requests(), [EVENTS_PATH, EVENTS_PATH]);
    assert.deepEqual(header('Last-Event-ID'), ['3', '4']);
    assert.deepEqual(header('Agentic-Host'), ['beta', 'beta']);
  });

  it('streamRunEvents without lastEventId reads from the first event; a rejoin before any event sends none either', async () => {
    const { fetch, header } = scripted(sse([], 'reset'), sse([1, 2, 3, 4, 5, 6]));
    assert.deepEqual(await drain(await clientWith(fetch).streamRunEvents(RUN_ID)), ALL);
    assert.deepEqual(header('Last-Event-ID'), [null, null]);
  });

  it('streamRunEvents sends a lastEventId that is not an id as given (the host refuses it)', async () => {
    const { fetch, header } = scripted(problem(422, 'VALIDATION_ERROR'));
    const error = await rejection(clientWith(fetch).streamRunEvents(RUN_ID, { lastEventId: 'x1' }));
    assert.equal((error as { code?: string }).code, 'VALIDATION_ERROR');
    assert.deepEqual(header('Last-Event-ID'), ['x1']);
  });
});
