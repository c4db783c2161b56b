//! One request through the client: the generated client's method for a step's operationId, or
//! the hand-written stream for a streamed one, and the `Exchange` (status, headers, JSON) it got.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use agentic_driver_client::{types, Client, Error, Event};
use progenitor_client::ResponseValue;
use reqwest::header::HeaderMap;
use serde::Serialize;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::{INVALID_TOKEN, REQUEST_TIMEOUT, TOKENS};

/// One request and what came back.
pub(super) struct Exchange {
    pub(super) status: u16,
    pub(super) headers: HeaderMap,
    /// The body as JSON; a stream's is the array of its events' data.
    pub(super) json: Option<Value>,
    /// What the client's reading of the answer got wrong.
    pub(super) parse_problems: Vec<String>,
    pub(super) describe: String,
}

#[derive(Clone)]
pub(super) struct CallInput {
    /// A parallel request gets a client (and connection) of its own.
    pub(super) own_client: bool,
    pub(super) base_url: String,
    pub(super) operation_id: String,
    pub(super) auth: String,
    pub(super) path: Value,
    pub(super) headers: Value,
    pub(super) body: Value,
    pub(super) transport: Value,
}

impl CallInput {
    fn describe(&self, status: u16, body: &str) -> String {
        let request = if self.body.is_null() { String::new() } else { truncate(&self.body.to_string(), 400) };
        format!("{} {} {request}\n  -> {status} {}", self.operation_id, self.path, truncate(body, 800))
    }

    fn path_param(&self, name: &str) -> String {
        self.path[name].as_str().unwrap_or_default().to_string()
    }

    fn idempotency_key(&self) -> Option<&str> {
        self.headers["Idempotency-Key"].as_str()
    }

    fn body<T: serde::de::DeserializeOwned>(&self) -> Result<T, String> {
        serde_json::from_value(self.body.clone())
            .map_err(|e| format!("the body does not deserialize into {}: {e}", std::any::type_name::<T>()))
    }
}

pub fn truncate(text: &str, limit: usize) -> String {
    text.chars().take(limit).collect()
}

fn key<K: for<'a> TryFrom<&'a str>>(input: &CallInput) -> Result<Option<K>, String> {
    input
        .idempotency_key()
        .map(|key| K::try_from(key).map_err(|_| format!("invalid Idempotency-Key {key}")))
        .transpose()
}

