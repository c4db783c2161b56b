/**
 * Streamed runs as typed events: each SSE `data` is parsed as JSON and typed by its `type`
 * (the generated `RunEvent` union); a type this client does not know becomes an
 * `UnknownRunEvent` instead of being dropped or failing the stream.
 */

import { type AgenticDriverError, ConnectionError, problemError, StreamProtocolError } from './errors.js';
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

/** The events after which a run's stream ends: the run completed, paused for the application, or failed. */
const LAST_EVENT_TYPES: ReadonlySet<string> = new Set(['run.completed', 'run.requires_action', 'run.failed']);

/**
 * How a stream whose run goes on without its client gets its events back after a drop
 * (../BEHAVIOUR.md, "Resuming a stream"). The client makes one for a `streamRun` or
 * `streamRunActions` sent with `onDisconnect: 'continue'`, and for every `streamRunEvents`.
 */
export interface Resumption {
  /** The id of the last event the caller already has (`streamRunEvents`' `lastEventId`); 0 for none. */
  after: number;
  /**
   * The body of a new connection, after `failure` ended the last one before the run's last event,
   * carrying the run's events after `lastEventId` (0: none delivered yet; `runId` once
   * `run.started` named it). Rejects with `failure` when the call's retry budget is spent, or with
   * the reconnection's own error (`RunEventsExpiredError`, `RunNotFoundError`, ...).
   */
  reconnect(failure: AgenticDriverError, runId: string | undefined, lastEventId: number): Promise<ReadableStream<Uint8Array>>;
  /** A new event was delivered: the call's retry budget is given back. */
  progressed(): void;
}

/**
 * Whether the body may end right after `event`: after the run's last event, or after an event type newer
 * than this client (a later contract may end a run with one; a stream never fails because of one).
 */
function mayEnd(event: RunStreamEvent): boolean {
  return LAST_EVENT_TYPES.has(event.type) || event.type === 'unknown';
}

/**
 * A body that ends before the run's last event is a broken connection: fetch reports a reset or a
 * close as the body's end when the answer said `Connection: close` (undici does), as proxies do.
 */
function endedEarly(): ConnectionError {
  return new ConnectionError("the event stream ended before the run's last event");
}

/** An SSE `id` as a run event id (a positive integer), or undefined. */
function eventId(message: ServerSentEvent): number | undefined {
  return message.id !== undefined && /^[1-9][0-9]{0,15}$/.test(message.id) ? Number(message.id) : undefined;
}

/**
 * The events of one streamed run. Iterate it once with `for await`; leaving the loop early
 * (or `close()`) closes the connection, which the host treats as a disconnect: a session turn
 * whose model work had started becomes `interrupted` (unless the run was sent with
 * `onDisconnect: 'continue'`).
 *
 * A stream of a `continue` run, and every `streamRunEvents` stream, resumes by itself when its
 * connection drops before the run's last event: the client rejoins the run's events with
 * `Last-Event-ID` and the same loop goes on, each event once, in order.
 */
export class RunEventStream implements AsyncIterable<RunStreamEvent> {
  #consumed = false;
  #body: ReadableStream<Uint8Array>;
  #lastEventId: string | undefined;

  constructor(
    body: ReadableStream<Uint8Array>,
    /** Aborts the stream's connection (and any reconnection of a resumed stream). */
    private readonly connection: AbortController,
    /** The HTTP response (status 200, `text/event-stream`) of the stream's first connection. */
    readonly response: Response,
    private readonly resumption?: Resumption,
  ) {
    this.#body = body;
    if (resumption !== undefined && resumption.after > 0) this.#lastEventId = String(resumption.after);
  }

  /**
   * The SSE `id` of the last event delivered (a run's events are numbered once, across all its
   * streams): what `streamRunEvents(runId, { lastEventId })` takes to read on after it.
   */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RunStreamEvent> {
    if (this.#consumed) throw new TypeError('a RunEventStream can be iterated only once');
    this.#consumed = true;
    try {
      if (this.resumption === undefined) {
        let ended = false;
        for await (const message of parseServerSentEvents(this.#body)) {
          if (message.id !== undefined) this.#lastEventId = message.id;
          const event = toRunEvent(message);
          ended = mayEnd(event);
          yield event;
        }
        if (!ended) throw endedEarly();
      } else {
        yield* this.#resumed(this.resumption);
      }
    } finally {
      this.close();
    }
  }

  /** The events across as many connections as it takes, each delivered once, up to the run's last. */
  async *#resumed(resumption: Resumption): AsyncGenerator<RunStreamEvent> {
    let last = resumption.after;
    let runId: string | undefined;
    let numbered = true; // every event delivered had its id: a rejoin knows where to start
    for (;;) {
      let failure: AgenticDriverError;
      let ended = false;
      try {
        for await (const message of parseServerSentEvents(this.#body)) {
          const id = eventId(message);
          if (id !== undefined && id <= last) continue; // delivered already: a rejoin (or a joined retry) starts earlier
          const event = toRunEvent(message);
          if (event.type === 'run.started') runId = event.runId;
          if (id === undefined) numbered = false;
          else last = id;
          if (message.id !== undefined) this.#lastEventId = message.id;
          resumption.progressed();
          yield event;
          if (LAST_EVENT_TYPES.has(event.type)) return; // the run ended or paused: nothing more to resume
          ended = mayEnd(event);
        }
        if (ended) return;
        failure = endedEarly();
      } catch (error) {
        // A connection failure or a stream-idle timeout is resumed; the caller's abort or a malformed event is not.
        if (!(error instanceof ConnectionError) || this.connection.signal.aborted) throw error;
        failure = error;
      }
      if (!numbered) throw failure; // an event without an id: the host could not be told where to resume
      this.#body = await resumption.reconnect(failure, runId, last);
    }
  }

  /** Closes the connection (idempotent); a stream being resumed stops there too. */
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
