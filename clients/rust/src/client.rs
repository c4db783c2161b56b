//! The client: one async method per operation of openapi.yaml (named after its operationId),
//! over the generated progenitor client, with the behaviour of `clients/BEHAVIOUR.md`: retries
//! with backoff and `Retry-After`, one idempotency key per logical call, timeouts, default
//! headers, logging through the `log` facade, and raw responses (`*_with_response`).

use std::future::{poll_fn, Future};
use std::sync::Arc;
use std::time::{Duration, Instant};

use progenitor_client::{ByteStream, ResponseValue};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};

use crate::error::{error_from_answer, Error, TimeoutError, TimeoutKind};
use crate::generated::{self, types};
use crate::retry::{self, Decision};
use crate::routing;
use crate::stream::EventStream;

/// The `User-Agent` this client sends unless a default header replaces it.
pub const USER_AGENT_VALUE: &str = concat!("agentic-driver-rust/", env!("CARGO_PKG_VERSION"));
/// Retries after a failed attempt, by default (3 attempts in all).
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// The default bound of [`Client::wait_until_idle`].
pub const DEFAULT_IDLE_WAIT: Duration = Duration::from_secs(30);

/// The client's timeouts. Each one that expires is an [`Error::Timeout`] of its [`TimeoutKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Opening the connection (default 5 s).
    pub connect: Duration,
    /// Waiting for the response head, and between body bytes of a JSON answer (default 600 s: a
    /// turn may take minutes).
    pub read: Duration,
    /// The longest silence between two events of an event stream (default 60 s; the host sends
    /// a keep-alive comment every 15 s by default).
    pub stream_idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(5),
            read: Duration::from_secs(600),
            stream_idle: Duration::from_secs(60),
        }
    }
}

/// Builds a [`Client`]: `Client::builder().base_url(..).token(..).build()`.
#[derive(Debug, Clone)]
#[must_use]
pub struct ClientBuilder {
    base_url: String,
    token: Option<String>,
    max_retries: u32,
    timeouts: Timeouts,
    default_headers: Vec<(String, String)>,
    log_to_stderr: Option<bool>,
    trusted_roots: crate::tls::TrustedRoots,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            base_url: String::new(),
            token: None,
            max_retries: DEFAULT_MAX_RETRIES,
            timeouts: Timeouts::default(),
            default_headers: Vec::new(),
            log_to_stderr: None,
            trusted_roots: crate::tls::TrustedRoots::default(),
        }
    }
}

