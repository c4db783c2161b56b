//! The Rust player of contract-tests/scenarios/clients/*.json (format: that directory's
//! README.md): the hand-written client, with its default retry policy, against a real host
//! behind the fault-injecting proxy (contract-tests/harness/faultproxy.py). Each `call` step is
//! one logical call of `Client`; `faults` and `proxyLog` steps talk to the proxy's control API
//! (a fault is sent as the scenario wrote it, `cut` with its `after`/`plus`/`end` and paths with a
//! `*` segment included, after its references are replaced); `metric` steps read the host directly.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use agentic_driver_client::{types, Client, Error, EventStream, ProblemKind};
use serde::Serialize;
use serde_json::{json, Value};

use crate::scenarios::{matches, metric_step, pointer, resolve, shown, token_environment, Scenario, TOKENS};
use crate::support::{repo_root, Host, HostConfig};

const STEP_TIMEOUT: Duration = Duration::from_secs(60);

/// The fault proxy, stopped when dropped.
pub struct FaultProxy {
    pub base_url: String,
    child: Child,
}

impl FaultProxy {
    /// Starts `faultproxy.py --upstream URL` and reads its `listening on URL` line.
    pub async fn start(contract_dir: &Path, upstream: &str) -> Result<FaultProxy, String> {
        let python = repo_root().join(".venv/bin/python");
        let mut child = Command::new(&python)
            .arg(contract_dir.join("harness/faultproxy.py"))
            .args(["--upstream", upstream])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting the fault proxy with {}: {e}", python.display()))?;
        let stdout = child.stdout.take().ok_or("the proxy has no stdout")?;
        // One line, printed once it accepts connections (the read ends if the proxy exits).
        let line = tokio::time::timeout(
            Duration::from_secs(20),
            tokio::task::spawn_blocking(move || {
                let mut line = String::new();
                BufReader::new(stdout).read_line(&mut line).map(|_| line)
            }),
        )
        .await;
        let line = match line {
            Ok(Ok(Ok(line))) => line,
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("the fault proxy did not print `listening on URL` within 20 s".into());
            }
        };
        match line.trim().strip_prefix("listening on ") {
            Some(url) => Ok(FaultProxy { base_url: url.trim_end_matches('/').to_string(), child }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(format!("the fault proxy printed {line:?}, not `listening on URL`"))
            }
        }
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A host from `host.json` and a proxy in front of it.
pub struct Rig {
    host: Host,
    proxy: FaultProxy,
    client: Client,
    control: reqwest::Client,
}

impl Rig {
    pub async fn start(contract_dir: &Path) -> Result<Rig, String> {
        let env = token_environment();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let host = Host::start(HostConfig::File(&contract_dir.join("host.json")), &env).await?;
        let proxy = FaultProxy::start(contract_dir, &host.base_url).await?;
        let token = TOKENS.iter().find(|(name, _)| *name == "full").unwrap().1;
        let client = Client::builder().base_url(&proxy.base_url).token(token).build().map_err(|e| e.to_string())?;
        Ok(Rig { host, proxy, client, control: reqwest::Client::new() })
    }

    pub async fn play(&self, scenario: &Scenario) -> Result<(), String> {
        let steps = scenario.data["steps"].as_array().cloned().unwrap_or_default();
        let mut context = Context { variables: HashMap::new(), background: HashMap::new() };
        let mut outcome = Ok(());
        for (index, step) in steps.iter().enumerate() {
            let played = tokio::time::timeout(STEP_TIMEOUT, self.step(&mut context, step)).await;
            if let Err(problem) = played.unwrap_or_else(|_| Err(format!("the step took over {STEP_TIMEOUT:?}"))) {
                let note = step["note"].as_str().map(|note| format!(" ({note})")).unwrap_or_default();
                outcome = Err(format!("{}, step {}{note}: {problem}", scenario.name, index + 1));
                break;
            }
        }
        for (_, pending) in context.background.drain() {
            let _ = pending.await;
        }
        if outcome.is_err() {
            eprintln!("host log:\n{}", self.host.log());
        }
        outcome
    }

