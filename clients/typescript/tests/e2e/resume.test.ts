// End to end against a real host process: a streamed session turn whose connection breaks after a
// few events. Sent with onDisconnect: continue, the client rejoins (streamRunEvents, Last-Event-ID)
// and the application sees every event once; sent without, the break is raised and the host
// leaves the session interrupted. getRun and streamRunEvents read the run afterwards.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { AgenticDriverClient, ConnectionError, handle, type RunStreamEvent, type SessionInfo } from '../../src/index.js';
import { type Host, standardHostConfig, startHost, TOKENS } from '../harness.js';
import { rejection } from '../rejection.js';

const ECHO = { provider: 'echo', model: 'echo-1' } as const;
const INPUT = '!chunks 6\n!sleep 30\nHello there friend';

let host: Host;

before(async () => {
  host = await startHost({ config: standardHostConfig() });
});

after(async () => {
  await host?.stop();
});

/**
 * `fetch` whose first `streamRun` answer breaks after `events` events: the real connection is
 * closed there (the host sees its client go away) and the body fails as a reset does.
 */
function breakingFetch(events: number): { fetch: typeof fetch; requests: string[] } {
  const requests: string[] = [];
  let armed = true;
  const breaking: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    requests.push(`${method} ${url.pathname} ${new Headers(init?.headers).get('Last-Event-ID') ?? '-'}`);
    const response = await globalThis.fetch(input, init);
    if (!armed || method !== 'POST' || url.pathname !== '/v1/runs/stream' || response.body === null) return response;
    armed = false;
    return new Response(cutAfter(response.body, events), { status: response.status, headers: response.headers });
  };
  return { fetch: breaking, requests };
}

/** The bytes of `body` up to the end of its `events`-th event; then it is cancelled and the copy fails. */
function cutAfter(body: ReadableStream<Uint8Array>, events: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let counted = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      pending += decoder.decode(value, { stream: true });
      let relay = '';
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        const block = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        relay += block;
        if (block.includes('data:') && ++counted === events) {
          controller.enqueue(encoder.encode(relay));
          await reader.cancel();
          return controller.error(new TypeError('terminated'));
        }
      }
      if (relay) controller.enqueue(encoder.encode(relay));
    },
  });
}

function describeEvent(event: RunStreamEvent): string {
  return event.type === 'output.delta' ? `delta ${event.text}` : event.type;
}

async function newSession(client: AgenticDriverClient): Promise<SessionInfo> {
  return (await client.createSession({ ...ECHO, mode: 'history' })).session;
}

describe('a continue stream whose connection breaks', () => {
  it('is rejoined after the last delivered event: every event once, one turn, the run readable after', async () => {
    const { fetch, requests } = breakingFetch(3);
    const client = new AgenticDriverClient({ baseUrl: host.baseUrl, token: TOKENS.full, fetch });
    const plain = host.client(TOKENS.full);
    const session = await newSession(plain);

    const stream = await client.streamRun({ ...ECHO, input: INPUT, session: handle(session), onDisconnect: 'continue' });
    const events: RunStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    assert.deepEqual(events.map((event) => event.type), ['run.started', ...Array(6).fill('output.delta'), 'run.completed']);
    const deltas = events.flatMap((event) => (event.type === 'output.delta' ? [event.text] : []));
    const last = events.at(-1);
    assert.ok(last?.type === 'run.completed');
    assert.equal(deltas.join(''), last.run.output.text);
    assert.equal(last.run.output.text, 'echo: Hello there friend');
    assert.equal(last.run.session?.revision, 1);
    assert.equal(stream.lastEventId, '8');
    const runId = events[0]?.type === 'run.started' ? events[0].runId : '';
    assert.deepEqual(requests.slice(-2), ['POST /v1/runs/stream -', `GET /v1/runs/${runId}/events 3`]);

    const read = await plain.readSession(session.id);
    assert.deepEqual([read.session.revision, read.session.status, read.turns.length], [1, 'ready', 1]);

    const state = await plain.getRun(runId);
    assert.deepEqual([state.status, state.onDisconnect, state.firstEventId, state.lastEventId], ['completed', 'continue', 1, 8]);
    assert.equal(state.result?.output.text, last.run.output.text);

    // Read again from event 5: the same events, with their ids.
    const again = await plain.streamRunEvents(runId, { lastEventId: 5 });
    const replayed: string[] = [];
    for await (const event of again) replayed.push(describeEvent(event));
    assert.deepEqual(replayed, events.slice(5).map(describeEvent));
    assert.equal(again.lastEventId, '8');
  });
});

describe('a stream sent without continue whose connection breaks', () => {
  it('is not rejoined: the break is raised, and the host leaves the session interrupted', async () => {
    const { fetch, requests } = breakingFetch(3);
    const client = new AgenticDriverClient({ baseUrl: host.baseUrl, token: TOKENS.full, fetch });
    const session = await newSession(client);
    const stream = await client.streamRun({ ...ECHO, input: INPUT, session: handle(session) });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    );
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(seen.length, 3);
    assert.ok(!requests.some((request) => request.startsWith('GET')), requests.join('\n'));

    const deadline = Date.now() + 10_000;
    let read = await client.readSession(session.id);
    while (read.session.status !== 'interrupted' && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 20));
      read = await client.readSession(session.id);
    }
    assert.deepEqual([read.session.status, read.session.revision, read.interruptedTurn?.reason], ['interrupted', 0, 'disconnected']);
  });
});
