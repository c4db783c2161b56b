// The hand-written client against a fake fetch: what it sends, and how it reads answers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  AgenticDriverClient,
  attachment,
  DEFAULT_BASE_URL,
  handle,
  type RunStreamEvent,
  SessionBusyError,
  type SessionInfo,
  StreamProtocolError,
  UnexpectedResponseError,
} from '../../src/index.js';

interface Exchange {
  request: Request;
  body: string;
}

function fakeFetch(answer: (request: Request) => Response | Promise<Response>): { fetch: typeof fetch; seen: Exchange[] } {
  const seen: Exchange[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push({ request, body: await request.clone().text() });
    return answer(request);
  };
  return { fetch: fake as typeof fetch, seen };
}

const json = (status: number, body: unknown, type = 'application/json', headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type, ...headers } });

const SESSION: Pick<SessionInfo, 'id' | 'revision'> & Partial<SessionInfo> = {
  id: 'ses_1',
  revision: 4,
  status: 'ready',
  provider: 'echo',
  model: 'echo-1',
  mode: 'history',
  createdAt: '2026-11-29T18:50:42.123Z',
  updatedAt: '2026-11-29T18:50:42.123Z',
  expiresAt: null,
  messageCount: 0,
  recordBytes: 0,
  hostId: 'h',
};

const RESULT = {
  id: 'run_1',
  status: 'completed',
  output: { text: 'echo: hi' },
  usage: { inputTokens: 1, outputTokens: 2, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: null,
  retries: { count: 0, inputTokens: 0, outputTokens: 0, cost: null },
  servedModel: 'echo-1',
};

describe('AgenticDriverClient', () => {
  it('sends the bearer token, JSON body and idempotency key to the base URL', async () => {
    // A session run's answer carries its session (the contract's; a client refuses one without it, below).
    const answer = { ...RESULT, session: { ...SESSION, revision: 5 } };
    const { fetch, seen } = fakeFetch(() => json(200, answer));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test/', token: 'secret-token-123456', fetch });
    const result = await client.run({ provider: 'echo', model: 'echo-1', input: 'hi', session: handle(SESSION) }, { idempotencyKey: 'k-1' });
    assert.deepEqual(result, answer);
    const [exchange] = seen;
    assert.ok(exchange);
    assert.equal(exchange.request.method, 'POST');
    assert.equal(exchange.request.url, 'http://host.test/v1/runs');
    assert.equal(exchange.request.headers.get('Authorization'), 'Bearer secret-token-123456');
    assert.equal(exchange.request.headers.get('Idempotency-Key'), 'k-1');
    assert.equal(exchange.request.headers.get('Content-Type'), 'application/json');
    assert.deepEqual(JSON.parse(exchange.body), { provider: 'echo', model: 'echo-1', input: 'hi', session: { id: 'ses_1', revision: 4 } });
  });

  it('sends no Authorization header without a token', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { status: 'ok' }));
    await new AgenticDriverClient({ baseUrl: 'http://host.test', fetch }).getHealth();
    assert.equal(seen[0]?.request.headers.get('Authorization'), null);
  });

  it('puts path parameters in the URL and resolves a 204 delete', async () => {
    const { fetch, seen } = fakeFetch(() => new Response(null, { status: 204 }));
    await new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch }).deleteSession('ses_a/b');
    assert.equal(seen[0]?.request.method, 'DELETE');
    assert.equal(seen[0]?.request.url, 'http://host.test/v1/sessions/ses_a%2Fb');
  });

  it('rejects with the typed error of a problem response', async () => {
    const problem = { type: 'urn:x', title: 'Session busy', status: 409, code: 'SESSION_BUSY', detail: 'busy', activeRunId: 'run_9' };
    const { fetch } = fakeFetch(() => json(409, problem, 'application/problem+json', { 'Retry-After': '1' }));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    await assert.rejects(client.run({ provider: 'echo', model: 'echo-1', input: 'x' }), (error: unknown) => {
      assert.ok(error instanceof SessionBusyError);
      assert.equal(error.activeRunId, 'run_9');
      assert.equal(error.retryAfterSeconds, 1);
      return true;
    });
  });

  it('rejects with UnexpectedResponseError for an answer that is not a problem', async () => {
    const { fetch } = fakeFetch(() => new Response('oops', { status: 502, headers: { 'Content-Type': 'text/plain' } }));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    await assert.rejects(client.getDiscovery(), UnexpectedResponseError);
  });

  it('handle() copies exactly id and revision', () => {
    assert.deepEqual(handle(SESSION), { id: 'ses_1', revision: 4 });
  });
});

