// Generated from openapi.yaml by @hey-api/openapi-ts (see generator/typescript/). DO NOT EDIT.

export type ClientOptions = {
    baseUrl: 'http://127.0.0.1:8080' | (string & {});
};

export type Readiness = {
    /**
     * Always `ready` while the host takes new work.
     */
    status: 'ready';
    restored?: SnapshotRestore;
};

/**
 * Present when this process started from the snapshot its previous run
 * wrote on a clean drain (host JSON `sessions.snapshot`): what it took
 * back before it reported ready.
 *
 */
export type SnapshotRestore = {
    /**
     * Sessions restored, with their ids and revisions.
     */
    sessions: number;
    /**
     * Idempotency records restored (a retry after the restart replays its outcome).
     */
    idempotencyKeys: number;
    /**
     * Sessions not restored, by reason (each logged with its id).
     */
    dropped: {
        /**
         * Their retention ran out while the host was down.
         */
        expired: number;
        /**
         * Their provider instance is no longer configured.
         */
        providerRemoved: number;
        /**
         * Their instance is now bound to another account, or to none.
         */
        accountChanged: number;
        /**
         * Their instance no longer serves their model.
         */
        modelRemoved: number;
        /**
         * They no longer fit the store's bounds (tightened `sessions` settings, or a full store).
         */
        overLimits: number;
    };
};

export type Health = {
    /**
     * Always `ok` while the process serves requests.
     */
    status: 'ok';
};

export type Discovery = {
    /**
     * The host process's id (a DNS label); the session and run ids it makes name it.
     */
    hostId: string;
    /**
     * The host software version.
     */
    version: string;
    /**
     * The subject the caller's token maps to.
     */
    subject: string;
    /**
     * The session operations the caller's token is granted.
     */
    sessionGrants: Array<SessionGrant>;
    /**
     * The provider instances the caller's token may use.
     */
    providers: Array<ProviderInfo>;
    sessions: SessionsPolicy;
    runs?: RunsPolicy;
};

/**
 * A session permission a token may hold.
 */
export const SessionGrant = {
    CREATE: 'create',
    READ: 'read',
    CONTINUE: 'continue',
    DELETE: 'delete'
} as const;

/**
 * A session permission a token may hold.
 */
export type SessionGrant = typeof SessionGrant[keyof typeof SessionGrant];

export type ProviderInfo = {
    /**
     * The provider instance id used in requests.
     */
    id: string;
    /**
     * The adapter kind, for example `echo`.
     */
    kind: string;
    /**
     * The models this instance serves.
     */
    models: Array<string>;
    /**
     * Whether the instance has an account binding, which sessions require. The account id itself is never disclosed.
     */
    accountBound: boolean;
    capabilities: ProviderCapabilities;
};

export type ProviderCapabilities = {
    /**
     * Sessions in `history` mode are supported.
     */
    historyContinuation: boolean;
    /**
     * Sessions in `native` mode are supported.
     */
    nativeContinuation: boolean;
    /**
     * Streamed runs are supported.
     */
    streaming: boolean;
    /**
     * Application-owned functions are supported.
     */
    applicationFunctions: boolean;
    /**
     * The `nativeHistory` filters this instance's native sessions support.
     */
    nativeHistoryFilters: Array<NativeHistoryFilter>;
    /**
     * The attachment media types a stateless run on this instance may send:
     * media types, or ranges such as `text*` (sent decoded, as text beside
     * the input). Images and PDFs go in the provider's own form. Any other
     * type is `ATTACHMENT_UNSUPPORTED` before any model work. Matching
     * ignores case and parameters such as `; charset=utf-8`.
     *
     */
    attachmentMediaTypes?: Array<string>;
};

export type SessionsPolicy = {
    /**
     * Whether this host keeps sessions.
     */
    enabled: boolean;
    /**
     * Idle retention in milliseconds; null when sessions are disabled.
     */
    retentionMs: number | null;
    /**
     * The most sessions the store holds at once.
     */
    maxEntries: number;
    /**
     * The most visible messages one session holds.
     */
    maxMessages: number;
    /**
     * The most encoded bytes one session holds (history, provider state and instructions).
     */
    maxRecordBytes: number;
    /**
     * The most provider-native messages one native session holds.
     */
    maxNativeMessages: number;
};

/**
 * `history` keeps submitted user text and final visible assistant text.
 * `native` also keeps the provider's own state, unchanged, inside the host.
 *
 */
export const SessionMode = { HISTORY: 'history', NATIVE: 'native' } as const;

/**
 * `history` keeps submitted user text and final visible assistant text.
 * `native` also keeps the provider's own state, unchanged, inside the host.
 *
 */
export type SessionMode = typeof SessionMode[keyof typeof SessionMode];

/**
 * `ready` accepts a run at the current revision; `running` has an active
 * turn (running, or waiting for a run slot); `interrupted` refuses runs
 * until the application reconciles and starts a new session.
 *
 */
export const SessionStatus = {
    READY: 'ready',
    RUNNING: 'running',
    INTERRUPTED: 'interrupted'
} as const;

/**
 * `ready` accepts a run at the current revision; `running` has an active
 * turn (running, or waiting for a run slot); `interrupted` refuses runs
 * until the application reconciles and starts a new session.
 *
 */
export type SessionStatus = typeof SessionStatus[keyof typeof SessionStatus];

export type Message = {
    /**
     * Who wrote the message.
     */
    role: 'user' | 'assistant';
    /**
     * The visible text.
     */
    content: string;
};

/**
 * Copy exactly these two fields from the last `SessionInfo` into the next run.
 */
export type SessionHandle = {
    /**
     * The session id (`SessionInfo.id`); a client sends `Agentic-Host` with the host it names.
     */
    id: string;
    /**
     * The revision the caller believes is current (at most 2^53 - 1, which every JSON client represents exactly).
     */
    revision: number;
};

export type SessionInfo = {
    /**
     * The session id, `ses_{hostId}.{random}`: `hostId` is the DNS label
     * of the host process that holds the session (`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
     * and `random` is URL-safe base64, so the first `.` ends the host part.
     * Applications treat the id as opaque; clients and proxies read the
     * host part to route (`Agentic-Host`). Ids of hosts older than this
     * format (`ses_{random}`) name no host and stay valid.
     *
     */
    id: string;
    /**
     * Starts at 0 and advances by one with every completed turn.
     */
    revision: number;
    status: SessionStatus;
    /**
     * The provider instance the session is bound to.
     */
    provider: string;
    /**
     * The model the session is bound to.
     */
    model: string;
    mode: SessionMode;
    /**
     * Creation time, UTC, millisecond precision.
     */
    createdAt: string;
    /**
     * The last change of revision or status.
     */
    updatedAt: string;
    /**
     * When the idle session expires; null while a turn is active.
     */
    expiresAt: string | null;
    /**
     * Visible messages held.
     */
    messageCount: number;
    /**
     * Encoded bytes counted against `maxRecordBytes`.
     */
    recordBytes: number;
    /**
     * The id of the host that holds the session.
     */
    hostId: string;
    nativeHistory: NativeHistoryFilter;
    /**
     * Every turn ever run that reached the model, including interrupted and failed ones; truncation never rewinds it.
     */
    runCount: number;
    usage: Usage;
    /**
     * Cumulative cost when the host has prices for the model, else null.
     */
    cost: number | null;
    retries: RetryAccounting;
    /**
     * Deprecated: read `servedModelRuns`, whose size does not grow with
     * the session's turns. The model that answered each of the
     * session's last 100 turns that reported one, as the provider
     * reported it, oldest first (hosts before 0.3 kept every turn's).
     *
     *
     * @deprecated
     */
    servedModels: Array<string>;
    /**
     * Each model that answered a turn of the session, as the provider
     * reported it, in the order first served, with how many turns it
     * answered. One entry per distinct model, so it stays small
     * whatever the number of turns; like `runCount`, truncation never
     * rewinds it. Sent by every host from 0.3 on.
     *
     */
    servedModelRuns?: Array<ServedModelRuns>;
};

/**
 * A `nativeHistory` other than `full` needs `mode` native.
 */
export type CreateSessionRequest = {
    /**
     * The provider instance id.
     */
    provider: string;
    /**
     * A model the instance serves.
     */
    model: string;
    mode: SessionMode;
    /**
     * Instructions (a system prompt) that belong to the session from now on.
     */
    instructions?: string;
    /**
     * Visible messages to import, bounded by `maxMessages` and `maxRecordBytes`.
     */
    history?: Array<Message>;
    nativeHistory?: NativeHistoryFilter;
};

export type CreateSessionResponse = {
    session: SessionInfo;
};

/**
 * One completed turn still in the history; `history[start:end]` is what it added.
 */
