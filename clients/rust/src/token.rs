//! Token providers (`clients/BEHAVIOUR.md`, Tokens): asked for the bearer token of every attempt,
//! and asked again once, with the refused token, when the host answers `401` with
//! `WWW-Authenticate: Bearer error="invalid_token"`.
//!
//! The generated client sends what the hand-written layer builds; the token of an attempt reaches
//! its request through a task-local value that the attempt is polled in, read by the generated
//! client's pre-request hook ([`progenitor_client::ClientHooks::pre`]), so no generated code
//! changes and a static token stays a default header, as before.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use progenitor_client::{ClientHooks, OperationInfo};
use reqwest::header::{HeaderValue, AUTHORIZATION, WWW_AUTHENTICATE};

use crate::error::{ConnectionError, Error};
use crate::generated;

/// What a [`TokenProvider`] may fail with: any error (its `Display` is not logged by the client).
pub type TokenError = Box<dyn std::error::Error + Send + Sync>;

/// The future a [`TokenProvider`] answers with.
pub type TokenFuture<'a> = Pin<Box<dyn Future<Output = Result<String, TokenError>> + Send + 'a>>;

/// Gives the bearer token of an attempt (`ClientBuilder::token_provider`). `refused` is the token
/// the host just refused (`error="invalid_token"`: expired, revoked, signed by a retired key), or
/// `None` on an ordinary attempt, so a provider that caches tokens can drop exactly that one.
///
/// It is called for every attempt, a retry included, from as many tasks as there are calls in
/// flight; the client keeps no copy of the token between attempts. A closure
/// `Fn(Option<String>) -> impl Future<Output = Result<String, E>>` is a provider; this one keeps
/// a client-credentials token and asks its identity provider again only for the one refused:
///
/// ```no_run
/// use std::sync::Arc;
///
/// use agentic_driver_client::Client;
/// use tokio::sync::Mutex;
///
/// # async fn client_credentials_token() -> Result<String, std::io::Error> { Ok(String::new()) }
/// # fn example() -> Result<(), agentic_driver_client::Error> {
/// let cached: Arc<Mutex<Option<String>>> = Arc::default();
/// let client = Client::builder()
///     .base_url("https://agentic.internal:8443")
///     .token_provider(move |refused: Option<String>| {
///         let cached = cached.clone();
///         async move {
///             let mut cached = cached.lock().await;
///             if cached.is_none() || refused.is_some() && refused == *cached {
///                 *cached = Some(client_credentials_token().await?); // POST to the IdP's token endpoint
///             }
///             Ok::<_, std::io::Error>(cached.clone().unwrap_or_default())
///         }
///     })
///     .build()?;
/// # Ok(())
/// # }
/// ```
pub trait TokenProvider: Send + Sync + 'static {
    /// The token for the next attempt.
    fn token(&self, refused: Option<String>) -> TokenFuture<'_>;
}

impl<F, Fut, E> TokenProvider for F
where
    F: Fn(Option<String>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<String, E>> + Send + 'static,
    E: Into<TokenError>,
{
    fn token(&self, refused: Option<String>) -> TokenFuture<'_> {
        let future = self(refused);
        Box::pin(async move { future.await.map_err(Into::into) })
    }
}

/// A configured provider: shared by the client's clones, shown without its state.
#[derive(Clone)]
pub(crate) struct Provider(pub(crate) Arc<dyn TokenProvider>);

impl fmt::Debug for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenProvider")
    }
}

/// One attempt's token: the text (to hand back as `refused`) and its header value.
pub(crate) struct AttemptToken {
    pub(crate) text: String,
    header: HeaderValue,
}

impl Provider {
    /// The provider's token for the next attempt, or the error that fails the call before
    /// anything is sent (never retried).
    pub(crate) async fn ask(&self, refused: Option<String>) -> Result<AttemptToken, Error> {
        let not_sent =
            |what: &str, cause| Error::Connection(ConnectionError::token(format!("not sent: {what}"), cause));
        let text = self.0.token(refused).await.map_err(|error| not_sent("the token provider failed", Some(error)))?;
        if text.is_empty() {
            return Err(not_sent("the token provider gave an empty token", None));
        }
        if !text.bytes().all(|byte| (0x21..=0x7e).contains(&byte)) {
            return Err(not_sent("the token provider gave a token a header cannot carry", None));
        }
        let mut header = HeaderValue::from_str(&format!("Bearer {text}")).expect("printable ASCII is a header value");
        header.set_sensitive(true);
        Ok(AttemptToken { text, header })
    }
}

tokio::task_local! {
    /// The `Authorization` of the attempt being polled, when a provider gave it.
    static ATTEMPT_AUTHORIZATION: HeaderValue;
}

/// Polls `attempt` with `token` (if any) as the `Authorization` its request carries.
pub(crate) async fn with_token<T>(token: Option<&AttemptToken>, attempt: impl Future<Output = T>) -> T {
    match token {
        Some(token) => ATTEMPT_AUTHORIZATION.scope(token.header.clone(), attempt).await,
        None => attempt.await,
    }
}

// The generated client's hook (this impl takes precedence over its empty one for `&Client`): it
// sets the attempt's token last, so no default header can replace it.
impl ClientHooks<()> for generated::Client {
    async fn pre<E>(
        &self,
        request: &mut reqwest::Request,
        _info: &OperationInfo,
    ) -> Result<(), progenitor_client::Error<E>> {
        if let Ok(header) = ATTEMPT_AUTHORIZATION.try_with(HeaderValue::clone) {
            request.headers_mut().insert(AUTHORIZATION, header);
        }
        Ok(())
    }
}

/// Whether `error` is the host's `401` refusing the token itself (`error="invalid_token"`).
pub(crate) fn invalid_token(error: &Error) -> bool {
    error.status() == Some(401)
        && error.headers().is_some_and(|headers| {
            headers.get_all(WWW_AUTHENTICATE).iter().any(|value| {
                value.to_str().is_ok_and(|text| {
                    let text = text.to_ascii_lowercase().replace(' ', "");
                    text.contains("error=\"invalid_token\"") || text.contains("error=invalid_token")
                })
            })
        })
}
