//! Sessions, session errors by type, forks, streamed runs and function calls, against a live host.

use std::sync::Arc;
use std::time::{Duration, Instant};

use agentic_driver_client::{types, Client, Error, Event, ProblemKind, RUN_EVENT_TYPES};

use crate::support::{Host, FULL_TOKEN};
use crate::TestFn;

macro_rules! test {
    ($name:ident) => {
        (stringify!($name), |host| Box::pin($name(host)))
    };
}

pub const TESTS: &[(&str, TestFn)] = &[
    test!(session_flow),
    test!(revision_conflict),
    test!(session_busy),
    test!(session_interrupted),
    test!(session_account_required),
    test!(fork_session),
    test!(fork_of_a_busy_session),
    test!(streamed_run),
    test!(stream_refused_before_the_stream),
    test!(function_call_round_trip),
    test!(streamed_function_call),
    test!(catalogue_matches_the_served_contract),
    test!(a_refused_token_from_a_provider_is_replaced_once),
];

async fn new_session(client: &Client) -> types::SessionInfo {
    let request = types::CreateSessionRequest::new("echo", "echo-1", types::SessionMode::History);
    client.create_session(&request, None).await.unwrap().session
}

fn expect_error<T: std::fmt::Debug>(result: Result<T, Error>) -> Error {
    result.expect_err("expected the call to fail")
}

async fn session_flow(host: Arc<Host>) {
    let health = host.client("").get_health().await.unwrap();
    assert_eq!(health.status, types::HealthStatus::Ok);

    let client = host.client(FULL_TOKEN);
    let mut session = new_session(&client).await;
    assert_eq!((session.revision, session.status), (0, types::SessionStatus::Ready));
    let identity = session.identity();

    let first = client.run(&session.run_request("My name is Ada."), None).await.unwrap();
    assert_eq!(first.status, types::RunStatus::Completed);
    assert_eq!(first.output.text, "echo: My name is Ada.");
    session = first.session.unwrap();
    assert_eq!(session.revision, 1);
    assert_eq!(session.identity(), identity, "the identity never changes");

    let second = client.run(&session.run_request("!recall"), None).await.unwrap();
    assert_eq!(second.output.text, "recall: 2 messages; last user: My name is Ada.");
    assert_eq!(second.session.unwrap().revision, 2);

    let read = client.read_session(&session.id).await.unwrap();
    let history: Vec<String> = read.history.iter().map(|m| format!("{}: {}", m.role, m.content)).collect();
    assert_eq!(
        history,
        [
            "user: My name is Ada.",
            "assistant: echo: My name is Ada.",
            "user: !recall",
            "assistant: recall: 2 messages; last user: My name is Ada."
        ]
    );
    assert_eq!((read.session.revision, read.turns.len()), (2, 2));

    client.delete_session(&session.id).await.unwrap();
    let gone = expect_error(client.read_session(&session.id).await);
    assert_eq!(gone.kind(), Some(&ProblemKind::SessionNotFound));
    assert_eq!(gone.status(), Some(404));
}

async fn revision_conflict(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    client.run(&session.run_request("one"), None).await.unwrap();
    let error = expect_error(client.run(&session.run_request("stale"), None).await);
    match error.kind() {
        Some(ProblemKind::SessionRevisionConflict { current_revision }) => assert_eq!(*current_revision, 1),
        other => panic!("expected SessionRevisionConflict, got {other:?}"),
    }
    assert_eq!(error.status(), Some(409));
}

/// Polls the session (bounded) until it has the status.
async fn wait_for_status(client: &Client, id: &str, status: types::SessionStatus) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if client.read_session(id).await.unwrap().session.status == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("session {id} never became {status}");
}

async fn session_busy(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    let slow = tokio::spawn({
        let (client, request) = (client.clone(), session.run_request("!sleep 1500\nslow"));
        async move { client.run(&request, None).await }
    });
    wait_for_status(&client, &session.id, types::SessionStatus::Running).await;
    let error = expect_error(client.run(&session.run_request("again"), None).await);
    match error.kind() {
        Some(ProblemKind::SessionBusy { active_run_id }) => assert!(active_run_id.starts_with("run_")),
        other => panic!("expected SessionBusy, got {other:?}"),
    }
    assert!(error.problem().unwrap().retry_after_seconds.is_some());
    assert_eq!(slow.await.unwrap().unwrap().session.unwrap().revision, 1);
}

