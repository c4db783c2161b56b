//! Streamed runs as a [`Stream`] of typed events: each SSE `data` is parsed as JSON and typed by
//! its `type` (the generated event structs); a type this client does not know becomes
//! [`Event::Unknown`] instead of failing the stream. A silence longer than the stream idle
//! timeout ends the stream with [`Error::Timeout`] of kind [`crate::TimeoutKind::StreamIdle`],
//! unless the stream is resumable (`crate::resume`): then a drop is rejoined instead.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use progenitor_client::ByteStream;
use reqwest::header::HeaderMap;

use crate::client::Timeouts;
use crate::error::{ConnectionError, Error, Problem, TimeoutError, TimeoutKind};
use crate::generated::types;
use crate::resume::Resumer;
use crate::sse::{ServerSentEvent, SseParser};

/// One event of a streamed run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `run.started`: the run was admitted (a session run carries the session).
    RunStarted(types::RunStartedEvent),
    /// `output.delta`: the next piece of the visible text.
    OutputDelta(types::OutputDeltaEvent),
    /// `run.requires_action`: the run waits for the application; the stream ends here.
    RunRequiresAction(types::RunRequiresActionEvent),
    /// `run.completed`: the turn completed (a session run carries the next revision).
    RunCompleted(types::RunCompletedEvent),
    /// `run.failed`: the run failed or was cancelled after the stream started.
    RunFailed(types::RunFailedEvent),
    /// An event type newer than this client, kept whole.
    Unknown(UnknownEvent),
}

/// An event type this client does not know.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownEvent {
    /// The event's `type` (the SSE event name when the data has none).
    pub event_type: String,
    /// The parsed `data`.
    pub data: serde_json::Value,
}

/// Every `type` of `RunEvent` (the e2e tests compare it with the contract the host serves).
pub const RUN_EVENT_TYPES: [&str; 5] =
    ["run.started", "output.delta", "run.requires_action", "run.completed", "run.failed"];

impl From<types::RunEvent> for Event {
    /// Exhaustive over the generated `RunEvent`: a new variant fails the build here.
    fn from(event: types::RunEvent) -> Self {
        match event {
            types::RunEvent::RunStartedEvent(event) => Event::RunStarted(event),
            types::RunEvent::OutputDeltaEvent(event) => Event::OutputDelta(event),
            types::RunEvent::RunRequiresActionEvent(event) => Event::RunRequiresAction(event),
            types::RunEvent::RunCompletedEvent(event) => Event::RunCompleted(event),
            types::RunEvent::RunFailedEvent(event) => Event::RunFailed(event),
        }
    }
}

impl Event {
    /// The event's type, for example `output.delta`.
    pub fn event_type(&self) -> &str {
        match self {
            Event::RunStarted(_) => "run.started",
            Event::OutputDelta(_) => "output.delta",
            Event::RunRequiresAction(_) => "run.requires_action",
            Event::RunCompleted(_) => "run.completed",
            Event::RunFailed(_) => "run.failed",
            Event::Unknown(unknown) => &unknown.event_type,
        }
    }

    /// The id of the run this event belongs to (`None` for an unknown event type).
    pub fn run_id(&self) -> Option<&str> {
        match self {
            Event::RunStarted(event) => Some(&event.run_id),
            Event::OutputDelta(event) => Some(&event.run_id),
            Event::RunRequiresAction(event) => Some(&event.run.id),
            Event::RunCompleted(event) => Some(&event.run.id),
            Event::RunFailed(event) => Some(&event.run_id),
            Event::Unknown(_) => None,
        }
    }

    /// Types one SSE data payload by its `type` (`event_name`, the SSE event field, is used only
    /// in errors and when the data has no type).
    pub fn parse(event_name: &str, data: &str) -> Result<Event, Error> {
        let value: serde_json::Value = serde_json::from_str(data)
            .map_err(|error| Error::Protocol(format!("{event_name} event: data is not JSON: {error}")))?;
        let event_type = match value.get("type").and_then(serde_json::Value::as_str) {
            Some(event_type) => event_type.to_string(),
            None => return Ok(Event::Unknown(UnknownEvent { event_type: event_name.to_string(), data: value })),
        };
        if !RUN_EVENT_TYPES.contains(&event_type.as_str()) {
            return Ok(Event::Unknown(UnknownEvent { event_type, data: value }));
        }
        serde_json::from_value::<types::RunEvent>(value)
            .map(Event::from)
            .map_err(|error| Error::Protocol(format!("malformed {event_type} event: {error}")))
    }
}

