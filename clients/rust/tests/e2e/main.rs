//! End to end against real host processes: the tests in `sessions.rs` (one shared host), the
//! shared contract scenarios (`scenarios.rs`, every contract-tests/scenarios/*.json) and the
//! shared client-behaviour scenarios (`client_scenarios.rs`, contract-tests/scenarios/clients/,
//! through the fault proxy).
//!
//! A test binary without libtest's harness (`harness = false`) so host processes are shared by
//! the tests that need them and stopped at the end (libtest has no hook that runs after all
//! tests). Each test runs as its own task; a panic fails that test only. `cargo test --test e2e
//! -- NAME` runs the tests whose names contain NAME.

#[path = "../support/mod.rs"]
mod support;

mod client_scenarios;
mod scenarios;
mod sessions;

use std::future::Future;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use support::{Host, HostConfig};

pub type TestFn = fn(Arc<Host>) -> Pin<Box<dyn Future<Output = ()> + Send>>;

fn main() -> ExitCode {
    // The tests' own plain reqwest clients (health polls, /metrics, the proxy's control API).
    agentic_driver_client::install_tls_provider();
    let filters: Vec<String> = std::env::args().skip(1).filter(|arg| !arg.starts_with('-')).collect();
    let selected = |name: &str| filters.is_empty() || filters.iter().any(|filter| name.contains(filter.as_str()));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (passed, failed) = runtime.block_on(async {
        let (mut passed, mut failed) = (0, 0);
        let mut report = |name: &str, started: Instant, outcome: Result<(), String>| match outcome {
            Ok(()) => {
                passed += 1;
                println!("test {name} ... ok ({:.2?})", started.elapsed());
            }
            Err(error) => {
                failed += 1;
                println!("test {name} ... FAILED\n{error}\n");
            }
        };

        let tests: Vec<&(&str, TestFn)> = sessions::TESTS.iter().filter(|(name, _)| selected(name)).collect();
        if !tests.is_empty() {
            match Host::start(HostConfig::Json(support::standard_host_config()), &[]).await {
                Ok(host) => {
                    let host = Arc::new(host);
                    println!("\nrunning {} tests against {}", tests.len(), host.base_url);
                    for (name, test) in tests {
                        let started = Instant::now();
                        let outcome = tokio::spawn(test(host.clone())).await.map_err(|error| error.to_string());
                        if outcome.is_err() {
                            eprintln!("host log:\n{}", host.log());
                        }
                        report(name, started, outcome);
                    }
                }
                Err(error) => report("e2e host", Instant::now(), Err(error)),
            }
        }

        let dir = scenarios::contract_dir();
        let scenarios_dir = dir.join("scenarios");
        if !scenarios_dir.is_dir() {
            println!(
                "\ntest contract scenarios ... skipped: {} does not exist in this checkout yet",
                scenarios_dir.display()
            );
            return (passed, failed);
        }
        let clients_dir = scenarios_dir.join("clients");
        if clients_dir.is_dir() {
            match scenarios::load(&clients_dir) {
                Err(error) => report("client scenarios (loading)", Instant::now(), Err(error)),
                Ok(all) => {
                    let chosen: Vec<_> = all
                        .iter()
                        .filter(|scenario| selected(&format!("client-scenario::{}", scenario.name)))
                        .collect();
                    if !chosen.is_empty() {
                        match client_scenarios::Rig::start(&dir).await {
                            Err(error) => report("client scenarios (host and fault proxy)", Instant::now(), Err(error)),
                            Ok(rig) => {
                                println!("\nrunning {} client scenarios from {}", chosen.len(), clients_dir.display());
                                for scenario in chosen {
                                    let started = Instant::now();
                                    let name = format!("client-scenario::{}", scenario.name);
                                    report(&name, started, rig.play(scenario).await);
                                }
                            }
                        }
                    }
                }
            }
        }
        match scenarios::load(&scenarios_dir) {
            Err(error) => report("contract scenarios (loading)", Instant::now(), Err(error)),
            Ok(all) => {
                let hosts = scenarios::Hosts::new(dir);
                let chosen: Vec<_> =
                    all.iter().filter(|scenario| selected(&format!("scenario::{}", scenario.name))).collect();
                println!("\nrunning {} contract scenarios from {}", chosen.len(), scenarios_dir.display());
                for scenario in chosen {
                    let started = Instant::now();
                    report(&format!("scenario::{}", scenario.name), started, hosts.play(scenario).await);
                }
            }
        }
        (passed, failed)
    });
    println!("\ntest result: {}. {passed} passed; {failed} failed\n", if failed == 0 { "ok" } else { "FAILED" });
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
