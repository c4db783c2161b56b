//! clients/BEHAVIOUR.md, "Tokens", against scripted loopback servers: a token provider is asked for
//! every attempt, asked again once with the refused token on a 401 invalid_token, and checked before
//! anything is sent.

mod support;

use std::sync::{Arc, Mutex};

use agentic_driver_client::{types, Client, Error, ProblemKind};
use support::{Action, ScriptedServer};

const RESULT: &str = r#"{"id":"run_1","status":"completed","output":{"text":"echo: hi"},"usage":{"inputTokens":1,"outputTokens":2,"cachedInputTokens":0,"cacheWriteTokens":0,"reasoningTokens":0},"cost":null,"retries":{"count":0,"inputTokens":0,"outputTokens":0,"cost":null},"servedModel":"echo-1"}"#;
const INVALID: &str = r#"Bearer realm="agentic-driver", error="invalid_token", error_description="expired""#;

fn unauthenticated(challenge: Option<&str>) -> Action {
    let body = r#"{"type":"urn:agentic-driver:problem:UNAUTHENTICATED","title":"T","status":401,"code":"UNAUTHENTICATED","detail":"no"}"#;
    let headers = challenge.map(|value| format!("WWW-Authenticate: {value}\r\n")).unwrap_or_default();
    Action::problem(401, &headers, body)
}

/// Hands out token-1, token-2, ... and records the `refused` it was given each time.
#[derive(Clone, Default)]
struct Counting {
    told: Arc<Mutex<Vec<Option<String>>>>,
}

impl Counting {
    fn client(&self, server: &ScriptedServer) -> Client {
        let told = self.told.clone();
        Client::builder()
            .base_url(&server.base_url)
            .default_header("Authorization", "Bearer from-a-default-header")
            .token_provider(move |refused: Option<String>| {
                let told = told.clone();
                async move {
                    let mut told = told.lock().unwrap();
                    told.push(refused);
                    Ok::<_, std::io::Error>(format!("token-{}", told.len()))
                }
            })
            .build()
            .unwrap()
    }

    fn told(&self) -> Vec<Option<String>> {
        self.told.lock().unwrap().clone()
    }
}

fn sent(server: &ScriptedServer) -> Vec<String> {
    server.requests().iter().map(|request| request.header("authorization").unwrap_or_default().to_owned()).collect()
}

fn request() -> types::RunRequest {
    types::RunRequest::new("echo", "echo-1", "hi")
}

#[tokio::test]
async fn a_provider_is_asked_for_every_attempt_a_retry_included_and_no_default_header_replaces_it() {
    let server = ScriptedServer::start(vec![Action::Drop, Action::json(200, RESULT)]).await;
    let provider = Counting::default();
    let response = provider.client(&server).run_with_response(&request(), None).await.unwrap();
    assert_eq!(response.attempts(), 2);
    assert_eq!(sent(&server), ["Bearer token-1", "Bearer token-2"]);
    assert_eq!(provider.told(), [None, None]);
}

#[tokio::test]
async fn an_invalid_token_is_asked_anew_once_with_the_refused_token_and_the_same_request() {
    let server = ScriptedServer::start(vec![unauthenticated(Some(INVALID)), Action::json(200, RESULT)]).await;
    let provider = Counting::default();
    let response = provider.client(&server).run_with_response(&request(), None).await.unwrap();
    assert_eq!(response.value().output.text, "echo: hi");
    assert_eq!(response.attempts(), 1, "the resend is not one of the retries");
    assert_eq!(provider.told(), [None, Some("token-1".to_owned())]);
    assert_eq!(sent(&server), ["Bearer token-1", "Bearer token-2"]);
    let requests = server.requests();
    let key = requests[0].header("idempotency-key").expect("a key");
    assert_eq!(requests[1].header("idempotency-key"), Some(key));
    assert_eq!(requests[0].body, requests[1].body);
}

