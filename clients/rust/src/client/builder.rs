//! Building a [`Client`]: its timeouts, retries, default headers, logging and TLS roots.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, USER_AGENT};

use super::{Client, Settings, DEFAULT_MAX_RETRIES, USER_AGENT_VALUE};
use crate::error::Error;
use crate::generated;

/// The client's timeouts. Each one that expires is an [`Error::Timeout`] of its
/// [`TimeoutKind`](crate::TimeoutKind).
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

/// The host a client talks to without [`ClientBuilder::base_url`] or `AGENTIC_DRIVER_URL`.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";

/// An environment variable, `None` when unset or empty.
fn environment(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

/// Builds a [`Client`]: `Client::builder().base_url(..).token(..).build()`; without either, from
/// `AGENTIC_DRIVER_URL` and `AGENTIC_DRIVER_TOKEN` (`clients/BEHAVIOUR.md`, Configuration).
#[derive(Debug, Clone)]
#[must_use]
pub struct ClientBuilder {
    /// `None`: `AGENTIC_DRIVER_URL`, else [`DEFAULT_BASE_URL`].
    base_url: Option<String>,
    /// `None` (and no provider): `AGENTIC_DRIVER_TOKEN`; `Some("")` sends none.
    token: Option<String>,
    token_provider: Option<crate::token::Provider>,
    max_retries: u32,
    timeouts: Timeouts,
    default_headers: Vec<(String, String)>,
    log_to_stderr: Option<bool>,
    trusted_roots: crate::tls::TrustedRoots,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            base_url: None,
            token: None,
            token_provider: None,
            max_retries: DEFAULT_MAX_RETRIES,
            timeouts: Timeouts::default(),
            default_headers: Vec::new(),
            log_to_stderr: None,
            trusted_roots: crate::tls::TrustedRoots::default(),
        }
    }
}

impl ClientBuilder {
    /// The host, for example `http://127.0.0.1:8080`. Default: the `AGENTIC_DRIVER_URL`
    /// environment variable when the client is built, else [`DEFAULT_BASE_URL`].
    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = Some(base_url.into());
        self
    }

    /// The bearer token (an empty token sends none: only `get_health` works then). The client
    /// sets `Authorization` after the default headers, which can neither drop nor replace it.
    /// It replaces a [`token_provider`](Self::token_provider). Default: the
    /// `AGENTIC_DRIVER_TOKEN` environment variable when the client is built, else none.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self.token_provider = None;
        self
    }

    /// Asks `provider` for the bearer token of every attempt, and once more, with the refused
    /// token, when the host answers `401` with `error="invalid_token"`: the same request is then
    /// sent again at once (not one of the retries). It replaces a [`token`](Self::token). A
    /// provider that fails, or gives an empty token or one a header cannot carry, fails the call
    /// before anything is sent, with an [`Error::Connection`] whose
    /// [`is_token_failure`](crate::ConnectionError::is_token_failure) is true (the provider's
    /// error is its source). Calls through [`Client::raw`] carry no token from a provider.
    pub fn token_provider(mut self, provider: impl crate::TokenProvider) -> Self {
        self.token_provider = Some(crate::token::Provider(Arc::new(provider)));
        self.token = None;
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

    /// The client; fails on an empty base URL, an invalid header, an unreadable CA bundle, or a
    /// TLS set-up failure.
    pub fn build(self) -> Result<Client, Error> {
        let base_url = self.base_url.clone().or_else(|| environment("AGENTIC_DRIVER_URL"));
        let base_url = base_url.unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        if base_url.is_empty() {
            return Err(Error::InvalidRequest("the base URL is empty".into()));
        }
        let token = match (&self.token, &self.token_provider) {
            (Some(token), _) => Some(token.clone()).filter(|token| !token.is_empty()),
            (None, Some(_)) => None,
            (None, None) => environment("AGENTIC_DRIVER_TOKEN"),
        };
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
        if let Some(token) = &token {
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
            raw: generated::Client::new_with_client(base_url.trim_end_matches('/'), http),
            settings: Arc::new(Settings {
                max_retries: self.max_retries,
                timeouts: self.timeouts,
                log_to_stderr,
                token_provider: self.token_provider,
            }),
        })
    }
}
