/**
 * @agentic-driver/client: the Agentic Driver HTTP contract for TypeScript.
 *
 * `src/generated/` is produced from openapi.yaml by @hey-api/openapi-ts (never edit it);
 * the other modules are the hand-written layer: the client (client.ts) over one transport that
 * implements ../BEHAVIOUR.md (transport.ts: retries, idempotency keys, timeouts, headers,
 * logging), one tree of typed errors, streamed runs and the session handle helper.
 */

export {
  AgenticDriverClient,
  APIPromise,
  type CallOptions,
  type ClientOptions,
  type IdempotentCallOptions,
  type SessionRunRequest,
  type SessionRunResult,
  type StreamRunEventsOptions,
  type WaitUntilIdleOptions,
  type WithResponse,
  DEFAULT_BASE_URL,
} from './client.js';
export { type CACertificates, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUTS, type Logger, MAX_RETRY_AFTER_SECONDS, type Timeouts, type TokenProvider, USER_AGENT } from './transport.js';
export { VERSION } from './version.js';
export * from './errors.js';
export { attachment, handle } from './session.js';
export { parseServerSentEvents, type ServerSentEvent } from './sse.js';
export { type Resumption, RUN_EVENT_TYPES, RunEventStream, type RunStreamEvent, toRunEvent, type UnknownRunEvent } from './streaming.js';
export * from './generated/types.gen.js';
/** The generated SDK functions; pass `client: driver.raw` to use them with a configured client. */
export * as generated from './generated/sdk.gen.js';
