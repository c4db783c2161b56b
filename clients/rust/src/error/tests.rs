//! Unit tests of the typed errors (`super`).

use super::*;

fn problem(code: &str, fields: &str) -> Vec<u8> {
    format!(
        r#"{{"type":"urn:agentic-driver:problem:{code}","title":"T","status":409,"code":"{code}","detail":"about {code}"{fields}}}"#
    )
    .into_bytes()
}

/// The fields the contract guarantees for SESSION_REVISION_CONFLICT, SESSION_BUSY,
/// MISDIRECTED_REQUEST and RUN_EVENTS_EXPIRED, and the owner HOST_UNAVAILABLE names for a request
/// about a session or run.
const GUARANTEED: &str =
    r#","currentRevision":1,"activeRunId":"run_1","hostId":"a","ownerHostId":"b","firstEventId":40"#;

#[test]
fn the_guaranteed_fields_are_required() {
    for code in ["SESSION_REVISION_CONFLICT", "SESSION_BUSY", "MISDIRECTED_REQUEST", "RUN_EVENTS_EXPIRED"] {
        assert!(Problem::parse(409, None, &problem(code, "")).is_none(), "{code} without its field");
        let error = error_from_answer(409, &HeaderMap::new(), &problem(code, ""));
        assert!(matches!(&error, Error::UnexpectedStatus(answer) if answer.status == 409), "{error}");
    }
    let only_the_answering_host = problem("MISDIRECTED_REQUEST", r#","hostId":"a""#);
    assert!(Problem::parse(421, None, &only_the_answering_host).is_none(), "MISDIRECTED_REQUEST needs both hosts");
    let kind = Problem::parse(421, None, &problem("MISDIRECTED_REQUEST", GUARANTEED)).unwrap().kind;
    assert_eq!(kind, ProblemKind::MisdirectedRequest { host_id: "a".into(), owner_host_id: "b".into() });
    let kind = Problem::parse(503, None, &problem("HOST_UNAVAILABLE", GUARANTEED)).unwrap().kind;
    assert_eq!(kind, ProblemKind::HostUnavailable { owner_host_id: Some("b".into()) });
    // The proxy's pool has no host for new work: no owner to name.
    let kind = Problem::parse(503, None, &problem("HOST_UNAVAILABLE", "")).unwrap().kind;
    assert_eq!(kind, ProblemKind::HostUnavailable { owner_host_id: None });
}

#[test]
fn run_events_expired_carries_the_oldest_event_still_held() {
    let error = error_from_answer(410, &HeaderMap::new(), &problem("RUN_EVENTS_EXPIRED", r#","firstEventId":40"#));
    assert_eq!(error.kind(), Some(&ProblemKind::RunEventsExpired { first_event_id: 40 }));
    assert_eq!(error.first_event_id(), Some(40));
    assert_eq!(error.code(), Some("RUN_EVENTS_EXPIRED"));
    let other = error_from_answer(404, &HeaderMap::new(), &problem("RUN_NOT_FOUND", r#","firstEventId":40"#));
    assert_eq!(other.first_event_id(), None, "only RUN_EVENTS_EXPIRED has it");
}

#[test]
fn request_id_reads_the_header_then_the_body() {
    let mut headers = HeaderMap::new();
    headers.insert("x-request-id", "header-id".parse().unwrap());
    let body = problem("SESSION_NOT_FOUND", r#","requestId":"body-id""#);
    assert_eq!(error_from_answer(404, &headers, &body).request_id(), Some("header-id"));
    assert_eq!(error_from_answer(404, &HeaderMap::new(), &body).request_id(), Some("body-id"));
    let bare = error_from_answer(404, &HeaderMap::new(), &problem("SESSION_NOT_FOUND", ""));
    assert_eq!(bare.request_id(), None);
    let page = error_from_answer(502, &headers, b"<html>bad gateway</html>");
    assert_eq!(page.request_id(), Some("header-id"));
}

#[test]
fn retry_after_reads_the_header_then_the_body() {
    let mut headers = HeaderMap::new();
    headers.insert(reqwest::header::RETRY_AFTER, "3".parse().unwrap());
    let error = error_from_answer(503, &headers, &problem("HOST_BUSY", r#","retryAfterSeconds":9"#));
    assert_eq!(error.retry_after(), Some(std::time::Duration::from_secs(3)));
    let error = error_from_answer(503, &HeaderMap::new(), &problem("HOST_BUSY", r#","retryAfterSeconds":9"#));
    assert_eq!(error.retry_after(), Some(std::time::Duration::from_secs(9)));
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
        "ATTACHMENT_UNSUPPORTED",
        "MALFORMED_REQUEST",
        "MISDIRECTED_REQUEST",
        "HOST_UNAVAILABLE",
        "RUN_EVENTS_EXPIRED",
    ];
    let mut kinds = Vec::new();
    for code in codes {
        let parsed = Problem::parse(400, None, &problem(code, GUARANTEED)).expect(code);
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
    assert_eq!(busy.kind, ProblemKind::SessionBusy { active_run_id: "run_1".into() });
    assert_eq!(busy.retry_after_seconds, Some(2));
    assert_eq!(busy.to_string(), "SESSION_BUSY (409): about SESSION_BUSY");

    let conflict = Problem::parse(409, None, &problem("SESSION_REVISION_CONFLICT", r#","currentRevision":3"#));
    assert_eq!(conflict.unwrap().kind, ProblemKind::SessionRevisionConflict { current_revision: 3 });
}

#[test]
fn the_optional_fields_the_table_gives_a_code_are_read_when_sent() {
    let fields =
        r#","attachment":2,"mediaType":"image/tiff","provider":"echo","limit":"maxAttachmentBytes","maximum":9"#;
    let kind = Problem::parse(422, None, &problem("ATTACHMENT_UNSUPPORTED", fields)).unwrap().kind;
    let expected = ProblemKind::AttachmentUnsupported {
        attachment: Some(2),
        media_type: Some("image/tiff".into()),
        provider: Some("echo".into()),
        limit: Some("maxAttachmentBytes".into()),
        maximum: Some(9),
    };
    assert_eq!(kind, expected);
    let kind = Problem::parse(431, None, &problem("HEADERS_TOO_LARGE", r#","limit":"maxHeaderBytes","maximum":8"#));
    assert_eq!(
        kind.unwrap().kind,
        ProblemKind::HeadersTooLarge { limit: Some("maxHeaderBytes".into()), maximum: Some(8) }
    );
    let kind = Problem::parse(408, None, &problem("REQUEST_TIMEOUT", "")).unwrap().kind;
    assert_eq!(kind, ProblemKind::RequestTimeout { limit: None, maximum: None });
    let kind = Problem::parse(422, None, &problem("VALIDATION_ERROR", "")).unwrap().kind;
    assert_eq!(kind, ProblemKind::ValidationError { errors: Vec::new() }, "no errors sent: an empty list");
}

#[test]
fn the_four_session_codes_are_different_variants() {
    let kinds: Vec<ProblemKind> =
        ["SESSION_REVISION_CONFLICT", "SESSION_BUSY", "SESSION_INTERRUPTED", "SESSION_ACCOUNT_REQUIRED"]
            .iter()
            .map(|code| Problem::parse(409, None, &problem(code, GUARANTEED)).unwrap().kind)
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
    assert!(matches!(&error, Error::UnexpectedStatus(answer) if answer.status == 502));
    assert_eq!(error.status(), Some(502));
    assert!(error.kind().is_none());
}

#[test]
fn each_code_is_in_its_group_and_no_other() {
    let group = |code: &str| error_from_answer(409, &HeaderMap::new(), &problem(code, GUARANTEED)).group();
    assert_eq!(group("SESSION_NOT_FOUND"), Some(ProblemGroup::NotFound));
    assert_eq!(group("SESSION_BUSY"), Some(ProblemGroup::Conflict));
    assert_eq!(group("VALIDATION_ERROR"), Some(ProblemGroup::Unprocessable));
    assert_eq!(group("PROVIDER_TIMEOUT"), Some(ProblemGroup::ProviderFailed));
    assert_eq!(group("PROVIDER_RATE_LIMITED"), Some(ProblemGroup::ProviderFailed));
    assert_eq!(group("HOST_BUSY"), Some(ProblemGroup::RetryLater));
    assert_eq!(group("HOST_UNAVAILABLE"), Some(ProblemGroup::RetryLater));
    assert_eq!(group("UNAUTHENTICATED"), None);
    assert_eq!(group("A_CODE_FROM_A_NEWER_HOST"), None);
}
