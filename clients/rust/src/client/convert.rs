//! Between this client and the generated one: the idempotency key a call sends, and a failed
//! attempt of the generated client read as this crate's [`Error`] ([`Failure`]).

use std::future::poll_fn;

use progenitor_client::ByteStream;

use super::{Failure, Timeouts};
use crate::error::{error_from_answer, Error};

/// The caller's idempotency key, or a fresh UUID v4, as the generated newtype (which checks it).
pub(super) fn key<K>(key: Option<&str>) -> Result<K, Error>
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
    /// Converts an error of the generated client ([`crate::Client::raw`]) into this crate's error, reading
    /// a problem response's body.
    pub async fn from_raw<E: ErrorBody>(error: progenitor_client::Error<E>) -> Error {
        convert(error, &Timeouts::default()).await.error
    }
}

pub(super) async fn convert<E: ErrorBody>(error: progenitor_client::Error<E>, timeouts: &Timeouts) -> Failure {
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
