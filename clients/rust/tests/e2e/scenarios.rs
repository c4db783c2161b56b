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

mod exchange;
mod metrics;
mod values;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{repo_root, Host, HostConfig};
use exchange::{call, CallInput, Exchange};
pub use metrics::metric_step;
use values::check_expect;
pub use values::{matches, pointer, resolve, shown};

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

async fn metric(context: &mut Context<'_>, step: &Value) -> Result<(), String> {
    let metrics = reqwest::Client::new().get(format!("{}/metrics", context.base_url)).timeout(REQUEST_TIMEOUT);
    metric_step(metrics, step, &mut context.variables).await
}
