//! Test support: real host processes (`Host`) and a one-request fake server (`FakeServer`).
//!
//! `Host::start` writes a host JSON (or takes a config file), starts
//! `agentic-driver serve --config FILE --host 127.0.0.1 --port P`, polls `/healthz` (bounded)
//! and stops the process when dropped. The server comes from `$AGENTIC_DRIVER_SERVE` (the
//! `agentic-driver` executable) or the repository's `.venv/bin/agentic-driver`. Scenario
//! players reuse `Host::start` with a config file and token environment variables.

#![allow(dead_code)]

use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const STARTUP_TIMEOUT: Duration = Duration::from_secs(20);
const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// The repository root: the nearest ancestor of this crate holding openapi.yaml and server/.
pub fn repo_root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        if dir.join("openapi.yaml").is_file() && dir.join("server").is_dir() {
            return dir;
        }
        assert!(dir.pop(), "repository root (openapi.yaml + server/) not found");
    }
}

/// The `agentic-driver` executable that serves hosts.
pub fn serve_command() -> PathBuf {
    if let Some(command) = std::env::var_os("AGENTIC_DRIVER_SERVE").filter(|value| !value.is_empty()) {
        return PathBuf::from(command);
    }
    let command = repo_root().join(".venv/bin/agentic-driver");
    assert!(command.is_file(), "{} not found: run `make setup` (or set AGENTIC_DRIVER_SERVE)", command.display());
    command
}

/// A port that was free on 127.0.0.1 a moment ago.
pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Where a host's configuration comes from.
pub enum HostConfig<'a> {
    /// Host JSON, written to a temporary file.
    Json(serde_json::Value),
    /// An existing host JSON file.
    File(&'a Path),
}

pub struct Host {
    pub base_url: String,
    child: Child,
    work_dir: PathBuf,
}

/// A throwaway CA and a server certificate for 127.0.0.1 and localhost, written by trustme
/// (`python -m trustme`, from the virtualenv of the `agentic-driver` executable).
pub struct ThrowawayCa {
    pub ca_file: PathBuf,
    pub cert_file: PathBuf,
    pub key_file: PathBuf,
    dir: PathBuf,
}

impl ThrowawayCa {
    pub fn new() -> ThrowawayCa {
        let dir = std::env::temp_dir().join(format!("agentic-driver-rust-tls-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&dir).unwrap();
        let python = serve_command().with_file_name("python");
        let made = Command::new(&python)
            .args(["-m", "trustme", "-q", "-d"])
            .arg(&dir)
            .args(["-i", "127.0.0.1", "localhost"])
            .output()
            .unwrap_or_else(|error| panic!("{} -m trustme: {error}", python.display()));
        assert!(made.status.success(), "python -m trustme: {}", String::from_utf8_lossy(&made.stderr));
        ThrowawayCa {
            ca_file: dir.join("client.pem"),
            cert_file: dir.join("server.pem"),
            key_file: dir.join("server.key"),
            dir,
        }
    }
}

impl Drop for ThrowawayCa {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Host {
    /// Starts a host and waits (bounded) until `/healthz` answers.
    pub async fn start(config: HostConfig<'_>, env: &[(&str, &str)]) -> Result<Host, String> {
        Host::launch(config, env, None).await
    }

    /// Starts a host serving HTTPS with `ca`'s server certificate (host JSON `tls`), polled trusting `ca`.
    pub async fn start_tls(mut config: serde_json::Value, ca: &ThrowawayCa) -> Result<Host, String> {
        config["tls"] = serde_json::json!({"certFile": ca.cert_file, "keyFile": ca.key_file});
        Host::launch(HostConfig::Json(config), &[], Some(ca)).await
    }

    async fn launch(config: HostConfig<'_>, env: &[(&str, &str)], tls: Option<&ThrowawayCa>) -> Result<Host, String> {
        let work_dir =
            std::env::temp_dir().join(format!("agentic-driver-rust-e2e-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&work_dir).map_err(|e| e.to_string())?;
        let config_path = match config {
            HostConfig::Json(value) => {
                let path = work_dir.join("host.json");
                std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).map_err(|e| e.to_string())?;
                path
            }
            HostConfig::File(path) => path.to_path_buf(),
        };
        let port = free_port();
        let log = std::fs::File::create(work_dir.join("host.log")).map_err(|e| e.to_string())?;
        let child = Command::new(serve_command())
            .args(["serve", "--config"])
            .arg(&config_path)
            .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--log-level", "warning"])
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("starting the host: {e}"))?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let mut host = Host { base_url: format!("{scheme}://127.0.0.1:{port}"), child, work_dir };
        let http = reqwest::Client::new();
        let trusting = tls.map(|ca| {
            agentic_driver_client::Client::builder()
                .base_url(&host.base_url)
                .max_retries(0)
                .ca_certificate_file(&ca.ca_file)
                .build()
                .unwrap()
        });
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        while Instant::now() < deadline {
            if host.child.try_wait().map_err(|e| e.to_string())?.is_some() {
                break;
            }
            let healthy = match &trusting {
                Some(client) => client.get_health().await.is_ok(),
                None => {
                    let health =
                        http.get(format!("{}/healthz", host.base_url)).timeout(Duration::from_secs(2)).send().await;
                    matches!(health, Ok(response) if response.status() == 200)
                }
            };
            if healthy {
                return Ok(host);
            }
            tokio::time::sleep(POLL_INTERVAL).await;
        }
        let log = host.log();
        host.stop();
        Err(format!("host did not become healthy within {STARTUP_TIMEOUT:?}:\n{log}"))
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.work_dir.join("host.log")).unwrap_or_default()
    }

    /// A client of this host with a bearer token ("" sends none).
    pub fn client(&self, token: &str) -> agentic_driver_client::Client {
        agentic_driver_client::Client::new(&self.base_url, token).unwrap()
    }

    pub fn stop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // SIGTERM for a clean shutdown, then SIGKILL if it lingers.
            let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
            let deadline = Instant::now() + Duration::from_secs(5);
            while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.work_dir);
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Test tokens (at least 16 characters each).
pub const FULL_TOKEN: &str = "rust-e2e-full-token-0001";

/// The host most end-to-end tests share: `echo` (bound to an account, so it holds sessions),
/// `echo-unbound` (no account binding: stateless only), one token with every grant.
pub fn standard_host_config() -> serde_json::Value {
    serde_json::json!({
        "hostId": "rust-e2e",
        "providers": [
            {"id": "echo", "kind": "echo", "accountId": "acct-rust", "models": ["echo-1"]},
            {"id": "echo-unbound", "kind": "echo", "models": ["echo-1"]}
        ],
        "sessions": {"retentionMs": 600000},
        "tokens": [{"subject": "rust-e2e", "token": FULL_TOKEN, "providers": ["*"],
                    "sessions": ["create", "read", "continue", "delete"]}]
    })
}

/// One request as the fake server received it.
#[derive(Debug, Clone, Default)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

/// A loopback HTTP server that answers every request with one canned response.
pub struct FakeServer {
    pub base_url: String,
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl FakeServer {
    pub async fn start(status: u16, content_type: &str, extra_headers: &str, body: &str) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let response = reply(status, content_type, extra_headers, body);
        let log = received.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                if let Some(request) = read_request(&mut socket).await {
                    log.lock().unwrap().push(request);
                }
                let _ = socket.write_all(response.as_bytes()).await;
                let _ = socket.shutdown().await;
            }
        });
        FakeServer { base_url, received }
    }

    pub fn requests(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

/// One answer of the fake servers: this status, content type, extra header lines and body, then close.
fn reply(status: u16, content_type: &str, extra_headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n{extra_headers}\r\n{body}",
        body.len()
    )
}

