//! clients/BEHAVIOUR.md, "Resuming a stream", against scripted loopback servers: a stream whose
//! request said `onDisconnect: continue` rejoins `GET /v1/runs/{runId}/events` after the last event
//! it delivered when its connection ends early (cut, idle, or a body that simply ends), delivers
//! each event once, within the call's retry budget (given back by a rejoin that delivers), a 421
//! followed once; before `run.started` it sends the run again with the same key. A stream
//! without `continue` is never resumed. Also `get_run` and `stream_run_events` themselves.

mod support;

use agentic_driver_client::{types, Client, Error, Event, EventStream, ProblemKind};
use support::{Action, ScriptedServer};

const TOKEN: &str = "resume-token-0123456789";
const RUN: &str = "run_beta.AAECAwQFBgcICQoLDA0ODw";

fn problem(status: u16, code: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"urn:agentic-driver:problem:{code}","title":"T","status":{status},"code":"{code}","detail":"about {code}"{extra}}}"#
    )
}

fn result() -> String {
    format!(
        r#"{{"id":"{RUN}","status":"completed","output":{{"text":"echo: ab"}},"usage":{{"inputTokens":1,"outputTokens":2,"cachedInputTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}},"cost":null,"retries":{{"count":0,"inputTokens":0,"outputTokens":0,"cost":null}},"servedModel":"echo-1"}}"#
    )
}

fn started(id: u64) -> String {
    format!("id: {id}\nevent: run.started\ndata: {{\"type\":\"run.started\",\"runId\":\"{RUN}\"}}\n\n")
}

fn delta(id: u64, text: &str) -> String {
    format!("id: {id}\nevent: output.delta\ndata: {{\"type\":\"output.delta\",\"runId\":\"{RUN}\",\"text\":\"{text}\"}}\n\n")
}

fn completed(id: u64) -> String {
    format!("id: {id}\nevent: run.completed\ndata: {{\"type\":\"run.completed\",\"run\":{}}}\n\n", result())
}

/// A 200 event stream of these events whose body then simply ends.
fn events(events: &[String]) -> Action {
    Action::Reply { status: 200, content_type: "text/event-stream", headers: String::new(), body: events.concat() }
}

/// A proxy's gateway page, to be retried at once.
fn gateway_page() -> Action {
    Action::Reply {
        status: 502,
        content_type: "text/html",
        headers: "Retry-After: 0\r\n".into(),
        body: "<html>bad gateway</html>".into(),
    }
}

fn client(server: &ScriptedServer) -> Client {
    Client::builder().base_url(&server.base_url).token(TOKEN).build().unwrap()
}

fn continuing() -> types::RunRequest {
    types::RunRequest {
        on_disconnect: Some(types::OnDisconnect::Continue),
        ..types::RunRequest::new("echo", "echo-1", "ab")
    }
}

/// Reads a stream to its end: each event's type (and text, for a delta), or the error that ended it.
async fn read(mut stream: EventStream) -> (Vec<String>, Option<Error>) {
    let mut seen = Vec::new();
    while let Some(event) = stream.next().await {
        match event {
            Ok(Event::OutputDelta(delta)) => seen.push(format!("output.delta {}", delta.text)),
            Ok(event) => seen.push(event.event_type().to_string()),
            Err(error) => return (seen, Some(error)),
        }
    }
    (seen, None)
}

/// (method, path, Last-Event-ID) of each request the server received.
fn requests(server: &ScriptedServer) -> Vec<(String, String, Option<String>)> {
    server
        .requests()
        .iter()
        .map(|request| {
            (request.method.clone(), request.path.clone(), request.header("last-event-id").map(str::to_owned))
        })
        .collect()
}

fn rejoin(after: Option<&str>) -> (String, String, Option<String>) {
    ("GET".into(), format!("/v1/runs/{RUN}/events"), after.map(str::to_owned))
}

fn post() -> (String, String, Option<String>) {
    ("POST".into(), "/v1/runs/stream".into(), None)
}

const ALL: [&str; 4] = ["run.started", "output.delta a", "output.delta b", "run.completed"];

