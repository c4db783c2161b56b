/**
 * The client: one method per operation of openapi.yaml (named after its operationId), built
 * on the generated SDK functions and client. Methods resolve to the success body and reject
 * with a typed `ProblemError` (see errors.ts); streamed operations resolve to a
 * `RunEventStream` once the host has accepted the run.
 */

import { type Client, createClient, createConfig } from './generated/client/index.js';
import * as sdk from './generated/sdk.gen.js';
import type {
  CancelRunResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  Discovery,
  Health,
  ReadSessionResponse,
  RunRequest,
  RunResult,
  SubmitRunActionsRequest,
  TruncateSessionRequest,
} from './generated/types.gen.js';
import { AgenticDriverError, errorFromResponse, type SessionBusyError, TimeoutError, UnexpectedResponseError } from './errors.js';
import { RunEventStream } from './streaming.js';
import {
  createTransport,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUTS,
  type Logger,
  nodeDispatcher,
  sleep,
  type Timeouts,
  type TransportSettings,
} from './transport.js';

export interface ClientOptions {
  /** The host, for example `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A bearer token configured on the host (only `getHealth` works without one). Sent last: no header replaces it. */
  token?: string;
  /** Retries after the first attempt, for the failures ../BEHAVIOUR.md lists; 2 by default, 0 turns retries off. */
  maxRetries?: number;
  /** Timeouts in milliseconds: `connect` 5 000, `read` 600 000, `streamIdle` 60 000 by default. */
  timeouts?: Partial<Timeouts>;
  /** Headers sent with every request (never `Authorization`: the token is set after them). */
  defaultHeaders?: Record<string, string>;
  /**
   * Receives one debug line per attempt (method, path, status or failure, attempt, wait, request
   * id; never a token or a body). Giving one turns the lines on; `AGENTIC_DRIVER_LOG=debug` turns
   * them on to standard error. `console` works.
   */
  logger?: Logger;
  /** `'debug'` or `'off'`; by default `'debug'` when a `logger` is given or `AGENTIC_DRIVER_LOG=debug`. */
  logLevel?: 'debug' | 'off';
  /** A fetch implementation; `globalThis.fetch` by default. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Aborts the call, its retries and their waits (for a stream: closes the connection); rejects with `AbortError`. */
  signal?: AbortSignal;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Overrides the client's `read` and `streamIdle` timeouts for this call. */
  timeouts?: Partial<Pick<Timeouts, 'read' | 'streamIdle'>>;
}

export interface IdempotentCallOptions extends CallOptions {
  /** The key of this logical call; a fresh `crypto.randomUUID()` by default. Every attempt sends it. */
  idempotencyKey?: string;
}

export interface WaitUntilIdleOptions {
  /** The `SessionBusyError` that prompted the wait: its `retryAfterSeconds` is the first wait (else 0.1 s). */
  busy?: SessionBusyError;
  /** The bound in milliseconds; 30 000 by default. Past it, rejects with `TimeoutError` (`kind: 'idle-wait'`). */
  timeout?: number;
  signal?: AbortSignal;
}

/** A result with the HTTP answer that produced it. */
export interface WithResponse<T> {
  data: T;
  /** The final attempt's answer: `status` and `headers` (its body has been read into `data`). */
  response: Response;
}

/**
 * What every method returns: a promise of the result that also offers `withResponse()`, the
 * result together with the HTTP answer (status, headers) that produced it.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #pending: Promise<WithResponse<T>>;

  constructor(pending: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#pending = pending;
  }

  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The result and the answer's `Response` (status, headers). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#pending;
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#pending.then((answer) => answer.data).then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}

/** What a generated SDK function resolves to (with `throwOnError: false`). */
interface Answer {
  data?: unknown;
  error?: unknown;
  response?: Response;
}

const stderrLogger: Logger = { debug: (message) => console.error(message) };

function environmentLogLevel(): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.AGENTIC_DRIVER_LOG;
}

export class AgenticDriverClient {
  /** The generated client, configured with the base URL and token: pass it as `client` to the generated functions. */
  readonly raw: Client;
  /** The same client, except that SSE operations answer like plain requests with the body as a stream. */
  readonly #streaming: Client;
  readonly #settings: TransportSettings;