export type Turn = {
    /**
     * The revision the turn produced.
     */
    revision: number;
    /**
     * The run that produced it.
     */
    runId: string;
    /**
     * Index of the turn's first message in `history`.
     */
    start: number;
    /**
     * Index one past the turn's last message in `history`.
     */
    end: number;
    /**
     * When the turn completed.
     */
    at: string;
};

/**
 * Why a turn stopped after model work started. `action_timeout`: the
 * run's `actionTimeoutMs` passed with its required action unanswered.
 *
 */
export const InterruptReason = {
    CANCELLED: 'cancelled',
    FAILED: 'failed',
    DISCONNECTED: 'disconnected',
    IDLE_TIMEOUT: 'idle_timeout',
    LIMIT_EXCEEDED: 'limit_exceeded',
    SHUTDOWN: 'shutdown',
    ACTION_TIMEOUT: 'action_timeout'
} as const;

/**
 * Why a turn stopped after model work started. `action_timeout`: the
 * run's `actionTimeoutMs` passed with its required action unanswered.
 *
 */
export type InterruptReason = typeof InterruptReason[keyof typeof InterruptReason];

/**
 * The turn that interrupted the session, for the application to reconcile.
 */
export type InterruptedTurn = {
    /**
     * The interrupted run.
     */
    runId: string;
    /**
     * The input the interrupted turn was given.
     */
    input: string;
    reason: InterruptReason;
    /**
     * When the turn was interrupted.
     */
    at: string;
};

export type ReadSessionResponse = {
    session: SessionInfo;
    /**
     * The session's instructions, or null.
     */
    instructions: string | null;
    /**
     * The visible history, oldest first. Provider-private state is never shown.
     */
    history: Array<Message>;
    /**
     * The recorded turns still in the history, oldest first.
     */
    turns: Array<Turn>;
    interruptedTurn?: InterruptedTurn;
};

/**
 * A file sent with a stateless run. Text (`text*`, JSON, XML) goes to
 * the model decoded, beside the input; images (`image/png`, `image/jpeg`,
 * `image/webp`, `image/gif`) and PDFs (`application/pdf`) go in the
 * provider's own form, where the instance lists the type in discovery's
 * `attachmentMediaTypes`. The host bounds each attachment's decoded size
 * (`maxAttachmentBytes`) and a run's (`maxRunAttachmentBytes`).
 *
 */
export type Attachment = {
    /**
     * The file name.
     */
    name: string;
    /**
     * The IANA media type, for example `text/plain` or `image/png`.
     */
    mediaType: string;
    /**
     * The file content, base64-encoded.
     */
    data: string;
};

/**
 * Freshly authorized context for a stateless run.
 */
export type Retrieval = {
    documents: Array<RetrievedDocument>;
};

export type RetrievedDocument = {
    /**
     * The application's id for the source.
     */
    id: string;
    /**
     * The retrieved text.
     */
    text: string;
};

/**
 * A stateless run (no `session`) or a session run. A session run owns
 * neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
 * no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
 * `dependentSchemas` below state exactly that.
 *
 */
export type RunRequest = {
    /**
     * The provider instance id; for a session run, the session's provider.
     */
    provider: string;
    /**
     * The model; for a session run, the session's model.
     */
    model: string;
    /**
     * The new user input.
     */
    input: string;
    /**
     * Stateless runs only.
     */
    instructions?: string;
    /**
     * Stateless runs only; the earlier visible conversation.
     */
    history?: Array<Message>;
    /**
     * Stateless runs only.
     */
    attachments?: Array<Attachment>;
    retrieval?: Retrieval;
    session?: SessionHandle;
    /**
     * Application-owned functions the model may call. A call ends the run
     * in `requires_action` until `submitRunActions` brings the results.
     * Names must differ from each other and from the host's own tools.
     *
     */
    tools?: Array<ToolDefinition>;
    /**
     * Opt-in progress timeout: if the provider makes no progress for this
     * long, the run fails with `PROVIDER_TIMEOUT` (a session turn leaves
     * the session interrupted). There is never a total run deadline.
     *
     */
    idleTimeoutMs?: number;
    /**
     * Opt-in bound on each wait for the application: if a required
     * action (function results or approvals) is not answered this long,
     * the run ends as cancelled (`RUN_CANCELLED`, reason
     * `action_timeout`); a session turn had started model work, so the
     * session is interrupted and its interrupted turn records reason
     * `action_timeout`. Without it a paused run waits until it is
     * answered, cancelled or deleted (session retention stays suspended
     * meanwhile). Separate from the host's `maxWaitingRuns`, which bounds
     * how many runs may wait at once.
     *
     */
    actionTimeoutMs?: number;
    onDisconnect?: OnDisconnect;
};

/**
 * What the run does when the client answering it goes away (its
 * connection closes before the answer or the stream's last event):
 * `cancel` (the default) stops the run; a session turn whose model work
 * had started is then `interrupted` (reason `disconnected`), before
 * that the session stays `ready`. `continue` lets the run go on to its
 * end (completed, failed, or paused for function results or approvals)
 * as if the client had stayed: the session stays busy meanwhile and
 * advances when the turn completes. Rejoin it with `streamRunEvents`,
 * read its outcome with `getRun`, or retry the request with the same
 * `Idempotency-Key`. Absent from a run, it is `cancel`; sent with
 * `submitRunActions`, it applies from that answer on, and absent there
 * the run keeps the value it had.
 *
 */
export const OnDisconnect = { CANCEL: 'cancel', CONTINUE: 'continue' } as const;

/**
 * What the run does when the client answering it goes away (its
 * connection closes before the answer or the stream's last event):
 * `cancel` (the default) stops the run; a session turn whose model work
 * had started is then `interrupted` (reason `disconnected`), before
 * that the session stays `ready`. `continue` lets the run go on to its
 * end (completed, failed, or paused for function results or approvals)
 * as if the client had stayed: the session stays busy meanwhile and
 * advances when the turn completes. Rejoin it with `streamRunEvents`,
 * read its outcome with `getRun`, or retry the request with the same
 * `Idempotency-Key`. Absent from a run, it is `cancel`; sent with
 * `submitRunActions`, it applies from that answer on, and absent there
 * the run keeps the value it had.
 *
 */
export type OnDisconnect = typeof OnDisconnect[keyof typeof OnDisconnect];

/**
 * `completed`: the turn finished and `output` holds the reply.
 * `requires_action`: the turn waits for the application (`requiredAction`
 * says for what); it is still the session's active turn.
 *
 */
export const RunStatus = { COMPLETED: 'completed', REQUIRES_ACTION: 'requires_action' } as const;

/**
 * `completed`: the turn finished and `output` holds the reply.
 * `requires_action`: the turn waits for the application (`requiredAction`
 * says for what); it is still the session's active turn.
 *
 */
export type RunStatus = typeof RunStatus[keyof typeof RunStatus];

export type RunOutput = {
    /**
     * The final visible assistant text.
     */
    text: string;
};

/**
 * Token counts summed over the run's provider calls, normalised across
 * providers whatever each one counts: `inputTokens` includes cached input
 * and cache writes, `outputTokens` includes reasoning.
 *
 */
export type Usage = {
    /**
     * Tokens the model read, cached or not.
     */
    inputTokens: number;
    /**
     * Tokens the model wrote, reasoning included.
     */
    outputTokens: number;
    /**
     * Part of `inputTokens` served from the provider's prompt cache.
     */
    cachedInputTokens: number;
    /**
     * Part of `inputTokens` written to the provider's prompt cache.
     */
    cacheWriteTokens: number;
    /**
     * Part of `outputTokens` spent on reasoning or thinking.
     */
    reasoningTokens: number;
};

/**
 * One model that answered turns of a session, and how many.
 */
export type ServedModelRuns = {
    /**
     * The model as the provider reported it.
     */
    model: string;
    /**
     * The turns it answered.
     */
    runs: number;
};

/**
 * Provider attempts that failed and were retried, and what they consumed (already billed).
 */
export type RetryAccounting = {
    count: number;
    inputTokens: number;
    outputTokens: number;
    /**
     * Their cost when the host has prices for the model, else null.
     */
    cost: number | null;
};

/**
 * What a native session keeps of each stored turn (applied when the turn
 * is stored, so replay and bounds both see the filtered history).
 * `full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
 * whole (never edits one; Gemini's signed parts stay); `no_tool_results`
 * replaces each tool result's content with a short placeholder, keeping
 * calls and results paired; `compact_tool_results` cuts each tool result
 * (a string or a list of text blocks) to at most the host's
 * `sessions.compactToolResultsMaxChars` characters. A history that ends
 * inside a tool round keeps that round as it is.
 *
 */
export const NativeHistoryFilter = {
    FULL: 'full',
    NO_REASONING: 'no_reasoning',
    NO_TOOL_RESULTS: 'no_tool_results',
    COMPACT_TOOL_RESULTS: 'compact_tool_results'
} as const;

