//! The Rust player of contract-tests/scenarios/*.json (format: contract-tests/scenarios/README.md).
//!
//! Every request goes through the client: plain operations through the generated client's
//! method for the step's operationId (`Client::raw`, which keeps status and headers; its errors
//! go through `Error::from_raw`, the hand-written typed errors), streamed ones through the
//! hand-written `stream_run`/`stream_run_actions`/`stream_run_events`. Bodies are deserialized from the step's wire
//! JSON into the generated request types. Problems and stream events are judged as sent; a
//! success body is the generated type the client parsed, serialized again (progenitor keeps no
//! raw body), which also proves that the client kept every field. Each answer is also checked as
//! the client understood it: a problem's `ProblemKind` is the wire `code`, a stream has no unknown
//! event types. Full schema validation of answers is the Python runner's job (schemathesis).
//! `transport.contentType` is applied on the wire by a one-connection loopback proxy, and so is a
//! `Last-Event-ID` that the client's typed header refuses (`x1`: the scenario asks the host to
//! judge it): the client sends a valid placeholder, rewritten on the wire to the scenario's value.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use agentic_driver_client::{types, Client, Error, Event};
use progenitor_client::ResponseValue;
use reqwest::header::HeaderMap;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::{repo_root, Host, HostConfig};

const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
pub const TOKENS: [(&str, &str); 3] = [
    ("full", "contract-rust-full-token-0001"),
    ("no-grants", "contract-rust-no-grants-token"),
    ("other", "contract-rust-other-subject-01"),
];
const INVALID_TOKEN: &str = "contract-token-no-host-knows-0";

/// The token variables a contract host reads (`tokenEnv`): CONTRACT_TOKEN_<NAME>.
pub fn token_environment() -> Vec<(String, String)> {
    TOKENS
        .iter()
        .map(|(name, secret)| (format!("CONTRACT_TOKEN_{}", name.to_uppercase().replace('-', "_")), secret.to_string()))
        .collect()
}

/// The contract-tests directory: `$AGENTIC_DRIVER_CONTRACT_TESTS`, else the repository's.
pub fn contract_dir() -> PathBuf {
    match std::env::var_os("AGENTIC_DRIVER_CONTRACT_TESTS").filter(|value| !value.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => repo_root().join("contract-tests"),
    }
}

pub struct Scenario {
    pub name: String,
    pub host: String,
    pub isolated: bool,
    pub data: Value,
}

/// Every scenario file of `dir`, checked against `dir/schema.json`.
pub fn load(dir: &Path) -> Result<Vec<Scenario>, String> {
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let schema = compiler
        .compile(dir.join("schema.json").to_str().unwrap(), &mut schemas)
        .map_err(|e| format!("scenarios/schema.json: {e}"))?;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && !path.ends_with("schema.json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let file = path.file_name().unwrap().to_string_lossy().to_string();
            let data: Value = serde_json::from_slice(&std::fs::read(path).map_err(|e| e.to_string())?)
                .map_err(|e| format!("{file}: {e}"))?;
            schemas
                .validate(&data, schema)
                .map_err(|e| format!("{file} does not follow scenarios/schema.json:\n{e:#}"))?;
            let name = file.trim_end_matches(".json").to_string();
            if data["name"] != name {
                return Err(format!("{file}: name {} must equal the file name", data["name"]));
            }
            Ok(Scenario {
                host: data["host"].as_str().unwrap_or("main").to_string(),
                isolated: data["isolated"].as_bool().unwrap_or(false),
                name,
                data,
            })
        })
        .collect()
}

/// The hosts scenarios play against: shared ones by name, started on first use.
pub struct Hosts {
    dir: PathBuf,
    shared: tokio::sync::Mutex<HashMap<String, Arc<Host>>>,
}

impl Hosts {
    pub fn new(dir: PathBuf) -> Self {
        Hosts { dir, shared: tokio::sync::Mutex::new(HashMap::new()) }
    }

    fn config(&self, name: &str) -> Result<PathBuf, String> {
        match name {
            "main" => Ok(self.dir.join("host.json")),
            "no-sessions" => Ok(self.dir.join("host-no-sessions.json")),
            "quotas" => Ok(self.dir.join("host-quotas.json")),
            other => Err(format!("unknown host {other}")),
        }
    }

