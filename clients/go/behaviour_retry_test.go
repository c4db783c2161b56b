package agenticdriver_test

// ../BEHAVIOUR.md, retries: which answers are retried, Retry-After, the cap, maxRetries and
// cancellation of the wait (the scripted host: behaviour_test.go).

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func TestRetryAfterIsWaitedOutExactly(t *testing.T) {
	host := scriptedHost(t, problem(503, "HOST_BUSY", map[string]string{"Retry-After": "1"}, ""), ok)
	if _, err := host.client(t).Run(ctx(t), echoRequest()); err != nil {
		t.Fatal(err)
	}
	got := host.requests()
	if len(got) != 2 {
		t.Fatalf("%d attempts", len(got))
	}
	if gap := got[1].at.Sub(got[0].at); gap < time.Second || gap > 2500*time.Millisecond {
		t.Fatalf("waited %s for Retry-After: 1", gap)
	}
}

func TestRetriedAnswers(t *testing.T) {
	now := map[string]string{"Retry-After": "0"}
	for name, answer := range map[string]http.HandlerFunc{
		"HOST_BUSY":              problem(429, "HOST_BUSY", now, ""),
		"SESSION_STORE_FULL":     problem(503, "SESSION_STORE_FULL", now, ""),
		"SHUTTING_DOWN":          problem(503, "SHUTTING_DOWN", now, ""),
		"IDEMPOTENCY_KEY_IN_USE": problem(409, "IDEMPOTENCY_KEY_IN_USE", now, ""),
		"a proxy's 502": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "0")
			writeJSON(w, 502, "text/html", "<html>bad gateway</html>")
		},
		"a proxy's 504 JSON without a code": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "0")
			writeJSON(w, 504, "application/json", `{"message":"upstream timed out"}`)
		},
	} {
		t.Run(name, func(t *testing.T) {
			host := scriptedHost(t, answer)
			_, err := host.client(t).Run(ctx(t), echoRequest())
			var api agenticdriver.APIError
			if !errors.As(err, &api) {
				t.Fatalf("%v", err)
			}
			got := host.requests()
			if len(got) != 3 { // the default: 2 retries
				t.Fatalf("%d attempts", len(got))
			}
			for _, request := range got[1:] {
				if request.header.Get("Idempotency-Key") != got[0].header.Get("Idempotency-Key") {
					t.Fatal("a retry changed the key")
				}
			}
		})
	}
}

func TestAnswersThatAreNeverRetried(t *testing.T) {
	now := map[string]string{"Retry-After": "0"}
	for name, answer := range map[string]http.HandlerFunc{
		"SESSION_REVISION_CONFLICT":            problem(409, "SESSION_REVISION_CONFLICT", map[string]string{"x-should-retry": "false"}, `,"currentRevision":4`),
		"SESSION_BUSY":                         problem(409, "SESSION_BUSY", map[string]string{"Retry-After": "1"}, `,"activeRunId":"run_2"`),
		"SESSION_INTERRUPTED":                  problem(409, "SESSION_INTERRUPTED", nil, ""),
		"PROVIDER_OVERLOADED":                  problem(503, "PROVIDER_OVERLOADED", now, ""),
		"PROVIDER_RATE_LIMITED":                problem(429, "PROVIDER_RATE_LIMITED", now, ""),
		"PROVIDER_ERROR":                       problem(502, "PROVIDER_ERROR", nil, ""),
		"PROVIDER_TIMEOUT":                     problem(504, "PROVIDER_TIMEOUT", nil, ""),
		"INTERNAL_ERROR":                       problem(500, "INTERNAL_ERROR", nil, ""),
		"VALIDATION_ERROR":                     problem(422, "VALIDATION_ERROR", nil, ""),
		"HOST_BUSY with x-should-retry: false": problem(503, "HOST_BUSY", map[string]string{"Retry-After": "0", "x-should-retry": "false"}, ""),
		"a 500 page":                           func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 500, "text/plain", "oops") },
		"a code newer than the client":         problem(503, "TEAPOT_EMPTY", now, ""),
	} {
		t.Run(name, func(t *testing.T) {
			host := scriptedHost(t, answer)
			_, err := host.client(t).Run(ctx(t), echoRequest())
			var root agenticdriver.Error
			if !errors.As(err, &root) {
				t.Fatalf("%T %v", err, err)
			}
			if got := host.requests(); len(got) != 1 {
				t.Fatalf("%d attempts", len(got))
			}
		})
	}
}

func TestARetryAfterBeyondTheCapIsNotWaitedOut(t *testing.T) {
	host := scriptedHost(t, problem(503, "HOST_BUSY", map[string]string{"Retry-After": "61"}, ""))
	started := time.Now()
	_, err := host.client(t).Run(ctx(t), echoRequest())
	var busy *agenticdriver.ProblemError
	if !errors.As(err, &busy) || busy.Code != agenticdriver.ErrorCodeHOSTBUSY || time.Since(started) > time.Second {
		t.Fatalf("%v after %s", err, time.Since(started))
	}
	if wait, ok := busy.RetryAfter(); !ok || wait != 61*time.Second || len(host.requests()) != 1 {
		t.Fatalf("asked %s, %d attempts", wait, len(host.requests()))
	}
}

func TestRetryAfterAsAnHTTPDate(t *testing.T) {
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		problem(503, "SHUTTING_DOWN", map[string]string{"Retry-After": time.Now().Add(-time.Second).UTC().Format(http.TimeFormat)}, "")(w, r)
	}, ok)
	if _, err := host.client(t).Run(ctx(t), echoRequest()); err != nil || len(host.requests()) != 2 {
		t.Fatalf("%v, %d attempts", err, len(host.requests()))
	}
}

func TestMaxRetriesZeroTurnsRetriesOff(t *testing.T) {
	host := scriptedHost(t, problem(503, "HOST_BUSY", map[string]string{"Retry-After": "0"}, ""))
	if _, err := host.client(t, agenticdriver.WithMaxRetries(0)).Run(ctx(t), echoRequest()); !errors.Is(err, agenticdriver.ErrHostBusy) {
		t.Fatal(err)
	}
	if got := host.requests(); len(got) != 1 {
		t.Fatalf("%d attempts", len(got))
	}
}

func TestAWaitBetweenRetriesHonoursCancellation(t *testing.T) {
	host := scriptedHost(t, problem(503, "HOST_BUSY", map[string]string{"Retry-After": "30"}, ""))
	c, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	started := time.Now()
	_, err := host.client(t).Run(c, echoRequest())
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(started) > 2*time.Second || len(host.requests()) != 1 {
		t.Fatalf("%v after %s", err, time.Since(started))
	}
}