/**
 * What a native session keeps of each stored turn (applied when the turn
 * is stored, so replay and bounds both see the filtered history).
 * `full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
 * whole (never edits one; Gemini's signed parts stay); `no_tool_results`
 * replaces each tool result's content with a short placeholder, keeping
 * calls and results paired; `compact_tool_results` cuts each tool result
 * (a string or a list of text blocks) to at most the host's
 * `sessions.compactToolResultsMaxChars` characters. A history that ends
 * inside a tool round keeps that round as it is.
 *
 */
export type NativeHistoryFilter = typeof NativeHistoryFilter[keyof typeof NativeHistoryFilter];

export type RunResult = {
    /**
     * The run id, `run_{hostId}.{random}` (the host part as in `SessionInfo.id`).
     */
    id: string;
    status: RunStatus;
    output: RunOutput;
    usage: Usage;
    requiredAction?: RequiredAction;
    /**
     * This run's cost when the host has prices for the model, else null (never a guess).
     */
    cost: number | null;
    retries: RetryAccounting;
    /**
     * The model that answered, as the provider reported it.
     */
    servedModel: string | null;
    session?: SessionInfo;
};

/**
 * An application-owned function the model may call.
 */
export type ToolDefinition = {
    /**
     * The function's name, unique within the run.
     */
    name: string;
    /**
     * What the function does, for the model.
     */
    description?: string;
    /**
     * A JSON Schema for the function's arguments.
     */
    parameters: {
        [key: string]: unknown;
    };
};

export type FunctionCall = {
    /**
     * The id to answer with.
     */
    callId: string;
    /**
     * The function or host tool the model called.
     */
    name: string;
    /**
     * The arguments the model gave, as a JSON object.
     */
    arguments: {
        [key: string]: unknown;
    };
};

/**
 * The model called application-owned functions; submit their results.
 */
export type FunctionCallsAction = {
    type: 'function_calls';
    calls: Array<FunctionCall>;
};

/**
 * The model called host tools that need a person's approval before they act.
 */
export type ApprovalsAction = {
    type: 'approvals';
    approvals: Array<FunctionCall>;
};

/**
 * What a `requires_action` run waits for.
 */
export type RequiredAction = ({
    type: 'function_calls';
} & FunctionCallsAction) | ({
    type: 'approvals';
} & ApprovalsAction);

export type FunctionResult = {
    /**
     * The call this answers.
     */
    callId: string;
    /**
     * The function's result as text (JSON text is fine), given to the model.
     */
    output: string;
};

export type ApprovalDecision = {
    /**
     * The call this decides.
     */
    callId: string;
    /**
     * Approved, the host runs the tool; denied, the model is told so.
     */
    approve: boolean;
    /**
     * Why, passed to the model with a denial.
     */
    reason?: string;
};

/**
 * Exactly one of `functionResults` or `approvals`, matching the run's
 * `requiredAction`, and optionally `onDisconnect` for the rest of the run.
 * A body with both answers, or with neither, is `VALIDATION_ERROR`.
 *
 */
export type SubmitRunActionsRequest = {
    functionResults?: Array<FunctionResult>;
    approvals?: Array<ApprovalDecision>;
    onDisconnect?: OnDisconnect;
};

/**
 * The run was admitted; a session run carries the session (status `running`).
 */
export type RunStartedEvent = {
    type: 'run.started';
    runId: string;
    session?: SessionInfo;
};

/**
 * The next piece of the assistant's visible text.
 */
export type OutputDeltaEvent = {
    type: 'output.delta';
    runId: string;
    text: string;
};

/**
 * The run waits for the application; the stream ends here.
 */
export type RunRequiresActionEvent = {
    type: 'run.requires_action';
    run: RunResult;
};

/**
 * The turn completed; a session run carries the session at its next revision.
 */
export type RunCompletedEvent = {
    type: 'run.completed';
    run: RunResult;
};

/**
 * The run failed or was cancelled after the stream started; `problem`
 * says why, with the code the non-streamed operation would answer with:
 * `RUN_CANCELLED`, `SESSION_LIMIT_EXCEEDED`, `PROVIDER_TIMEOUT`, or a
 * provider failure (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`,
 * `PROVIDER_AUTH_FAILED`, `PROVIDER_REJECTED`, `PROVIDER_ERROR`, with
 * `retryAfterSeconds` where the provider said when to retry).
 *
 */
export type RunFailedEvent = {
    type: 'run.failed';
    runId: string;
    problem: Problem;
};

/**
 * One event of a streamed run: the JSON in the `data` of one
 * Server-Sent Events message. The message's `event` field equals
 * `type`; clients should ignore event types they do not know.
 *
 */
export type RunEvent = ({
    type: 'run.started';
} & RunStartedEvent) | ({
    type: 'output.delta';
} & OutputDeltaEvent) | ({
    type: 'run.requires_action';
} & RunRequiresActionEvent) | ({
    type: 'run.completed';
} & RunCompletedEvent) | ({
    type: 'run.failed';
} & RunFailedEvent);

/**
 * A run as the host knows it now (`getRun`). `result` is present once
 * the run completed or paused (`completed`, `requires_action`);
 * `problem` once it failed or was cancelled (`failed`, `cancelled`),
 * with the code its own request answered or would have answered with.
 *
 */
export type RunState = {
    /**
     * The run id.
     */
    id: string;
    status: RunStateStatus;
    onDisconnect: OnDisconnect;
    /**
     * The oldest of the run's events still buffered (`Last-Event-ID` below it is `RUN_EVENTS_EXPIRED`).
     */
    firstEventId: number;
    /**
     * The id of the run's latest event (its `run.started` is 1).
     */
    lastEventId: number;
    session?: SessionInfo;
    result?: RunResult;
    problem?: Problem;
};

/**
 * `queued`: admitted, waiting for a run slot. `running`: model work
 * under way (or host tools answering). `requires_action`: paused for
 * function results or approvals. `completed`, `failed`, `cancelled`:
 * ended (a cancellation from outside, a disconnect of a `cancel` run,
 * a deleted session, the host's drain, or an unanswered action).
 *
 */
export const RunStateStatus = {
    QUEUED: 'queued',
    RUNNING: 'running',
    REQUIRES_ACTION: 'requires_action',
    COMPLETED: 'completed',
    FAILED: 'failed',
    CANCELLED: 'cancelled'
} as const;

/**
 * `queued`: admitted, waiting for a run slot. `running`: model work
 * under way (or host tools answering). `requires_action`: paused for
 * function results or approvals. `completed`, `failed`, `cancelled`:
 * ended (a cancellation from outside, a disconnect of a `cancel` run,
 * a deleted session, the host's drain, or an unanswered action).
 *
 */
export type RunStateStatus = typeof RunStateStatus[keyof typeof RunStateStatus];

/**
 * How the host keeps runs for rejoining (`streamRunEvents`) and reading (`getRun`).
 */
export type RunsPolicy = {
    /**
     * The `onDisconnect` values this host honours.
     */
    onDisconnect: Array<OnDisconnect>;
    /**
     * The most bytes of events buffered per run (host `limits.maxRunEventBytes`); older events are dropped first.
     */
    maxRunEventBytes: number;
    /**
     * How long an ended run stays readable (host `runs.retentionMs`).
     */
    retentionMs: number;
    /**
     * The most ended runs kept readable at once (host `runs.maxEntries`), the oldest forgotten first.
     */
    maxEntries: number;
};

export type ForkSessionRequest = {
    /**
     * The boundary: 0 (the imported history only), the session's current
     * revision, or the revision of one of its recorded turns. Default:
     * the current revision.
     *
     */
    revision?: number;
};

export type TruncateSessionRequest = {
    /**
     * The revision the caller believes is current.
     */
    revision: number;
    /**
     * How many of the first recorded turns to keep (0 keeps only the imported history).
     */
    keepTurns: number;
};

export type CancelRunResponse = {
    /**
     * The cancelled run.
     */
    id: string;
    /**
     * Always `cancelled`.
     */
    status: 'cancelled';
    /**
     * Whether model work had started; if so, the session is now interrupted.
     */
    modelWorkStarted: boolean;
    session?: SessionInfo;
};

