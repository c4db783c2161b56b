//! The client: one async method per operation of openapi.yaml (named after its operationId),
//! over the generated progenitor client. Methods return the success body, or an [`Error`] whose
//! problem responses carry a [`crate::ProblemKind`].

use std::future::poll_fn;
use std::time::Duration;

use progenitor_client::{ByteStream, ResponseValue};
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, CONTENT_TYPE};

use crate::error::{error_from_answer, Error};
use crate::generated::{self, types};
use crate::stream::EventStream;

/// A client of one Agentic Driver host. Cheap to clone; safe to share between tasks.
#[derive(Clone, Debug)]
pub struct Client {
    raw: generated::Client,
}

impl Client {
    /// A client of the host at `base_url` (for example `http://127.0.0.1:8080`) that sends `token`
    /// as its bearer token (an empty token sends none: only `get_health` works then).
    pub fn new(base_url: &str, token: &str) -> Result<Client, Error> {
        let mut headers = HeaderMap::new();
        if !token.is_empty() {
            let mut value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| Error::InvalidRequest("the token is not a valid header value".into()))?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        // No total timeout: a streamed run may last long; the host sends keep-alives.
        let http =
            reqwest::Client::builder().default_headers(headers).connect_timeout(Duration::from_secs(15)).build()?;
        Ok(Client::with_http_client(base_url, http))
    }

    /// A client that sends its requests with `http` (which must add the Authorization header).
    pub fn with_http_client(base_url: &str, http: reqwest::Client) -> Client {
        Client { raw: generated::Client::new_with_client(base_url.trim_end_matches('/'), http) }
    }

    /// The generated client this one wraps (progenitor's typed responses and errors).
    pub fn raw(&self) -> &generated::Client {
        &self.raw
    }

    /// `GET /healthz`: the host is serving (no token needed).
    pub async fn get_health(&self) -> Result<types::Health, Error> {
        answer(self.raw.get_health().await).await
    }

    /// `GET /v1/discovery`: the host as this token sees it.
    pub async fn get_discovery(&self) -> Result<types::Discovery, Error> {
        answer(self.raw.get_discovery().await).await
    }

