// Generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.

use super::ProblemGroup;
use crate::generated::types::ErrorCode;

/// The group of a catalogue code (x-error-table's group), or `None` for a code in none.
pub(crate) fn group_of(code: ErrorCode) -> Option<ProblemGroup> {
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