/**
 * The whole error-code catalogue. Each code has one HTTP status;
 * `x-error-table` below gives every code its status, its problem's
 * title, the group it is caught with and what a caller should do
 * (docs/errors.md renders it as a table).
 * `ROUTE_NOT_FOUND`, `METHOD_NOT_ALLOWED` and `INTERNAL_ERROR` answer
 * requests outside the documented operations (or a host defect) and
 * appear in no operation. The connection-level guards answer before
 * any operation is known, so they appear in no operation either:
 * `HEADERS_TOO_LARGE` (the request head exceeds `maxHeaderBytes`) and
 * `HOST_BUSY` with `limit: maxConnections` (the host holds its maximum
 * of open connections; the new connection is answered and closed), and
 * `MALFORMED_REQUEST` (the bytes received are not a valid HTTP/1.1
 * request: a control byte in a header, a bad request line or target, a
 * bad `Content-Length` or chunk size, a header line without a colon;
 * the answer carries `Connection: close` and the connection is closed).
 * `HOST_UNAVAILABLE` (with `ownerHostId` when the request named a
 * session or run, and `Retry-After`) is answered by the proxy in front
 * of several hosts, never by a host, so it appears in no operation
 * either: the proxy cannot reach the host that owns the session or run
 * (down or restarting), or no host takes new work. A client retries it
 * a bounded number of times; a host that comes back has lost its
 * sessions (`SESSION_NOT_FOUND`).
 *
 */
export const ErrorCode = {
    UNAUTHENTICATED: 'UNAUTHENTICATED',
    PERMISSION_DENIED: 'PERMISSION_DENIED',
    SESSION_NOT_FOUND: 'SESSION_NOT_FOUND',
    RUN_NOT_FOUND: 'RUN_NOT_FOUND',
    PROVIDER_NOT_FOUND: 'PROVIDER_NOT_FOUND',
    MODEL_NOT_FOUND: 'MODEL_NOT_FOUND',
    ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
    METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
    SESSION_REVISION_CONFLICT: 'SESSION_REVISION_CONFLICT',
    SESSION_BUSY: 'SESSION_BUSY',
    SESSION_INTERRUPTED: 'SESSION_INTERRUPTED',
    SESSION_ACCOUNT_REQUIRED: 'SESSION_ACCOUNT_REQUIRED',
    RUN_CANCELLED: 'RUN_CANCELLED',
    RUN_NOT_WAITING: 'RUN_NOT_WAITING',
    IDEMPOTENCY_KEY_IN_USE: 'IDEMPOTENCY_KEY_IN_USE',
    REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
    PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
    UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    VALIDATION_ERROR: 'VALIDATION_ERROR',
    UNSUPPORTED_CONTINUATION: 'UNSUPPORTED_CONTINUATION',
    SESSION_CONTEXT_UNSUPPORTED: 'SESSION_CONTEXT_UNSUPPORTED',
    SESSION_OVERRIDE_REJECTED: 'SESSION_OVERRIDE_REJECTED',
    SESSION_LIMIT_EXCEEDED: 'SESSION_LIMIT_EXCEEDED',
    SESSION_PREFIX_CHANGED: 'SESSION_PREFIX_CHANGED',
    ACTION_MISMATCH: 'ACTION_MISMATCH',
    IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
    TOOL_NAME_CONFLICT: 'TOOL_NAME_CONFLICT',
    PROVIDER_RATE_LIMITED: 'PROVIDER_RATE_LIMITED',
    INTERNAL_ERROR: 'INTERNAL_ERROR',
    HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
    SESSIONS_DISABLED: 'SESSIONS_DISABLED',
    PROVIDER_ERROR: 'PROVIDER_ERROR',
    PROVIDER_AUTH_FAILED: 'PROVIDER_AUTH_FAILED',
    PROVIDER_REJECTED: 'PROVIDER_REJECTED',
    SESSION_STORE_FULL: 'SESSION_STORE_FULL',
    HOST_BUSY: 'HOST_BUSY',
    PROVIDER_OVERLOADED: 'PROVIDER_OVERLOADED',
    SHUTTING_DOWN: 'SHUTTING_DOWN',
    PROVIDER_TIMEOUT: 'PROVIDER_TIMEOUT',
    ATTACHMENT_UNSUPPORTED: 'ATTACHMENT_UNSUPPORTED',
    MALFORMED_REQUEST: 'MALFORMED_REQUEST',
    MISDIRECTED_REQUEST: 'MISDIRECTED_REQUEST',
    HOST_UNAVAILABLE: 'HOST_UNAVAILABLE',
    RUN_EVENTS_EXPIRED: 'RUN_EVENTS_EXPIRED',
    SUBJECT_QUOTA_EXCEEDED: 'SUBJECT_QUOTA_EXCEEDED'
} as const;

/**
 * The whole error-code catalogue. Each code has one HTTP status;
 * `x-error-table` below gives every code its status, its problem's
 * title, the group it is caught with and what a caller should do
 * (docs/errors.md renders it as a table).
 * `ROUTE_NOT_FOUND`, `METHOD_NOT_ALLOWED` and `INTERNAL_ERROR` answer
 * requests outside the documented operations (or a host defect) and
 * appear in no operation. The connection-level guards answer before
 * any operation is known, so they appear in no operation either:
 * `HEADERS_TOO_LARGE` (the request head exceeds `maxHeaderBytes`) and
 * `HOST_BUSY` with `limit: maxConnections` (the host holds its maximum
 * of open connections; the new connection is answered and closed), and
 * `MALFORMED_REQUEST` (the bytes received are not a valid HTTP/1.1
 * request: a control byte in a header, a bad request line or target, a
 * bad `Content-Length` or chunk size, a header line without a colon;
 * the answer carries `Connection: close` and the connection is closed).
 * `HOST_UNAVAILABLE` (with `ownerHostId` when the request named a
 * session or run, and `Retry-After`) is answered by the proxy in front
 * of several hosts, never by a host, so it appears in no operation
 * either: the proxy cannot reach the host that owns the session or run
 * (down or restarting), or no host takes new work. A client retries it
 * a bounded number of times; a host that comes back has lost its
 * sessions (`SESSION_NOT_FOUND`).
 *
 */
export type ErrorCode = typeof ErrorCode[keyof typeof ErrorCode];

export type ValidationIssue = {
    /**
     * Where in the request the problem is, for example `body.session.revision`.
     */
    location: string;
    /**
     * What is wrong there.
     */
    message: string;
};

/**
 * RFC 9457 problem details with a stable `code`. Code-specific fields
 * appear only with the codes that use them.
 *
 */
export type Problem = {
    /**
     * A URN naming the problem type, `urn:agentic-driver:problem:<code>`.
     */
    type: string;
    /**
     * A short summary of the problem type.
     */
    title: string;
    /**
     * The HTTP status code.
     */
    status: number;
    /**
     * The problem's stable code: one of `ErrorCode` (the codes this version
     * of the contract defines), or a code added after it, which a client
     * handles by the HTTP status. Each error response lists the codes it
     * carries in `x-error-codes`.
     *
     */
    code: ErrorCode | string;
    /**
     * What happened, for a person.
     */
    detail: string;
    /**
     * The request path.
     */
    instance?: string;
    /**
     * The request's id, the same as the `X-Request-Id` response header.
     */
    requestId?: string;
    /**
     * `SESSION_REVISION_CONFLICT`: the session's current revision.
     */
    currentRevision?: number;
    /**
     * `SESSION_BUSY`: the run that holds the session.
     */
    activeRunId?: string;
    /**
     * The same value as the `Retry-After` header, where waiting helps.
     */
    retryAfterSeconds?: number;
    /**
     * `SESSION_LIMIT_EXCEEDED`, `SESSION_STORE_FULL`, `PAYLOAD_TOO_LARGE`, `REQUEST_TIMEOUT`, `HEADERS_TOO_LARGE`, `HOST_BUSY`, `ATTACHMENT_UNSUPPORTED`, `SUBJECT_QUOTA_EXCEEDED`: the bound that was hit, by its host setting name (on `ATTACHMENT_UNSUPPORTED` only when a size bound refused the attachment).
     */
    limit?: string;
    /**
     * The value of that bound.
     */
    maximum?: number;
    /**
     * `ATTACHMENT_UNSUPPORTED`: the refused attachment's index in `attachments`.
     */
    attachment?: number;
    /**
     * `ATTACHMENT_UNSUPPORTED`: the refused attachment's media type, as sent.
     */
    mediaType?: string;
    /**
     * `ATTACHMENT_UNSUPPORTED`: the provider instance that does not take it.
     */
    provider?: string;
    /**
     * `RUN_CANCELLED`: `cancelled`, `session_deleted`, `disconnected`, `shutdown` (the host stopped before the turn finished) or `action_timeout` (the run's `actionTimeoutMs` passed with its required action unanswered).
     */
    reason?: string;
    /**
     * `MISDIRECTED_REQUEST`: the host process that answered.
     */
    hostId?: string;
    /**
     * `MISDIRECTED_REQUEST`, `HOST_UNAVAILABLE`: the host process that owns the session or run the request names (send `Agentic-Host` with it).
     */
    ownerHostId?: string;
    /**
     * `RUN_EVENTS_EXPIRED`: the oldest event id of the run still buffered.
     */
    firstEventId?: number;
    /**
     * `VALIDATION_ERROR`, `TOOL_NAME_CONFLICT`: every problem found in the request (for `TOOL_NAME_CONFLICT`, each tool whose name clashes).
     */
    errors?: Array<ValidationIssue>;
};

