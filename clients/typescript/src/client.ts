/**
 * The client: one method per operation of openapi.yaml (named after its operationId), built
 * on the generated SDK functions and client. Methods resolve to the success body and reject
 * with a typed `ProblemError` (see errors.ts); streamed operations resolve to a
 * `RunEventStream` once the host has accepted the run.
 */

import { type Client, createClient, createConfig } from './generated/client/index.js';
import type {
  CancelRunData,
  CancelRunResponse,
  CreateSessionData,
  CreateSessionRequest,
  CreateSessionResponse,
  DeleteSessionData,
  Discovery,
  ForkSessionData,
  ForkSessionRequest,
  GetDiscoveryData,
  GetHealthData,
  GetRunData,
  Health,
  ReadSessionData,
  ReadSessionResponse,
  RunData,
  RunRequest,
  RunResult,
  RunState,
  SessionHandle,
  SessionInfo,
  StreamRunActionsData,
  StreamRunData,
  StreamRunEventsData,
  SubmitRunActionsData,
  SubmitRunActionsRequest,
  TruncateSessionData,
  TruncateSessionRequest,
} from './generated/types.gen.js';
import { type AgenticDriverError, errorFromResponse, type SessionBusyError, TimeoutError, UnexpectedResponseError } from './errors.js';
import { type Resumption, RunEventStream } from './streaming.js';
import {
  type Answer,
  backoffMs,
  type CallState,
  createTransport,
  DEFAULT_MAX_RETRIES,
  execute,
  DEFAULT_TIMEOUTS,
  type CACertificates,
  type Logger,
  nodeDispatcher,
  ROUTING_HEADER,
  routingHost,
  sleep,
  type Timeouts,
  type TransportSettings,
  type TokenProvider,
} from './transport.js';

/** A run request that continues a session (`session` set). */
export type SessionRunRequest = RunRequest & { session: SessionHandle };

/** The result of a session run: its `session` (the next revision) is always there. */
export type SessionRunResult = RunResult & { session: SessionInfo };

export interface ClientOptions {
  /** The host, for example `http://127.0.0.1:8080`; default `AGENTIC_DRIVER_URL`, else `DEFAULT_BASE_URL`. */
  baseUrl?: string;
  /**
   * Default `AGENTIC_DRIVER_TOKEN` (none when unset or empty; `''` sends none).
   * A bearer token configured on the host (only `getHealth` works without one), or a token provider
   * asked for every attempt, `(refused) => token` (it may return a promise): on a `401` with
   * `error="invalid_token"` it is asked again with the refused token and the request sent once more
   * (../BEHAVIOUR.md, "Tokens"). Sent last: no header replaces it.
   */
  token?: string | TokenProvider;
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
  /**
   * CA certificates (PEM text or its bytes, or several) trusted for an `https://` host instead of
   * Node's roots: for a host whose certificate a private CA signed, still verified
   * (`ca: readFileSync('/etc/agentic/ca.pem')`). Node only, with its own fetch (not with `fetch`).
   * An untrusted host fails with `ConnectionError`. Without it, `NODE_EXTRA_CA_CERTS` adds to Node's roots.
   */
  ca?: CACertificates;
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

export interface StreamRunEventsOptions extends CallOptions {
  /**
   * The id of the last event you have (a stream's `lastEventId`, an SSE `id`): the stream starts
   * after it, sent as `Last-Event-ID`. Without it, from the run's first buffered event.
   */
  lastEventId?: string | number;
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

const stderrLogger: Logger = { debug: (message) => console.error(message) };

/** The host a client talks to without `baseUrl` or `AGENTIC_DRIVER_URL`. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** An environment variable of the process (Node), or undefined when unset, empty, or there is no process. */
function environment(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === '' ? undefined : value;
}

function environmentLogLevel(): string | undefined {
  return environment('AGENTIC_DRIVER_LOG');
}

/**
 * The operation paths, each checked against the generated operation's `url` (a path changed in
 * openapi.yaml fails the build here until this client follows).
 */
const PATHS = {
  getHealth: '/healthz' satisfies GetHealthData['url'],
  getDiscovery: '/v1/discovery' satisfies GetDiscoveryData['url'],
  createSession: '/v1/sessions' satisfies CreateSessionData['url'],
  readSession: '/v1/sessions/{sessionId}' satisfies ReadSessionData['url'],
  deleteSession: '/v1/sessions/{sessionId}' satisfies DeleteSessionData['url'],
  truncateSession: '/v1/sessions/{sessionId}/truncate' satisfies TruncateSessionData['url'],
  forkSession: '/v1/sessions/{sessionId}/fork' satisfies ForkSessionData['url'],
  run: '/v1/runs' satisfies RunData['url'],
  streamRun: '/v1/runs/stream' satisfies StreamRunData['url'],
  submitRunActions: '/v1/runs/{runId}/actions' satisfies SubmitRunActionsData['url'],
  streamRunActions: '/v1/runs/{runId}/actions/stream' satisfies StreamRunActionsData['url'],
  cancelRun: '/v1/runs/{runId}/cancel' satisfies CancelRunData['url'],
  getRun: '/v1/runs/{runId}' satisfies GetRunData['url'],
  streamRunEvents: '/v1/runs/{runId}/events' satisfies StreamRunEventsData['url'],
} as const;

function fill(template: string, parameters: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ''));
}

