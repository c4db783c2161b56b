//! clients/BEHAVIOUR.md, Routing, against scripted loopback servers: `Agentic-Host` from the id,
//! one 421 followed to its owner, `HOST_UNAVAILABLE` retried then typed.

mod support;

use std::time::{Duration, Instant};

use agentic_driver_client::{types, Client, Error, ProblemKind};
use support::{Action, ScriptedServer};

const TOKEN: &str = "routing-token-0123456789";
const SESSION: &str = "ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ";
const RUN: &str = "run_beta.AAECAwQFBgcICQoLDA0ODw";
const CANCELLED: &str = r#"{"id":"run_beta.AAECAwQFBgcICQoLDA0ODw","status":"cancelled","modelWorkStarted":false}"#;

fn problem(status: u16, code: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"urn:agentic-driver:problem:{code}","title":"T","status":{status},"code":"{code}","detail":"about {code}"{extra}}}"#
    )
}

fn misdirected(owner: &str, answered_by: &str) -> Action {
    Action::problem(
        421,
        "",
        &problem(421, "MISDIRECTED_REQUEST", &format!(r#","hostId":"{answered_by}","ownerHostId":"{owner}""#)),
    )
}

fn not_found() -> Action {
    Action::problem(404, "", &problem(404, "SESSION_NOT_FOUND", ""))
}

fn client(server: &ScriptedServer) -> Client {
    Client::builder().base_url(&server.base_url).token(TOKEN).build().unwrap()
}

fn hosts(server: &ScriptedServer) -> Vec<Option<String>> {
    server.requests().iter().map(|request| request.header("agentic-host").map(str::to_owned)).collect()
}

fn session_run(revision: i64) -> types::RunRequest {
    let mut request = types::RunRequest::new("echo", "echo-1", "x");
    request.session = Some(types::SessionHandle { id: SESSION.into(), revision });
    request
}

fn approvals() -> types::SubmitRunActionsRequest {
    serde_json::from_value(serde_json::json!({"approvals": [{"callId": "c", "approve": true}]})).unwrap()
}

#[tokio::test]
async fn requests_that_name_a_session_or_run_carry_its_host() {
    let server = ScriptedServer::start(vec![not_found()]).await;
    let client = client(&server);
    let create = types::CreateSessionRequest::new("echo", "echo-1", types::SessionMode::History);
    let stateless = types::RunRequest::new("echo", "echo-1", "x");
    let truncate: types::TruncateSessionRequest =
        serde_json::from_value(serde_json::json!({"revision": 0, "keepTurns": 0})).unwrap();
    let mut results: Vec<(&str, Result<(), Error>, Option<&str>)> = Vec::new();
    results.push(("discovery", client.get_discovery().await.map(drop), None));
    results.push(("create", client.create_session(&create, None).await.map(drop), None));
    results.push(("stateless run", client.run(&stateless, None).await.map(drop), None));
    results.push(("stateless stream", client.stream_run(&stateless, None).await.map(drop), None));
    results.push(("session run", client.run(&session_run(0), None).await.map(drop), Some("alpha-1")));
    results.push(("session stream", client.stream_run(&session_run(0), None).await.map(drop), Some("alpha-1")));
    results.push(("read", client.read_session(SESSION).await.map(drop), Some("alpha-1")));
    results.push(("truncate", client.truncate_session(SESSION, &truncate).await.map(drop), Some("alpha-1")));
    let fork = types::ForkSessionRequest::default();
    results.push(("fork", client.fork_session(SESSION, &fork, None).await.map(drop), Some("alpha-1")));
    results.push(("delete", client.delete_session(SESSION).await.map(drop), Some("alpha-1")));
    results.push(("actions", client.submit_run_actions(RUN, &approvals(), None).await.map(drop), Some("beta")));
    results.push(("actions stream", client.stream_run_actions(RUN, &approvals(), None).await.map(drop), Some("beta")));
    results.push(("cancel", client.cancel_run(RUN).await.map(drop), Some("beta")));
    results.push(("old session id", client.read_session("ses_k3Jx9_Qw-Zp0aBcDeFgHiJ").await.map(drop), None));
    let got = hosts(&server);
    assert_eq!(got.len(), results.len());
    for ((name, result, want), host) in results.iter().zip(got) {
        assert!(
            matches!(result.as_ref().unwrap_err().kind(), Some(ProblemKind::SessionNotFound)),
            "{name}: {result:?}"
        );
        assert_eq!(host.as_deref(), *want, "{name}");
    }
}

#[tokio::test]
async fn a_421_is_followed_once_at_once_and_is_not_one_of_the_retries() {
    let server = ScriptedServer::start(vec![misdirected("gamma", "other-host"), Action::json(200, CANCELLED)]).await;
    let client = Client::builder().base_url(&server.base_url).token(TOKEN).max_retries(0).build().unwrap();
    let started = Instant::now();
    let answer = client.cancel_run(RUN).await.unwrap();
    assert_eq!(answer.id, RUN);
    assert!(started.elapsed() < Duration::from_millis(400), "no wait before the follow-up");
    assert_eq!(hosts(&server), [Some("beta".to_owned()), Some("gamma".to_owned())]);
}

#[tokio::test]
async fn a_followed_run_keeps_its_key_and_body_and_a_second_421_is_typed() {
    let server = ScriptedServer::start(vec![misdirected("alpha-1", "delta")]).await;
    let error = client(&server).run(&session_run(3), None).await.unwrap_err();
    match error.kind() {
        Some(ProblemKind::MisdirectedRequest { host_id, owner_host_id }) => {
            assert_eq!((host_id.as_str(), owner_host_id.as_str()), ("delta", "alpha-1"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(error.status(), Some(421));
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one follow-up; 421 is not in the retry table");
    assert!(requests[0].header("idempotency-key").is_some());
    assert_eq!(requests[0].header("idempotency-key"), requests[1].header("idempotency-key"));
    assert_eq!(requests[0].body, requests[1].body);
}

#[tokio::test]
async fn a_421_after_a_retry_is_still_followed_and_later_retries_keep_the_owner() {
    let busy = Action::problem(503, "Retry-After: 0\r\n", &problem(503, "HOST_BUSY", ""));
    let server = ScriptedServer::start(vec![busy.clone(), misdirected("gamma", "other-host"), busy, not_found()]).await;
    let error = client(&server).read_session(SESSION).await.unwrap_err();
    assert!(matches!(error.kind(), Some(ProblemKind::SessionNotFound)), "{error:?}");
    let want: Vec<Option<String>> = ["alpha-1", "alpha-1", "gamma", "gamma"].map(|h| Some(h.to_owned())).into();
    assert_eq!(hosts(&server), want);
}

#[tokio::test]
async fn a_421_without_a_usable_owner_is_not_followed() {
    let server = ScriptedServer::start(vec![misdirected("Not A Label", "other-host")]).await;
    let error = client(&server).read_session(SESSION).await.unwrap_err();
    assert!(matches!(error.kind(), Some(ProblemKind::MisdirectedRequest { .. })), "{error:?}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_streamed_run_follows_a_421_before_its_head() {
    let events = "event: later.kind\ndata: {\"type\":\"later.kind\",\"n\":1}\n\n".to_owned();
    let server = ScriptedServer::start(vec![misdirected("gamma", "other-host"), Action::StreamThenHang(events)]).await;
    let stream = client(&server).stream_run(&session_run(0), None).await.unwrap();
    assert_eq!(stream.status(), 200);
    assert_eq!(hosts(&server), [Some("alpha-1".to_owned()), Some("gamma".to_owned())]);
}

#[tokio::test]
async fn host_unavailable_is_retried_after_retry_after_then_typed() {
    let down = problem(503, "HOST_UNAVAILABLE", r#","ownerHostId":"alpha-1""#);
    let server = ScriptedServer::start(vec![Action::problem(503, "Retry-After: 0\r\n", &down)]).await;
    let error = client(&server).read_session(SESSION).await.unwrap_err();
    match error.kind() {
        Some(ProblemKind::HostUnavailable { owner_host_id }) => assert_eq!(owner_host_id.as_deref(), Some("alpha-1")),
        other => panic!("{other:?}"),
    }
    assert_eq!(server.requests().len(), 3);
}