/**
 * Always carries `hostId` and `ownerHostId`.
 */
export type MisdirectedProblem = Problem;

export type NotReadyProblem = Problem;

export type UnauthenticatedProblem = Problem;

export type PermissionDeniedProblem = Problem;

export type SessionNotFoundProblem = Problem;

export type RunTargetNotFoundProblem = Problem;

export type RunNotFoundProblem = Problem;

export type SessionAccountRequiredProblem = Problem;

export type RunConflictProblem = Problem;

export type PayloadTooLargeProblem = Problem;

export type UnsupportedMediaTypeProblem = Problem;

export type CreateSessionInvalidProblem = Problem;

export type RunInvalidProblem = Problem;

export type SessionsDisabledProblem = Problem;

export type CreateSessionUnavailableProblem = Problem;

export type RequestTimeoutProblem = Problem;

export type ProviderErrorProblem = Problem;

export type ProviderRateLimitedProblem = Problem;

export type SubjectQuotaExceededProblem = Problem;

export type RunTooManyRequestsProblem = Problem;

export type ProviderOverloadedProblem = Problem;

export type RunUnavailableProblem = Problem;

export type CreateSessionNotFoundProblem = Problem;

export type ActionsNotFoundProblem = Problem;

export type ActionsConflictProblem = Problem;

export type StreamActionsConflictProblem = Problem;

export type ActionsInvalidProblem = Problem;

export type StreamActionsInvalidProblem = Problem;

export type StreamRunConflictProblem = Problem;

export type ProviderTimeoutProblem = Problem;

export type ForkConflictProblem = Problem;

export type ForkInvalidProblem = Problem;

export type TruncateConflictProblem = Problem;

export type TruncateInvalidProblem = Problem;

/**
 * Always carries `firstEventId`.
 */
export type RunEventsExpiredProblem = Problem;

export type EventsInvalidProblem = Problem;

/**
 * Makes a retry safe. The first accepted request with this key (per
 * caller) records its outcome; a repeat with the same body replays it,
 * never advancing a revision or calling the model again, after checking
 * current access again (a deleted session is `SESSION_NOT_FOUND`). The
 * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
 * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
 * that a repeat of a `run` or `streamRun` sent with
 * `onDisconnect: continue` joins the run it started (a stream from the
 * run's first event). A replayed stream sends the run's events with
 * their original ids while the host still keeps the run (`getRun`),
 * else the recorded outcome alone, with its original id. Keys are
 * kept for a bounded time and number (host `idempotency` settings).
 *
 */
export type IdempotencyKey = string;

/**
 * The host process the request is meant for: the `hostId` in the id of
 * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
 * Clients send it on every request that names an existing session or
 * run, and a proxy in front of several hosts routes on it. A host that
 * is not the one named answers `MISDIRECTED_REQUEST` (421) before
 * reading the body, with nothing done. Where the id in the path names a
 * host, the id wins over the header. `run` and `streamRun` name their
 * session in the body: the host checks the header before reading the
 * body, then the body's `session.id` before admitting the run. Ids
 * without a host part (older hosts) name no host; then the header alone
 * decides.
 *
 */
export type AgenticHost = string;

/**
 * The session id returned by `createSession`: `ses_{hostId}.{random}`,
 * naming the host process that holds the session (see `SessionInfo.id`).
 *
 */
export type SessionId = string;

/**
 * The run id, known from the run's result, its stream's `run.started` or
 * `SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
 * process that runs it.
 *
 */
export type RunId = string;

/**
 * The id of the last event the caller received (the SSE `id` of that
 * message, a positive integer); the stream resumes after it. Absent,
 * the stream starts at the run's first event. Anything but a positive
 * integer in decimal is `VALIDATION_ERROR`.
 *
 */
export type LastEventId = string;

export type GetHealthData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/healthz';
};

export type GetHealthResponses = {
    /**
     * The host is serving requests.
     */
    200: Health;
};

export type GetHealthResponse = GetHealthResponses[keyof GetHealthResponses];

export type GetReadinessData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/readyz';
};

export type GetReadinessErrors = {
    /**
     * `SHUTTING_DOWN`: the host drains before it stops and takes no new work.
     */
    503: NotReadyProblem;
};

export type GetReadinessError = GetReadinessErrors[keyof GetReadinessErrors];

export type GetReadinessResponses = {
    /**
     * The host takes new work.
     */
    200: Readiness;
};

export type GetReadinessResponse = GetReadinessResponses[keyof GetReadinessResponses];

export type GetDiscoveryData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/discovery';
};

export type GetDiscoveryErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
};

export type GetDiscoveryError = GetDiscoveryErrors[keyof GetDiscoveryErrors];

export type GetDiscoveryResponses = {
    /**
     * The host as this caller sees it.
     */
    200: Discovery;
};

export type GetDiscoveryResponse = GetDiscoveryResponses[keyof GetDiscoveryResponses];

export type CreateSessionData = {
    body: CreateSessionRequest;
    headers?: {
        /**
         * Makes a retry safe. The first accepted request with this key (per
         * caller) records its outcome; a repeat with the same body replays it,
         * never advancing a revision or calling the model again, after checking
         * current access again (a deleted session is `SESSION_NOT_FOUND`). The
         * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
         * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
         * that a repeat of a `run` or `streamRun` sent with
         * `onDisconnect: continue` joins the run it started (a stream from the
         * run's first event). A replayed stream sends the run's events with
         * their original ids while the host still keeps the run (`getRun`),
         * else the recorded outcome alone, with its original id. Keys are
         * kept for a bounded time and number (host `idempotency` settings).
         *
         */
        'Idempotency-Key'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/sessions';
};

export type CreateSessionErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `PROVIDER_NOT_FOUND` or `MODEL_NOT_FOUND`; `SESSION_NOT_FOUND` when an
     * idempotent replay finds the session it created deleted.
     *
     */
    404: CreateSessionNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * `SESSION_ACCOUNT_REQUIRED`: the provider instance has no account binding, so it cannot hold sessions.
     */
    409: SessionAccountRequiredProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `VALIDATION_ERROR` (malformed JSON, wrong types, unknown fields),
     * `UNSUPPORTED_CONTINUATION` (the provider cannot keep this mode) or
     * `SESSION_LIMIT_EXCEEDED` (the imported history exceeds a bound named in
     * `limit`) or `IDEMPOTENCY_KEY_REUSED` (the key came with another body).
     *
     */
    422: CreateSessionInvalidProblem;
    /**
     * `SUBJECT_QUOTA_EXCEEDED`: the caller's subject (the principal its
     * token maps to) holds the most of something host JSON's
     * `limits.perSubject` allows this host process: stored sessions
     * (`limit: perSubject.maxSessions`), active runs
     * (`limit: perSubject.maxActiveRuns`) or runs started in the last 60
     * seconds (`limit: perSubject.runsPerMinute`, with `Retry-After`: when
     * the oldest of them leaves the window). Refused before any model work;
     * nothing was stored or started. Not retried by clients: delete a
     * session, let a run end, or wait. Behind a proxy configured with
     * `agentic-driver cluster config --token-runs-per-minute N`, the proxy
     * answers the same for a bearer token's new runs and sessions over N a
     * minute across all hosts (`limit: proxy.tokenRunsPerMinute`,
     * `Retry-After`).
     *
     */
    429: SubjectQuotaExceededProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
    /**
     * Retry after `Retry-After`: `SESSION_STORE_FULL` (the store holds
     * `maxEntries` sessions; wait for one to expire or delete one) or
     * `SHUTTING_DOWN` (the host is draining before it stops; create the
     * session on another host process).
     *
     */
    503: CreateSessionUnavailableProblem;
};

export type CreateSessionError = CreateSessionErrors[keyof CreateSessionErrors];

export type CreateSessionResponses = {
    /**
     * The session was created at revision 0.
     */
    201: CreateSessionResponse;
};

export type CreateSessionResponse2 = CreateSessionResponses[keyof CreateSessionResponses];

export type DeleteSessionData = {
    body?: never;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path: {
        /**
         * The session id returned by `createSession`: `ses_{hostId}.{random}`,
         * naming the host process that holds the session (see `SessionInfo.id`).
         *
         */
        sessionId: string;
    };
    query?: never;
    url: '/v1/sessions/{sessionId}';
};

export type DeleteSessionErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `SESSION_NOT_FOUND`: no such session for this caller (another principal's session is reported the same way).
     */
    404: SessionNotFoundProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
};

