//! An incremental Server-Sent Events parser (the WHATWG "event stream interpretation").
//!
//! <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>

/// One dispatched event. `event` defaults to `message`, as the standard says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSentEvent {
    pub event: String,
    pub data: String,
    pub id: Option<String>,
    pub retry: Option<u64>,
}

/// Feed it bytes as they arrive; it returns the events completed so far.
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
    data: Vec<String>,
    event: String,
    last_id: Option<String>,
    retry: Option<u64>,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds bytes; returns every event they complete. Lines end in CRLF, LF or CR, also when
    /// split across calls (a UTF-8 character split across calls is joined before decoding).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<ServerSentEvent> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut start = 0;
        let mut index = 0;
        while index < self.pending.len() {
            let byte = self.pending[index];
            if byte != b'\n' && byte != b'\r' {
                index += 1;
                continue;
            }
            // A CR at the very end may be the first half of a CRLF: wait for more bytes.
            if byte == b'\r' && index + 1 == self.pending.len() {
                break;
            }
            let line = String::from_utf8_lossy(&self.pending[start..index]).into_owned();
            if byte == b'\r' && self.pending[index + 1] == b'\n' {
                index += 1;
            }
            index += 1;
            start = index;
            if let Some(event) = self.line(&line) {
                events.push(event);
            }
        }
        self.pending.drain(..start);
        events
    }

    fn line(&mut self, line: &str) -> Option<ServerSentEvent> {
        if line.is_empty() {
            let event = if self.data.is_empty() {
                None
            } else {
                Some(ServerSentEvent {
                    event: if self.event.is_empty() { "message".to_string() } else { self.event.clone() },
                    data: self.data.join("\n"),
                    id: self.last_id.clone(),
                    retry: self.retry,
                })
            };
            self.data.clear();
            self.event.clear();
            return event;
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.find(':') {
            Some(colon) => (&line[..colon], &line[colon + 1..]),
            None => (line, ""),
        };
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "data" => self.data.push(value.to_string()),
            "event" => self.event = value.to_string(),
            "id" if !value.contains('\0') => self.last_id = Some(value.to_string()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok();
            }
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&[u8]]) -> Vec<ServerSentEvent> {
        let mut parser = SseParser::new();
        chunks.iter().flat_map(|chunk| parser.feed(chunk)).collect()
    }

    fn event(event: &str, data: &str, id: Option<&str>) -> ServerSentEvent {
        ServerSentEvent { event: event.into(), data: data.into(), id: id.map(Into::into), retry: None }
    }

    #[test]
    fn reads_id_event_and_data() {
        assert_eq!(
            parse(&[b"id: 1\nevent: run.started\ndata: {\"a\":1}\n\n"]),
            vec![event("run.started", "{\"a\":1}", Some("1"))]
        );
    }

    #[test]
    fn joins_data_lines_and_defaults_the_event_name() {
        assert_eq!(parse(&[b"data: one\ndata:two\n\n"]), vec![event("message", "one\ntwo", None)]);
    }

    #[test]
    fn skips_comments_and_events_without_data() {
        assert_eq!(parse(&[b": keep-alive\n\nevent: x\n\ndata: d\n\n"]), vec![event("message", "d", None)]);
    }

    #[test]
    fn handles_crlf_cr_and_splits_across_chunks() {
        let events = parse(&[b"id: 7\r", b"\nevent: a\rda", b"ta: x\r\n\r", b"\n", b"data: y\n", b"\n"]);
        assert_eq!(events, vec![event("a", "x", Some("7")), event("message", "y", Some("7"))]);
    }

    #[test]
    fn joins_a_utf8_character_split_across_chunks() {
        let bytes = "data: héllo ✓\n\n".as_bytes();
        let chunks: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(parse(&chunks), vec![event("message", "héllo ✓", None)]);
    }

    #[test]
    fn keeps_an_unterminated_event_pending() {
        assert_eq!(parse(&[b"data: complete\n\ndata: cut off"]), vec![event("message", "complete", None)]);
    }

    #[test]
    fn reads_retry_and_strips_one_space() {
        let events = parse(&[b"retry: 1500\ndata:  two spaces\n\n"]);
        assert_eq!(events[0].retry, Some(1500));
        assert_eq!(events[0].data, " two spaces");
    }
}
