//! The problem document of an error answer ([`Problem`]), read into its [`ProblemKind`].

use std::fmt;
use std::str::FromStr;

use reqwest::header::HeaderMap;

use super::{Error, Fields, ProblemKind, UnexpectedStatus};
use crate::generated::types::{self, ErrorCode};

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

pub(super) fn header_request_id(headers: &HeaderMap) -> Option<&str> {
    headers.get("x-request-id").and_then(|value| value.to_str().ok())
}

impl Problem {
    /// The host's id for the request: the `X-Request-Id` header, else the document's `requestId`
    /// (a problem inside a `run.failed` event has no headers of its own).
    pub fn request_id(&self) -> Option<&str> {
        header_request_id(&self.headers).or_else(|| self.body.get("requestId").and_then(|id| id.as_str()))
    }

    /// Reads a problem document; `None` when `body` is not one (no string `code` and `detail`, or
    /// a catalogue code without the field the contract guarantees it).
    pub fn parse(status: u16, headers: Option<&HeaderMap>, body: &[u8]) -> Option<Problem> {
        let value: serde_json::Value = serde_json::from_slice(body).ok()?;
        let fields: Fields = serde_json::from_value(value.clone()).unwrap_or_default();
        let (code, detail) = (fields.code.clone()?, fields.detail.clone()?);
        let kind = match ErrorCode::from_str(&code) {
            Ok(known) => ProblemKind::from_code(known, &fields)?,
            Err(_) => ProblemKind::Unknown(code.clone()),
        };
        let retry_after_header =
            headers.and_then(crate::retry::retry_after).map(|delay| i64::try_from(delay.as_secs()).unwrap_or(i64::MAX));
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
        None => Error::UnexpectedStatus(Box::new(UnexpectedStatus {
            status,
            headers: headers.clone(),
            body: String::from_utf8_lossy(body).into_owned(),
        })),
    }
}
