//! The Rust client of the Agentic Driver HTTP contract (async, on tokio via reqwest).
//!
//! [`generated`] is produced from the repository's `openapi.yaml` by progenitor (`make
//! generate`; never edit `src/generated.rs`); the error kinds (`src/error/kind.rs`) and each
//! operation's facts (`src/operations.rs`) are generated from it too, by the repository's table
//! generators. The other modules are the hand-written layer:
//! [`Client`] with one async method per operation, typed errors ([`Error`], [`ProblemKind`]
//! with one variant per catalogue code), streamed runs as a [`futures_core::Stream`] of
//! [`Event`]s (a run sent with `onDisconnect: continue` resumes by itself when its connection
//! drops: [`EventStream`]), and the session helpers [`types::SessionInfo::handle`] and
//! [`types::SessionInfo::identity`].
//!
//! ```no_run
//! use agentic_driver_client::{types, Client, Error, ProblemKind};
//!
//! # async fn example() -> Result<(), Error> {
//! let client = Client::builder().base_url("http://127.0.0.1:8080").token("my-token-at-least-16-chars").build()?;
//! let request = types::CreateSessionRequest::new("echo", "echo-1", types::SessionMode::History);
//! let mut session = client.create_session(&request, None).await?.session;
//! match client.run_session(&session.run_request("Hello"), None).await {
//!     Ok(ran) => session = ran.session,
//!     Err(error) => match error.kind() {
//!         Some(ProblemKind::SessionRevisionConflict { current_revision }) => println!("stale: now {current_revision}"),
//!         Some(ProblemKind::SessionBusy { .. }) => session = client.wait_until_idle(&session.id, Some(&error)).await?.session,
//!         _ => return Err(error),
//!     },
//! }
//! println!("{:?}", session.identity());
//! # Ok(())
//! # }
//! ```
//!
//! The client behaves as `clients/BEHAVIOUR.md` says (retries, idempotency keys, timeouts,
//! headers, logging through the [`log`] facade, raw responses); the crate's README maps each
//! item to the API.

#[rustfmt::skip]
#[allow(clippy::all, missing_docs, unused_imports, dead_code)]
pub mod generated;

mod call;
mod client;
mod error;
mod operations;
mod resume;
pub mod retry;
mod routing;
mod session;
pub mod sse;
mod stream;
mod tls;
mod token;

pub use client::{
    Client, ClientBuilder, ErrorBody, Response, SessionRunResult, Timeouts, DEFAULT_BASE_URL, DEFAULT_IDLE_WAIT,
    DEFAULT_MAX_RETRIES, USER_AGENT_VALUE,
};
pub use error::{
    ConnectionError, Error, Problem, ProblemGroup, ProblemKind, TimeoutError, TimeoutKind, UnexpectedStatus,
};
pub use generated::types;
pub use session::SessionIdentity;
pub use stream::{Event, EventStream, UnknownEvent, RUN_EVENT_TYPES};
#[cfg(feature = "rustls-ring")]
pub use tls::install_tls_provider;
pub use token::{TokenError, TokenFuture, TokenProvider};
