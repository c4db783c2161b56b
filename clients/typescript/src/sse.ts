/**
 * A Server-Sent Events reader (the WHATWG "event stream interpretation"), for a fetch body.
 *
 * Hand-written because the generated SSE client retries a failed stream by sending the POST
 * again (which would start a second run) and drops the problem document of a refusal.
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */

/** One dispatched event. `event` defaults to `message`, as the standard says. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

/** Splits a stream of text chunks into lines ending in CRLF, LF or CR, across chunk boundaries. */
async function* lines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const chunk of chunks) {
    buffer += chunk;
    let start = 0;
    for (let index = 0; index < buffer.length; index++) {
      const char = buffer[index];
      if (char !== '\n' && char !== '\r') continue;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (char === '\r' && index === buffer.length - 1) break;
      yield buffer.slice(start, index);
      if (char === '\r' && buffer[index + 1] === '\n') index++;
      start = index + 1;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
  if (buffer !== '') yield buffer; // an unterminated last line is never dispatched, but is read
}

async function* decode(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  if (Symbol.asyncIterator in body) {
    for await (const bytes of body) yield decoder.decode(bytes, { stream: true });
  } else {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield decoder.decode(value, { stream: true });
      }
    } finally {
      reader.releaseLock();
    }
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** The events of an SSE body, in order. Comments (`: keep-alive`) and empty events are skipped. */
export async function* parseServerSentEvents(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  let data: string[] = [];
  let event = '';
  let lastEventId: string | undefined;
  let retry: number | undefined;
  for await (const line of lines(decode(body))) {
    if (line === '') {
      if (data.length > 0) {
        const dispatched: ServerSentEvent = { event: event || 'message', data: data.join('\n') };
        if (lastEventId !== undefined) dispatched.id = lastEventId;
        if (retry !== undefined) dispatched.retry = retry;
        yield dispatched;
      }
      data = [];
      event = '';
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        data.push(value);
        break;
      case 'event':
        event = value;
        break;
      case 'id':
        if (!value.includes('\0')) lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
  }
}