impl ClientBuilder {
    /// The host, for example `http://127.0.0.1:8080` (required).
    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into();
        self
    }

    /// The bearer token (an empty token sends none: only `get_health` works then). The client
    /// sets `Authorization` after the default headers, which can neither drop nor replace it.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into()).filter(|token| !token.is_empty());
        self
    }

    /// Retries after a failed attempt that may be retried (default 2; 0 turns retries off).
    pub fn max_retries(mut self, max_retries: u32) -> Self {
        self.max_retries = max_retries;
        self
    }

    /// All three timeouts (see [`Timeouts`]; start from `Timeouts::default()`).
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// The connect timeout (default 5 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.connect = timeout;
        self
    }

    /// The read timeout (default 600 s).
    pub fn read_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.read = timeout;
        self
    }

    /// The stream idle timeout (default 60 s).
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.stream_idle = timeout;
        self
    }

    /// A header sent with every request (a second call with the same name adds a value). A
    /// `User-Agent` here replaces the client's; an `Authorization` here is replaced by the token's.
    pub fn default_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.default_headers.push((name.into(), value.into()));
        self
    }

    /// Writes the per-attempt debug lines to standard error as well as to the `log` facade.
    /// Default: on when `AGENTIC_DRIVER_LOG=debug` is set when the client is built.
    pub fn log_to_stderr(mut self, on: bool) -> Self {
        self.log_to_stderr = Some(on);
        self
    }

    /// Trusts the CA certificates in this PEM text (one or more) for an `https://` host, instead
    /// of the platform's roots (which honour `SSL_CERT_FILE` / `SSL_CERT_DIR` on Linux): a host
    /// whose certificate a private CA signed is verified, never trusted blindly. A host the
    /// bundle does not trust fails with [`Error::Connection`]. Repeatable, and combinable with
    /// [`ca_certificate_file`](Self::ca_certificate_file): every certificate given is trusted.
    pub fn ca_certificate_pem(mut self, pem: impl AsRef<[u8]>) -> Self {
        self.trusted_roots.pem.extend_from_slice(pem.as_ref());
        self.trusted_roots.pem.push(b'\n');
        self
    }

    /// Trusts the CA certificates in the PEM file at `path` (read by [`build`](Self::build)),
    /// like [`ca_certificate_pem`](Self::ca_certificate_pem).
    pub fn ca_certificate_file(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.trusted_roots.files.push(path.into());
        self
    }

    /// The client; fails on a missing base URL, an invalid header, an unreadable CA bundle, or a
    /// TLS set-up failure.
    pub fn build(self) -> Result<Client, Error> {
        if self.base_url.is_empty() {
            return Err(Error::InvalidRequest("a base URL is required".into()));
        }
        let mut headers = HeaderMap::new();
        headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE));
        let mut replaced_user_agent = false;
        for (name, value) in &self.default_headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| Error::InvalidRequest(format!("default header name {name:?} is not valid")))?;
            let value = HeaderValue::from_str(value)
                .map_err(|_| Error::InvalidRequest(format!("default header {name} has an invalid value")))?;
            if name == USER_AGENT && !replaced_user_agent {
                headers.remove(USER_AGENT);
                replaced_user_agent = true;
            }
            headers.append(name, value);
        }
        // Last, so that no default header drops or replaces it.
        headers.remove(AUTHORIZATION);
        if let Some(token) = &self.token {
            let mut value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| Error::InvalidRequest("the token is not a valid header value".into()))?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        // No total timeout: a streamed run may last long; the stream idle timeout bounds silence.
        let http = crate::tls::configure(
            reqwest::Client::builder()
                .default_headers(headers)
                .connect_timeout(self.timeouts.connect)
                .read_timeout(self.timeouts.read),
            &self.trusted_roots,
        )?
        .build()
        .map_err(|error| Error::InvalidRequest(format!("building the HTTP client: {error}")))?;
        let log_to_stderr = self.log_to_stderr.unwrap_or_else(|| {
            std::env::var("AGENTIC_DRIVER_LOG").is_ok_and(|value| value.trim().eq_ignore_ascii_case("debug"))
        });
        Ok(Client {
            raw: generated::Client::new_with_client(self.base_url.trim_end_matches('/'), http),
            settings: Arc::new(Settings { max_retries: self.max_retries, timeouts: self.timeouts, log_to_stderr }),
        })
    }
}

#[derive(Debug)]
struct Settings {
    max_retries: u32,
    timeouts: Timeouts,
    log_to_stderr: bool,
}

/// A success answer with its HTTP status and headers (the `*_with_response` methods).
#[derive(Debug, Clone)]
pub struct Response<T> {
    status: u16,
    headers: HeaderMap,
    attempts: u32,
    value: T,
}

impl<T> Response<T> {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The answer's headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The answer's `X-Request-Id`.
    pub fn request_id(&self) -> Option<&str> {
        self.headers.get("x-request-id").and_then(|value| value.to_str().ok())
    }

    /// How many attempts the call took (1 without retries).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The parsed body.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The parsed body, by value.
    pub fn into_inner(self) -> T {
        self.value
    }
}

/// A client of one Agentic Driver host. Cheap to clone; safe to share between tasks.
#[derive(Clone, Debug)]
pub struct Client {
    raw: generated::Client,
    settings: Arc<Settings>,
}

/// One failed attempt: the error, and whether a response head had arrived.
struct Failure {
    error: Error,
    answered: bool,
}

impl Client {
    /// A builder with the defaults of `clients/BEHAVIOUR.md`.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// A client of the host at `base_url` (for example `http://127.0.0.1:8080`) that sends `token`
    /// as its bearer token, with every default (`Client::builder()` sets the others).
    pub fn new(base_url: &str, token: &str) -> Result<Client, Error> {
        Client::builder().base_url(base_url).token(token).build()
    }

    /// The generated client this one wraps (progenitor's typed responses and errors; no retries).
    pub fn raw(&self) -> &generated::Client {
        &self.raw
    }

    /// The client's timeouts.
    pub fn timeouts(&self) -> Timeouts {
        self.settings.timeouts
    }

    /// `GET /healthz`: the host is serving (no token needed).
    pub async fn get_health(&self) -> Result<types::Health, Error> {
        self.get_health_with_response().await.map(Response::into_inner)
    }