describe('streamed runs', () => {
  const sse = (text: string) => new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });

  it('types events by their type and keeps unknown ones', async () => {
    const body =
      'id: 1\nevent: run.started\ndata: {"type":"run.started","runId":"run_1"}\n\n' +
      ': keep-alive\n\n' +
      'id: 2\nevent: output.delta\ndata: {"type":"output.delta","runId":"run_1","text":"echo: "}\n\n' +
      'id: 3\nevent: run.progress\ndata: {"type":"run.progress","percent":50}\n\n' +
      `id: 4\nevent: run.completed\ndata: ${JSON.stringify({ type: 'run.completed', run: RESULT })}\n\n`;
    const { fetch, seen } = fakeFetch(() => sse(body));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    const stream = await client.streamRun({ provider: 'echo', model: 'echo-1', input: 'x' }, { idempotencyKey: 'k' });
    const events: RunStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.request.url, 'http://host.test/v1/runs/stream');
    assert.equal(seen[0]?.request.headers.get('Accept'), 'text/event-stream');
    assert.equal(seen[0]?.request.headers.get('Idempotency-Key'), 'k');
    assert.deepEqual(
      events.map((event) => event.type),
      ['run.started', 'output.delta', 'unknown', 'run.completed'],
    );
    assert.deepEqual(events[2], { type: 'unknown', eventType: 'run.progress', data: { type: 'run.progress', percent: 50 } });
  });

  it('rejects before streaming when the run is refused, and never resends', async () => {
    const problem = { type: 'urn:x', title: 'Busy', status: 409, code: 'SESSION_BUSY', detail: 'busy', activeRunId: 'run_2' };
    const { fetch, seen } = fakeFetch(() => json(409, problem, 'application/problem+json'));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    await assert.rejects(client.streamRun({ provider: 'echo', model: 'echo-1', input: 'x' }), SessionBusyError);
    assert.equal(seen.length, 1);
  });

  it('throws run.failed from finalEvent() as the typed error', async () => {
    const failed = { type: 'run.failed', runId: 'run_1', problem: { type: 'urn:x', title: 'T', status: 409, code: 'SESSION_BUSY', detail: 'd' } };
    const { fetch } = fakeFetch(() => sse(`data: ${JSON.stringify(failed)}\n\n`));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    const stream = await client.streamRun({ provider: 'echo', model: 'echo-1', input: 'x' });
    await assert.rejects(stream.finalEvent(), SessionBusyError);
  });

  it('reports data that is not JSON', async () => {
    const { fetch } = fakeFetch(() => sse('event: output.delta\ndata: not json\n\n'));
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    const stream = await client.streamRun({ provider: 'echo', model: 'echo-1', input: 'x' });
    await assert.rejects(async () => {
      for await (const _ of stream) {
        // draining
      }
    }, StreamProtocolError);
  });

  it('closes the connection when the consumer stops early', async () => {
    let signal: AbortSignal | undefined;
    const { fetch } = fakeFetch((request) => {
      signal = request.signal;
      return sse('data: {"type":"run.started","runId":"r"}\n\ndata: {"type":"output.delta","runId":"r","text":"a"}\n\n');
    });
    const client = new AgenticDriverClient({ baseUrl: 'http://host.test', token: 't'.repeat(16), fetch });
    const stream = await client.streamRun({ provider: 'echo', model: 'echo-1', input: 'x' });
    for await (const event of stream) {
      assert.equal(event.type, 'run.started');
      break;
    }
    assert.equal(signal?.aborted, true);
  });
});