    async fn step(&self, context: &mut Context, step: &Value) -> Result<(), String> {
        if step.get("call").is_some() {
            return self.call_step(context, step).await;
        }
        if let Some(name) = step["await"].as_str() {
            let pending = context.background.remove(name).ok_or(format!("no background call {name} is pending"))?;
            let outcome = pending.await.map_err(|e| format!("the background call panicked: {e}"))?;
            return conclude(context, &outcome, step);
        }
        if let Some(faults) = step.get("faults") {
            let mut faults = resolve(faults, &context.variables)?;
            for fault in faults.as_array_mut().into_iter().flatten() {
                if let Some(path) = fault["path"].as_str() {
                    fault["path"] = Value::String(interpolate(path, &context.variables)?);
                }
            }
            let answer = self
                .control
                .post(format!("{}/__faults", self.proxy.base_url))
                .json(&json!({"faults": faults}))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            return match answer.status().as_u16() {
                204 => Ok(()),
                status => {
                    Err(format!("arming the faults answered {status}: {}", answer.text().await.unwrap_or_default()))
                }
            };
        }
        if step.get("proxyLog").is_some() {
            return self.proxy_log(context, step).await;
        }
        if step.get("metric").is_some() {
            return self.metric(context, step).await;
        }
        Err(format!("unknown step {step}"))
    }

    async fn call_step(&self, context: &mut Context, step: &Value) -> Result<(), String> {
        let call = Call {
            operation: step["call"].as_str().unwrap_or_default().to_string(),
            path: resolve(&step["path"], &context.variables)?,
            headers: resolve(&step["headers"], &context.variables)?,
            body: resolve(&step["body"], &context.variables)?,
        };
        if let Some(name) = step["background"].as_str() {
            let client = self.client.clone();
            context.background.insert(name.to_string(), tokio::spawn(async move { call.perform(&client).await }));
            return Ok(());
        }
        let Some(until) = step.get("until") else {
            let outcome = call.perform(&self.client).await;
            return conclude(context, &outcome, step);
        };
        let deadline = Instant::now() + Duration::from_millis(until["timeoutMs"].as_u64().unwrap_or(5000));
        let interval = Duration::from_millis(until["intervalMs"].as_u64().unwrap_or(20));
        loop {
            let outcome = call.perform(&self.client).await;
            match conclude(context, &outcome, step) {
                Ok(()) => return Ok(()),
                Err(problem) if Instant::now() >= deadline => return Err(format!("until the deadline: {problem}")),
                Err(_) => tokio::time::sleep(interval).await,
            }
        }
    }

    async fn proxy_log(&self, context: &mut Context, step: &Value) -> Result<(), String> {
        let log: Value = self
            .control
            .get(format!("{}/__faults/log", self.proxy.base_url))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        let mut selector = resolve(&step["proxyLog"], &context.variables)?;
        if let Some(path) = selector["path"].as_str() {
            selector["path"] = Value::String(interpolate(path, &context.variables)?);
        }
        let entries: Vec<&Value> = log["requests"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|entry| entry["method"] == selector["method"] && entry["path"] == selector["path"])
            .collect();
        let expect = resolve(&step["expect"], &context.variables)?;
        let seen = || format!("the proxy saw {}", Value::Array(entries.iter().map(|e| (*e).clone()).collect()));
        if let Some(count) = expect["count"].as_u64() {
            if entries.len() as u64 != count {
                return Err(format!("{} requests, expected {count}; {}", entries.len(), seen()));
            }
        }
        if let Some(wanted) = expect["idempotencyKeys"].as_u64() {
            let keys: Option<Vec<&str>> = entries.iter().map(|entry| entry["idempotencyKey"].as_str()).collect();
            let mut keys = keys.ok_or_else(|| format!("a request carried no Idempotency-Key; {}", seen()))?;
            keys.sort_unstable();
            keys.dedup();
            if keys.len() as u64 != wanted {
                return Err(format!("{} distinct idempotency keys, expected {wanted}; {}", keys.len(), seen()));
            }
        }
        if let Some(gap) = expect["minGapMs"].as_f64() {
            let times: Vec<f64> = entries.iter().filter_map(|entry| entry["atMs"].as_f64()).collect();
            let shortest = times.windows(2).map(|pair| pair[1] - pair[0]).fold(f64::INFINITY, f64::min);
            if shortest < gap {
                return Err(format!("the shortest gap was {shortest:.0} ms, expected at least {gap} ms"));
            }
        }
        for (expectation, field, header) in
            [("agenticHosts", "agenticHost", "Agentic-Host"), ("lastEventIds", "lastEventId", "Last-Event-ID")]
        {
            if let Some(wanted) = expect.get(expectation) {
                let sent = Value::Array(entries.iter().map(|entry| entry[field].clone()).collect());
                if &sent != wanted {
                    return Err(format!("{header} {sent}, expected {wanted}; {}", seen()));
                }
            }
        }
        if let Some(prefix) = expect["userAgentPrefix"].as_str() {
            if let Some(entry) =
                entries.iter().find(|entry| !entry["userAgent"].as_str().unwrap_or("").starts_with(prefix))
            {
                return Err(format!("User-Agent {} does not start with {prefix}", entry["userAgent"]));
            }
        }
        Ok(())
    }