    async fn start(&self, name: &str) -> Result<Host, String> {
        let env = token_environment();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Host::start(HostConfig::File(&self.config(name)?), &env).await
    }

    /// Plays one scenario on its host (a fresh one when it is isolated).
    pub async fn play(&self, scenario: &Scenario) -> Result<(), String> {
        if scenario.isolated {
            let host = self.start(&scenario.host).await?;
            return play(scenario, &host.base_url).await;
        }
        let host = {
            let mut shared = self.shared.lock().await;
            match shared.get(&scenario.host) {
                Some(host) => host.clone(),
                None => {
                    let host = Arc::new(self.start(&scenario.host).await?);
                    shared.insert(scenario.host.clone(), host.clone());
                    host
                }
            }
        };
        play(scenario, &host.base_url).await
    }
}

// -- one request through the client ------------------------------------------------------------

/// One request and what came back.
struct Exchange {
    status: u16,
    headers: HeaderMap,
    /// The body as JSON; a stream's is the array of its events' data.
    json: Option<Value>,
    /// What the client's reading of the answer got wrong.
    parse_problems: Vec<String>,
    describe: String,
}

#[derive(Clone)]
struct CallInput {
    /// A parallel request gets a client (and connection) of its own.
    own_client: bool,
    base_url: String,
    operation_id: String,
    auth: String,
    path: Value,
    headers: Value,
    body: Value,
    transport: Value,
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

async fn call(input: CallInput) -> Result<Exchange, String> {
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

// -- values, expectations, captures --------------------------------------------------------------

fn is_reference(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('$') else { return false };
    let mut parts = rest.split('.');
    let first = parts.next().unwrap_or_default();
    let word = |part: &str, first: bool| {
        !part.is_empty()
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && (!first || !part.starts_with(|c: char| c.is_ascii_digit()))
    };
    word(first, true) && parts.all(|part| word(part, false))
}

fn lookup(variables: &HashMap<String, Value>, reference: &str) -> Result<Value, String> {
    let mut parts = reference.split('.');
    let name = parts.next().unwrap();
    let mut value = variables.get(name).ok_or(format!("${reference}: nothing was captured as {name}"))?;
    for part in parts {
        value = match value {
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            Value::Object(fields) => fields.get(part),
            _ => None,
        }
        .ok_or(format!("${reference}: {part} is not in the captured value {value}"))?;
    }
    Ok(value.clone())
}

pub fn resolve(value: &Value, variables: &HashMap<String, Value>) -> Result<Value, String> {
    Ok(match value {
        Value::String(text) if text.starts_with("$$") => Value::String(text[1..].to_string()),
        Value::String(text) if is_reference(text) => lookup(variables, &text[1..])?,
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| resolve(item, variables)).collect::<Result<_, _>>()?)
        }
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("$repeat") => {
            let spec = &fields["$repeat"];
            let text = resolve(&spec["text"], variables)?;
            let times = resolve(&spec["times"], variables)?.as_f64().unwrap_or(0.0) as usize;
            Value::String(text.as_str().map(str::to_string).unwrap_or_else(|| text.to_string()).repeat(times))
        }
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, item)| Ok((key.clone(), resolve(item, variables)?)))
                .collect::<Result<_, String>>()?,
        ),
        other => other.clone(),
    })
}

pub fn pointer<'a>(document: Option<&'a Value>, location: &str) -> Option<&'a Value> {
    let document = document?;
    if location.is_empty() {
        return Some(document);
    }
    location[1..].split('/').try_fold(document, |value, raw| {
        let part = raw.replace("~1", "/").replace("~0", "~");
        match value {
            Value::Object(fields) => fields.get(&part),
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }
    })
}

/// JSON equality with numbers compared by value (1 equals 1.0).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| json_eq(value, other)))
        }
        _ => a == b,
    }
}