const NEVER_ABORTED = new AbortController().signal;
const UTF8 = new TextDecoder();

export class AgenticDriverClient {
  /**
   * The generated client (@hey-api/openapi-ts), configured with the base URL, default headers
   * and this client's transport (token, retries, timeouts, logging): pass it as `client` to
   * the generated SDK functions (`generated.readSession({ client: driver.raw, path })`).
   */
  readonly raw: Client;
  readonly #settings: TransportSettings;
  readonly #baseUrl: string;
  readonly #defaultHeaders: Record<string, string>;

  /** Arguments first, then `AGENTIC_DRIVER_URL` / `AGENTIC_DRIVER_TOKEN`, then `DEFAULT_BASE_URL` and no token. */
  constructor(options: ClientOptions = {}) {
    const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
    const logLevel = options.logLevel ?? (options.logger !== undefined || environmentLogLevel() === 'debug' ? 'debug' : 'off');
    const platformFetch = options.fetch === undefined;
    if (options.ca !== undefined && !platformFetch) {
      throw new TypeError('ca cannot be combined with fetch: give your fetch its own CA certificates');
    }
    let trusting: Promise<unknown> | undefined; // made on first use, once per client
    const ca = options.ca;
    this.#settings = {
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      token: options.token === '' ? undefined : (options.token ?? environment('AGENTIC_DRIVER_TOKEN')),
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      timeouts,
      logger: logLevel === 'debug' ? (options.logger ?? stderrLogger) : undefined,
      dispatcher: !platformFetch
        ? () => Promise.resolve(undefined)
        : ca === undefined
          ? () => nodeDispatcher(timeouts.connect)
          : () => (trusting ??= nodeDispatcher(timeouts.connect, ca)),
      random: Math.random,
    };
    if (!Number.isInteger(this.#settings.maxRetries) || this.#settings.maxRetries < 0) {
      throw new RangeError(`maxRetries must be a whole number >= 0, not ${String(options.maxRetries)}`);
    }
    this.#baseUrl = (options.baseUrl ?? environment('AGENTIC_DRIVER_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#defaultHeaders = { ...options.defaultHeaders };
    this.raw = createClient(
      createConfig({ baseUrl: this.#baseUrl, fetch: createTransport(this.#settings), headers: options.defaultHeaders }),
    );
  }

  /** `GET /healthz`: the host is serving. */
  getHealth(options: CallOptions = {}): APIPromise<Health> {
    return this.#json('GET', PATHS.getHealth, options);
  }

  /** `GET /v1/discovery`: the host as this token sees it. */
  getDiscovery(options: CallOptions = {}): APIPromise<Discovery> {
    return this.#json('GET', PATHS.getDiscovery, options);
  }

  /** `POST /v1/sessions`: a new session at revision 0. */
  createSession(body: CreateSessionRequest, options: IdempotentCallOptions = {}): APIPromise<CreateSessionResponse> {
    return this.#json('POST', PATHS.createSession, options, body);
  }

  /** `GET /v1/sessions/{sessionId}`: metadata, instructions, visible history and turns. */
  readSession(sessionId: string, options: CallOptions = {}): APIPromise<ReadSessionResponse> {
    return this.#json('GET', fill(PATHS.readSession, { sessionId }), options);
  }

  /** `DELETE /v1/sessions/{sessionId}`: removes the session and aborts its active turn. */
  deleteSession(sessionId: string, options: CallOptions = {}): APIPromise<void> {
    return this.#json('DELETE', fill(PATHS.deleteSession, { sessionId }), options);
  }

  /** `POST /v1/sessions/{sessionId}/truncate`: keeps the first `keepTurns` turns, at the next revision. */
  truncateSession(sessionId: string, body: TruncateSessionRequest, options: CallOptions = {}): APIPromise<CreateSessionResponse> {
    return this.#json('POST', fill(PATHS.truncateSession, { sessionId }), options, body);
  }

  /**
   * `POST /v1/sessions/{sessionId}/fork`: copies the session up to a turn boundary into a new
   * session on the same host (status 201). `body.revision` is the boundary: 0 (the imported
   * history), the current revision (the default: `{}`), or the revision of a turn still recorded.
   * The fork starts at that revision with the source's history, turns and native state up to it
   * and its own accounting at zero; the source is unchanged and the two continue independently.
   * An active turn rejects with `SessionBusyError` (then `waitUntilIdle`), a boundary the session
   * no longer holds with `SessionRevisionConflictError` (`currentRevision`). Like `createSession`
   * it sends one `Idempotency-Key` on every attempt (`{ idempotencyKey }`, else a fresh one) and is
   * retried as `createSession` is; it is routed by the session id, as `truncateSession` is.
   */
  forkSession(sessionId: string, body: ForkSessionRequest = {}, options: IdempotentCallOptions = {}): APIPromise<CreateSessionResponse> {
    return this.#json('POST', fill(PATHS.forkSession, { sessionId }), options, body);
  }

  /** `POST /v1/runs`: one turn, stateless or continuing a session (`session: handle(info)`). */
  run(body: SessionRunRequest, options?: IdempotentCallOptions): APIPromise<SessionRunResult>;
  run(body: RunRequest, options?: IdempotentCallOptions): APIPromise<RunResult>;
  run(body: RunRequest, options: IdempotentCallOptions = {}): APIPromise<RunResult> {
    const answer = this.#json<RunResult>('POST', PATHS.run, options, body);
    if (body.session === undefined) return answer;
    return new APIPromise(
      answer.withResponse().then((answered) => {
        // The contract gives a session run's result its session; an answer without one is not the contract's.
        if (answered.data.session === undefined) {
          throw new UnexpectedResponseError(answered.response.status, { detail: 'a session run answered without its session', body: answered.data }, answered.response.headers);
        }
        return answered;
      }),
    );
  }

  /**
   * `POST /v1/runs/stream`: the same turn as `run`, as a stream of typed events. Sent with
   * `onDisconnect: 'continue'`, the stream resumes by itself when its connection drops (README,
   * "Resuming a stream").
   */
  streamRun(body: RunRequest, options: IdempotentCallOptions = {}): APIPromise<RunEventStream> {
    return this.#stream('POST', PATHS.streamRun, options, body, continues(body) ? { after: 0 } : undefined);
  }

  /** `POST /v1/runs/{runId}/actions`: answers a run waiting in `requires_action`. */
  submitRunActions(runId: string, body: SubmitRunActionsRequest, options: IdempotentCallOptions = {}): APIPromise<RunResult> {
    return this.#json('POST', fill(PATHS.submitRunActions, { runId }), options, body);
  }

  /**
   * `POST /v1/runs/{runId}/actions/stream`: answers a waiting run and streams the rest of it;
   * resumed like `streamRun` when `body` has `onDisconnect: 'continue'`.
   */
  streamRunActions(runId: string, body: SubmitRunActionsRequest, options: IdempotentCallOptions = {}): APIPromise<RunEventStream> {
    const path = fill(PATHS.streamRunActions, { runId });
    return this.#stream('POST', path, options, body, continues(body) ? { after: 0, runId } : undefined);
  }

  /** `POST /v1/runs/{runId}/cancel`: cancels an active run. */
  cancelRun(runId: string, options: CallOptions = {}): APIPromise<CancelRunResponse> {
    return this.#json('POST', fill(PATHS.cancelRun, { runId }), options);
  }

  /**
   * `GET /v1/runs/{runId}`: the run's state (`status`, its session, its `result` or `problem`, the
   * ids of its first buffered and last events), while it is active and for the host's
   * `runs.retentionMs` after its end: how a caller reconciles a run whose answer it lost.
   */
  getRun(runId: string, options: CallOptions = {}): APIPromise<RunState> {
    return this.#json('GET', fill(PATHS.getRun, { runId }), options);
  }

  /**
   * `GET /v1/runs/{runId}/events`: the run's events after `lastEventId` (from its first buffered
   * one without), replayed with their original ids, then followed live until the run completes,
   * pauses or fails. Reading never stops the run, so this stream always resumes by itself when its
   * connection drops. Rejects with `RunEventsExpiredError` (`firstEventId`) when the events after
   * `lastEventId` are no longer all buffered.
   */
  streamRunEvents(runId: string, options: StreamRunEventsOptions = {}): APIPromise<RunEventStream> {
    const { lastEventId, ...rest } = options;
    const given = lastEventId === undefined ? undefined : String(lastEventId);
    // Sent as given (the host refuses what is not an event id); skipping starts after it.
    const call = given === undefined ? rest : { ...rest, headers: { ...rest.headers, [LAST_EVENT_ID]: given } };
    const after = given !== undefined && /^[1-9][0-9]{0,15}$/.test(given) ? Number(given) : 0;
    return this.#stream('GET', fill(PATHS.streamRunEvents, { runId }), call, undefined, { after, runId });
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
    let waitMs = options.busy?.retryAfterSeconds !== undefined ? options.busy.retryAfterSeconds * 1000 : FIRST_IDLE_WAIT_MS;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new TimeoutError('idle-wait', bound);
      await sleep(Math.min(waitMs, left), options.signal);
      const read = await this.readSession(sessionId, options.signal === undefined ? {} : { signal: options.signal });
      if (read.session.status !== 'running') return read;
      waitMs = nextIdleWaitMs(waitMs);
    }
  }

  /** The transport settings with this call's overrides. */
  #settingsFor(options: CallOptions): TransportSettings {
    return options.maxRetries === undefined && options.timeouts === undefined
      ? this.#settings
      : {
          ...this.#settings,
          maxRetries: options.maxRetries ?? this.#settings.maxRetries,
          timeouts: { ...this.#settings.timeouts, ...definedOnly(options.timeouts ?? {}) },
        };
  }

  /** One request of a logical call through the transport, with this call's overrides (`state`: shared with the call's other requests). */
  #send(method: string, path: string, options: IdempotentCallOptions, body: unknown, accept: string, state?: CallState): Promise<Answer> {
    const headers = new Headers(this.#defaultHeaders);
    headers.set('Accept', accept);
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (options.idempotencyKey !== undefined) headers.set('Idempotency-Key', options.idempotencyKey);
    const host = routingHost(path.split('?')[0] ?? '', body, method);
    if (host !== undefined) headers.set(ROUTING_HEADER, host);
    return execute(this.#settingsFor(options), {
      method,
      url: this.#baseUrl + path,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: options.signal ?? NEVER_ABORTED,
      ...(state === undefined ? {} : { state }),
    });
  }