    /// [`Client::get_health`] with the answer's status and headers.
    pub async fn get_health_with_response(&self) -> Result<Response<types::Health>, Error> {
        self.json("GET", "/healthz", None, |_| self.raw.get_health()).await
    }

    /// `GET /v1/discovery`: the host as this token sees it.
    pub async fn get_discovery(&self) -> Result<types::Discovery, Error> {
        self.get_discovery_with_response().await.map(Response::into_inner)
    }

    /// [`Client::get_discovery`] with the answer's status and headers.
    pub async fn get_discovery_with_response(&self) -> Result<Response<types::Discovery>, Error> {
        self.json("GET", "/v1/discovery", None, |_| self.raw.get_discovery()).await
    }

    /// `POST /v1/sessions`: a new session at revision 0. `idempotency_key`: yours, or `None` for
    /// a fresh one, sent on every attempt of this call.
    pub async fn create_session(
        &self,
        body: &types::CreateSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::CreateSessionResponse, Error> {
        self.create_session_with_response(body, idempotency_key).await.map(Response::into_inner)
    }

    /// [`Client::create_session`] with the answer's status and headers.
    pub async fn create_session_with_response(
        &self,
        body: &types::CreateSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Response<types::CreateSessionResponse>, Error> {
        let key = key::<types::CreateSessionIdempotencyKey>(idempotency_key)?;
        self.json("POST", "/v1/sessions", None, |_| self.raw.create_session(Some(&key), body)).await
    }

    /// `GET /v1/sessions/{sessionId}`: metadata, instructions, visible history and turns.
    pub async fn read_session(&self, session_id: &str) -> Result<types::ReadSessionResponse, Error> {
        self.read_session_with_response(session_id).await.map(Response::into_inner)
    }

    /// [`Client::read_session`] with the answer's status and headers.
    pub async fn read_session_with_response(
        &self,
        session_id: &str,
    ) -> Result<Response<types::ReadSessionResponse>, Error> {
        let path = format!("/v1/sessions/{session_id}");
        self.json("GET", &path, routing::owner(session_id), |host| async move {
            self.raw.read_session(session_id, host.as_deref()).await
        })
        .await
    }

    /// `DELETE /v1/sessions/{sessionId}`: removes the session and aborts its active turn.
    pub async fn delete_session(&self, session_id: &str) -> Result<(), Error> {
        self.delete_session_with_response(session_id).await.map(Response::into_inner)
    }

    /// [`Client::delete_session`] with the answer's status and headers.
    pub async fn delete_session_with_response(&self, session_id: &str) -> Result<Response<()>, Error> {
        let path = format!("/v1/sessions/{session_id}");
        self.json("DELETE", &path, routing::owner(session_id), |host| async move {
            self.raw.delete_session(session_id, host.as_deref()).await
        })
        .await
    }

    /// `POST /v1/sessions/{sessionId}/truncate`: keeps the first `keep_turns` turns, at the next
    /// revision (no idempotency key: the operation takes none).
    pub async fn truncate_session(
        &self,
        session_id: &str,
        body: &types::TruncateSessionRequest,
    ) -> Result<types::CreateSessionResponse, Error> {
        self.truncate_session_with_response(session_id, body).await.map(Response::into_inner)
    }

    /// [`Client::truncate_session`] with the answer's status and headers.
    pub async fn truncate_session_with_response(
        &self,
        session_id: &str,
        body: &types::TruncateSessionRequest,
    ) -> Result<Response<types::CreateSessionResponse>, Error> {
        let path = format!("/v1/sessions/{session_id}/truncate");
        self.json("POST", &path, routing::owner(session_id), |host| async move {
            self.raw.truncate_session(session_id, host.as_deref(), body).await
        })
        .await
    }

    /// `POST /v1/runs`: one turn, stateless or continuing a session (`session.run_request(input)`).
    /// `idempotency_key`: yours, or `None` for a fresh one, sent on every attempt of this call, so
    /// a retried run is replayed by the host, never run twice.
    pub async fn run(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::RunResult, Error> {
        self.run_with_response(body, idempotency_key).await.map(Response::into_inner)
    }

    /// [`Client::run`] with the answer's status and headers.
    pub async fn run_with_response(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Response<types::RunResult>, Error> {
        let key = &key::<types::RunIdempotencyKey>(idempotency_key)?;
        let owner = routing::session_host(body.session.as_ref());
        self.json("POST", "/v1/runs", owner, |host| async move { self.raw.run(host.as_deref(), Some(key), body).await })
            .await
    }

    /// `POST /v1/runs/stream`: the same turn as `run`, as a stream of typed events. Returns once
    /// the host accepted the run; a refusal is the error. Only the request is retried: a stream
    /// that fails after its head is never retried (read the session to reconcile).
    pub async fn stream_run(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<EventStream, Error> {
        let key = &key::<types::StreamRunIdempotencyKey>(idempotency_key)?;
        let owner = routing::session_host(body.session.as_ref());
        self.stream("/v1/runs/stream", owner, |host| async move {
            self.raw.stream_run(host.as_deref(), Some(key), body).await
        })
        .await
    }

    /// `POST /v1/runs/{runId}/actions`: answers a run waiting in `requires_action`.
    pub async fn submit_run_actions(
        &self,
        run_id: &str,
        body: &types::SubmitRunActionsRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::RunResult, Error> {
        self.submit_run_actions_with_response(run_id, body, idempotency_key).await.map(Response::into_inner)
    }

    /// [`Client::submit_run_actions`] with the answer's status and headers.
    pub async fn submit_run_actions_with_response(
        &self,
        run_id: &str,
        body: &types::SubmitRunActionsRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Response<types::RunResult>, Error> {
        let key = key::<types::SubmitRunActionsIdempotencyKey>(idempotency_key)?;
        let path = format!("/v1/runs/{run_id}/actions");
        let key = &key;
        self.json("POST", &path, routing::owner(run_id), |host| async move {
            self.raw.submit_run_actions(run_id, host.as_deref(), Some(key), body).await
        })
        .await
    }

    /// `POST /v1/runs/{runId}/actions/stream`: answers a waiting run and streams the rest of it.
    pub async fn stream_run_actions(
        &self,
        run_id: &str,
        body: &types::SubmitRunActionsRequest,
        idempotency_key: Option<&str>,
    ) -> Result<EventStream, Error> {
        let key = key::<types::StreamRunActionsIdempotencyKey>(idempotency_key)?;
        let path = format!("/v1/runs/{run_id}/actions/stream");
        let key = &key;
        self.stream(&path, routing::owner(run_id), |host| async move {
            self.raw.stream_run_actions(run_id, host.as_deref(), Some(key), body).await
        })
        .await
    }

    /// `POST /v1/runs/{runId}/cancel`: cancels an active run (no idempotency key: the operation
    /// takes none).
    pub async fn cancel_run(&self, run_id: &str) -> Result<types::CancelRunResponse, Error> {
        self.cancel_run_with_response(run_id).await.map(Response::into_inner)
    }

    /// [`Client::cancel_run`] with the answer's status and headers.
    pub async fn cancel_run_with_response(&self, run_id: &str) -> Result<Response<types::CancelRunResponse>, Error> {
        let path = format!("/v1/runs/{run_id}/cancel");
        self.json("POST", &path, routing::owner(run_id), |host| async move {
            self.raw.cancel_run(run_id, host.as_deref()).await
        })
        .await
    }

    /// The busy helper: after a `SESSION_BUSY` (pass it as `busy`), reads the session until its
    /// status is no longer `running` and returns that read (the current revision, history and
    /// turns), so the caller decides what to send next. Waits first for the busy error's
    /// `Retry-After` (or 0.1 s), then doubles the interval up to 1 s, for at most 30 s
    /// ([`DEFAULT_IDLE_WAIT`]); then it fails with [`TimeoutKind::WaitUntilIdle`].
    pub async fn wait_until_idle(
        &self,
        session_id: &str,
        busy: Option<&Error>,
    ) -> Result<types::ReadSessionResponse, Error> {
        self.wait_until_idle_within(session_id, busy, DEFAULT_IDLE_WAIT).await
    }

    /// [`Client::wait_until_idle`] with another bound than 30 s.
    pub async fn wait_until_idle_within(
        &self,
        session_id: &str,
        busy: Option<&Error>,
        bound: Duration,
    ) -> Result<types::ReadSessionResponse, Error> {
        let deadline = Instant::now() + bound;
        let mut wait = busy.and_then(Error::retry_after).unwrap_or(Duration::from_millis(100));
        let mut interval = Duration::from_millis(100);
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(Error::Timeout(TimeoutError::new(TimeoutKind::WaitUntilIdle, Some(bound), None)));
            }
            tokio::time::sleep(wait.min(remaining)).await;
            let read = self.read_session(session_id).await?;
            if read.session.status != types::SessionStatus::Running {
                return Ok(read);
            }
            interval = (interval * 2).min(Duration::from_secs(1));
            wait = interval;
        }
    }

    /// A call whose answer is a JSON body (or none). `host` is the owner of the session or run the
    /// call names (its `Agentic-Host`); `send` makes one attempt with the host it is given.
    async fn json<T, E, F, Fut>(
        &self,
        method: &'static str,
        path: &str,
        host: Option<String>,
        send: F,
    ) -> Result<Response<T>, Error>
    where
        E: ErrorBody,
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<ResponseValue<T>, progenitor_client::Error<E>>>,
    {
        let timeouts = self.settings.timeouts;
        let (send, timeouts) = (&send, &timeouts);
        self.attempts(method, path, host, move |host| async move {
            match send(host).await {
                Ok(value) => {
                    let (status, headers) = (value.status().as_u16(), value.headers().clone());
                    Ok((status, headers, value.into_inner()))
                }
                Err(error) => Err(convert(error, timeouts).await),
            }
        })
        .await
    }

    /// A call whose answer is an event stream (`host` and `send` as for [`Client::json`]).
    async fn stream<F, Fut>(&self, path: &str, host: Option<String>, send: F) -> Result<EventStream, Error>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<ResponseValue<ByteStream>, progenitor_client::Error<ByteStream>>>,
    {
        let timeouts = self.settings.timeouts;
        let (send, convert_timeouts) = (&send, &timeouts);
        let response = self
            .attempts("POST", path, host, move |host| async move {
                let response = match send(host).await {
                    Ok(response) => response,
                    Err(error) => return Err(convert(error, convert_timeouts).await),
                };
                let (status, headers) = (response.status().as_u16(), response.headers().clone());
                let content_type = headers.get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or("");
                if !content_type.starts_with("text/event-stream") {
                    let error = Error::Protocol(format!("a streamed run answered Content-Type {content_type:?}"));
                    return Err(Failure { error, answered: true });
                }
                Ok((status, headers, response.into_inner()))
            })
            .await?;
        let (status, headers) = (response.status, response.headers);
        Ok(EventStream::new(response.value, status, headers, timeouts))
    }

    /// Runs attempts of one logical call until one succeeds, one fails in a way that is not
    /// retried, or the retries are spent; waits between them (a dropped future stops the wait).
    /// Each attempt sends `host` as `Agentic-Host`; the first 421 of the call switches it to the
    /// owner that answer names and sends again at once, without using up a retry.
    async fn attempts<T, F, Fut>(
        &self,
        method: &'static str,
        path: &str,
        mut host: Option<String>,
        attempt: F,
    ) -> Result<Response<T>, Error>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<(u16, HeaderMap, T), Failure>>,
    {
        let total = self.settings.max_retries.saturating_add(1);
        let idempotent = matches!(method, "GET" | "DELETE");
        let mut number = 1;
        let mut followed = false;
        loop {
            match attempt(host.clone()).await {
                Ok((status, headers, value)) => {
                    self.log(method, path, &status.to_string(), number, total, &headers, None);
                    return Ok(Response { status, headers, attempts: number, value });
                }
                Err(Failure { error, answered }) => {
                    let outcome = match error.status() {
                        Some(status) => status.to_string(),
                        None => error.to_string(),
                    };
                    let empty = HeaderMap::new();
                    let headers = error.headers().unwrap_or(&empty);
                    if let Some(owner) = routing::misdirected_owner(&error).filter(|_| !followed) {
                        // A wrong hop: the same request at once to the owner, once per call.
                        self.log(method, path, &outcome, number, total, headers, Some(Duration::ZERO));
                        host = Some(owner.to_owned());
                        followed = true;
                        continue;
                    }
                    let wait = match retry::decide(&error, idempotent, answered) {
                        _ if number >= total => None,
                        Decision::Stop => None,
                        Decision::RetryAfter(delay) => Some(delay),
                        Decision::Backoff => Some(retry::backoff(number - 1, retry::jitter())),
                    };
                    self.log(method, path, &outcome, number, total, headers, wait);
                    match wait {
                        None => return Err(error),
                        Some(wait) => tokio::time::sleep(wait).await,
                    }
                    number += 1;
                }
            }
        }
    }

    /// One debug line per attempt: never a token, a header other than `X-Request-Id`, or a body.
    #[allow(clippy::too_many_arguments)]
    fn log(
        &self,
        method: &str,
        path: &str,
        outcome: &str,
        attempt: u32,
        total: u32,
        headers: &HeaderMap,
        wait: Option<Duration>,
    ) {
        if !self.settings.log_to_stderr && !log::log_enabled!(target: "agentic_driver_client", log::Level::Debug) {
            return;
        }
        let mut line = format!("{method} {path} -> {outcome} (attempt {attempt}/{total})");
        if let Some(request_id) = headers.get("x-request-id").and_then(|value| value.to_str().ok()) {
            line.push_str(&format!(" request-id {request_id}"));
        }
        if let Some(wait) = wait {
            line.push_str(&format!("; retrying in {:.3}s", wait.as_secs_f64()));
        }
        log::debug!(target: "agentic_driver_client", "{line}");
        if self.settings.log_to_stderr {
            eprintln!("agentic-driver: {line}");
        }
    }
}

/// The caller's idempotency key, or a fresh UUID v4, as the generated newtype (which checks it).
fn key<K>(key: Option<&str>) -> Result<K, Error>
where
    K: for<'a> TryFrom<&'a str>,
    for<'a> <K as TryFrom<&'a str>>::Error: std::fmt::Display,
{
    let fresh;
    let key = match key {
        Some(key) => key,
        None => {
            fresh = uuid::Uuid::new_v4().to_string();
            &fresh
        }
    };
    K::try_from(key).map_err(|error| Error::InvalidRequest(format!("Idempotency-Key: {error}")))
}

/// The body of an error answer of the generated client: a stream for problem responses
/// (`ByteStream`), nothing for operations without documented errors (`()`).
#[allow(async_fn_in_trait)]
pub trait ErrorBody {
    /// Reads the whole body.
    async fn bytes(self) -> Result<Vec<u8>, reqwest::Error>;
}

impl ErrorBody for ByteStream {
    async fn bytes(mut self) -> Result<Vec<u8>, reqwest::Error> {
        let mut body = Vec::new();
        while let Some(chunk) = poll_fn(|cx| self.as_mut().poll_next(cx)).await {
            body.extend_from_slice(&chunk?);
        }
        Ok(body)
    }
}

impl ErrorBody for () {
    async fn bytes(self) -> Result<Vec<u8>, reqwest::Error> {
        Ok(Vec::new())
    }
}

impl Error {
    /// Converts an error of the generated client ([`Client::raw`]) into this crate's error, reading
    /// a problem response's body.
    pub async fn from_raw<E: ErrorBody>(error: progenitor_client::Error<E>) -> Error {
        convert(error, &Timeouts::default()).await.error
    }
}

async fn convert<E: ErrorBody>(error: progenitor_client::Error<E>, timeouts: &Timeouts) -> Failure {
    use progenitor_client::Error as Generated;
    let answered = |error| Failure { error, answered: true };
    match error {
        Generated::ErrorResponse(answer) => {
            let (status, headers) = (answer.status().as_u16(), answer.headers().clone());
            answered(match answer.into_inner().bytes().await {
                Ok(body) => error_from_answer(status, &headers, &body),
                Err(error) => Error::transport(error, timeouts),
            })
        }
        Generated::UnexpectedResponse(response) => {
            let (status, headers) = (response.status(), response.headers().clone());
            answered(match response.bytes().await {
                Ok(body) if !status.is_success() => error_from_answer(status.as_u16(), &headers, &body),
                Ok(_) => Error::Protocol(format!("undocumented {status} answer")),
                Err(error) => Error::transport(error, timeouts),
            })
        }
        Generated::CommunicationError(error) => Failure { error: Error::transport(error, timeouts), answered: false },
        Generated::ResponseBodyError(error) | Generated::InvalidUpgrade(error) => {
            answered(Error::transport(error, timeouts))
        }
        Generated::InvalidResponsePayload(_, error) => {
            answered(Error::Protocol(format!("the answer does not parse: {error}")))
        }
        Generated::InvalidRequest(message) => Failure { error: Error::InvalidRequest(message), answered: false },
        Generated::Custom(message) => answered(Error::Protocol(message)),
    }
}
