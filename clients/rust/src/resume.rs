//! Resuming a stream (`clients/BEHAVIOUR.md`, "Resuming a stream"). A run sent with
//! `onDisconnect: continue` goes on when its client's connection drops, and its host keeps the
//! run's events, numbered once per run. The [`EventStream`] of such a run (of `stream_run`, or of
//! a `stream_run_actions` whose own request says `continue`), and every `stream_run_events`
//! stream, carries a [`Resumer`]: when the connection ends before the run's last event
//! (`run.completed`, `run.requires_action`, `run.failed`), by a connection failure, a stream-idle
//! timeout or a body that simply ends, it reconnects and the application's stream goes on:
//!
//! - the run id known and an event delivered: `GET /v1/runs/{runId}/events` with
//!   `Last-Event-ID` = the id of the last event delivered and `Agentic-Host` from the run id.
//!   Events whose id is not greater are skipped, so each event is delivered once, in order;
//! - before that (a drop before `run.started`, or before an actions stream's first event): the
//!   same request again, with the same `Idempotency-Key` (the host joins or replays the run the
//!   first attempt started, so no second turn starts).
//!
//! Bounded by the call's retry budget ([`Budget`], one call with the request that opened the
//! stream, so its `421` is followed once for all): the opening connection, and one that delivered
//! a new event, are reconnected at once, not as a retry, with the whole budget (given back); a reconnect that fails before its head (retried as the retry
//! table says, a `421` followed once per call) or whose stream ends again without a new event
//! uses one retry and waits its backoff. With the budget spent, the last failure is the stream's
//! error (a body that ended early: [`Error::Connection`]). So `max_retries(0)` still rejoins once
//! after each drop, and ends the stream with the first rejoin that fails.
//! `RUN_EVENTS_EXPIRED`, `RUN_NOT_FOUND` and every other problem end the stream at once.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{ready, Context, Poll};
use std::time::Duration;

use progenitor_client::ByteStream;

use crate::call::Call;
use crate::client::{Budget, Client, Response};
use crate::error::{ConnectionError, Error};
use crate::generated::types;
use crate::operations::{self, Operation};
use crate::retry;
use crate::stream::{Event, EventStream};

/// The request a resumable stream answered: what is sent again when the stream drops before its
/// run's events can be rejoined.
pub(crate) enum Origin {
    /// `streamRun`.
    Run { body: types::RunRequest, key: types::StreamRunIdempotencyKey },
    /// `streamRunActions`.
    Actions { run_id: String, body: types::SubmitRunActionsRequest, key: types::StreamRunActionsIdempotencyKey },
    /// `streamRunEvents`: it always knows its run, so it is only ever rejoined.
    Events,
}

/// A reconnect under way (in a `Mutex` only so that the stream stays `Sync`; it is polled
/// through `&mut`, never locked).
type Reconnect = Mutex<Pin<Box<dyn Future<Output = Reconnected> + Send>>>;

/// What a reconnect left: the new connection (or the error that ends the stream), and the call's
/// `Agentic-Host` and budget as its attempts left them.
struct Reconnected {
    opened: Result<Response<ByteStream>, Error>,
    host: Option<String>,
    budget: Budget,
    rejoined: bool,
}