  #json<T>(method: string, path: string, options: IdempotentCallOptions, body?: unknown): APIPromise<T> {
    return new APIPromise(
      this.#send(method, path, options, body, 'application/json').then(({ response, body: bytes }) => {
        const text = bytes instanceof Uint8Array ? UTF8.decode(bytes) : '';
        let parsed: unknown = text;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          if (response.ok) throw new UnexpectedResponseError(response.status, text, response.headers);
        }
        if (!response.ok) throw errorFromResponse(response.status, parsed, response.headers);
        return { data: parsed as T, response };
      }),
    );
  }

  /**
   * A streamed call: its first request, and (`resume` given: a run that goes on without its
   * client) the stream's reconnections after a drop, all one logical call with one retry budget.
   */
  #stream(method: 'GET' | 'POST', path: string, options: IdempotentCallOptions, body: unknown, resume: ResumeFrom | undefined): APIPromise<RunEventStream> {
    // The stream's own controller: closing the stream (or the caller's signal) aborts its connection.
    const connection = linkedController(options.signal);
    // Fixed here, not per request: a resent streamRun must carry the first one's key.
    const idempotencyKey = method === 'POST' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const call: IdempotentCallOptions = { ...options, signal: connection.signal, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
    const state: CallState = { retries: 0 };
    const resumption = resume === undefined ? undefined : this.#resumption(method, path, call, body, state, resume);
    return new APIPromise(
      this.#openStream(method, path, call, body, state).then(
        ({ response, body: events }) => ({ data: new RunEventStream(events, connection, response, resumption), response }),
        (error: unknown) => {
          connection.abort();
          throw error;
        },
      ),
    );
  }

  /**
   * How a resumed stream reconnects (../BEHAVIOUR.md, "Resuming a stream"): after a drop it rejoins
   * at once, and that first rejoin is not a retry (so `maxRetries: 0` still rejoins once after each
   * drop). A rejoin that fails, before its head (retried by `execute` as the retry table says) or
   * with a stream that ends again without a new event (waiting its backoff here), is a retry of the
   * call, within its budget; a rejoin that delivers a new event gives the budget back.
   * Once an event with an id was delivered it rejoins the run's events after it; before that (a
   * stream that dropped before `run.started`), it sends the same request again with the same
   * `Idempotency-Key`, which the host answers from the run it already has.
   */
  #resumption(method: 'GET' | 'POST', path: string, call: IdempotentCallOptions, body: unknown, state: CallState, resume: ResumeFrom): Resumption {
    const settings = this.#settingsFor(call);
    let fresh = false; // the body being read is a rejoin's that has delivered no new event yet
    return {
      after: resume.after,
      progressed: () => {
        state.retries = 0;
        fresh = false;
      },
      reconnect: async (failure: AgenticDriverError, startedRunId: string | undefined, lastEventId: number) => {
        const runId = resume.runId ?? startedRunId;
        // streamRunEvents always rejoins; a streamRun or actions stream once it delivered an event
        // (before that, where the run's events stood for it is unknown: the request goes again).
        const rejoin = runId !== undefined && (lastEventId > 0 || method === 'GET');
        const [nextMethod, nextPath] = rejoin ? (['GET', fill(PATHS.streamRunEvents, { runId })] as const) : [method, path];
        let waitMs = 0;
        if (fresh) {
          // A rejoin that brought nothing new failed like any other: one retry, after its backoff.
          if (state.retries >= settings.maxRetries) throw failure;
          waitMs = backoffMs(state.retries, settings.random);
          state.retries++;
        } else {
          // The first rejoin after a drop is not a retry: its own failures draw on the whole budget.
          state.retries = 0;
        }
        settings.logger?.debug(
          `agentic-driver: ${method} ${path}: the event stream ended after event ${lastEventId} (${failure.name}: ${failure.message}); ` +
            `${rejoin ? 'rejoining' : 'sending it again'} in ${(waitMs / 1000).toFixed(3)} s`,
        );
        if (waitMs > 0) await sleep(waitMs, call.signal);
        // The caller's own Last-Event-ID was for the first request only: a rejoin starts after the last event delivered.
        const headers = Object.fromEntries(Object.entries(call.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'last-event-id'));
        if (rejoin && lastEventId > 0) headers[LAST_EVENT_ID] = String(lastEventId);
        const { idempotencyKey: _key, ...reading } = call; // a rejoin (GET) takes no key
        const next = rejoin ? { ...reading, headers } : { ...call, headers };
        const opened = await this.#openStream(nextMethod, nextPath, next, rejoin ? undefined : body, state);
        fresh = true;
        return opened.body;
      },
    };
  }

  /** One request of a streamed call: its event stream, or the answer's typed error. */
  async #openStream(method: string, path: string, options: IdempotentCallOptions, body: unknown, state: CallState): Promise<{ response: Response; body: ReadableStream<Uint8Array> }> {
    const { response, body: answer } = await this.#send(method, path, options, body, 'text/event-stream', state);
    if (answer instanceof ReadableStream) return { response, body: answer };
    const text = UTF8.decode(answer);
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    if (!response.ok) throw errorFromResponse(response.status, parsed, response.headers);
    const contentType = response.headers.get('Content-Type');
    throw new UnexpectedResponseError(response.status, `Content-Type ${contentType || '(none)'}`, response.headers);
  }
}

/** Where a resumed stream starts: after the caller's last event; `runId` when the path names the run. */
interface ResumeFrom {
  after: number;
  runId?: string;
}

const LAST_EVENT_ID = 'Last-Event-ID';

/** Whether a run (or its actions) was sent with `onDisconnect: 'continue'`: only then may its stream be resumed. */
function continues(body: RunRequest | SubmitRunActionsRequest): boolean {
  return (body as { onDisconnect?: unknown } | null)?.onDisconnect === 'continue';
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

const FIRST_IDLE_WAIT_MS = 100;
const MAX_IDLE_WAIT_MS = 1_000;

/**
 * `waitUntilIdle`'s wait after `previousMs` (../BEHAVIOUR.md, the busy helper): twice it, a wait under
 * 0.1 s counting as 0.1 s, at most 1 s.
 */
export function nextIdleWaitMs(previousMs: number): number {
  return Math.min(Math.max(previousMs, FIRST_IDLE_WAIT_MS) * 2, MAX_IDLE_WAIT_MS);
}
