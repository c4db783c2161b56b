//! The kinds of problem: one [`ProblemKind`] per catalogue code with the fields the contract gives
//! it, and the [`ProblemGroup`] each code is in (`groups.rs`, generated from openapi.yaml).

use serde::Deserialize;

use super::groups;
use crate::generated::types::{ErrorCode, ValidationIssue};

/// The groups of catalogue codes, the same in every client (openapi.yaml's `x-error-table`;
/// `src/error/groups.rs` is generated from it): match on `error.group()` to handle a family at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemGroup {
    /// 404: the session, run, provider, model or route named does not exist for this caller.
    NotFound,
    /// 409: the request conflicts with the session's or run's current state.
    Conflict,
    /// 422: well-formed JSON this host cannot act on as sent.
    Unprocessable,
    /// The model provider failed after model work started (never retried by this client).
    ProviderFailed,
    /// 503 with `Retry-After`: the host takes no new work now (retried by this client).
    RetryLater,
}

/// One variant per code of the catalogue (`components.schemas.ErrorCode`), with the fields the
/// contract gives that code.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProblemKind {
    Unauthenticated,
    PermissionDenied,
    SessionNotFound,
    RunNotFound,
    ProviderNotFound,
    ModelNotFound,
    RouteNotFound,
    MethodNotAllowed,
    /// Your revision is stale: read the session, reconcile, retry with the current revision.
    /// `current_revision` is guaranteed by the contract for this code.
    SessionRevisionConflict {
        current_revision: i64,
    },
    /// Another turn is active: wait `retry_after_seconds`, or cancel that run.
    /// `active_run_id` is guaranteed by the contract for this code. Never retry the same
    /// handle blindly: [`crate::Client::wait_until_idle`] returns the session's next state.
    SessionBusy {
        active_run_id: String,
    },
    /// A turn stopped after model work started: read the session and start a new one.
    SessionInterrupted,
    /// The provider instance has no account binding: use stateless runs.
    SessionAccountRequired,
    /// `reason`: `cancelled`, `session_deleted` or `disconnected`.
    RunCancelled {
        reason: Option<String>,
    },
    RunNotWaiting,
    IdempotencyKeyInUse,
    PayloadTooLarge {
        limit: Option<String>,
        maximum: Option<i64>,
    },
    UnsupportedMediaType,
    ValidationError {
        errors: Vec<ValidationIssue>,
    },
    UnsupportedContinuation,
    SessionContextUnsupported,
    SessionOverrideRejected,
    SessionLimitExceeded {
        limit: Option<String>,
        maximum: Option<i64>,
    },
    ActionMismatch,
    IdempotencyKeyReused,
    /// Two declared tools share a name, or one is named like a host tool (`errors` says which).
    ToolNameConflict {
        errors: Vec<ValidationIssue>,
    },
    InternalError,
    SessionsDisabled,
    ProviderError,
    SessionStoreFull {
        limit: Option<String>,
        maximum: Option<i64>,
    },
    HostBusy {
        limit: Option<String>,
        maximum: Option<i64>,
    },
    ProviderTimeout,
    /// The provider refused for rate or quota: wait `retry_after_seconds` when set.
    ProviderRateLimited,
    /// The provider is overloaded; retry later.
    ProviderOverloaded,
    /// The provider refused the host's credentials.
    ProviderAuthFailed,
    /// The provider refused the request itself (for example a tampered signed block).
    ProviderRejected,
    /// A fixed-prefix native session got tools that differ from its first turn's.
    SessionPrefixChanged,
    /// The host is draining before it stops: retry on another host process.
    ShuttingDown,
    /// The request head exceeds the host's `maxHeaderBytes`.
    HeadersTooLarge,
    /// The request body did not arrive in time.
    RequestTimeout,
    /// A stateless run's attachment the instance does not take (`media_type`, `provider`), or
    /// larger than the host's bound (`limit`, `maximum`); nothing reached the model.
    AttachmentUnsupported {
        media_type: Option<String>,
        provider: Option<String>,
        limit: Option<String>,
        maximum: Option<i64>,
    },
    /// The bytes sent were not valid HTTP/1.1; the host closed the connection.
    MalformedRequest,
    /// Host `host_id` answered for a session or run that host `owner_host_id` owns, and did
    /// nothing. The client already sent the request once more to the owner (`Agentic-Host`);
    /// this is the second 421 of the call: check that the proxy routes on `Agentic-Host`. Both
    /// fields are guaranteed by the contract for this code.
    MisdirectedRequest {
        host_id: String,
        owner_host_id: String,
    },
    /// A proxy's answer: host `owner_host_id`, which owns the session or run, is down (retried
    /// after `Retry-After`, like `HostBusy`); `None` when the request named no session or run and
    /// no host behind the proxy takes new work. Sessions never move: once back, that host answers
    /// `SESSION_NOT_FOUND` for the sessions it lost.
    HostUnavailable {
        owner_host_id: Option<String>,
    },
    /// `streamRunEvents` (also a stream's own rejoin) asked for events after one the host no longer
    /// holds (the run's events outgrew its buffer): `first_event_id` is the oldest still held, and
    /// is guaranteed by the contract for this code. Read the run (`get_run`) for its outcome, or
    /// rejoin after `first_event_id - 1`, accepting the gap.
    RunEventsExpired {
        first_event_id: u64,
    },
    /// The caller's subject holds the most this host process allows it: `limit` names the bound
    /// (`perSubject.maxSessions`, `perSubject.maxActiveRuns`, `perSubject.runsPerMinute`) and
    /// `maximum` its value; `retry_after_seconds` is set for the rate. Never retried.
    SubjectQuotaExceeded {
        limit: Option<String>,
        maximum: Option<i64>,
    },
    /// A code this client does not know (a newer host).
    Unknown(String),
}