#[tokio::test]
async fn a_cut_continue_stream_rejoins_after_its_last_event_and_skips_what_it_delivered() {
    let cut = format!("{}{}id: 3\nevent: output.delta\ndata: {{\"ty", started(1), delta(2, "a"));
    // The rejoin replays event 2 again: it must not reach the application twice.
    let rest = events(&[delta(2, "a"), delta(3, "b"), completed(4)]);
    let server = ScriptedServer::start(vec![Action::StreamThenCut(cut), rest]).await;
    let stream = client(&server).stream_run(&continuing(), None).await.unwrap();
    assert!(stream.is_resumable());
    let (seen, error) = read(stream).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    assert_eq!(requests(&server), [post(), rejoin(Some("2"))]);
    let rejoined = &server.requests()[1];
    assert_eq!(rejoined.header("agentic-host"), Some("beta"), "Agentic-Host from the run id");
    assert_eq!(rejoined.header("idempotency-key"), None);
    assert_eq!(rejoined.header("authorization"), Some(format!("Bearer {TOKEN}").as_str()));
}

#[tokio::test]
async fn a_body_that_simply_ends_early_is_rejoined_too() {
    let server = ScriptedServer::start(vec![
        events(&[started(1), delta(2, "a")]),
        events(&[delta(3, "b")]),
        events(&[completed(4)]),
    ])
    .await;
    let stream = client(&server).stream_run(&continuing(), None).await.unwrap();
    let (seen, error) = read(stream).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    assert_eq!(requests(&server), [post(), rejoin(Some("2")), rejoin(Some("3"))]);
}

#[tokio::test]
async fn a_silent_continue_stream_is_rejoined_after_the_idle_timeout() {
    let server = ScriptedServer::start(vec![
        Action::StreamThenHang(started(1)),
        events(&[delta(2, "a"), delta(3, "b"), completed(4)]),
    ])
    .await;
    let client = Client::builder()
        .base_url(&server.base_url)
        .token(TOKEN)
        .stream_idle_timeout(std::time::Duration::from_millis(300))
        .build()
        .unwrap();
    let (seen, error) = read(client.stream_run(&continuing(), None).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    assert_eq!(requests(&server), [post(), rejoin(Some("1"))]);
}

#[tokio::test]
async fn a_stream_without_continue_is_never_resumed() {
    for on_disconnect in [None, Some(types::OnDisconnect::Cancel)] {
        let cut = format!("{}id: 2\nevent: output.delta\ndata: {{\"ty", started(1));
        let server = ScriptedServer::start(vec![Action::StreamThenCut(cut), events(&[completed(2)])]).await;
        let request = types::RunRequest { on_disconnect, ..continuing() };
        let stream = client(&server).stream_run(&request, None).await.unwrap();
        assert!(!stream.is_resumable());
        let (seen, error) = read(stream).await;
        assert_eq!(seen, ["run.started"]);
        assert!(error.is_some_and(|error| error.is_connection()));
        assert_eq!(server.requests().len(), 1, "{on_disconnect:?}: not rejoined");

        // A body that simply ends early is no quiet end either: the same connection error.
        let server = ScriptedServer::start(vec![events(&[started(1)]), events(&[completed(2)])]).await;
        let (seen, error) = read(client(&server).stream_run(&request, None).await.unwrap()).await;
        assert_eq!(seen, ["run.started"]);
        let error = error.expect("a truncated answer is an error");
        assert!(error.is_connection() && !error.is_timeout(), "{error:?}");
        assert!(matches!(&error, Error::Connection(cut) if cut.source_error().is_none()), "{error:?}");
        assert!(error.to_string().contains("ended before the run's last event"), "{error}");
        assert_eq!(server.requests().len(), 1);

        // So is a body that ends before any event.
        let server = ScriptedServer::start(vec![events(&[])]).await;
        let (seen, error) = read(client(&server).stream_run(&request, None).await.unwrap()).await;
        assert!(seen.is_empty());
        assert!(matches!(error, Some(Error::Connection(_))), "{error:?}");
        assert_eq!(server.requests().len(), 1);

        // A whole stream ends quietly, and so does one whose last event is of a type newer than
        // this client (a later contract may end a run with it).
        let server = ScriptedServer::start(vec![events(&[started(1), completed(2)])]).await;
        let (seen, error) = read(client(&server).stream_run(&request, None).await.unwrap()).await;
        assert!(error.is_none(), "{error:?}");
        assert_eq!(seen, ["run.started", "run.completed"]);
        let newer = "id: 2\nevent: run.handed_off\ndata: {\"type\":\"run.handed_off\"}\n\n".to_string();
        let server = ScriptedServer::start(vec![events(&[started(1), newer])]).await;
        let (seen, error) = read(client(&server).stream_run(&request, None).await.unwrap()).await;
        assert!(error.is_none(), "{error:?}");
        assert_eq!(seen, ["run.started", "run.handed_off"]);
        assert_eq!(server.requests().len(), 1);
    }
}

#[tokio::test]
async fn a_drop_before_run_started_sends_the_run_again_with_the_same_key() {
    let all = events(&[started(1), delta(2, "a"), delta(3, "b"), completed(4)]);
    let server = ScriptedServer::start(vec![events(&[]), all]).await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), Some("my-key-1")).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    assert_eq!(requests(&server), [post(), post()]);
    let keys: Vec<_> =
        server.requests().iter().map(|request| request.header("idempotency-key").map(str::to_owned)).collect();
    assert_eq!(keys, [Some("my-key-1".to_string()), Some("my-key-1".to_string())]);
}

