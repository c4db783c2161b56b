//! The client: one async method per operation of openapi.yaml (named after its operationId),
//! over the generated progenitor client, with the behaviour of `clients/BEHAVIOUR.md`: retries
//! with backoff and `Retry-After`, one idempotency key per logical call, timeouts, default
//! headers, logging through the `log` facade, and raw responses (`*_with_response`). The session
//! operations and the busy helper are in `client/sessions.rs`.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use progenitor_client::{ByteStream, ResponseValue};
use reqwest::header::{HeaderMap, CONTENT_TYPE};

use crate::call::Call;
use crate::error::Error;
use crate::generated::{self, types};
use crate::operations::{self, Operation};
use crate::resume::Origin;
use crate::retry::{self, Decision};
use crate::routing;
use crate::stream::EventStream;
use crate::token;

mod builder;
mod convert;
mod sessions;

pub use builder::{ClientBuilder, Timeouts, DEFAULT_BASE_URL};
pub use convert::ErrorBody;
use convert::{convert, key};

/// The `User-Agent` this client sends unless a default header replaces it.
pub const USER_AGENT_VALUE: &str = concat!("agentic-driver-rust/", env!("CARGO_PKG_VERSION"));
/// Retries after a failed attempt, by default (3 attempts in all).
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// The default bound of [`Client::wait_until_idle`].
pub const DEFAULT_IDLE_WAIT: Duration = Duration::from_secs(30);