#[tokio::test]
async fn a_second_invalid_token_is_the_unauthenticated_error() {
    let server = ScriptedServer::start(vec![unauthenticated(Some(INVALID))]).await;
    let error = Counting::default().client(&server).get_discovery().await.unwrap_err();
    assert_eq!(error.kind(), Some(&ProblemKind::Unauthenticated));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_401_without_invalid_token_is_raised_at_once() {
    let server = ScriptedServer::start(vec![unauthenticated(Some(r#"Bearer realm="agentic-driver""#))]).await;
    let error = Counting::default().client(&server).get_discovery().await.unwrap_err();
    assert_eq!(error.kind(), Some(&ProblemKind::Unauthenticated));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_string_token_is_not_sent_again() {
    let server = ScriptedServer::start(vec![unauthenticated(Some(INVALID))]).await;
    let client = Client::builder().base_url(&server.base_url).token("a-static-token-0123456789").build().unwrap();
    let error = client.get_discovery().await.unwrap_err();
    assert_eq!(error.kind(), Some(&ProblemKind::Unauthenticated));
    assert_eq!(sent(&server), ["Bearer a-static-token-0123456789"]);
}

#[tokio::test]
async fn a_provider_that_fails_fails_the_call_before_anything_is_sent() {
    let server = ScriptedServer::start(vec![Action::json(200, RESULT)]).await;
    let client = Client::builder()
        .base_url(&server.base_url)
        .token_provider(|_: Option<String>| async { Err::<String, _>(std::io::Error::other("the IdP is down")) })
        .build()
        .unwrap();
    let error = client.run(&request(), None).await.unwrap_err();
    let Error::Connection(connection) = &error else { panic!("{error:?}") };
    assert!(connection.is_token_failure() && error.is_connection(), "{error}");
    let cause = std::error::Error::source(&error).expect("the provider's error as the source");
    assert_eq!(cause.to_string(), "the IdP is down");
    assert!(!error.to_string().contains("the IdP is down"), "what the provider said is not in the message: {error}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn a_token_a_header_cannot_carry_is_never_sent() {
    for value in ["", "two words", "line\nbreak", "caf\u{e9}", "\u{0}"] {
        let server = ScriptedServer::start(vec![Action::json(200, RESULT)]).await;
        let client = Client::builder()
            .base_url(&server.base_url)
            .token_provider(move |_: Option<String>| async move { Ok::<_, std::io::Error>(value.to_owned()) })
            .build()
            .unwrap();
        let error = client.get_discovery().await.unwrap_err();
        assert!(matches!(&error, Error::Connection(connection) if connection.is_token_failure()), "{value:?}: {error}");
        assert!(server.requests().is_empty(), "{value:?}");
    }
}

#[tokio::test]
async fn the_last_of_token_and_token_provider_wins() {
    let server = ScriptedServer::start(vec![Action::json(200, RESULT)]).await;
    let provider = |_: Option<String>| async { Ok::<_, std::io::Error>("from-the-provider".to_owned()) };
    let client = Client::builder().base_url(&server.base_url).token_provider(provider).token("static-token-0123456789");
    client.build().unwrap().run(&request(), None).await.unwrap();
    assert_eq!(sent(&server), ["Bearer static-token-0123456789"]);
}

#[tokio::test]
async fn a_resumed_stream_asks_the_provider_for_its_rejoin_and_resends_it_once_on_invalid_token() {
    const RUN: &str = "run_beta.AAECAwQFBgcICQoLDA0ODw";
    let event = |id: u64, kind: &str, data: String| format!("id: {id}\nevent: {kind}\ndata: {data}\n\n");
    let started = event(1, "run.started", format!(r#"{{"type":"run.started","runId":"{RUN}"}}"#));
    let completed = event(2, "run.completed", format!(r#"{{"type":"run.completed","run":{}}}"#, RESULT));
    let stream =
        |body: String| Action::Reply { status: 200, content_type: "text/event-stream", headers: String::new(), body };
    let script = vec![stream(started), unauthenticated(Some(INVALID)), stream(completed)];
    let server = ScriptedServer::start(script).await;
    let provider = Counting::default();
    let body = types::RunRequest {
        on_disconnect: Some(types::OnDisconnect::Continue),
        ..types::RunRequest::new("echo", "echo-1", "hi")
    };
    let mut events = provider.client(&server).stream_run(&body, None).await.unwrap();
    let mut seen = Vec::new();
    while let Some(event) = events.next().await {
        seen.push(event.unwrap().event_type().to_string());
    }
    assert_eq!(seen, ["run.started", "run.completed"]);
    let paths: Vec<String> = server.requests().iter().map(|request| request.path.clone()).collect();
    assert_eq!(paths, ["/v1/runs/stream", &format!("/v1/runs/{RUN}/events"), &format!("/v1/runs/{RUN}/events")]);
    assert_eq!(sent(&server), ["Bearer token-1", "Bearer token-2", "Bearer token-3"]);
    assert_eq!(provider.told(), [None, None, Some("token-2".to_owned())]);
}