describe('configuration from the environment (../BEHAVIOUR.md, Configuration)', () => {
  const withEnvironment = (values: Record<string, string | undefined>, body: () => Promise<void>) => async () => {
    const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
    const set = (entries: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(entries)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    };
    set(values);
    try {
      await body();
    } finally {
      set(saved);
    }
  };
  const discovery = () => json(200, { hostId: 'h' });

  it(
    'reads AGENTIC_DRIVER_URL and AGENTIC_DRIVER_TOKEN when the options give none',
    withEnvironment({ AGENTIC_DRIVER_URL: 'http://env-host:9000/', AGENTIC_DRIVER_TOKEN: 'env-token-0123456789' }, async () => {
      const { fetch, seen } = fakeFetch(discovery);
      await new AgenticDriverClient({ fetch }).getDiscovery();
      assert.equal(seen[0]!.request.url, 'http://env-host:9000/v1/discovery');
      assert.equal(seen[0]!.request.headers.get('authorization'), 'Bearer env-token-0123456789');
    }),
  );

  it(
    'prefers the options, and an empty token sends none',
    withEnvironment({ AGENTIC_DRIVER_URL: 'http://env-host:9000', AGENTIC_DRIVER_TOKEN: 'env-token-0123456789' }, async () => {
      const { fetch, seen } = fakeFetch(discovery);
      await new AgenticDriverClient({ fetch, baseUrl: 'http://given:1', token: '' }).getDiscovery();
      assert.equal(seen[0]!.request.url, 'http://given:1/v1/discovery');
      assert.equal(seen[0]!.request.headers.get('authorization'), null);
    }),
  );

  it(
    'defaults to DEFAULT_BASE_URL and no token when neither is set (an empty variable is unset)',
    withEnvironment({ AGENTIC_DRIVER_URL: '', AGENTIC_DRIVER_TOKEN: undefined }, async () => {
      const { fetch, seen } = fakeFetch(discovery);
      await new AgenticDriverClient({ fetch }).getDiscovery();
      assert.equal(DEFAULT_BASE_URL, 'http://127.0.0.1:8080');
      assert.equal(seen[0]!.request.url, `${DEFAULT_BASE_URL}/v1/discovery`);
      assert.equal(seen[0]!.request.headers.get('authorization'), null);
    }),
  );
});

describe('session runs (SessionRunResult)', () => {
  it('types a session run\'s result with its session, and refuses an answer without one', async () => {
    const { fetch } = fakeFetch(() => json(200, { ...RESULT, session: { ...SESSION, revision: 5 } }));
    const client = new AgenticDriverClient({ baseUrl: 'http://h', fetch });
    const next: SessionInfo = (await client.run({ provider: 'echo', model: 'echo-1', input: 'hi', session: handle(SESSION) })).session;
    assert.equal(next.revision, 5);

    const bare = new AgenticDriverClient({ baseUrl: 'http://h', fetch: fakeFetch(() => json(200, RESULT)).fetch });
    const refused = await bare.run({ provider: 'echo', model: 'echo-1', input: 'hi', session: handle(SESSION) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof UnexpectedResponseError, String(refused));
    const stateless = await bare.run({ provider: 'echo', model: 'echo-1', input: 'hi' });
    assert.equal(stateless.session, undefined);
  });
});

describe('attachment', () => {
  it('base64-encodes bytes, and text as UTF-8', () => {
    assert.deepEqual(attachment('a.txt', 'text/plain', 'h\u00e9llo'), { name: 'a.txt', mediaType: 'text/plain', data: 'aMOpbGxv' });
    assert.equal(attachment('b', 'application/pdf', new Uint8Array([0, 255])).data, 'AP8=');
  });
});
