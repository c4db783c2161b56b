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
//! `Connection` or `Timeout` (a `Connection` for a stream whose body ended early has none).
//! [`ProblemKind`] (`error/kind.rs`) is generated from openapi.yaml's `x-error-table`, like the
//! generated `types::ErrorCode` it matches exhaustively: a code added to the spec gets its variant,
//! fields and group from `make generate`. [`ProblemGroup`] (`error/group.rs`) is written by hand.

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderMap;

mod group;
mod kind;
mod problem;

pub use group::ProblemGroup;
use kind::Fields;
pub use kind::ProblemKind;

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

    /// The problem's kind, when the host answered with a problem: match on it. Each variant's
    /// documentation is its code's fix-it text; what this client does about some codes before
    /// their error reaches you, and what to do next in Rust:
    ///
    /// - [`ProblemKind::SessionBusy`]: never retried. Never send the same handle again blindly:
    ///   [`crate::Client::wait_until_idle`] waits out the other turn and returns the session's
    ///   next state.
    /// - [`ProblemKind::MisdirectedRequest`]: the client already sent the request once more to
    ///   `owner_host_id` (with `Agentic-Host`, at once, not one of the retries); this is the
    ///   call's second `421`: check that the proxy routes on `Agentic-Host`.
    /// - [`ProblemKind::HostBusy`], [`ProblemKind::SessionStoreFull`],
    ///   [`ProblemKind::ShuttingDown`], [`ProblemKind::HostUnavailable`] and
    ///   [`ProblemKind::IdempotencyKeyInUse`]: retried after `Retry-After` first; this is the last
    ///   answer. `HostUnavailable`'s `owner_host_id` is `None` when the request named no session
    ///   or run. Sessions never move: once back, that host answers `SESSION_NOT_FOUND` for the
    ///   sessions it lost.
    /// - [`ProblemKind::RunEventsExpired`]: from [`crate::Client::stream_run_events`] or a
    ///   resumed stream's own rejoin. Read the run ([`crate::Client::get_run`]) for its outcome,
    ///   or rejoin with `stream_run_events` after `first_event_id - 1` ([`Error::first_event_id`]),
    ///   accepting the gap.
    /// - [`ProblemKind::SubjectQuotaExceeded`] and every `PROVIDER_*` code: never retried
    ///   (`retry_after_seconds` is set for a rate).
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

#[cfg(test)]
mod tests;
