package agenticdriver

// Streamed runs as typed events (hand-written).

import (
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"strconv"
	"sync"

	"github.com/ogen-go/ogen/sse"
)

// Event is one event of a streamed run: *RunStartedEvent, *OutputDeltaEvent,
// *RunRequiresActionEvent, *RunCompletedEvent, *RunFailedEvent (the generated types), or
// *UnknownEvent for a type this client does not know. Use a type switch.
type Event interface {
	// EventType is the event's type, for example "output.delta".
	EventType() string
}

func (e *RunStartedEvent) EventType() string        { return e.Type }
func (e *OutputDeltaEvent) EventType() string       { return e.Type }
func (e *RunRequiresActionEvent) EventType() string { return e.Type }
func (e *RunCompletedEvent) EventType() string      { return e.Type }
func (e *RunFailedEvent) EventType() string         { return e.Type }

// UnknownEvent is an event type newer than this client, kept whole.
type UnknownEvent struct {
	Type string
	Data json.RawMessage
}

func (e *UnknownEvent) EventType() string { return e.Type }

// runEventTypes maps each RunEvent discriminator (RunEventType, generated) to its variant.
var runEventTypes = map[RunEventType]func(*RunEvent) Event{
	RunStartedEventRunEvent:        func(e *RunEvent) Event { return &e.RunStartedEvent },
	OutputDeltaEventRunEvent:       func(e *RunEvent) Event { return &e.OutputDeltaEvent },
	RunRequiresActionEventRunEvent: func(e *RunEvent) Event { return &e.RunRequiresActionEvent },
	RunCompletedEventRunEvent:      func(e *RunEvent) Event { return &e.RunCompletedEvent },
	RunFailedEventRunEvent:         func(e *RunEvent) Event { return &e.RunFailedEvent },
}

// ParseEvent types one SSE data payload by its "type" (eventName, the SSE event field, is used
// only in errors and when the data has no type).
func ParseEvent(eventName string, data []byte) (Event, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, &StreamProtocolError{Event: eventName, Data: string(data), Err: err}
	}
	if head.Type == nil {
		return &UnknownEvent{Type: eventName, Data: append(json.RawMessage(nil), data...)}, nil
	}
	variant, known := runEventTypes[RunEventType(*head.Type)]
	if !known {
		return &UnknownEvent{Type: *head.Type, Data: append(json.RawMessage(nil), data...)}, nil
	}
	var event RunEvent
	if err := event.UnmarshalJSON(data); err != nil {
		return nil, &StreamProtocolError{Event: eventName, Data: string(data), Err: err}
	}
	return variant(&event), nil
}

// EventStream is the events of one streamed run. Read it with Next or range over All; Close
// it when done. Closing before the run's last event is a disconnect: the host interrupts a
// session turn whose model work had started, unless the run was sent with OnDisconnect
// continue.
//
// Resuming. The stream of a run sent with OnDisconnect continue (StreamRun, StreamRunActions),
// and every StreamRunEvents stream, resumes by itself when it ends before the run's last event
// (run.completed, run.requires_action or run.failed): after a connection failure, a stream-idle
// timeout, or a body that simply ends, the client rejoins the run with StreamRunEvents from the
// id of the last event it delivered (with the run's Agentic-Host), and goes on delivering from
// there, skipping any event it already delivered: Next and All see every event once, in order.
// A drop before the first event (no run id yet) sends the same request again with the same
// Idempotency-Key instead: the host joins the run it started, or replays it. A rejoin that fails
// is retried within the client's retry budget (WithMaxRetries), waiting as the retries do; one
// that delivers a new event gives the budget back. Once it is spent, the last failure is
// returned. RUN_EVENTS_EXPIRED is a *RunEventsExpiredError: read the outcome with GetRun. Any
// other stream is never resumed: its failure is returned (read the session to reconcile).
type EventStream struct {
	response *http.Response // the answer that opened the stream
	decoder  *sse.Decoder

	mu     sync.Mutex
	body   io.ReadCloser // the body being read: the first answer's, or after a resume a rejoin's
	source *http.Request // the request of that body
	closed bool

	resume *resumer // nil: never resumed
	last   int64    // the id of the last event delivered (for StreamRunEvents, at first, the caller's)
	runID  string   // the run the events are of, once an event named it
	ended  bool     // the last event delivered ended or paused the run
	// lastUnknown: the last event delivered was of a type newer than this client (it may have ended the run).
	lastUnknown bool

	// LastEventID is the SSE id of the last event read (send it back as StreamRunEvents' lastEventID).
	LastEventID string
	// LastEventData is the data of the last event read, as sent.
	LastEventData json.RawMessage
}