    /// `POST /v1/sessions`: a new session at revision 0.
    pub async fn create_session(
        &self,
        body: &types::CreateSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::CreateSessionResponse, Error> {
        let key = key::<types::CreateSessionIdempotencyKey>(idempotency_key)?;
        answer(self.raw.create_session(key.as_ref(), body).await).await
    }

    /// `GET /v1/sessions/{sessionId}`: metadata, instructions, visible history and turns.
    pub async fn read_session(&self, session_id: &str) -> Result<types::ReadSessionResponse, Error> {
        answer(self.raw.read_session(session_id).await).await
    }

    /// `DELETE /v1/sessions/{sessionId}`: removes the session and aborts its active turn.
    pub async fn delete_session(&self, session_id: &str) -> Result<(), Error> {
        answer(self.raw.delete_session(session_id).await).await
    }

    /// `POST /v1/sessions/{sessionId}/truncate`: keeps the first `keep_turns` turns, at the next revision.
    pub async fn truncate_session(
        &self,
        session_id: &str,
        body: &types::TruncateSessionRequest,
    ) -> Result<types::CreateSessionResponse, Error> {
        answer(self.raw.truncate_session(session_id, body).await).await
    }

    /// `POST /v1/runs`: one turn, stateless or continuing a session (`session.run_request(input)`).
    pub async fn run(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::RunResult, Error> {
        let key = key::<types::RunIdempotencyKey>(idempotency_key)?;
        answer(self.raw.run(key.as_ref(), body).await).await
    }

    /// `POST /v1/runs/stream`: the same turn as `run`, as a stream of typed events. Returns once
    /// the host accepted the run; a refusal is the error.
    pub async fn stream_run(
        &self,
        body: &types::RunRequest,
        idempotency_key: Option<&str>,
    ) -> Result<EventStream, Error> {
        let key = key::<types::StreamRunIdempotencyKey>(idempotency_key)?;
        event_stream(self.raw.stream_run(key.as_ref(), body).await).await
    }

    /// `POST /v1/runs/{runId}/actions`: answers a run waiting in `requires_action`.
    pub async fn submit_run_actions(
        &self,
        run_id: &str,
        body: &types::SubmitRunActionsRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::RunResult, Error> {
        let key = key::<types::SubmitRunActionsIdempotencyKey>(idempotency_key)?;
        answer(self.raw.submit_run_actions(run_id, key.as_ref(), body).await).await
    }

    /// `POST /v1/runs/{runId}/actions/stream`: answers a waiting run and streams the rest of it.
    pub async fn stream_run_actions(
        &self,
        run_id: &str,
        body: &types::SubmitRunActionsRequest,
        idempotency_key: Option<&str>,
    ) -> Result<EventStream, Error> {
        let key = key::<types::StreamRunActionsIdempotencyKey>(idempotency_key)?;
        event_stream(self.raw.stream_run_actions(run_id, key.as_ref(), body).await).await
    }

    /// `POST /v1/runs/{runId}/cancel`: cancels an active run.
    pub async fn cancel_run(&self, run_id: &str) -> Result<types::CancelRunResponse, Error> {
        answer(self.raw.cancel_run(run_id).await).await
    }
}

/// An idempotency key as the generated newtype (which checks its length).
fn key<K>(key: Option<&str>) -> Result<Option<K>, Error>
where
    K: for<'a> TryFrom<&'a str>,
    for<'a> <K as TryFrom<&'a str>>::Error: std::fmt::Display,
{
    key.map(K::try_from).transpose().map_err(|error| Error::InvalidRequest(format!("Idempotency-Key: {error}")))
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
        convert(error).await
    }
}

async fn convert<E: ErrorBody>(error: progenitor_client::Error<E>) -> Error {
    use progenitor_client::Error as Generated;
    match error {
        Generated::ErrorResponse(answer) => {
            let (status, headers) = (answer.status().as_u16(), answer.headers().clone());
            match answer.into_inner().bytes().await {
                Ok(body) => error_from_answer(status, &headers, &body),
                Err(error) => Error::Transport(error),
            }
        }
        Generated::UnexpectedResponse(response) => {
            let (status, headers) = (response.status(), response.headers().clone());
            match response.bytes().await {
                Ok(body) if !status.is_success() => error_from_answer(status.as_u16(), &headers, &body),
                Ok(_) => Error::Protocol(format!("undocumented {status} answer")),
                Err(error) => Error::Transport(error),
            }
        }
        Generated::CommunicationError(error)
        | Generated::ResponseBodyError(error)
        | Generated::InvalidUpgrade(error) => Error::Transport(error),
        Generated::InvalidResponsePayload(_, error) => Error::Protocol(format!("the answer does not parse: {error}")),
        Generated::InvalidRequest(message) => Error::InvalidRequest(message),
        Generated::Custom(message) => Error::Protocol(message),
    }
}

async fn answer<T, E: ErrorBody>(result: Result<ResponseValue<T>, progenitor_client::Error<E>>) -> Result<T, Error> {
    match result {
        Ok(value) => Ok(value.into_inner()),
        Err(error) => Err(convert(error).await),
    }
}

async fn event_stream(
    result: Result<ResponseValue<ByteStream>, progenitor_client::Error<ByteStream>>,
) -> Result<EventStream, Error> {
    let response = match result {
        Ok(response) => response,
        Err(error) => return Err(convert(error).await),
    };
    let content_type = response.headers().get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or("");
    if !content_type.starts_with("text/event-stream") {
        return Err(Error::Protocol(format!("a streamed run answered Content-Type {content_type:?}")));
    }
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    Ok(EventStream::new(response.into_inner(), status, headers))
}