/// The events of one streamed run. Poll it as a [`Stream`] or with [`EventStream::next`].
/// Dropping it closes the connection, which the host treats as a disconnect: a session turn
/// whose model work had started becomes `interrupted`, unless the run was sent with
/// `onDisconnect: continue`. The stream of such a run (and every `stream_run_events` stream)
/// resumes by itself when its connection ends before the run's last event: it rejoins the run's
/// events after the last one delivered, and delivers each event once, in order; it ends after
/// that last event (`run.completed`, `run.requires_action` or `run.failed`). Any other stream
/// that ends before that last event, with an error or a body that simply ends, ends with
/// [`Error::Connection`] (a truncated answer is never a quiet end), unless its last event was of
/// a type this client does not know ([`Event::Unknown`]: a newer type may end a run).
pub struct EventStream {
    body: ByteStream,
    parser: SseParser,
    ready: VecDeque<ServerSentEvent>,
    finished: bool,
    last_event_id: Option<String>,
    last_event_data: String,
    status: u16,
    headers: HeaderMap,
    timeouts: Timeouts,
    /// Fires after `timeouts.stream_idle` without bytes; made at the first wait for bytes.
    idle: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Set for a resumable stream.
    resume: Option<Box<Resumer>>,
    /// The last event delivered ended the run or was of a type newer than this client: a body
    /// that ends cleanly after it is a whole answer (read for a stream that is not resumed).
    may_end: bool,
}

/// How a connection ended: with an error, or its body simply ended (`None`).
type Ending = Option<Error>;

impl EventStream {
    pub(crate) fn new(body: ByteStream, status: u16, headers: HeaderMap, timeouts: Timeouts) -> Self {
        EventStream {
            body,
            parser: SseParser::new(),
            ready: VecDeque::new(),
            finished: false,
            last_event_id: None,
            last_event_data: String::new(),
            status,
            headers,
            timeouts,
            idle: None,
            resume: None,
            may_end: false,
        }
    }

    /// The same stream, resumed by `resumer` when its connection drops.
    pub(crate) fn resumed_by(mut self, resumer: Box<Resumer>) -> Self {
        self.resume = Some(resumer);
        self
    }

    /// Whether this stream resumes by itself when its connection drops (a run sent with
    /// `onDisconnect: continue`, or a `stream_run_events` stream).
    pub fn is_resumable(&self) -> bool {
        self.resume.is_some()
    }

    /// The stream idle timeout of this stream.
    pub fn idle_timeout(&self) -> Duration {
        self.timeouts.stream_idle
    }

    /// The HTTP status of the answer that opened the stream (200; a resumed stream keeps it).
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The headers of the answer that opened the stream (a resumed stream keeps them).
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The `data` of the last event read, as sent.
    pub fn last_event_data(&self) -> &str {
        &self.last_event_data
    }

    /// The next event; `None` after the last one.
    pub async fn next(&mut self) -> Option<Result<Event, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// The SSE id of the last event read: what `stream_run_events` takes to rejoin after it.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// Reads the stream to its end and returns the event that ended the run:
    /// [`Event::RunCompleted`] or [`Event::RunRequiresAction`]. A `run.failed` event is
    /// returned as its [`Error::Problem`].
    pub async fn final_event(mut self) -> Result<Event, Error> {
        let mut last = None;
        while let Some(event) = self.next().await {
            match event? {
                event @ (Event::RunCompleted(_) | Event::RunRequiresAction(_)) => last = Some(event),
                Event::RunFailed(failed) => {
                    return Err(Error::Problem(Box::new(Problem::from_document(&failed.problem))))
                }
                _ => {}
            }
        }
        last.ok_or_else(|| Error::Protocol("the stream ended without a final event".into()))
    }
}

