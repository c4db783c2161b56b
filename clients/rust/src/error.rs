//! Typed errors: one tree for everything a call can fail with (`clients/BEHAVIOUR.md`, Errors).
//! Every problem response (RFC 9457, `application/problem+json`) becomes [`Error::Problem`]; its
//! [`ProblemKind`] has one variant per code of the catalogue (`ErrorCode`, generated from
//! openapi.yaml), carrying that code's fields:
//!
//! ```text
//! Error
//! ├── Connection(ConnectionError)  no answer: refused, reset, closed, TLS, DNS   (is_connection);
//! │                                also an event stream cut before its run's last event, and a
//! │                                token provider's failure (nothing sent: is_token_failure)
//! ├── Timeout(TimeoutError)        connect, read, stream-idle or wait-until-idle (is_connection, is_timeout)
//! ├── Problem(Problem)             an error answer with a problem document: status, code, detail,
//! │     kind: ProblemKind::SessionRevisionConflict { current_revision }       headers, retry_after
//! │           ProblemKind::SessionBusy { active_run_id },
//! │           ProblemKind::MisdirectedRequest { host_id, owner_host_id },
//! │           ProblemKind::HostUnavailable { owner_host_id },
//! │           ProblemKind::RunEventsExpired { first_event_id }, ...
//! │           ProblemKind::Unknown(code)   a code newer than this client
//! ├── UnexpectedStatus             an error status without a problem document (a proxy's page)
//! ├── InvalidRequest               the request was refused before it was sent
//! └── Protocol                     an answer or event that does not follow the contract
//! ```
//!
//! A `reqwest::Error` never reaches the caller except as the [`std::error::Error::source`] of a
//! `Connection` or `Timeout` (a `Connection` for a stream whose body ended early has none). `ProblemKind::from_code` matches the generated `types::ErrorCode`
//! exhaustively, so a code added to the spec fails the build until it has a variant here.

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderMap;
use serde::Deserialize;

use crate::generated::types::{ErrorCode, ValidationIssue};

mod groups;
mod problem;

pub(crate) use problem::error_from_answer;
use problem::header_request_id;
pub use problem::Problem;

/// Everything a call can fail with.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The host answered with a problem document.
    Problem(Box<Problem>),
    /// The host (or a proxy before it) answered with an error status and a body that is not a
    /// problem document of the contract.
    UnexpectedStatus(Box<UnexpectedStatus>),
    /// No answer: the connection was refused, reset or closed, or TLS or DNS failed; or the
    /// answer broke off: an event stream that was not resumed ended before its run's last event
    /// (a reset, or a body that simply ended: a truncated answer is never a quiet end).
    Connection(ConnectionError),
    /// A timeout: connect, read, stream idle, or the bound of [`crate::Client::wait_until_idle`].
    /// A kind of connection error ([`Error::is_connection`] is true).
    Timeout(TimeoutError),
    /// The request was refused before it was sent (for example an invalid idempotency key).
    InvalidRequest(String),
    /// An answer or stream event that does not follow the contract.
    Protocol(String),
}

/// An error status whose body is not a problem document.
#[derive(Debug, Clone)]
pub struct UnexpectedStatus {
    pub status: u16,
    /// The answer's headers.
    pub headers: HeaderMap,
    /// The body as text (lossy).
    pub body: String,
}

/// A connection failure: no answer arrived, or the answer broke off; or nothing was sent because
/// the token provider failed ([`ConnectionError::is_token_failure`]).
#[derive(Debug)]
pub struct ConnectionError {
    /// The transport's error; `None` when the body simply ended before the run's last event.
    source: Option<reqwest::Error>,
    /// What failed, when no transport error says it.
    message: Option<String>,
    /// The token provider's own error, when it failed.
    provider: Option<crate::token::TokenError>,
    token_failure: bool,
}

impl ConnectionError {
    pub(crate) fn transport(source: reqwest::Error) -> Self {
        ConnectionError { source: Some(source), message: None, provider: None, token_failure: false }
    }

