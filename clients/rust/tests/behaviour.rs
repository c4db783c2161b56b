//! clients/BEHAVIOUR.md, item by item, against scripted loopback servers: retries and their
//! waits, idempotency keys, timeouts, the error tree, headers, logging, raw responses and the
//! busy helper.

mod support;

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use agentic_driver_client::{types, Client, Error, ProblemKind, TimeoutKind, Timeouts, USER_AGENT_VALUE};
use support::{Action, ScriptedServer};

const TOKEN: &str = "behaviour-token-0123456789";
const RESULT: &str = r#"{"id":"run_1","status":"completed","output":{"text":"echo: hi"},"usage":{"inputTokens":1,"outputTokens":2,"cachedInputTokens":0,"cacheWriteTokens":0,"reasoningTokens":0},"cost":null,"retries":{"count":0,"inputTokens":0,"outputTokens":0,"cost":null},"servedModel":"echo-1"}"#;

fn problem(status: u16, code: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"urn:agentic-driver:problem:{code}","title":"T","status":{status},"code":"{code}","detail":"about {code}"{extra}}}"#
    )
}

fn client(server: &ScriptedServer) -> Client {
    Client::builder().base_url(&server.base_url).token(TOKEN).build().unwrap()
}

fn request() -> types::RunRequest {
    types::RunRequest::new("echo", "echo-1", "hi")
}

fn keys(server: &ScriptedServer) -> Vec<String> {
    server.requests().iter().map(|request| request.header("idempotency-key").unwrap_or_default().to_string()).collect()
}

fn session_info(id: &str, status: &str, revision: u64) -> serde_json::Value {
    serde_json::json!({
        "id": id, "revision": revision, "status": status, "provider": "echo", "model": "echo-1",
        "mode": "history", "createdAt": "2026-11-29T18:50:42.123Z", "updatedAt": "2026-11-29T18:50:42.123Z",
        "expiresAt": null, "messageCount": 0, "recordBytes": 0, "hostId": "h", "nativeHistory": "full",
        "runCount": 0, "cost": null, "servedModels": [],
        "usage": {"inputTokens": 0, "outputTokens": 0, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0},
        "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": null}
    })
}

fn session_json(status: &str, revision: u64) -> String {
    let session = session_info("ses_1", status, revision);
    serde_json::json!({"session": session, "instructions": null, "history": [], "turns": []}).to_string()
}

#[tokio::test]
async fn a_dropped_run_is_retried_with_the_same_key() {
    let server = ScriptedServer::start(vec![Action::Drop, Action::json(200, RESULT)]).await;
    let response = client(&server).run_with_response(&request(), None).await.unwrap();
    assert_eq!((response.status(), response.attempts()), (200, 2));
    let keys = keys(&server);
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1], "one key per logical call, on every attempt");
    let key = uuid::Uuid::parse_str(&keys[0]).expect("a UUID");
    assert_eq!(key.get_version_num(), 4);
}

#[tokio::test]
async fn a_fork_keeps_its_key_across_retries_and_sends_the_owner_of_the_session_id() {
    const SOURCE: &str = "ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ";
    let store_full = Action::problem(503, "Retry-After: 0\r\n", &problem(503, "SESSION_STORE_FULL", ""));
    let forked = serde_json::json!({"session": session_info("ses_alpha-1.fork", "ready", 2)}).to_string();
    let server = ScriptedServer::start(vec![Action::Drop, store_full, Action::json(201, &forked)]).await;
    let client = client(&server);
    let body = types::ForkSessionRequest { revision: Some(2) };
    let response = client.fork_session_with_response(SOURCE, &body, None).await.unwrap();
    assert_eq!((response.status(), response.attempts()), (201, 3));
    assert_eq!((response.value().session.id.as_str(), response.value().session.revision), ("ses_alpha-1.fork", 2));
    let sent = keys(&server);
    assert_eq!(sent.len(), 3);
    assert!(sent.iter().all(|key| *key == sent[0]), "one key per logical call, on every attempt: {sent:?}");
    assert_eq!(uuid::Uuid::parse_str(&sent[0]).expect("a UUID").get_version_num(), 4);
    for request in server.requests() {
        assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", &*format!("/v1/sessions/{SOURCE}/fork")));
        assert_eq!(request.header("agentic-host"), Some("alpha-1"));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&request.body).unwrap(),
            serde_json::json!({"revision": 2})
        );
    }

    client.fork_session(SOURCE, &types::ForkSessionRequest::default(), None).await.unwrap();
    client.fork_session(SOURCE, &types::ForkSessionRequest::default(), Some("caller-fork-1")).await.unwrap();
    let keys = keys(&server);
    assert_ne!(keys[3], sent[0], "another call, another key");
    assert_eq!(keys[4], "caller-fork-1");
    assert_eq!(server.requests()[3].body, "{}", "the default boundary is the current revision: no field");
}

