//! How much the Rust client costs over a plain reqwest request: one session turn.
//!
//!     make bench-client-rust
//!     # or: with_host.py -- bench-client-rust [--pairs N] [--warmup N] [--cold-build SECONDS] [--output FILE]
//!
//! Against the host at `AGENTIC_DRIVER_URL` (token `AGENTIC_DRIVER_TOKEN`; the make target starts
//! one with clients/newcomer/with_host.py), times the same session turn (`POST /v1/runs`
//! continuing a fresh session at revision 0, with an Idempotency-Key, answer parsed from JSON)
//! two ways: `client` is `Client::run` (generated request and result types, the retry loop,
//! its headers); `reqwest` is the same request with a plain `reqwest::Client` and
//! `serde_json::Value`. The two are interleaved in pairs, alternating which goes first;
//! sessions are created and deleted outside the timed part. Overhead is the ratio of the
//! medians (target under 1.10). `--cold-build` passes in the cold release build time the make
//! target measured (a fresh target dir), to be reported and recorded. Writes the figures as
//! JSON to `--output` (default bench/results/client-rust.json).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use agentic_driver_client::{types, Client};
use serde_json::{json, Value};

const TARGET: f64 = 1.10;
const INPUT: &str = "How long does one turn take?";

struct Args {
    pairs: usize,
    warmup: usize,
    cold_build: Option<Value>,
    output: PathBuf,
}

fn args() -> Args {
    let mut args = Args {
        pairs: 1000,
        warmup: 100,
        cold_build: None,
        output: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../results/client-rust.json"
        )),
    };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let value = given
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--pairs" => args.pairs = value.parse().expect("--pairs N"),
            "--warmup" => args.warmup = value.parse().expect("--warmup N"),
            // "WALL USER SYS" in seconds, as /usr/bin/time -f '%e %U %S' prints them.
            "--cold-build" => {
                let figures: Vec<f64> = value
                    .split_whitespace()
                    .map(|s| s.parse().expect("seconds"))
                    .collect();
                args.cold_build = Some(
                    json!({"wall_s": figures[0], "user_s": figures.get(1), "sys_s": figures.get(2)}),
                );
            }
            "--output" => args.output = PathBuf::from(value),
            other => panic!("unknown option {other}"),
        }
    }
    args
}

fn summary(values: &[f64]) -> Value {
    let mut ordered = values.to_vec();
    ordered.sort_by(f64::total_cmp);
    let median = if ordered.len() % 2 == 1 {
        ordered[ordered.len() / 2]
    } else {
        (ordered[ordered.len() / 2 - 1] + ordered[ordered.len() / 2]) / 2.0
    };
    json!({
        "median_us": median * 1e6,
        "p10_us": ordered[ordered.len() / 10] * 1e6,
        "p90_us": ordered[ordered.len() * 9 / 10] * 1e6,
        "mean_us": ordered.iter().sum::<f64>() / ordered.len() as f64 * 1e6,
    })
}

fn median(values: &[f64]) -> f64 {
    summary(values)["median_us"].as_f64().unwrap() / 1e6
}