/// A loopback proxy for one connection that sets the request's header `name` (lowercase) to
/// `value` on the wire.
async fn header_proxy(base_url: &str, name: &'static str, value: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let upstream = base_url.trim_start_matches("http://").to_string();
    tokio::spawn(async move {
        let Ok((mut inbound, _)) = listener.accept().await else { return };
        let mut head = Vec::new();
        let mut buffer = [0u8; 8192];
        let end = loop {
            let Ok(n) = inbound.read(&mut buffer).await else { return };
            if n == 0 {
                return;
            }
            head.extend_from_slice(&buffer[..n]);
            if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
        };
        let (request_head, rest) = head.split_at(end);
        let rewritten: String = String::from_utf8_lossy(request_head)
            .split("\r\n")
            .map(|line| {
                if line.to_ascii_lowercase().starts_with(&format!("{name}:")) {
                    format!("{name}: {value}")
                } else {
                    line.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\r\n");
        let Ok(mut outbound) = TcpStream::connect(&upstream).await else { return };
        if outbound.write_all(rewritten.as_bytes()).await.is_err() || outbound.write_all(rest).await.is_err() {
            return;
        }
        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
    });
    format!("http://{address}")
}

pub(super) async fn call(input: CallInput) -> Result<Exchange, String> {
    // A Last-Event-ID the typed header refuses is sent as this placeholder, then rewritten.
    const PLACEHOLDER_EVENT_ID: &str = "1";
    let last_event_id = input.headers["Last-Event-ID"].as_str();
    let refused_event_id =
        last_event_id.filter(|id| types::StreamRunEventsLastEventId::try_from(*id).is_err()).map(str::to_string);
    let last_event_id = if refused_event_id.is_some() { Some(PLACEHOLDER_EVENT_ID) } else { last_event_id };
    let base_url = match (input.transport["contentType"].as_str(), refused_event_id) {
        (Some(content_type), _) => header_proxy(&input.base_url, "content-type", content_type.to_string()).await,
        (None, Some(id)) => header_proxy(&input.base_url, "last-event-id", id).await,
        (None, None) => input.base_url.clone(),
    };
    let token = match input.auth.as_str() {
        "none" => "",
        "invalid" => INVALID_TOKEN,
        name => TOKENS.iter().find(|(known, _)| *known == name).ok_or(format!("unknown credentials {name}"))?.1,
    };
    let client = if input.own_client || base_url != input.base_url {
        contract_client(&base_url, token)?
    } else {
        shared_client(&base_url, token)?
    };
    let raw = client.raw();
    let answer = async {
        match input.operation_id.as_str() {
            "getHealth" => Ok(plain(&input, raw.get_health().await).await),
            "getDiscovery" => Ok(plain(&input, raw.get_discovery().await).await),
            "createSession" => {
                let body: types::CreateSessionRequest = input.body()?;
                let key = key::<types::CreateSessionIdempotencyKey>(&input)?;
                Ok(plain(&input, raw.create_session(key.as_ref(), &body).await).await)
            }
            "readSession" => Ok(plain(&input, raw.read_session(&input.path_param("sessionId"), None).await).await),
            "deleteSession" => Ok(plain(&input, raw.delete_session(&input.path_param("sessionId"), None).await).await),
            "run" => {
                let body: types::RunRequest = input.body()?;
                let key = key::<types::RunIdempotencyKey>(&input)?;
                Ok(plain(&input, raw.run(None, key.as_ref(), &body).await).await)
            }
            "submitRunActions" => {
                let body: types::SubmitRunActionsRequest = input.body()?;
                let key = key::<types::SubmitRunActionsIdempotencyKey>(&input)?;
                Ok(plain(&input, raw.submit_run_actions(&input.path_param("runId"), None, key.as_ref(), &body).await)
                    .await)
            }
            "cancelRun" => Ok(plain(&input, raw.cancel_run(&input.path_param("runId"), None).await).await),
            "truncateSession" => {
                let body: types::TruncateSessionRequest = input.body()?;
                Ok(plain(&input, raw.truncate_session(&input.path_param("sessionId"), None, &body).await).await)
            }
            "forkSession" => {
                let body: types::ForkSessionRequest = input.body()?;
                let key = key::<types::ForkSessionIdempotencyKey>(&input)?;
                let session_id = input.path_param("sessionId");
                Ok(plain(&input, raw.fork_session(&session_id, None, key.as_ref(), &body).await).await)
            }
            "streamRun" => {
                let body: types::RunRequest = input.body()?;
                Ok(streamed(&input, client.stream_run(&body, input.idempotency_key()).await).await)
            }
            "streamRunActions" => {
                let body: types::SubmitRunActionsRequest = input.body()?;
                let run_id = input.path_param("runId");
                Ok(streamed(&input, client.stream_run_actions(&run_id, &body, input.idempotency_key()).await).await)
            }
            "getRun" => Ok(plain(&input, raw.get_run(&input.path_param("runId"), None).await).await),
            "streamRunEvents" => {
                let run_id = input.path_param("runId");
                Ok(streamed(&input, client.stream_run_events(&run_id, last_event_id).await).await)
            }
            other => Err(format!("the client has no operation {other}")),
        }
    };
    tokio::time::timeout(REQUEST_TIMEOUT, answer).await.map_err(|_| "the request timed out".to_string())?
}

/// Clients by (base URL, token), reused across requests: building one loads the TLS roots.
fn shared_client(base_url: &str, token: &str) -> Result<Client, String> {
    static CLIENTS: OnceLock<Mutex<HashMap<(String, String), Client>>> = OnceLock::new();
    let mut clients = CLIENTS.get_or_init(Default::default).lock().unwrap();
    let key = (base_url.to_string(), token.to_string());
    if let Some(client) = clients.get(&key) {
        return Ok(client.clone());
    }
    let client = contract_client(base_url, token)?;
    clients.insert(key, client.clone());
    Ok(client)
}

/// A client that makes exactly the requests a scenario says: no retries.
fn contract_client(base_url: &str, token: &str) -> Result<Client, String> {
    Client::builder().base_url(base_url).token(token).max_retries(0).build().map_err(|e| e.to_string())
}

async fn plain<T: Serialize, E: agentic_driver_client::ErrorBody>(
    input: &CallInput,
    result: Result<ResponseValue<T>, progenitor_client::Error<E>>,
) -> Exchange {
    match result {
        Ok(answer) => {
            let (status, headers) = (answer.status().as_u16(), answer.headers().clone());
            let json = serde_json::to_value(answer.into_inner()).unwrap();
            let describe = input.describe(status, &format!("(as parsed) {json}"));
            Exchange { status, headers, json: Some(json), parse_problems: vec![], describe }
        }
        Err(error) => refused(input, Error::from_raw(error).await),
    }
}

/// An error answer: a problem must be the client's kind of its wire code.
fn refused(input: &CallInput, error: Error) -> Exchange {
    match error {
        Error::Problem(problem) => {
            let wire_code = problem.body["code"].as_str().unwrap_or_default().to_string();
            let parse_problems = match problem.kind.code() {
                Some(code) if code.to_string() == wire_code => vec![],
                Some(code) => vec![format!("the client read code {code}, the wire says {wire_code}")],
                None => vec![format!("the client has no ProblemKind for {wire_code}")],
            };
            Exchange {
                status: problem.status,
                describe: input.describe(problem.status, &problem.body.to_string()),
                headers: problem.headers.clone(),
                json: Some(problem.body.clone()),
                parse_problems,
            }
        }
        Error::UnexpectedStatus(answer) => Exchange {
            status: answer.status,
            headers: answer.headers.clone(),
            json: serde_json::from_str(&answer.body).ok(),
            parse_problems: vec![format!("the client did not read the {} answer as a problem", answer.status)],
            describe: input.describe(answer.status, &answer.body),
        },
        other => Exchange {
            status: 0,
            headers: HeaderMap::new(),
            json: None,
            parse_problems: vec![format!("the client failed: {other}")],
            describe: input.describe(0, ""),
        },
    }
}

async fn streamed(input: &CallInput, result: Result<agentic_driver_client::EventStream, Error>) -> Exchange {
    let mut stream = match result {
        Ok(stream) => stream,
        Err(error) => return refused(input, error),
    };
    let limit = input.transport["disconnectAfterEvents"].as_u64().map(|n| n as usize);
    let (mut events, mut parse_problems, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    while limit.is_none_or(|limit| events.len() < limit) {
        match stream.next().await {
            None => break,
            Some(Ok(event)) => {
                if let Event::Unknown(event) = &event {
                    unknown.push(event.event_type.clone());
                }
                events.push(serde_json::from_str(stream.last_event_data()).unwrap_or(Value::Null));
            }
            Some(Err(error)) => {
                parse_problems.push(format!("reading the stream failed: {error}"));
                break;
            }
        }
    }
    if !unknown.is_empty() {
        parse_problems.push(format!("the client does not know the event types {unknown:?}"));
    }
    let (status, headers) = (stream.status(), stream.headers().clone());
    drop(stream); // hangs up, also after disconnectAfterEvents
    let json = Value::Array(events);
    Exchange {
        status,
        headers,
        describe: input.describe(status, &format!("(events) {json}")),
        json: Some(json),
        parse_problems,
    }
}
