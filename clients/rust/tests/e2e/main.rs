//! End to end against a real host process: sessions, the four session error codes by type,
//! streamed runs and an application-function round trip.
//!
//! A test binary without libtest's harness (`harness = false`) so one host process serves every
//! test and is stopped at the end (libtest has no hook that runs after all tests). Each test
//! runs as its own task; a panic fails that test only. `cargo test --test e2e -- NAME` runs the
//! tests whose names contain NAME.

#[path = "../support/mod.rs"]
mod support;

mod sessions;

use std::future::Future;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use support::{Host, HostConfig};

pub type TestFn = fn(Arc<Host>) -> Pin<Box<dyn Future<Output = ()> + Send>>;

fn main() -> ExitCode {
    let filters: Vec<String> = std::env::args().skip(1).filter(|arg| !arg.starts_with('-')).collect();
    let tests: Vec<(&str, TestFn)> = sessions::TESTS
        .iter()
        .copied()
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|filter| name.contains(filter.as_str())))
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let failed = runtime.block_on(async {
        if tests.is_empty() {
            return 0;
        }
        let host = match Host::start(HostConfig::Json(support::standard_host_config()), &[]).await {
            Ok(host) => Arc::new(host),
            Err(error) => {
                eprintln!("{error}");
                return tests.len();
            }
        };
        println!("\nrunning {} tests against {}", tests.len(), host.base_url);
        let mut failed = 0;
        for (name, test) in &tests {
            let started = Instant::now();
            let outcome = tokio::spawn(test(host.clone())).await;
            let elapsed = started.elapsed();
            match outcome {
                Ok(()) => println!("test {name} ... ok ({elapsed:.2?})"),
                Err(error) => {
                    failed += 1;
                    println!("test {name} ... FAILED ({error})");
                }
            }
        }
        if failed > 0 {
            eprintln!("host log:\n{}", host.log());
        }
        failed
    });
    println!(
        "\ntest result: {}. {} passed; {failed} failed\n",
        if failed == 0 { "ok" } else { "FAILED" },
        tests.len() - failed
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
