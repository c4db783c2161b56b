// Generated from openapi.yaml by @hey-api/openapi-ts (see generator/typescript/). DO NOT EDIT.

import { client } from './client.gen.js';
import type { Client, Options as Options2, TDataShape } from './client/index.js';
import type { CancelRunData, CancelRunErrors, CancelRunResponses, CreateSessionData, CreateSessionErrors, CreateSessionResponses, DeleteSessionData, DeleteSessionErrors, DeleteSessionResponses, ForkSessionData, ForkSessionErrors, ForkSessionResponses, GetDiscoveryData, GetDiscoveryErrors, GetDiscoveryResponses, GetHealthData, GetHealthResponses, GetReadinessData, GetReadinessErrors, GetReadinessResponses, GetRunData, GetRunErrors, GetRunResponses, ReadSessionData, ReadSessionErrors, ReadSessionResponses, RunData, RunErrors, RunResponses, StreamRunActionsData, StreamRunActionsErrors, StreamRunActionsResponse, StreamRunActionsResponses, StreamRunData, StreamRunErrors, StreamRunEventsData, StreamRunEventsErrors, StreamRunEventsResponse, StreamRunEventsResponses, StreamRunResponse, StreamRunResponses, SubmitRunActionsData, SubmitRunActionsErrors, SubmitRunActionsResponses, TruncateSessionData, TruncateSessionErrors, TruncateSessionResponses } from './types.gen.js';

export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean, TResponse = unknown> = Options2<TData, ThrowOnError, TResponse> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: Record<string, unknown>;
};

/**
 * Report that the host process is serving.
 */
export const getHealth = <ThrowOnError extends boolean = false>(options?: Options<GetHealthData, ThrowOnError>) => (options?.client ?? client).get<GetHealthResponses, unknown, ThrowOnError>({ url: '/healthz', ...options });

/**
 * Report whether the host takes new work.
 *
 * 200 while the host takes new sessions and stateless runs; `SHUTTING_DOWN`
 * (503) from the moment it starts draining until it exits. A proxy in
 * front of several hosts sends new work only to ready hosts, and keeps
 * sending a draining host the requests for its own sessions and runs
 * (`/healthz` stays the liveness check). `HEAD` answers the same status.
 * A host that started from a restart snapshot says what it restored
 * (`restored`).
 *
 */
export const getReadiness = <ThrowOnError extends boolean = false>(options?: Options<GetReadinessData, ThrowOnError>) => (options?.client ?? client).get<GetReadinessResponses, GetReadinessErrors, ThrowOnError>({ url: '/readyz', ...options });

/**
 * Describe the host, the provider instances the caller may use, and the sessions policy.
 *
 * Lists only the provider instances the caller's token is granted. An
 * instance's account binding is reported as a boolean, never as the
 * account id itself.
 *
 */
export const getDiscovery = <ThrowOnError extends boolean = false>(options?: Options<GetDiscoveryData, ThrowOnError>) => (options?.client ?? client).get<GetDiscoveryResponses, GetDiscoveryErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/discovery',
    ...options
});

/**
 * Create a session bound to the caller, a provider instance, its account and a model.
 *
 * Needs the `create` session grant and a grant for the provider instance.
 * `mode` is explicit: `history` keeps visible user and assistant text;
 * `native` also keeps the provider's own state inside the host. The
 * optional `history` imports visible messages, bounded by the host's
 * `maxMessages` and `maxRecordBytes`.
 *
 */
export const createSession = <ThrowOnError extends boolean = false>(options: Options<CreateSessionData, ThrowOnError>) => (options.client ?? client).post<CreateSessionResponses, CreateSessionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/sessions',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Delete a session and abort its active turn.
 *
 * Needs the `delete` session grant and a grant for the session's provider
 * instance. An active turn is aborted, including a run still waiting for
 * a run slot; its request answers `RUN_CANCELLED`. Deletion cannot undo
 * external tool effects.
 *
 */
export const deleteSession = <ThrowOnError extends boolean = false>(options: Options<DeleteSessionData, ThrowOnError>) => (options.client ?? client).delete<DeleteSessionResponses, DeleteSessionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/sessions/{sessionId}',
    ...options
});

/**
 * Read a session's metadata, instructions, visible history and recorded turns.
 *
 * Needs the `read` session grant and a grant for the session's provider
 * instance. Reading does not extend retention. Use it to reconcile a
 * final response that was lost: the revision and history have already
 * moved on.
 *
 */
export const readSession = <ThrowOnError extends boolean = false>(options: Options<ReadSessionData, ThrowOnError>) => (options.client ?? client).get<ReadSessionResponses, ReadSessionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/sessions/{sessionId}',
    ...options
});