#[derive(Debug)]
struct Settings {
    max_retries: u32,
    timeouts: Timeouts,
    log_to_stderr: bool,
    token_provider: Option<crate::token::Provider>,
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

/// The result of a session run ([`Client::run_session`]): `session` is the session at its next
/// revision, always there; `result` is the rest of the run's result (its `session` moved out).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRunResult {
    pub session: types::SessionInfo,
    pub result: types::RunResult,
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

/// What one logical call has spent: its retries, and whether it followed its one `421`. A
/// resumed stream is one call: its rejoins share this with the request that opened it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Budget {
    pub(crate) retries: u32,
    pub(crate) followed: bool,
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
        self.json(Call::new(&operations::GET_HEALTH, &[]), |_| self.raw.get_health()).await
    }

    /// `GET /v1/discovery`: the host as this token sees it.
    pub async fn get_discovery(&self) -> Result<types::Discovery, Error> {
        self.get_discovery_with_response().await.map(Response::into_inner)
    }

    /// [`Client::get_discovery`] with the answer's status and headers.
    pub async fn get_discovery_with_response(&self) -> Result<Response<types::Discovery>, Error> {
        self.json(Call::new(&operations::GET_DISCOVERY, &[]), |_| self.raw.get_discovery()).await
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
        let call = Call::with_body(&operations::RUN, &[], body);
        self.json(call, |host| async move { self.raw.run(host.as_deref(), Some(key), body).await }).await
    }

    /// `POST /v1/runs` for a session run (`body.session` set, as `session.run_request(input)` makes
    /// it): the result with its session unwrapped. A body without a session is refused before it is
    /// sent ([`Error::InvalidRequest`]); an answer without the session, which the contract rules out,
    /// is [`Error::Protocol`].
    pub async fn run_session(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<SessionRunResult, Error> {
        if body.session.is_none() {
            return Err(Error::InvalidRequest("run_session needs a body with a session (session.run_request)".into()));
        }
        let mut result = self.run(body, idempotency_key).await?;
        let session = result
            .session
            .take()
            .ok_or_else(|| Error::Protocol("a session run answered without its session".into()))?;
        Ok(SessionRunResult { session, result })
    }

    /// `POST /v1/runs/stream`: the same turn as `run`, as a stream of typed events. Returns once
    /// the host accepted the run; a refusal is the error. Only the request is retried: a stream
    /// that fails after its head is not, except that a run sent with `onDisconnect: continue`
    /// resumes by itself (`streamRunEvents` after the last event delivered; see the crate's
    /// README, "Resuming a stream"). Without it, read the session to reconcile.
    pub async fn stream_run(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<EventStream, Error> {
        let key = key::<types::StreamRunIdempotencyKey>(idempotency_key)?;
        let Call { operation, path, host } = Call::with_body(&operations::STREAM_RUN, &[], body);
        let (mut host, mut budget) = (host, Budget::default());
        let key_ref = &key;
        let opened = self
            .open_stream(operation, &path, &mut host, &mut budget, |host| async move {
                self.raw.stream_run(host.as_deref(), Some(key_ref), body).await
            })
            .await?;
        let stream = self.event_stream(opened);
        if body.on_disconnect != Some(types::OnDisconnect::Continue) {
            return Ok(stream);
        }
        let origin = Origin::Run { body: body.clone(), key };
        Ok(self.resumable(stream, origin, None, None, host, budget))
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
        let key = &key::<types::SubmitRunActionsIdempotencyKey>(idempotency_key)?;
        self.json(Call::new(&operations::SUBMIT_RUN_ACTIONS, &[run_id]), |host| async move {
            self.raw.submit_run_actions(run_id, host.as_deref(), Some(key), body).await
        })
        .await
    }

    /// `POST /v1/runs/{runId}/actions/stream`: answers a waiting run and streams the rest of it.
    /// With `onDisconnect: continue` in `body`, the stream resumes by itself, as
    /// [`Client::stream_run`]'s does (the client knows only what its own request says: a run
    /// sent with `continue` whose actions request omits it is not resumed).
    pub async fn stream_run_actions(
        &self,
        run_id: &str,
        body: &types::SubmitRunActionsRequest,
        idempotency_key: Option<&str>,
    ) -> Result<EventStream, Error> {
        let key = key::<types::StreamRunActionsIdempotencyKey>(idempotency_key)?;
        let Call { operation, path, host } = Call::new(&operations::STREAM_RUN_ACTIONS, &[run_id]);
        let (mut host, mut budget) = (host, Budget::default());
        let key_ref = &key;
        let opened = self
            .open_stream(operation, &path, &mut host, &mut budget, |host| async move {
                self.raw.stream_run_actions(run_id, host.as_deref(), Some(key_ref), body).await
            })
            .await?;
        let stream = self.event_stream(opened);
        if body.on_disconnect != Some(types::OnDisconnect::Continue) {
            return Ok(stream);
        }
        let origin = Origin::Actions { run_id: run_id.to_owned(), body: body.clone(), key };
        Ok(self.resumable(stream, origin, Some(run_id), None, host, budget))
    }

    /// `GET /v1/runs/{runId}`: the run's state and outcome (`RunState`: its status, its session
    /// at the current revision, its result or problem, the ids of its first still-buffered and
    /// last events), while it is active and for the host's `runs.retentionMs` after its end.
    pub async fn get_run(&self, run_id: &str) -> Result<types::RunState, Error> {
        self.get_run_with_response(run_id).await.map(Response::into_inner)
    }

    /// [`Client::get_run`] with the answer's status and headers.
    pub async fn get_run_with_response(&self, run_id: &str) -> Result<Response<types::RunState>, Error> {
        self.json(Call::new(&operations::GET_RUN, &[run_id]), |host| async move {
            self.raw.get_run(run_id, host.as_deref()).await
        })
        .await
    }

    /// `GET /v1/runs/{runId}/events`: the run's events after `last_event_id` (the SSE id of the
    /// last event you have, as [`EventStream::last_event_id`] gives it; `None`: from the first),
    /// replayed with their original ids, then followed live to the run's next pause or end. It
    /// resumes by itself like a `continue` stream. An id older than the host still holds is
    /// [`crate::ProblemKind::RunEventsExpired`]; an id that is not a positive integer is refused
    /// before sending ([`Error::InvalidRequest`]).
    pub async fn stream_run_events(&self, run_id: &str, last_event_id: Option<&str>) -> Result<EventStream, Error> {
        let after = last_event_id
            .map(|id| {
                types::StreamRunEventsLastEventId::try_from(id)
                    .map_err(|error| Error::InvalidRequest(format!("Last-Event-ID: {error}")))
            })
            .transpose()?;
        let (mut host, mut budget) = (Call::new(&operations::STREAM_RUN_EVENTS, &[run_id]).host, Budget::default());
        let opened = self.open_events(run_id, after.as_ref(), &mut host, &mut budget).await?;
        let stream = self.event_stream(opened);
        let last = after.and_then(|id| id.parse().ok());
        Ok(self.resumable(stream, Origin::Events, Some(run_id), last, host, budget))
    }

    /// `POST /v1/runs/{runId}/cancel`: cancels an active run (no idempotency key: the operation
    /// takes none).
    pub async fn cancel_run(&self, run_id: &str) -> Result<types::CancelRunResponse, Error> {
        self.cancel_run_with_response(run_id).await.map(Response::into_inner)
    }

    /// [`Client::cancel_run`] with the answer's status and headers.
    pub async fn cancel_run_with_response(&self, run_id: &str) -> Result<Response<types::CancelRunResponse>, Error> {
        self.json(Call::new(&operations::CANCEL_RUN, &[run_id]), |host| async move {
            self.raw.cancel_run(run_id, host.as_deref()).await
        })
        .await
    }

    /// A call whose answer is a JSON body (or none). `call.host` is the owner of the session or run
    /// the call names (its `Agentic-Host`); `send` makes one attempt with the host it is given.
    async fn json<T, E, F, Fut>(&self, call: Call, send: F) -> Result<Response<T>, Error>
    where
        E: ErrorBody,
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<ResponseValue<T>, progenitor_client::Error<E>>>,
    {
        let timeouts = self.settings.timeouts;
        let (send, timeouts) = (&send, &timeouts);
        let (Call { operation, path, mut host }, mut budget) = (call, Budget::default());
        self.attempts(operation, &path, &mut host, &mut budget, move |host| async move {
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

    /// The attempts of a call whose answer is an event stream (`send` as for [`Client::json`]);
    /// `host` and `budget` are the call's, and are left as the attempts left them.
    pub(crate) async fn open_stream<F, Fut>(
        &self,
        operation: &'static Operation,
        path: &str,
        host: &mut Option<String>,
        budget: &mut Budget,
        send: F,
    ) -> Result<Response<ByteStream>, Error>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<ResponseValue<ByteStream>, progenitor_client::Error<ByteStream>>>,
    {
        let timeouts = self.settings.timeouts;
        let (send, convert_timeouts) = (&send, &timeouts);
        self.attempts(operation, path, host, budget, move |host| async move {
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
        .await
    }

    /// The attempts of one `GET /v1/runs/{runId}/events` (`host` and `budget` as for
    /// [`Client::open_stream`]).
    pub(crate) async fn open_events(
        &self,
        run_id: &str,
        after: Option<&types::StreamRunEventsLastEventId>,
        host: &mut Option<String>,
        budget: &mut Budget,
    ) -> Result<Response<ByteStream>, Error> {
        let Call { operation, path, .. } = Call::new(&operations::STREAM_RUN_EVENTS, &[run_id]);
        self.open_stream(operation, &path, host, budget, |host| async move {
            self.raw.stream_run_events(run_id, host.as_deref(), after).await
        })
        .await
    }

    /// The events of an opened stream.
    fn event_stream(&self, opened: Response<ByteStream>) -> EventStream {
        EventStream::new(opened.value, opened.status, opened.headers, self.settings.timeouts)
    }

    /// Retries after a failed attempt (the builder's `max_retries`).
    pub(crate) fn max_retries(&self) -> u32 {
        self.settings.max_retries
    }

    /// Runs attempts of one logical call until one succeeds, one fails in a way that is not
    /// retried, or the retries are spent; waits between them (a dropped future stops the wait).
    /// Each attempt sends `host` as `Agentic-Host`; the first 421 of the call switches it to the
    /// owner that answer names and sends again at once, without using up a retry. `budget` is
    /// what the call has spent so far (more than these attempts for a resumed stream). The
    /// operation's row gives the method, for the log and the retry table (a read timeout is
    /// retried for `GET` and `DELETE` only: `retry::decide`); `path` is the one sent, for the log.
    async fn attempts<T, F, Fut>(
        &self,
        operation: &'static Operation,
        path: &str,
        host: &mut Option<String>,
        budget: &mut Budget,
        attempt: F,
    ) -> Result<Response<T>, Error>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<(u16, HeaderMap, T), Failure>>,
    {
        let total = self.settings.max_retries.saturating_add(1);
        let (method, idempotent) = (operation.method, matches!(operation.method, "GET" | "DELETE"));
        let (mut refused, mut reauthorized) = (None, false);
        loop {
            let number = budget.retries.saturating_add(1);
            let token = match &self.settings.token_provider {
                Some(provider) => Some(provider.ask(refused.take()).await?),
                None => None,
            };
            match token::with_token(token.as_ref(), attempt(host.clone())).await {
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
                    if let Some(token) = token.filter(|_| !reauthorized && token::invalid_token(&error)) {
                        // The host refused the provider's token itself: ask again and send once more, at once.
                        self.log(method, path, "401 invalid_token", number, total, headers, Some(Duration::ZERO));
                        (refused, reauthorized) = (Some(token.text), true);
                        continue;
                    }
                    if let Some(owner) = routing::misdirected_owner(&error).filter(|_| !budget.followed) {
                        // A wrong hop: the same request at once to the owner, once per call.
                        self.log(method, path, &outcome, number, total, headers, Some(Duration::ZERO));
                        *host = Some(owner.to_owned());
                        budget.followed = true;
                        continue;
                    }
                    let wait = match retry::decide(&error, idempotent, answered) {
                        _ if budget.retries >= self.settings.max_retries => None,
                        Decision::Stop => None,
                        Decision::RetryAfter(delay) => Some(delay),
                        Decision::Backoff => Some(retry::backoff(budget.retries, retry::jitter())),
                    };
                    self.log(method, path, &outcome, number, total, headers, wait);
                    match wait {
                        None => return Err(error),
                        Some(wait) => tokio::time::sleep(wait).await,
                    }
                    budget.retries += 1;
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
        self.log_line(&line);
    }

    /// Writes one debug line (see [`Client::log`] for what a line may hold).
    pub(crate) fn log_line(&self, line: &str) {
        if !self.settings.log_to_stderr && !log::log_enabled!(target: "agentic_driver_client", log::Level::Debug) {
            return;
        }
        log::debug!(target: "agentic_driver_client", "{line}");
        if self.settings.log_to_stderr {
            eprintln!("agentic-driver: {line}");
        }
    }
}
