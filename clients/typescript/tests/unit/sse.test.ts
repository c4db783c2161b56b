import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseServerSentEvents, type ServerSentEvent } from '../../src/index.js';

async function parse(...chunks: string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const events: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(body())) events.push(event);
  return events;
}

describe('parseServerSentEvents', () => {
  it('reads id, event and data, and dispatches on a blank line', async () => {
    assert.deepEqual(await parse('id: 1\nevent: run.started\ndata: {"a":1}\n\n'), [
      { id: '1', event: 'run.started', data: '{"a":1}' },
    ]);
  });

  it('joins data lines with newlines and defaults the event to message', async () => {
    assert.deepEqual(await parse('data: one\ndata:two\n\n'), [{ event: 'message', data: 'one\ntwo' }]);
  });

  it('skips comments (keep-alive) and events without data', async () => {
    assert.deepEqual(await parse(': keep-alive\n\nevent: x\n\ndata: d\n\n'), [{ event: 'message', data: 'd' }]);
  });

  it('handles CRLF, CR and lines split across chunks (also a CRLF split in two)', async () => {
    const events = await parse('id: 7\r', '\nevent: a\rda', 'ta: x\r\n\r', '\n', 'data: y\n', '\n');
    assert.deepEqual(events, [
      { id: '7', event: 'a', data: 'x' },
      { id: '7', event: 'message', data: 'y' },
    ]);
  });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
    async function* body(): AsyncGenerator<Uint8Array> {
      for (const byte of bytes) yield Uint8Array.of(byte);
    }
    const events: ServerSentEvent[] = [];
    for await (const event of parseServerSentEvents(body())) events.push(event);
    assert.deepEqual(events, [{ event: 'message', data: 'héllo ✓' }]);
  });

  it('does not dispatch an unterminated last event', async () => {
    assert.deepEqual(await parse('data: complete\n\ndata: cut off'), [{ event: 'message', data: 'complete' }]);
  });

  it('keeps only one leading space of a value, and reads retry', async () => {
    assert.deepEqual(await parse('retry: 1500\ndata:  two spaces\n\n'), [
      { event: 'message', data: ' two spaces', retry: 1500 },
    ]);
  });
});