/**
 * Keep only the first turns of a session (explicit prefix truncation).
 *
 * Keeps the first `keepTurns` recorded turns (and any history imported at
 * creation) and drops the rest, advancing the revision. Nothing that stays
 * is rewritten, so native state (signed blocks) stays valid and a cut
 * never separates a tool call from its result. Accounting is untouched.
 * It follows a run's rules: a stale revision is
 * `SESSION_REVISION_CONFLICT`, an active turn `SESSION_BUSY`. An
 * interrupted session may be truncated (to its last good turn, or
 * further), which makes it ready again: the documented way to recover a
 * conversation without starting over. Needs the `continue` grant.
 *
 */
export const truncateSession = <ThrowOnError extends boolean = false>(options: Options<TruncateSessionData, ThrowOnError>) => (options.client ?? client).post<TruncateSessionResponses, TruncateSessionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/sessions/{sessionId}/truncate',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Copy a session up to a turn boundary into a new session on the same host.
 *
 * Creates a new session owned by the caller on the same host, with the
 * source's provider instance, account, model, mode, instructions and
 * `nativeHistory`, holding its history, recorded turns and native state
 * up to the boundary `revision` (default: the current one). Native state
 * is copied inside the host and never leaves it. The source is not
 * changed, and both sessions then continue independently.
 *
 * The boundary is 0 (the imported history only), the current revision,
 * or the revision of a turn still recorded. The fork starts at that
 * revision, with the source's turns up to it (a revision numbers a state
 * of the history, and the fork holds that state), and with its own
 * accounting at zero (what the source consumed stays counted once, on
 * the source). An interrupted source forks from its last good state and
 * the fork is ready. A source with an active turn is `SESSION_BUSY`; a
 * boundary the session no longer holds (truncated, or not yet reached)
 * is `SESSION_REVISION_CONFLICT` with `currentRevision`. Needs the
 * `read` and `create` grants and a grant for the provider instance;
 * store capacity applies as for `createSession`, and so do idempotency
 * keys.
 *
 */
export const forkSession = <ThrowOnError extends boolean = false>(options: Options<ForkSessionData, ThrowOnError>) => (options.client ?? client).post<ForkSessionResponses, ForkSessionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/sessions/{sessionId}/fork',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Run one model turn, stateless or continuing a session.
 *
 * A stateless run sends the whole context (`instructions`, `history`,
 * `attachments`, `retrieval`). A session run sends only `input` and the
 * session handle `{id, revision}`; it needs the `continue` grant, may not
 * override the session's instructions or history
 * (`SESSION_OVERRIDE_REJECTED`) and accepts no attachments or retrieval
 * (`SESSION_CONTEXT_UNSUPPORTED`). Exactly one turn may be active in a
 * session: a stale revision is `SESSION_REVISION_CONFLICT`, an active
 * turn is `SESSION_BUSY`, and neither starts a model call.
 *
 */
