# Generated from openapi.yaml by datamodel-code-generator (see generator/). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field, MISSING, RootModel


class Dropped(BaseModel):
    """
    Sessions not restored, by reason (each logged with its id).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    expired: Annotated[int, Field(ge=0)]
    """
    Their retention ran out while the host was down.
    """
    providerRemoved: Annotated[int, Field(ge=0)]
    """
    Their provider instance is no longer configured.
    """
    accountChanged: Annotated[int, Field(ge=0)]
    """
    Their instance is now bound to another account, or to none.
    """
    modelRemoved: Annotated[int, Field(ge=0)]
    """
    Their instance no longer serves their model.
    """
    overLimits: Annotated[int, Field(ge=0)]
    """
    They no longer fit the store's bounds (tightened `sessions` settings, or a full store).
    """


class SnapshotRestore(BaseModel):
    """
    Present when this process started from the snapshot its previous run
    wrote on a clean drain (host JSON `sessions.snapshot`): what it took
    back before it reported ready.

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    sessions: Annotated[int, Field(ge=0)]
    """
    Sessions restored, with their ids and revisions.
    """
    idempotencyKeys: Annotated[int, Field(ge=0)]
    """
    Idempotency records restored (a retry after the restart replays its outcome).
    """
    dropped: Dropped
    """
    Sessions not restored, by reason (each logged with its id).
    """


