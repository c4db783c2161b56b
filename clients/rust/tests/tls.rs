//! A host serving HTTPS with a certificate from a throwaway CA (trustme): a client trusting the
//! CA (file or PEM) completes a session turn; one that does not fails with `Error::Connection`.

mod support;

use agentic_driver_client::{types, Client, ClientBuilder, Error};
use support::{Host, ThrowawayCa, FULL_TOKEN};

async fn session_turn(client: &Client) {
    let request = types::CreateSessionRequest::new("echo", "echo-1", types::SessionMode::History);
    let session = client.create_session(&request, None).await.unwrap().session;
    let result = client.run(&session.run_request("over TLS"), None).await.unwrap();
    assert_eq!(result.output.text, "echo: over TLS");
    assert_eq!(result.session.map(|next| next.revision), Some(session.revision + 1));
}

fn builder(host: &Host) -> ClientBuilder {
    Client::builder().base_url(&host.base_url).token(FULL_TOKEN)
}

#[tokio::test]
async fn a_client_trusting_the_ca_completes_a_session_turn() {
    agentic_driver_client::install_tls_provider(); // the health poll's plain reqwest client
    let ca = ThrowawayCa::new();
    let host = Host::start_tls(support::standard_host_config(), &ca).await.unwrap();
    let pem = std::fs::read(&ca.ca_file).unwrap();

    session_turn(&builder(&host).ca_certificate_file(&ca.ca_file).build().unwrap()).await;
    session_turn(&builder(&host).ca_certificate_pem(&pem).build().unwrap()).await;
    let on_localhost = host.base_url.replace("127.0.0.1", "localhost");
    session_turn(&Client::builder().base_url(on_localhost).token(FULL_TOKEN).ca_certificate_pem(pem).build().unwrap())
        .await;
}

#[tokio::test]
async fn a_client_that_does_not_trust_the_ca_fails_with_a_connection_error() {
    agentic_driver_client::install_tls_provider();
    let ca = ThrowawayCa::new();
    let host = Host::start_tls(support::standard_host_config(), &ca).await.unwrap();
    let other = ThrowawayCa::new();

    for client in [
        builder(&host).max_retries(0).build().unwrap(),
        builder(&host).max_retries(0).ca_certificate_file(&other.ca_file).build().unwrap(),
    ] {
        let error = client.get_discovery().await.expect_err("an untrusted host answered");
        assert!(matches!(error, Error::Connection(_)), "{error:?}");
        assert!(format!("{error:?}").contains("UnknownIssuer"), "{error:?}");
    }
}

#[test]
fn an_unusable_ca_bundle_fails_build() {
    let missing = std::env::temp_dir().join("agentic-driver-absent-ca.pem");
    for builder in [
        Client::builder().base_url("https://localhost:1").ca_certificate_file(&missing),
        Client::builder().base_url("https://localhost:1").ca_certificate_pem("not a certificate"),
    ] {
        let error = builder.build().expect_err("an unusable bundle was accepted");
        assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");
    }
}