/// The optional fields of a problem document, read leniently.
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
    pub(super) current_revision: Option<i64>,
    pub(super) active_run_id: Option<String>,
    pub(super) retry_after_seconds: Option<i64>,
    pub(super) limit: Option<String>,
    pub(super) maximum: Option<i64>,
    pub(super) reason: Option<String>,
    pub(super) media_type: Option<String>,
    pub(super) provider: Option<String>,
    #[serde(default)]
    pub(super) errors: Vec<ValidationIssue>,
    pub(super) host_id: Option<String>,
    pub(super) owner_host_id: Option<String>,
    pub(super) first_event_id: Option<u64>,
}

impl ProblemKind {
    /// The kind of a catalogue code, taking the code's fields from the document; `None` when a
    /// field the contract guarantees for the code is missing (the document is not the contract's).
    pub(super) fn from_code(code: ErrorCode, fields: &Fields) -> Option<Self> {
        let limit = || fields.limit.clone();
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
            ErrorCode::PayloadTooLarge => ProblemKind::PayloadTooLarge { limit: limit(), maximum: fields.maximum },
            ErrorCode::UnsupportedMediaType => ProblemKind::UnsupportedMediaType,
            ErrorCode::ValidationError => ProblemKind::ValidationError { errors: fields.errors.clone() },
            ErrorCode::UnsupportedContinuation => ProblemKind::UnsupportedContinuation,
            ErrorCode::SessionContextUnsupported => ProblemKind::SessionContextUnsupported,
            ErrorCode::SessionOverrideRejected => ProblemKind::SessionOverrideRejected,
            ErrorCode::SessionLimitExceeded => {
                ProblemKind::SessionLimitExceeded { limit: limit(), maximum: fields.maximum }
            }
            ErrorCode::ActionMismatch => ProblemKind::ActionMismatch,
            ErrorCode::IdempotencyKeyReused => ProblemKind::IdempotencyKeyReused,
            ErrorCode::ToolNameConflict => ProblemKind::ToolNameConflict { errors: fields.errors.clone() },
            ErrorCode::InternalError => ProblemKind::InternalError,
            ErrorCode::SessionsDisabled => ProblemKind::SessionsDisabled,
            ErrorCode::ProviderError => ProblemKind::ProviderError,
            ErrorCode::SessionStoreFull => ProblemKind::SessionStoreFull { limit: limit(), maximum: fields.maximum },
            ErrorCode::HostBusy => ProblemKind::HostBusy { limit: limit(), maximum: fields.maximum },
            ErrorCode::ProviderTimeout => ProblemKind::ProviderTimeout,
            ErrorCode::ProviderRateLimited => ProblemKind::ProviderRateLimited,
            ErrorCode::ProviderOverloaded => ProblemKind::ProviderOverloaded,
            ErrorCode::ProviderAuthFailed => ProblemKind::ProviderAuthFailed,
            ErrorCode::ProviderRejected => ProblemKind::ProviderRejected,
            ErrorCode::SessionPrefixChanged => ProblemKind::SessionPrefixChanged,
            ErrorCode::ShuttingDown => ProblemKind::ShuttingDown,
            ErrorCode::HeadersTooLarge => ProblemKind::HeadersTooLarge,
            ErrorCode::RequestTimeout => ProblemKind::RequestTimeout,
            ErrorCode::AttachmentUnsupported => ProblemKind::AttachmentUnsupported {
                media_type: fields.media_type.clone(),
                provider: fields.provider.clone(),
                limit: limit(),
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
                ProblemKind::SubjectQuotaExceeded { limit: limit(), maximum: fields.maximum }
            }
        })
    }

    /// The group of this kind's code, the same groups in every client (`None` for a code in none,
    /// and for [`ProblemKind::Unknown`]).
    pub fn group(&self) -> Option<ProblemGroup> {
        self.code().and_then(groups::group_of)
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
            ProblemKind::PayloadTooLarge { .. } => ErrorCode::PayloadTooLarge,
            ProblemKind::UnsupportedMediaType => ErrorCode::UnsupportedMediaType,
            ProblemKind::ValidationError { .. } => ErrorCode::ValidationError,
            ProblemKind::UnsupportedContinuation => ErrorCode::UnsupportedContinuation,
            ProblemKind::SessionContextUnsupported => ErrorCode::SessionContextUnsupported,
            ProblemKind::SessionOverrideRejected => ErrorCode::SessionOverrideRejected,
            ProblemKind::SessionLimitExceeded { .. } => ErrorCode::SessionLimitExceeded,
            ProblemKind::ActionMismatch => ErrorCode::ActionMismatch,
            ProblemKind::IdempotencyKeyReused => ErrorCode::IdempotencyKeyReused,
            ProblemKind::ToolNameConflict { .. } => ErrorCode::ToolNameConflict,
            ProblemKind::InternalError => ErrorCode::InternalError,
            ProblemKind::SessionsDisabled => ErrorCode::SessionsDisabled,
            ProblemKind::ProviderError => ErrorCode::ProviderError,
            ProblemKind::SessionStoreFull { .. } => ErrorCode::SessionStoreFull,
            ProblemKind::HostBusy { .. } => ErrorCode::HostBusy,
            ProblemKind::ProviderTimeout => ErrorCode::ProviderTimeout,
            ProblemKind::ProviderRateLimited => ErrorCode::ProviderRateLimited,
            ProblemKind::ProviderOverloaded => ErrorCode::ProviderOverloaded,
            ProblemKind::ProviderAuthFailed => ErrorCode::ProviderAuthFailed,
            ProblemKind::ProviderRejected => ErrorCode::ProviderRejected,
            ProblemKind::SessionPrefixChanged => ErrorCode::SessionPrefixChanged,
            ProblemKind::ShuttingDown => ErrorCode::ShuttingDown,
            ProblemKind::HeadersTooLarge => ErrorCode::HeadersTooLarge,
            ProblemKind::RequestTimeout => ErrorCode::RequestTimeout,
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