pub fn matches(actual: Option<&Value>, expected: &Value, variables: &HashMap<String, Value>) -> Result<bool, String> {
    if let Value::Object(fields) = expected {
        if let Some((operator, argument)) =
            fields.iter().next().filter(|(op, _)| fields.len() == 1 && op.starts_with('$') && *op != "$repeat")
        {
            let argument = resolve(argument, variables)?;
            if operator == "$exists" {
                return Ok(actual.is_some() == argument.as_bool().unwrap_or(false));
            }
            let Some(actual) = actual else { return Ok(false) };
            return Ok(match operator.as_str() {
                "$len" => {
                    let length = match actual {
                        Value::Array(items) => items.len(),
                        Value::Object(fields) => fields.len(),
                        Value::String(text) => text.chars().count(),
                        _ => return Ok(false),
                    };
                    argument.as_f64() == Some(length as f64)
                }
                "$in" => {
                    argument.as_array().is_some_and(|options| options.iter().any(|option| json_eq(actual, option)))
                }
                "$ne" => !json_eq(actual, &argument),
                "$type" => match argument.as_str().unwrap_or_default() {
                    "string" => actual.is_string(),
                    "integer" => actual.as_f64().is_some_and(|n| n.fract() == 0.0),
                    "number" => actual.is_number(),
                    "boolean" => actual.is_boolean(),
                    "object" => actual.is_object(),
                    "array" => actual.is_array(),
                    "null" => actual.is_null(),
                    _ => false,
                },
                other => return Err(format!("unknown matcher {other}")),
            });
        }
    }
    Ok(actual.is_some_and(|actual| json_eq(actual, &resolve(expected, variables).unwrap_or(Value::Null))))
}

pub fn shown(value: Option<&Value>) -> String {
    value.map_or("(missing)".to_string(), |value| truncate(&value.to_string(), 300))
}

fn check_expect(
    exchange: &Exchange,
    expect: &Value,
    variables: &HashMap<String, Value>,
) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    if expect["status"].as_u64() != Some(u64::from(exchange.status)) {
        problems.push(format!("status {}, expected {}", exchange.status, expect["status"]));
    }
    if let Some(wanted) = expect.get("code") {
        let wanted: Vec<&Value> = wanted.as_array().map_or(vec![wanted], |codes| codes.iter().collect());
        let code = exchange.json.as_ref().filter(|_| exchange.status >= 400).and_then(|body| body.get("code"));
        if !code.is_some_and(|code| wanted.contains(&code)) {
            problems.push(format!("code {}, expected {wanted:?}", shown(code)));
        }
    }
    for (location, expected) in expect["body"].as_object().into_iter().flatten() {
        let actual = pointer(exchange.json.as_ref(), location);
        if !matches(actual, expected, variables)? {
            let location = if location.is_empty() { "(whole)" } else { location };
            problems.push(format!("body {location} is {}, expected {}", shown(actual), shown(Some(expected))));
        }
    }
    for (name, expected) in expect["headers"].as_object().into_iter().flatten() {
        let actual = exchange.headers.get(name.as_str()).and_then(|v| v.to_str().ok()).map(|v| Value::String(v.into()));
        if !matches(actual.as_ref(), expected, variables)? {
            problems.push(format!("header {name} is {}, expected {}", shown(actual.as_ref()), shown(Some(expected))));
        }
    }
    Ok(problems)
}

// -- playing -----------------------------------------------------------------------------------

struct Context<'a> {
    scenario: &'a Scenario,
    base_url: &'a str,
    variables: HashMap<String, Value>,
    background: HashMap<String, tokio::task::JoinHandle<Result<Exchange, String>>>,
}

pub async fn play(scenario: &Scenario, base_url: &str) -> Result<(), String> {
    let repeat = scenario.data["repeat"].as_u64().unwrap_or(1);
    let steps = scenario.data["steps"].as_array().cloned().unwrap_or_default();
    for iteration in 1..=repeat {
        let mut context = Context { scenario, base_url, variables: HashMap::new(), background: HashMap::new() };
        let mut outcome = Ok(());
        for (index, step) in steps.iter().enumerate() {
            if let Err(problem) = run_step(&mut context, step).await {
                let note = step["note"].as_str().map(|note| format!(" ({note})")).unwrap_or_default();
                outcome = Err(format!("{}, iteration {iteration}, step {}{note}: {problem}", scenario.name, index + 1));
                break;
            }
        }
        // A failed step may leave background requests running: let them finish first.
        for (_, pending) in context.background.drain() {
            let _ = pending.await;
        }
        outcome?;
    }
    Ok(())
}

