package agenticdriver

// The busy helper (hand-written): ../BEHAVIOUR.md, "The busy helper".

import (
	"context"
	"errors"
	"time"
)

// DefaultWaitBound is how long WaitUntilIdle waits by default.
const DefaultWaitBound = 30 * time.Second

const (
	firstIdleWait = 100 * time.Millisecond
	maxIdleWait   = time.Second
)

// WaitOption adjusts WaitUntilIdle.
type WaitOption func(*waitOptions)

type waitOptions struct {
	first time.Duration
	bound time.Duration
}

// WithBusyError starts the wait with the Retry-After of the SESSION_BUSY error that prompted
// it (instead of 0.1 s). Any other error is ignored.
func WithBusyError(err error) WaitOption {
	return func(o *waitOptions) {
		var busy *SessionBusyError
		if errors.As(err, &busy) {
			if wait, ok := busy.RetryAfter(); ok {
				o.first = wait
			}
		}
	}
}

// WithWaitBound bounds the whole wait (default 30 s).
func WithWaitBound(bound time.Duration) WaitOption {
	return func(o *waitOptions) { o.bound = bound }
}

// WaitUntilIdle waits until the session is no longer running (ready or interrupted) and
// returns that read: its SessionInfo with the current revision, history and turns, so the
// caller decides what to send next. Use it on SESSION_BUSY instead of resending the same
// handle (which, once the busy turn completes, meets a certain SESSION_REVISION_CONFLICT):
//
//	if errors.Is(err, agenticdriver.ErrSessionBusy) {
//		read, err := client.WaitUntilIdle(ctx, session.ID, agenticdriver.WithBusyError(err))
//		...
//	}
//
// It waits first (the busy error's Retry-After, else 0.1 s), reads, then doubles the interval
// up to 1 s. Past the bound it returns a *TimeoutError (Phase TimeoutWaitIdle); ctx ends it
// early with ctx.Err().
func (c *HostClient) WaitUntilIdle(ctx context.Context, sessionID string, opts ...WaitOption) (*ReadSessionResponse, error) {
	o := waitOptions{first: firstIdleWait, bound: DefaultWaitBound}
	for _, opt := range opts {
		opt(&o)
	}
	deadline := time.Now().Add(o.bound)
	wait := o.first
	for {
		if err := sleep(ctx, min(wait, time.Until(deadline))); err != nil {
			return nil, err
		}
		read, err := c.ReadSession(ctx, sessionID)
		if err != nil {
			return nil, err
		}
		if read.Session.Status != SessionStatusRunning {
			return read, nil
		}
		if !time.Now().Before(deadline) {
			return nil, &TimeoutError{Phase: TimeoutWaitIdle, Limit: o.bound,
				ConnectionError: ConnectionError{Method: "GET", Path: sessionID, Phase: PhaseResponse}}
		}
		wait = nextIdleWait(wait)
	}
}

// nextIdleWait is the wait after prev (../BEHAVIOUR.md, the busy helper): twice prev, taking a wait
// under 0.1 s as 0.1 s, at most 1 s.
func nextIdleWait(prev time.Duration) time.Duration {
	return min(max(prev, firstIdleWait)*2, maxIdleWait)
}
