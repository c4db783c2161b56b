// clients/BEHAVIOUR.md, "Tokens": a token provider is asked for every attempt, asked again once with
// the refused token on a 401 whose challenge says error="invalid_token", and checked before anything
// is sent. A fake fetch answers from a script.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { AgenticDriverClient, ConnectionError, type TokenProvider, UnauthenticatedError } from '../../src/index.js';
import { rejection } from '../rejection.js';

const RUN = { provider: 'echo', model: 'echo-1', input: 'x' };
const RUN_ID = 'run_beta.AAECAwQFBgcICQoLDA0ODw';
const RESULT = {
  id: RUN_ID,
  status: 'completed',
  output: { text: 'echo: x' },
  usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: null,
  retries: { count: 0, inputTokens: 0, outputTokens: 0, cost: null },
  servedModel: 'echo-1',
};
const INVALID = 'Bearer realm="agentic-driver", error="invalid_token", error_description="expired"';

const ok = () => new Response(JSON.stringify(RESULT), { status: 200, headers: { 'Content-Type': 'application/json' } });

function unauthenticated(challenge: string | undefined = INVALID): () => Response {
  const body = { type: 'urn:agentic-driver:problem:UNAUTHENTICATED', title: 'Unauthenticated', status: 401, code: 'UNAUTHENTICATED', detail: 'no' };
  const headers: Record<string, string> = { 'Content-Type': 'application/problem+json' };
  if (challenge !== undefined) headers['WWW-Authenticate'] = challenge;
  return () => new Response(JSON.stringify(body), { status: 401, headers });
}

function events(ids: number[], end: 'finish' | 'reset'): () => Response {
  const event = (id: number) =>
    id === 1 ? { type: 'run.started', runId: RUN_ID } : id === 3 ? { type: 'run.completed', runId: RUN_ID, run: RESULT } : { type: 'output.delta', runId: RUN_ID, text: 'd' };
  const text = ids.map((id) => `id: ${id}\nevent: ${String(event(id).type)}\ndata: ${JSON.stringify(event(id))}\n\n`).join('');
  return () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode(text));
        } else if (end === 'finish') controller.close();
        else controller.error(new TypeError('terminated', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }));
      },
    }, { highWaterMark: 0 });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  };
}

/** A fake fetch answering from a script; records every request. */
function scripted(...answers: Array<() => Response>) {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    const next = answers.shift();
    assert.ok(next !== undefined, 'more requests than the script answers');
    return next();
  };
  const tokens = () => seen.map((request) => request.headers.get('Authorization'));
  return { fetch: fetch as typeof globalThis.fetch, seen, tokens };
}

/** A provider handing out token-1, token-2, ...; `told` is what it was told each time. */
function counting(): { provider: TokenProvider; told: Array<string | undefined> } {
  const told: Array<string | undefined> = [];
  return { told, provider: (refused) => (told.push(refused), `token-${told.length}`) };
}

const client = (fetch: typeof globalThis.fetch, token: unknown) =>
  new AgenticDriverClient({ baseUrl: 'http://host.test', token: token as TokenProvider, fetch });

describe('token providers', () => {
  it('are asked for every attempt, a retry included', async () => {
    const { fetch, tokens } = scripted(() => new Response('proxy page', { status: 503 }), ok);
    const { provider, told } = counting();
    await client(fetch, provider).run(RUN);
    assert.deepEqual(tokens(), ['Bearer token-1', 'Bearer token-2']);
    assert.deepEqual(told, [undefined, undefined]);
  });

  it('are asked again once with the refused token on invalid_token, the same key sent again', async () => {
    const { fetch, seen, tokens } = scripted(unauthenticated(), ok);
    const { provider, told } = counting();
    const result = await client(fetch, provider).run(RUN);
    assert.equal(result.output.text, 'echo: x');
    assert.deepEqual(told, [undefined, 'token-1']);
    assert.deepEqual(tokens(), ['Bearer token-1', 'Bearer token-2']);
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    assert.ok(keys[0] !== null && keys[0] === keys[1]);
  });

  it('raise a second invalid_token', async () => {
    const { fetch, seen } = scripted(unauthenticated(), unauthenticated());
    assert.ok((await rejection(client(fetch, counting().provider).run(RUN))) instanceof UnauthenticatedError);
    assert.equal(seen.length, 2);
  });

  it('raise a 401 without invalid_token at once', async () => {
    const { fetch, seen } = scripted(unauthenticated('Bearer realm="agentic-driver"'));
    assert.ok((await rejection(client(fetch, counting().provider).run(RUN))) instanceof UnauthenticatedError);
    assert.equal(seen.length, 1);
  });

  it('are not involved with a string token: no second request', async () => {
    const { fetch, tokens } = scripted(unauthenticated());
    assert.ok((await rejection(client(fetch, 'a-static-token-0123').run(RUN))) instanceof UnauthenticatedError);
    assert.deepEqual(tokens(), ['Bearer a-static-token-0123']);
  });

  it('await a promise', async () => {
    const { fetch, tokens } = scripted(unauthenticated(), ok);
    const told: Array<string | undefined> = [];
    const provider: TokenProvider = async (refused) => (told.push(refused), `async-${told.length}`);
    await client(fetch, provider).run(RUN);
    assert.deepEqual(told, [undefined, 'async-1']);
    assert.deepEqual(tokens(), ['Bearer async-1', 'Bearer async-2']);
  });

  it('that fail fail the call before anything is sent, the cause kept', async () => {
    const { fetch, seen } = scripted();
    const cause = new Error('the identity provider is down: secret-detail');
    const error = await rejection(client(fetch, () => Promise.reject(cause)).run(RUN));
    assert.ok(error instanceof ConnectionError && error.cause === cause);
    assert.ok(!error.message.includes('secret-detail'));
    assert.equal(seen.length, 0);
  });

  for (const value of ['', 'two words', 'line\nbreak', 'caf\u00e9', '\u0000', 42]) {
    it(`never send a token a header cannot carry (${JSON.stringify(value)})`, async () => {
      const { fetch, seen } = scripted();
      const error = await rejection(client(fetch, () => value).run(RUN));
      assert.ok(error instanceof ConnectionError && error.message.startsWith('not sent'));
      assert.equal(seen.length, 0);
    });
  }

  it("are asked for a resumed stream's rejoin, and again once when it is refused", async () => {
    const { fetch, seen } = scripted(events([1], 'reset'), unauthenticated(), events([2, 3], 'finish'));
    const { provider, told } = counting();
    const stream = await client(fetch, provider).streamRun({ ...RUN, onDisconnect: 'continue' });
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(event.type);
    assert.deepEqual(kinds, ['run.started', 'output.delta', 'run.completed']);
    assert.deepEqual(seen.map((request) => new URL(request.url).pathname), ['/v1/runs/stream', `/v1/runs/${RUN_ID}/events`, `/v1/runs/${RUN_ID}/events`]);
    assert.deepEqual(told, [undefined, undefined, 'token-2']);
  });
});
