/**
 * Streamed runs as typed events: each SSE `data` is parsed as JSON and typed by its `type`
 * (the generated `RunEvent` union); a type this client does not know becomes an
 * `UnknownRunEvent` instead of being dropped or failing the stream.
 */

import { problemError, StreamProtocolError } from './errors.js';
import type { RunCompletedEvent, RunEvent, RunRequiresActionEvent } from './generated/types.gen.js';
import { parseServerSentEvents, type ServerSentEvent } from './sse.js';

/** An event type newer than this client, kept whole. */
export interface UnknownRunEvent {
  type: 'unknown';
  /** The event's own `type` (the SSE `event` field when the data has none). */
  eventType: string;
  /** The parsed `data`. */
  data: unknown;
}

/** What a run stream yields: one of the contract's events, or an unknown one. */
export type RunStreamEvent = RunEvent | UnknownRunEvent;

/** Every `type` of `RunEvent`; the check below fails the build if the spec adds one. */
export const RUN_EVENT_TYPES = ['run.started', 'output.delta', 'run.requires_action', 'run.completed', 'run.failed'] as const;
type MissingEventTypes = Exclude<RunEvent['type'], (typeof RUN_EVENT_TYPES)[number]>;
const everyEventTypeListed: [MissingEventTypes] extends [never] ? true : MissingEventTypes = true;
void everyEventTypeListed;

const KNOWN_TYPES: ReadonlySet<string> = new Set(RUN_EVENT_TYPES);

/** Types one Server-Sent Event of a run stream. */
export function toRunEvent(message: ServerSentEvent): RunStreamEvent {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (cause) {
    throw new StreamProtocolError(`event ${message.event}: data is not JSON`, { cause });
  }
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && KNOWN_TYPES.has(type)) return data as RunEvent;
  return { type: 'unknown', eventType: typeof type === 'string' ? type : message.event, data };
}

/**
 * The events of one streamed run. Iterate it once with `for await`; leaving the loop early
 * (or `close()`) closes the connection, which the host treats as a disconnect: a session turn
 * whose model work had started becomes `interrupted`.
 */
export class RunEventStream implements AsyncIterable<RunStreamEvent> {
  #consumed = false;

  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly connection: AbortController,
    /** The HTTP response (status 200, `text/event-stream`). */
    readonly response: Response,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<RunStreamEvent> {
    if (this.#consumed) throw new TypeError('a RunEventStream can be iterated only once');
    this.#consumed = true;
    try {
      for await (const message of parseServerSentEvents(this.body)) {
        yield toRunEvent(message);
      }
    } finally {
      this.close();
    }
  }

  /** Closes the connection (idempotent). */
  close(): void {
    this.connection.abort();
  }

  /**
   * Reads the stream to its end and returns the event that ended the run: `run.completed` or
   * `run.requires_action`. A `run.failed` event is thrown as its typed `ProblemError`.
   */
  async finalEvent(): Promise<RunCompletedEvent | RunRequiresActionEvent> {
    let last: RunCompletedEvent | RunRequiresActionEvent | undefined;
    for await (const event of this) {
      if (event.type === 'run.completed' || event.type === 'run.requires_action') last = event;
      else if (event.type === 'run.failed') throw problemError(event.problem.status, event.problem);
    }
    if (last === undefined) throw new StreamProtocolError('the stream ended without a final event');
    return last;
  }
}