    /// An event stream whose body ended cleanly before the run's last event (`run.completed`,
    /// `run.requires_action` or `run.failed`): a proxy's reset can look like a clean end.
    pub(crate) fn stream_ended_early() -> Self {
        let message = Some("the event stream ended before the run's last event".into());
        ConnectionError { source: None, message, provider: None, token_failure: false }
    }

    /// The token provider failed (`provider`: its error) or gave a token a header cannot carry.
    pub(crate) fn token(message: impl Into<String>, provider: Option<crate::token::TokenError>) -> Self {
        ConnectionError { source: None, message: Some(message.into()), provider, token_failure: true }
    }

    /// The underlying transport error; `None` for an event stream whose body ended before its
    /// run's last event without one, and for a token provider's failure.
    pub fn source_error(&self) -> Option<&reqwest::Error> {
        self.source.as_ref()
    }

    /// Nothing was sent: the token provider failed (its error is the [`std::error::Error::source`]
    /// of the [`Error`]) or gave an empty token, or one a header cannot carry. Never retried.
    pub fn is_token_failure(&self) -> bool {
        self.token_failure
    }
}

impl fmt::Display for ConnectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.source, &self.message) {
            (Some(source), _) => write!(f, "{source}"),
            (None, Some(message)) => write!(f, "{message}"),
            (None, None) => write!(f, "the connection broke off"),
        }
    }
}

/// Which limit a [`TimeoutError`] hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeoutKind {
    /// Opening the connection took longer than the connect timeout.
    Connect,
    /// The response head, or the next bytes of a JSON body, took longer than the read timeout.
    Read,
    /// An event stream was silent for longer than the stream idle timeout.
    StreamIdle,
    /// [`crate::Client::wait_until_idle`] found the session still running at its bound.
    WaitUntilIdle,
}

/// A timeout of one of the client's limits.
#[derive(Debug)]
pub struct TimeoutError {
    kind: TimeoutKind,
    limit: Option<Duration>,
    source: Option<reqwest::Error>,
}

impl TimeoutError {
    pub(crate) fn new(kind: TimeoutKind, limit: Option<Duration>, source: Option<reqwest::Error>) -> Self {
        TimeoutError { kind, limit, source }
    }

    /// Which limit was hit.
    pub fn kind(&self) -> TimeoutKind {
        self.kind
    }

    /// The limit's configured value, when known.
    pub fn limit(&self) -> Option<Duration> {
        self.limit
    }
}

