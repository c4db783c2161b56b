//! Typed errors. Every problem response (RFC 9457, `application/problem+json`) becomes
//! [`Error::Problem`]; its [`ProblemKind`] has one variant per code of the catalogue
//! (`ErrorCode`, generated from openapi.yaml), carrying that code's fields:
//!
//! ```text
//! Error
//! ├── Problem(Problem)         a problem response: status, code, detail, kind
//! │     kind: ProblemKind::SessionRevisionConflict { current_revision }
//! │           ProblemKind::SessionBusy { active_run_id }, ...
//! │           ProblemKind::Unknown(code)   a code newer than this client
//! ├── UnexpectedStatus         an error status without a problem document
//! ├── Transport                the request could not be sent or the answer read
//! ├── InvalidRequest           the request was refused before it was sent
//! └── Protocol                 an answer or event that does not follow the contract
//! ```
//!
//! `ProblemKind::from_code` matches the generated `types::ErrorCode` exhaustively, so a code
//! added to the spec fails the build until it has a variant here.

use std::fmt;
use std::str::FromStr;

use reqwest::header::HeaderMap;
use serde::Deserialize;

use crate::generated::types::{self, ErrorCode, ValidationIssue};

/// Everything a call can fail with.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The host answered with a problem document.
    Problem(Box<Problem>),
    /// The host answered with an error status and a body that is not a problem document.
    UnexpectedStatus { status: u16, body: String },
    /// The request could not be sent, or the answer could not be read.
    Transport(reqwest::Error),
    /// The request was refused before it was sent (for example an invalid idempotency key).
    InvalidRequest(String),
    /// An answer or stream event that does not follow the contract.
    Protocol(String),
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

    /// The HTTP status of an error answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Problem(problem) => Some(problem.status),
            Error::UnexpectedStatus { status, .. } => Some(*status),
            Error::Transport(error) => error.status().map(|status| status.as_u16()),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Problem(problem) => write!(f, "{problem}"),
            Error::UnexpectedStatus { status, body } => {
                write!(f, "unexpected {status} answer: {}", body.chars().take(200).collect::<String>())
            }
            Error::Transport(error) => write!(f, "transport: {error}"),
            Error::InvalidRequest(message) => write!(f, "invalid request: {message}"),
            Error::Protocol(message) => write!(f, "protocol: {message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport(error) => Some(error),
            _ => None,
        }
    }
}

impl From<reqwest::Error> for Error {
    fn from(error: reqwest::Error) -> Self {
        Error::Transport(error)
    }
}

/// A problem response.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The HTTP status.
    pub status: u16,
    /// The stable machine-readable code as sent (also for codes this client does not know).
    pub code: String,
    /// What happened, for a person.
    pub detail: String,
    pub title: String,
    /// `urn:agentic-driver:problem:<code>`.
    pub problem_type: String,
    pub instance: Option<String>,
    /// Seconds to wait before retrying: the body's field, else the `Retry-After` header.
    pub retry_after_seconds: Option<i64>,
    /// The code, with its code-specific fields.
    pub kind: ProblemKind,
    /// The problem document as sent.
    pub body: serde_json::Value,
    /// The answer's headers (`Retry-After`, `x-should-retry`, ...); empty for a problem carried
    /// inside an event.
    pub headers: HeaderMap,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.status, self.detail)
    }
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
    SessionRevisionConflict {
        current_revision: Option<i64>,
    },
    /// Another turn is active: wait `retry_after_seconds`, or cancel that run.
    SessionBusy {
        active_run_id: Option<String>,
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
    #[serde(default)]
    errors: Vec<ValidationIssue>,
}

impl ProblemKind {
    /// The kind of a catalogue code, taking the code's fields from the document.
    fn from_code(code: ErrorCode, fields: &Fields) -> Self {
        let limit = || fields.limit.clone();
        match code {
            ErrorCode::Unauthenticated => ProblemKind::Unauthenticated,
            ErrorCode::PermissionDenied => ProblemKind::PermissionDenied,
            ErrorCode::SessionNotFound => ProblemKind::SessionNotFound,
            ErrorCode::RunNotFound => ProblemKind::RunNotFound,
            ErrorCode::ProviderNotFound => ProblemKind::ProviderNotFound,
            ErrorCode::ModelNotFound => ProblemKind::ModelNotFound,
            ErrorCode::RouteNotFound => ProblemKind::RouteNotFound,
            ErrorCode::MethodNotAllowed => ProblemKind::MethodNotAllowed,
            ErrorCode::SessionRevisionConflict => {
                ProblemKind::SessionRevisionConflict { current_revision: fields.current_revision }
            }
            ErrorCode::SessionBusy => ProblemKind::SessionBusy { active_run_id: fields.active_run_id.clone() },
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
        }
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
            ProblemKind::Unknown(_) => return None,
        })
    }
}