export type DeleteSessionError = DeleteSessionErrors[keyof DeleteSessionErrors];

export type DeleteSessionResponses = {
    /**
     * The session is gone.
     */
    204: void;
};

export type DeleteSessionResponse = DeleteSessionResponses[keyof DeleteSessionResponses];

export type ReadSessionData = {
    body?: never;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path: {
        /**
         * The session id returned by `createSession`: `ses_{hostId}.{random}`,
         * naming the host process that holds the session (see `SessionInfo.id`).
         *
         */
        sessionId: string;
    };
    query?: never;
    url: '/v1/sessions/{sessionId}';
};

export type ReadSessionErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `SESSION_NOT_FOUND`: no such session for this caller (another principal's session is reported the same way).
     */
    404: SessionNotFoundProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
};

export type ReadSessionError = ReadSessionErrors[keyof ReadSessionErrors];

export type ReadSessionResponses = {
    /**
     * The session as stored.
     */
    200: ReadSessionResponse;
};

export type ReadSessionResponse2 = ReadSessionResponses[keyof ReadSessionResponses];

export type TruncateSessionData = {
    body: TruncateSessionRequest;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path: {
        /**
         * The session id returned by `createSession`: `ses_{hostId}.{random}`,
         * naming the host process that holds the session (see `SessionInfo.id`).
         *
         */
        sessionId: string;
    };
    query?: never;
    url: '/v1/sessions/{sessionId}/truncate';
};

export type TruncateSessionErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `SESSION_NOT_FOUND`: no such session for this caller (another principal's session is reported the same way).
     */
    404: SessionNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * `SESSION_REVISION_CONFLICT` (stale revision; `currentRevision`) or `SESSION_BUSY` (a turn is active).
     */
    409: TruncateConflictProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR`, for example `keepTurns` beyond the session's recorded turns.
     */
    422: TruncateInvalidProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
};

export type TruncateSessionError = TruncateSessionErrors[keyof TruncateSessionErrors];

export type TruncateSessionResponses = {
    /**
     * The session, truncated, at its next revision.
     */
    200: CreateSessionResponse;
};

export type TruncateSessionResponse = TruncateSessionResponses[keyof TruncateSessionResponses];

export type ForkSessionData = {
    body: ForkSessionRequest;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
        /**
         * Makes a retry safe. The first accepted request with this key (per
         * caller) records its outcome; a repeat with the same body replays it,
         * never advancing a revision or calling the model again, after checking
         * current access again (a deleted session is `SESSION_NOT_FOUND`). The
         * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
         * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
         * that a repeat of a `run` or `streamRun` sent with
         * `onDisconnect: continue` joins the run it started (a stream from the
         * run's first event). A replayed stream sends the run's events with
         * their original ids while the host still keeps the run (`getRun`),
         * else the recorded outcome alone, with its original id. Keys are
         * kept for a bounded time and number (host `idempotency` settings).
         *
         */
        'Idempotency-Key'?: string;
    };
    path: {
        /**
         * The session id returned by `createSession`: `ses_{hostId}.{random}`,
         * naming the host process that holds the session (see `SessionInfo.id`).
         *
         */
        sessionId: string;
    };
    query?: never;
    url: '/v1/sessions/{sessionId}/fork';
};

export type ForkSessionErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `SESSION_NOT_FOUND`: no such session for this caller (another principal's session is reported the same way).
     */
    404: SessionNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * `SESSION_BUSY` (the source has an active turn), `SESSION_REVISION_CONFLICT`
     * (the boundary is not a state the session holds now; `currentRevision`) or
     * `IDEMPOTENCY_KEY_IN_USE` (the first request with this key is still running).
     *
     */
    409: ForkConflictProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR` (malformed body, unknown fields) or `IDEMPOTENCY_KEY_REUSED` (the key came with another body).
     */
    422: ForkInvalidProblem;
    /**
     * `SUBJECT_QUOTA_EXCEEDED`: the caller's subject (the principal its
     * token maps to) holds the most of something host JSON's
     * `limits.perSubject` allows this host process: stored sessions
     * (`limit: perSubject.maxSessions`), active runs
     * (`limit: perSubject.maxActiveRuns`) or runs started in the last 60
     * seconds (`limit: perSubject.runsPerMinute`, with `Retry-After`: when
     * the oldest of them leaves the window). Refused before any model work;
     * nothing was stored or started. Not retried by clients: delete a
     * session, let a run end, or wait. Behind a proxy configured with
     * `agentic-driver cluster config --token-runs-per-minute N`, the proxy
     * answers the same for a bearer token's new runs and sessions over N a
     * minute across all hosts (`limit: proxy.tokenRunsPerMinute`,
     * `Retry-After`).
     *
     */
    429: SubjectQuotaExceededProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
    /**
     * Retry after `Retry-After`: `SESSION_STORE_FULL` (the store holds
     * `maxEntries` sessions; wait for one to expire or delete one) or
     * `SHUTTING_DOWN` (the host is draining before it stops; create the
     * session on another host process).
     *
     */
    503: CreateSessionUnavailableProblem;
};

export type ForkSessionError = ForkSessionErrors[keyof ForkSessionErrors];

export type ForkSessionResponses = {
    /**
     * The fork was created at the boundary revision.
     */
    201: CreateSessionResponse;
};

export type ForkSessionResponse = ForkSessionResponses[keyof ForkSessionResponses];