async fn run_step(context: &mut Context<'_>, step: &Value) -> Result<(), String> {
    if step.get("call").is_some() {
        return request(context, step).await;
    }
    if let Some(name) = step["await"].as_str() {
        let pending = context.background.remove(name).ok_or(format!("no background step named {name} is pending"))?;
        let exchange = pending.await.map_err(|e| format!("the background request panicked: {e}"))??;
        return conclude(context, &exchange, step);
    }
    if step.get("parallel").is_some() {
        return parallel(context, step).await;
    }
    if step.get("metric").is_some() {
        return metric(context, step).await;
    }
    Err(format!("unknown step {step}"))
}

fn prepare(context: &Context<'_>, step: &Value) -> Result<CallInput, String> {
    let auth = step["as"].as_str().or(context.scenario.data["as"].as_str()).unwrap_or("full");
    Ok(CallInput {
        own_client: false,
        base_url: context.base_url.to_string(),
        operation_id: step["call"].as_str().unwrap_or_default().to_string(),
        auth: auth.to_string(),
        path: resolve(step.get("path").unwrap_or(&json!({})), &context.variables)?,
        headers: resolve(step.get("headers").unwrap_or(&json!({})), &context.variables)?,
        body: step.get("body").map(|body| resolve(body, &context.variables)).transpose()?.unwrap_or(Value::Null),
        transport: step.get("transport").cloned().unwrap_or(json!({})),
    })
}

async fn perform(input: CallInput) -> Result<Exchange, String> {
    let exchange = call(input).await?;
    if !exchange.parse_problems.is_empty() {
        return Err(format!("{}\n{}", exchange.parse_problems.join("; "), exchange.describe));
    }
    Ok(exchange)
}

async fn request(context: &mut Context<'_>, step: &Value) -> Result<(), String> {
    let input = prepare(context, step)?;
    if let Some(name) = step["background"].as_str() {
        context.background.insert(name.to_string(), tokio::spawn(perform(input)));
        return Ok(());
    }
    if let Some(until) = step.get("until") {
        let deadline = Instant::now() + Duration::from_millis(until["timeoutMs"].as_u64().unwrap_or(0));
        let interval = Duration::from_millis(until["intervalMs"].as_u64().unwrap_or(20));
        loop {
            let exchange = perform(input.clone()).await?;
            if check_expect(&exchange, &step["expect"], &context.variables)?.is_empty() || Instant::now() > deadline {
                return conclude(context, &exchange, step);
            }
            tokio::time::sleep(interval).await;
        }
    }
    let times = resolve(step.get("times").unwrap_or(&json!(1)), &context.variables)?.as_f64().unwrap_or(1.0) as usize;
    for _ in 0..times {
        let exchange = perform(input.clone()).await?;
        conclude(context, &exchange, step)?;
    }
    Ok(())
}

fn conclude(context: &mut Context<'_>, exchange: &Exchange, step: &Value) -> Result<(), String> {
    let problems = check_expect(exchange, &step["expect"], &context.variables)?;
    if !problems.is_empty() {
        return Err(format!("{}\n{}", problems.join("; "), exchange.describe));
    }
    for (name, location) in step["capture"].as_object().into_iter().flatten() {
        let location = location.as_str().unwrap_or_default();
        let value = pointer(exchange.json.as_ref(), location)
            .ok_or(format!("cannot capture {name}: {location} is not in the answer\n{}", exchange.describe))?;
        context.variables.insert(name.clone(), value.clone());
    }
    Ok(())
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for rest in permutations(n - 1) {
        for i in 0..=rest.len() {
            let mut order = rest.clone();
            order.insert(i, n - 1);
            all.push(order);
        }
    }
    all
}