impl Problem {
    /// Reads a problem document; `None` when `body` is not one (no string `code` and `detail`).
    pub fn parse(status: u16, headers: Option<&HeaderMap>, body: &[u8]) -> Option<Problem> {
        let value: serde_json::Value = serde_json::from_slice(body).ok()?;
        let fields: Fields = serde_json::from_value(value.clone()).unwrap_or_default();
        let (code, detail) = (fields.code.clone()?, fields.detail.clone()?);
        let kind = match ErrorCode::from_str(&code) {
            Ok(known) => ProblemKind::from_code(known, &fields),
            Err(_) => ProblemKind::Unknown(code.clone()),
        };
        let retry_after_header = headers
            .and_then(|headers| headers.get(reqwest::header::RETRY_AFTER))
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<i64>().ok());
        Some(Problem {
            status,
            code,
            detail,
            title: fields.title,
            problem_type: fields.problem_type,
            instance: fields.instance,
            retry_after_seconds: fields.retry_after_seconds.or(retry_after_header),
            kind,
            body: value,
            headers: headers.cloned().unwrap_or_default(),
        })
    }

    /// The problem carried inside a document (a `run.failed` event).
    pub fn from_document(problem: &types::Problem) -> Problem {
        let body = serde_json::to_vec(problem).unwrap_or_default();
        let status = u16::try_from(problem.status).unwrap_or(0);
        Problem::parse(status, None, &body).unwrap_or_else(|| Problem {
            status,
            code: problem.code.to_string(),
            detail: problem.detail.clone(),
            title: problem.title.clone(),
            problem_type: problem.type_.clone(),
            instance: problem.instance.clone(),
            retry_after_seconds: problem.retry_after_seconds,
            kind: ProblemKind::Unknown(problem.code.to_string()),
            body: serde_json::Value::Null,
            headers: HeaderMap::new(),
        })
    }
}

/// The error for an error answer: a problem, else an unexpected status.
pub(crate) fn error_from_answer(status: u16, headers: &HeaderMap, body: &[u8]) -> Error {
    match Problem::parse(status, Some(headers), body) {
        Some(problem) => Error::Problem(Box::new(problem)),
        None => Error::UnexpectedStatus { status, body: String::from_utf8_lossy(body).into_owned() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(code: &str, fields: &str) -> Vec<u8> {
        format!(
            r#"{{"type":"urn:agentic-driver:problem:{code}","title":"T","status":409,"code":"{code}","detail":"about {code}"{fields}}}"#
        )
        .into_bytes()
    }

    #[test]
    fn every_catalogue_code_has_its_own_kind() {
        // ErrorCode's serde names are the spec's codes; `from_code` is an exhaustive match.
        let codes = [
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
            "PAYLOAD_TOO_LARGE",
            "UNSUPPORTED_MEDIA_TYPE",
            "VALIDATION_ERROR",
            "UNSUPPORTED_CONTINUATION",
            "SESSION_CONTEXT_UNSUPPORTED",
            "SESSION_OVERRIDE_REJECTED",
            "SESSION_LIMIT_EXCEEDED",
            "ACTION_MISMATCH",
            "IDEMPOTENCY_KEY_REUSED",
            "INTERNAL_ERROR",
            "SESSIONS_DISABLED",
            "PROVIDER_ERROR",
            "SESSION_STORE_FULL",
            "HOST_BUSY",
            "PROVIDER_TIMEOUT",
        ];
        let mut kinds = Vec::new();
        for code in codes {
            let parsed = Problem::parse(400, None, &problem(code, "")).expect(code);
            let known = parsed.kind.code().unwrap_or_else(|| panic!("{code} is unknown to the client"));
            assert_eq!(known.to_string(), code);
            let variant = format!("{:?}", parsed.kind);
            let name = variant.split([' ', '(', '{']).next().unwrap().to_string();
            assert!(!kinds.contains(&name), "{code} shares the variant {name}");
            kinds.push(name);
        }
    }

    #[test]
    fn carries_status_detail_and_the_code_fields() {
        let mut headers = HeaderMap::new();
        headers.insert(reqwest::header::RETRY_AFTER, "2".parse().unwrap());
        let busy = Problem::parse(409, Some(&headers), &problem("SESSION_BUSY", r#","activeRunId":"run_1""#)).unwrap();
        assert_eq!(busy.kind, ProblemKind::SessionBusy { active_run_id: Some("run_1".into()) });
        assert_eq!(busy.retry_after_seconds, Some(2));
        assert_eq!(busy.to_string(), "SESSION_BUSY (409): about SESSION_BUSY");

        let conflict = Problem::parse(409, None, &problem("SESSION_REVISION_CONFLICT", r#","currentRevision":3"#));
        assert_eq!(conflict.unwrap().kind, ProblemKind::SessionRevisionConflict { current_revision: Some(3) });
    }

    #[test]
    fn the_four_session_codes_are_different_variants() {
        let kinds: Vec<ProblemKind> =
            ["SESSION_REVISION_CONFLICT", "SESSION_BUSY", "SESSION_INTERRUPTED", "SESSION_ACCOUNT_REQUIRED"]
                .iter()
                .map(|code| Problem::parse(409, None, &problem(code, "")).unwrap().kind)
                .collect();
        assert!(matches!(kinds[0], ProblemKind::SessionRevisionConflict { .. }));
        assert!(matches!(kinds[1], ProblemKind::SessionBusy { .. }));
        assert!(matches!(kinds[2], ProblemKind::SessionInterrupted));
        assert!(matches!(kinds[3], ProblemKind::SessionAccountRequired));
    }

    #[test]
    fn keeps_an_unknown_code() {
        let parsed = Problem::parse(418, None, &problem("TEAPOT_EMPTY", r#","extra":true"#)).unwrap();
        assert_eq!(parsed.kind, ProblemKind::Unknown("TEAPOT_EMPTY".into()));
        assert_eq!(parsed.body["extra"], serde_json::Value::Bool(true));
    }

    #[test]
    fn other_bodies_are_unexpected_statuses() {
        let error = error_from_answer(502, &HeaderMap::new(), b"<html>bad gateway</html>");
        assert!(matches!(error, Error::UnexpectedStatus { status: 502, .. }));
        assert_eq!(error.status(), Some(502));
        assert!(error.kind().is_none());
    }
}
