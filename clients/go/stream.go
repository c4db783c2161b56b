package agenticdriver

// Streamed runs as typed events (hand-written).

import (
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
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
// session turn whose model work had started.
type EventStream struct {
	response *http.Response
	decoder  *sse.Decoder
	once     sync.Once
	// LastEventID is the SSE id of the last event read.
	LastEventID string
	// LastEventData is the data of the last event read, as sent.
	LastEventData json.RawMessage
}

func newEventStream(response *http.Response) *EventStream {
	return &EventStream{response: response, decoder: sse.NewDecoder(response.Body, 0, 0, "", nil)}
}

// Response is the HTTP response (status 200, text/event-stream).
func (s *EventStream) Response() *http.Response { return s.response }

// Next returns the next event, or io.EOF after the last one.
func (s *EventStream) Next() (Event, error) {
	raw, err := s.decoder.Decode()
	if err != nil {
		if errors.Is(err, io.EOF) {
			s.Close()
			return nil, io.EOF
		}
		return nil, answerError(err)
	}
	s.LastEventID = raw.ID
	s.LastEventData = json.RawMessage(raw.Data)
	return ParseEvent(raw.Type, s.LastEventData)
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

// Close closes the connection (idempotent).
func (s *EventStream) Close() error {
	var err error
	s.once.Do(func() { err = s.response.Body.Close() })
	return err
}