async fn parallel(context: &mut Context<'_>, step: &Value) -> Result<(), String> {
    let requests = step["parallel"].as_array().cloned().unwrap_or_default();
    let inputs: Vec<CallInput> = requests
        .iter()
        .map(|request| prepare(context, request).map(|input| CallInput { own_client: true, ..input }))
        .collect::<Result<_, _>>()?;
    // Every request is sent at the same moment, each through its own client.
    let barrier = Arc::new(tokio::sync::Barrier::new(inputs.len()));
    let tasks: Vec<_> = inputs
        .into_iter()
        .map(|input| {
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                perform(input).await
            })
        })
        .collect();
    let mut exchanges = Vec::new();
    for task in tasks {
        exchanges.push(task.await.map_err(|e| format!("a parallel request panicked: {e}"))??);
    }
    let outcomes = step["outcomes"].as_array().cloned().unwrap_or_default();
    for order in permutations(exchanges.len()) {
        let mut all = true;
        for (j, &i) in order.iter().enumerate() {
            all = all && check_expect(&exchanges[i], &outcomes[j], &context.variables)?.is_empty();
        }
        if all {
            return Ok(());
        }
    }
    let shown: Vec<&str> = exchanges.iter().map(|exchange| exchange.describe.as_str()).collect();
    Err(format!("the concurrent answers do not match the outcomes {}:\n{}", step["outcomes"], shown.join("\n")))
}

/// The sum of the samples called `name` whose labels include `labels` (Prometheus text format).
pub fn metric_value(text: &str, name: &str, labels: &serde_json::Map<String, Value>) -> f64 {
    let mut total = 0.0;
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        let Some((series, value)) = line.trim_end().rsplit_once(' ') else { continue };
        let (sample, label_text) = match series.split_once('{') {
            Some((sample, rest)) => (sample, rest.strip_suffix('}').unwrap_or(rest)),
            None => (series, ""),
        };
        if sample != name {
            continue;
        }
        let found = parse_labels(label_text);
        if labels.iter().all(|(key, wanted)| found.get(key.as_str()).map(String::as_str) == wanted.as_str()) {
            total += value.parse::<f64>().unwrap_or(0.0);
        }
    }
    total
}

/// `a="x",b="y\"z"` -> {a: x, b: y"z}.
fn parse_labels(text: &str) -> HashMap<&str, String> {
    let mut labels = HashMap::new();
    let mut rest = text;
    while let Some((key, after)) = rest.split_once("=\"") {
        let mut value = String::new();
        let mut chars = after.char_indices();
        let mut end = after.len();
        while let Some((index, c)) = chars.next() {
            match c {
                '\\' => value.extend(chars.next().map(|(_, escaped)| if escaped == 'n' { '\n' } else { escaped })),
                '"' => {
                    end = index + 1;
                    break;
                }
                c => value.push(c),
            }
        }
        labels.insert(key.trim_start_matches(',').trim(), value);
        rest = &after[end..];
    }
    labels
}

async fn metric(context: &mut Context<'_>, step: &Value) -> Result<(), String> {
    let metrics = reqwest::Client::new().get(format!("{}/metrics", context.base_url)).timeout(REQUEST_TIMEOUT);
    metric_step(metrics, step, &mut context.variables).await
}

/// A `metric` step (both players'): reads the host's `/metrics` with the request `metrics`,
/// checks the increase since a captured value, then captures the value.
pub async fn metric_step(
    metrics: reqwest::RequestBuilder,
    step: &Value,
    variables: &mut HashMap<String, Value>,
) -> Result<(), String> {
    let text = metrics.send().await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    let name = step["metric"].as_str().unwrap_or_default();
    let empty = serde_json::Map::new();
    let labels = step["labels"].as_object().unwrap_or(&empty);
    let value = metric_value(&text, name, labels);
    if let Some(expect) = step.get("expect") {
        let since = resolve(&expect["since"], variables)?.as_f64().unwrap_or(0.0);
        let increase = expect["increase"].as_f64().unwrap_or(0.0);
        if value - since != increase {
            return Err(format!("{name}{} grew by {}, expected {increase}", step["labels"], value - since));
        }
    }
    if let Some(name) = step["capture"].as_str() {
        variables.insert(name.to_string(), json!(value));
    }
    Ok(())
}