impl Stream for EventStream {
    type Item = Result<Event, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(resume) = this.resume.as_deref_mut().filter(|resume| resume.reconnecting()) {
                match resume.poll_reconnect(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(body)) => {
                        (this.body, this.parser, this.idle) = (body, SseParser::new(), None);
                        continue;
                    }
                    Poll::Ready(Err(error)) => {
                        this.finished = true;
                        return Poll::Ready(Some(Err(error)));
                    }
                }
            }
            if let Some(message) = this.ready.pop_front() {
                let id = message.id.as_deref().and_then(|id| id.parse::<u64>().ok());
                if this.resume.as_ref().is_some_and(|resume| resume.seen(id)) {
                    continue; // replayed by a rejoin: delivered already
                }
                if message.id.is_some() {
                    this.last_event_id.clone_from(&message.id);
                }
                let event = Event::parse(&message.event, &message.data);
                this.last_event_data = message.data;
                this.may_end = matches!(
                    event,
                    Ok(Event::RunCompleted(_) | Event::RunRequiresAction(_) | Event::RunFailed(_) | Event::Unknown(_))
                );
                if let Some(resume) = this.resume.as_deref_mut() {
                    if resume.delivered(id, event.as_ref().ok()) {
                        // The run's last event: nothing follows it, and nothing is left to resume.
                        this.finished = true;
                        this.ready.clear();
                    }
                }
                return Poll::Ready(Some(event));
            }
            if this.finished {
                return Poll::Ready(None);
            }
            let ending: Ending = match this.body.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(bytes))) => {
                    // Any bytes, keep-alive comments included, end a silence.
                    let limit = this.timeouts.stream_idle;
                    if let Some(idle) = this.idle.as_mut() {
                        idle.as_mut().reset(tokio::time::Instant::now() + limit);
                    }
                    this.ready.extend(this.parser.feed(&bytes));
                    continue;
                }
                Poll::Ready(Some(Err(error))) => Some(Error::transport(error, &this.timeouts)),
                Poll::Ready(None) => None,
                Poll::Pending => {
                    let limit = this.timeouts.stream_idle;
                    let idle = this.idle.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                    if idle.as_mut().poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    Some(Error::Timeout(TimeoutError::new(TimeoutKind::StreamIdle, Some(limit), None)))
                }
            };
            // A resumed stream's connection ended before the run's last event (after it, `finished`
            // is set). One that is not resumed fails with its error, and a clean end is whole only
            // after the run's last event (or an event type newer than this client).
            let outcome = match this.resume.as_deref_mut() {
                Some(resume) => resume.dropped(ending),
                None => match ending {
                    Some(error) => Err(error),
                    None if this.may_end => Ok(()),
                    None => Err(Error::Connection(ConnectionError::stream_ended_early())),
                },
            };
            match outcome {
                Ok(()) if this.resume.is_some() => {} // reconnecting
                Ok(()) => this.finished = true,
                Err(error) => {
                    this.finished = true;
                    return Poll::Ready(Some(Err(error)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream_of(chunks: &[&'static str]) -> EventStream {
        struct Chunks(VecDeque<&'static str>);
        impl Stream for Chunks {
            type Item = reqwest::Result<bytes::Bytes>;
            fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
                Poll::Ready(self.get_mut().0.pop_front().map(|chunk| Ok(bytes::Bytes::from_static(chunk.as_bytes()))))
            }
        }
        let body = ByteStream::new(Box::pin(Chunks(chunks.iter().copied().collect())));
        EventStream::new(body, 200, HeaderMap::new(), Timeouts::default())
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        // The test streams never return Pending, so one poll with a no-op waker finishes them.
        let mut future = std::pin::pin!(future);
        match future.as_mut().poll(&mut Context::from_waker(std::task::Waker::noop())) {
            Poll::Ready(output) => output,
            Poll::Pending => panic!("the test future is pending"),
        }
    }

    const RESULT: &str = r#"{"id":"run_1","status":"completed","output":{"text":"echo: hi"},"usage":{"inputTokens":1,"outputTokens":2,"cachedInputTokens":0,"cacheWriteTokens":0,"reasoningTokens":0},"cost":null,"retries":{"count":0,"inputTokens":0,"outputTokens":0,"cost":null},"servedModel":"echo-1"}"#;

    #[test]
    fn types_events_and_keeps_unknown_ones() {
        let completed =
            format!("id: 4\nevent: run.completed\ndata: {{\"type\":\"run.completed\",\"run\":{RESULT}}}\n\n");
        let completed: &'static str = Box::leak(completed.into_boxed_str());
        let mut stream = stream_of(&[
            "id: 1\nevent: run.started\ndata: {\"type\":\"run.started\",\"runId\":\"run_1\"}\n\n: keep-alive\n\n",
            "id: 2\nevent: output.delta\ndata: {\"type\":\"output.delta\",\"runId\":\"run_1\",\"te",
            "xt\":\"echo: \"}\n\nid: 3\nevent: run.progress\ndata: {\"type\":\"run.progress\",\"percent\":50}\n\n",
            completed,
        ]);
        let events: Vec<Event> = block_on(async {
            let mut events = Vec::new();
            while let Some(event) = stream.next().await {
                events.push(event.unwrap());
            }
            events
        });
        let types: Vec<&str> = events.iter().map(Event::event_type).collect();
        assert_eq!(types, ["run.started", "output.delta", "run.progress", "run.completed"]);
        assert!(matches!(&events[1], Event::OutputDelta(delta) if delta.text == "echo: "));
        assert_eq!(
            events[2],
            Event::Unknown(UnknownEvent {
                event_type: "run.progress".into(),
                data: serde_json::json!({"type": "run.progress", "percent": 50})
            })
        );
        assert_eq!(stream.last_event_id(), Some("4"));
    }

    #[test]
    fn final_event_returns_run_failed_as_its_problem() {
        let stream = stream_of(&[
            "data: {\"type\":\"run.failed\",\"runId\":\"r\",\"problem\":{\"type\":\"t\",\"title\":\"t\",\"status\":502,\"code\":\"PROVIDER_ERROR\",\"detail\":\"d\"}}\n\n",
        ]);
        let error = block_on(stream.final_event()).unwrap_err();
        assert_eq!(error.kind(), Some(&crate::ProblemKind::ProviderError));
        assert_eq!(error.status(), Some(502));
    }

    #[test]
    fn a_run_failed_event_with_a_later_code_keeps_the_code() {
        // Problem.code is open in the spec, so the generated type holds a code this client does not know.
        let stream = stream_of(&[
            "data: {\"type\":\"run.failed\",\"runId\":\"r\",\"problem\":{\"type\":\"t\",\"title\":\"t\",\"status\":503,\"code\":\"PROVIDER_ON_FIRE\",\"detail\":\"d\"}}\n\n",
        ]);
        let error = block_on(stream.final_event()).unwrap_err();
        assert_eq!(error.kind(), Some(&crate::ProblemKind::Unknown("PROVIDER_ON_FIRE".into())));
        assert_eq!(error.status(), Some(503));
    }

    /// Reads a stream that is not resumed to its end: its event types, and the error that ended it.
    fn drain(mut stream: EventStream) -> (Vec<String>, Option<Error>) {
        block_on(async {
            let mut types = Vec::new();
            while let Some(event) = stream.next().await {
                match event {
                    Ok(event) => types.push(event.event_type().to_string()),
                    Err(error) => return (types, Some(error)),
                }
            }
            (types, None)
        })
    }

    #[test]
    fn a_body_that_ends_before_the_runs_last_event_is_a_connection_error() {
        let started = "id: 1\nevent: run.started\ndata: {\"type\":\"run.started\",\"runId\":\"run_1\"}\n\n";
        let delta =
            "id: 2\nevent: output.delta\ndata: {\"type\":\"output.delta\",\"runId\":\"run_1\",\"text\":\"a\"}\n\n";
        for chunks in [&[][..], &[started][..], &[started, delta][..]] {
            let (types, error) = drain(stream_of(chunks));
            assert_eq!(types.len(), chunks.len());
            let error = error.expect("a truncated answer is never a quiet end");
            assert!(error.is_connection() && !error.is_timeout(), "{error:?}");
            let Error::Connection(cut) = &error else { panic!("{error:?}") };
            assert!(cut.source_error().is_none());
            assert!(std::error::Error::source(&error).is_none());
            assert_eq!(error.to_string(), "connection failed: the event stream ended before the run's last event");
        }
        // A malformed event is not one that ends the run either.
        let mut stream = stream_of(&[started, "event: run.completed\ndata: {\"type\":\"run.completed\"}\n\n"]);
        let items: Vec<_> = block_on(async {
            let mut items = Vec::new();
            while let Some(item) = stream.next().await {
                items.push(item);
            }
            items
        });
        assert!(matches!(items.as_slice(), [Ok(_), Err(Error::Protocol(_)), Err(Error::Connection(_))]), "{items:?}");
    }

    #[test]
    fn a_body_that_ends_after_the_runs_last_event_or_a_newer_type_ends_quietly() {
        let started = "id: 1\nevent: run.started\ndata: {\"type\":\"run.started\",\"runId\":\"run_1\"}\n\n";
        let failed = "id: 2\nevent: run.failed\ndata: {\"type\":\"run.failed\",\"runId\":\"run_1\",\"problem\":{\"type\":\"t\",\"title\":\"t\",\"status\":502,\"code\":\"PROVIDER_ERROR\",\"detail\":\"d\"}}\n\n";
        let newer = "id: 2\nevent: run.handed_off\ndata: {\"type\":\"run.handed_off\"}\n\n";
        assert_eq!(drain(stream_of(&[started, failed])).1.map(|error| error.to_string()), None);
        let (types, error) = drain(stream_of(&[started, newer]));
        assert!(error.is_none(), "{error:?}");
        assert_eq!(types, ["run.started", "run.handed_off"]);
        // An event after the newer type that does not end the run: truncated again.
        let (_, error) = drain(stream_of(&[newer, started]));
        assert!(matches!(error, Some(Error::Connection(_))), "{error:?}");
    }

    #[test]
    fn data_that_is_not_json_is_a_protocol_error() {
        let mut stream = stream_of(&["event: output.delta\ndata: not json\n\n"]);
        assert!(matches!(block_on(stream.next()), Some(Err(Error::Protocol(_)))));
    }

    #[test]
    fn a_known_type_with_a_wrong_shape_is_a_protocol_error() {
        assert!(matches!(Event::parse("output.delta", r#"{"type":"output.delta"}"#), Err(Error::Protocol(_))));
    }
}
