package agenticdriver

// The defaults of ../BEHAVIOUR.md, read off the built client (white box), and the backoff's range.

import (
	"net/http"
	"testing"
	"time"
)

func TestNewHasTheDefaultsOfTheBehaviour(t *testing.T) {
	t.Setenv("AGENTIC_DRIVER_LOG", "")
	client, err := New(WithBaseURL("http://127.0.0.1:1"))
	if err != nil {
		t.Fatal(err)
	}
	tr := client.transport
	if tr.maxRetries != 2 || tr.timeouts != (Timeouts{Connect: 5 * time.Second, Read: 600 * time.Second, StreamIdle: 60 * time.Second}) {
		t.Fatalf("retries %d, timeouts %+v", tr.maxRetries, tr.timeouts)
	}
	if tr.client == http.DefaultClient || tr.client.Timeout != 0 || tr.logger != nil {
		t.Fatalf("the client's own *http.Client (no whole-call timeout, which would cut streams), no logger")
	}
	if transport, ok := tr.client.Transport.(*http.Transport); !ok || transport.DialContext == nil || transport.TLSHandshakeTimeout != 5*time.Second {
		t.Fatalf("%#v", tr.client.Transport)
	}
}

func TestWithTimeoutsKeepsTheDefaultOfAZeroField(t *testing.T) {
	client, err := New(WithTimeouts(Timeouts{Read: time.Second, StreamIdle: -1}))
	if err != nil {
		t.Fatal(err)
	}
	if got := client.transport.timeouts; got != (Timeouts{Connect: 5 * time.Second, Read: time.Second, StreamIdle: 0}) {
		t.Fatalf("%+v", got)
	}
}

func TestBackoffIsExponentialWithJitterAndCapped(t *testing.T) {
	for n, base := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
		lowest, highest := base, time.Duration(0)
		for range 500 {
			wait := backoff(n)
			lowest, highest = min(lowest, wait), max(highest, wait)
		}
		if lowest < base*3/4 || highest > base || highest-lowest < base/8 {
			t.Errorf("retry %d: waits %s-%s, want within %s-%s and spread", n, lowest, highest, base*3/4, base)
		}
	}
}

func TestRetryAfterForms(t *testing.T) {
	for value, want := range map[string]time.Duration{"0": 0, "3": 3 * time.Second, " 61 ": 61 * time.Second} {
		if got, ok := retryAfter(http.Header{"Retry-After": {value}}, nil); !ok || got != want {
			t.Errorf("%q: %s, %v", value, got, ok)
		}
	}
	date := time.Now().Add(10 * time.Second).UTC().Format(http.TimeFormat)
	if got, ok := retryAfter(http.Header{"Retry-After": {date}}, nil); !ok || got < 8*time.Second || got > 10*time.Second {
		t.Errorf("a date: %s", got)
	}
	if _, ok := retryAfter(http.Header{"Retry-After": {"soon"}}, nil); ok {
		t.Error("garbage is no Retry-After")
	}
	body := &ProblemError{RetryAfterSeconds: NewOptInt(2)}
	if got, ok := retryAfter(http.Header{}, body); !ok || got != 2*time.Second {
		t.Errorf("the body's retryAfterSeconds: %s", got)
	}
}