async fn session_interrupted(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    let failure = expect_error(client.run(&session.run_request("!fail"), None).await);
    assert_eq!(failure.kind(), Some(&ProblemKind::ProviderError));
    let error = expect_error(client.run(&session.run_request("after"), None).await);
    assert_eq!(error.kind(), Some(&ProblemKind::SessionInterrupted));
    let read = client.read_session(&session.id).await.unwrap();
    assert_eq!(read.session.status, types::SessionStatus::Interrupted);
    assert_eq!(read.interrupted_turn.unwrap().reason, types::InterruptReason::Failed);
}

async fn session_account_required(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let request = types::CreateSessionRequest::new("echo-unbound", "echo-1", types::SessionMode::History);
    let error = expect_error(client.create_session(&request, None).await);
    assert_eq!(error.kind(), Some(&ProblemKind::SessionAccountRequired));
    assert_eq!(error.status(), Some(409));
    // The same instance still serves stateless runs.
    let stateless = client.run(&types::RunRequest::new("echo-unbound", "echo-1", "hi"), None).await.unwrap();
    assert_eq!(stateless.output.text, "echo: hi");
}

async fn fork_session(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let mut source = new_session(&client).await;
    for input in ["one", "two", "three"] {
        source = client.run(&source.run_request(input), None).await.unwrap().session.unwrap();
    }
    let before = client.read_session(&source.id).await.unwrap();
    assert_eq!((before.session.revision, before.turns.len()), (3, 3));

    // At the current revision (no boundary given): a new session on the same host, accounting at zero.
    let current = types::ForkSessionRequest::default();
    let answer = client.fork_session_with_response(&source.id, &current, None).await.unwrap();
    assert_eq!(answer.status(), 201);
    let now = answer.into_inner().session;
    assert_ne!(now.id, source.id);
    assert!(now.id.starts_with(&format!("ses_{}.", source.host_id)), "{}", now.id);
    assert_eq!((now.revision, now.status, now.run_count), (3, types::SessionStatus::Ready, 0));
    assert_eq!((&now.provider, &now.model, now.mode), (&source.provider, &source.model, source.mode));
    assert_eq!(now.message_count, before.session.message_count);

    // At a turn boundary: the state the first turn produced, with that turn.
    let at_one = client.fork_session(&source.id, &types::ForkSessionRequest { revision: Some(1) }, None).await;
    let at_one = at_one.unwrap().session;
    assert_eq!((at_one.revision, at_one.message_count), (1, 2));
    let forked = client.read_session(&at_one.id).await.unwrap();
    assert_eq!(forked.history, before.history[..2]);
    assert_eq!(forked.turns, before.turns[..1]);

    // The fork continues by itself; the source is unchanged by it and goes on by itself.
    let recall = client.run(&at_one.run_request("!recall"), None).await.unwrap();
    assert_eq!(recall.output.text, "recall: 2 messages; last user: one");
    assert_eq!(recall.session.unwrap().revision, 2);
    assert_eq!(client.read_session(&source.id).await.unwrap(), before);
    let onward = client.run(&source.run_request("!recall"), None).await.unwrap();
    assert_eq!(onward.output.text, "recall: 6 messages; last user: three");
    assert_eq!(onward.session.unwrap().revision, 4);
    assert_eq!(client.read_session(&at_one.id).await.unwrap().session.revision, 2);

    // A boundary the session does not hold.
    let error =
        expect_error(client.fork_session(&source.id, &types::ForkSessionRequest { revision: Some(9) }, None).await);
    assert_eq!(error.kind(), Some(&ProblemKind::SessionRevisionConflict { current_revision: 4 }));

    // One key, one fork.
    let key = format!("rust-e2e-fork-{}", uuid::Uuid::new_v4());
    let first = client.fork_session(&source.id, &current, Some(&key)).await.unwrap().session;
    let again = client.fork_session(&source.id, &current, Some(&key)).await.unwrap().session;
    assert_eq!(first.id, again.id);
}

