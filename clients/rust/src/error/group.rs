//! The groups of catalogue codes ([`ProblemGroup`]): written by hand; which code is in which group
//! is generated from openapi.yaml's `x-error-table` with the kinds (`kind.rs`, `group_of`).

use super::{kind, ProblemKind};

/// The groups of catalogue codes, the same in every client (openapi.yaml's `x-error-table`;
/// `src/error/kind.rs` is generated from it): match on `error.group()` to handle a family at once.
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

impl ProblemKind {
    /// The group of this kind's code, the same groups in every client (`None` for a code in none,
    /// and for [`ProblemKind::Unknown`]).
    pub fn group(&self) -> Option<ProblemGroup> {
        self.code().and_then(kind::group_of)
    }
}
