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
import { errorFromResponse, UnexpectedResponseError } from './errors.js';
import { RunEventStream } from './streaming.js';

export interface ClientOptions {
  /** The host, for example `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A bearer token configured on the host (only `getHealth` works without one). */
  token?: string;
  /** A fetch implementation; `globalThis.fetch` by default. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

export interface CallOptions {
  /** Aborts the request (for a stream: closes the connection). */
  signal?: AbortSignal;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
}

export interface IdempotentCallOptions extends CallOptions {
  /** Makes a retry safe: a repeat with the same key and body replays the recorded outcome. */
  idempotencyKey?: string;
}

/** What a generated SDK function resolves to (with `throwOnError: false`). */
interface Answer {
  data?: unknown;
  error?: unknown;
  response?: Response;
}

export class AgenticDriverClient {
  /** The generated client, configured with the base URL and token: pass it as `client` to the generated functions. */
  readonly raw: Client;
  /** The same client, except that SSE operations answer like plain requests with the body as a stream. */
  readonly #streaming: Client;

  constructor(options: ClientOptions) {
    this.raw = createClient(
      createConfig({
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        auth: options.token,
        fetch: options.fetch,
        headers: options.headers,
      }),
    );
    // The generated SSE client would resend the POST on a broken stream (a second run) and
    // discards a refusal's problem document; a plain request with `parseAs: 'stream'` does neither.
    const raw = this.raw;
    const post = (request: object) => raw.request({ ...request, method: 'POST', parseAs: 'stream' } as never);
    this.#streaming = { ...raw, sse: { ...raw.sse, post } } as unknown as Client;
  }

  /** `GET /healthz`: the host is serving. */
  getHealth(options: CallOptions = {}): Promise<Health> {
    return this.#answer(sdk.getHealth({ client: this.raw, ...request(options) }));
  }

  /** `GET /v1/discovery`: the host as this token sees it. */
  getDiscovery(options: CallOptions = {}): Promise<Discovery> {
    return this.#answer(sdk.getDiscovery({ client: this.raw, ...request(options) }));
  }

  /** `POST /v1/sessions`: a new session at revision 0. */
  createSession(body: CreateSessionRequest, options: IdempotentCallOptions = {}): Promise<CreateSessionResponse> {
    return this.#answer(sdk.createSession({ client: this.raw, body, ...request(options) }));
  }

  /** `GET /v1/sessions/{sessionId}`: metadata, instructions, visible history and turns. */
  readSession(sessionId: string, options: CallOptions = {}): Promise<ReadSessionResponse> {
    return this.#answer(sdk.readSession({ client: this.raw, path: { sessionId }, ...request(options) }));
  }

  /** `DELETE /v1/sessions/{sessionId}`: removes the session and aborts its active turn. */
  async deleteSession(sessionId: string, options: CallOptions = {}): Promise<void> {
    await this.#answer(sdk.deleteSession({ client: this.raw, path: { sessionId }, ...request(options) }));
  }

  /** `POST /v1/sessions/{sessionId}/truncate`: keeps the first `keepTurns` turns, at the next revision. */
  truncateSession(sessionId: string, body: TruncateSessionRequest, options: CallOptions = {}): Promise<CreateSessionResponse> {
    return this.#answer(sdk.truncateSession({ client: this.raw, path: { sessionId }, body, ...request(options) }));
  }

  /** `POST /v1/runs`: one turn, stateless or continuing a session (`session: handle(info)`). */
  run(body: RunRequest, options: IdempotentCallOptions = {}): Promise<RunResult> {
    return this.#answer(sdk.run({ client: this.raw, body, ...request(options) }));
  }

  /** `POST /v1/runs/stream`: the same turn as `run`, as a stream of typed events. */
  streamRun(body: RunRequest, options: IdempotentCallOptions = {}): Promise<RunEventStream> {
    const connection = linkedController(options.signal);
    const answer = sdk.streamRun({ client: this.#streaming, body, ...request(options, connection.signal) });
    return this.#stream(answer as unknown as Promise<Answer>, connection);
  }

  /** `POST /v1/runs/{runId}/actions`: answers a run waiting in `requires_action`. */
  submitRunActions(runId: string, body: SubmitRunActionsRequest, options: IdempotentCallOptions = {}): Promise<RunResult> {
    return this.#answer(sdk.submitRunActions({ client: this.raw, path: { runId }, body, ...request(options) }));
  }

  /** `POST /v1/runs/{runId}/actions/stream`: answers a waiting run and streams the rest of it. */
  streamRunActions(
    runId: string,
    body: SubmitRunActionsRequest,
    options: IdempotentCallOptions = {},
  ): Promise<RunEventStream> {
    const connection = linkedController(options.signal);
    const answer = sdk.streamRunActions({
      client: this.#streaming,
      path: { runId },
      body,
      ...request(options, connection.signal),
    });
    return this.#stream(answer as unknown as Promise<Answer>, connection);
  }

  /** `POST /v1/runs/{runId}/cancel`: cancels an active run. */
  cancelRun(runId: string, options: CallOptions = {}): Promise<CancelRunResponse> {
    return this.#answer(sdk.cancelRun({ client: this.raw, path: { runId }, ...request(options) }));
  }

  async #answer<T>(pending: Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<T> {
    const answer = await pending;
    if (answer.response === undefined) throw answer.error; // fetch itself failed (network, abort)
    if (!answer.response.ok) throw errorFromResponse(answer.response.status, answer.error, answer.response.headers);
    return answer.data as T;
  }

  async #stream(pending: Promise<Answer>, connection: AbortController): Promise<RunEventStream> {
    const answer = await pending;
    const { response } = answer;
    if (response === undefined) throw answer.error;
    if (!response.ok) throw errorFromResponse(response.status, answer.error, response.headers);
    const contentType = response.headers.get('Content-Type') ?? '';
    const body = answer.data as ReadableStream<Uint8Array> | null | undefined;
    if (!contentType.startsWith('text/event-stream') || !body) {
      connection.abort();
      throw new UnexpectedResponseError(response.status, `Content-Type ${contentType || '(none)'}`);
    }
    return new RunEventStream(body, connection, response);
  }
}

function request(options: IdempotentCallOptions, signal?: AbortSignal) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
  if (signal !== undefined) headers.Accept = 'text/event-stream';
  const effectiveSignal = signal ?? options.signal;
  return { headers, ...(effectiveSignal ? { signal: effectiveSignal } : {}) };
}

/** An AbortController for one stream's connection that also follows the caller's signal. */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller;
}
