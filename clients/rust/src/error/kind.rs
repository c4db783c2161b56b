// Generated from openapi.yaml's ErrorCode x-error-table by generator/error_rust.py. DO NOT EDIT.

//! The kinds of problem: one [`ProblemKind`] per catalogue code with the fields the contract gives it,
//! read from the problem document ([`Fields`]), and the [`ProblemGroup`] each code is in. `group.rs`
//! (written by hand) has the groups.

use serde::Deserialize;

use super::ProblemGroup;
use crate::generated::types::{ErrorCode, ValidationIssue};

/// One variant per code of the catalogue (openapi.yaml's `ErrorCode` and its `x-error-table`), documented
/// with the code's fix-it text and carrying the fields the table gives the code: plain when every answer
/// with it carries the field (a document without one is not the contract's and becomes
/// [`crate::Error::UnexpectedStatus`]), an `Option` when only some do. What this client does about some
/// codes before they reach you (retries, the `421` it follows, the busy helper) is on
/// [`crate::Error::kind`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// 401 `UNAUTHENTICATED`: Send `Authorization: Bearer <token>` with a token configured on the
    /// host or a valid JWT from a trusted issuer; `WWW-Authenticate`'s `error_description` says why
    /// a token was refused (e.g. `expired`).
    Unauthenticated,
    /// 403 `PERMISSION_DENIED`: The token lacks the session grant (`create`, `read`, `continue`,
    /// `delete`) or the provider; ask the operator.
    PermissionDenied,
    /// 404 `SESSION_NOT_FOUND`: Unknown, expired, deleted, or not yours (also: wrong provider/model
    /// for it, or its provider's account binding changed). Start a new session.
    SessionNotFound,
    /// 404 `RUN_NOT_FOUND`: The run is not yours, or it ended (nothing to cancel or answer) and,
    /// past `runs.retentionMs`, is no longer readable either: read its session for the outcome.
    RunNotFound,
    /// 404 `PROVIDER_NOT_FOUND`: Check `GET /v1/discovery` for the instances and models you may
    /// use.
    ProviderNotFound,
    /// 404 `MODEL_NOT_FOUND`: Check `GET /v1/discovery` for the instances and models you may use.
    ModelNotFound,
    /// 404 `ROUTE_NOT_FOUND`: Outside the contract: check the path and method.
    RouteNotFound,
    /// 405 `METHOD_NOT_ALLOWED`: Outside the contract: check the path and method.
    MethodNotAllowed,
    /// 409 `SESSION_REVISION_CONFLICT`: Your revision is stale (`currentRevision` says the current
    /// one; `x-should-retry: false`). Read the session, reconcile, retry with the current revision.
    SessionRevisionConflict { current_revision: i64 },
    /// 409 `SESSION_BUSY`: Another turn is active (`activeRunId`); wait `Retry-After` seconds and
    /// retry, or cancel that run.
    SessionBusy { active_run_id: String },
    /// 409 `SESSION_INTERRUPTED`: A turn stopped after model work started. Read the session
    /// (`interruptedTurn`), reconcile side effects, create a new session with the history you
    /// choose.
    SessionInterrupted,
    /// 409 `SESSION_ACCOUNT_REQUIRED`: The provider instance has no account binding: use stateless
    /// runs, or bind it (`accountId`) in host config.
    SessionAccountRequired,
    /// 409 `RUN_CANCELLED`: Your run was cancelled (`reason: cancelled`), its session deleted
    /// (`reason: session_deleted`), its client disconnected (`reason: disconnected`), the host
    /// stopped before it finished (`reason: shutdown`), or its required action was not answered
    /// within its `actionTimeoutMs` (`reason: action_timeout`; read the session: it is
    /// interrupted).
    RunCancelled { reason: Option<String> },
    /// 409 `RUN_NOT_WAITING`: The run is still active but waits for no action (for example, someone
    /// answered first and it is running again). A finished run is `RUN_NOT_FOUND`.
    RunNotWaiting,
    /// 409 `IDEMPOTENCY_KEY_IN_USE`: The first request with this key is still running; retry after
    /// it finishes.
    IdempotencyKeyInUse,
    /// 408 `REQUEST_TIMEOUT`: The request body did not arrive within `limits.bodyTimeoutMs`.
    RequestTimeout { limit: Option<String>, maximum: Option<i64> },
    /// 413 `PAYLOAD_TOO_LARGE`: The body exceeds `limits.maxBodyBytes`.
    PayloadTooLarge { limit: Option<String>, maximum: Option<i64> },
    /// 415 `UNSUPPORTED_MEDIA_TYPE`: Send `Content-Type: application/json`.
    UnsupportedMediaType,
    /// 422 `VALIDATION_ERROR`: Fix the request; `errors` lists each problem with its location.
    /// Unknown fields are refused.
    ValidationError { errors: Vec<ValidationIssue> },
    /// 422 `UNSUPPORTED_CONTINUATION`: The provider cannot keep that mode (see `capabilities` in
    /// discovery); choose the other mode.
    UnsupportedContinuation,
    /// 422 `SESSION_CONTEXT_UNSUPPORTED`: Sessions take text input only; send attachments or
    /// retrieval in a stateless run.
    SessionContextUnsupported,
    /// 422 `SESSION_OVERRIDE_REJECTED`: A session owns its instructions and history; do not send
    /// them with a session run.
    SessionOverrideRejected,
    /// 422 `SESSION_LIMIT_EXCEEDED`: A bound named in `limit` (with `maximum`) would be exceeded;
    /// start a new session with a shorter history.
    SessionLimitExceeded { limit: Option<String>, maximum: Option<i64> },
    /// 422 `SESSION_PREFIX_CHANGED`: A native session on a provider whose request prefix must stay
    /// byte-identical (Anthropic) got other tools than its first turn; nothing reached the model.
    /// Send the same tools, or start a new session.
    SessionPrefixChanged,
    /// 422 `ACTION_MISMATCH`: Answer exactly the `requiredAction`: the right kind, every call id
    /// once, no others.
    ActionMismatch,
    /// 422 `IDEMPOTENCY_KEY_REUSED`: This key was used with a different request; use a new key.
    IdempotencyKeyReused,
    /// 422 `TOOL_NAME_CONFLICT`: Two declared tools share a name, or one is named like a host tool
    /// (`errors` says which).
    ToolNameConflict { errors: Vec<ValidationIssue> },
    /// 429 `PROVIDER_RATE_LIMITED`: The provider refused for rate or quota after the host's own
    /// retries; wait `Retry-After` when present. Without it (a spend or quota limit), waiting will
    /// not help.
    ProviderRateLimited,
    /// 500 `INTERNAL_ERROR`: A host defect; please report it.
    InternalError,
    /// 431 `HEADERS_TOO_LARGE`: The request head exceeds `limits.maxHeaderBytes`.
    HeadersTooLarge { limit: Option<String>, maximum: Option<i64> },
    /// 501 `SESSIONS_DISABLED`: The host sets no `sessions.retentionMs`; use stateless runs.
    SessionsDisabled,
    /// 502 `PROVIDER_ERROR`: The model provider failed; a session turn left the session
    /// interrupted.
    ProviderError,
    /// 502 `PROVIDER_AUTH_FAILED`: The provider refused the host's credentials: the operator must
    /// fix the key (`apiKeyEnv`).
    ProviderAuthFailed,
    /// 502 `PROVIDER_REJECTED`: The provider refused the request itself (for example a signed
    /// native item that no longer verifies); a session turn left the session interrupted.
    ProviderRejected,
    /// 503 `SESSION_STORE_FULL`: The store holds `maxEntries` sessions; retry after `Retry-After`
    /// or delete sessions.
    SessionStoreFull { limit: Option<String>, maximum: Option<i64> },
    /// 503 `HOST_BUSY`: Every run slot is taken and the wait line is full (`limit: maxQueuedRuns`),
    /// `maxWaitingRuns` runs that may wait for the application are active
    /// (`limit: maxWaitingRuns`), or the host holds its maximum of connections
    /// (`limit: maxConnections`); retry after `Retry-After`.
    HostBusy { limit: Option<String>, maximum: Option<i64> },
    /// 503 `PROVIDER_OVERLOADED`: The provider was overloaded (its 503, Anthropic's 529) after the
    /// host's own retries; retry later.
    ProviderOverloaded,
    /// 503 `SHUTTING_DOWN`: The host is stopping and starts no new work (also `/readyz` while it
    /// drains). A stateless run or a new session: retry after `Retry-After` (behind a proxy it
    /// lands on another host). A session ends with its host: read its history while the host still
    /// answers, and create a new session on another host with what it should see.
    ShuttingDown,
    /// 504 `PROVIDER_TIMEOUT`: The provider made no progress for `idleTimeoutMs`; a session turn
    /// left the session interrupted.
    ProviderTimeout,
    /// 422 `ATTACHMENT_UNSUPPORTED`: Attachment `attachment` (`mediaType`) is a type the instance
    /// `provider` does not take (see its `attachmentMediaTypes` in discovery), or larger than
    /// `limit` (`maxAttachmentBytes`, `maxRunAttachmentBytes`; `maximum` bytes); nothing reached
    /// the model.
    AttachmentUnsupported {
        attachment: Option<u64>,
        media_type: Option<String>,
        provider: Option<String>,
        limit: Option<String>,
        maximum: Option<i64>,
    },
    /// 400 `MALFORMED_REQUEST`: The bytes sent are not valid HTTP/1.1 (a control byte in a header,
    /// a bad request line or path, a bad `Content-Length` or chunk size, a header line without a
    /// colon); the host answers and closes the connection (`Connection: close`). Fix the client or
    /// the proxy in front.
    MalformedRequest,
    /// 421 `MISDIRECTED_REQUEST`: The request named a session or run of another host process
    /// (`ownerHostId`; `hostId` is the host that answered); nothing was done. Retry once with
    /// `Agentic-Host: <ownerHostId>` (clients do it for you). See Scaling (`docs/cluster.md`).
    MisdirectedRequest { host_id: String, owner_host_id: String },
    /// 503 `HOST_UNAVAILABLE`: Sent by the proxy, not a host: the host that owns the session or run
    /// (`ownerHostId`) is down or restarting (without `ownerHostId`: no host takes new work). Retry
    /// after `Retry-After` a few times; a host that comes back has lost its sessions
    /// (`SESSION_NOT_FOUND`): then start a new session.
    HostUnavailable { owner_host_id: Option<String> },
    /// 410 `RUN_EVENTS_EXPIRED`: The events after your `Last-Event-ID` outgrew the run's buffer
    /// (`limits.maxRunEventBytes`); `firstEventId` is the oldest still held. Read the run
    /// (`GET /v1/runs/{runId}`) for its outcome, or rejoin from `firstEventId - 1` accepting the
    /// gap.
    RunEventsExpired { first_event_id: u64 },
    /// 429 `SUBJECT_QUOTA_EXCEEDED`: Your subject holds the most this host allows it (`limit`:
    /// `perSubject.maxSessions` stored sessions, `perSubject.maxActiveRuns` active runs, or
    /// `perSubject.runsPerMinute` runs started in the last 60 s; `maximum` is the bound); nothing
    /// was started. Delete a session, let a run end, or wait `Retry-After`.
    SubjectQuotaExceeded { limit: Option<String>, maximum: Option<i64> },
    /// A code this client does not know (a newer host).
    Unknown(String),
}