  constructor(options: ClientOptions) {
    const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
    const logLevel = options.logLevel ?? (options.logger !== undefined || environmentLogLevel() === 'debug' ? 'debug' : 'off');
    const platformFetch = options.fetch === undefined;
    this.#settings = {
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      token: options.token,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      timeouts,
      logger: logLevel === 'debug' ? (options.logger ?? stderrLogger) : undefined,
      dispatcher: platformFetch ? () => nodeDispatcher(timeouts.connect) : () => Promise.resolve(undefined),
      random: Math.random,
    };
    if (!Number.isInteger(this.#settings.maxRetries) || this.#settings.maxRetries < 0) {
      throw new RangeError(`maxRetries must be a whole number >= 0, not ${String(options.maxRetries)}`);
    }
    this.raw = createClient(
      createConfig({
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        fetch: createTransport(this.#settings),
        headers: options.defaultHeaders,
      }),
    );
    // The generated SSE client would resend the POST on a broken stream (a second run) and
    // discards a refusal's problem document; a plain request with `parseAs: 'stream'` does neither.
    const raw = this.raw;
    const post = (request: object) => raw.request({ ...request, method: 'POST', parseAs: 'stream' } as never);
    this.#streaming = { ...raw, sse: { ...raw.sse, post } } as unknown as Client;
  }

  /** `GET /healthz`: the host is serving. */
  getHealth(options: CallOptions = {}): APIPromise<Health> {
    return this.#answer(sdk.getHealth({ client: this.raw, ...this.#request(options) }));
  }

  /** `GET /v1/discovery`: the host as this token sees it. */
  getDiscovery(options: CallOptions = {}): APIPromise<Discovery> {
    return this.#answer(sdk.getDiscovery({ client: this.raw, ...this.#request(options) }));
  }

  /** `POST /v1/sessions`: a new session at revision 0. */
  createSession(body: CreateSessionRequest, options: IdempotentCallOptions = {}): APIPromise<CreateSessionResponse> {
    return this.#answer(sdk.createSession({ client: this.raw, body, ...this.#request(options) }));
  }

  /** `GET /v1/sessions/{sessionId}`: metadata, instructions, visible history and turns. */
  readSession(sessionId: string, options: CallOptions = {}): APIPromise<ReadSessionResponse> {
    return this.#answer(sdk.readSession({ client: this.raw, path: { sessionId }, ...this.#request(options) }));
  }

  /** `DELETE /v1/sessions/{sessionId}`: removes the session and aborts its active turn. */
  deleteSession(sessionId: string, options: CallOptions = {}): APIPromise<void> {
    const answer = this.#answer(sdk.deleteSession({ client: this.raw, path: { sessionId }, ...this.#request(options) }));
    return new APIPromise(answer.withResponse().then(({ response }) => ({ data: undefined, response })));
  }

  /** `POST /v1/sessions/{sessionId}/truncate`: keeps the first `keepTurns` turns, at the next revision. */
  truncateSession(sessionId: string, body: TruncateSessionRequest, options: CallOptions = {}): APIPromise<CreateSessionResponse> {
    return this.#answer(sdk.truncateSession({ client: this.raw, path: { sessionId }, body, ...this.#request(options) }));
  }

  /** `POST /v1/runs`: one turn, stateless or continuing a session (`session: handle(info)`). */
  run(body: RunRequest, options: IdempotentCallOptions = {}): APIPromise<RunResult> {
    return this.#answer(sdk.run({ client: this.raw, body, ...this.#request(options) }));
  }

  /** `POST /v1/runs/stream`: the same turn as `run`, as a stream of typed events. */
  streamRun(body: RunRequest, options: IdempotentCallOptions = {}): APIPromise<RunEventStream> {
    const connection = linkedController(options.signal);
    const answer = sdk.streamRun({ client: this.#streaming, body, ...this.#request(options, connection.signal) });
    return this.#stream(answer as unknown as Promise<Answer>, connection);
  }

  /** `POST /v1/runs/{runId}/actions`: answers a run waiting in `requires_action`. */
  submitRunActions(runId: string, body: SubmitRunActionsRequest, options: IdempotentCallOptions = {}): APIPromise<RunResult> {
    return this.#answer(sdk.submitRunActions({ client: this.raw, path: { runId }, body, ...this.#request(options) }));
  }

  /** `POST /v1/runs/{runId}/actions/stream`: answers a waiting run and streams the rest of it. */
  streamRunActions(
    runId: string,
    body: SubmitRunActionsRequest,
    options: IdempotentCallOptions = {},
  ): APIPromise<RunEventStream> {
    const connection = linkedController(options.signal);
    const answer = sdk.streamRunActions({
      client: this.#streaming,
      path: { runId },
      body,
      ...this.#request(options, connection.signal),
    });
    return this.#stream(answer as unknown as Promise<Answer>, connection);
  }

  /** `POST /v1/runs/{runId}/cancel`: cancels an active run. */
  cancelRun(runId: string, options: CallOptions = {}): APIPromise<CancelRunResponse> {
    return this.#answer(sdk.cancelRun({ client: this.raw, path: { runId }, ...this.#request(options) }));
  }

  /**
   * The busy helper (../BEHAVIOUR.md): after a `SessionBusyError`, reads the session until it is
   * no longer `running` and returns that read (its current revision, history and turns), so the
   * caller decides what to send next. Never resends the refused turn.
   *
   *     catch (error) { if (error instanceof SessionBusyError) { const { session } = await client.waitUntilIdle(id, { busy: error }); } }
   */
  async waitUntilIdle(sessionId: string, options: WaitUntilIdleOptions = {}): Promise<ReadSessionResponse> {
    const bound = options.timeout ?? 30_000;
    const deadline = Date.now() + bound;
    let waitMs = options.busy?.retryAfterSeconds !== undefined ? options.busy.retryAfterSeconds * 1000 : 100;
    let interval = Math.min(Math.max(waitMs, 100), 1_000);
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new TimeoutError('idle-wait', bound);
      await sleep(Math.min(waitMs, left), options.signal);
      const read = await this.readSession(sessionId, options.signal === undefined ? {} : { signal: options.signal });
      if (read.session.status !== 'running') return read;
      interval = Math.min(interval * 2, 1_000);
      waitMs = interval;
    }
  }

  /** The generated function's options for one call: headers, signal, and a transport for per-call overrides. */
  #request(options: IdempotentCallOptions, signal?: AbortSignal) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
    if (signal !== undefined) headers.Accept = 'text/event-stream';
    const effectiveSignal = signal ?? options.signal;
    const overridden = options.maxRetries !== undefined || options.timeouts !== undefined;
    const fetch = overridden
      ? createTransport({
          ...this.#settings,
          maxRetries: options.maxRetries ?? this.#settings.maxRetries,
          timeouts: { ...this.#settings.timeouts, ...definedOnly(options.timeouts ?? {}) },
        })
      : undefined;
    return { headers, ...(effectiveSignal ? { signal: effectiveSignal } : {}), ...(fetch ? { fetch } : {}) };
  }

  #answer<T>(pending: Promise<{ data?: T; error?: unknown; response?: Response }>): APIPromise<T> {
    return new APIPromise(
      pending.then((answer) => {
        if (answer.response === undefined) throw asClientError(answer.error);
        if (!answer.response.ok) throw errorFromResponse(answer.response.status, answer.error, answer.response.headers);
        return { data: answer.data as T, response: answer.response };
      }),
    );
  }

  #stream(pending: Promise<Answer>, connection: AbortController): APIPromise<RunEventStream> {
    return new APIPromise(
      pending.then((answer) => {
        const { response } = answer;
        if (response === undefined) throw asClientError(answer.error);
        if (!response.ok) throw errorFromResponse(response.status, answer.error, response.headers);
        const contentType = response.headers.get('Content-Type') ?? '';
        const body = answer.data as ReadableStream<Uint8Array> | null | undefined;
        if (!contentType.startsWith('text/event-stream') || !body) {
          connection.abort();
          throw new UnexpectedResponseError(response.status, `Content-Type ${contentType || '(none)'}`, response.headers);
        }
        return { data: new RunEventStream(body, connection, response), response };
      }),
    );
  }
}

/** The transport throws only this client's errors; anything else (a custom fetch's own failure) is wrapped. */
function asClientError(error: unknown): AgenticDriverError {
  return error instanceof AgenticDriverError ? error : new AgenticDriverError(`the request failed: ${String(error)}`, { cause: error });
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** An AbortController for one stream's connection that also follows the caller's signal. */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller;
}