    async fn metric(&self, context: &mut Context, step: &Value) -> Result<(), String> {
        let metrics = self.control.get(format!("{}/metrics", self.host.base_url));
        metric_step(metrics, step, &mut context.variables).await
    }
}

/// Replaces each reference inside a path (`/v1/sessions/$s.id`) with its captured value.
fn interpolate(text: &str, variables: &HashMap<String, Value>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).unwrap_or(after.len());
        let reference = after[..end].trim_end_matches('.');
        if reference.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        let value = resolve(&Value::String(format!("${reference}")), variables)?;
        out.push_str(&value.as_str().map_or_else(|| value.to_string(), str::to_string));
        rest = &after[reference.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

struct Context {
    variables: HashMap<String, Value>,
    background: HashMap<String, tokio::task::JoinHandle<Result<Value, Error>>>,
}

/// One logical call of the hand-written client, with wire-named arguments.
struct Call {
    operation: String,
    path: Value,
    headers: Value,
    body: Value,
}

fn wire<T: Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("a generated type serializes")
}

impl Call {
    fn param(&self, name: &str) -> String {
        self.path[name].as_str().unwrap_or_default().to_string()
    }

    fn body<T: serde::de::DeserializeOwned>(&self) -> Result<T, Error> {
        serde_json::from_value(self.body.clone()).map_err(|e| Error::InvalidRequest(format!("the step's body: {e}")))
    }

    /// The call's success answer in its wire form, or the client's error.
    async fn perform(&self, client: &Client) -> Result<Value, Error> {
        let key = self.headers["Idempotency-Key"].as_str();
        Ok(match self.operation.as_str() {
            "createSession" => wire(client.create_session(&self.body()?, key).await?),
            "readSession" => wire(client.read_session(&self.param("sessionId")).await?),
            "deleteSession" => {
                client.delete_session(&self.param("sessionId")).await?;
                Value::Null
            }
            "truncateSession" => {
                let body: types::TruncateSessionRequest = self.body()?;
                wire(client.truncate_session(&self.param("sessionId"), &body).await?)
            }
            "forkSession" => {
                // A step without a body forks at the current revision, as `{}` does.
                let body: types::ForkSessionRequest =
                    if self.body.is_null() { Default::default() } else { self.body()? };
                wire(client.fork_session(&self.param("sessionId"), &body, key).await?)
            }
            "run" => wire(client.run(&self.body()?, key).await?),
            "submitRunActions" => wire(client.submit_run_actions(&self.param("runId"), &self.body()?, key).await?),
            "cancelRun" => wire(client.cancel_run(&self.param("runId")).await?),
            "waitUntilIdle" => wire(client.wait_until_idle(&self.param("sessionId"), None).await?),
            "getRun" => wire(client.get_run(&self.param("runId")).await?),
            "streamRun" => events(client.stream_run(&self.body()?, key).await?).await?,
            "streamRunEvents" => {
                let last_event_id = self.headers["Last-Event-ID"].as_str();
                events(client.stream_run_events(&self.param("runId"), last_event_id).await?).await?
            }
            other => return Err(Error::InvalidRequest(format!("the player has no call {other}"))),
        })
    }
}

/// A stream read to its end: the JSON array of its events' `data`, or the error that ended it.
async fn events(mut stream: EventStream) -> Result<Value, Error> {
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        event?;
        events.push(serde_json::from_str(stream.last_event_data()).unwrap_or(Value::Null));
    }
    Ok(Value::Array(events))
}

