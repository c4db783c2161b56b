//! TLS for https hosts. By default (feature `rustls-ring`) rustls with the *ring* crypto provider
//! and the platform's certificate verifier: ring builds in seconds, where reqwest's default
//! provider, aws-lc-rs, takes most of a cold build. The features `rustls` (reqwest's rustls with
//! aws-lc-rs) and `native-tls` (the system's TLS library) are opt-in and then used instead.

use crate::error::Error;

/// Gives `builder` the crate's TLS configuration.
#[cfg(all(feature = "rustls-ring", not(feature = "rustls"), not(feature = "native-tls")))]
pub(crate) fn configure(builder: reqwest::ClientBuilder) -> Result<reqwest::ClientBuilder, Error> {
    use rustls_platform_verifier::BuilderVerifierExt;
    let failed = |error: rustls::Error| Error::InvalidRequest(format!("setting up TLS: {error}"));
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(failed)?
        .with_platform_verifier()
        .map_err(failed)?
        .with_no_client_auth();
    // What reqwest offers with its own rustls configuration: h2 only when it can speak it.
    config.alpn_protocols =
        if cfg!(feature = "http2") { vec![b"h2".to_vec(), b"http/1.1".to_vec()] } else { vec![b"http/1.1".to_vec()] };
    Ok(builder.tls_backend_preconfigured(config))
}

/// Gives `builder` the crate's TLS configuration (reqwest's own, for the opt-in features).
#[cfg(not(all(feature = "rustls-ring", not(feature = "rustls"), not(feature = "native-tls"))))]
pub(crate) fn configure(builder: reqwest::ClientBuilder) -> Result<reqwest::ClientBuilder, Error> {
    Ok(builder)
}

/// Installs rustls's *ring* provider as the process-wide default, unless one is installed.
///
/// This crate's clients never need it. A program that also builds plain `reqwest` clients
/// needs it (or reqwest's own `rustls` feature): the default feature `rustls-ring` turns on
/// reqwest's `rustls-no-provider`, under which `reqwest::Client::new()` panics when no
/// provider is installed. Returns whether this call installed it.
#[cfg(feature = "rustls-ring")]
pub fn install_tls_provider() -> bool {
    rustls::crypto::CryptoProvider::get_default().is_none()
        && rustls::crypto::ring::default_provider().install_default().is_ok()
}
