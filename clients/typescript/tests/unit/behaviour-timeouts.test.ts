// clients/BEHAVIOUR.md: timeouts (read, stream idle, connect through Node's dispatcher) and broken
// connections, against a local node:http server (behaviour-helpers.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { AgenticDriverClient, ConnectionError, TimeoutError } from '../../src/index.js';
import { nodeDispatcher } from '../../src/transport.js';
import { rejection } from '../rejection.js';
import { clientWith, close, ok, RUN, serve } from './behaviour-helpers.js';

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
    const agent = (dispatcher as { agent: object }).agent; // behind the 421 keeper (dispatcher.ts, keeping421)
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