export type RunData = {
    body: RunRequest;
    headers?: {
        /**
         * Makes a retry safe. The first accepted request with this key (per
         * caller) records its outcome; a repeat with the same body replays it,
         * never advancing a revision or calling the model again, after checking
         * current access again (a deleted session is `SESSION_NOT_FOUND`). The
         * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
         * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
         * that a repeat of a `run` or `streamRun` sent with
         * `onDisconnect: continue` joins the run it started (a stream from the
         * run's first event). A replayed stream sends the run's events with
         * their original ids while the host still keeps the run (`getRun`),
         * else the recorded outcome alone, with its original id. Keys are
         * kept for a bounded time and number (host `idempotency` settings).
         *
         */
        'Idempotency-Key'?: string;
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/runs';
};

export type RunErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `PROVIDER_NOT_FOUND`, `MODEL_NOT_FOUND` or `SESSION_NOT_FOUND`.
     */
    404: RunTargetNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * The session cannot take this turn, or the run was cancelled:
     * `SESSION_REVISION_CONFLICT` (stale revision; `currentRevision` says the
     * current one; `x-should-retry: false`), `SESSION_BUSY` (a turn is active;
     * `activeRunId` and `Retry-After`), `SESSION_INTERRUPTED` (an earlier turn
     * was interrupted; read the session to reconcile), `RUN_CANCELLED` (this
     * run was cancelled, or its session deleted, while it was waiting or
     * running, or the host stopped before it finished: reason `shutdown`)
     * or `IDEMPOTENCY_KEY_IN_USE` (the first request with this key
     * is still running). None of the session codes started a model call.
     *
     */
    409: RunConflictProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR` (also: `tools` sent to a provider that takes no
     * application functions), `SESSION_OVERRIDE_REJECTED` (a session run also sent
     * `instructions` or `history`), `SESSION_CONTEXT_UNSUPPORTED` (a session
     * run also sent `attachments` or `retrieval`), `SESSION_LIMIT_EXCEEDED`
     * (the turn would outgrow the session record; `limit` names the bound),
     * `SESSION_PREFIX_CHANGED` (a native session on a provider whose request
     * prefix must stay byte-identical, such as Anthropic, got tools that
     * differ from its first turn's; refused before any model work),
     * `IDEMPOTENCY_KEY_REUSED` (the key came with another body),
     * `TOOL_NAME_CONFLICT` (two declared tools share a name, or one is named
     * like a host tool) or `ATTACHMENT_UNSUPPORTED` (a stateless run's
     * attachment of a type the instance does not take, see discovery's
     * `attachmentMediaTypes`, or larger than the host's `maxAttachmentBytes`
     * or `maxRunAttachmentBytes`; `attachment`, `mediaType` and `provider`
     * name it, `limit` and `maximum` the bound; refused before any model work).
     *
     */
    422: RunInvalidProblem;
    /**
     * `PROVIDER_RATE_LIMITED`: the provider refused for rate or quota limits
     * after the host's own bounded retries. `Retry-After` (and
     * `retryAfterSeconds`) is set when the provider said when to retry
     * (its header, or Gemini's `RetryInfo.retryDelay`); a spend or quota
     * limit carries none. A session turn leaves the session interrupted.
     * `SUBJECT_QUOTA_EXCEEDED`: the caller's subject holds its most active
     * runs (`limit: perSubject.maxActiveRuns`) or started its most runs in
     * the last 60 seconds (`limit: perSubject.runsPerMinute`, with
     * `Retry-After`) on this host process, or, behind a proxy configured
     * with `--token-runs-per-minute`, its bearer token started its most
     * runs and sessions this minute across all hosts
     * (`limit: proxy.tokenRunsPerMinute`); refused before any model work,
     * the session untouched.
     *
     */
    429: RunTooManyRequestsProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
    /**
     * The provider failed after model work started; a session turn leaves
     * the session interrupted. `PROVIDER_AUTH_FAILED`: the provider refused
     * the host's credentials (an operator must fix them).
     * `PROVIDER_REJECTED`: the provider refused the request itself, for
     * example a native item whose signature no longer verifies.
     * `PROVIDER_ERROR`: any other upstream failure.
     *
     */
    502: ProviderErrorProblem;
    /**
     * Retry after `Retry-After` (on another host process if this one is
     * stopping): `HOST_BUSY` (every run slot is taken and the wait queue is
     * full, `limit: maxQueuedRuns`; or the run offers functions and
     * `maxWaitingRuns` runs that may wait for the application are active,
     * `limit: maxWaitingRuns`), `PROVIDER_OVERLOADED` (the provider was overloaded after the
     * host's own retries; a streamed run reports it as `run.failed`) or
     * `SHUTTING_DOWN` (the host is draining before it stops and starts no
     * new turn; turns already running may finish).
     *
     */
    503: RunUnavailableProblem;
    /**
     * `PROVIDER_TIMEOUT`: the provider made no progress for the run's `idleTimeoutMs`; a session turn left the session interrupted.
     */
    504: ProviderTimeoutProblem;
};

export type RunError = RunErrors[keyof RunErrors];

export type RunResponses = {
    /**
     * The turn completed. A session run returns the session at its next revision.
     */
    200: RunResult;
};

export type RunResponse = RunResponses[keyof RunResponses];

export type StreamRunData = {
    body: RunRequest;
    headers?: {
        /**
         * Makes a retry safe. The first accepted request with this key (per
         * caller) records its outcome; a repeat with the same body replays it,
         * never advancing a revision or calling the model again, after checking
         * current access again (a deleted session is `SESSION_NOT_FOUND`). The
         * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
         * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
         * that a repeat of a `run` or `streamRun` sent with
         * `onDisconnect: continue` joins the run it started (a stream from the
         * run's first event). A replayed stream sends the run's events with
         * their original ids while the host still keeps the run (`getRun`),
         * else the recorded outcome alone, with its original id. Keys are
         * kept for a bounded time and number (host `idempotency` settings).
         *
         */
        'Idempotency-Key'?: string;
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/runs/stream';
};

export type StreamRunErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `PROVIDER_NOT_FOUND`, `MODEL_NOT_FOUND` or `SESSION_NOT_FOUND`.
     */
    404: RunTargetNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * `SESSION_REVISION_CONFLICT`, `SESSION_BUSY`, `SESSION_INTERRUPTED` or
     * `IDEMPOTENCY_KEY_IN_USE`, before any event is sent.
     *
     */
    409: StreamRunConflictProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR` (also: `tools` sent to a provider that takes no
     * application functions), `SESSION_OVERRIDE_REJECTED` (a session run also sent
     * `instructions` or `history`), `SESSION_CONTEXT_UNSUPPORTED` (a session
     * run also sent `attachments` or `retrieval`), `SESSION_LIMIT_EXCEEDED`
     * (the turn would outgrow the session record; `limit` names the bound),
     * `SESSION_PREFIX_CHANGED` (a native session on a provider whose request
     * prefix must stay byte-identical, such as Anthropic, got tools that
     * differ from its first turn's; refused before any model work),
     * `IDEMPOTENCY_KEY_REUSED` (the key came with another body),
     * `TOOL_NAME_CONFLICT` (two declared tools share a name, or one is named
     * like a host tool) or `ATTACHMENT_UNSUPPORTED` (a stateless run's
     * attachment of a type the instance does not take, see discovery's
     * `attachmentMediaTypes`, or larger than the host's `maxAttachmentBytes`
     * or `maxRunAttachmentBytes`; `attachment`, `mediaType` and `provider`
     * name it, `limit` and `maximum` the bound; refused before any model work).
     *
     */
    422: RunInvalidProblem;
    /**
     * `SUBJECT_QUOTA_EXCEEDED`: the caller's subject (the principal its
     * token maps to) holds the most of something host JSON's
     * `limits.perSubject` allows this host process: stored sessions
     * (`limit: perSubject.maxSessions`), active runs
     * (`limit: perSubject.maxActiveRuns`) or runs started in the last 60
     * seconds (`limit: perSubject.runsPerMinute`, with `Retry-After`: when
     * the oldest of them leaves the window). Refused before any model work;
     * nothing was stored or started. Not retried by clients: delete a
     * session, let a run end, or wait. Behind a proxy configured with
     * `agentic-driver cluster config --token-runs-per-minute N`, the proxy
     * answers the same for a bearer token's new runs and sessions over N a
     * minute across all hosts (`limit: proxy.tokenRunsPerMinute`,
     * `Retry-After`).
     *
     */
    429: SubjectQuotaExceededProblem;
    /**
     * `SESSIONS_DISABLED`: this host keeps no sessions (it sets no `sessions.retentionMs`).
     */
    501: SessionsDisabledProblem;
    /**
     * Retry after `Retry-After` (on another host process if this one is
     * stopping): `HOST_BUSY` (every run slot is taken and the wait queue is
     * full, `limit: maxQueuedRuns`; or the run offers functions and
     * `maxWaitingRuns` runs that may wait for the application are active,
     * `limit: maxWaitingRuns`), `PROVIDER_OVERLOADED` (the provider was overloaded after the
     * host's own retries; a streamed run reports it as `run.failed`) or
     * `SHUTTING_DOWN` (the host is draining before it stops and starts no
     * new turn; turns already running may finish).
     *
     */
    503: RunUnavailableProblem;
};

export type StreamRunError = StreamRunErrors[keyof StreamRunErrors];

export type StreamRunResponses = {
    /**
     * The run's events, as Server-Sent Events: each message has an `id`,
     * an `event` and a `data` holding one `RunEvent` as JSON. On the wire
     * the stream starts like this:
     *
     * ```text
     * id: 1
     * event: run.started
     * data: {"type":"run.started","runId":"run_local-host.Vb3kQ9sLm2Xc8Rt4Ny7Pwa"}
     *
     * id: 2
     * event: output.delta
     * data: {"type":"output.delta","runId":"run_local-host.Vb3kQ9sLm2Xc8Rt4Ny7Pwa","text":"echo: "}
     * ```
     *
     */
    200: RunEvent;
};

export type StreamRunResponse = StreamRunResponses[keyof StreamRunResponses];

export type SubmitRunActionsData = {
    body: SubmitRunActionsRequest;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
        /**
         * Makes a retry safe. The first accepted request with this key (per
         * caller) records its outcome; a repeat with the same body replays it,
         * never advancing a revision or calling the model again, after checking
         * current access again (a deleted session is `SESSION_NOT_FOUND`). The
         * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
         * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
         * that a repeat of a `run` or `streamRun` sent with
         * `onDisconnect: continue` joins the run it started (a stream from the
         * run's first event). A replayed stream sends the run's events with
         * their original ids while the host still keeps the run (`getRun`),
         * else the recorded outcome alone, with its original id. Keys are
         * kept for a bounded time and number (host `idempotency` settings).
         *
         */
        'Idempotency-Key'?: string;
    };
    path: {
        /**
         * The run id, known from the run's result, its stream's `run.started` or
         * `SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
         * process that runs it.
         *
         */
        runId: string;
    };
    query?: never;
    url: '/v1/runs/{runId}/actions';
};