/// The members of a problem document, read leniently (every code-specific one of the table).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Fields {
    pub(super) code: Option<String>,
    pub(super) detail: Option<String>,
    #[serde(default)]
    pub(super) title: String,
    #[serde(default, rename = "type")]
    pub(super) problem_type: String,
    pub(super) instance: Option<String>,
    pub(super) retry_after_seconds: Option<i64>,
    pub(super) current_revision: Option<i64>,
    pub(super) active_run_id: Option<String>,
    pub(super) reason: Option<String>,
    pub(super) limit: Option<String>,
    pub(super) maximum: Option<i64>,
    pub(super) errors: Option<Vec<ValidationIssue>>,
    pub(super) attachment: Option<u64>,
    pub(super) media_type: Option<String>,
    pub(super) provider: Option<String>,
    pub(super) host_id: Option<String>,
    pub(super) owner_host_id: Option<String>,
    pub(super) first_event_id: Option<u64>,
}

impl ProblemKind {
    /// The kind of a catalogue code, taking the code's fields from the document; `None` when a field
    /// the contract guarantees for the code is missing (the document is not the contract's).
    pub(super) fn from_code(code: ErrorCode, fields: &Fields) -> Option<Self> {
        Some(match code {
            ErrorCode::Unauthenticated => ProblemKind::Unauthenticated,
            ErrorCode::PermissionDenied => ProblemKind::PermissionDenied,
            ErrorCode::SessionNotFound => ProblemKind::SessionNotFound,
            ErrorCode::RunNotFound => ProblemKind::RunNotFound,
            ErrorCode::ProviderNotFound => ProblemKind::ProviderNotFound,
            ErrorCode::ModelNotFound => ProblemKind::ModelNotFound,
            ErrorCode::RouteNotFound => ProblemKind::RouteNotFound,
            ErrorCode::MethodNotAllowed => ProblemKind::MethodNotAllowed,
            ErrorCode::SessionRevisionConflict => {
                ProblemKind::SessionRevisionConflict { current_revision: fields.current_revision? }
            }
            ErrorCode::SessionBusy => ProblemKind::SessionBusy { active_run_id: fields.active_run_id.clone()? },
            ErrorCode::SessionInterrupted => ProblemKind::SessionInterrupted,
            ErrorCode::SessionAccountRequired => ProblemKind::SessionAccountRequired,
            ErrorCode::RunCancelled => ProblemKind::RunCancelled { reason: fields.reason.clone() },
            ErrorCode::RunNotWaiting => ProblemKind::RunNotWaiting,
            ErrorCode::IdempotencyKeyInUse => ProblemKind::IdempotencyKeyInUse,
            ErrorCode::RequestTimeout => {
                ProblemKind::RequestTimeout { limit: fields.limit.clone(), maximum: fields.maximum }
            }
            ErrorCode::PayloadTooLarge => {
                ProblemKind::PayloadTooLarge { limit: fields.limit.clone(), maximum: fields.maximum }
            }
            ErrorCode::UnsupportedMediaType => ProblemKind::UnsupportedMediaType,
            ErrorCode::ValidationError => {
                ProblemKind::ValidationError { errors: fields.errors.clone().unwrap_or_default() }
            }
            ErrorCode::UnsupportedContinuation => ProblemKind::UnsupportedContinuation,
            ErrorCode::SessionContextUnsupported => ProblemKind::SessionContextUnsupported,
            ErrorCode::SessionOverrideRejected => ProblemKind::SessionOverrideRejected,
            ErrorCode::SessionLimitExceeded => {
                ProblemKind::SessionLimitExceeded { limit: fields.limit.clone(), maximum: fields.maximum }
            }
            ErrorCode::SessionPrefixChanged => ProblemKind::SessionPrefixChanged,
            ErrorCode::ActionMismatch => ProblemKind::ActionMismatch,
            ErrorCode::IdempotencyKeyReused => ProblemKind::IdempotencyKeyReused,
            ErrorCode::ToolNameConflict => {
                ProblemKind::ToolNameConflict { errors: fields.errors.clone().unwrap_or_default() }
            }
            ErrorCode::ProviderRateLimited => ProblemKind::ProviderRateLimited,
            ErrorCode::InternalError => ProblemKind::InternalError,
            ErrorCode::HeadersTooLarge => {
                ProblemKind::HeadersTooLarge { limit: fields.limit.clone(), maximum: fields.maximum }
            }
            ErrorCode::SessionsDisabled => ProblemKind::SessionsDisabled,
            ErrorCode::ProviderError => ProblemKind::ProviderError,
            ErrorCode::ProviderAuthFailed => ProblemKind::ProviderAuthFailed,
            ErrorCode::ProviderRejected => ProblemKind::ProviderRejected,
            ErrorCode::SessionStoreFull => {
                ProblemKind::SessionStoreFull { limit: fields.limit.clone(), maximum: fields.maximum }
            }
            ErrorCode::HostBusy => ProblemKind::HostBusy { limit: fields.limit.clone(), maximum: fields.maximum },
            ErrorCode::ProviderOverloaded => ProblemKind::ProviderOverloaded,
            ErrorCode::ShuttingDown => ProblemKind::ShuttingDown,
            ErrorCode::ProviderTimeout => ProblemKind::ProviderTimeout,
            ErrorCode::AttachmentUnsupported => ProblemKind::AttachmentUnsupported {
                attachment: fields.attachment,
                media_type: fields.media_type.clone(),
                provider: fields.provider.clone(),
                limit: fields.limit.clone(),
                maximum: fields.maximum,
            },
            ErrorCode::MalformedRequest => ProblemKind::MalformedRequest,
            ErrorCode::MisdirectedRequest => ProblemKind::MisdirectedRequest {
                host_id: fields.host_id.clone()?,
                owner_host_id: fields.owner_host_id.clone()?,
            },
            ErrorCode::HostUnavailable => ProblemKind::HostUnavailable { owner_host_id: fields.owner_host_id.clone() },
            ErrorCode::RunEventsExpired => ProblemKind::RunEventsExpired { first_event_id: fields.first_event_id? },
            ErrorCode::SubjectQuotaExceeded => {
                ProblemKind::SubjectQuotaExceeded { limit: fields.limit.clone(), maximum: fields.maximum }
            }
        })
    }