export const run = <ThrowOnError extends boolean = false>(options: Options<RunData, ThrowOnError>) => (options.client ?? client).post<RunResponses, RunErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Run one model turn and stream its events (Server-Sent Events).
 *
 * The same request and the same session rules as `run`. Refusals known
 * before the stream starts (401, 403, 404, 408, 409, 413, 415, 421, 422, 501, 503)
 * are ordinary problem responses. Once the run is admitted the answer is
 * `text/event-stream`: each SSE message has an `id`, an `event` equal to
 * the event's `type`, and `data` holding one `RunEvent` as JSON. The
 * stream ends after `run.completed`, `run.requires_action` or
 * `run.failed`; a provider failure after admission is a `run.failed`
 * whose `problem` carries the code `run` would answer with
 * (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`, `PROVIDER_AUTH_FAILED`,
 * `PROVIDER_REJECTED`, `PROVIDER_ERROR`, `PROVIDER_TIMEOUT`), including
 * `retryAfterSeconds` where waiting helps. During long silences the host sends SSE comment lines
 * (`: keep-alive`). A client that disconnects after model work started
 * leaves the session `interrupted` (reason `disconnected`); before, the
 * session stays `ready`. With `onDisconnect: continue` the run goes on
 * instead; rejoin it with `streamRunEvents` and `Last-Event-ID`. A
 * retry of a `continue` run with the same `Idempotency-Key` while it is
 * still active joins it: the answer streams its events from the first,
 * and no second turn starts.
 *
 */
export const streamRun = <ThrowOnError extends boolean = false>(options: Options<StreamRunData, ThrowOnError, StreamRunResponse>) => (options.client ?? client).sse.post<StreamRunResponses, StreamRunErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs/stream',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Continue a run that waits for function results or approvals.
 *
 * Answers the run's `requiredAction`: `functionResults` for
 * `function_calls`, `approvals` for `approvals`, with exactly the call ids
 * it asked for (otherwise `ACTION_MISMATCH`). The same turn continues and
 * this request answers like `run`: completed, or waiting again. A run that
 * is still active but waits for no action is `RUN_NOT_WAITING`; one that
 * has finished (or never existed for this caller) is `RUN_NOT_FOUND`.
 * Needs the run's provider grant and,
 * for a session run, the `continue` grant.
 *
 * A waiting run has no connection to lose: the request that answered
 * `requires_action` (or the stream that ended with `run.requires_action`)
 * is over, and closing it changes nothing. The run stays the session's
 * active turn, with retention suspended, until it is answered here,
 * cancelled (`cancelRun`), its session deleted, or the host stops (reason
 * `shutdown`). Losing the connection of this request once the turn
 * continues is a disconnect after model work started: the session is
 * interrupted (reason `disconnected`).
 *
 */
export const submitRunActions = <ThrowOnError extends boolean = false>(options: Options<SubmitRunActionsData, ThrowOnError>) => (options.client ?? client).post<SubmitRunActionsResponses, SubmitRunActionsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs/{runId}/actions',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Continue a waiting run and stream the rest of its events.
 *
 * `submitRunActions` with a streamed answer, exactly as `streamRun`
 * streams: refusals before the stream starts are problem responses.
 *
 */
export const streamRunActions = <ThrowOnError extends boolean = false>(options: Options<StreamRunActionsData, ThrowOnError, StreamRunActionsResponse>) => (options.client ?? client).sse.post<StreamRunActionsResponses, StreamRunActionsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs/{runId}/actions/stream',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Cancel an active run of the caller.
 *
 * Cancels a run that is waiting for a run slot or running. Cancelled
 * before model work started, its session returns to `ready`; after,
 * the session becomes `interrupted`. The cancelled run's own request
 * answers `RUN_CANCELLED`. The answer to this request reports the
 * session as it is once the cancellation has settled. Cancelling a
 * session run needs the `continue` grant; every run needs its
 * provider grant. A run of another subject, or one that is no longer
 * active, is `RUN_NOT_FOUND`.
 *
 */
export const cancelRun = <ThrowOnError extends boolean = false>(options: Options<CancelRunData, ThrowOnError>) => (options.client ?? client).post<CancelRunResponses, CancelRunErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs/{runId}/cancel',
    ...options
});

/**
 * Read a run's state and outcome.
 *
 * The run's `status`, its session at the current revision (a session
 * run), its `RunResult` once it completed or paused, its problem once
 * it failed or was cancelled, and the ids of its first still-buffered
 * and last events. Runs are readable while they are active and for the
 * host's `runs.retentionMs` after they end (at most `runs.maxEntries`
 * ended runs, the oldest forgotten first), so an application whose
 * answer was lost (a dropped `run`, a stream cut before its last event)
 * can reconcile it without running the turn again. Only the subject
 * that started the run reads it, with the run's provider grant and, for
 * a session run, the `read` grant; any other caller, an unknown run and
 * a forgotten one are `RUN_NOT_FOUND`.
 *
 */
export const getRun = <ThrowOnError extends boolean = false>(options: Options<GetRunData, ThrowOnError>) => (options.client ?? client).get<GetRunResponses, GetRunErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs/{runId}',
    ...options
});

/**
 * Rejoin a run's event stream after a Last-Event-ID.
 *
 * Replays the run's buffered events after the one named by
 * `Last-Event-ID` (absent: from the first), each with the id its
 * original stream carried, then follows the run live until it ends or
 * pauses: the stream ends after `run.completed`, `run.requires_action`
 * or `run.failed` (a cancellation is a `run.failed` with
 * `RUN_CANCELLED`). A run that has already paused or ended replays up
 * to that event and ends. Every event is sent once and in order;
 * several readers may follow one run. Reading never stops the run: a
 * reader that goes away is only a reader gone, whatever the run's
 * `onDisconnect`. The same access and retention as `getRun`. A
 * `Last-Event-ID` older than the oldest event still buffered is
 * `RUN_EVENTS_EXPIRED` (410, with `firstEventId`): read `getRun` for the
 * outcome, or rejoin from `firstEventId - 1` accepting the gap.
 *
 */
export const streamRunEvents = <ThrowOnError extends boolean = false>(options: Options<StreamRunEventsData, ThrowOnError, StreamRunEventsResponse>) => (options.client ?? client).sse.get<StreamRunEventsResponses, StreamRunEventsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/v1/runs/{runId}/events',
    ...options
});