/// Reads one connection until it holds a complete request (None if it closes first).
async fn read_request(socket: &mut TcpStream) -> Option<Received> {
    let mut data = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = socket.read(&mut buffer).await.unwrap_or(0);
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buffer[..n]);
        if let Some(request) = parse_request(&data) {
            return Some(request);
        }
    }
}

/// A complete HTTP/1.1 request (head and Content-Length body), or None if more bytes are needed.
pub fn parse_request(data: &[u8]) -> Option<Received> {
    let text = String::from_utf8_lossy(data);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let (method, path) = (request_line.next()?.to_string(), request_line.next()?.to_string());
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(key, value)| (key.trim().to_string(), value.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    (body.len() >= length).then(|| Received { method, path, headers, body: body[..length].to_string() })
}

/// What a [`ScriptedServer`] does with one connection's request.
#[derive(Debug, Clone)]
pub enum Action {
    /// Answers with this status, extra header lines (`Name: value\r\n`...) and JSON-ish body.
    Reply { status: u16, content_type: &'static str, headers: String, body: String },
    /// Reads the request and closes the connection without an answer.
    Drop,
    /// Reads the request and never answers (the connection stays open until the test ends).
    Hang,
    /// Sends a 200 event-stream head and these bytes, then stays silent.
    StreamThenHang(String),
    /// Sends a 200 event-stream head (chunked) and these bytes inside a chunk announced longer,
    /// then closes the connection: a body cut short.
    StreamThenCut(String),
}

impl Action {
    pub fn json(status: u16, body: &str) -> Action {
        Action::Reply { status, content_type: "application/json", headers: String::new(), body: body.to_string() }
    }

    pub fn problem(status: u16, headers: &str, body: &str) -> Action {
        Action::Reply {
            status,
            content_type: "application/problem+json",
            headers: headers.to_string(),
            body: body.to_string(),
        }
    }
}

/// A loopback HTTP server that handles the n-th connection with the n-th action (the last one
/// repeats), one request per connection.
pub struct ScriptedServer {
    pub base_url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl ScriptedServer {
    pub async fn start(actions: Vec<Action>) -> ScriptedServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        tokio::spawn(async move {
            let mut held = Vec::new();
            let mut index = 0;
            while let Ok((mut socket, _)) = listener.accept().await {
                let action = actions[index.min(actions.len() - 1)].clone();
                index += 1;
                if let Some(request) = read_request(&mut socket).await {
                    log.lock().unwrap().push(request);
                }
                match action {
                    Action::Reply { status, content_type, headers, body } => {
                        let response = reply(status, content_type, &headers, &body);
                        let _ = socket.write_all(response.as_bytes()).await;
                        let _ = socket.shutdown().await;
                    }
                    Action::Drop => drop(socket),
                    Action::Hang => held.push(socket),
                    Action::StreamThenCut(bytes) => {
                        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
                        let _ = socket.write_all(head.as_bytes()).await;
                        let _ = socket.write_all(format!("{:x}\r\n{bytes}", bytes.len() + 64).as_bytes()).await;
                        let _ = socket.shutdown().await;
                    }
                    Action::StreamThenHang(bytes) => {
                        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
                        let _ = socket.write_all(head.as_bytes()).await;
                        let _ = socket.write_all(bytes.as_bytes()).await;
                        held.push(socket);
                    }
                }
            }
        });
        ScriptedServer { base_url, received }
    }

    pub fn requests(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}
