/**
 * The transport under every call: a `fetch` that implements ../BEHAVIOUR.md for one logical
 * call: headers (User-Agent, Authorization set last, one Idempotency-Key for every attempt),
 * timeouts (connect, read, stream idle), retries (the table, `Retry-After` up to 60 s, backoff
 * with jitter), debug logging, and typed errors for every failure without an answer.
 *
 * The generated client is given this function as its `fetch`, so the generated SDK functions
 * (`client.raw`) get the same behaviour as the hand-written methods.
 */

import { restored421 } from './dispatcher.js';
import { AbortError, ConnectionError, retryAfterSeconds, TimeoutError } from './errors.js';
import { operationOf } from './operations.gen.js';
import { ROUTING_HEADER, routingHost } from './routing.js';
import { VERSION } from './version.js';

export { type CACertificates, nodeDispatcher, restored421 } from './dispatcher.js';
export { hostOf, ROUTING_HEADER, routingHost } from './routing.js';

/** The `User-Agent` every request sends unless the caller sets one. */
export const USER_AGENT = `agentic-driver-typescript/${VERSION}`;

/** Timeouts in milliseconds (../BEHAVIOUR.md, "Timeouts"). */
export interface Timeouts {
  /** Opening the connection; 5 000 by default. Applied through Node's fetch; elsewhere the platform's. */
  connect: number;
  /** Waiting for the answer's head, and between body bytes of a JSON answer; 600 000 by default. */
  read: number;
  /** The longest silence between two events of a stream; 60 000 by default. */
  streamIdle: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({ connect: 5_000, read: 600_000, streamIdle: 60_000 });
export const DEFAULT_MAX_RETRIES = 2;
/** The longest `Retry-After` that is waited out; a longer ask raises at once. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** Where debug lines go: the `logger` option (console-compatible). */
export interface Logger {
  debug(message: string): void;
}

/**
 * Asked for the bearer token of every attempt (../BEHAVIOUR.md, "Tokens"): `refused` is the token the
 * host just refused (`error="invalid_token"`), or `undefined` on an ordinary attempt, so a provider that
 * caches tokens can drop exactly that one.
 */
export type TokenProvider = (refused: string | undefined) => string | Promise<string>;

export interface TransportSettings {
  fetch: typeof fetch;
  token: string | TokenProvider | undefined;
  maxRetries: number;
  timeouts: Timeouts;
  logger: Logger | undefined;
  /** For Node's fetch: a dispatcher with the connect timeout (undefined elsewhere). */
  dispatcher: () => Promise<unknown>;
  /** Random in [0, 1), for jitter (a test may fix it). */
  random: () => number;
}

/** The operations that take an `Idempotency-Key` (all POST): createSession, forkSession, run, streamRun, the two actions. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['HOST_BUSY', 'SESSION_STORE_FULL', 'SHUTTING_DOWN', 'HOST_UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_USE']);
const UTF8 = new TextDecoder();
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The host to send the same request to at once, when the answer is a 421 `MISDIRECTED_REQUEST`. */
function misdirectedOwner(response: Response, body: AnswerBody): string | undefined {
  if (response.status !== 421 || !(body instanceof Uint8Array)) return undefined;
  try {
    const problem = JSON.parse(UTF8.decode(body)) as { code?: unknown; ownerHostId?: unknown } | null;
    const owner = problem?.ownerHostId;
    return problem?.code === 'MISDIRECTED_REQUEST' && typeof owner === 'string' && HOST_LABEL.test(owner) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this request's operation takes an `Idempotency-Key` (operations.gen.ts, from openapi.yaml). */
export function takesIdempotencyKey(method: string, path: string): boolean {
  return operationOf(method, path)?.idempotencyKey === true;
}

/** The wait before retry `n` (from 0) without `Retry-After`: `min(0.5 s * 2^n, 8 s)` times [0.75, 1.0]. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  return Math.min(500 * 2 ** retry, 8_000) * (0.75 + 0.25 * random());
}

/** The problem code of an answer, when it is a problem document of ours. */
function problemCode(headers: Headers, text: string): string | undefined {
  if (!(headers.get('Content-Type') ?? '').includes('application/problem+json')) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an answer with an error status may be retried (the table of ../BEHAVIOUR.md). */
export function retryableAnswer(status: number, headers: Headers, text: string): boolean {
  if (headers.get('x-should-retry')?.trim().toLowerCase() === 'false') return false;
  const code = problemCode(headers, text);
  if (code !== undefined) return RETRYABLE_CODES.has(code);
  return status === 502 || status === 503 || status === 504;
}

/** Sleeps `ms`, rejecting with `AbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError({ cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether a platform fetch error is a connect timeout (undici's `UND_ERR_CONNECT_TIMEOUT`). */
function isConnectTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || name === 'ConnectTimeoutError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return detail === undefined ? message : `${message} (${detail})`;
}

/** What one attempt ended with. `body` is the whole body, or (an event stream's) the idle-bounded stream. */
type Outcome =
  | { kind: 'answer'; response: Response; body: AnswerBody; retryable: boolean; retryAfter: number | undefined }
  | { kind: 'failure'; error: ConnectionError; retryable: boolean };

export type AnswerBody = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;

/** The answer of a logical call: the last attempt's head, and its body read whole (or its stream). */
export interface Answer {
  response: Response;
  body: AnswerBody;
}

/** A marker abort reason for the client's own timers (never seen by callers). */
class TimerFired {
  constructor(readonly kind: 'read' | 'stream-idle') {}
}

class Attempt {
  readonly controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #fired: TimerFired | undefined;
  readonly #onAbort: () => void;

  constructor(readonly caller: AbortSignal) {
    this.#onAbort = () => this.controller.abort(caller.reason);
    caller.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** (Re)starts the timer: when it fires, the attempt's connection is aborted. */
  arm(kind: 'read' | 'stream-idle', ms: number): void {
    this.disarm();
    this.#timer = setTimeout(() => {
      this.#fired = new TimerFired(kind);
      this.controller.abort(this.#fired);
    }, ms);
  }

  disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  get fired(): TimerFired | undefined {
    return this.#fired;
  }

  /** The typed error for a platform failure of this attempt. */
  error(platform: unknown, timeouts: Timeouts): AgenticDriverFailure {
    if (this.#fired !== undefined) {
      const kind = this.#fired.kind;
      return new TimeoutError(kind, kind === 'read' ? timeouts.read : timeouts.streamIdle, { cause: platform });
    }
    if (this.caller.aborted) return new AbortError({ cause: this.caller.reason });
    if (platform instanceof ConnectionError || platform instanceof AbortError) return platform;
    if (isConnectTimeout(platform)) return new TimeoutError('connect', timeouts.connect, { cause: platform });
    return new ConnectionError(`connection failed: ${describeFailure(platform)}`, { cause: platform });
  }

  finish(): void {
    this.disarm();
    this.caller.removeEventListener('abort', this.#onAbort);
  }
}

type AgenticDriverFailure = ConnectionError | AbortError;

/** Reads a whole body, the read timeout restarting at every chunk. */
async function readBody(body: ReadableStream<Uint8Array>, attempt: Attempt, readMs: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    attempt.arm('read', readMs);
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  attempt.disarm();
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** A stream body whose silences are bounded by the stream-idle timeout, and whose failures are typed. */
function idleBoundedBody(body: ReadableStream<Uint8Array>, attempt: Attempt, timeouts: Timeouts): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      attempt.arm('stream-idle', timeouts.streamIdle);
      try {
        const { done, value } = await reader.read();
        attempt.disarm();
        if (done) {
          attempt.finish();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        const typed = attempt.error(error, timeouts);
        attempt.finish();
        controller.error(typed);
      }
    },
    async cancel(reason) {
      attempt.controller.abort(reason); // the consumer is done: close the connection
      attempt.finish();
      await reader.cancel(reason).catch(() => undefined);
    },
  }, { highWaterMark: 0 }); // read only when the consumer asks: the idle limit measures the host's silence
}


/** One attempt: sends, waits for the head (read timeout), reads a JSON body (read timeout per chunk). */
async function attemptOnce(settings: TransportSettings, call: Call): Promise<Outcome> {
  const attempt = new Attempt(call.signal);
  const { timeouts } = settings;
  let response: Response;
  try {
    const dispatcher = await settings.dispatcher();
    attempt.arm('read', timeouts.read);
    const init = { method: call.method, headers: call.headers, body: call.body, signal: attempt.controller.signal };
    response = restored421(await settings.fetch(call.url, dispatcher === undefined ? init : ({ ...init, dispatcher } as RequestInit)));
  } catch (error) {
    const typed = attempt.error(error, timeouts);
    attempt.finish();
    if (typed instanceof AbortError) throw typed;
    // No head arrived. A read timeout of a POST is not retried: the host stops a run whose client hung up.
    const retryable = !(typed instanceof TimeoutError && typed.kind === 'read' && call.method === 'POST');
    return { kind: 'failure', error: typed, retryable };
  }
  attempt.disarm();
  const contentType = response.headers.get('Content-Type') ?? '';
  if (response.ok && contentType.startsWith('text/event-stream') && response.body !== null) {
    return { kind: 'answer', response, body: idleBoundedBody(response.body, attempt, timeouts), retryable: false, retryAfter: undefined };
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = response.body === null ? new Uint8Array() : await readBody(response.body, attempt, timeouts.read);
  } catch (error) {
    const typed = attempt.error(error, timeouts);
    attempt.finish();
    if (typed instanceof AbortError) throw typed;
    return { kind: 'failure', error: typed, retryable: false }; // the head had arrived
  }
  attempt.finish();
  if (response.ok) return { kind: 'answer', response, body: bytes, retryable: false, retryAfter: undefined };
  return {
    kind: 'answer',
    response,
    body: bytes,
    retryable: retryableAnswer(response.status, response.headers, UTF8.decode(bytes)),
    retryAfter: retryAfterSeconds(response.headers),
  };
}

/**
 * What the requests of one logical call share: the retries used so far (of `maxRetries`), and the
 * owner a `421` was followed to. A call is usually one request and its attempts; a resumed stream
 * (client.ts) is several requests (the first, then its rejoins), drawing on one budget.
 */
export interface CallState {
  /** Retries used; a resumed stream sets it back to 0 when a request delivered a new event, and for the first rejoin after a drop. */
  retries: number;
  /** Set once a `421` was followed (at most once per call); every later request is sent there. */
  owner?: string;
}

/** One logical call, as `execute` takes it. */
export interface Call {
  method: string;
  url: string;
  /** The caller's headers (defaults, per call); `execute` adds User-Agent, Idempotency-Key and Authorization. */
  headers: Headers;
  body: string | ArrayBuffer | null;
  /** The caller's signal (a never-aborting one when none). */
  signal: AbortSignal;
  /** Shared with the other requests of the same logical call; a fresh one when absent. */
  state?: CallState;
}

/** One logical call: every attempt, and the answer (or the typed error) of the last. */
export async function execute(settings: TransportSettings, call: Call): Promise<Answer> {
  const { headers, method } = call;
  const state: CallState = call.state ?? { retries: 0 };
  const path = call.url.slice(call.url.indexOf('/', call.url.indexOf('//') + 2)).split('?')[0] ?? '';
  if (!headers.has('User-Agent')) headers.set('User-Agent', USER_AGENT);
  if (takesIdempotencyKey(method, path) && !headers.has('Idempotency-Key')) headers.set('Idempotency-Key', crypto.randomUUID());
  const provider = typeof settings.token === 'function' ? settings.token : undefined;
  if (typeof settings.token === 'string') headers.set('Authorization', `Bearer ${settings.token}`); // last: defaults cannot replace it
  if (state.owner !== undefined) headers.set(ROUTING_HEADER, state.owner);
  const attempts = settings.maxRetries + 1;
  let sent: string | undefined; // the provider's token of the attempt under way
  let refused: string | undefined;
  let reauthorized = false;
  for (;;) {
    const attempt = state.retries + 1;
    if (call.signal.aborted) throw new AbortError({ cause: call.signal.reason });
    if (provider !== undefined) {
      sent = await askedToken(provider, refused);
      headers.set('Authorization', `Bearer ${sent}`);
      refused = undefined;
    }
    const outcome = await attemptOnce(settings, call);
    if (sent !== undefined && !reauthorized && outcome.kind === 'answer' && invalidToken(outcome.response)) {
      // The host refused the provider's token itself: ask the provider again and send once more, at once.
      settings.logger?.debug(`agentic-driver: ${method} ${path} -> 401 invalid_token (attempt ${attempt}/${attempts}); asking for a new token`);
      refused = sent;
      reauthorized = true;
      continue;
    }
    const owner = state.owner !== undefined || outcome.kind !== 'answer' ? undefined : misdirectedOwner(outcome.response, outcome.body);
    if (owner !== undefined) {
      // A wrong hop: the same request at once to the owner, once per call, not one of the retries.
      state.owner = owner;
      headers.set(ROUTING_HEADER, owner);
      settings.logger?.debug(`agentic-driver: ${method} ${path} -> 421 (attempt ${attempt}/${attempts}); sending it to host ${owner}`);
      continue;
    }
    let waitMs: number | undefined;
    if (outcome.retryable && attempt < attempts) {
      if (outcome.kind === 'answer' && outcome.retryAfter !== undefined) {
        if (outcome.retryAfter <= MAX_RETRY_AFTER_SECONDS) waitMs = outcome.retryAfter * 1000;
      } else {
        waitMs = backoffMs(attempt - 1, settings.random);
      }
    }
    if (settings.logger !== undefined) {
      const what =
        outcome.kind === 'answer'
          ? `${outcome.response.status}${requestIdOf(outcome.response)}`
          : `${outcome.error.name}: ${outcome.error.message}`;
      const next = waitMs === undefined ? '' : `; retrying in ${(waitMs / 1000).toFixed(3)} s`;
      settings.logger.debug(`agentic-driver: ${method} ${path} -> ${what} (attempt ${attempt}/${attempts})${next}`);
    }
    if (waitMs === undefined) {
      if (outcome.kind === 'failure') throw outcome.error;
      return { response: outcome.response, body: outcome.body };
    }
    await sleep(waitMs, call.signal);
    state.retries++;
  }
}

const INVALID_TOKEN = /\berror\s*=\s*"?invalid_token"?/i;
const HEADER_SAFE = /^[\x21-\x7e]+$/;

function invalidToken(response: Response): boolean {
  return response.status === 401 && INVALID_TOKEN.test(response.headers.get('WWW-Authenticate') ?? '');
}

/** The provider's token, or the error that fails the call before anything is sent (never retried). */
async function askedToken(provider: TokenProvider, refused: string | undefined): Promise<string> {
  let value: unknown;
  try {
    value = await provider(refused);
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    throw new ConnectionError(`not sent: the token provider failed (${name})`, { cause: error });
  }
  if (typeof value !== 'string' || !HEADER_SAFE.test(value)) {
    const what = value === '' ? 'an empty string' : `a ${typeof value} a header cannot carry`;
    throw new ConnectionError(`not sent: the token provider returned ${what}`);
  }
  return value;
}

/**
 * `execute` as a `fetch`, for the generated client (`client.raw`): the generated SDK functions
 * get the same behaviour as the hand-written methods, and an answer rebuilt from what was read.
 */
export function createTransport(settings: TransportSettings): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const body = request.body === null ? null : await request.arrayBuffer();
    const call = { method: request.method.toUpperCase(), url: request.url, headers: new Headers(request.headers), body, signal: request.signal };
    if (!call.headers.has(ROUTING_HEADER)) {
      const host = routingHost(new URL(request.url).pathname, body === null ? undefined : UTF8.decode(body), call.method);
      if (host !== undefined) call.headers.set(ROUTING_HEADER, host);
    }
    const answer = await execute(settings, call);
    const { response } = answer;
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : answer.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function requestIdOf(response: Response): string {
  const id = response.headers.get('X-Request-Id');
  return id === null ? '' : ` request-id ${id}`;
}