class Health(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    status: Literal["ok"]
    """
    Always `ok` while the process serves requests.
    """


class SessionsPolicy(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    enabled: bool
    """
    Whether this host keeps sessions.
    """
    retentionMs: Annotated[int | None, Field(ge=1)]
    """
    Idle retention in milliseconds; null when sessions are disabled.
    """
    maxEntries: Annotated[int, Field(ge=1)]
    """
    The most sessions the store holds at once.
    """
    maxMessages: Annotated[int, Field(ge=1)]
    """
    The most visible messages one session holds.
    """
    maxRecordBytes: Annotated[int, Field(ge=1)]
    """
    The most encoded bytes one session holds (history, provider state and instructions).
    """
    maxNativeMessages: Annotated[int, Field(ge=1)]
    """
    The most provider-native messages one native session holds.
    """


class Message(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    role: Literal["user", "assistant"]
    """
    Who wrote the message.
    """
    content: str
    """
    The visible text.
    """


class SessionHandle(BaseModel):
    """
    Copy exactly these two fields from the last `SessionInfo` into the next run.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    id: str
    """
    The session id (`SessionInfo.id`); a client sends `Agentic-Host` with the host it names.
    """
    revision: Annotated[int, Field(ge=0, le=9007199254740991)]
    """
    The revision the caller believes is current (at most 2^53 - 1, which every JSON client represents exactly).
    """


class Turn(BaseModel):
    """
    One completed turn still in the history; `history[start:end]` is what it added.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    revision: Annotated[int, Field(ge=1)]
    """
    The revision the turn produced.
    """
    runId: str
    """
    The run that produced it.
    """
    start: Annotated[int, Field(ge=0)]
    """
    Index of the turn's first message in `history`.
    """
    end: Annotated[int, Field(ge=0)]
    """
    Index one past the turn's last message in `history`.
    """
    at: str
    """
    When the turn completed.
    """


class InterruptedTurn(BaseModel):
    """
    The turn that interrupted the session, for the application to reconcile.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    runId: str
    """
    The interrupted run.
    """
    input: str
    """
    The input the interrupted turn was given.
    """
    reason: Literal[
        "cancelled",
        "failed",
        "disconnected",
        "idle_timeout",
        "limit_exceeded",
        "shutdown",
        "action_timeout",
    ]
    """
    Why a turn stopped after model work started. `action_timeout`: the
    run's `actionTimeoutMs` passed with its required action unanswered.

    """
    at: str
    """
    When the turn was interrupted.
    """


class Attachment(BaseModel):
    """
    A file sent with a stateless run. Text (`text/*`, JSON, XML) goes to
    the model decoded, beside the input; images (`image/png`, `image/jpeg`,
    `image/webp`, `image/gif`) and PDFs (`application/pdf`) go in the
    provider's own form, where the instance lists the type in discovery's
    `attachmentMediaTypes`. The host bounds each attachment's decoded size
    (`maxAttachmentBytes`) and a run's (`maxRunAttachmentBytes`).

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    name: str
    """
    The file name.
    """
    mediaType: str
    """
    The IANA media type, for example `text/plain` or `image/png`.
    """
    data: Annotated[str, Field(json_schema_extra={"contentEncoding": "base64"})]
    """
    The file content, base64-encoded.
    """


class RetrievedDocument(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    id: str
    """
    The application's id for the source.
    """
    text: str
    """
    The retrieved text.
    """


class RunOutput(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    text: str
    """
    The final visible assistant text.
    """


class Usage(BaseModel):
    """
    Token counts summed over the run's provider calls, normalised across
    providers whatever each one counts: `inputTokens` includes cached input
    and cache writes, `outputTokens` includes reasoning.

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    inputTokens: Annotated[int, Field(ge=0)]
    """
    Tokens the model read, cached or not.
    """
    outputTokens: Annotated[int, Field(ge=0)]
    """
    Tokens the model wrote, reasoning included.
    """
    cachedInputTokens: Annotated[int, Field(ge=0)]
    """
    Part of `inputTokens` served from the provider's prompt cache.
    """
    cacheWriteTokens: Annotated[int, Field(ge=0)]
    """
    Part of `inputTokens` written to the provider's prompt cache.
    """
    reasoningTokens: Annotated[int, Field(ge=0)]
    """
    Part of `outputTokens` spent on reasoning or thinking.
    """


class ServedModelRuns(BaseModel):
    """
    One model that answered turns of a session, and how many.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    model: str
    """
    The model as the provider reported it.
    """
    runs: Annotated[int, Field(ge=1)]
    """
    The turns it answered.
    """


class RetryAccounting(BaseModel):
    """
    Provider attempts that failed and were retried, and what they consumed (already billed).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    count: Annotated[int, Field(ge=0)]
    inputTokens: Annotated[int, Field(ge=0)]
    outputTokens: Annotated[int, Field(ge=0)]
    cost: Annotated[float | None, Field(ge=0.0)]
    """
    Their cost when the host has prices for the model, else null.
    """


class ToolDefinition(BaseModel):
    """
    An application-owned function the model may call.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    name: Annotated[str, Field(pattern="^[A-Za-z0-9_-]{1,64}$")]
    """
    The function's name, unique within the run.
    """
    description: str | MISSING = MISSING
    """
    What the function does, for the model.
    """
    parameters: dict[str, Any]
    """
    A JSON Schema for the function's arguments.
    """


class FunctionCall(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    callId: str
    """
    The id to answer with.
    """
    name: str
    """
    The function or host tool the model called.
    """
    arguments: dict[str, Any]
    """
    The arguments the model gave, as a JSON object.
    """


class FunctionCallsAction(BaseModel):
    """
    The model called application-owned functions; submit their results.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["function_calls"]
    calls: Annotated[list[FunctionCall], Field(min_length=1)]


class ApprovalsAction(BaseModel):
    """
    The model called host tools that need a person's approval before they act.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["approvals"]
    approvals: Annotated[list[FunctionCall], Field(min_length=1)]


class FunctionResult(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    callId: str
    """
    The call this answers.
    """
    output: str
    """
    The function's result as text (JSON text is fine), given to the model.
    """


class ApprovalDecision(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    callId: str
    """
    The call this decides.
    """
    approve: bool
    """
    Approved, the host runs the tool; denied, the model is told so.
    """
    reason: str | MISSING = MISSING
    """
    Why, passed to the model with a denial.
    """


class SubmitRunActionsRequest(BaseModel):
    """
    Exactly one of `functionResults` or `approvals`, matching the run's
    `requiredAction`, and optionally `onDisconnect` for the rest of the run.
    A body with both answers, or with neither, is `VALIDATION_ERROR`.

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    functionResults: Annotated[list[FunctionResult] | MISSING, Field(min_length=1)] = (
        MISSING
    )
    approvals: Annotated[list[ApprovalDecision] | MISSING, Field(min_length=1)] = (
        MISSING
    )
    onDisconnect: Literal["cancel", "continue"] | MISSING = MISSING
    """
    What the run does when the client answering it goes away (its
    connection closes before the answer or the stream's last event):
    `cancel` (the default) stops the run; a session turn whose model work
    had started is then `interrupted` (reason `disconnected`), before
    that the session stays `ready`. `continue` lets the run go on to its
    end (completed, failed, or paused for function results or approvals)
    as if the client had stayed: the session stays busy meanwhile and
    advances when the turn completes. Rejoin it with `streamRunEvents`,
    read its outcome with `getRun`, or retry the request with the same
    `Idempotency-Key`. Absent from a run, it is `cancel`; sent with
    `submitRunActions`, it applies from that answer on, and absent there
    the run keeps the value it had.

    """


class OutputDeltaEvent(BaseModel):
    """
    The next piece of the assistant's visible text.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["output.delta"]
    runId: str
    text: str


class RunEventMessage(BaseModel):
    """
    One Server-Sent Events message of a streamed run (`streamRun`,
    `streamRunActions`), as its fields: the way OpenAPI 3.2 models each
    item of a `text/event-stream`. `data` is one `RunEvent` as JSON; `event`
    equals that event's `type`; `id` numbers the run's events from 1, once
    across every stream that carries them (`streamRun`, then each
    `streamRunActions`, and `streamRunEvents`, which replays them with
    the same ids). Comment lines (`: keep-alive`) are not messages.
    Clients ignore event types they do not know.

    """

    id: Annotated[str, Field(pattern="^[1-9][0-9]*$")]
    """
    The event's position among its run's events, from 1 (send it back as `Last-Event-ID`).
    """
    event: str
    """
    The `type` of the `RunEvent` in `data`.
    """
    data: Annotated[
        str,
        Field(
            json_schema_extra={
                "contentMediaType": "application/json",
                "contentSchema": {
                    "anyOf": [
                        {"$ref": "#/components/schemas/RunEvent"},
                        {"$ref": "#/components/schemas/LaterRunEvent"},
                    ]
                },
            }
        ),
    ]
    """
    One `RunEvent`, as JSON on a single line.
    """
    retry: Annotated[int | MISSING, Field(ge=0)] = MISSING
    """
    A reconnection delay in milliseconds (SSE `retry` field); the host does not send one today.
    """


class LaterRunEvent(BaseModel):
    """
    An event of a type added to the contract after this version (see
    Evolution in the document's description). A client skips it, or keeps
    it whole; it never fails the stream. The types this version defines
    are the `RunEvent` variants, and an event of one of those types must
    match its variant.

    """

    type: str


class RunsPolicy(BaseModel):
    """
    How the host keeps runs for rejoining (`streamRunEvents`) and reading (`getRun`).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    onDisconnect: list[Literal["cancel", "continue"]]
    """
    The `onDisconnect` values this host honours.
    """
    maxRunEventBytes: Annotated[int, Field(ge=1)]
    """
    The most bytes of events buffered per run (host `limits.maxRunEventBytes`); older events are dropped first.
    """
    retentionMs: Annotated[int, Field(ge=1)]
    """
    How long an ended run stays readable (host `runs.retentionMs`).
    """
    maxEntries: Annotated[int, Field(ge=1)]
    """
    The most ended runs kept readable at once (host `runs.maxEntries`), the oldest forgotten first.
    """


class ForkSessionRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    revision: Annotated[int | MISSING, Field(ge=0)] = MISSING
    """
    The boundary: 0 (the imported history only), the session's current
    revision, or the revision of one of its recorded turns. Default:
    the current revision.

    """


class TruncateSessionRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    revision: Annotated[int, Field(ge=0)]
    """
    The revision the caller believes is current.
    """
    keepTurns: Annotated[int, Field(ge=0)]
    """
    How many of the first recorded turns to keep (0 keeps only the imported history).
    """


class ValidationIssue(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    location: str
    """
    Where in the request the problem is, for example `body.session.revision`.
    """
    message: str
    """
    What is wrong there.
    """


class Code(RootModel[str]):
    root: Annotated[str, Field(pattern="^[A-Z][A-Z0-9_]*$")]
    """
    The problem's stable code: one of `ErrorCode` (the codes this version
    of the contract defines), or a code added after it, which a client
    handles by the HTTP status. Each error response lists the codes it
    carries in `x-error-codes`.

    """


class Problem(BaseModel):
    """
    RFC 9457 problem details with a stable `code`. Code-specific fields
    appear only with the codes that use them.

    """

    type: str
    """
    A URN naming the problem type, `urn:agentic-driver:problem:<code>`.
    """
    title: str
    """
    A short summary of the problem type.
    """
    status: int
    """
    The HTTP status code.
    """
    code: (
        Code
        | Literal[
            "UNAUTHENTICATED",
            "PERMISSION_DENIED",
            "SESSION_NOT_FOUND",
            "RUN_NOT_FOUND",
            "PROVIDER_NOT_FOUND",
            "MODEL_NOT_FOUND",
            "ROUTE_NOT_FOUND",
            "METHOD_NOT_ALLOWED",
            "SESSION_REVISION_CONFLICT",
            "SESSION_BUSY",
            "SESSION_INTERRUPTED",
            "SESSION_ACCOUNT_REQUIRED",
            "RUN_CANCELLED",
            "RUN_NOT_WAITING",
            "IDEMPOTENCY_KEY_IN_USE",
            "REQUEST_TIMEOUT",
            "PAYLOAD_TOO_LARGE",
            "UNSUPPORTED_MEDIA_TYPE",
            "VALIDATION_ERROR",
            "UNSUPPORTED_CONTINUATION",
            "SESSION_CONTEXT_UNSUPPORTED",
            "SESSION_OVERRIDE_REJECTED",
            "SESSION_LIMIT_EXCEEDED",
            "SESSION_PREFIX_CHANGED",
            "ACTION_MISMATCH",
            "IDEMPOTENCY_KEY_REUSED",
            "TOOL_NAME_CONFLICT",
            "PROVIDER_RATE_LIMITED",
            "INTERNAL_ERROR",
            "HEADERS_TOO_LARGE",
            "SESSIONS_DISABLED",
            "PROVIDER_ERROR",
            "PROVIDER_AUTH_FAILED",
            "PROVIDER_REJECTED",
            "SESSION_STORE_FULL",
            "HOST_BUSY",
            "PROVIDER_OVERLOADED",
            "SHUTTING_DOWN",
            "PROVIDER_TIMEOUT",
            "ATTACHMENT_UNSUPPORTED",
            "MALFORMED_REQUEST",
            "MISDIRECTED_REQUEST",
            "HOST_UNAVAILABLE",
            "RUN_EVENTS_EXPIRED",
            "SUBJECT_QUOTA_EXCEEDED",
        ]
    )
    """
    The problem's stable code: one of `ErrorCode` (the codes this version
    of the contract defines), or a code added after it, which a client
    handles by the HTTP status. Each error response lists the codes it
    carries in `x-error-codes`.

    """
    detail: str
    """
    What happened, for a person.
    """
    instance: str | MISSING = MISSING
    """
    The request path.
    """
    requestId: str | MISSING = MISSING
    """
    The request's id, the same as the `X-Request-Id` response header.
    """
    currentRevision: int | MISSING = MISSING
    """
    `SESSION_REVISION_CONFLICT`: the session's current revision.
    """
    activeRunId: str | MISSING = MISSING
    """
    `SESSION_BUSY`: the run that holds the session.
    """
    retryAfterSeconds: int | MISSING = MISSING
    """
    The same value as the `Retry-After` header, where waiting helps.
    """
    limit: str | MISSING = MISSING
    """
    `SESSION_LIMIT_EXCEEDED`, `SESSION_STORE_FULL`, `PAYLOAD_TOO_LARGE`, `REQUEST_TIMEOUT`, `HEADERS_TOO_LARGE`, `HOST_BUSY`, `ATTACHMENT_UNSUPPORTED`, `SUBJECT_QUOTA_EXCEEDED`: the bound that was hit, by its host setting name (on `ATTACHMENT_UNSUPPORTED` only when a size bound refused the attachment).
    """
    maximum: int | MISSING = MISSING
    """
    The value of that bound.
    """
    attachment: Annotated[int | MISSING, Field(ge=0)] = MISSING
    """
    `ATTACHMENT_UNSUPPORTED`: the refused attachment's index in `attachments`.
    """
    mediaType: str | MISSING = MISSING
    """
    `ATTACHMENT_UNSUPPORTED`: the refused attachment's media type, as sent.
    """
    provider: str | MISSING = MISSING
    """
    `ATTACHMENT_UNSUPPORTED`: the provider instance that does not take it.
    """
    reason: str | MISSING = MISSING
    """
    `RUN_CANCELLED`: `cancelled`, `session_deleted`, `disconnected`, `shutdown` (the host stopped before the turn finished) or `action_timeout` (the run's `actionTimeoutMs` passed with its required action unanswered).
    """
    hostId: str | MISSING = MISSING
    """
    `MISDIRECTED_REQUEST`: the host process that answered.
    """
    ownerHostId: str | MISSING = MISSING
    """
    `MISDIRECTED_REQUEST`, `HOST_UNAVAILABLE`: the host process that owns the session or run the request names (send `Agentic-Host` with it).
    """
    firstEventId: Annotated[int | MISSING, Field(ge=1)] = MISSING
    """
    `RUN_EVENTS_EXPIRED`: the oldest event id of the run still buffered.
    """
    errors: list[ValidationIssue] | MISSING = MISSING
    """
    `VALIDATION_ERROR`, `TOOL_NAME_CONFLICT`: every problem found in the request (for `TOOL_NAME_CONFLICT`, each tool whose name clashes).
    """


class MisdirectedProblem(Problem):
    """
    Always carries `hostId` and `ownerHostId`.
    """


class NotReadyProblem(Problem):
    pass


class UnauthenticatedProblem(Problem):
    pass


class PermissionDeniedProblem(Problem):
    pass


class SessionNotFoundProblem(Problem):
    pass


class RunTargetNotFoundProblem(Problem):
    pass


class RunNotFoundProblem(Problem):
    pass


class SessionAccountRequiredProblem(Problem):
    pass


class RunConflictProblem(Problem):
    pass


class PayloadTooLargeProblem(Problem):
    pass


class UnsupportedMediaTypeProblem(Problem):
    pass


class CreateSessionInvalidProblem(Problem):
    pass


class RunInvalidProblem(Problem):
    pass


class SessionsDisabledProblem(Problem):
    pass


class CreateSessionUnavailableProblem(Problem):
    pass


class RequestTimeoutProblem(Problem):
    pass


class ProviderErrorProblem(Problem):
    pass


class ProviderRateLimitedProblem(Problem):
    pass


class SubjectQuotaExceededProblem(Problem):
    pass


class RunTooManyRequestsProblem(Problem):
    pass


class ProviderOverloadedProblem(Problem):
    pass


class RunUnavailableProblem(Problem):
    pass


class CreateSessionNotFoundProblem(Problem):
    pass


class ActionsNotFoundProblem(Problem):
    pass


class ActionsConflictProblem(Problem):
    pass


class StreamActionsConflictProblem(Problem):
    pass


class ActionsInvalidProblem(Problem):
    pass


class StreamActionsInvalidProblem(Problem):
    pass


class StreamRunConflictProblem(Problem):
    pass


class ProviderTimeoutProblem(Problem):
    pass


class ForkConflictProblem(Problem):
    pass


class ForkInvalidProblem(Problem):
    pass


class TruncateConflictProblem(Problem):
    pass


class TruncateInvalidProblem(Problem):
    pass


class RunEventsExpiredProblem(Problem):
    """
    Always carries `firstEventId`.
    """


class EventsInvalidProblem(Problem):
    pass


class Readiness(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    status: Literal["ready"]
    """
    Always `ready` while the host takes new work.
    """
    restored: SnapshotRestore | MISSING = MISSING


class ProviderCapabilities(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    historyContinuation: bool
    """
    Sessions in `history` mode are supported.
    """
    nativeContinuation: bool
    """
    Sessions in `native` mode are supported.
    """
    streaming: bool
    """
    Streamed runs are supported.
    """
    applicationFunctions: bool
    """
    Application-owned functions are supported.
    """
    nativeHistoryFilters: list[
        Literal["full", "no_reasoning", "no_tool_results", "compact_tool_results"]
    ]
    """
    The `nativeHistory` filters this instance's native sessions support.
    """
    attachmentMediaTypes: list[str] | MISSING = MISSING
    """
    The attachment media types a stateless run on this instance may send:
    media types, or ranges such as `text/*` (sent decoded, as text beside
    the input). Images and PDFs go in the provider's own form. Any other
    type is `ATTACHMENT_UNSUPPORTED` before any model work. Matching
    ignores case and parameters such as `; charset=utf-8`.

    """


class SessionInfo(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    id: Annotated[str, Field(examples=["ses_local-host.4Jd9sQpXk2mN7vB1cR8tYw"])]
    """
    The session id, `ses_{hostId}.{random}`: `hostId` is the DNS label
    of the host process that holds the session (`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
    and `random` is URL-safe base64, so the first `.` ends the host part.
    Applications treat the id as opaque; clients and proxies read the
    host part to route (`Agentic-Host`). Ids of hosts older than this
    format (`ses_{random}`) name no host and stay valid.

    """
    revision: Annotated[int, Field(ge=0)]
    """
    Starts at 0 and advances by one with every completed turn.
    """
    status: Literal["ready", "running", "interrupted"]
    """
    `ready` accepts a run at the current revision; `running` has an active
    turn (running, or waiting for a run slot); `interrupted` refuses runs
    until the application reconciles and starts a new session.

    """
    provider: str
    """
    The provider instance the session is bound to.
    """
    model: str
    """
    The model the session is bound to.
    """
    mode: Literal["history", "native"]
    """
    `history` keeps submitted user text and final visible assistant text.
    `native` also keeps the provider's own state, unchanged, inside the host.

    """
    createdAt: str
    """
    Creation time, UTC, millisecond precision.
    """
    updatedAt: str
    """
    The last change of revision or status.
    """
    expiresAt: str | None
    """
    When the idle session expires; null while a turn is active.
    """
    messageCount: Annotated[int, Field(ge=0)]
    """
    Visible messages held.
    """
    recordBytes: Annotated[int, Field(ge=0)]
    """
    Encoded bytes counted against `maxRecordBytes`.
    """
    hostId: str
    """
    The id of the host that holds the session.
    """
    nativeHistory: Literal[
        "full", "no_reasoning", "no_tool_results", "compact_tool_results"
    ]
    """
    What a native session keeps of each stored turn (applied when the turn
    is stored, so replay and bounds both see the filtered history).
    `full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
    whole (never edits one; Gemini's signed parts stay); `no_tool_results`
    replaces each tool result's content with a short placeholder, keeping
    calls and results paired; `compact_tool_results` cuts each tool result
    (a string or a list of text blocks) to at most the host's
    `sessions.compactToolResultsMaxChars` characters. A history that ends
    inside a tool round keeps that round as it is.

    """
    runCount: Annotated[int, Field(ge=0)]
    """
    Every turn ever run that reached the model, including interrupted and failed ones; truncation never rewinds it.
    """
    usage: Usage
    cost: Annotated[float | None, Field(ge=0.0)]
    """
    Cumulative cost when the host has prices for the model, else null.
    """
    retries: RetryAccounting
    servedModels: Annotated[list[str], Field(deprecated=True, max_length=100)]
    """
    Deprecated: read `servedModelRuns`, whose size does not grow with
    the session's turns. The model that answered each of the
    session's last 100 turns that reported one, as the provider
    reported it, oldest first (hosts before 0.3 kept every turn's).

    """
    servedModelRuns: list[ServedModelRuns] | MISSING = MISSING
    """
    Each model that answered a turn of the session, as the provider
    reported it, in the order first served, with how many turns it
    answered. One entry per distinct model, so it stays small
    whatever the number of turns; like `runCount`, truncation never
    rewinds it. Sent by every host from 0.3 on.

    """


class CreateSessionRequest(BaseModel):
    """
    A `nativeHistory` other than `full` needs `mode` native.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    provider: str
    """
    The provider instance id.
    """
    model: str
    """
    A model the instance serves.
    """
    mode: Literal["history", "native"]
    """
    `history` keeps submitted user text and final visible assistant text.
    `native` also keeps the provider's own state, unchanged, inside the host.

    """
    instructions: str | MISSING = MISSING
    """
    Instructions (a system prompt) that belong to the session from now on.
    """
    history: list[Message] | MISSING = MISSING
    """
    Visible messages to import, bounded by `maxMessages` and `maxRecordBytes`.
    """
    nativeHistory: (
        Literal["full", "no_reasoning", "no_tool_results", "compact_tool_results"]
        | MISSING
    ) = MISSING
    """
    What a native session keeps of each stored turn (applied when the turn
    is stored, so replay and bounds both see the filtered history).
    `full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
    whole (never edits one; Gemini's signed parts stay); `no_tool_results`
    replaces each tool result's content with a short placeholder, keeping
    calls and results paired; `compact_tool_results` cuts each tool result
    (a string or a list of text blocks) to at most the host's
    `sessions.compactToolResultsMaxChars` characters. A history that ends
    inside a tool round keeps that round as it is.

    """


class CreateSessionResponse(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    session: SessionInfo


class ReadSessionResponse(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    session: SessionInfo
    instructions: str | None
    """
    The session's instructions, or null.
    """
    history: list[Message]
    """
    The visible history, oldest first. Provider-private state is never shown.
    """
    turns: list[Turn]
    """
    The recorded turns still in the history, oldest first.
    """
    interruptedTurn: InterruptedTurn | MISSING = MISSING


class Retrieval(BaseModel):
    """
    Freshly authorized context for a stateless run.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    documents: list[RetrievedDocument]


class RunRequest(BaseModel):
    """
    A stateless run (no `session`) or a session run. A session run owns
    neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
    no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
    `dependentSchemas` below state exactly that.

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    provider: str
    """
    The provider instance id; for a session run, the session's provider.
    """
    model: str
    """
    The model; for a session run, the session's model.
    """
    input: str
    """
    The new user input.
    """
    instructions: str | MISSING = MISSING
    """
    Stateless runs only.
    """
    history: list[Message] | MISSING = MISSING
    """
    Stateless runs only; the earlier visible conversation.
    """
    attachments: list[Attachment] | MISSING = MISSING
    """
    Stateless runs only.
    """
    retrieval: Retrieval | MISSING = MISSING
    session: SessionHandle | MISSING = MISSING
    tools: Annotated[list[ToolDefinition] | MISSING, Field(max_length=128)] = MISSING
    """
    Application-owned functions the model may call. A call ends the run
    in `requires_action` until `submitRunActions` brings the results.
    Names must differ from each other and from the host's own tools.

    """
    idleTimeoutMs: Annotated[int | MISSING, Field(ge=1, le=86400000)] = MISSING
    """
    Opt-in progress timeout: if the provider makes no progress for this
    long, the run fails with `PROVIDER_TIMEOUT` (a session turn leaves
    the session interrupted). There is never a total run deadline.

    """
    actionTimeoutMs: Annotated[int | MISSING, Field(ge=1, le=86400000)] = MISSING
    """
    Opt-in bound on each wait for the application: if a required
    action (function results or approvals) is not answered this long,
    the run ends as cancelled (`RUN_CANCELLED`, reason
    `action_timeout`); a session turn had started model work, so the
    session is interrupted and its interrupted turn records reason
    `action_timeout`. Without it a paused run waits until it is
    answered, cancelled or deleted (session retention stays suspended
    meanwhile). Separate from the host's `maxWaitingRuns`, which bounds
    how many runs may wait at once.

    """
    onDisconnect: Literal["cancel", "continue"] | MISSING = MISSING
    """
    What the run does when the client answering it goes away (its
    connection closes before the answer or the stream's last event):
    `cancel` (the default) stops the run; a session turn whose model work
    had started is then `interrupted` (reason `disconnected`), before
    that the session stays `ready`. `continue` lets the run go on to its
    end (completed, failed, or paused for function results or approvals)
    as if the client had stayed: the session stays busy meanwhile and
    advances when the turn completes. Rejoin it with `streamRunEvents`,
    read its outcome with `getRun`, or retry the request with the same
    `Idempotency-Key`. Absent from a run, it is `cancel`; sent with
    `submitRunActions`, it applies from that answer on, and absent there
    the run keeps the value it had.

    """


class RunResult(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    id: str
    """
    The run id, `run_{hostId}.{random}` (the host part as in `SessionInfo.id`).
    """
    status: Literal["completed", "requires_action"]
    """
    `completed`: the turn finished and `output` holds the reply.
    `requires_action`: the turn waits for the application (`requiredAction`
    says for what); it is still the session's active turn.

    """
    output: RunOutput
    usage: Usage
    requiredAction: Annotated[
        FunctionCallsAction | ApprovalsAction | MISSING, Field(discriminator="type")
    ] = MISSING
    """
    What a `requires_action` run waits for.
    """
    cost: Annotated[float | None, Field(ge=0.0)]
    """
    This run's cost when the host has prices for the model, else null (never a guess).
    """
    retries: RetryAccounting
    servedModel: str | None
    """
    The model that answered, as the provider reported it.
    """
    session: SessionInfo | MISSING = MISSING


class RunStartedEvent(BaseModel):
    """
    The run was admitted; a session run carries the session (status `running`).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["run.started"]
    runId: str
    session: SessionInfo | MISSING = MISSING


class RunRequiresActionEvent(BaseModel):
    """
    The run waits for the application; the stream ends here.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["run.requires_action"]
    run: RunResult


class RunCompletedEvent(BaseModel):
    """
    The turn completed; a session run carries the session at its next revision.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["run.completed"]
    run: RunResult


class RunFailedEvent(BaseModel):
    """
    The run failed or was cancelled after the stream started; `problem`
    says why, with the code the non-streamed operation would answer with:
    `RUN_CANCELLED`, `SESSION_LIMIT_EXCEEDED`, `PROVIDER_TIMEOUT`, or a
    provider failure (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`,
    `PROVIDER_AUTH_FAILED`, `PROVIDER_REJECTED`, `PROVIDER_ERROR`, with
    `retryAfterSeconds` where the provider said when to retry).

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    type: Literal["run.failed"]
    runId: str
    problem: Problem


class RunEvent(
    RootModel[
        RunStartedEvent
        | OutputDeltaEvent
        | RunRequiresActionEvent
        | RunCompletedEvent
        | RunFailedEvent
    ]
):
    root: Annotated[
        RunStartedEvent
        | OutputDeltaEvent
        | RunRequiresActionEvent
        | RunCompletedEvent
        | RunFailedEvent,
        Field(discriminator="type"),
    ]
    """
    One event of a streamed run: the JSON in the `data` of one
    Server-Sent Events message. The message's `event` field equals
    `type`; clients should ignore event types they do not know.

    """


class RunState(BaseModel):
    """
    A run as the host knows it now (`getRun`). `result` is present once
    the run completed or paused (`completed`, `requires_action`);
    `problem` once it failed or was cancelled (`failed`, `cancelled`),
    with the code its own request answered or would have answered with.

    """

    model_config = ConfigDict(
        extra="forbid",
    )
    id: str
    """
    The run id.
    """
    status: Literal[
        "queued", "running", "requires_action", "completed", "failed", "cancelled"
    ]
    """
    `queued`: admitted, waiting for a run slot. `running`: model work
    under way (or host tools answering). `requires_action`: paused for
    function results or approvals. `completed`, `failed`, `cancelled`:
    ended (a cancellation from outside, a disconnect of a `cancel` run,
    a deleted session, the host's drain, or an unanswered action).

    """
    onDisconnect: Literal["cancel", "continue"]
    """
    What the run does when the client answering it goes away (its
    connection closes before the answer or the stream's last event):
    `cancel` (the default) stops the run; a session turn whose model work
    had started is then `interrupted` (reason `disconnected`), before
    that the session stays `ready`. `continue` lets the run go on to its
    end (completed, failed, or paused for function results or approvals)
    as if the client had stayed: the session stays busy meanwhile and
    advances when the turn completes. Rejoin it with `streamRunEvents`,
    read its outcome with `getRun`, or retry the request with the same
    `Idempotency-Key`. Absent from a run, it is `cancel`; sent with
    `submitRunActions`, it applies from that answer on, and absent there
    the run keeps the value it had.

    """
    firstEventId: Annotated[int, Field(ge=1)]
    """
    The oldest of the run's events still buffered (`Last-Event-ID` below it is `RUN_EVENTS_EXPIRED`).
    """
    lastEventId: Annotated[int, Field(ge=1)]
    """
    The id of the run's latest event (its `run.started` is 1).
    """
    session: SessionInfo | MISSING = MISSING
    result: RunResult | MISSING = MISSING
    problem: Problem | MISSING = MISSING


class CancelRunResponse(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    id: str
    """
    The cancelled run.
    """
    status: Literal["cancelled"]
    """
    Always `cancelled`.
    """
    modelWorkStarted: bool
    """
    Whether model work had started; if so, the session is now interrupted.
    """
    session: SessionInfo | MISSING = MISSING


class ProviderInfo(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    id: str
    """
    The provider instance id used in requests.
    """
    kind: Annotated[str, Field(examples=["echo"])]
    """
    The adapter kind, for example `echo`.
    """
    models: list[str]
    """
    The models this instance serves.
    """
    accountBound: bool
    """
    Whether the instance has an account binding, which sessions require. The account id itself is never disclosed.
    """
    capabilities: ProviderCapabilities


class Discovery(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    hostId: str
    """
    The host process's id (a DNS label); the session and run ids it makes name it.
    """
    version: str
    """
    The host software version.
    """
    subject: str
    """
    The subject the caller's token maps to.
    """
    sessionGrants: list[Literal["create", "read", "continue", "delete"]]
    """
    The session operations the caller's token is granted.
    """
    providers: list[ProviderInfo]
    """
    The provider instances the caller's token may use.
    """
    sessions: SessionsPolicy
    runs: RunsPolicy | MISSING = MISSING