func newEventStream(response *http.Response) *EventStream {
	return &EventStream{response: response, body: response.Body, source: response.Request,
		decoder: sse.NewDecoder(response.Body, 0, 0, "", nil)}
}

// Response is the HTTP response that opened the stream (status 200, text/event-stream).
func (s *EventStream) Response() *http.Response { return s.response }

// Next returns the next event, or io.EOF after the last one.
func (s *EventStream) Next() (Event, error) {
	for {
		raw, err := s.decoder.Decode()
		if err == nil {
			if event, fresh, err := s.deliver(raw); fresh {
				return event, err
			}
			continue // an event delivered before the stream was resumed
		}
		if s.resume == nil {
			s.Close()
			if errors.Is(err, io.EOF) && (s.ended || s.lastUnknown) {
				return nil, io.EOF // a whole stream (or one that ended after an event type newer than us)
			}
			return nil, s.failure(err) // ended before the run's last event: a truncated answer
		}
		if s.ended { // the run's last event is delivered: whatever follows is no loss
			s.Close()
			return nil, io.EOF
		}
		if err := s.resume.reconnect(s, s.failure(err)); err != nil {
			s.Close()
			return nil, err
		}
	}
}

// deliver reads one decoded message into LastEventID, LastEventData and its Event; fresh is
// false for an event of a resumed stream that was already delivered.
func (s *EventStream) deliver(raw sse.Event) (event Event, fresh bool, err error) {
	id, numbered := eventNumber(raw.ID)
	if s.resume != nil && numbered && id <= s.last {
		return nil, false, nil
	}
	if numbered {
		s.last = id
	}
	s.LastEventID = raw.ID
	s.LastEventData = json.RawMessage(raw.Data)
	if s.resume != nil {
		s.resume.delivered()
	}
	event, err = ParseEvent(raw.Type, s.LastEventData)
	s.ended = false
	_, s.lastUnknown = event.(*UnknownEvent)
	switch event := event.(type) {
	case *RunStartedEvent:
		s.named(event.RunID)
	case *OutputDeltaEvent:
		s.named(event.RunID)
	case *RunFailedEvent:
		s.named(event.RunID)
		s.ended = true
	case *RunCompletedEvent:
		s.named(event.Run.ID)
		s.ended = true
	case *RunRequiresActionEvent:
		s.named(event.Run.ID)
		s.ended = true
	}
	return event, true, err
}

func (s *EventStream) named(runID string) {
	if s.runID == "" {
		s.runID = runID
	}
}

// failure is the error a stream that ended early stands for: a read failure as this client's
// error, a clean end before the run's last event as a connection error.
func (s *EventStream) failure(err error) error {
	if !errors.Is(err, io.EOF) {
		return answerError(err)
	}
	failure := &ConnectionError{Phase: PhaseStream, Err: io.ErrUnexpectedEOF}
	if s.source != nil {
		failure.Method, failure.Path = s.source.Method, s.source.URL.EscapedPath()
	}
	return failure
}

// eventNumber reads an SSE id as the run's event number (a positive decimal integer).
func eventNumber(id string) (int64, bool) {
	number, err := strconv.ParseInt(id, 10, 64)
	return number, err == nil && number > 0
}

// All yields every event, then stops; an error is yielded once, last. Leaving the loop early
// closes the stream.
func (s *EventStream) All() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		defer s.Close()
		for {
			event, err := s.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(event, err) || err != nil {
				return
			}
		}
	}
}

// Final reads the stream to its end and returns the event that ended the run: a
// *RunCompletedEvent or *RunRequiresActionEvent. A run.failed event is returned as its
// *ProblemError.
func (s *EventStream) Final() (Event, error) {
	var last Event
	for event, err := range s.All() {
		if err != nil {
			return nil, err
		}
		switch event := event.(type) {
		case *RunCompletedEvent, *RunRequiresActionEvent:
			last = event
		case *RunFailedEvent:
			return nil, FromProblem(event.Problem)
		}
	}
	if last == nil {
		return nil, &StreamProtocolError{Err: errors.New("the stream ended without a final event")}
	}
	return last, nil
}

// Close closes the connection (idempotent; safe while another goroutine is in Next, which then
// returns). It stops any resume.
func (s *EventStream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.body.Close()
}

func (s *EventStream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// dropBody closes the body that ended early (the stream goes on with a rejoin's).
func (s *EventStream) dropBody() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.body.Close()
}

// swap goes on reading a rejoin's answer; false (the answer closed) when the stream was closed meanwhile.
func (s *EventStream) swap(response *http.Response) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = response.Body.Close()
		return false
	}
	s.body, s.source = response.Body, response.Request
	s.decoder = sse.NewDecoder(response.Body, 0, 0, "", nil)
	return true
}