#[tokio::test]
async fn a_run_whose_streams_keep_ending_before_run_started_is_sent_again_within_the_budget() {
    let server = ScriptedServer::start(vec![events(&[])]).await;
    let started = std::time::Instant::now();
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert!(seen.is_empty());
    assert!(matches!(&error, Some(Error::Connection(cut)) if cut.source_error().is_none()), "{error:?}");
    // The opening answer's drop is sent again at once; the two that follow are the retries.
    assert_eq!(requests(&server), [post(), post(), post(), post()]);
    assert!(started.elapsed() >= std::time::Duration::from_millis(1100), "backoff waits {:?}", started.elapsed());
}

#[tokio::test]
async fn failed_rejoins_use_the_budget_and_a_rejoin_that_delivers_gives_it_back() {
    let server = ScriptedServer::start(vec![
        events(&[started(1)]),
        gateway_page(),
        gateway_page(),
        events(&[delta(2, "a")]), // a new event: the budget (2 retries, both spent) is given back
        gateway_page(),
        gateway_page(),
        events(&[delta(3, "b"), completed(4)]),
    ])
    .await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    let after = |id| rejoin(Some(id));
    assert_eq!(requests(&server), [post(), after("1"), after("1"), after("1"), after("2"), after("2"), after("2")]);
}

#[tokio::test]
async fn when_the_budget_is_spent_the_last_failure_is_raised() {
    let server = ScriptedServer::start(vec![events(&[started(1)]), gateway_page()]).await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert_eq!(seen, ["run.started"]);
    let error = error.expect("the stream ends with the last failure");
    assert!(matches!(&error, Error::UnexpectedStatus(page) if page.status == 502), "{error}");
    assert_eq!(requests(&server), [post(), rejoin(Some("1")), rejoin(Some("1")), rejoin(Some("1"))]);

    // With retries off, a drop is still rejoined once: the first reconnect is not a retry.
    let server = ScriptedServer::start(vec![events(&[started(1)]), gateway_page()]).await;
    let client = Client::builder().base_url(&server.base_url).token(TOKEN).max_retries(0).build().unwrap();
    let (_, error) = read(client.stream_run(&continuing(), None).await.unwrap()).await;
    assert_eq!(error.and_then(|error| error.status()), Some(502));
    assert_eq!(requests(&server), [post(), rejoin(Some("1"))]);
}

#[tokio::test]
async fn a_rejoin_that_ends_again_without_a_new_event_uses_a_retry() {
    let server = ScriptedServer::start(vec![events(&[started(1), delta(2, "a")]), events(&[delta(2, "a")])]).await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert_eq!(seen, ["run.started", "output.delta a"], "event 2 is delivered once");
    let error = error.expect("the budget is spent");
    assert!(error.is_connection() && matches!(&error, Error::Connection(_)), "{error:?}");
    assert_eq!(requests(&server), [post(), rejoin(Some("2")), rejoin(Some("2")), rejoin(Some("2"))]);
}