/// The resume state of one [`EventStream`] (see the module's documentation).
pub(crate) struct Resumer {
    client: Client,
    origin: Arc<Origin>,
    run_id: Option<String>,
    /// The id of the last event delivered to the application (for `streamRunEvents`, at first
    /// the caller's `Last-Event-ID`).
    last: Option<u64>,
    /// The connection being read has delivered a new event.
    fresh: bool,
    /// The connection being read is the one that opened the stream (not a reconnect).
    opening: bool,
    budget: Budget,
    /// `Agentic-Host` of the request sent again (the origin's, after any `421` it followed).
    request_host: Option<String>,
    /// `Agentic-Host` of the rejoins (the run id's owner, or the owner a `421` named).
    run_host: Option<String>,
    /// The operation and path of the connection being read, for the log.
    reading: (&'static Operation, String),
    pending: Option<Reconnect>,
}

impl Client {
    /// `stream` with a [`Resumer`]: `run_id` when the call knows it already (an actions or events
    /// stream), `last` the caller's `Last-Event-ID`, `host` and `budget` as the opening attempts
    /// left them.
    pub(crate) fn resumable(
        &self,
        stream: EventStream,
        origin: Origin,
        run_id: Option<&str>,
        last: Option<u64>,
        host: Option<String>,
        budget: Budget,
    ) -> EventStream {
        let reading = origin.request(run_id, last);
        let run_host = match origin {
            Origin::Run { .. } => None,
            Origin::Actions { .. } | Origin::Events => host.clone(),
        };
        stream.resumed_by(Box::new(Resumer {
            client: self.clone(),
            origin: Arc::new(origin),
            run_id: run_id.map(str::to_owned),
            last,
            fresh: false,
            opening: true,
            budget,
            request_host: host,
            run_host,
            reading,
            pending: None,
        }))
    }

    /// Sends the origin's request again (same body, same key), as one more attempt of its call.
    async fn reopen(
        &self,
        origin: &Origin,
        host: &mut Option<String>,
        budget: &mut Budget,
    ) -> Result<Response<ByteStream>, Error> {
        match origin {
            Origin::Run { body, key } => {
                let Call { operation, path, .. } = Call::with_body(&operations::STREAM_RUN, &[], body);
                self.open_stream(operation, &path, host, budget, |host| async move {
                    self.raw().stream_run(host.as_deref(), Some(key), body).await
                })
                .await
            }
            Origin::Actions { run_id, body, key } => {
                let Call { operation, path, .. } = Call::new(&operations::STREAM_RUN_ACTIONS, &[run_id]);
                self.open_stream(operation, &path, host, budget, |host| async move {
                    self.raw().stream_run_actions(run_id, host.as_deref(), Some(key), body).await
                })
                .await
            }
            Origin::Events => Err(Error::Protocol("an events stream is rejoined, never sent again".into())),
        }
    }
}

impl Origin {
    /// The operation and path that reconnecting sends: a rejoin of `run_id` when an event after
    /// `last` can be asked for, else the origin's own request.
    fn request(&self, run_id: Option<&str>, last: Option<u64>) -> (&'static Operation, String) {
        let call = match (self, run_id) {
            (Origin::Events, Some(run_id)) => Call::new(&operations::STREAM_RUN_EVENTS, &[run_id]),
            (_, Some(run_id)) if last.is_some() => Call::new(&operations::STREAM_RUN_EVENTS, &[run_id]),
            (Origin::Actions { run_id, .. }, _) => Call::new(&operations::STREAM_RUN_ACTIONS, &[run_id]),
            (Origin::Run { body, .. }, _) => Call::with_body(&operations::STREAM_RUN, &[], body),
            (Origin::Events, None) => Call::new(&operations::STREAM_RUN_EVENTS, &[""]),
        };
        (call.operation, call.path)
    }
}

impl Resumer {
    /// Whether the event with this id was delivered already (a replay after a rejoin).
    pub(crate) fn seen(&self, id: Option<u64>) -> bool {
        matches!((id, self.last), (Some(id), Some(last)) if id <= last)
    }

    /// Notes a message delivered to the application (`event`: it parsed); true when it is the
    /// run's last event, after which the stream ends.
    pub(crate) fn delivered(&mut self, id: Option<u64>, event: Option<&Event>) -> bool {
        self.fresh = true;
        if id.is_some() {
            self.last = id;
        }
        if self.run_id.is_none() {
            if let Some(run_id) = event.and_then(Event::run_id) {
                self.run_host = Call::new(&operations::STREAM_RUN_EVENTS, &[run_id]).host;
                self.run_id = Some(run_id.to_owned());
            }
        }
        matches!(event, Some(Event::RunCompleted(_) | Event::RunRequiresAction(_) | Event::RunFailed(_)))
    }