/// A typed field of a problem, read through the client's own accessors where it has them.
fn problem_field(error: &Error, name: &str) -> Option<Value> {
    match (error.kind(), name) {
        (Some(ProblemKind::SessionRevisionConflict { current_revision }), "currentRevision") => {
            Some(json!(current_revision))
        }
        (Some(ProblemKind::SessionBusy { active_run_id }), "activeRunId") => Some(json!(active_run_id)),
        (Some(ProblemKind::MisdirectedRequest { host_id, .. }), "hostId") => Some(json!(host_id)),
        (Some(ProblemKind::MisdirectedRequest { owner_host_id, .. }), "ownerHostId") => Some(json!(owner_host_id)),
        (Some(ProblemKind::HostUnavailable { owner_host_id }), "ownerHostId") => Some(json!(owner_host_id)),
        (Some(ProblemKind::RunEventsExpired { .. }), "firstEventId") => error.first_event_id().map(|id| json!(id)),
        (Some(ProblemKind::HostBusy { limit, maximum }), "limit" | "maximum") => {
            Some(if name == "limit" { json!(limit) } else { json!(maximum) })
        }
        _ if name == "retryAfterSeconds" => error.problem()?.retry_after_seconds.map(|seconds| json!(seconds)),
        _ => error.problem()?.body.get(name).cloned(),
    }
}

/// Checks an outcome against the step's `expect`, then captures.
fn conclude(context: &mut Context, outcome: &Result<Value, Error>, step: &Value) -> Result<(), String> {
    let expect = &step["expect"];
    let variables = &context.variables;
    match (outcome, expect.get("ok"), expect.get("error")) {
        (Ok(body), Some(_), _) => {
            for (location, expected) in expect["body"].as_object().into_iter().flatten() {
                let actual = pointer(Some(body), location);
                if !matches(actual, expected, variables)? {
                    return Err(format!("body {location} is {}, expected {}", shown(actual), shown(Some(expected))));
                }
            }
            for (name, location) in step["capture"].as_object().into_iter().flatten() {
                let value = pointer(Some(body), location.as_str().unwrap_or_default())
                    .ok_or(format!("capture {name}: nothing at {location}"))?
                    .clone();
                context.variables.insert(name.clone(), value);
            }
            Ok(())
        }
        (Err(error), Some(_), _) => Err(format!("the call failed: {error}")),
        (Ok(body), None, Some(_)) => Err(format!("the call returned {}, expected an error", shown(Some(body)))),
        (Err(error), None, Some(wanted)) => match wanted["kind"].as_str().unwrap_or_default() {
            "connection" if error.is_connection() => Ok(()),
            "timeout" if error.is_timeout() => Ok(()),
            "problem" => {
                let problem = error.problem().ok_or(format!("expected a problem, got {error}"))?;
                if let Some(code) = wanted["code"].as_str() {
                    let known = problem.kind.code().map(|code| code.to_string());
                    if problem.code != code || known.as_deref() != Some(code) {
                        return Err(format!("code {} (kind {:?}), expected {code}", problem.code, problem.kind));
                    }
                }
                if let Some(status) = wanted["status"].as_u64() {
                    if u64::from(problem.status) != status {
                        return Err(format!("status {}, expected {status}", problem.status));
                    }
                }
                for (name, expected) in wanted["fields"].as_object().into_iter().flatten() {
                    let actual = problem_field(error, name);
                    if !matches(actual.as_ref(), expected, variables)? {
                        return Err(format!(
                            "field {name} is {}, expected {}",
                            shown(actual.as_ref()),
                            shown(Some(expected))
                        ));
                    }
                }
                Ok(())
            }
            kind => Err(format!("expected a {kind} error, got {error}")),
        },
        _ => Err(format!("the step has no ok or error expectation: {expect}")),
    }
}