    /// The catalogue code of this kind (`None` for [`ProblemKind::Unknown`]).
    pub fn code(&self) -> Option<ErrorCode> {
        Some(match self {
            ProblemKind::Unauthenticated => ErrorCode::Unauthenticated,
            ProblemKind::PermissionDenied => ErrorCode::PermissionDenied,
            ProblemKind::SessionNotFound => ErrorCode::SessionNotFound,
            ProblemKind::RunNotFound => ErrorCode::RunNotFound,
            ProblemKind::ProviderNotFound => ErrorCode::ProviderNotFound,
            ProblemKind::ModelNotFound => ErrorCode::ModelNotFound,
            ProblemKind::RouteNotFound => ErrorCode::RouteNotFound,
            ProblemKind::MethodNotAllowed => ErrorCode::MethodNotAllowed,
            ProblemKind::SessionRevisionConflict { .. } => ErrorCode::SessionRevisionConflict,
            ProblemKind::SessionBusy { .. } => ErrorCode::SessionBusy,
            ProblemKind::SessionInterrupted => ErrorCode::SessionInterrupted,
            ProblemKind::SessionAccountRequired => ErrorCode::SessionAccountRequired,
            ProblemKind::RunCancelled { .. } => ErrorCode::RunCancelled,
            ProblemKind::RunNotWaiting => ErrorCode::RunNotWaiting,
            ProblemKind::IdempotencyKeyInUse => ErrorCode::IdempotencyKeyInUse,
            ProblemKind::RequestTimeout { .. } => ErrorCode::RequestTimeout,
            ProblemKind::PayloadTooLarge { .. } => ErrorCode::PayloadTooLarge,
            ProblemKind::UnsupportedMediaType => ErrorCode::UnsupportedMediaType,
            ProblemKind::ValidationError { .. } => ErrorCode::ValidationError,
            ProblemKind::UnsupportedContinuation => ErrorCode::UnsupportedContinuation,
            ProblemKind::SessionContextUnsupported => ErrorCode::SessionContextUnsupported,
            ProblemKind::SessionOverrideRejected => ErrorCode::SessionOverrideRejected,
            ProblemKind::SessionLimitExceeded { .. } => ErrorCode::SessionLimitExceeded,
            ProblemKind::SessionPrefixChanged => ErrorCode::SessionPrefixChanged,
            ProblemKind::ActionMismatch => ErrorCode::ActionMismatch,
            ProblemKind::IdempotencyKeyReused => ErrorCode::IdempotencyKeyReused,
            ProblemKind::ToolNameConflict { .. } => ErrorCode::ToolNameConflict,
            ProblemKind::ProviderRateLimited => ErrorCode::ProviderRateLimited,
            ProblemKind::InternalError => ErrorCode::InternalError,
            ProblemKind::HeadersTooLarge { .. } => ErrorCode::HeadersTooLarge,
            ProblemKind::SessionsDisabled => ErrorCode::SessionsDisabled,
            ProblemKind::ProviderError => ErrorCode::ProviderError,
            ProblemKind::ProviderAuthFailed => ErrorCode::ProviderAuthFailed,
            ProblemKind::ProviderRejected => ErrorCode::ProviderRejected,
            ProblemKind::SessionStoreFull { .. } => ErrorCode::SessionStoreFull,
            ProblemKind::HostBusy { .. } => ErrorCode::HostBusy,
            ProblemKind::ProviderOverloaded => ErrorCode::ProviderOverloaded,
            ProblemKind::ShuttingDown => ErrorCode::ShuttingDown,
            ProblemKind::ProviderTimeout => ErrorCode::ProviderTimeout,
            ProblemKind::AttachmentUnsupported { .. } => ErrorCode::AttachmentUnsupported,
            ProblemKind::MalformedRequest => ErrorCode::MalformedRequest,
            ProblemKind::MisdirectedRequest { .. } => ErrorCode::MisdirectedRequest,
            ProblemKind::HostUnavailable { .. } => ErrorCode::HostUnavailable,
            ProblemKind::RunEventsExpired { .. } => ErrorCode::RunEventsExpired,
            ProblemKind::SubjectQuotaExceeded { .. } => ErrorCode::SubjectQuotaExceeded,
            ProblemKind::Unknown(_) => return None,
        })
    }
}

