// Generated from openapi.yaml by progenitor (see generator/rust/). DO NOT EDIT.
// @generated

#[allow(unused_imports)]
pub use progenitor_client::{ByteStream, ClientInfo, Error, ResponseValue};
#[allow(unused_imports)]
use progenitor_client::{encode_path, ClientHooks, OperationInfo, RequestBuilderExt};
/// Types used as operation parameters and responses.
#[allow(clippy::all)]
pub mod types {
    ///`ActionsConflictProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ActionsConflictProblem(pub Problem);
    impl ::std::ops::Deref for ActionsConflictProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ActionsConflictProblem> for Problem {
        fn from(value: ActionsConflictProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ActionsConflictProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ActionsInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ActionsInvalidProblem(pub Problem);
    impl ::std::ops::Deref for ActionsInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ActionsInvalidProblem> for Problem {
        fn from(value: ActionsInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ActionsInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ActionsNotFoundProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ActionsNotFoundProblem(pub Problem);
    impl ::std::ops::Deref for ActionsNotFoundProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ActionsNotFoundProblem> for Problem {
        fn from(value: ActionsNotFoundProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ActionsNotFoundProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ApprovalDecision`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ApprovalDecision {
        ///Approved, the host runs the tool; denied, the model is told so.
        pub approve: bool,
        ///The call this decides.
        #[serde(rename = "callId")]
        pub call_id: ::std::string::String,
        ///Why, passed to the model with a denial.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub reason: ::std::option::Option<::std::string::String>,
    }
    ///The model called host tools that need a person's approval before they act.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ApprovalsAction {
        pub approvals: ::std::vec::Vec<FunctionCall>,
        #[serde(rename = "type")]
        pub type_: ApprovalsActionType,
    }
    ///`ApprovalsActionType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum ApprovalsActionType {
        #[serde(rename = "approvals")]
        Approvals,
    }
    impl ::std::fmt::Display for ApprovalsActionType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Approvals => f.write_str("approvals"),
            }
        }
    }
    impl ::std::str::FromStr for ApprovalsActionType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "approvals" => Ok(Self::Approvals),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for ApprovalsActionType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ApprovalsActionType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    #[doc = "A file sent with a stateless run. Text (`text/*`, JSON, XML) goes to\nthe model decoded, beside the input; images (`image/png`, `image/jpeg`,\n`image/webp`, `image/gif`) and PDFs (`application/pdf`) go in the\nprovider's own form, where the instance lists the type in discovery's\n`attachmentMediaTypes`. The host bounds each attachment's decoded size\n(`maxAttachmentBytes`) and a run's (`maxRunAttachmentBytes`).\n"]
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Attachment {
        ///The file content, base64-encoded.
        pub data: ::std::string::String,
        ///The IANA media type, for example `text/plain` or `image/png`.
        #[serde(rename = "mediaType")]
        pub media_type: ::std::string::String,
        ///The file name.
        pub name: ::std::string::String,
    }
    ///`CancelRunResponse`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct CancelRunResponse {
        ///The cancelled run.
        pub id: ::std::string::String,
        ///Whether model work had started; if so, the session is now interrupted.
        #[serde(rename = "modelWorkStarted")]
        pub model_work_started: bool,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub session: ::std::option::Option<SessionInfo>,
        ///Always `cancelled`.
        pub status: CancelRunResponseStatus,
    }
    ///Always `cancelled`.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum CancelRunResponseStatus {
        #[serde(rename = "cancelled")]
        Cancelled,
    }
    impl ::std::fmt::Display for CancelRunResponseStatus {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Cancelled => f.write_str("cancelled"),
            }
        }
    }
    impl ::std::str::FromStr for CancelRunResponseStatus {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "cancelled" => Ok(Self::Cancelled),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for CancelRunResponseStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CancelRunResponseStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`CreateSessionIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct CreateSessionIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for CreateSessionIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<CreateSessionIdempotencyKey> for ::std::string::String {
        fn from(value: CreateSessionIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for CreateSessionIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for CreateSessionIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for CreateSessionIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for CreateSessionIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`CreateSessionInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct CreateSessionInvalidProblem(pub Problem);
    impl ::std::ops::Deref for CreateSessionInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<CreateSessionInvalidProblem> for Problem {
        fn from(value: CreateSessionInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for CreateSessionInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`CreateSessionNotFoundProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct CreateSessionNotFoundProblem(pub Problem);
    impl ::std::ops::Deref for CreateSessionNotFoundProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<CreateSessionNotFoundProblem> for Problem {
        fn from(value: CreateSessionNotFoundProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for CreateSessionNotFoundProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///A `nativeHistory` other than `full` needs `mode` native.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct CreateSessionRequest {
        ///Visible messages to import, bounded by `maxMessages` and `maxRecordBytes`.
        #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
        pub history: ::std::vec::Vec<Message>,
        ///Instructions (a system prompt) that belong to the session from now on.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub instructions: ::std::option::Option<::std::string::String>,
        pub mode: SessionMode,
        ///A model the instance serves.
        pub model: ::std::string::String,
        #[serde(
            rename = "nativeHistory",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub native_history: ::std::option::Option<NativeHistoryFilter>,
        ///The provider instance id.
        pub provider: ::std::string::String,
    }
    ///`CreateSessionResponse`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct CreateSessionResponse {
        pub session: SessionInfo,
    }
    ///`CreateSessionUnavailableProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct CreateSessionUnavailableProblem(pub Problem);
    impl ::std::ops::Deref for CreateSessionUnavailableProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<CreateSessionUnavailableProblem> for Problem {
        fn from(value: CreateSessionUnavailableProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for CreateSessionUnavailableProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`Discovery`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Discovery {
        ///The host process's id (a DNS label); the session and run ids it makes name it.
        #[serde(rename = "hostId")]
        pub host_id: ::std::string::String,
        ///The provider instances the caller's token may use.
        pub providers: ::std::vec::Vec<ProviderInfo>,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub runs: ::std::option::Option<RunsPolicy>,
        ///The session operations the caller's token is granted.
        #[serde(rename = "sessionGrants")]
        pub session_grants: ::std::vec::Vec<SessionGrant>,
        pub sessions: SessionsPolicy,
        ///The subject the caller's token maps to.
        pub subject: ::std::string::String,
        ///The host software version.
        pub version: ::std::string::String,
    }
    /**The whole error-code catalogue. Each code has one HTTP status;
`x-error-table` below gives every code its status, its problem's
title, the group it is caught with and what a caller should do
(docs/errors.md renders it as a table).
`ROUTE_NOT_FOUND`, `METHOD_NOT_ALLOWED` and `INTERNAL_ERROR` answer
requests outside the documented operations (or a host defect) and
appear in no operation. The connection-level guards answer before
any operation is known, so they appear in no operation either:
`HEADERS_TOO_LARGE` (the request head exceeds `maxHeaderBytes`) and
`HOST_BUSY` with `limit: maxConnections` (the host holds its maximum
of open connections; the new connection is answered and closed), and
`MALFORMED_REQUEST` (the bytes received are not a valid HTTP/1.1
request: a control byte in a header, a bad request line or target, a
bad `Content-Length` or chunk size, a header line without a colon;
the answer carries `Connection: close` and the connection is closed).
`HOST_UNAVAILABLE` (with `ownerHostId` when the request named a
session or run, and `Retry-After`) is answered by the proxy in front
of several hosts, never by a host, so it appears in no operation
either: the proxy cannot reach the host that owns the session or run
(down or restarting), or no host takes new work. A client retries it
a bounded number of times; a host that comes back has lost its
sessions (`SESSION_NOT_FOUND`).
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum ErrorCode {
        #[serde(rename = "UNAUTHENTICATED")]
        Unauthenticated,
        #[serde(rename = "PERMISSION_DENIED")]
        PermissionDenied,
        #[serde(rename = "SESSION_NOT_FOUND")]
        SessionNotFound,
        #[serde(rename = "RUN_NOT_FOUND")]
        RunNotFound,
        #[serde(rename = "PROVIDER_NOT_FOUND")]
        ProviderNotFound,
        #[serde(rename = "MODEL_NOT_FOUND")]
        ModelNotFound,
        #[serde(rename = "ROUTE_NOT_FOUND")]
        RouteNotFound,
        #[serde(rename = "METHOD_NOT_ALLOWED")]
        MethodNotAllowed,
        #[serde(rename = "SESSION_REVISION_CONFLICT")]
        SessionRevisionConflict,
        #[serde(rename = "SESSION_BUSY")]
        SessionBusy,
        #[serde(rename = "SESSION_INTERRUPTED")]
        SessionInterrupted,
        #[serde(rename = "SESSION_ACCOUNT_REQUIRED")]
        SessionAccountRequired,
        #[serde(rename = "RUN_CANCELLED")]
        RunCancelled,
        #[serde(rename = "RUN_NOT_WAITING")]
        RunNotWaiting,
        #[serde(rename = "IDEMPOTENCY_KEY_IN_USE")]
        IdempotencyKeyInUse,
        #[serde(rename = "REQUEST_TIMEOUT")]
        RequestTimeout,
        #[serde(rename = "PAYLOAD_TOO_LARGE")]
        PayloadTooLarge,
        #[serde(rename = "UNSUPPORTED_MEDIA_TYPE")]
        UnsupportedMediaType,
        #[serde(rename = "VALIDATION_ERROR")]
        ValidationError,
        #[serde(rename = "UNSUPPORTED_CONTINUATION")]
        UnsupportedContinuation,
        #[serde(rename = "SESSION_CONTEXT_UNSUPPORTED")]
        SessionContextUnsupported,
        #[serde(rename = "SESSION_OVERRIDE_REJECTED")]
        SessionOverrideRejected,
        #[serde(rename = "SESSION_LIMIT_EXCEEDED")]
        SessionLimitExceeded,
        #[serde(rename = "SESSION_PREFIX_CHANGED")]
        SessionPrefixChanged,
        #[serde(rename = "ACTION_MISMATCH")]
        ActionMismatch,
        #[serde(rename = "IDEMPOTENCY_KEY_REUSED")]
        IdempotencyKeyReused,
        #[serde(rename = "TOOL_NAME_CONFLICT")]
        ToolNameConflict,
        #[serde(rename = "PROVIDER_RATE_LIMITED")]
        ProviderRateLimited,
        #[serde(rename = "INTERNAL_ERROR")]
        InternalError,
        #[serde(rename = "HEADERS_TOO_LARGE")]
        HeadersTooLarge,
        #[serde(rename = "SESSIONS_DISABLED")]
        SessionsDisabled,
        #[serde(rename = "PROVIDER_ERROR")]
        ProviderError,
        #[serde(rename = "PROVIDER_AUTH_FAILED")]
        ProviderAuthFailed,
        #[serde(rename = "PROVIDER_REJECTED")]
        ProviderRejected,
        #[serde(rename = "SESSION_STORE_FULL")]
        SessionStoreFull,
        #[serde(rename = "HOST_BUSY")]
        HostBusy,
        #[serde(rename = "PROVIDER_OVERLOADED")]
        ProviderOverloaded,
        #[serde(rename = "SHUTTING_DOWN")]
        ShuttingDown,
        #[serde(rename = "PROVIDER_TIMEOUT")]
        ProviderTimeout,
        #[serde(rename = "ATTACHMENT_UNSUPPORTED")]
        AttachmentUnsupported,
        #[serde(rename = "MALFORMED_REQUEST")]
        MalformedRequest,
        #[serde(rename = "MISDIRECTED_REQUEST")]
        MisdirectedRequest,
        #[serde(rename = "HOST_UNAVAILABLE")]
        HostUnavailable,
        #[serde(rename = "RUN_EVENTS_EXPIRED")]
        RunEventsExpired,
        #[serde(rename = "SUBJECT_QUOTA_EXCEEDED")]
        SubjectQuotaExceeded,
    }
    impl ::std::fmt::Display for ErrorCode {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Unauthenticated => f.write_str("UNAUTHENTICATED"),
                Self::PermissionDenied => f.write_str("PERMISSION_DENIED"),
                Self::SessionNotFound => f.write_str("SESSION_NOT_FOUND"),
                Self::RunNotFound => f.write_str("RUN_NOT_FOUND"),
                Self::ProviderNotFound => f.write_str("PROVIDER_NOT_FOUND"),
                Self::ModelNotFound => f.write_str("MODEL_NOT_FOUND"),
                Self::RouteNotFound => f.write_str("ROUTE_NOT_FOUND"),
                Self::MethodNotAllowed => f.write_str("METHOD_NOT_ALLOWED"),
                Self::SessionRevisionConflict => f.write_str("SESSION_REVISION_CONFLICT"),
                Self::SessionBusy => f.write_str("SESSION_BUSY"),
                Self::SessionInterrupted => f.write_str("SESSION_INTERRUPTED"),
                Self::SessionAccountRequired => f.write_str("SESSION_ACCOUNT_REQUIRED"),
                Self::RunCancelled => f.write_str("RUN_CANCELLED"),
                Self::RunNotWaiting => f.write_str("RUN_NOT_WAITING"),
                Self::IdempotencyKeyInUse => f.write_str("IDEMPOTENCY_KEY_IN_USE"),
                Self::RequestTimeout => f.write_str("REQUEST_TIMEOUT"),
                Self::PayloadTooLarge => f.write_str("PAYLOAD_TOO_LARGE"),
                Self::UnsupportedMediaType => f.write_str("UNSUPPORTED_MEDIA_TYPE"),
                Self::ValidationError => f.write_str("VALIDATION_ERROR"),
                Self::UnsupportedContinuation => f.write_str("UNSUPPORTED_CONTINUATION"),
                Self::SessionContextUnsupported => {
                    f.write_str("SESSION_CONTEXT_UNSUPPORTED")
                }
                Self::SessionOverrideRejected => f.write_str("SESSION_OVERRIDE_REJECTED"),
                Self::SessionLimitExceeded => f.write_str("SESSION_LIMIT_EXCEEDED"),
                Self::SessionPrefixChanged => f.write_str("SESSION_PREFIX_CHANGED"),
                Self::ActionMismatch => f.write_str("ACTION_MISMATCH"),
                Self::IdempotencyKeyReused => f.write_str("IDEMPOTENCY_KEY_REUSED"),
                Self::ToolNameConflict => f.write_str("TOOL_NAME_CONFLICT"),
                Self::ProviderRateLimited => f.write_str("PROVIDER_RATE_LIMITED"),
                Self::InternalError => f.write_str("INTERNAL_ERROR"),
                Self::HeadersTooLarge => f.write_str("HEADERS_TOO_LARGE"),
                Self::SessionsDisabled => f.write_str("SESSIONS_DISABLED"),
                Self::ProviderError => f.write_str("PROVIDER_ERROR"),
                Self::ProviderAuthFailed => f.write_str("PROVIDER_AUTH_FAILED"),
                Self::ProviderRejected => f.write_str("PROVIDER_REJECTED"),
                Self::SessionStoreFull => f.write_str("SESSION_STORE_FULL"),
                Self::HostBusy => f.write_str("HOST_BUSY"),
                Self::ProviderOverloaded => f.write_str("PROVIDER_OVERLOADED"),
                Self::ShuttingDown => f.write_str("SHUTTING_DOWN"),
                Self::ProviderTimeout => f.write_str("PROVIDER_TIMEOUT"),
                Self::AttachmentUnsupported => f.write_str("ATTACHMENT_UNSUPPORTED"),
                Self::MalformedRequest => f.write_str("MALFORMED_REQUEST"),
                Self::MisdirectedRequest => f.write_str("MISDIRECTED_REQUEST"),
                Self::HostUnavailable => f.write_str("HOST_UNAVAILABLE"),
                Self::RunEventsExpired => f.write_str("RUN_EVENTS_EXPIRED"),
                Self::SubjectQuotaExceeded => f.write_str("SUBJECT_QUOTA_EXCEEDED"),
            }
        }
    }
    impl ::std::str::FromStr for ErrorCode {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "UNAUTHENTICATED" => Ok(Self::Unauthenticated),
                "PERMISSION_DENIED" => Ok(Self::PermissionDenied),
                "SESSION_NOT_FOUND" => Ok(Self::SessionNotFound),
                "RUN_NOT_FOUND" => Ok(Self::RunNotFound),
                "PROVIDER_NOT_FOUND" => Ok(Self::ProviderNotFound),
                "MODEL_NOT_FOUND" => Ok(Self::ModelNotFound),
                "ROUTE_NOT_FOUND" => Ok(Self::RouteNotFound),
                "METHOD_NOT_ALLOWED" => Ok(Self::MethodNotAllowed),
                "SESSION_REVISION_CONFLICT" => Ok(Self::SessionRevisionConflict),
                "SESSION_BUSY" => Ok(Self::SessionBusy),
                "SESSION_INTERRUPTED" => Ok(Self::SessionInterrupted),
                "SESSION_ACCOUNT_REQUIRED" => Ok(Self::SessionAccountRequired),
                "RUN_CANCELLED" => Ok(Self::RunCancelled),
                "RUN_NOT_WAITING" => Ok(Self::RunNotWaiting),
                "IDEMPOTENCY_KEY_IN_USE" => Ok(Self::IdempotencyKeyInUse),
                "REQUEST_TIMEOUT" => Ok(Self::RequestTimeout),
                "PAYLOAD_TOO_LARGE" => Ok(Self::PayloadTooLarge),
                "UNSUPPORTED_MEDIA_TYPE" => Ok(Self::UnsupportedMediaType),
                "VALIDATION_ERROR" => Ok(Self::ValidationError),
                "UNSUPPORTED_CONTINUATION" => Ok(Self::UnsupportedContinuation),
                "SESSION_CONTEXT_UNSUPPORTED" => Ok(Self::SessionContextUnsupported),
                "SESSION_OVERRIDE_REJECTED" => Ok(Self::SessionOverrideRejected),
                "SESSION_LIMIT_EXCEEDED" => Ok(Self::SessionLimitExceeded),
                "SESSION_PREFIX_CHANGED" => Ok(Self::SessionPrefixChanged),
                "ACTION_MISMATCH" => Ok(Self::ActionMismatch),
                "IDEMPOTENCY_KEY_REUSED" => Ok(Self::IdempotencyKeyReused),
                "TOOL_NAME_CONFLICT" => Ok(Self::ToolNameConflict),
                "PROVIDER_RATE_LIMITED" => Ok(Self::ProviderRateLimited),
                "INTERNAL_ERROR" => Ok(Self::InternalError),
                "HEADERS_TOO_LARGE" => Ok(Self::HeadersTooLarge),
                "SESSIONS_DISABLED" => Ok(Self::SessionsDisabled),
                "PROVIDER_ERROR" => Ok(Self::ProviderError),
                "PROVIDER_AUTH_FAILED" => Ok(Self::ProviderAuthFailed),
                "PROVIDER_REJECTED" => Ok(Self::ProviderRejected),
                "SESSION_STORE_FULL" => Ok(Self::SessionStoreFull),
                "HOST_BUSY" => Ok(Self::HostBusy),
                "PROVIDER_OVERLOADED" => Ok(Self::ProviderOverloaded),
                "SHUTTING_DOWN" => Ok(Self::ShuttingDown),
                "PROVIDER_TIMEOUT" => Ok(Self::ProviderTimeout),
                "ATTACHMENT_UNSUPPORTED" => Ok(Self::AttachmentUnsupported),
                "MALFORMED_REQUEST" => Ok(Self::MalformedRequest),
                "MISDIRECTED_REQUEST" => Ok(Self::MisdirectedRequest),
                "HOST_UNAVAILABLE" => Ok(Self::HostUnavailable),
                "RUN_EVENTS_EXPIRED" => Ok(Self::RunEventsExpired),
                "SUBJECT_QUOTA_EXCEEDED" => Ok(Self::SubjectQuotaExceeded),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for ErrorCode {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ErrorCode {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`EventsInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct EventsInvalidProblem(pub Problem);
    impl ::std::ops::Deref for EventsInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<EventsInvalidProblem> for Problem {
        fn from(value: EventsInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for EventsInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ForkConflictProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ForkConflictProblem(pub Problem);
    impl ::std::ops::Deref for ForkConflictProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ForkConflictProblem> for Problem {
        fn from(value: ForkConflictProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ForkConflictProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ForkInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ForkInvalidProblem(pub Problem);
    impl ::std::ops::Deref for ForkInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ForkInvalidProblem> for Problem {
        fn from(value: ForkInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ForkInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ForkSessionIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ForkSessionIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for ForkSessionIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ForkSessionIdempotencyKey> for ::std::string::String {
        fn from(value: ForkSessionIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ForkSessionIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ForkSessionIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ForkSessionIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ForkSessionIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`ForkSessionRequest`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, Default, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ForkSessionRequest {
        /**The boundary: 0 (the imported history only), the session's current
revision, or the revision of one of its recorded turns. Default:
the current revision.
*/
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub revision: ::std::option::Option<u64>,
    }
    ///`FunctionCall`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct FunctionCall {
        ///The arguments the model gave, as a JSON object.
        pub arguments: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
        ///The id to answer with.
        #[serde(rename = "callId")]
        pub call_id: ::std::string::String,
        ///The function or host tool the model called.
        pub name: ::std::string::String,
    }
    ///The model called application-owned functions; submit their results.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct FunctionCallsAction {
        pub calls: ::std::vec::Vec<FunctionCall>,
        #[serde(rename = "type")]
        pub type_: FunctionCallsActionType,
    }
    ///`FunctionCallsActionType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum FunctionCallsActionType {
        #[serde(rename = "function_calls")]
        FunctionCalls,
    }
    impl ::std::fmt::Display for FunctionCallsActionType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::FunctionCalls => f.write_str("function_calls"),
            }
        }
    }
    impl ::std::str::FromStr for FunctionCallsActionType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "function_calls" => Ok(Self::FunctionCalls),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for FunctionCallsActionType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for FunctionCallsActionType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`FunctionResult`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct FunctionResult {
        ///The call this answers.
        #[serde(rename = "callId")]
        pub call_id: ::std::string::String,
        ///The function's result as text (JSON text is fine), given to the model.
        pub output: ::std::string::String,
    }
    ///`Health`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Health {
        ///Always `ok` while the process serves requests.
        pub status: HealthStatus,
    }
    ///Always `ok` while the process serves requests.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum HealthStatus {
        #[serde(rename = "ok")]
        Ok,
    }
    impl ::std::fmt::Display for HealthStatus {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Ok => f.write_str("ok"),
            }
        }
    }
    impl ::std::str::FromStr for HealthStatus {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "ok" => Ok(Self::Ok),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for HealthStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for HealthStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    /**Why a turn stopped after model work started. `action_timeout`: the
run's `actionTimeoutMs` passed with its required action unanswered.
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum InterruptReason {
        #[serde(rename = "cancelled")]
        Cancelled,
        #[serde(rename = "failed")]
        Failed,
        #[serde(rename = "disconnected")]
        Disconnected,
        #[serde(rename = "idle_timeout")]
        IdleTimeout,
        #[serde(rename = "limit_exceeded")]
        LimitExceeded,
        #[serde(rename = "shutdown")]
        Shutdown,
        #[serde(rename = "action_timeout")]
        ActionTimeout,
    }
    impl ::std::fmt::Display for InterruptReason {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Cancelled => f.write_str("cancelled"),
                Self::Failed => f.write_str("failed"),
                Self::Disconnected => f.write_str("disconnected"),
                Self::IdleTimeout => f.write_str("idle_timeout"),
                Self::LimitExceeded => f.write_str("limit_exceeded"),
                Self::Shutdown => f.write_str("shutdown"),
                Self::ActionTimeout => f.write_str("action_timeout"),
            }
        }
    }
    impl ::std::str::FromStr for InterruptReason {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "cancelled" => Ok(Self::Cancelled),
                "failed" => Ok(Self::Failed),
                "disconnected" => Ok(Self::Disconnected),
                "idle_timeout" => Ok(Self::IdleTimeout),
                "limit_exceeded" => Ok(Self::LimitExceeded),
                "shutdown" => Ok(Self::Shutdown),
                "action_timeout" => Ok(Self::ActionTimeout),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for InterruptReason {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for InterruptReason {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///The turn that interrupted the session, for the application to reconcile.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct InterruptedTurn {
        ///When the turn was interrupted.
        pub at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///The input the interrupted turn was given.
        pub input: ::std::string::String,
        pub reason: InterruptReason,
        ///The interrupted run.
        #[serde(rename = "runId")]
        pub run_id: ::std::string::String,
    }
    ///`Message`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Message {
        ///The visible text.
        pub content: ::std::string::String,
        ///Who wrote the message.
        pub role: MessageRole,
    }
    ///Who wrote the message.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum MessageRole {
        #[serde(rename = "user")]
        User,
        #[serde(rename = "assistant")]
        Assistant,
    }
    impl ::std::fmt::Display for MessageRole {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::User => f.write_str("user"),
                Self::Assistant => f.write_str("assistant"),
            }
        }
    }
    impl ::std::str::FromStr for MessageRole {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "user" => Ok(Self::User),
                "assistant" => Ok(Self::Assistant),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for MessageRole {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for MessageRole {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///Always carries `hostId` and `ownerHostId`.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct MisdirectedProblem(pub Problem);
    impl ::std::ops::Deref for MisdirectedProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<MisdirectedProblem> for Problem {
        fn from(value: MisdirectedProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for MisdirectedProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**What a native session keeps of each stored turn (applied when the turn
is stored, so replay and bounds both see the filtered history).
`full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
whole (never edits one; Gemini's signed parts stay); `no_tool_results`
replaces each tool result's content with a short placeholder, keeping
calls and results paired; `compact_tool_results` cuts each tool result
(a string or a list of text blocks) to at most the host's
`sessions.compactToolResultsMaxChars` characters. A history that ends
inside a tool round keeps that round as it is.
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum NativeHistoryFilter {
        #[serde(rename = "full")]
        Full,
        #[serde(rename = "no_reasoning")]
        NoReasoning,
        #[serde(rename = "no_tool_results")]
        NoToolResults,
        #[serde(rename = "compact_tool_results")]
        CompactToolResults,
    }
    impl ::std::fmt::Display for NativeHistoryFilter {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Full => f.write_str("full"),
                Self::NoReasoning => f.write_str("no_reasoning"),
                Self::NoToolResults => f.write_str("no_tool_results"),
                Self::CompactToolResults => f.write_str("compact_tool_results"),
            }
        }
    }
    impl ::std::str::FromStr for NativeHistoryFilter {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "full" => Ok(Self::Full),
                "no_reasoning" => Ok(Self::NoReasoning),
                "no_tool_results" => Ok(Self::NoToolResults),
                "compact_tool_results" => Ok(Self::CompactToolResults),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for NativeHistoryFilter {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for NativeHistoryFilter {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`NotReadyProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct NotReadyProblem(pub Problem);
    impl ::std::ops::Deref for NotReadyProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<NotReadyProblem> for Problem {
        fn from(value: NotReadyProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for NotReadyProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**What the run does when the client answering it goes away (its
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
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum OnDisconnect {
        #[serde(rename = "cancel")]
        Cancel,
        #[serde(rename = "continue")]
        Continue,
    }
    impl ::std::fmt::Display for OnDisconnect {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Cancel => f.write_str("cancel"),
                Self::Continue => f.write_str("continue"),
            }
        }
    }
    impl ::std::str::FromStr for OnDisconnect {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "cancel" => Ok(Self::Cancel),
                "continue" => Ok(Self::Continue),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for OnDisconnect {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for OnDisconnect {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///The next piece of the assistant's visible text.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct OutputDeltaEvent {
        #[serde(rename = "runId")]
        pub run_id: ::std::string::String,
        pub text: ::std::string::String,
        #[serde(rename = "type")]
        pub type_: OutputDeltaEventType,
    }
    ///`OutputDeltaEventType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum OutputDeltaEventType {
        #[serde(rename = "output.delta")]
        OutputDelta,
    }
    impl ::std::fmt::Display for OutputDeltaEventType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::OutputDelta => f.write_str("output.delta"),
            }
        }
    }
    impl ::std::str::FromStr for OutputDeltaEventType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "output.delta" => Ok(Self::OutputDelta),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for OutputDeltaEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for OutputDeltaEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`PayloadTooLargeProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct PayloadTooLargeProblem(pub Problem);
    impl ::std::ops::Deref for PayloadTooLargeProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<PayloadTooLargeProblem> for Problem {
        fn from(value: PayloadTooLargeProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for PayloadTooLargeProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`PermissionDeniedProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct PermissionDeniedProblem(pub Problem);
    impl ::std::ops::Deref for PermissionDeniedProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<PermissionDeniedProblem> for Problem {
        fn from(value: PermissionDeniedProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for PermissionDeniedProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**RFC 9457 problem details with a stable `code`. Code-specific fields
appear only with the codes that use them.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    pub struct Problem {
        ///`SESSION_BUSY`: the run that holds the session.
        #[serde(
            rename = "activeRunId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub active_run_id: ::std::option::Option<::std::string::String>,
        ///`ATTACHMENT_UNSUPPORTED`: the refused attachment's index in `attachments`.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub attachment: ::std::option::Option<u64>,
        /**The problem's stable code: one of `ErrorCode` (the codes this version
of the contract defines), or a code added after it, which a client
handles by the HTTP status. Each error response lists the codes it
carries in `x-error-codes`.
*/
        pub code: ::std::string::String,
        ///`SESSION_REVISION_CONFLICT`: the session's current revision.
        #[serde(
            rename = "currentRevision",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub current_revision: ::std::option::Option<i64>,
        ///What happened, for a person.
        pub detail: ::std::string::String,
        ///`VALIDATION_ERROR`, `TOOL_NAME_CONFLICT`: every problem found in the request (for `TOOL_NAME_CONFLICT`, each tool whose name clashes).
        #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
        pub errors: ::std::vec::Vec<ValidationIssue>,
        ///`RUN_EVENTS_EXPIRED`: the oldest event id of the run still buffered.
        #[serde(
            rename = "firstEventId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub first_event_id: ::std::option::Option<::std::num::NonZeroU64>,
        ///`MISDIRECTED_REQUEST`: the host process that answered.
        #[serde(
            rename = "hostId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub host_id: ::std::option::Option<::std::string::String>,
        ///The request path.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub instance: ::std::option::Option<::std::string::String>,
        ///`SESSION_LIMIT_EXCEEDED`, `SESSION_STORE_FULL`, `PAYLOAD_TOO_LARGE`, `REQUEST_TIMEOUT`, `HEADERS_TOO_LARGE`, `HOST_BUSY`, `ATTACHMENT_UNSUPPORTED`, `SUBJECT_QUOTA_EXCEEDED`: the bound that was hit, by its host setting name (on `ATTACHMENT_UNSUPPORTED` only when a size bound refused the attachment).
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub limit: ::std::option::Option<::std::string::String>,
        ///The value of that bound.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub maximum: ::std::option::Option<i64>,
        ///`ATTACHMENT_UNSUPPORTED`: the refused attachment's media type, as sent.
        #[serde(
            rename = "mediaType",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub media_type: ::std::option::Option<::std::string::String>,
        ///`MISDIRECTED_REQUEST`, `HOST_UNAVAILABLE`: the host process that owns the session or run the request names (send `Agentic-Host` with it).
        #[serde(
            rename = "ownerHostId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub owner_host_id: ::std::option::Option<::std::string::String>,
        ///`ATTACHMENT_UNSUPPORTED`: the provider instance that does not take it.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub provider: ::std::option::Option<::std::string::String>,
        ///`RUN_CANCELLED`: `cancelled`, `session_deleted`, `disconnected`, `shutdown` (the host stopped before the turn finished) or `action_timeout` (the run's `actionTimeoutMs` passed with its required action unanswered).
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub reason: ::std::option::Option<::std::string::String>,
        ///The request's id, the same as the `X-Request-Id` response header.
        #[serde(
            rename = "requestId",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub request_id: ::std::option::Option<::std::string::String>,
        ///The same value as the `Retry-After` header, where waiting helps.
        #[serde(
            rename = "retryAfterSeconds",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub retry_after_seconds: ::std::option::Option<i64>,
        ///The HTTP status code.
        pub status: i64,
        ///A short summary of the problem type.
        pub title: ::std::string::String,
        ///A URN naming the problem type, `urn:agentic-driver:problem:<code>`.
        #[serde(rename = "type")]
        pub type_: ::std::string::String,
    }
    ///`ProviderCapabilities`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ProviderCapabilities {
        ///Application-owned functions are supported.
        #[serde(rename = "applicationFunctions")]
        pub application_functions: bool,
        #[doc = "The attachment media types a stateless run on this instance may send:\nmedia types, or ranges such as `text/*` (sent decoded, as text beside\nthe input). Images and PDFs go in the provider's own form. Any other\ntype is `ATTACHMENT_UNSUPPORTED` before any model work. Matching\nignores case and parameters such as `; charset=utf-8`.\n"]
        #[serde(
            rename = "attachmentMediaTypes",
            default,
            skip_serializing_if = "::std::vec::Vec::is_empty"
        )]
        pub attachment_media_types: ::std::vec::Vec<::std::string::String>,
        ///Sessions in `history` mode are supported.
        #[serde(rename = "historyContinuation")]
        pub history_continuation: bool,
        ///Sessions in `native` mode are supported.
        #[serde(rename = "nativeContinuation")]
        pub native_continuation: bool,
        ///The `nativeHistory` filters this instance's native sessions support.
        #[serde(rename = "nativeHistoryFilters")]
        pub native_history_filters: ::std::vec::Vec<NativeHistoryFilter>,
        ///Streamed runs are supported.
        pub streaming: bool,
    }
    ///`ProviderErrorProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ProviderErrorProblem(pub Problem);
    impl ::std::ops::Deref for ProviderErrorProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ProviderErrorProblem> for Problem {
        fn from(value: ProviderErrorProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ProviderErrorProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ProviderInfo`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ProviderInfo {
        ///Whether the instance has an account binding, which sessions require. The account id itself is never disclosed.
        #[serde(rename = "accountBound")]
        pub account_bound: bool,
        pub capabilities: ProviderCapabilities,
        ///The provider instance id used in requests.
        pub id: ::std::string::String,
        ///The adapter kind, for example `echo`.
        pub kind: ::std::string::String,
        ///The models this instance serves.
        pub models: ::std::vec::Vec<::std::string::String>,
    }
    ///`ProviderOverloadedProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ProviderOverloadedProblem(pub Problem);
    impl ::std::ops::Deref for ProviderOverloadedProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ProviderOverloadedProblem> for Problem {
        fn from(value: ProviderOverloadedProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ProviderOverloadedProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ProviderRateLimitedProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ProviderRateLimitedProblem(pub Problem);
    impl ::std::ops::Deref for ProviderRateLimitedProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ProviderRateLimitedProblem> for Problem {
        fn from(value: ProviderRateLimitedProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ProviderRateLimitedProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ProviderTimeoutProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct ProviderTimeoutProblem(pub Problem);
    impl ::std::ops::Deref for ProviderTimeoutProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<ProviderTimeoutProblem> for Problem {
        fn from(value: ProviderTimeoutProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for ProviderTimeoutProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`ReadSessionResponse`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ReadSessionResponse {
        ///The visible history, oldest first. Provider-private state is never shown.
        pub history: ::std::vec::Vec<Message>,
        ///The session's instructions, or null.
        #[serde(deserialize_with = "::std::option::Option::deserialize")]
        pub instructions: ::std::option::Option<::std::string::String>,
        #[serde(
            rename = "interruptedTurn",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub interrupted_turn: ::std::option::Option<InterruptedTurn>,
        pub session: SessionInfo,
        ///The recorded turns still in the history, oldest first.
        pub turns: ::std::vec::Vec<Turn>,
    }
    ///`Readiness`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Readiness {
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub restored: ::std::option::Option<SnapshotRestore>,
        ///Always `ready` while the host takes new work.
        pub status: ReadinessStatus,
    }
    ///Always `ready` while the host takes new work.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum ReadinessStatus {
        #[serde(rename = "ready")]
        Ready,
    }
    impl ::std::fmt::Display for ReadinessStatus {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Ready => f.write_str("ready"),
            }
        }
    }
    impl ::std::str::FromStr for ReadinessStatus {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "ready" => Ok(Self::Ready),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for ReadinessStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ReadinessStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`RequestTimeoutProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RequestTimeoutProblem(pub Problem);
    impl ::std::ops::Deref for RequestTimeoutProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RequestTimeoutProblem> for Problem {
        fn from(value: RequestTimeoutProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RequestTimeoutProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///What a `requires_action` run waits for.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(untagged)]
    pub enum RequiredAction {
        FunctionCallsAction(FunctionCallsAction),
        ApprovalsAction(ApprovalsAction),
    }
    impl ::std::convert::From<FunctionCallsAction> for RequiredAction {
        fn from(value: FunctionCallsAction) -> Self {
            Self::FunctionCallsAction(value)
        }
    }
    impl ::std::convert::From<ApprovalsAction> for RequiredAction {
        fn from(value: ApprovalsAction) -> Self {
            Self::ApprovalsAction(value)
        }
    }
    ///Freshly authorized context for a stateless run.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Retrieval {
        pub documents: ::std::vec::Vec<RetrievedDocument>,
    }
    ///`RetrievedDocument`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RetrievedDocument {
        ///The application's id for the source.
        pub id: ::std::string::String,
        ///The retrieved text.
        pub text: ::std::string::String,
    }
    ///Provider attempts that failed and were retried, and what they consumed (already billed).
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RetryAccounting {
        ///Their cost when the host has prices for the model, else null.
        #[serde(deserialize_with = "::std::option::Option::deserialize")]
        pub cost: ::std::option::Option<f64>,
        pub count: u64,
        #[serde(rename = "inputTokens")]
        pub input_tokens: u64,
        #[serde(rename = "outputTokens")]
        pub output_tokens: u64,
    }
    ///The turn completed; a session run carries the session at its next revision.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunCompletedEvent {
        pub run: RunResult,
        #[serde(rename = "type")]
        pub type_: RunCompletedEventType,
    }
    ///`RunCompletedEventType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum RunCompletedEventType {
        #[serde(rename = "run.completed")]
        RunCompleted,
    }
    impl ::std::fmt::Display for RunCompletedEventType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::RunCompleted => f.write_str("run.completed"),
            }
        }
    }
    impl ::std::str::FromStr for RunCompletedEventType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "run.completed" => Ok(Self::RunCompleted),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for RunCompletedEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunCompletedEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`RunConflictProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunConflictProblem(pub Problem);
    impl ::std::ops::Deref for RunConflictProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunConflictProblem> for Problem {
        fn from(value: RunConflictProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunConflictProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**One event of a streamed run: the JSON in the `data` of one
Server-Sent Events message. The message's `event` field equals
`type`; clients should ignore event types they do not know.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(untagged)]
    pub enum RunEvent {
        RunStartedEvent(RunStartedEvent),
        OutputDeltaEvent(OutputDeltaEvent),
        RunRequiresActionEvent(RunRequiresActionEvent),
        RunCompletedEvent(RunCompletedEvent),
        RunFailedEvent(RunFailedEvent),
    }
    impl ::std::convert::From<RunStartedEvent> for RunEvent {
        fn from(value: RunStartedEvent) -> Self {
            Self::RunStartedEvent(value)
        }
    }
    impl ::std::convert::From<OutputDeltaEvent> for RunEvent {
        fn from(value: OutputDeltaEvent) -> Self {
            Self::OutputDeltaEvent(value)
        }
    }
    impl ::std::convert::From<RunRequiresActionEvent> for RunEvent {
        fn from(value: RunRequiresActionEvent) -> Self {
            Self::RunRequiresActionEvent(value)
        }
    }
    impl ::std::convert::From<RunCompletedEvent> for RunEvent {
        fn from(value: RunCompletedEvent) -> Self {
            Self::RunCompletedEvent(value)
        }
    }
    impl ::std::convert::From<RunFailedEvent> for RunEvent {
        fn from(value: RunFailedEvent) -> Self {
            Self::RunFailedEvent(value)
        }
    }
    ///Always carries `firstEventId`.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunEventsExpiredProblem(pub Problem);
    impl ::std::ops::Deref for RunEventsExpiredProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunEventsExpiredProblem> for Problem {
        fn from(value: RunEventsExpiredProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunEventsExpiredProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**The run failed or was cancelled after the stream started; `problem`
says why, with the code the non-streamed operation would answer with:
`RUN_CANCELLED`, `SESSION_LIMIT_EXCEEDED`, `PROVIDER_TIMEOUT`, or a
provider failure (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`,
`PROVIDER_AUTH_FAILED`, `PROVIDER_REJECTED`, `PROVIDER_ERROR`, with
`retryAfterSeconds` where the provider said when to retry).
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunFailedEvent {
        pub problem: Problem,
        #[serde(rename = "runId")]
        pub run_id: ::std::string::String,
        #[serde(rename = "type")]
        pub type_: RunFailedEventType,
    }
    ///`RunFailedEventType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum RunFailedEventType {
        #[serde(rename = "run.failed")]
        RunFailed,
    }
    impl ::std::fmt::Display for RunFailedEventType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::RunFailed => f.write_str("run.failed"),
            }
        }
    }
    impl ::std::str::FromStr for RunFailedEventType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "run.failed" => Ok(Self::RunFailed),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for RunFailedEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunFailedEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`RunIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct RunIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for RunIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<RunIdempotencyKey> for ::std::string::String {
        fn from(value: RunIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for RunIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for RunIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for RunIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`RunInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunInvalidProblem(pub Problem);
    impl ::std::ops::Deref for RunInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunInvalidProblem> for Problem {
        fn from(value: RunInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`RunNotFoundProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunNotFoundProblem(pub Problem);
    impl ::std::ops::Deref for RunNotFoundProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunNotFoundProblem> for Problem {
        fn from(value: RunNotFoundProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunNotFoundProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`RunOutput`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunOutput {
        ///The final visible assistant text.
        pub text: ::std::string::String,
    }
    /**A stateless run (no `session`) or a session run. A session run owns
neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
`dependentSchemas` below state exactly that.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunRequest {
        /**Opt-in bound on each wait for the application: if a required
action (function results or approvals) is not answered this long,
the run ends as cancelled (`RUN_CANCELLED`, reason
`action_timeout`); a session turn had started model work, so the
session is interrupted and its interrupted turn records reason
`action_timeout`. Without it a paused run waits until it is
answered, cancelled or deleted (session retention stays suspended
meanwhile). Separate from the host's `maxWaitingRuns`, which bounds
how many runs may wait at once.
*/
        #[serde(
            rename = "actionTimeoutMs",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub action_timeout_ms: ::std::option::Option<::std::num::NonZeroU64>,
        ///Stateless runs only.
        #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
        pub attachments: ::std::vec::Vec<Attachment>,
        ///Stateless runs only; the earlier visible conversation.
        #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
        pub history: ::std::vec::Vec<Message>,
        /**Opt-in progress timeout: if the provider makes no progress for this
long, the run fails with `PROVIDER_TIMEOUT` (a session turn leaves
the session interrupted). There is never a total run deadline.
*/
        #[serde(
            rename = "idleTimeoutMs",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub idle_timeout_ms: ::std::option::Option<::std::num::NonZeroU64>,
        ///The new user input.
        pub input: ::std::string::String,
        ///Stateless runs only.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub instructions: ::std::option::Option<::std::string::String>,
        ///The model; for a session run, the session's model.
        pub model: ::std::string::String,
        #[serde(
            rename = "onDisconnect",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub on_disconnect: ::std::option::Option<OnDisconnect>,
        ///The provider instance id; for a session run, the session's provider.
        pub provider: ::std::string::String,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub retrieval: ::std::option::Option<Retrieval>,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub session: ::std::option::Option<SessionHandle>,
        /**Application-owned functions the model may call. A call ends the run
in `requires_action` until `submitRunActions` brings the results.
Names must differ from each other and from the host's own tools.
*/
        #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
        pub tools: ::std::vec::Vec<ToolDefinition>,
    }
    ///The run waits for the application; the stream ends here.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunRequiresActionEvent {
        pub run: RunResult,
        #[serde(rename = "type")]
        pub type_: RunRequiresActionEventType,
    }
    ///`RunRequiresActionEventType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum RunRequiresActionEventType {
        #[serde(rename = "run.requires_action")]
        RunRequiresAction,
    }
    impl ::std::fmt::Display for RunRequiresActionEventType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::RunRequiresAction => f.write_str("run.requires_action"),
            }
        }
    }
    impl ::std::str::FromStr for RunRequiresActionEventType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "run.requires_action" => Ok(Self::RunRequiresAction),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for RunRequiresActionEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunRequiresActionEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`RunResult`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunResult {
        ///This run's cost when the host has prices for the model, else null (never a guess).
        #[serde(deserialize_with = "::std::option::Option::deserialize")]
        pub cost: ::std::option::Option<f64>,
        ///The run id, `run_{hostId}.{random}` (the host part as in `SessionInfo.id`).
        pub id: ::std::string::String,
        pub output: RunOutput,
        #[serde(
            rename = "requiredAction",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub required_action: ::std::option::Option<RequiredAction>,
        pub retries: RetryAccounting,
        ///The model that answered, as the provider reported it.
        #[serde(
            rename = "servedModel",
            deserialize_with = "::std::option::Option::deserialize"
        )]
        pub served_model: ::std::option::Option<::std::string::String>,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub session: ::std::option::Option<SessionInfo>,
        pub status: RunStatus,
        pub usage: Usage,
    }
    ///The run was admitted; a session run carries the session (status `running`).
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunStartedEvent {
        #[serde(rename = "runId")]
        pub run_id: ::std::string::String,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub session: ::std::option::Option<SessionInfo>,
        #[serde(rename = "type")]
        pub type_: RunStartedEventType,
    }
    ///`RunStartedEventType`
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum RunStartedEventType {
        #[serde(rename = "run.started")]
        RunStarted,
    }
    impl ::std::fmt::Display for RunStartedEventType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::RunStarted => f.write_str("run.started"),
            }
        }
    }
    impl ::std::str::FromStr for RunStartedEventType {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "run.started" => Ok(Self::RunStarted),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for RunStartedEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunStartedEventType {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    /**A run as the host knows it now (`getRun`). `result` is present once
the run completed or paused (`completed`, `requires_action`);
`problem` once it failed or was cancelled (`failed`, `cancelled`),
with the code its own request answered or would have answered with.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunState {
        ///The oldest of the run's events still buffered (`Last-Event-ID` below it is `RUN_EVENTS_EXPIRED`).
        #[serde(rename = "firstEventId")]
        pub first_event_id: ::std::num::NonZeroU64,
        ///The run id.
        pub id: ::std::string::String,
        ///The id of the run's latest event (its `run.started` is 1).
        #[serde(rename = "lastEventId")]
        pub last_event_id: ::std::num::NonZeroU64,
        #[serde(rename = "onDisconnect")]
        pub on_disconnect: OnDisconnect,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub problem: ::std::option::Option<Problem>,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub result: ::std::option::Option<RunResult>,
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub session: ::std::option::Option<SessionInfo>,
        pub status: RunStateStatus,
    }
    /**`queued`: admitted, waiting for a run slot. `running`: model work
under way (or host tools answering). `requires_action`: paused for
function results or approvals. `completed`, `failed`, `cancelled`:
ended (a cancellation from outside, a disconnect of a `cancel` run,
a deleted session, the host's drain, or an unanswered action).
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum RunStateStatus {
        #[serde(rename = "queued")]
        Queued,
        #[serde(rename = "running")]
        Running,
        #[serde(rename = "requires_action")]
        RequiresAction,
        #[serde(rename = "completed")]
        Completed,
        #[serde(rename = "failed")]
        Failed,
        #[serde(rename = "cancelled")]
        Cancelled,
    }
    impl ::std::fmt::Display for RunStateStatus {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Queued => f.write_str("queued"),
                Self::Running => f.write_str("running"),
                Self::RequiresAction => f.write_str("requires_action"),
                Self::Completed => f.write_str("completed"),
                Self::Failed => f.write_str("failed"),
                Self::Cancelled => f.write_str("cancelled"),
            }
        }
    }
    impl ::std::str::FromStr for RunStateStatus {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "queued" => Ok(Self::Queued),
                "running" => Ok(Self::Running),
                "requires_action" => Ok(Self::RequiresAction),
                "completed" => Ok(Self::Completed),
                "failed" => Ok(Self::Failed),
                "cancelled" => Ok(Self::Cancelled),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for RunStateStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunStateStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    /**`completed`: the turn finished and `output` holds the reply.
`requires_action`: the turn waits for the application (`requiredAction`
says for what); it is still the session's active turn.
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum RunStatus {
        #[serde(rename = "completed")]
        Completed,
        #[serde(rename = "requires_action")]
        RequiresAction,
    }
    impl ::std::fmt::Display for RunStatus {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Completed => f.write_str("completed"),
                Self::RequiresAction => f.write_str("requires_action"),
            }
        }
    }
    impl ::std::str::FromStr for RunStatus {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "completed" => Ok(Self::Completed),
                "requires_action" => Ok(Self::RequiresAction),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for RunStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for RunStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`RunTargetNotFoundProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunTargetNotFoundProblem(pub Problem);
    impl ::std::ops::Deref for RunTargetNotFoundProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunTargetNotFoundProblem> for Problem {
        fn from(value: RunTargetNotFoundProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunTargetNotFoundProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`RunTooManyRequestsProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunTooManyRequestsProblem(pub Problem);
    impl ::std::ops::Deref for RunTooManyRequestsProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunTooManyRequestsProblem> for Problem {
        fn from(value: RunTooManyRequestsProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunTooManyRequestsProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`RunUnavailableProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct RunUnavailableProblem(pub Problem);
    impl ::std::ops::Deref for RunUnavailableProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<RunUnavailableProblem> for Problem {
        fn from(value: RunUnavailableProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for RunUnavailableProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///How the host keeps runs for rejoining (`streamRunEvents`) and reading (`getRun`).
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct RunsPolicy {
        ///The most ended runs kept readable at once (host `runs.maxEntries`), the oldest forgotten first.
        #[serde(rename = "maxEntries")]
        pub max_entries: ::std::num::NonZeroU64,
        ///The most bytes of events buffered per run (host `limits.maxRunEventBytes`); older events are dropped first.
        #[serde(rename = "maxRunEventBytes")]
        pub max_run_event_bytes: ::std::num::NonZeroU64,
        ///The `onDisconnect` values this host honours.
        #[serde(rename = "onDisconnect")]
        pub on_disconnect: ::std::vec::Vec<OnDisconnect>,
        ///How long an ended run stays readable (host `runs.retentionMs`).
        #[serde(rename = "retentionMs")]
        pub retention_ms: ::std::num::NonZeroU64,
    }
    ///One model that answered turns of a session, and how many.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ServedModelRuns {
        ///The model as the provider reported it.
        pub model: ::std::string::String,
        ///The turns it answered.
        pub runs: ::std::num::NonZeroU64,
    }
    ///`SessionAccountRequiredProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct SessionAccountRequiredProblem(pub Problem);
    impl ::std::ops::Deref for SessionAccountRequiredProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<SessionAccountRequiredProblem> for Problem {
        fn from(value: SessionAccountRequiredProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for SessionAccountRequiredProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///A session permission a token may hold.
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum SessionGrant {
        #[serde(rename = "create")]
        Create,
        #[serde(rename = "read")]
        Read,
        #[serde(rename = "continue")]
        Continue,
        #[serde(rename = "delete")]
        Delete,
    }
    impl ::std::fmt::Display for SessionGrant {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Create => f.write_str("create"),
                Self::Read => f.write_str("read"),
                Self::Continue => f.write_str("continue"),
                Self::Delete => f.write_str("delete"),
            }
        }
    }
    impl ::std::str::FromStr for SessionGrant {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "create" => Ok(Self::Create),
                "read" => Ok(Self::Read),
                "continue" => Ok(Self::Continue),
                "delete" => Ok(Self::Delete),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for SessionGrant {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for SessionGrant {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///Copy exactly these two fields from the last `SessionInfo` into the next run.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct SessionHandle {
        ///The session id (`SessionInfo.id`); a client sends `Agentic-Host` with the host it names.
        pub id: ::std::string::String,
        ///The revision the caller believes is current (at most 2^53 - 1, which every JSON client represents exactly).
        pub revision: i64,
    }
    ///`SessionInfo`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct SessionInfo {
        ///Cumulative cost when the host has prices for the model, else null.
        #[serde(deserialize_with = "::std::option::Option::deserialize")]
        pub cost: ::std::option::Option<f64>,
        ///Creation time, UTC, millisecond precision.
        #[serde(rename = "createdAt")]
        pub created_at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///When the idle session expires; null while a turn is active.
        #[serde(
            rename = "expiresAt",
            deserialize_with = "::std::option::Option::deserialize"
        )]
        pub expires_at: ::std::option::Option<::chrono::DateTime<::chrono::offset::Utc>>,
        ///The id of the host that holds the session.
        #[serde(rename = "hostId")]
        pub host_id: ::std::string::String,
        /**The session id, `ses_{hostId}.{random}`: `hostId` is the DNS label
of the host process that holds the session (`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
and `random` is URL-safe base64, so the first `.` ends the host part.
Applications treat the id as opaque; clients and proxies read the
host part to route (`Agentic-Host`). Ids of hosts older than this
format (`ses_{random}`) name no host and stay valid.
*/
        pub id: ::std::string::String,
        ///Visible messages held.
        #[serde(rename = "messageCount")]
        pub message_count: u64,
        pub mode: SessionMode,
        ///The model the session is bound to.
        pub model: ::std::string::String,
        #[serde(rename = "nativeHistory")]
        pub native_history: NativeHistoryFilter,
        ///The provider instance the session is bound to.
        pub provider: ::std::string::String,
        ///Encoded bytes counted against `maxRecordBytes`.
        #[serde(rename = "recordBytes")]
        pub record_bytes: u64,
        pub retries: RetryAccounting,
        ///Starts at 0 and advances by one with every completed turn.
        pub revision: u64,
        ///Every turn ever run that reached the model, including interrupted and failed ones; truncation never rewinds it.
        #[serde(rename = "runCount")]
        pub run_count: u64,
        /**Each model that answered a turn of the session, as the provider
reported it, in the order first served, with how many turns it
answered. One entry per distinct model, so it stays small
whatever the number of turns; like `runCount`, truncation never
rewinds it. Sent by every host from 0.3 on.
*/
        #[serde(
            rename = "servedModelRuns",
            default,
            skip_serializing_if = "::std::vec::Vec::is_empty"
        )]
        pub served_model_runs: ::std::vec::Vec<ServedModelRuns>,
        /**Deprecated: read `servedModelRuns`, whose size does not grow with
the session's turns. The model that answered each of the
session's last 100 turns that reported one, as the provider
reported it, oldest first (hosts before 0.3 kept every turn's).
*/
        #[serde(rename = "servedModels")]
        pub served_models: ::std::vec::Vec<::std::string::String>,
        pub status: SessionStatus,
        ///The last change of revision or status.
        #[serde(rename = "updatedAt")]
        pub updated_at: ::chrono::DateTime<::chrono::offset::Utc>,
        pub usage: Usage,
    }
    /**`history` keeps submitted user text and final visible assistant text.
`native` also keeps the provider's own state, unchanged, inside the host.
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum SessionMode {
        #[serde(rename = "history")]
        History,
        #[serde(rename = "native")]
        Native,
    }
    impl ::std::fmt::Display for SessionMode {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::History => f.write_str("history"),
                Self::Native => f.write_str("native"),
            }
        }
    }
    impl ::std::str::FromStr for SessionMode {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "history" => Ok(Self::History),
                "native" => Ok(Self::Native),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for SessionMode {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for SessionMode {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`SessionNotFoundProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct SessionNotFoundProblem(pub Problem);
    impl ::std::ops::Deref for SessionNotFoundProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<SessionNotFoundProblem> for Problem {
        fn from(value: SessionNotFoundProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for SessionNotFoundProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**`ready` accepts a run at the current revision; `running` has an active
turn (running, or waiting for a run slot); `interrupted` refuses runs
until the application reconciles and starts a new session.
*/
    #[derive(
        ::serde::Deserialize,
        ::serde::Serialize,
        Clone,
        Copy,
        Debug,
        Eq,
        Hash,
        Ord,
        PartialEq,
        PartialOrd
    )]
    pub enum SessionStatus {
        #[serde(rename = "ready")]
        Ready,
        #[serde(rename = "running")]
        Running,
        #[serde(rename = "interrupted")]
        Interrupted,
    }
    impl ::std::fmt::Display for SessionStatus {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            match *self {
                Self::Ready => f.write_str("ready"),
                Self::Running => f.write_str("running"),
                Self::Interrupted => f.write_str("interrupted"),
            }
        }
    }
    impl ::std::str::FromStr for SessionStatus {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            match value {
                "ready" => Ok(Self::Ready),
                "running" => Ok(Self::Running),
                "interrupted" => Ok(Self::Interrupted),
                _ => Err("invalid value".into()),
            }
        }
    }
    impl ::std::convert::TryFrom<&str> for SessionStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for SessionStatus {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    ///`SessionsDisabledProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct SessionsDisabledProblem(pub Problem);
    impl ::std::ops::Deref for SessionsDisabledProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<SessionsDisabledProblem> for Problem {
        fn from(value: SessionsDisabledProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for SessionsDisabledProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`SessionsPolicy`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct SessionsPolicy {
        ///Whether this host keeps sessions.
        pub enabled: bool,
        ///The most sessions the store holds at once.
        #[serde(rename = "maxEntries")]
        pub max_entries: ::std::num::NonZeroU64,
        ///The most visible messages one session holds.
        #[serde(rename = "maxMessages")]
        pub max_messages: ::std::num::NonZeroU64,
        ///The most provider-native messages one native session holds.
        #[serde(rename = "maxNativeMessages")]
        pub max_native_messages: ::std::num::NonZeroU64,
        ///The most encoded bytes one session holds (history, provider state and instructions).
        #[serde(rename = "maxRecordBytes")]
        pub max_record_bytes: ::std::num::NonZeroU64,
        ///Idle retention in milliseconds; null when sessions are disabled.
        #[serde(
            rename = "retentionMs",
            deserialize_with = "::std::option::Option::deserialize"
        )]
        pub retention_ms: ::std::option::Option<::std::num::NonZeroU64>,
    }
    /**Present when this process started from the snapshot its previous run
wrote on a clean drain (host JSON `sessions.snapshot`): what it took
back before it reported ready.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct SnapshotRestore {
        pub dropped: SnapshotRestoreDropped,
        ///Idempotency records restored (a retry after the restart replays its outcome).
        #[serde(rename = "idempotencyKeys")]
        pub idempotency_keys: u64,
        ///Sessions restored, with their ids and revisions.
        pub sessions: u64,
    }
    ///Sessions not restored, by reason (each logged with its id).
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct SnapshotRestoreDropped {
        ///Their instance is now bound to another account, or to none.
        #[serde(rename = "accountChanged")]
        pub account_changed: u64,
        ///Their retention ran out while the host was down.
        pub expired: u64,
        ///Their instance no longer serves their model.
        #[serde(rename = "modelRemoved")]
        pub model_removed: u64,
        ///They no longer fit the store's bounds (tightened `sessions` settings, or a full store).
        #[serde(rename = "overLimits")]
        pub over_limits: u64,
        ///Their provider instance is no longer configured.
        #[serde(rename = "providerRemoved")]
        pub provider_removed: u64,
    }
    ///`StreamActionsConflictProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct StreamActionsConflictProblem(pub Problem);
    impl ::std::ops::Deref for StreamActionsConflictProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<StreamActionsConflictProblem> for Problem {
        fn from(value: StreamActionsConflictProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for StreamActionsConflictProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`StreamActionsInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct StreamActionsInvalidProblem(pub Problem);
    impl ::std::ops::Deref for StreamActionsInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<StreamActionsInvalidProblem> for Problem {
        fn from(value: StreamActionsInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for StreamActionsInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`StreamRunActionsIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StreamRunActionsIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for StreamRunActionsIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StreamRunActionsIdempotencyKey> for ::std::string::String {
        fn from(value: StreamRunActionsIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StreamRunActionsIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StreamRunActionsIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String>
    for StreamRunActionsIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StreamRunActionsIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`StreamRunConflictProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct StreamRunConflictProblem(pub Problem);
    impl ::std::ops::Deref for StreamRunConflictProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<StreamRunConflictProblem> for Problem {
        fn from(value: StreamRunConflictProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for StreamRunConflictProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`StreamRunEventsLastEventId`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StreamRunEventsLastEventId(::std::string::String);
    impl ::std::ops::Deref for StreamRunEventsLastEventId {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StreamRunEventsLastEventId> for ::std::string::String {
        fn from(value: StreamRunEventsLastEventId) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StreamRunEventsLastEventId {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> = ::std::sync::LazyLock::new(||
            { ::regress::Regex::new("^[1-9][0-9]{0,17}$").unwrap() });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[1-9][0-9]{0,17}$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StreamRunEventsLastEventId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StreamRunEventsLastEventId {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StreamRunEventsLastEventId {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`StreamRunIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct StreamRunIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for StreamRunIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<StreamRunIdempotencyKey> for ::std::string::String {
        fn from(value: StreamRunIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for StreamRunIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for StreamRunIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for StreamRunIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for StreamRunIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`SubjectQuotaExceededProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct SubjectQuotaExceededProblem(pub Problem);
    impl ::std::ops::Deref for SubjectQuotaExceededProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<SubjectQuotaExceededProblem> for Problem {
        fn from(value: SubjectQuotaExceededProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for SubjectQuotaExceededProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`SubmitRunActionsIdempotencyKey`
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct SubmitRunActionsIdempotencyKey(::std::string::String);
    impl ::std::ops::Deref for SubmitRunActionsIdempotencyKey {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<SubmitRunActionsIdempotencyKey> for ::std::string::String {
        fn from(value: SubmitRunActionsIdempotencyKey) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for SubmitRunActionsIdempotencyKey {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            if value.chars().count() > 255usize {
                return Err("longer than 255 characters".into());
            }
            if value.chars().count() < 1usize {
                return Err("shorter than 1 characters".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for SubmitRunActionsIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String>
    for SubmitRunActionsIdempotencyKey {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for SubmitRunActionsIdempotencyKey {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    /**Exactly one of `functionResults` or `approvals`, matching the run's
`requiredAction`, and optionally `onDisconnect` for the rest of the run.
A body with both answers, or with neither, is `VALIDATION_ERROR`.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, Default, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct SubmitRunActionsRequest {
        #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
        pub approvals: ::std::vec::Vec<ApprovalDecision>,
        #[serde(
            rename = "functionResults",
            default,
            skip_serializing_if = "::std::vec::Vec::is_empty"
        )]
        pub function_results: ::std::vec::Vec<FunctionResult>,
        #[serde(
            rename = "onDisconnect",
            skip_serializing_if = "::std::option::Option::is_none"
        )]
        pub on_disconnect: ::std::option::Option<OnDisconnect>,
    }
    ///An application-owned function the model may call.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ToolDefinition {
        ///What the function does, for the model.
        #[serde(skip_serializing_if = "::std::option::Option::is_none")]
        pub description: ::std::option::Option<::std::string::String>,
        ///The function's name, unique within the run.
        pub name: ToolDefinitionName,
        ///A JSON Schema for the function's arguments.
        pub parameters: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
    }
    ///The function's name, unique within the run.
    #[derive(::serde::Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
    #[serde(transparent)]
    pub struct ToolDefinitionName(::std::string::String);
    impl ::std::ops::Deref for ToolDefinitionName {
        type Target = ::std::string::String;
        fn deref(&self) -> &::std::string::String {
            &self.0
        }
    }
    impl ::std::convert::From<ToolDefinitionName> for ::std::string::String {
        fn from(value: ToolDefinitionName) -> Self {
            value.0
        }
    }
    impl ::std::str::FromStr for ToolDefinitionName {
        type Err = self::error::ConversionError;
        fn from_str(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            static PATTERN: ::std::sync::LazyLock<::regress::Regex> = ::std::sync::LazyLock::new(||
            { ::regress::Regex::new("^[A-Za-z0-9_-]{1,64}$").unwrap() });
            if PATTERN.find(value).is_none() {
                return Err("doesn't match pattern \"^[A-Za-z0-9_-]{1,64}$\"".into());
            }
            Ok(Self(value.to_string()))
        }
    }
    impl ::std::convert::TryFrom<&str> for ToolDefinitionName {
        type Error = self::error::ConversionError;
        fn try_from(
            value: &str,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl ::std::convert::TryFrom<::std::string::String> for ToolDefinitionName {
        type Error = self::error::ConversionError;
        fn try_from(
            value: ::std::string::String,
        ) -> ::std::result::Result<Self, self::error::ConversionError> {
            value.parse()
        }
    }
    impl<'de> ::serde::Deserialize<'de> for ToolDefinitionName {
        fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        }
    }
    ///`TruncateConflictProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct TruncateConflictProblem(pub Problem);
    impl ::std::ops::Deref for TruncateConflictProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<TruncateConflictProblem> for Problem {
        fn from(value: TruncateConflictProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for TruncateConflictProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`TruncateInvalidProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct TruncateInvalidProblem(pub Problem);
    impl ::std::ops::Deref for TruncateInvalidProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<TruncateInvalidProblem> for Problem {
        fn from(value: TruncateInvalidProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for TruncateInvalidProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`TruncateSessionRequest`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct TruncateSessionRequest {
        ///How many of the first recorded turns to keep (0 keeps only the imported history).
        #[serde(rename = "keepTurns")]
        pub keep_turns: u64,
        ///The revision the caller believes is current.
        pub revision: u64,
    }
    ///One completed turn still in the history; `history[start:end]` is what it added.
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Turn {
        ///When the turn completed.
        pub at: ::chrono::DateTime<::chrono::offset::Utc>,
        ///Index one past the turn's last message in `history`.
        pub end: u64,
        ///The revision the turn produced.
        pub revision: ::std::num::NonZeroU64,
        ///The run that produced it.
        #[serde(rename = "runId")]
        pub run_id: ::std::string::String,
        ///Index of the turn's first message in `history`.
        pub start: u64,
    }
    ///`UnauthenticatedProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct UnauthenticatedProblem(pub Problem);
    impl ::std::ops::Deref for UnauthenticatedProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<UnauthenticatedProblem> for Problem {
        fn from(value: UnauthenticatedProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for UnauthenticatedProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    ///`UnsupportedMediaTypeProblem`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(transparent)]
    pub struct UnsupportedMediaTypeProblem(pub Problem);
    impl ::std::ops::Deref for UnsupportedMediaTypeProblem {
        type Target = Problem;
        fn deref(&self) -> &Problem {
            &self.0
        }
    }
    impl ::std::convert::From<UnsupportedMediaTypeProblem> for Problem {
        fn from(value: UnsupportedMediaTypeProblem) -> Self {
            value.0
        }
    }
    impl ::std::convert::From<Problem> for UnsupportedMediaTypeProblem {
        fn from(value: Problem) -> Self {
            Self(value)
        }
    }
    /**Token counts summed over the run's provider calls, normalised across
providers whatever each one counts: `inputTokens` includes cached input
and cache writes, `outputTokens` includes reasoning.
*/
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Usage {
        ///Part of `inputTokens` written to the provider's prompt cache.
        #[serde(rename = "cacheWriteTokens")]
        pub cache_write_tokens: u64,
        ///Part of `inputTokens` served from the provider's prompt cache.
        #[serde(rename = "cachedInputTokens")]
        pub cached_input_tokens: u64,
        ///Tokens the model read, cached or not.
        #[serde(rename = "inputTokens")]
        pub input_tokens: u64,
        ///Tokens the model wrote, reasoning included.
        #[serde(rename = "outputTokens")]
        pub output_tokens: u64,
        ///Part of `outputTokens` spent on reasoning or thinking.
        #[serde(rename = "reasoningTokens")]
        pub reasoning_tokens: u64,
    }
    ///`ValidationIssue`
    #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ValidationIssue {
        ///Where in the request the problem is, for example `body.session.revision`.
        pub location: ::std::string::String,
        ///What is wrong there.
        pub message: ::std::string::String,
    }
    /// Error types.
    pub mod error {
        /// Error from a `TryFrom` or `FromStr` implementation.
        pub struct ConversionError(::std::borrow::Cow<'static, str>);
        impl ::std::error::Error for ConversionError {}
        impl ::std::fmt::Display for ConversionError {
            fn fmt(
                &self,
                f: &mut ::std::fmt::Formatter<'_>,
            ) -> Result<(), ::std::fmt::Error> {
                ::std::fmt::Display::fmt(&self.0, f)
            }
        }
        impl ::std::fmt::Debug for ConversionError {
            fn fmt(
                &self,
                f: &mut ::std::fmt::Formatter<'_>,
            ) -> Result<(), ::std::fmt::Error> {
                ::std::fmt::Debug::fmt(&self.0, f)
            }
        }
        impl From<&'static str> for ConversionError {
            fn from(value: &'static str) -> Self {
                Self(value.into())
            }
        }
        impl From<String> for ConversionError {
            fn from(value: String) -> Self {
                Self(value.into())
            }
        }
    }
}
#[derive(Clone, Debug)]
/**Client for Agentic Driver

The Agentic Driver contract. A host runs model turns on configured provider
instances. Ordinary runs are stateless: the application sends the whole
context each time. Sessions are opt-in, in memory and bounded: the host keeps
the conversation and the application sends only the new input plus a session
handle `{id, revision}`.

Every error is an RFC 9457 problem (`application/problem+json`) with a stable
machine-readable `code`. The codes this version defines are the `ErrorCode`
schema; each error response lists the codes it carries in `x-error-codes`,
so a client can branch on `code` alone. `code` itself is open (see
Evolution): a later host may send a code this document does not name.

Timestamps are UTC with millisecond precision (RFC 3339).

A host that is stopping drains first: `/readyz` and the operations that
would start new work (`createSession`, `forkSession`, `run`, `streamRun`) answer
`SHUTTING_DOWN` (503, `Retry-After`), while reads, deletes, cancels and
the turns already admitted go on (their function results and approvals
are still accepted) until the host's drain timeout; turns still active
then end with `RUN_CANCELLED` (reason `shutdown`) and their sessions are
interrupted (reason `shutdown`), like any turn stopped after model work
started. By default a session ends with its host: to carry on, read its
history and create a new session on another host. A host configured with
a restart snapshot (host JSON `sessions.snapshot`) instead hands every
session, at its revision, to its own next start after a clean drain
(`/readyz` then reports what it restored); a crash still loses them, and
no session ever comes back at an older revision.

Many host processes. Sessions live in the memory of one host process and
never move. Session and run ids name that process,
`ses_{hostId}.{random}` and `run_{hostId}.{random}` (`hostId` a DNS
label), and clients send `Agentic-Host: <hostId>` on every request that
names an existing session or run, so that a proxy in front of several
hosts routes it to its owner. A host answers a request meant for another
with `MISDIRECTED_REQUEST` (421, `ownerHostId`), with nothing done, and
clients retry it once there. When the owner is down, the proxy answers
`HOST_UNAVAILABLE` (503) itself. Requests that name nothing
(`createSession`, stateless runs, discovery) may go to any host that is
ready (`/readyz`).

Streamed runs (`streamRun`, `streamRunActions`, `streamRunEvents`) answer
`text/event-stream`. Their schema, `RunEventMessage`, describes one SSE
message by its fields (`id`, `event`, `data`), as OpenAPI 3.2 models event
streams; its `data` is a `RunEvent` as JSON (`contentMediaType` +
`contentSchema`), or a `LaterRunEvent`: an event of a type added after
this version.

Disconnects. By default (`onDisconnect: cancel`) a client that goes away
stops its run, and a session turn whose model work had started is left
`interrupted` (reason `disconnected`). A run sent with
`onDisconnect: continue` goes on to its end instead (completed, failed,
or paused for the application), its session busy meanwhile and advancing
when it ends, exactly as if the client had stayed. Every run's events
are numbered once, from 1, across all the streams that carry them; the
host keeps them (bounded by `limits.maxRunEventBytes`) while the run is
active and for `runs.retentionMs` after it ends, so `streamRunEvents`
replays them after a `Last-Event-ID` and follows the run live, and
`getRun` reports its state and outcome.

Links name the next operation a client may call with values from an
answer. OpenAPI runtime expressions stand for a whole parameter or a
whole request body, so where a link needs a composite body (a session
handle built from the answer) that body is a template in the link's
`x-request-body`: an object whose string values starting with `$` are
runtime expressions. Links that hold only for a session run (the answer
carries `session`; a stateless run's does not) are listed in the
response's `x-session-links` instead of `links`, so that tools which
follow every link never read a field the answer lacks.

Evolution. `info.version` follows semantic versioning. Within a major
version the contract may grow, and clients must be written to tolerate it:
new operations; new optional request fields and parameters; new optional
response fields (a client ignores members it does not know); new error
`code`s, also on existing operations and statuses (a client handles an
unknown code by its HTTP status); new `RunEvent` types in a stream (a
client skips an event type it does not know); new links and `x-`
extensions. The schema says so: `Problem.code` is an `ErrorCode` or any
other code-shaped string, and a stream's `data` is a `RunEvent` or a
`LaterRunEvent`; `ErrorCode`, the `x-error-codes` lists and the
`RunEvent` variants name the values known in this version, not every
value a host of this major version may send.
Anything else is a breaking change and needs a new major version
(a new minor version while the major version is 0): removing or renaming
an operation, field, parameter, code or event type; making an optional
request field required or narrowing what a request field accepts;
removing a response field or making a required one optional or
nullable; changing a field's type or meaning, a status code, a media
type, or what a documented code means. Deprecated items are marked
`deprecated: true` and stay until the next major version. The changelog
names every change.


Version: 0.1.0*/
pub struct Client {
    pub(crate) baseurl: String,
    pub(crate) client: reqwest::Client,
}
impl Client {
    /// Create a new client.
    ///
    /// `baseurl` is the base URL provided to the internal
    /// `reqwest::Client`, and should include a scheme and hostname,
    /// as well as port and a path stem if applicable.
    pub fn new(baseurl: &str) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let client = {
            let dur = ::std::time::Duration::from_secs(15u64);
            reqwest::ClientBuilder::new().connect_timeout(dur).timeout(dur)
        };
        #[cfg(target_arch = "wasm32")]
        let client = reqwest::ClientBuilder::new();
        Self::new_with_client(baseurl, client.build().unwrap())
    }
    /// Construct a new client with an existing `reqwest::Client`,
    /// allowing more control over its configuration.
    ///
    /// `baseurl` is the base URL provided to the internal
    /// `reqwest::Client`, and should include a scheme and hostname,
    /// as well as port and a path stem if applicable.
    pub fn new_with_client(baseurl: &str, client: reqwest::Client) -> Self {
        Self {
            baseurl: baseurl.to_string(),
            client,
        }
    }
}
impl ClientInfo<()> for Client {
    fn api_version() -> &'static str {
        "0.1.0"
    }
    fn baseurl(&self) -> &str {
        self.baseurl.as_str()
    }
    fn client(&self) -> &reqwest::Client {
        &self.client
    }
    fn inner(&self) -> &() {
        &()
    }
}
impl ClientHooks<()> for &Client {}
#[allow(clippy::all)]
impl Client {
    /**Report that the host process is serving

Sends a `GET` request to `/healthz`

*/
    pub async fn get_health<'a>(
        &'a self,
    ) -> Result<ResponseValue<types::Health>, Error<()>> {
        let url = format!("{}/healthz", self.baseurl,);
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        #[allow(unused_mut)]
        let mut request = self
            .client
            .get(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "get_health",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Report whether the host takes new work

200 while the host takes new sessions and stateless runs; `SHUTTING_DOWN`
(503) from the moment it starts draining until it exits. A proxy in
front of several hosts sends new work only to ready hosts, and keeps
sending a draining host the requests for its own sessions and runs
(`/healthz` stays the liveness check). `HEAD` answers the same status.
A host that started from a restart snapshot says what it restored
(`restored`).


Sends a `GET` request to `/readyz`

*/
    pub async fn get_readiness<'a>(
        &'a self,
    ) -> Result<ResponseValue<types::Readiness>, Error<ByteStream>> {
        let url = format!("{}/readyz", self.baseurl,);
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        #[allow(unused_mut)]
        let mut request = self
            .client
            .get(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "get_readiness",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Describe the host, the provider instances the caller may use, and the sessions policy

Lists only the provider instances the caller's token is granted. An
instance's account binding is reported as a boolean, never as the
account id itself.


Sends a `GET` request to `/v1/discovery`

*/
    pub async fn get_discovery<'a>(
        &'a self,
    ) -> Result<ResponseValue<types::Discovery>, Error<ByteStream>> {
        let url = format!("{}/v1/discovery", self.baseurl,);
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        #[allow(unused_mut)]
        let mut request = self
            .client
            .get(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "get_discovery",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Create a session bound to the caller, a provider instance, its account and a model

Needs the `create` session grant and a grant for the provider instance.
`mode` is explicit: `history` keeps visible user and assistant text;
`native` also keeps the provider's own state inside the host. The
optional `history` imports visible messages, bounded by the host's
`maxMessages` and `maxRecordBytes`.


Sends a `POST` request to `/v1/sessions`

Arguments:
- `idempotency_key`: Makes a retry safe. The first accepted request with this key (per
caller) records its outcome; a repeat with the same body replays it,
never advancing a revision or calling the model again, after checking
current access again (a deleted session is `SESSION_NOT_FOUND`). The
same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
that a repeat of a `run` or `streamRun` sent with
`onDisconnect: continue` joins the run it started (a stream from the
run's first event). A replayed stream sends the run's events with
their original ids while the host still keeps the run (`getRun`),
else the recorded outcome alone, with its original id. Keys are
kept for a bounded time and number (host `idempotency` settings).

- `body`
*/
    pub async fn create_session<'a>(
        &'a self,
        idempotency_key: Option<&'a types::CreateSessionIdempotencyKey>,
        body: &'a types::CreateSessionRequest,
    ) -> Result<ResponseValue<types::CreateSessionResponse>, Error<ByteStream>> {
        let url = format!("{}/v1/sessions", self.baseurl,);
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = idempotency_key {
            header_map.append("Idempotency-Key", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .post(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .json(&body)
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "create_session",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            201u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Read a session's metadata, instructions, visible history and recorded turns

Needs the `read` session grant and a grant for the session's provider
instance. Reading does not extend retention. Use it to reconcile a
final response that was lost: the revision and history have already
moved on.


Sends a `GET` request to `/v1/sessions/{sessionId}`

Arguments:
- `session_id`: The session id returned by `createSession`: `ses_{hostId}.{random}`,
naming the host process that holds the session (see `SessionInfo.id`).

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

*/
    pub async fn read_session<'a>(
        &'a self,
        session_id: &'a str,
        agentic_host: Option<&'a str>,
    ) -> Result<ResponseValue<types::ReadSessionResponse>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/sessions/{}", self.baseurl, encode_path(& session_id.to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .get(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "read_session",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Delete a session and abort its active turn

Needs the `delete` session grant and a grant for the session's provider
instance. An active turn is aborted, including a run still waiting for
a run slot; its request answers `RUN_CANCELLED`. Deletion cannot undo
external tool effects.


Sends a `DELETE` request to `/v1/sessions/{sessionId}`

Arguments:
- `session_id`: The session id returned by `createSession`: `ses_{hostId}.{random}`,
naming the host process that holds the session (see `SessionInfo.id`).

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

*/
    pub async fn delete_session<'a>(
        &'a self,
        session_id: &'a str,
        agentic_host: Option<&'a str>,
    ) -> Result<ResponseValue<()>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/sessions/{}", self.baseurl, encode_path(& session_id.to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self.client.delete(url).headers(header_map).build()?;
        let info = OperationInfo {
            operation_id: "delete_session",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            204u16 => Ok(ResponseValue::empty(response)),
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Keep only the first turns of a session (explicit prefix truncation)

Keeps the first `keepTurns` recorded turns (and any history imported at
creation) and drops the rest, advancing the revision. Nothing that stays
is rewritten, so native state (signed blocks) stays valid and a cut
never separates a tool call from its result. Accounting is untouched.
It follows a run's rules: a stale revision is
`SESSION_REVISION_CONFLICT`, an active turn `SESSION_BUSY`. An
interrupted session may be truncated (to its last good turn, or
further), which makes it ready again: the documented way to recover a
conversation without starting over. Needs the `continue` grant.


Sends a `POST` request to `/v1/sessions/{sessionId}/truncate`

Arguments:
- `session_id`: The session id returned by `createSession`: `ses_{hostId}.{random}`,
naming the host process that holds the session (see `SessionInfo.id`).

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `body`
*/
    pub async fn truncate_session<'a>(
        &'a self,
        session_id: &'a str,
        agentic_host: Option<&'a str>,
        body: &'a types::TruncateSessionRequest,
    ) -> Result<ResponseValue<types::CreateSessionResponse>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/sessions/{}/truncate", self.baseurl, encode_path(& session_id
            .to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .post(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .json(&body)
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "truncate_session",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Copy a session up to a turn boundary into a new session on the same host

Creates a new session owned by the caller on the same host, with the
source's provider instance, account, model, mode, instructions and
`nativeHistory`, holding its history, recorded turns and native state
up to the boundary `revision` (default: the current one). Native state
is copied inside the host and never leaves it. The source is not
changed, and both sessions then continue independently.

The boundary is 0 (the imported history only), the current revision,
or the revision of a turn still recorded. The fork starts at that
revision, with the source's turns up to it (a revision numbers a state
of the history, and the fork holds that state), and with its own
accounting at zero (what the source consumed stays counted once, on
the source). An interrupted source forks from its last good state and
the fork is ready. A source with an active turn is `SESSION_BUSY`; a
boundary the session no longer holds (truncated, or not yet reached)
is `SESSION_REVISION_CONFLICT` with `currentRevision`. Needs the
`read` and `create` grants and a grant for the provider instance;
store capacity applies as for `createSession`, and so do idempotency
keys.


Sends a `POST` request to `/v1/sessions/{sessionId}/fork`

Arguments:
- `session_id`: The session id returned by `createSession`: `ses_{hostId}.{random}`,
naming the host process that holds the session (see `SessionInfo.id`).

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `idempotency_key`: Makes a retry safe. The first accepted request with this key (per
caller) records its outcome; a repeat with the same body replays it,
never advancing a revision or calling the model again, after checking
current access again (a deleted session is `SESSION_NOT_FOUND`). The
same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
that a repeat of a `run` or `streamRun` sent with
`onDisconnect: continue` joins the run it started (a stream from the
run's first event). A replayed stream sends the run's events with
their original ids while the host still keeps the run (`getRun`),
else the recorded outcome alone, with its original id. Keys are
kept for a bounded time and number (host `idempotency` settings).

- `body`
*/
    pub async fn fork_session<'a>(
        &'a self,
        session_id: &'a str,
        agentic_host: Option<&'a str>,
        idempotency_key: Option<&'a types::ForkSessionIdempotencyKey>,
        body: &'a types::ForkSessionRequest,
    ) -> Result<ResponseValue<types::CreateSessionResponse>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/sessions/{}/fork", self.baseurl, encode_path(& session_id
            .to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        if let Some(value) = idempotency_key {
            header_map.append("Idempotency-Key", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .post(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .json(&body)
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "fork_session",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            201u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Run one model turn, stateless or continuing a session

A stateless run sends the whole context (`instructions`, `history`,
`attachments`, `retrieval`). A session run sends only `input` and the
session handle `{id, revision}`; it needs the `continue` grant, may not
override the session's instructions or history
(`SESSION_OVERRIDE_REJECTED`) and accepts no attachments or retrieval
(`SESSION_CONTEXT_UNSUPPORTED`). Exactly one turn may be active in a
session: a stale revision is `SESSION_REVISION_CONFLICT`, an active
turn is `SESSION_BUSY`, and neither starts a model call.


Sends a `POST` request to `/v1/runs`

Arguments:
- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `idempotency_key`: Makes a retry safe. The first accepted request with this key (per
caller) records its outcome; a repeat with the same body replays it,
never advancing a revision or calling the model again, after checking
current access again (a deleted session is `SESSION_NOT_FOUND`). The
same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
that a repeat of a `run` or `streamRun` sent with
`onDisconnect: continue` joins the run it started (a stream from the
run's first event). A replayed stream sends the run's events with
their original ids while the host still keeps the run (`getRun`),
else the recorded outcome alone, with its original id. Keys are
kept for a bounded time and number (host `idempotency` settings).

- `body`
*/
    pub async fn run<'a>(
        &'a self,
        agentic_host: Option<&'a str>,
        idempotency_key: Option<&'a types::RunIdempotencyKey>,
        body: &'a types::RunRequest,
    ) -> Result<ResponseValue<types::RunResult>, Error<ByteStream>> {
        let url = format!("{}/v1/runs", self.baseurl,);
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        if let Some(value) = idempotency_key {
            header_map.append("Idempotency-Key", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .post(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .json(&body)
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "run",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            502u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            504u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Run one model turn and stream its events (Server-Sent Events)

The same request and the same session rules as `run`. Refusals known
before the stream starts (401, 403, 404, 408, 409, 413, 415, 421, 422, 501, 503)
are ordinary problem responses. Once the run is admitted the answer is
`text/event-stream`: each SSE message has an `id`, an `event` equal to
the event's `type`, and `data` holding one `RunEvent` as JSON. The
stream ends after `run.completed`, `run.requires_action` or
`run.failed`; a provider failure after admission is a `run.failed`
whose `problem` carries the code `run` would answer with
(`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`, `PROVIDER_AUTH_FAILED`,
`PROVIDER_REJECTED`, `PROVIDER_ERROR`, `PROVIDER_TIMEOUT`), including
`retryAfterSeconds` where waiting helps. During long silences the host sends SSE comment lines
(`: keep-alive`). A client that disconnects after model work started
leaves the session `interrupted` (reason `disconnected`); before, the
session stays `ready`. With `onDisconnect: continue` the run goes on
instead; rejoin it with `streamRunEvents` and `Last-Event-ID`. A
retry of a `continue` run with the same `Idempotency-Key` while it is
still active joins it: the answer streams its events from the first,
and no second turn starts.


Sends a `POST` request to `/v1/runs/stream`

Arguments:
- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `idempotency_key`: Makes a retry safe. The first accepted request with this key (per
caller) records its outcome; a repeat with the same body replays it,
never advancing a revision or calling the model again, after checking
current access again (a deleted session is `SESSION_NOT_FOUND`). The
same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
that a repeat of a `run` or `streamRun` sent with
`onDisconnect: continue` joins the run it started (a stream from the
run's first event). A replayed stream sends the run's events with
their original ids while the host still keeps the run (`getRun`),
else the recorded outcome alone, with its original id. Keys are
kept for a bounded time and number (host `idempotency` settings).

- `body`
*/
    pub async fn stream_run<'a>(
        &'a self,
        agentic_host: Option<&'a str>,
        idempotency_key: Option<&'a types::StreamRunIdempotencyKey>,
        body: &'a types::RunRequest,
    ) -> Result<ResponseValue<ByteStream>, Error<ByteStream>> {
        let url = format!("{}/v1/runs/stream", self.baseurl,);
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        if let Some(value) = idempotency_key {
            header_map.append("Idempotency-Key", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self.client.post(url).json(&body).headers(header_map).build()?;
        let info = OperationInfo {
            operation_id: "stream_run",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => Ok(ResponseValue::stream(response)),
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            501u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Continue a run that waits for function results or approvals

Answers the run's `requiredAction`: `functionResults` for
`function_calls`, `approvals` for `approvals`, with exactly the call ids
it asked for (otherwise `ACTION_MISMATCH`). The same turn continues and
this request answers like `run`: completed, or waiting again. A run that
is still active but waits for no action is `RUN_NOT_WAITING`; one that
has finished (or never existed for this caller) is `RUN_NOT_FOUND`.
Needs the run's provider grant and,
for a session run, the `continue` grant.

A waiting run has no connection to lose: the request that answered
`requires_action` (or the stream that ended with `run.requires_action`)
is over, and closing it changes nothing. The run stays the session's
active turn, with retention suspended, until it is answered here,
cancelled (`cancelRun`), its session deleted, or the host stops (reason
`shutdown`). Losing the connection of this request once the turn
continues is a disconnect after model work started: the session is
interrupted (reason `disconnected`).


Sends a `POST` request to `/v1/runs/{runId}/actions`

Arguments:
- `run_id`: The run id, known from the run's result, its stream's `run.started` or
`SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
process that runs it.

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `idempotency_key`: Makes a retry safe. The first accepted request with this key (per
caller) records its outcome; a repeat with the same body replays it,
never advancing a revision or calling the model again, after checking
current access again (a deleted session is `SESSION_NOT_FOUND`). The
same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
that a repeat of a `run` or `streamRun` sent with
`onDisconnect: continue` joins the run it started (a stream from the
run's first event). A replayed stream sends the run's events with
their original ids while the host still keeps the run (`getRun`),
else the recorded outcome alone, with its original id. Keys are
kept for a bounded time and number (host `idempotency` settings).

- `body`
*/
    pub async fn submit_run_actions<'a>(
        &'a self,
        run_id: &'a str,
        agentic_host: Option<&'a str>,
        idempotency_key: Option<&'a types::SubmitRunActionsIdempotencyKey>,
        body: &'a types::SubmitRunActionsRequest,
    ) -> Result<ResponseValue<types::RunResult>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/runs/{}/actions", self.baseurl, encode_path(& run_id.to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        if let Some(value) = idempotency_key {
            header_map.append("Idempotency-Key", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .post(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .json(&body)
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "submit_run_actions",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            429u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            502u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            503u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            504u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Continue a waiting run and stream the rest of its events

`submitRunActions` with a streamed answer, exactly as `streamRun`
streams: refusals before the stream starts are problem responses.


Sends a `POST` request to `/v1/runs/{runId}/actions/stream`

Arguments:
- `run_id`: The run id, known from the run's result, its stream's `run.started` or
`SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
process that runs it.

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `idempotency_key`: Makes a retry safe. The first accepted request with this key (per
caller) records its outcome; a repeat with the same body replays it,
never advancing a revision or calling the model again, after checking
current access again (a deleted session is `SESSION_NOT_FOUND`). The
same key with a different body is `IDEMPOTENCY_KEY_REUSED`; a repeat
while the first is still running is `IDEMPOTENCY_KEY_IN_USE`, except
that a repeat of a `run` or `streamRun` sent with
`onDisconnect: continue` joins the run it started (a stream from the
run's first event). A replayed stream sends the run's events with
their original ids while the host still keeps the run (`getRun`),
else the recorded outcome alone, with its original id. Keys are
kept for a bounded time and number (host `idempotency` settings).

- `body`
*/
    pub async fn stream_run_actions<'a>(
        &'a self,
        run_id: &'a str,
        agentic_host: Option<&'a str>,
        idempotency_key: Option<&'a types::StreamRunActionsIdempotencyKey>,
        body: &'a types::SubmitRunActionsRequest,
    ) -> Result<ResponseValue<ByteStream>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/runs/{}/actions/stream", self.baseurl, encode_path(& run_id
            .to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        if let Some(value) = idempotency_key {
            header_map.append("Idempotency-Key", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self.client.post(url).json(&body).headers(header_map).build()?;
        let info = OperationInfo {
            operation_id: "stream_run_actions",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => Ok(ResponseValue::stream(response)),
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            408u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            409u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            413u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            415u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Cancel an active run of the caller

Cancels a run that is waiting for a run slot or running. Cancelled
before model work started, its session returns to `ready`; after,
the session becomes `interrupted`. The cancelled run's own request
answers `RUN_CANCELLED`. The answer to this request reports the
session as it is once the cancellation has settled. Cancelling a
session run needs the `continue` grant; every run needs its
provider grant. A run of another subject, or one that is no longer
active, is `RUN_NOT_FOUND`.


Sends a `POST` request to `/v1/runs/{runId}/cancel`

Arguments:
- `run_id`: The run id, known from the run's result, its stream's `run.started` or
`SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
process that runs it.

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

*/
    pub async fn cancel_run<'a>(
        &'a self,
        run_id: &'a str,
        agentic_host: Option<&'a str>,
    ) -> Result<ResponseValue<types::CancelRunResponse>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/runs/{}/cancel", self.baseurl, encode_path(& run_id.to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .post(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "cancel_run",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Read a run's state and outcome

The run's `status`, its session at the current revision (a session
run), its `RunResult` once it completed or paused, its problem once
it failed or was cancelled, and the ids of its first still-buffered
and last events. Runs are readable while they are active and for the
host's `runs.retentionMs` after they end (at most `runs.maxEntries`
ended runs, the oldest forgotten first), so an application whose
answer was lost (a dropped `run`, a stream cut before its last event)
can reconcile it without running the turn again. Only the subject
that started the run reads it, with the run's provider grant and, for
a session run, the `read` grant; any other caller, an unknown run and
a forgotten one are `RUN_NOT_FOUND`.


Sends a `GET` request to `/v1/runs/{runId}`

Arguments:
- `run_id`: The run id, known from the run's result, its stream's `run.started` or
`SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
process that runs it.

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

*/
    pub async fn get_run<'a>(
        &'a self,
        run_id: &'a str,
        agentic_host: Option<&'a str>,
    ) -> Result<ResponseValue<types::RunState>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/runs/{}", self.baseurl, encode_path(& run_id.to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self
            .client
            .get(url)
            .header(
                ::reqwest::header::ACCEPT,
                ::reqwest::header::HeaderValue::from_static("application/json"),
            )
            .headers(header_map)
            .build()?;
        let info = OperationInfo {
            operation_id: "get_run",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => ResponseValue::from_response(response).await,
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
    /**Rejoin a run's event stream after a Last-Event-ID

Replays the run's buffered events after the one named by
`Last-Event-ID` (absent: from the first), each with the id its
original stream carried, then follows the run live until it ends or
pauses: the stream ends after `run.completed`, `run.requires_action`
or `run.failed` (a cancellation is a `run.failed` with
`RUN_CANCELLED`). A run that has already paused or ended replays up
to that event and ends. Every event is sent once and in order;
several readers may follow one run. Reading never stops the run: a
reader that goes away is only a reader gone, whatever the run's
`onDisconnect`. The same access and retention as `getRun`. A
`Last-Event-ID` older than the oldest event still buffered is
`RUN_EVENTS_EXPIRED` (410, with `firstEventId`): read `getRun` for the
outcome, or rejoin from `firstEventId - 1` accepting the gap.


Sends a `GET` request to `/v1/runs/{runId}/events`

Arguments:
- `run_id`: The run id, known from the run's result, its stream's `run.started` or
`SESSION_BUSY`'s `activeRunId`: `run_{hostId}.{random}`, naming the host
process that runs it.

- `agentic_host`: The host process the request is meant for: the `hostId` in the id of
the session or run it names (`ses_{hostId}.…`, `run_{hostId}.…`).
Clients send it on every request that names an existing session or
run, and a proxy in front of several hosts routes on it. A host that
is not the one named answers `MISDIRECTED_REQUEST` (421) before
reading the body, with nothing done. Where the id in the path names a
host, the id wins over the header. `run` and `streamRun` name their
session in the body: the host checks the header before reading the
body, then the body's `session.id` before admitting the run. Ids
without a host part (older hosts) name no host; then the header alone
decides.

- `last_event_id`: The id of the last event the caller received (the SSE `id` of that
message, a positive integer); the stream resumes after it. Absent,
the stream starts at the run's first event. Anything but a positive
integer in decimal is `VALIDATION_ERROR`.

*/
    pub async fn stream_run_events<'a>(
        &'a self,
        run_id: &'a str,
        agentic_host: Option<&'a str>,
        last_event_id: Option<&'a types::StreamRunEventsLastEventId>,
    ) -> Result<ResponseValue<ByteStream>, Error<ByteStream>> {
        let url = format!(
            "{}/v1/runs/{}/events", self.baseurl, encode_path(& run_id.to_string()),
        );
        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(3usize);
        header_map
            .append(
                ::reqwest::header::HeaderName::from_static("api-version"),
                ::reqwest::header::HeaderValue::from_static(Self::api_version()),
            );
        if let Some(value) = agentic_host {
            header_map.append("Agentic-Host", value.to_string().try_into()?);
        }
        if let Some(value) = last_event_id {
            header_map.append("Last-Event-ID", value.to_string().try_into()?);
        }
        #[allow(unused_mut)]
        let mut request = self.client.get(url).headers(header_map).build()?;
        let info = OperationInfo {
            operation_id: "stream_run_events",
        };
        self.pre(&mut request, &info).await?;
        let result = self.exec(request, &info).await;
        self.post(&result, &info).await?;
        let response = result?;
        match response.status().as_u16() {
            200u16 => Ok(ResponseValue::stream(response)),
            401u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            403u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            404u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            410u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            421u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            422u16 => Err(Error::ErrorResponse(ResponseValue::stream(response))),
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
}
/// Items consumers will typically use such as the Client.
pub mod prelude {
    #[allow(unused_imports)]
    pub use super::Client;
}
