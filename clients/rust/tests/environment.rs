//! clients/BEHAVIOUR.md, "Configuration": the base URL and the token come from the builder, else
//! `AGENTIC_DRIVER_URL` / `AGENTIC_DRIVER_TOKEN` when the client is built, else
//! `DEFAULT_BASE_URL` and no token. One test in its own binary: it sets the process's environment.

mod support;

use agentic_driver_client::{Client, DEFAULT_BASE_URL};
use progenitor_client::ClientInfo;
use support::FakeServer;

const DISCOVERY: &str = r#"{"hostId":"h"}"#;

#[tokio::test]
async fn the_builder_then_the_environment_then_the_defaults() {
    let server = FakeServer::start(200, "application/json", "", DISCOVERY).await;
    std::env::set_var("AGENTIC_DRIVER_URL", &server.base_url);
    std::env::set_var("AGENTIC_DRIVER_TOKEN", "env-token-0123456789");
    let _ = Client::builder().build().unwrap().get_discovery().await;
    let given = FakeServer::start(200, "application/json", "", DISCOVERY).await;
    let _ = Client::builder().base_url(&given.base_url).token("").build().unwrap().get_discovery().await;

    let from_environment = server.requests();
    assert_eq!(from_environment.len(), 1, "the client went to AGENTIC_DRIVER_URL");
    assert_eq!(from_environment[0].header("authorization"), Some("Bearer env-token-0123456789"));
    let from_builder = given.requests();
    assert_eq!(from_builder.len(), 1, "the builder's URL wins");
    assert_eq!(from_builder[0].header("authorization"), None, "an empty token sends none");

    std::env::set_var("AGENTIC_DRIVER_URL", "");
    std::env::remove_var("AGENTIC_DRIVER_TOKEN");
    assert_eq!(DEFAULT_BASE_URL, "http://127.0.0.1:8080");
    let default = Client::builder().build().unwrap();
    assert_eq!(default.raw().baseurl(), DEFAULT_BASE_URL, "an empty variable is unset");
}