async fn fork_of_a_busy_session(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    let slow = tokio::spawn({
        let (client, request) = (client.clone(), session.run_request("!sleep 1500\nslow"));
        async move { client.run(&request, None).await }
    });
    wait_for_status(&client, &session.id, types::SessionStatus::Running).await;
    let error = expect_error(client.fork_session(&session.id, &types::ForkSessionRequest::default(), None).await);
    match error.kind() {
        Some(ProblemKind::SessionBusy { active_run_id }) => assert!(active_run_id.starts_with("run_")),
        other => panic!("expected SessionBusy, got {other:?}"),
    }
    assert_eq!(error.status(), Some(409));
    let idle = client.wait_until_idle(&session.id, Some(&error)).await.unwrap();
    assert_eq!(idle.session.revision, 1);
    let fork = client.fork_session(&session.id, &types::ForkSessionRequest::default(), None).await.unwrap().session;
    assert_eq!((fork.revision, fork.message_count), (1, 2));
    assert_eq!(slow.await.unwrap().unwrap().session.unwrap().revision, 1);
}

async fn streamed_run(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    let mut stream = client.stream_run(&session.run_request("!chunks 3\nTell me a story"), None).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(event.unwrap());
    }
    let types: Vec<&str> = events.iter().map(Event::event_type).collect();
    assert_eq!(types, ["run.started", "output.delta", "output.delta", "output.delta", "run.completed"]);
    let deltas: String = events
        .iter()
        .filter_map(|event| match event {
            Event::OutputDelta(delta) => Some(delta.text.as_str()),
            _ => None,
        })
        .collect();
    let Some(Event::RunCompleted(completed)) = events.last() else { panic!("no run.completed") };
    assert_eq!(deltas, completed.run.output.text);
    assert_eq!(completed.run.output.text, "echo: Tell me a story");
    assert_eq!(completed.run.session.as_ref().unwrap().revision, 1);
}

async fn stream_refused_before_the_stream(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    client.run(&session.run_request("one"), None).await.unwrap();
    let error = expect_error(client.stream_run(&session.run_request("stale"), None).await.map(|_| ()));
    assert!(matches!(error.kind(), Some(ProblemKind::SessionRevisionConflict { .. })), "{error}");
}

fn get_weather() -> Vec<types::ToolDefinition> {
    let parameters = serde_json::json!({"type": "object", "properties": {"x": {"type": "integer"}}});
    vec![types::ToolDefinition {
        name: "get_weather".parse().unwrap(),
        description: Some("Weather in a city".into()),
        parameters: parameters.as_object().unwrap().clone(),
    }]
}

fn function_calls(run: &types::RunResult) -> &[types::FunctionCall] {
    match &run.required_action {
        Some(types::RequiredAction::FunctionCallsAction(action)) => &action.calls,
        other => panic!("expected function calls, got {other:?}"),
    }
}

