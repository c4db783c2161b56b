//! The hand-written client against a one-response fake server: what it sends, how it reads answers.

mod support;

use agentic_driver_client::{types, Client, Error, Event, ProblemKind};
use support::FakeServer;

const RESULT: &str = r#"{"id":"run_1","status":"completed","output":{"text":"echo: hi"},"usage":{"inputTokens":1,"outputTokens":2,"cachedInputTokens":0,"cacheWriteTokens":0,"reasoningTokens":0},"cost":null,"retries":{"count":0,"inputTokens":0,"outputTokens":0,"cost":null},"servedModel":"echo-1"}"#;

fn session() -> types::SessionInfo {
    serde_json::from_value(serde_json::json!({
        "id": "ses_1", "revision": 4, "status": "ready", "provider": "echo", "model": "echo-1", "mode": "history",
        "createdAt": "2026-11-29T18:50:42.123Z", "updatedAt": "2026-11-29T18:50:42.123Z", "expiresAt": null,
        "messageCount": 0, "recordBytes": 0, "hostId": "h", "nativeHistory": "full", "runCount": 0, "cost": null,
        "servedModels": [],
        "usage": {"inputTokens": 0, "outputTokens": 0, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0},
        "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": null}
    }))
    .unwrap()
}

#[tokio::test]
async fn sends_the_token_body_and_idempotency_key() {
    let server = FakeServer::start(200, "application/json", "", RESULT).await;
    let client = Client::new(&format!("{}/", server.base_url), "secret-token-123456").unwrap();
    let result = client.run(&session().run_request("hi"), Some("k-1")).await.unwrap();
    assert_eq!(result.output.text, "echo: hi");
    let request = &server.requests()[0];
    assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", "/v1/runs"));
    assert_eq!(request.header("authorization"), Some("Bearer secret-token-123456"));
    assert_eq!(request.header("idempotency-key"), Some("k-1"));
    let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"provider": "echo", "model": "echo-1", "input": "hi", "session": {"id": "ses_1", "revision": 4}})
    );
}

#[tokio::test]
async fn sends_no_authorization_without_a_token() {
    let server = FakeServer::start(200, "application/json", "", r#"{"status":"ok"}"#).await;
    Client::new(&server.base_url, "").unwrap().get_health().await.unwrap();
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[tokio::test]
async fn escapes_path_parameters_and_deletes() {
    let server = FakeServer::start(204, "application/json", "", "").await;
    Client::new(&server.base_url, "t".repeat(16).as_str()).unwrap().delete_session("ses_a/b").await.unwrap();
    let request = &server.requests()[0];
    assert_eq!((request.method.as_str(), request.path.as_str()), ("DELETE", "/v1/sessions/ses_a%2Fb"));
}

#[tokio::test]
async fn returns_typed_problems() {
    let problem = r#"{"type":"urn:x","title":"Session busy","status":409,"code":"SESSION_BUSY","detail":"busy","activeRunId":"run_9"}"#;
    let server = FakeServer::start(409, "application/problem+json", "Retry-After: 1\r\n", problem).await;
    let client = Client::new(&server.base_url, "t".repeat(16).as_str()).unwrap();
    let error = client.run(&types::RunRequest::new("echo", "echo-1", "x"), None).await.unwrap_err();
    assert_eq!(error.kind(), Some(&ProblemKind::SessionBusy { active_run_id: "run_9".into() }));
    let problem = error.problem().unwrap();
    assert_eq!((problem.status, problem.retry_after_seconds, problem.detail.as_str()), (409, Some(1), "busy"));
}

#[tokio::test]
async fn reports_answers_that_are_not_problems() {
    let server = FakeServer::start(502, "text/html", "", "<html>bad gateway</html>").await;
    let client = Client::builder().base_url(&server.base_url).token("t".repeat(16)).max_retries(0).build().unwrap();
    let error = client.get_discovery().await.unwrap_err();
    assert!(
        matches!(&error, Error::UnexpectedStatus(answer) if answer.status == 502 && answer.body.contains("bad gateway")),
        "{error}"
    );
}

#[tokio::test]
async fn refuses_an_invalid_idempotency_key_before_sending() {
    let server = FakeServer::start(200, "application/json", "", RESULT).await;
    let client = Client::new(&server.base_url, "t".repeat(16).as_str()).unwrap();
    let error = client.run(&types::RunRequest::new("echo", "echo-1", "x"), Some("")).await.unwrap_err();
    assert!(matches!(error, Error::InvalidRequest(_)), "{error}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn streams_typed_events_and_keeps_unknown_ones() {
    let body = format!(
        "id: 1\nevent: run.started\ndata: {{\"type\":\"run.started\",\"runId\":\"run_1\"}}\n\n: keep-alive\n\n\
         id: 2\nevent: run.progress\ndata: {{\"type\":\"run.progress\",\"percent\":50}}\n\n\
         id: 3\nevent: run.completed\ndata: {{\"type\":\"run.completed\",\"run\":{RESULT}}}\n\n"
    );
    let server = FakeServer::start(200, "text/event-stream; charset=utf-8", "", &body).await;
    let client = Client::new(&server.base_url, "t".repeat(16).as_str()).unwrap();
    let mut stream = client.stream_run(&types::RunRequest::new("echo", "echo-1", "x"), Some("k")).await.unwrap();
    let mut types = Vec::new();
    while let Some(event) = stream.next().await {
        let event = event.unwrap();
        if let Event::Unknown(unknown) = &event {
            assert_eq!(unknown.data["percent"], 50);
        }
        types.push(event.event_type().to_string());
    }
    assert_eq!(types, ["run.started", "run.progress", "run.completed"]);
    let requests = server.requests();
    assert_eq!((requests.len(), requests[0].path.as_str()), (1, "/v1/runs/stream"));
    assert_eq!(requests[0].header("idempotency-key"), Some("k"));
}

#[tokio::test]
async fn a_refused_stream_is_the_typed_error() {
    let problem = r#"{"type":"urn:x","title":"Conflict","status":409,"code":"SESSION_REVISION_CONFLICT","detail":"d","currentRevision":5}"#;
    let server = FakeServer::start(409, "application/problem+json", "", problem).await;
    let client = Client::new(&server.base_url, "t".repeat(16).as_str()).unwrap();
    let error = client.stream_run(&types::RunRequest::new("echo", "echo-1", "x"), None).await.err().unwrap();
    assert_eq!(error.kind(), Some(&ProblemKind::SessionRevisionConflict { current_revision: 5 }));
    assert_eq!(server.requests().len(), 1);
}