export type SubmitRunActionsErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `RUN_NOT_FOUND` (no active run with this id for this caller: unknown, or finished);
     * `SESSION_NOT_FOUND` when an idempotent replay finds the run's session deleted.
     *
     */
    404: ActionsNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * `RUN_NOT_WAITING` (the run is active but waits for no action), `RUN_CANCELLED` (the
     * run was cancelled or its session deleted while it continued) or
     * `IDEMPOTENCY_KEY_IN_USE`.
     *
     */
    409: ActionsConflictProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR`, `ACTION_MISMATCH` (wrong kind of answer, or call ids
     * missing or not asked for), `IDEMPOTENCY_KEY_REUSED`, or
     * `SESSION_LIMIT_EXCEEDED` (the completed turn would outgrow the session).
     *
     */
    422: ActionsInvalidProblem;
    /**
     * `PROVIDER_RATE_LIMITED`: the provider refused for rate or quota limits
     * after the host's own bounded retries. `Retry-After` (and
     * `retryAfterSeconds`) is set when the provider said when to retry
     * (its header, or Gemini's `RetryInfo.retryDelay`); a spend or quota
     * limit carries none. A session turn leaves the session interrupted.
     *
     */
    429: ProviderRateLimitedProblem;
    /**
     * The provider failed after model work started; a session turn leaves
     * the session interrupted. `PROVIDER_AUTH_FAILED`: the provider refused
     * the host's credentials (an operator must fix them).
     * `PROVIDER_REJECTED`: the provider refused the request itself, for
     * example a native item whose signature no longer verifies.
     * `PROVIDER_ERROR`: any other upstream failure.
     *
     */
    502: ProviderErrorProblem;
    /**
     * `PROVIDER_OVERLOADED`: the provider was overloaded or unavailable (HTTP
     * 503, Anthropic's 529) after the host's own bounded retries; retry after
     * `Retry-After` when present. A session turn leaves the session interrupted.
     *
     */
    503: ProviderOverloadedProblem;
    /**
     * `PROVIDER_TIMEOUT`: the provider made no progress for the run's `idleTimeoutMs`; a session turn left the session interrupted.
     */
    504: ProviderTimeoutProblem;
};

export type SubmitRunActionsError = SubmitRunActionsErrors[keyof SubmitRunActionsErrors];

export type SubmitRunActionsResponses = {
    /**
     * The turn completed, or waits for the application again.
     */
    200: RunResult;
};

export type SubmitRunActionsResponse = SubmitRunActionsResponses[keyof SubmitRunActionsResponses];

export type StreamRunActionsData = {
    body: SubmitRunActionsRequest;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
        /**
         * Makes a retry safe. The first accepted request with this key (per
         * caller) records its outcome; a repeat with the same body replays it,
         * never advancing a revision or calling the model again, after checking
         * current access again (a deleted session is `SESSION_NOT_FOUND`). The
         * same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
         * while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
         * that a repeat of a `run` or `streamRun` sent with
         * `onDisconnect: continue` joins the run it started (a stream from the
         * run's first event). A replayed stream sends the run's events with
         * their original ids while the host still keeps the run (`getRun`),
         * else the recorded outcome alone, with its original id. Keys are
         * kept for a bounded time and number (host `idempotency` settings).
         *
         */
        'Idempotency-Key'?: string;
    };
    path: {
        /**
         * The run id, known from the run's result, its stream's `run.started` or
         * `SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
         * process that runs it.
         *
         */
        runId: string;
    };
    query?: never;
    url: '/v1/runs/{runId}/actions/stream';
};

export type StreamRunActionsErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `RUN_NOT_FOUND` (no active run with this id for this caller: unknown, or finished);
     * `SESSION_NOT_FOUND` when an idempotent replay finds the run's session deleted.
     *
     */
    404: ActionsNotFoundProblem;
    /**
     * `REQUEST_TIMEOUT`: the request body did not arrive within the host's `bodyTimeoutMs`.
     */
    408: RequestTimeoutProblem;
    /**
     * `RUN_NOT_WAITING` or `IDEMPOTENCY_KEY_IN_USE`.
     */
    409: StreamActionsConflictProblem;
    /**
     * `PAYLOAD_TOO_LARGE`: the request body exceeds the host's `maxBodyBytes`.
     */
    413: PayloadTooLargeProblem;
    /**
     * `UNSUPPORTED_MEDIA_TYPE`: the request body is not `application/json`.
     */
    415: UnsupportedMediaTypeProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR`, `ACTION_MISMATCH` or `IDEMPOTENCY_KEY_REUSED`.
     */
    422: StreamActionsInvalidProblem;
};

export type StreamRunActionsError = StreamRunActionsErrors[keyof StreamRunActionsErrors];

export type StreamRunActionsResponses = {
    /**
     * The rest of the run's events, as Server-Sent Events, in messages
     * like `streamRun`'s; their ids go on from the run's events before
     * (a run's events are numbered once, see `RunEventMessage`):
     *
     * ```text
     * id: 4
     * event: output.delta
     * data: {"type":"output.delta","runId":"run_local-host.Vb3kQ9sLm2Xc8Rt4Ny7Pwa","text":"echo: "}
     * ```
     *
     */
    200: RunEvent;
};

export type StreamRunActionsResponse = StreamRunActionsResponses[keyof StreamRunActionsResponses];

export type CancelRunData = {
    body?: never;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path: {
        /**
         * The run id, known from the run's result, its stream's `run.started` or
         * `SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
         * process that runs it.
         *
         */
        runId: string;
    };
    query?: never;
    url: '/v1/runs/{runId}/cancel';
};

export type CancelRunErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `RUN_NOT_FOUND`: no active run with this id for this caller.
     */
    404: RunNotFoundProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
};

export type CancelRunError = CancelRunErrors[keyof CancelRunErrors];

export type CancelRunResponses = {
    /**
     * The run was cancelled.
     */
    200: CancelRunResponse;
};

export type CancelRunResponse2 = CancelRunResponses[keyof CancelRunResponses];

export type GetRunData = {
    body?: never;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
    };
    path: {
        /**
         * The run id, known from the run's result, its stream's `run.started` or
         * `SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
         * process that runs it.
         *
         */
        runId: string;
    };
    query?: never;
    url: '/v1/runs/{runId}';
};

export type GetRunErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `RUN_NOT_FOUND`: no run with this id for this caller, active or still retained after its end.
     */
    404: RunNotFoundProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
};

export type GetRunError = GetRunErrors[keyof GetRunErrors];

export type GetRunResponses = {
    /**
     * The run as the host knows it now.
     */
    200: RunState;
};

export type GetRunResponse = GetRunResponses[keyof GetRunResponses];

export type StreamRunEventsData = {
    body?: never;
    headers?: {
        /**
         * The host process the request is meant for: the `hostId` in the id of
         * the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
         * Clients send it on every request that names an existing session or
         * run, and a proxy in front of several hosts routes on it. A host that
         * is not the one named answers `MISDIRECTED_REQUEST` (421) before
         * reading the body, with nothing done. Where the id in the path names a
         * host, the id wins over the header. `run` and `streamRun` name their
         * session in the body: the host checks the header before reading the
         * body, then the body's `session.id` before admitting the run. Ids
         * without a host part (older hosts) name no host; then the header alone
         * decides.
         *
         */
        'Agentic-Host'?: string;
        /**
         * The id of the last event the caller received (the SSE `id` of that
         * message, a positive integer); the stream resumes after it. Absent,
         * the stream starts at the run's first event. Anything but a positive
         * integer in decimal is `VALIDATION_ERROR`.
         *
         */
        'Last-Event-ID'?: string;
    };
    path: {
        /**
         * The run id, known from the run's result, its stream's `run.started` or
         * `SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
         * process that runs it.
         *
         */
        runId: string;
    };
    query?: never;
    url: '/v1/runs/{runId}/events';
};

export type StreamRunEventsErrors = {
    /**
     * `UNAUTHENTICATED`: the bearer token is missing, not configured on this host (or revoked), or a JWT that does not verify.
     */
    401: UnauthenticatedProblem;
    /**
     * `PERMISSION_DENIED`: the token lacks the operation's session grant or the provider grant.
     */
    403: PermissionDeniedProblem;
    /**
     * `RUN_NOT_FOUND`: no run with this id for this caller, active or still retained after its end.
     */
    404: RunNotFoundProblem;
    /**
     * `RUN_EVENTS_EXPIRED`: the events after `Last-Event-ID` are no longer
     * all buffered (the run's events outgrew `limits.maxRunEventBytes`);
     * `firstEventId` is the oldest still held.
     *
     */
    410: RunEventsExpiredProblem;
    /**
     * `MISDIRECTED_REQUEST`: the request names a session or run of another
     * host process (by its id, or by `Agentic-Host`); nothing was done.
     * `ownerHostId` names that host, `hostId` the one that answered. Send
     * the request again once, with `Agentic-Host: <ownerHostId>`.
     *
     */
    421: MisdirectedProblem;
    /**
     * `VALIDATION_ERROR`: `Last-Event-ID` is not a positive integer.
     */
    422: EventsInvalidProblem;
};

export type StreamRunEventsError = StreamRunEventsErrors[keyof StreamRunEventsErrors];

export type StreamRunEventsResponses = {
    /**
     * The run's events after `Last-Event-ID`, as Server-Sent Events in
     * messages like `streamRun`'s, with their original ids:
     *
     * ```text
     * id: 3
     * event: output.delta
     * data: {"type":"output.delta","runId":"run_local-host.Vb3kQ9sLm2Xc8Rt4Ny7Pwa","text":"lo"}
     * ```
     *
     */
    200: RunEvent;
};

export type StreamRunEventsResponse = StreamRunEventsResponses[keyof StreamRunEventsResponses];
