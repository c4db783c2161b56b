//! The Rust client of the Agentic Driver HTTP contract (async, on tokio via reqwest).
//!
//! [`generated`] is produced from the repository's `openapi.yaml` by progenitor (`make
//! generate`; never edit `src/generated.rs`). The other modules are the hand-written layer:
//! [`Client`] with one async method per operation, typed errors ([`Error`], [`ProblemKind`]
//! with one variant per catalogue code), streamed runs as a [`futures_core::Stream`] of
//! [`Event`]s, and the session helpers [`types::SessionInfo::handle`] and
//! [`types::SessionInfo::identity`].
//!
//! ```no_run
//! use agentic_driver_client::{types, Client, Error, ProblemKind};
//!
//! # async fn example() -> Result<(), Error> {
//! let client = Client::new("http://127.0.0.1:8080", "my-token-at-least-16-chars")?;
//! let request = types::CreateSessionRequest::new("echo", "echo-1", types::SessionMode::History);
//! let mut session = client.create_session(&request, None).await?.session;
//! match client.run(&session.run_request("Hello"), None).await {
//!     Ok(result) => session = result.session.expect("a session run returns the session"),
//!     Err(error) => match error.kind() {
//!         Some(ProblemKind::SessionRevisionConflict { current_revision }) => println!("stale: {current_revision:?}"),
//!         Some(ProblemKind::SessionBusy { active_run_id }) => println!("busy: {active_run_id:?}"),
//!         _ => return Err(error),
//!     },
//! }
//! println!("{:?}", session.identity());
//! # Ok(())
//! # }
//! ```

#[rustfmt::skip]
#[allow(clippy::all, missing_docs, unused_imports, dead_code)]
pub mod generated;

mod client;
mod error;
mod session;
pub mod sse;
mod stream;

pub use client::{Client, ErrorBody};
pub use error::{Error, Problem, ProblemKind};
pub use generated::types;
pub use session::SessionIdentity;
pub use stream::{Event, EventStream, UnknownEvent, RUN_EVENT_TYPES};