#[tokio::test]
async fn each_call_has_its_own_key_and_a_callers_key_is_sent_as_given() {
    let server = ScriptedServer::start(vec![Action::json(200, RESULT)]).await;
    let client = client(&server);
    client.run(&request(), None).await.unwrap();
    client.run(&request(), None).await.unwrap();
    client.run(&request(), Some("caller-key-1")).await.unwrap();
    let keys = keys(&server);
    assert_ne!(keys[0], keys[1]);
    assert_eq!(keys[2], "caller-key-1");
}

#[tokio::test]
async fn operations_without_the_parameter_send_no_key() {
    let server = ScriptedServer::start(vec![Action::json(200, r#"{"runId":"run_1","status":"cancelled"}"#)]).await;
    let _ = client(&server).cancel_run("run_1").await;
    assert_eq!(server.requests()[0].header("idempotency-key"), None);
}

#[tokio::test]
async fn host_busy_is_retried_after_its_retry_after() {
    let busy = Action::problem(503, "Retry-After: 1\r\n", &problem(503, "HOST_BUSY", ""));
    let server = ScriptedServer::start(vec![busy, Action::json(200, RESULT)]).await;
    let started = Instant::now();
    let response = client(&server).run_with_response(&request(), None).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(1), "waited {:?}", started.elapsed());
    assert_eq!(response.attempts(), 2);
    let keys = keys(&server);
    assert_eq!(keys[0], keys[1]);
}

#[tokio::test]
async fn a_key_in_use_is_retried() {
    let in_use = Action::problem(409, "Retry-After: 0\r\n", &problem(409, "IDEMPOTENCY_KEY_IN_USE", ""));
    let server = ScriptedServer::start(vec![in_use, Action::json(200, RESULT)]).await;
    assert_eq!(client(&server).run_with_response(&request(), None).await.unwrap().attempts(), 2);
}

#[tokio::test]
async fn a_revision_conflict_is_attempted_once_and_typed() {
    let conflict = Action::problem(
        409,
        "x-should-retry: false\r\n",
        &problem(409, "SESSION_REVISION_CONFLICT", r#","currentRevision":7"#),
    );
    let server = ScriptedServer::start(vec![conflict, Action::json(200, RESULT)]).await;
    let error = client(&server).run(&request(), None).await.unwrap_err();
    assert_eq!(error.kind(), Some(&ProblemKind::SessionRevisionConflict { current_revision: 7 }));
    assert_eq!(server.requests().len(), 1);
    assert_eq!(error.headers().unwrap()["x-should-retry"], "false");
}

#[tokio::test]
async fn session_busy_and_provider_failures_are_not_retried() {
    for (status, code, extra) in [
        (409, "SESSION_BUSY", r#","activeRunId":"run_2""#),
        (502, "PROVIDER_ERROR", ""),
        (503, "PROVIDER_OVERLOADED", ""),
    ] {
        let answer = Action::problem(status, "Retry-After: 1\r\n", &problem(status, code, extra));
        let server = ScriptedServer::start(vec![answer, Action::json(200, RESULT)]).await;
        let error = client(&server).run(&request(), None).await.unwrap_err();
        assert_eq!(error.code(), Some(code));
        assert_eq!(server.requests().len(), 1, "{code}");
    }
}

#[tokio::test]
async fn a_retry_after_above_the_cap_is_raised_at_once_with_the_delay() {
    let busy = Action::problem(503, "Retry-After: 120\r\n", &problem(503, "HOST_BUSY", ""));
    let server = ScriptedServer::start(vec![busy, Action::json(200, RESULT)]).await;
    let error = client(&server).run(&request(), None).await.unwrap_err();
    assert_eq!(error.retry_after(), Some(Duration::from_secs(120)));
    assert!(matches!(error.kind(), Some(ProblemKind::HostBusy { .. })));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_proxys_gateway_page_is_retried() {
    let page = Action::Reply {
        status: 502,
        content_type: "text/html",
        headers: "Retry-After: 0\r\n".into(),
        body: "<html>bad gateway</html>".into(),
    };
    let server = ScriptedServer::start(vec![page, Action::json(200, RESULT)]).await;
    assert_eq!(client(&server).run_with_response(&request(), None).await.unwrap().attempts(), 2);
}

#[tokio::test]
async fn retries_stop_after_max_retries_with_a_connection_error() {
    let server = ScriptedServer::start(vec![Action::Drop]).await;
    let client = Client::builder().base_url(&server.base_url).token(TOKEN).max_retries(1).build().unwrap();
    let error = client.get_discovery().await.unwrap_err();
    assert!(matches!(error, Error::Connection(_)), "{error}");
    assert!(error.is_connection() && !error.is_timeout());
    assert!(std::error::Error::source(&error).unwrap().downcast_ref::<reqwest::Error>().is_some());
    assert_eq!(server.requests().len(), 2);

    let server = ScriptedServer::start(vec![Action::Drop]).await;
    let client = Client::builder().base_url(&server.base_url).token(TOKEN).max_retries(0).build().unwrap();
    assert!(client.get_discovery().await.unwrap_err().is_connection());
    assert_eq!(server.requests().len(), 1, "0 turns retries off");
}

#[tokio::test]
async fn a_refused_connection_is_a_connection_error() {
    let port = support::free_port();
    let client = Client::builder().base_url(format!("http://127.0.0.1:{port}")).max_retries(0).build().unwrap();
    let error = client.get_health().await.unwrap_err();
    assert!(matches!(error, Error::Connection(_)), "{error}");
}

#[tokio::test]
async fn a_read_timeout_before_the_head_is_retried_for_get_only() {
    let timeouts = Timeouts { read: Duration::from_millis(300), ..Timeouts::default() };
    let server = ScriptedServer::start(vec![Action::Hang, Action::json(200, RESULT)]).await;
    let client = Client::builder().base_url(&server.base_url).token(TOKEN).timeouts(timeouts).build().unwrap();
    let error = client.run(&request(), None).await.unwrap_err();
    assert_eq!(error.timeout_kind(), Some(TimeoutKind::Read), "{error}");
    assert!(error.is_connection());
    assert_eq!(server.requests().len(), 1, "a POST is not retried after a read timeout");

    let health = Action::json(200, r#"{"status":"ok"}"#);
    let server = ScriptedServer::start(vec![Action::Hang, health]).await;
    let client = Client::builder().base_url(&server.base_url).timeouts(timeouts).build().unwrap();
    client.get_health().await.unwrap();
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_silent_stream_ends_with_the_stream_idle_timeout() {
    let started = "id: 1\nevent: run.started\ndata: {\"type\":\"run.started\",\"runId\":\"run_1\"}\n\n";
    let server = ScriptedServer::start(vec![Action::StreamThenHang(started.into())]).await;
    let client = Client::builder()
        .base_url(&server.base_url)
        .token(TOKEN)
        .stream_idle_timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let mut stream = client.stream_run(&request(), None).await.unwrap();
    assert_eq!(stream.next().await.unwrap().unwrap().event_type(), "run.started");
    let error = stream.next().await.unwrap().unwrap_err();
    assert_eq!(error.timeout_kind(), Some(TimeoutKind::StreamIdle), "{error}");
    assert!(stream.next().await.is_none());
    assert_eq!(server.requests().len(), 1, "a stream is never retried after its head");
}

#[tokio::test]
async fn a_wait_between_attempts_ends_with_the_callers_cancellation() {
    let busy = Action::problem(503, "Retry-After: 30\r\n", &problem(503, "HOST_BUSY", ""));
    let server = ScriptedServer::start(vec![busy, Action::json(200, RESULT)]).await;
    let client = client(&server);
    let started = Instant::now();
    let outcome = tokio::time::timeout(Duration::from_millis(300), client.run(&request(), None)).await;
    assert!(outcome.is_err(), "the caller's deadline ended the call");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn headers_default_user_agent_and_an_authorization_no_default_header_replaces() {
    let health = Action::json(200, r#"{"status":"ok"}"#);
    let server = ScriptedServer::start(vec![health]).await;
    let client = Client::builder()
        .base_url(&server.base_url)
        .token(TOKEN)
        .default_header("X-Team", "blue")
        .default_header("Authorization", "Bearer someone-else")
        .build()
        .unwrap();
    client.get_health().await.unwrap();
    let custom = Client::builder().base_url(&server.base_url).default_header("User-Agent", "my-app/1").build().unwrap();
    custom.get_health().await.unwrap();
    let requests = server.requests();
    assert_eq!(requests[0].header("x-team"), Some("blue"));
    assert_eq!(requests[0].header("authorization"), Some(format!("Bearer {TOKEN}").as_str()));
    assert_eq!(requests[0].header("user-agent"), Some(USER_AGENT_VALUE));
    assert!(USER_AGENT_VALUE.starts_with("agentic-driver-rust/0."));
    assert_eq!(requests[1].header("user-agent"), Some("my-app/1"));
    assert_eq!(requests[1].header("authorization"), None);
    assert!(Client::builder().base_url("http://x").default_header("Bad Name", "v").build().is_err());
}

#[tokio::test]
async fn raw_responses_on_success_and_on_error() {
    let ok = Action::Reply {
        status: 200,
        content_type: "application/json",
        headers: "X-Request-Id: req_ok\r\n".into(),
        body: RESULT.into(),
    };
    let server = ScriptedServer::start(vec![ok]).await;
    let response = client(&server).run_with_response(&request(), None).await.unwrap();
    assert_eq!((response.status(), response.request_id()), (200, Some("req_ok")));
    assert_eq!(response.value().output.text, "echo: hi");

    let missing = Action::problem(404, "X-Request-Id: req_404\r\n", &problem(404, "SESSION_NOT_FOUND", ""));
    let server = ScriptedServer::start(vec![missing]).await;
    let error = client(&server).read_session("ses_x").await.unwrap_err();
    assert_eq!((error.status(), error.headers().unwrap()["x-request-id"].to_str().unwrap()), (Some(404), "req_404"));
}

#[tokio::test]
async fn wait_until_idle_reads_until_the_session_is_not_running() {
    let server = ScriptedServer::start(vec![
        Action::json(200, &session_json("running", 1)),
        Action::json(200, &session_json("running", 1)),
        Action::json(200, &session_json("ready", 2)),
    ])
    .await;
    let read = client(&server).wait_until_idle("ses_1", None).await.unwrap();
    assert_eq!((read.session.revision, read.session.status), (2, types::SessionStatus::Ready));
    assert_eq!(server.requests().len(), 3);

    let server = ScriptedServer::start(vec![Action::json(200, &session_json("running", 1))]).await;
    let started = Instant::now();
    let error = client(&server).wait_until_idle_within("ses_1", None, Duration::from_millis(400)).await.unwrap_err();
    assert_eq!(error.timeout_kind(), Some(TimeoutKind::WaitUntilIdle));
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn wait_until_idle_first_waits_the_busy_errors_retry_after() {
    let busy = Action::problem(409, "Retry-After: 1\r\n", &problem(409, "SESSION_BUSY", r#","activeRunId":"run_3""#));
    let server = ScriptedServer::start(vec![busy, Action::json(200, &session_json("ready", 3))]).await;
    let client = client(&server);
    let error = client.run(&request(), None).await.unwrap_err();
    assert!(matches!(error.kind(), Some(ProblemKind::SessionBusy { active_run_id }) if active_run_id == "run_3"));
    let started = Instant::now();
    let read = client.wait_until_idle("ses_1", Some(&error)).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(read.session.revision, 3);
}

/// Collects the crate's log lines (the `log` facade hook).
struct Lines(Mutex<Vec<String>>);

impl log::Log for Lines {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.target() == "agentic_driver_client"
    }
    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            self.0.lock().unwrap().push(record.args().to_string());
        }
    }
    fn flush(&self) {}
}

fn lines() -> &'static Lines {
    static LINES: OnceLock<&'static Lines> = OnceLock::new();
    LINES.get_or_init(|| {
        let lines: &'static Lines = Box::leak(Box::new(Lines(Mutex::new(Vec::new()))));
        log::set_logger(lines).unwrap();
        log::set_max_level(log::LevelFilter::Debug);
        lines
    })
}

#[tokio::test]
async fn logs_one_line_per_attempt_through_the_log_facade_without_secrets() {
    let lines = lines();
    let busy = Action::problem(503, "Retry-After: 0\r\nX-Request-Id: req_busy\r\n", &problem(503, "HOST_BUSY", ""));
    let server = ScriptedServer::start(vec![busy, Action::json(200, &session_json("ready", 1))]).await;
    client(&server).read_session("ses_logged").await.unwrap();
    let logged: Vec<String> =
        lines.0.lock().unwrap().iter().filter(|line| line.contains("ses_logged")).cloned().collect();
    assert_eq!(
        logged,
        [
            "GET /v1/sessions/ses_logged -> 503 (attempt 1/3) request-id req_busy; retrying in 0.000s",
            "GET /v1/sessions/ses_logged -> 200 (attempt 2/3)",
        ]
    );
    assert!(logged.iter().all(|line| !line.contains(TOKEN) && !line.contains("Bearer")));
}

#[tokio::test]
async fn a_connect_timeout_is_typed_and_retried() {
    // A listener that never accepts, with its one-connection backlog taken: the next connect's
    // SYN is dropped by the kernel, so the connect hangs until the client's connect timeout.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(0).unwrap();
    let address = listener.local_addr().unwrap();
    let mut fillers = Vec::new();
    for _ in 0..4 {
        match tokio::time::timeout(Duration::from_millis(200), tokio::net::TcpStream::connect(address)).await {
            Ok(Ok(stream)) => fillers.push(stream),
            _ => break,
        }
    }
    let client = Client::builder()
        .base_url(format!("http://{address}"))
        .connect_timeout(Duration::from_millis(300))
        .max_retries(1)
        .build()
        .unwrap();
    let started = Instant::now();
    let error = client.get_health().await.unwrap_err();
    assert_eq!(error.timeout_kind(), Some(TimeoutKind::Connect), "{error}");
    assert!(error.is_connection());
    // Two connect timeouts and a backoff of at least 375 ms between them.
    assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());
    drop((listener, fillers));
}

#[tokio::test]
async fn agentic_driver_log_debug_writes_the_lines_to_standard_error() {
    const NAME: &str = "agentic_driver_log_debug_writes_the_lines_to_standard_error";
    if std::env::var_os("BEHAVIOUR_LOG_CHILD").is_some() {
        // In the child this test re-ran itself in: AGENTIC_DRIVER_LOG=debug is set.
        let server = ScriptedServer::start(vec![Action::json(200, r#"{"status":"ok"}"#)]).await;
        Client::builder().base_url(&server.base_url).token(TOKEN).build().unwrap().get_health().await.unwrap();
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture", "--test-threads", "1"])
        .env("AGENTIC_DRIVER_LOG", "debug")
        .env("BEHAVIOUR_LOG_CHILD", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("agentic-driver: GET /healthz -> 200 (attempt 1/3)"), "{stderr}");
    assert!(!stderr.contains(TOKEN) && !stderr.contains("Bearer"));
}

#[tokio::test]
async fn run_session_unwraps_the_session_and_refuses_what_is_not_a_session_run() {
    let mut answered: serde_json::Value = serde_json::from_str(RESULT).unwrap();
    answered["session"] = session_info("ses_1", "ready", 4);
    let server = ScriptedServer::start(vec![Action::json(200, &answered.to_string()), Action::json(200, RESULT)]).await;
    let client = client(&server);
    let body =
        types::RunRequest { session: Some(types::SessionHandle { id: "ses_1".into(), revision: 3 }), ..request() };
    let ran = client.run_session(&body, None).await.unwrap();
    assert_eq!((ran.session.revision, ran.result.output.text.as_str()), (4, "echo: hi"));
    assert_eq!(ran.result.session, None, "moved out, not held twice");

    let error = client.run_session(&body, None).await.unwrap_err();
    assert!(matches!(error, Error::Protocol(_)), "an answer without the session: {error}");
    let error = client.run_session(&request(), None).await.unwrap_err();
    assert!(matches!(error, Error::InvalidRequest(_)), "{error}");
    assert_eq!(server.requests().len(), 2, "a body without a session is not sent");
}
