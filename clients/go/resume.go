package agenticdriver

// Resuming a stream (hand-written; ../BEHAVIOUR.md, "Resuming a stream"): an EventStream of a
// run sent with onDisconnect continue, or of StreamRunEvents, that ends before the run's last
// event rejoins the run by the id of the last event it delivered.

import (
	"context"
	"net/http"
	"strconv"
)

// resumer reopens one EventStream. Its requests are single attempts: it decides their retries
// itself, with the transport's rules and within the client's retry budget, so that one budget
// bounds a run of failed rejoins (and a rejoin that delivers a new event gives it back).
type resumer struct {
	client *HostClient
	ctx    context.Context // the call's: it bounds the whole stream
	state  callState       // the call's editors and its followed 421, for every rejoin
	runID  string          // the run named by the call's path ("" for StreamRun, until an event names it)
	// resend sends the call's own request again (same body, same Idempotency-Key): a drop before
	// the stream's first event, when no event id is known to rejoin from. nil for StreamRunEvents.
	resend   func(context.Context) (*http.Response, error)
	failures int  // failed rejoins since the last new event
	fresh    bool // the body being read is a rejoin's that has delivered no new event yet
}

func (c *HostClient) resumer(ctx context.Context, o *callOptions, runID string,
	resend func(context.Context) (*http.Response, error)) *resumer {
	state := o.state
	state.response = nil // WithResponse keeps the answer that opened the stream
	state.once = true
	return &resumer{client: c, ctx: ctx, state: state, runID: runID, resend: resend}
}

// delivered: a new event reached the application, so the retry budget is whole again.
func (r *resumer) delivered() {
	r.failures, r.fresh = 0, false
}

// reconnect replaces the stream's body, which ended early with failure, by a rejoin's; it
// returns the error to end the stream with when it cannot.
func (r *resumer) reconnect(s *EventStream, failure error) error {
	if err := r.ctx.Err(); err != nil {
		return err // the caller's cancellation or deadline: not ours to resume
	}
	if s.isClosed() {
		return failure // the caller closed the stream
	}
	s.dropBody()
	retries := r.client.transport.maxRetries
	if r.fresh { // a rejoin that brought nothing new failed like any other
		r.failures++
		if r.failures > retries {
			return failure
		}
		if err := sleep(r.ctx, backoff(r.failures-1)); err != nil {
			return err
		}
	}
	for {
		response, err := r.open(s)
		if err == nil {
			if !s.swap(response) {
				return failure
			}
			r.fresh = true
			return nil
		}
		if ctxErr := r.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		retry, wait := r.client.transport.decide(http.MethodGet, err, r.failures)
		r.failures++
		if !retry || r.failures > retries {
			return err
		}
		if err := sleep(r.ctx, wait); err != nil {
			return err
		}
		if s.isClosed() {
			return failure
		}
	}
}

// open sends one rejoin: streamRunEvents after the last event delivered, or, before any event
// and when the call can, its own request again.
func (r *resumer) open(s *EventStream) (*http.Response, error) {
	state := r.state
	ctx := withCallState(r.ctx, &state)
	runID := s.runID
	if runID == "" {
		runID = r.runID
	}
	if r.resend != nil && (runID == "" || s.last == 0) {
		return r.resend(ctx)
	}
	params := StreamRunEventsParams{RunID: runID}
	if s.last > 0 {
		params.LastEventID = NewOptString(strconv.FormatInt(s.last, 10))
	}
	var captured *http.Response
	_, err := r.client.raw.StreamRunEvents(ctx, params, capture(&captured))
	return opened(captured, err)
}