impl Error {
    /// The problem, when the host answered with one.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            Error::Problem(problem) => Some(problem),
            _ => None,
        }
    }

    /// The problem's kind, when the host answered with a problem: match on it.
    pub fn kind(&self) -> Option<&ProblemKind> {
        self.problem().map(|problem| &problem.kind)
    }

    /// The group of a problem's code ([`ProblemGroup`]), or `None` (no problem, a code in no
    /// group, or one newer than this client).
    pub fn group(&self) -> Option<ProblemGroup> {
        self.kind().and_then(ProblemKind::group)
    }

    /// The problem's code as the host sent it (also a code newer than this client).
    pub fn code(&self) -> Option<&str> {
        self.problem().map(|problem| problem.code.as_str())
    }

    /// The HTTP status of an error answer (`None` when no answer arrived).
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Problem(problem) => Some(problem.status),
            Error::UnexpectedStatus(answer) => Some(answer.status),
            _ => None,
        }
    }

    /// The headers of an error answer (`None` when no answer arrived; empty for a problem
    /// carried inside a `run.failed` event).
    pub fn headers(&self) -> Option<&HeaderMap> {
        match self {
            Error::Problem(problem) => Some(&problem.headers),
            Error::UnexpectedStatus(answer) => Some(&answer.headers),
            _ => None,
        }
    }

    /// The host's id for the request of an error answer: its `X-Request-Id`, else the problem's
    /// `requestId`. Every host log line and trace span of the request carries it.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Problem(problem) => problem.request_id(),
            Error::UnexpectedStatus(answer) => header_request_id(&answer.headers),
            _ => None,
        }
    }

    /// The delay the answer asked for (`Retry-After`, else the problem's `retryAfterSeconds`).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Error::Problem(problem) => crate::retry::retry_after(&problem.headers)
                .or_else(|| problem.retry_after_seconds.map(|seconds| Duration::from_secs(seconds.max(0) as u64))),
            Error::UnexpectedStatus(answer) => crate::retry::retry_after(&answer.headers),
            _ => None,
        }
    }

    /// No answer arrived: a connection failure or a timeout.
    pub fn is_connection(&self) -> bool {
        matches!(self, Error::Connection(_) | Error::Timeout(_))
    }

    /// A timeout of any kind ([`Error::timeout_kind`] says which).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout(_))
    }

    /// For `RUN_EVENTS_EXPIRED`: the oldest event id of the run the host still holds (see
    /// [`ProblemKind::RunEventsExpired`]).
    pub fn first_event_id(&self) -> Option<u64> {
        match self.kind() {
            Some(ProblemKind::RunEventsExpired { first_event_id }) => Some(*first_event_id),
            _ => None,
        }
    }

    /// Which timeout, for a timeout.
    pub fn timeout_kind(&self) -> Option<TimeoutKind> {
        match self {
            Error::Timeout(timeout) => Some(timeout.kind),
            _ => None,
        }
    }

    /// Classifies a transport error of reqwest: a timeout (connect or read), a connection
    /// failure, or a request that could not be built.
    pub(crate) fn transport(error: reqwest::Error, timeouts: &crate::Timeouts) -> Error {
        if error.is_builder() {
            return Error::InvalidRequest(error.to_string());
        }
        if error.is_timeout() {
            let (kind, limit) = if error.is_connect() {
                (TimeoutKind::Connect, timeouts.connect)
            } else {
                (TimeoutKind::Read, timeouts.read)
            };
            return Error::Timeout(TimeoutError::new(kind, Some(limit), Some(error)));
        }
        Error::Connection(ConnectionError::transport(error))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Problem(problem) => write!(f, "{problem}"),
            Error::UnexpectedStatus(answer) => {
                write!(f, "unexpected {} answer: {}", answer.status, answer.body.chars().take(200).collect::<String>())
            }
            Error::Connection(error) => write!(f, "connection failed: {error}"),
            Error::Timeout(timeout) => write!(f, "{timeout}"),
            Error::InvalidRequest(message) => write!(f, "invalid request: {message}"),
            Error::Protocol(message) => write!(f, "protocol: {message}"),
        }
    }
}

impl fmt::Display for TimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            TimeoutKind::Connect => "connect timeout",
            TimeoutKind::Read => "read timeout",
            TimeoutKind::StreamIdle => "stream idle timeout",
            TimeoutKind::WaitUntilIdle => "the session was still running at the wait's bound",
        };
        match self.limit {
            Some(limit) => write!(f, "{what} ({limit:?})"),
            None => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Connection(ConnectionError { source: Some(error), .. }) => Some(error),
            Error::Connection(ConnectionError { provider: Some(error), .. }) => Some(error.as_ref()),
            Error::Timeout(TimeoutError { source: Some(error), .. }) => Some(error),
            _ => None,
        }
    }
}

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
struct Fields {
    code: Option<String>,
    detail: Option<String>,
    #[serde(default)]
    title: String,
    #[serde(default, rename = "type")]
    problem_type: String,
    instance: Option<String>,
    current_revision: Option<i64>,
    active_run_id: Option<String>,
    retry_after_seconds: Option<i64>,
    limit: Option<String>,
    maximum: Option<i64>,
    reason: Option<String>,
    media_type: Option<String>,
    provider: Option<String>,
    #[serde(default)]
    errors: Vec<ValidationIssue>,
    host_id: Option<String>,
    owner_host_id: Option<String>,
    first_event_id: Option<u64>,
}

impl ProblemKind {
    /// The kind of a catalogue code, taking the code's fields from the document; `None` when a
    /// field the contract guarantees for the code is missing (the document is not the contract's).
    fn from_code(code: ErrorCode, fields: &Fields) -> Option<Self> {
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

#[cfg(test)]
mod tests;