/// The group of a catalogue code (x-error-table's `group`), or `None` for a code in none.
pub(super) fn group_of(code: ErrorCode) -> Option<ProblemGroup> {
    Some(match code {
        ErrorCode::SessionNotFound => ProblemGroup::NotFound,
        ErrorCode::RunNotFound => ProblemGroup::NotFound,
        ErrorCode::ProviderNotFound => ProblemGroup::NotFound,
        ErrorCode::ModelNotFound => ProblemGroup::NotFound,
        ErrorCode::RouteNotFound => ProblemGroup::NotFound,
        ErrorCode::SessionRevisionConflict => ProblemGroup::Conflict,
        ErrorCode::SessionBusy => ProblemGroup::Conflict,
        ErrorCode::SessionInterrupted => ProblemGroup::Conflict,
        ErrorCode::SessionAccountRequired => ProblemGroup::Conflict,
        ErrorCode::RunCancelled => ProblemGroup::Conflict,
        ErrorCode::RunNotWaiting => ProblemGroup::Conflict,
        ErrorCode::IdempotencyKeyInUse => ProblemGroup::Conflict,
        ErrorCode::ValidationError => ProblemGroup::Unprocessable,
        ErrorCode::UnsupportedContinuation => ProblemGroup::Unprocessable,
        ErrorCode::SessionContextUnsupported => ProblemGroup::Unprocessable,
        ErrorCode::SessionOverrideRejected => ProblemGroup::Unprocessable,
        ErrorCode::SessionLimitExceeded => ProblemGroup::Unprocessable,
        ErrorCode::SessionPrefixChanged => ProblemGroup::Unprocessable,
        ErrorCode::ActionMismatch => ProblemGroup::Unprocessable,
        ErrorCode::IdempotencyKeyReused => ProblemGroup::Unprocessable,
        ErrorCode::ToolNameConflict => ProblemGroup::Unprocessable,
        ErrorCode::ProviderRateLimited => ProblemGroup::ProviderFailed,
        ErrorCode::ProviderError => ProblemGroup::ProviderFailed,
        ErrorCode::ProviderAuthFailed => ProblemGroup::ProviderFailed,
        ErrorCode::ProviderRejected => ProblemGroup::ProviderFailed,
        ErrorCode::SessionStoreFull => ProblemGroup::RetryLater,
        ErrorCode::HostBusy => ProblemGroup::RetryLater,
        ErrorCode::ProviderOverloaded => ProblemGroup::ProviderFailed,
        ErrorCode::ShuttingDown => ProblemGroup::RetryLater,
        ErrorCode::ProviderTimeout => ProblemGroup::ProviderFailed,
        ErrorCode::AttachmentUnsupported => ProblemGroup::Unprocessable,
        ErrorCode::HostUnavailable => ProblemGroup::RetryLater,
        _ => return None,
    })
}