#[tokio::test]
async fn with_retries_off_each_drop_is_still_rejoined_once() {
    let off = |server: &ScriptedServer| {
        Client::builder().base_url(&server.base_url).token(TOKEN).max_retries(0).build().unwrap()
    };
    // Every drop after a new event is rejoined at once: the first rejoin is not a retry.
    let server = ScriptedServer::start(vec![
        events(&[started(1)]),
        events(&[delta(2, "a")]),
        Action::StreamThenCut(delta(3, "b")),
        events(&[completed(4)]),
    ])
    .await;
    let (seen, error) = read(off(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    assert_eq!(requests(&server), [post(), rejoin(Some("1")), rejoin(Some("2")), rejoin(Some("3"))]);

    // A rejoined stream that ends again without a new event is the first rejoin that failed.
    let server =
        ScriptedServer::start(vec![events(&[started(1), delta(2, "a")]), events(&[delta(2, "a")]), events(&[])]).await;
    let (seen, error) = read(off(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert_eq!(seen, ["run.started", "output.delta a"]);
    assert!(matches!(&error, Some(Error::Connection(cut)) if cut.source_error().is_none()), "{error:?}");
    assert_eq!(requests(&server), [post(), rejoin(Some("2"))]);

    // Before the first event too: the run is sent again once.
    let server = ScriptedServer::start(vec![events(&[])]).await;
    let (seen, error) = read(off(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert!(seen.is_empty());
    assert!(matches!(error, Some(Error::Connection(_))), "{error:?}");
    assert_eq!(requests(&server), [post(), post()]);
}

#[tokio::test]
async fn the_first_rejoin_has_the_whole_budget_whatever_the_opening_request_spent() {
    let server = ScriptedServer::start(vec![
        gateway_page(),
        gateway_page(),
        events(&[]), // opened after both retries, then dropped before its first event
        gateway_page(),
        gateway_page(),
        events(&[started(1), delta(2, "a"), delta(3, "b"), completed(4)]),
    ])
    .await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    // The opening request and its 2 retries; the run sent again at once, and its own 2 retries.
    assert_eq!(requests(&server), [post(), post(), post(), post(), post(), post()]);
}

#[tokio::test]
async fn a_421_on_a_rejoin_is_followed_once_to_its_owner() {
    let misdirected =
        Action::problem(421, "", &problem(421, "MISDIRECTED_REQUEST", r#","hostId":"beta","ownerHostId":"gamma""#));
    let server = ScriptedServer::start(vec![events(&[started(1)]), misdirected, events(&[completed(2)])]).await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ["run.started", "run.completed"]);
    let hosts: Vec<_> =
        server.requests().iter().map(|request| request.header("agentic-host").map(str::to_owned)).collect();
    assert_eq!(hosts, [None, Some("beta".into()), Some("gamma".into())]);
}

#[tokio::test]
async fn run_events_expired_on_a_rejoin_ends_the_stream_with_its_typed_error() {
    let expired = Action::problem(410, "", &problem(410, "RUN_EVENTS_EXPIRED", r#","firstEventId":40"#));
    let server = ScriptedServer::start(vec![events(&[started(1)]), expired, events(&[completed(2)])]).await;
    let (seen, error) = read(client(&server).stream_run(&continuing(), None).await.unwrap()).await;
    assert_eq!(seen, ["run.started"]);
    let error = error.expect("RUN_EVENTS_EXPIRED");
    assert_eq!(error.kind(), Some(&ProblemKind::RunEventsExpired { first_event_id: 40 }));
    assert_eq!(error.first_event_id(), Some(40));
    assert_eq!(server.requests().len(), 2, "not retried");
}

#[tokio::test]
async fn an_actions_stream_with_continue_rejoins_and_one_without_does_not() {
    let approve = |on_disconnect| types::SubmitRunActionsRequest {
        approvals: vec![types::ApprovalDecision { call_id: "c".into(), approve: true, reason: None }],
        function_results: vec![],
        on_disconnect,
    };
    let actions = format!("/v1/runs/{RUN}/actions/stream");
    let server = ScriptedServer::start(vec![events(&[delta(5, "a")]), events(&[delta(6, "b"), completed(7)])]).await;
    let stream = client(&server).stream_run_actions(RUN, &approve(Some(types::OnDisconnect::Continue)), None).await;
    let (seen, error) = read(stream.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ["output.delta a", "output.delta b", "run.completed"]);
    assert_eq!(requests(&server), [("POST".into(), actions.clone(), None), rejoin(Some("5"))]);

    // Dropped before its first event: the actions are sent again, with the same key.
    let server = ScriptedServer::start(vec![events(&[]), events(&[delta(5, "a"), completed(6)])]).await;
    let stream = client(&server).stream_run_actions(RUN, &approve(Some(types::OnDisconnect::Continue)), None).await;
    assert_eq!(read(stream.unwrap()).await.0, ["output.delta a", "run.completed"]);
    let keys: Vec<_> =
        server.requests().iter().map(|request| request.header("idempotency-key").map(str::to_owned)).collect();
    assert_eq!((keys.len(), keys[0].is_some(), &keys[0]), (2, true, &keys[1]));

    let server = ScriptedServer::start(vec![events(&[delta(5, "a")]), events(&[completed(6)])]).await;
    let stream = client(&server).stream_run_actions(RUN, &approve(None), None).await.unwrap();
    assert_eq!(read(stream).await.0, ["output.delta a"]);
    assert_eq!(server.requests().len(), 1, "no continue in its own request: not resumed");
}

#[tokio::test]
async fn stream_run_events_sends_last_event_id_and_the_runs_host() {
    let server = ScriptedServer::start(vec![events(&[delta(3, "b"), completed(4)])]).await;
    let client = client(&server);
    let stream = client.stream_run_events(RUN, Some("2")).await.unwrap();
    assert!(stream.is_resumable());
    assert_eq!(read(stream).await.0, ["output.delta b", "run.completed"]);
    assert_eq!(requests(&server), [rejoin(Some("2"))]);
    assert_eq!(server.requests()[0].header("agentic-host"), Some("beta"));

    let error = client.stream_run_events(RUN, Some("x1")).await.err().expect("refused before sending");
    assert!(matches!(error, Error::InvalidRequest(_)), "{error}");
    assert_eq!(server.requests().len(), 1);

    // From the first event, and resumed after a cut like a continue run's stream.
    let cut = format!("{}{}", started(1), delta(2, "a"));
    let server = ScriptedServer::start(vec![Action::StreamThenCut(cut), events(&[delta(3, "b"), completed(4)])]).await;
    let (seen, error) = read(self::client(&server).stream_run_events(RUN, None).await.unwrap()).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(seen, ALL);
    assert_eq!(requests(&server), [rejoin(None), rejoin(Some("2"))]);
}

#[tokio::test]
async fn get_run_reads_the_runs_state_from_its_host() {
    let state = format!(
        r#"{{"id":"{RUN}","status":"completed","onDisconnect":"continue","firstEventId":1,"lastEventId":4,"result":{}}}"#,
        result()
    );
    let server = ScriptedServer::start(vec![Action::json(200, &state)]).await;
    let run = client(&server).get_run(RUN).await.unwrap();
    assert_eq!((run.status, run.on_disconnect), (types::RunStateStatus::Completed, types::OnDisconnect::Continue));
    assert_eq!((run.first_event_id.get(), run.last_event_id.get()), (1, 4));
    assert_eq!(run.result.unwrap().output.text, "echo: ab");
    let request = &server.requests()[0];
    assert_eq!((request.method.as_str(), request.path.as_str()), ("GET", format!("/v1/runs/{RUN}").as_str()));
    assert_eq!(request.header("agentic-host"), Some("beta"));

    let missing = Action::problem(404, "", &problem(404, "RUN_NOT_FOUND", ""));
    let server = ScriptedServer::start(vec![missing]).await;
    let error = client(&server).get_run(RUN).await.unwrap_err();
    assert_eq!(error.kind(), Some(&ProblemKind::RunNotFound));
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_resumable_stream_can_move_between_tasks_and_be_shared() {
    fn send_sync_unpin<T: Send + Sync + Unpin>() {}
    send_sync_unpin::<EventStream>();
}