    /// Whether a reconnect is under way (poll it with [`Resumer::poll_reconnect`]).
    pub(crate) fn reconnecting(&self) -> bool {
        self.pending.is_some()
    }

    /// The connection ended before the run's last event (`cause`: its error; `None`: the body
    /// ended). Starts the reconnect, or returns the error that ends the stream.
    pub(crate) fn dropped(&mut self, cause: Option<Error>) -> Result<(), Error> {
        let what = cause.as_ref().map_or_else(|| "the body ended".to_owned(), ToString::to_string);
        let (operation, path) = &self.reading;
        let cut = format!("{} {path} -> the stream ended before the run's last event ({what})", operation.method);
        let wait = if self.fresh {
            // A connection that delivered a new event gives the budget back.
            self.budget.retries = 0;
            Duration::ZERO
        } else if self.opening {
            // The first reconnect is no retry, and it has the whole budget (whatever the request
            // that opened the stream spent): only a failed reconnect is one.
            self.budget.retries = 0;
            Duration::ZERO
        } else if self.budget.retries >= self.client.max_retries() {
            self.client.log_line(&format!("{cut}; not resumed: its retries are spent"));
            return Err(cause.unwrap_or_else(|| Error::Connection(ConnectionError::stream_ended_early())));
        } else {
            let wait = retry::backoff(self.budget.retries, retry::jitter());
            self.budget.retries += 1;
            wait
        };
        (self.fresh, self.opening) = (false, false);
        let rejoin = match (&self.run_id, self.last, &*self.origin) {
            (Some(run_id), Some(_), _) | (Some(run_id), None, Origin::Events) => Some(run_id.clone()),
            _ => None,
        };
        self.reading = self.origin.request(self.run_id.as_deref(), self.last);
        let how = match self.last.filter(|_| rejoin.is_some()) {
            Some(last) => format!("rejoining after event {last}"),
            None if rejoin.is_some() => "rejoining from the first event".to_owned(),
            None => "sending the request again".to_owned(),
        };
        self.client.log_line(&format!("{cut}; {how} in {:.3}s", wait.as_secs_f64()));

        let (client, origin, last) = (self.client.clone(), self.origin.clone(), self.last);
        let mut host = if rejoin.is_some() { self.run_host.clone() } else { self.request_host.clone() };
        let mut budget = self.budget;
        let reconnect = async move {
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            let opened = match &rejoin {
                Some(run_id) => match last.map(|id| types::StreamRunEventsLastEventId::try_from(id.to_string())) {
                    Some(Err(_)) => {
                        Err(Error::Protocol(format!("event id {} is not a Last-Event-ID", last.unwrap_or(0))))
                    }
                    after => {
                        let after = after.and_then(Result::ok);
                        client.open_events(run_id, after.as_ref(), &mut host, &mut budget).await
                    }
                },
                None => client.reopen(&origin, &mut host, &mut budget).await,
            };
            Reconnected { opened, host, budget, rejoined: rejoin.is_some() }
        };
        self.pending = Some(Mutex::new(Box::pin(reconnect)));
        Ok(())
    }

    /// Polls the reconnect under way: the new connection's body, or the error that ends the stream.
    pub(crate) fn poll_reconnect(&mut self, cx: &mut Context<'_>) -> Poll<Result<ByteStream, Error>> {
        let Some(pending) = self.pending.as_mut() else {
            return Poll::Ready(Err(Error::Protocol("no reconnect is under way".into())));
        };
        let reconnect = pending.get_mut().unwrap_or_else(PoisonError::into_inner);
        let reconnected = ready!(reconnect.as_mut().poll(cx));
        self.pending = None;
        self.budget = reconnected.budget;
        if reconnected.rejoined {
            self.run_host = reconnected.host;
        } else {
            self.request_host = reconnected.host;
        }
        Poll::Ready(reconnected.opened.map(Response::into_inner))
    }
}