#[tokio::main]
async fn main() {
    let args = args();
    let url = std::env::var("AGENTIC_DRIVER_URL").expect("AGENTIC_DRIVER_URL");
    let token = std::env::var("AGENTIC_DRIVER_TOKEN").expect("AGENTIC_DRIVER_TOKEN");
    agentic_driver_client::install_tls_provider(); // the plain reqwest client below needs a provider
    let client = Client::builder()
        .base_url(&url)
        .token(&token)
        .build()
        .expect("client");
    let setup = Client::builder()
        .base_url(&url)
        .token(&token)
        .build()
        .expect("client");
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        format!("Bearer {token}").parse().unwrap(),
    );
    headers.insert(reqwest::header::ACCEPT, "application/json".parse().unwrap());
    let plain = reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .expect("reqwest");
    let discovery = setup.get_discovery().await.expect("discovery");
    let echo = discovery
        .providers
        .iter()
        .find(|provider| provider.id == "echo")
        .expect("an echo provider");
    let model = echo.models[0].clone();
    let expected = format!("echo: {INPUT}");

    let fresh = || async {
        let request =
            types::CreateSessionRequest::new("echo", model.as_str(), types::SessionMode::History);
        setup
            .create_session(&request, None)
            .await
            .expect("create")
            .session
    };
    let with_client = |session: types::SessionInfo| {
        let (client, expected) = (&client, &expected);
        async move {
            let request = session.run_request(INPUT);
            let started = Instant::now();
            let result = client.run(&request, None).await.expect("client turn");
            let elapsed = started.elapsed();
            assert_eq!(&result.output.text, expected);
            elapsed
        }
    };
    let with_reqwest = |session: types::SessionInfo| {
        let (plain, url, model, expected) = (&plain, &url, &model, &expected);
        async move {
            let body = json!({"provider": "echo", "model": model, "input": INPUT,
                              "session": {"id": session.id, "revision": session.revision}});
            let started = Instant::now();
            let answer = plain
                .post(format!("{url}/v1/runs"))
                .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                .json(&body)
                .send()
                .await
                .expect("reqwest turn");
            assert_eq!(answer.status(), 200);
            let value: Value = answer.json().await.expect("JSON");
            let elapsed = started.elapsed();
            assert_eq!(value["output"]["text"].as_str(), Some(expected.as_str()));
            elapsed
        }
    };

    let (mut client_times, mut plain_times) = (Vec::new(), Vec::new());
    for round in 0..args.warmup + args.pairs {
        let (a, b) = (fresh().await, fresh().await);
        let (ids, (client_time, plain_time)): (_, (Duration, Duration)) = if round % 2 == 0 {
            let plain_time = with_reqwest(a.clone()).await;
            ((a.id, b.id.clone()), (with_client(b).await, plain_time))
        } else {
            let client_time = with_client(a.clone()).await;
            ((a.id, b.id.clone()), (client_time, with_reqwest(b).await))
        };
        setup.delete_session(&ids.0).await.expect("delete");
        setup.delete_session(&ids.1).await.expect("delete");
        if round >= args.warmup {
            client_times.push(client_time.as_secs_f64());
            plain_times.push(plain_time.as_secs_f64());
        }
    }
    let pair_ratios: Vec<f64> = client_times
        .iter()
        .zip(&plain_times)
        .map(|(c, p)| c / p)
        .collect();
    let ratio = median(&client_times) / median(&plain_times);
    let overhead_us = (median(&client_times) - median(&plain_times)) * 1e6;
    let (plain_stats, client_stats) = (summary(&plain_times), summary(&client_times));

    println!(
        "one session turn, {} interleaved pairs (median, p10-p90):",
        args.pairs
    );
    for (name, stats) in [("reqwest", &plain_stats), ("client", &client_stats)] {
        println!(
            "  {name:8} {:8.0} us  ({:.0}-{:.0})",
            stats["median_us"].as_f64().unwrap(),
            stats["p10_us"].as_f64().unwrap(),
            stats["p90_us"].as_f64().unwrap()
        );
    }
    let verdict = if ratio < TARGET { "ok" } else { "MISSED" };
    println!(
        "  client overhead: {ratio:.3}x of plain reqwest ({overhead_us:+.0} us; median of pair ratios {:.3}x; target < {TARGET}x: {verdict})",
        median(&pair_ratios)
    );
    if let Some(cold) = &args.cold_build {
        println!(
            "cold release build (fresh target dir, client + this bench): {:.1} s wall, {:.1} s user, {:.1} s sys",
            cold["wall_s"].as_f64().unwrap_or(0.0),
            cold["user_s"].as_f64().unwrap_or(0.0),
            cold["sys_s"].as_f64().unwrap_or(0.0)
        );
    }
    let record = json!({
        "benchmark": "client-rust",
        "client": agentic_driver_client::USER_AGENT_VALUE,
        "machine": format!("{} {}, {} cpus", std::env::consts::OS, std::env::consts::ARCH,
                           std::thread::available_parallelism().map_or(0, |n| n.get())),
        "turn": {
            "pairs": args.pairs,
            "warmup_pairs": args.warmup,
            "reqwest": plain_stats,
            "client": client_stats,
            "ratio_of_medians": ratio,
            "median_of_pair_ratios": median(&pair_ratios),
            "overhead_us": overhead_us,
            "target_ratio": TARGET,
        },
        "cold_build": args.cold_build,
    });
    if let Some(parent) = args.output.parent() {
        std::fs::create_dir_all(parent).expect("results dir");
    }
    std::fs::write(
        &args.output,
        serde_json::to_string_pretty(&record).unwrap() + "\n",
    )
    .expect("write results");
    println!(
        "wrote {}",
        args.output.canonicalize().unwrap_or(args.output).display()
    );
}
