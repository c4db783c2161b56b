//! TLS for https hosts. By default (feature `rustls-ring`) rustls with the *ring* crypto provider
//! and the platform's certificate verifier: ring builds in seconds, where reqwest's default
//! provider, aws-lc-rs, takes most of a cold build. The features `rustls` (reqwest's rustls with
//! aws-lc-rs) and `native-tls` (the system's TLS library) are opt-in and then used instead.

use std::path::PathBuf;

use crate::error::Error;

/// The CA certificates a client trusts instead of the platform's roots (`ca_certificate_*` of
/// the builder), as PEM text and PEM files; read when the client is built.
#[derive(Debug, Clone, Default)]
pub(crate) struct TrustedRoots {
    pub(crate) pem: Vec<u8>,
    pub(crate) files: Vec<PathBuf>,
}

impl TrustedRoots {
    /// Every PEM given, the files' read now; `None` when none was given (the platform decides).
    fn bundle(&self) -> Result<Option<Vec<u8>>, Error> {
        if self.pem.is_empty() && self.files.is_empty() {
            return Ok(None);
        }
        let mut bundle = self.pem.clone();
        for path in &self.files {
            let pem = std::fs::read(path).map_err(|error| {
                Error::InvalidRequest(format!("reading the CA certificate file {}: {error}", path.display()))
            })?;
            bundle.push(b'\n');
            bundle.extend_from_slice(&pem);
        }
        Ok(Some(bundle))
    }
}

/// Gives `builder` the crate's TLS configuration: the platform's verifier, or only `roots`.
#[cfg(all(feature = "rustls-ring", not(feature = "rustls"), not(feature = "native-tls")))]
pub(crate) fn configure(
    builder: reqwest::ClientBuilder,
    roots: &TrustedRoots,
) -> Result<reqwest::ClientBuilder, Error> {
    use rustls_platform_verifier::BuilderVerifierExt;
    let failed = |error: rustls::Error| Error::InvalidRequest(format!("setting up TLS: {error}"));
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let versions =
        rustls::ClientConfig::builder_with_provider(provider).with_safe_default_protocol_versions().map_err(failed)?;
    let mut config = match roots.bundle()? {
        Some(pem) => versions.with_root_certificates(root_store(&pem)?).with_no_client_auth(),
        None => versions.with_platform_verifier().map_err(failed)?.with_no_client_auth(),
    };
    // What reqwest offers with its own rustls configuration: h2 only when it can speak it.
    config.alpn_protocols =
        if cfg!(feature = "http2") { vec![b"h2".to_vec(), b"http/1.1".to_vec()] } else { vec![b"http/1.1".to_vec()] };
    Ok(builder.tls_backend_preconfigured(config))
}

/// The certificates of a PEM bundle as rustls roots; a bundle without one is an error.
#[cfg(all(feature = "rustls-ring", not(feature = "rustls"), not(feature = "native-tls")))]
fn root_store(pem: &[u8]) -> Result<rustls::RootCertStore, Error> {
    use rustls::pki_types::{pem::PemObject, CertificateDer};
    let mut store = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(pem) {
        let certificate =
            certificate.map_err(|error| Error::InvalidRequest(format!("reading the CA bundle: {error}")))?;
        store
            .add(certificate)
            .map_err(|error| Error::InvalidRequest(format!("a CA certificate of the bundle: {error}")))?;
    }
    if store.is_empty() {
        return Err(Error::InvalidRequest("the CA bundle holds no PEM certificate".into()));
    }
    Ok(store)
}

/// Gives `builder` the crate's TLS configuration (reqwest's own, for the opt-in features), and
/// only `roots` when given.
#[cfg(all(
    any(feature = "rustls", feature = "native-tls"),
    not(all(feature = "rustls-ring", not(feature = "rustls"), not(feature = "native-tls")))
))]
pub(crate) fn configure(
    builder: reqwest::ClientBuilder,
    roots: &TrustedRoots,
) -> Result<reqwest::ClientBuilder, Error> {
    let Some(pem) = roots.bundle()? else { return Ok(builder) };
    let certificates = reqwest::Certificate::from_pem_bundle(&pem)
        .map_err(|error| Error::InvalidRequest(format!("reading the CA bundle: {error}")))?;
    if certificates.is_empty() {
        return Err(Error::InvalidRequest("the CA bundle holds no PEM certificate".into()));
    }
    Ok(builder.tls_certs_only(certificates))
}

/// Without a TLS feature the client speaks plain HTTP only: a CA bundle cannot be used.
#[cfg(not(any(feature = "rustls-ring", feature = "rustls", feature = "native-tls")))]
pub(crate) fn configure(
    builder: reqwest::ClientBuilder,
    roots: &TrustedRoots,
) -> Result<reqwest::ClientBuilder, Error> {
    match roots.bundle()? {
        Some(_) => {
            Err(Error::InvalidRequest("a CA bundle needs a TLS feature (rustls-ring, rustls, native-tls)".into()))
        }
        None => Ok(builder),
    }
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