async fn function_call_round_trip(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    let request = types::RunRequest { tools: get_weather(), ..session.run_request(r#"!call get_weather {"x":1}"#) };
    let waiting = client.run(&request, None).await.unwrap();
    assert_eq!(waiting.status, types::RunStatus::RequiresAction);
    let call = &function_calls(&waiting)[0];
    assert_eq!(call.name, "get_weather");
    assert_eq!(serde_json::Value::Object(call.arguments.clone()), serde_json::json!({"x": 1}));

    let busy = expect_error(client.run(&session.run_request("meanwhile"), None).await);
    assert!(matches!(busy.kind(), Some(ProblemKind::SessionBusy { .. })), "{busy}");

    let results = types::SubmitRunActionsRequest {
        function_results: vec![types::FunctionResult { call_id: call.call_id.clone(), output: "sunny".into() }],
        approvals: vec![],
        on_disconnect: None,
    };
    let done = client.submit_run_actions(&waiting.id, &results, None).await.unwrap();
    assert_eq!(done.status, types::RunStatus::Completed);
    assert!(done.output.text.ends_with("get_weather -> sunny"), "{}", done.output.text);
    assert_eq!(done.session.unwrap().revision, 1);
}

async fn streamed_function_call(host: Arc<Host>) {
    let client = host.client(FULL_TOKEN);
    let session = new_session(&client).await;
    let request = types::RunRequest { tools: get_weather(), ..session.run_request(r#"!call get_weather {"x":2}"#) };
    let stream = client.stream_run(&request, None).await.unwrap();
    let Event::RunRequiresAction(waiting) = stream.final_event().await.unwrap() else { panic!("not waiting") };
    let call_id = function_calls(&waiting.run)[0].call_id.clone();
    let results = types::SubmitRunActionsRequest {
        function_results: vec![types::FunctionResult { call_id, output: "rain".into() }],
        approvals: vec![],
        on_disconnect: None,
    };
    let rest = client.stream_run_actions(&waiting.run.id, &results, None).await.unwrap();
    let Event::RunCompleted(completed) = rest.final_event().await.unwrap() else { panic!("not completed") };
    assert!(completed.run.output.text.ends_with("get_weather -> rain"));
    assert_eq!(completed.run.session.unwrap().revision, 1);
}

/// The client's error kinds and event types against the contract the host serves at /openapi.json.
async fn catalogue_matches_the_served_contract(host: Arc<Host>) {
    let spec: serde_json::Value =
        reqwest::get(format!("{}/openapi.json", host.base_url)).await.unwrap().json().await.unwrap();
    let codes = spec["components"]["schemas"]["ErrorCode"]["enum"].as_array().expect("ErrorCode enum");
    assert!(!codes.is_empty());
    for code in codes {
        let code = code.as_str().unwrap();
        // With the fields the contract guarantees for SESSION_REVISION_CONFLICT, SESSION_BUSY,
        // MISDIRECTED_REQUEST, HOST_UNAVAILABLE and RUN_EVENTS_EXPIRED.
        let body = format!(
            r#"{{"type":"t","title":"t","status":400,"code":"{code}","detail":"d","currentRevision":1,"activeRunId":"r","hostId":"a","ownerHostId":"b","firstEventId":1}}"#
        );
        let problem = agentic_driver_client::Problem::parse(400, None, body.as_bytes()).unwrap();
        assert!(!matches!(problem.kind, ProblemKind::Unknown(_)), "{code} has no ProblemKind variant");
    }
    let mapping = spec["components"]["schemas"]["RunEvent"]["discriminator"]["mapping"].as_object().expect("mapping");
    let mut served: Vec<&str> = mapping.keys().map(String::as_str).collect();
    let mut known = RUN_EVENT_TYPES.to_vec();
    served.sort_unstable();
    known.sort_unstable();
    assert_eq!(served, known, "RUN_EVENT_TYPES differs from the served RunEvent mapping");
}

/// A provider whose first token the host refuses (`error="invalid_token"`, as it answers any token it
/// does not know) is asked again with that token, and the session is made with the second, once.
async fn a_refused_token_from_a_provider_is_replaced_once(host: Arc<Host>) {
    let told = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = told.clone();
    let client = Client::builder()
        .base_url(&host.base_url)
        .token_provider(move |refused: Option<String>| {
            let seen = seen.clone();
            async move {
                let mut seen = seen.lock().unwrap();
                let token = if seen.is_empty() { "rust-e2e-retired-token-000" } else { FULL_TOKEN };
                seen.push(refused);
                Ok::<_, std::io::Error>(token.to_owned())
            }
        })
        .build()
        .unwrap();
    let session = new_session(&client).await;
    assert_eq!(session.revision, 0);
    assert_eq!(*told.lock().unwrap(), [None, Some("rust-e2e-retired-token-000".to_owned())]);
    let read = client.read_session(&session.id).await.unwrap();
    assert_eq!(read.session.id, session.id);
    assert_eq!(told.lock().unwrap().len(), 3, "one ask per attempt");
}
