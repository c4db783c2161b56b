package agenticdriver_test

// ../BEHAVIOUR.md against local fake hosts: retries, idempotency keys, timeouts, the error
// tree, headers, logging, raw responses and the busy helper.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

// seen is one request a scripted host received.
type seen struct {
	method, path string
	header       http.Header
	body         string
	at           time.Time
}

// scripted is a fake host that answers the n-th request with answers[n] (the last one repeats).
type scripted struct {
	server *httptest.Server
	mu     sync.Mutex
	got    []seen
}

func scriptedHost(t *testing.T, answers ...http.HandlerFunc) *scripted {
	t.Helper()
	s := &scripted{}
	s.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		index := min(len(s.got), len(answers)-1)
		s.got = append(s.got, seen{r.Method, r.URL.EscapedPath(), r.Header.Clone(), string(body), time.Now()})
		s.mu.Unlock()
		answers[index](w, r)
	}))
	t.Cleanup(s.server.Close)
	return s
}

func (s *scripted) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.got...)
}

func (s *scripted) client(t *testing.T, opts ...agenticdriver.HostOption) *agenticdriver.HostClient {
	t.Helper()
	all := append([]agenticdriver.HostOption{agenticdriver.WithBaseURL(s.server.URL), agenticdriver.WithToken("tok-secret-0123456789")}, opts...)
	client, err := agenticdriver.New(all...)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

func problem(status int, code string, headers map[string]string, fields string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for name, value := range headers {
			w.Header().Set(name, value)
		}
		writeJSON(w, status, "application/problem+json", `{"type":"urn:agentic-driver:problem:`+code+
			`","title":"t","status":`+strconv.Itoa(status)+`,"code":"`+code+`","detail":"d"`+fields+`}`)
	}
}

func ok(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("X-Request-Id", "req_ok")
	writeJSON(w, 200, "application/json", runResult)
}

// drop closes the connection without answering (an answer lost after the host got the request).
func drop(w http.ResponseWriter, _ *http.Request) {
	connection, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = connection.Close()
	}
}

func echoRequest() *agenticdriver.RunRequest {
	return &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: "hi"}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestRetryAfterALostAnswerReusesTheIdempotencyKey(t *testing.T) {
	host := scriptedHost(t, drop, ok)
	result, err := host.client(t).Run(ctx(t), echoRequest())
	if err != nil || result.Output.Text != "echo: hi" {
		t.Fatalf("%+v, %v", result, err)
	}
	got := host.requests()
	if len(got) != 2 {
		t.Fatalf("%d attempts", len(got))
	}
	key := got[0].header.Get("Idempotency-Key")
	if !uuidV4.MatchString(key) || got[1].header.Get("Idempotency-Key") != key || got[0].body != got[1].body {
		t.Fatalf("keys %q then %q", key, got[1].header.Get("Idempotency-Key"))
	}
	if gap := got[1].at.Sub(got[0].at); gap < 375*time.Millisecond || gap > 2*time.Second {
		t.Fatalf("backoff before the first retry: %s (want 0.375-0.5 s)", gap)
	}
}

func TestEveryCallGetsItsOwnKeyAndOnlyWhereTheOperationTakesOne(t *testing.T) {
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/truncate"), r.URL.Path == "/v1/sessions":
			writeJSON(w, 200, "application/json", `{"session":{"id":"ses_1","revision":0,"provider":"echo","model":"echo-1","mode":"history","status":"ready","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z","expiresAt":"2026-01-01T01:00:00Z","turnCount":0}}`)
		case strings.HasSuffix(r.URL.Path, "/cancel"):
			writeJSON(w, 200, "application/json", `{"id":"run_1","status":"cancelled"}`)
		default:
			ok(w, r)
		}
	})
	client := host.client(t)
	c := ctx(t)
	_, _ = client.Run(c, echoRequest())
	_, _ = client.Run(c, echoRequest())
	_, _ = client.Run(c, echoRequest(), agenticdriver.WithIdempotencyKey("mine-1"))
	_, _ = client.TruncateSession(c, "ses_1", &agenticdriver.TruncateSessionRequest{KeepTurns: 0})
	_, _ = client.CancelRun(c, "run_1")
	got := host.requests()
	if len(got) != 5 {
		t.Fatalf("%d requests", len(got))
	}
	first, second := got[0].header.Get("Idempotency-Key"), got[1].header.Get("Idempotency-Key")
	if !uuidV4.MatchString(first) || !uuidV4.MatchString(second) || first == second {
		t.Fatalf("keys %q, %q", first, second)
	}
	if got[2].header.Get("Idempotency-Key") != "mine-1" {
		t.Fatalf("the caller's key: %q", got[2].header.Get("Idempotency-Key"))
	}
	for _, request := range got[3:] {
		if _, sent := request.header["Idempotency-Key"]; sent {
			t.Fatalf("%s %s sent a key", request.method, request.path)
		}
	}
}

// A fork is retried as CreateSession is (a lost answer, SESSION_STORE_FULL) with one key for all
// its attempts, and carries its source's owner on each; another call has another key.
func TestAForkKeepsItsKeyAcrossRetriesAndIsRoutedByTheSessionID(t *testing.T) {
	forked := func(w http.ResponseWriter, _ *http.Request) {
		created := agenticdriver.CreateSessionResponse{Session: sessionInfo("ses_alpha-1.fork", agenticdriver.SessionStatusReady, 2)}
		data, err := created.MarshalJSON()
		if err != nil {
			panic(err)
		}
		writeJSON(w, 201, "application/json", string(data))
	}
	storeFull := problem(503, "SESSION_STORE_FULL", map[string]string{"Retry-After": "0"}, "")
	host := scriptedHost(t, drop, storeFull, forked)
	client := host.client(t)
	c := ctx(t)
	var response *http.Response
	answer, err := client.ForkSession(c, routedSession, &agenticdriver.ForkSessionRequest{Revision: agenticdriver.NewOptInt(2)},
		agenticdriver.WithResponse(&response))
	if err != nil || answer.Session.ID != "ses_alpha-1.fork" || answer.Session.Revision != 2 || response.StatusCode != 201 {
		t.Fatalf("%+v, %v", answer, err)
	}
	got := host.requests()
	if len(got) != 3 {
		t.Fatalf("%d attempts, want 3", len(got))
	}
	key := got[0].header.Get("Idempotency-Key")
	if !uuidV4.MatchString(key) {
		t.Fatalf("key %q", key)
	}
	for _, request := range got {
		if request.method != "POST" || request.path != "/v1/sessions/"+routedSession+"/fork" || request.body != `{"revision":2}` ||
			request.header.Get("Idempotency-Key") != key || request.header.Get("Agentic-Host") != "alpha-1" {
			t.Fatalf("an attempt differs from the first: %s %s %s key %q host %q (first key %q)", request.method, request.path,
				request.body, request.header.Get("Idempotency-Key"), request.header.Get("Agentic-Host"), key)
		}
	}

	if _, err := client.ForkSession(c, routedSession, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ForkSession(c, routedSession, &agenticdriver.ForkSessionRequest{}, agenticdriver.WithIdempotencyKey("mine-fork")); err != nil {
		t.Fatal(err)
	}
	got = host.requests()
	if another := got[3].header.Get("Idempotency-Key"); !uuidV4.MatchString(another) || another == key {
		t.Fatalf("another call, key %q (the first call's %q)", another, key)
	}
	if got[3].body != "{}" || got[4].body != "{}" {
		t.Fatalf("the default boundary sends no field: %q, %q", got[3].body, got[4].body)
	}
	if mine := got[4].header.Get("Idempotency-Key"); mine != "mine-fork" {
		t.Fatalf("the caller's key: %q", mine)
	}
}

// ForkSession's retry class is CreateSession's: the same answers are retried, the same never.
func TestAForkIsRetriedExactlyAsCreateSessionIs(t *testing.T) {
	now := map[string]string{"Retry-After": "0"}
	for _, answer := range []struct {
		name     string
		handler  func(t *testing.T) http.HandlerFunc
		attempts int
	}{
		{"HOST_BUSY", func(*testing.T) http.HandlerFunc { return problem(429, "HOST_BUSY", now, "") }, 3},
		{"SESSION_STORE_FULL", func(*testing.T) http.HandlerFunc { return problem(503, "SESSION_STORE_FULL", now, "") }, 3},
		{"SHUTTING_DOWN", func(*testing.T) http.HandlerFunc { return problem(503, "SHUTTING_DOWN", now, "") }, 3},
		{"IDEMPOTENCY_KEY_IN_USE", func(*testing.T) http.HandlerFunc { return problem(409, "IDEMPOTENCY_KEY_IN_USE", now, "") }, 3},
		{"a lost answer", func(*testing.T) http.HandlerFunc { return drop }, 3},
		{"SESSION_BUSY", func(*testing.T) http.HandlerFunc {
			return problem(409, "SESSION_BUSY", map[string]string{"Retry-After": "0"}, `,"activeRunId":"run_2"`)
		}, 1},
		{"SESSION_REVISION_CONFLICT", func(*testing.T) http.HandlerFunc {
			return problem(409, "SESSION_REVISION_CONFLICT", map[string]string{"x-should-retry": "false"}, `,"currentRevision":4`)
		}, 1},
		{"SESSION_NOT_FOUND", func(*testing.T) http.HandlerFunc { return problem(404, "SESSION_NOT_FOUND", nil, "") }, 1},
		{"VALIDATION_ERROR", func(*testing.T) http.HandlerFunc { return problem(422, "VALIDATION_ERROR", nil, "") }, 1},
		{"PERMISSION_DENIED", func(*testing.T) http.HandlerFunc { return problem(403, "PERMISSION_DENIED", nil, "") }, 1},
		{"SESSIONS_DISABLED", func(*testing.T) http.HandlerFunc { return problem(501, "SESSIONS_DISABLED", nil, "") }, 1},
		{"a read timeout (POST)", stall, 1},
	} {
		t.Run(answer.name, func(t *testing.T) {
			short := agenticdriver.WithTimeouts(agenticdriver.Timeouts{Read: 150 * time.Millisecond})
			creates := scriptedHost(t, answer.handler(t))
			_, createErr := creates.client(t, short).CreateSession(ctx(t),
				&agenticdriver.CreateSessionRequest{Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})
			forks := scriptedHost(t, answer.handler(t))
			_, forkErr := forks.client(t, short).ForkSession(ctx(t), routedSession, &agenticdriver.ForkSessionRequest{})
			var root agenticdriver.Error
			if !errors.As(createErr, &root) || !errors.As(forkErr, &root) {
				t.Fatalf("create: %v; fork: %v", createErr, forkErr)
			}
			if created, forked := len(creates.requests()), len(forks.requests()); created != answer.attempts || forked != answer.attempts {
				t.Fatalf("attempts: createSession %d, forkSession %d, want %d", created, forked, answer.attempts)
			}
		})
	}
}

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

func TestConnectionRefusedIsAConnectionError(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + listener.Addr().String()
	_ = listener.Close()
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(url), agenticdriver.WithToken("t"), agenticdriver.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.GetDiscovery(ctx(t))
	var connection *agenticdriver.ConnectionError
	var root agenticdriver.Error
	var opError *net.OpError
	if !errors.As(err, &connection) || !errors.As(err, &root) || connection.Phase != agenticdriver.PhaseConnect || !errors.As(err, &opError) {
		t.Fatalf("%T %v", err, err)
	}
	var timeout *agenticdriver.TimeoutError
	if errors.As(err, &timeout) {
		t.Fatal("a refusal is not a timeout")
	}
}

// dialTimeout is the error of a dial that timed out; every dial the way a connect timeout does.
type dialTimeout struct{}

func (dialTimeout) Error() string   { return "i/o timeout" }
func (dialTimeout) Timeout() bool   { return true }
func (dialTimeout) Temporary() bool { return true }

func TestAConnectTimeoutIsATimeoutErrorAndRetried(t *testing.T) {
	var dials int
	var mu sync.Mutex
	client, err := agenticdriver.New(agenticdriver.WithBaseURL("http://127.0.0.1:9"), agenticdriver.WithToken("t"), agenticdriver.WithMaxRetries(1),
		agenticdriver.WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
			mu.Lock()
			dials++
			mu.Unlock()
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: dialTimeout{}}
		}}}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Run(ctx(t), echoRequest())
	var timeout *agenticdriver.TimeoutError
	var connection *agenticdriver.ConnectionError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutConnect || !errors.As(err, &connection) {
		t.Fatalf("%T %v", err, err)
	}
	if dials != 2 {
		t.Fatalf("%d dials (a connect timeout is retried, even for a POST)", dials)
	}
}

// stall answers nothing until the test ends.
func stall(t *testing.T) http.HandlerFunc {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}
}

func TestAReadTimeoutIsRetriedForGetButNotForPost(t *testing.T) {
	short := agenticdriver.WithTimeouts(agenticdriver.Timeouts{Read: 150 * time.Millisecond})
	host := scriptedHost(t, stall(t))
	_, err := host.client(t, short).Run(ctx(t), echoRequest())
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutRead || timeout.Limit != 150*time.Millisecond {
		t.Fatalf("%T %v", err, err)
	}
	if got := host.requests(); len(got) != 1 {
		t.Fatalf("POST: %d attempts", len(got))
	}
	reads := scriptedHost(t, stall(t))
	_, err = reads.client(t, short, agenticdriver.WithMaxRetries(1)).ReadSession(ctx(t), "ses_1")
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutRead {
		t.Fatalf("%T %v", err, err)
	}
	if got := reads.requests(); len(got) != 2 {
		t.Fatalf("GET: %d attempts", len(got))
	}
}

func TestAStreamSilentPastTheIdleTimeoutIsATimeoutError(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, "data: {\"type\":\"run.started\",\"runId\":\"run_1\"}\n\n: keep-alive\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	client := host.client(t, agenticdriver.WithTimeouts(agenticdriver.Timeouts{StreamIdle: 200 * time.Millisecond, Read: 150 * time.Millisecond}))
	stream, err := client.StreamRun(ctx(t), echoRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	if event, err := stream.Next(); err != nil || event.EventType() != "run.started" {
		t.Fatalf("%v, %v", event, err)
	}
	started := time.Now()
	_, err = stream.Next()
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutStreamIdle || time.Since(started) < 150*time.Millisecond {
		t.Fatalf("%T %v after %s", err, err, time.Since(started))
	}
	if len(host.requests()) != 1 {
		t.Fatal("a stream is never resent")
	}
}

func TestHeaders(t *testing.T) {
	host := scriptedHost(t, ok)
	client := host.client(t, agenticdriver.WithHeader("X-Team", "blue"), agenticdriver.WithHeader("Authorization", "Bearer stolen"),
		agenticdriver.WithHeader("Idempotency-Key", "one-for-all"))
	if _, err := client.Run(ctx(t), echoRequest(), agenticdriver.WithIdempotencyKey("this-call")); err != nil {
		t.Fatal(err)
	}
	got := host.requests()[0].header
	if got.Get("X-Team") != "blue" || got.Get("Authorization") != "Bearer tok-secret-0123456789" ||
		got.Get("User-Agent") != "agentic-driver-go/"+agenticdriver.Version || got.Values("Idempotency-Key")[0] != "this-call" ||
		len(got.Values("Idempotency-Key")) != 1 {
		t.Fatalf("%v", got)
	}
	own := scriptedHost(t, ok)
	if _, err := own.client(t, agenticdriver.WithHeader("User-Agent", "my-app/1")).Run(ctx(t), echoRequest()); err != nil {
		t.Fatal(err)
	}
	if ua := own.requests()[0].header.Values("User-Agent"); len(ua) != 1 || ua[0] != "my-app/1" {
		t.Fatalf("%q", ua)
	}
}

func TestNoTokenSendsNoAuthorization(t *testing.T) {
	t.Setenv("AGENTIC_DRIVER_TOKEN", "")
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, "application/json", `{"status":"ok"}`) })
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(host.server.URL))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.GetHealth(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, sent := host.requests()[0].header["Authorization"]; sent {
		t.Fatal("an Authorization header without a token")
	}
}

func TestTheEnvironmentConfiguresTheClient(t *testing.T) {
	host := scriptedHost(t, ok)
	t.Setenv("AGENTIC_DRIVER_URL", host.server.URL)
	t.Setenv("AGENTIC_DRIVER_TOKEN", "env-token-0123456789")
	client, err := agenticdriver.New()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Run(ctx(t), echoRequest()); err != nil {
		t.Fatal(err)
	}
	if got := host.requests()[0].header.Get("Authorization"); got != "Bearer env-token-0123456789" {
		t.Fatal(got)
	}
}

func TestLoggingSaysEachAttemptAndNeverTheTokenOrABody(t *testing.T) {
	check := func(t *testing.T, text string) {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(text), "\n")
		if len(lines) != 2 {
			t.Fatalf("%d lines:\n%s", len(lines), text)
		}
		for _, want := range []string{"method=POST", "path=/v1/runs", "status=503", "attempt=1", "retryIn=0s", "code=HOST_BUSY", "requestId=req_busy"} {
			if !strings.Contains(lines[0], want) {
				t.Errorf("first line lacks %s: %s", want, lines[0])
			}
		}
		for _, want := range []string{"status=200", "attempt=2", "requestId=req_ok"} {
			if !strings.Contains(lines[1], want) {
				t.Errorf("second line lacks %s: %s", want, lines[1])
			}
		}
		for _, secret := range []string{"tok-secret", "Bearer", "echo: hi", "Authorization", `"input"`} {
			if strings.Contains(text, secret) {
				t.Errorf("the log shows %q:\n%s", secret, text)
			}
		}
	}
	busyThenOK := func(t *testing.T) *scripted {
		return scriptedHost(t, problem(503, "HOST_BUSY", map[string]string{"Retry-After": "0", "X-Request-Id": "req_busy"}, ""), ok)
	}
	t.Run("WithLogger", func(t *testing.T) {
		var buffer bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buffer, &slog.HandlerOptions{Level: slog.LevelDebug}))
		host := busyThenOK(t)
		if _, err := host.client(t, agenticdriver.WithLogger(logger)).Run(ctx(t), echoRequest()); err != nil {
			t.Fatal(err)
		}
		check(t, buffer.String())
	})
	t.Run("AGENTIC_DRIVER_LOG=debug", func(t *testing.T) {
		t.Setenv("AGENTIC_DRIVER_LOG", "debug")
		reader, writer, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr := os.Stderr
		os.Stderr = writer
		host := busyThenOK(t)
		client := host.client(t)
		os.Stderr = stderr
		_, err = client.Run(ctx(t), echoRequest())
		_ = writer.Close()
		text, _ := io.ReadAll(reader)
		if err != nil {
			t.Fatal(err)
		}
		check(t, string(text))
	})
	t.Run("off by default", func(t *testing.T) {
		t.Setenv("AGENTIC_DRIVER_LOG", "")
		var buffer bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buffer, &slog.HandlerOptions{Level: slog.LevelInfo}))
		host := busyThenOK(t)
		if _, err := host.client(t, agenticdriver.WithLogger(logger)).Run(ctx(t), echoRequest()); err != nil || buffer.Len() != 0 {
			t.Fatalf("%v: %s", err, buffer.String())
		}
	})
}

func TestRawResponseOnSuccessAndOnError(t *testing.T) {
	host := scriptedHost(t, ok, problem(409, "SESSION_REVISION_CONFLICT", map[string]string{"X-Request-Id": "req_conflict", "x-should-retry": "false"}, `,"currentRevision":7`))
	client := host.client(t)
	var response *http.Response
	if _, err := client.Run(ctx(t), echoRequest(), agenticdriver.WithResponse(&response)); err != nil {
		t.Fatal(err)
	}
	if response == nil || response.StatusCode != 200 || response.Header.Get("X-Request-Id") != "req_ok" {
		t.Fatalf("%+v", response)
	}
	_, err := client.Run(ctx(t), echoRequest())
	var api agenticdriver.APIError
	var conflict *agenticdriver.SessionRevisionConflictError
	if !errors.As(err, &api) || api.StatusCode() != 409 || api.ResponseHeader().Get("X-Request-Id") != "req_conflict" {
		t.Fatalf("%v", err)
	}
	if !errors.As(err, &conflict) || conflict.CurrentRevision != 7 || conflict.RequestID != "req_conflict" ||
		!errors.Is(err, agenticdriver.ErrSessionRevisionConflict) {
		t.Fatalf("%+v", conflict)
	}
}

func TestAnUnknownCodeIsKeptAsTheGenericProblem(t *testing.T) {
	host := scriptedHost(t, problem(418, "TEAPOT_EMPTY", nil, `,"extra":true`))
	_, err := host.client(t).Run(ctx(t), echoRequest())
	var problemError *agenticdriver.ProblemError
	if !errors.As(err, &problemError) || problemError.Code != "TEAPOT_EMPTY" || problemError.Known() || problemError.Status != 418 {
		t.Fatalf("%T %v", err, err)
	}
	if _, generic := err.(*agenticdriver.ProblemError); !generic {
		t.Fatalf("%T", err)
	}
}

func sessionInfo(id string, status agenticdriver.SessionStatus, revision int) agenticdriver.SessionInfo {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return agenticdriver.SessionInfo{ID: id, Revision: revision, Status: status,
		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory, CreatedAt: at, UpdatedAt: at,
		ExpiresAt: agenticdriver.NewNilDateTime(at), HostID: "h", NativeHistory: agenticdriver.NativeHistoryFilterFull,
		Cost: agenticdriver.NilFloat64{Null: true}, Retries: agenticdriver.RetryAccounting{Cost: agenticdriver.NilFloat64{Null: true}},
		ServedModels: []string{}}
}

func readAnswer(status agenticdriver.SessionStatus) string {
	read := agenticdriver.ReadSessionResponse{Session: sessionInfo("ses_1", status, 3),
		Instructions: agenticdriver.NilString{Null: true}, History: []agenticdriver.Message{}, Turns: []agenticdriver.Turn{}}
	data, err := read.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestWaitUntilIdleReadsUntilTheSessionIsNoLongerRunning(t *testing.T) {
	running := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, "application/json", readAnswer(agenticdriver.SessionStatusRunning))
	}
	ready := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, "application/json", readAnswer(agenticdriver.SessionStatusReady))
	}
	host := scriptedHost(t, running, running, ready)
	started := time.Now()
	read, err := host.client(t).WaitUntilIdle(ctx(t), "ses_1")
	if err != nil || read.Session.Status != agenticdriver.SessionStatusReady || read.Session.Revision != 3 {
		t.Fatalf("%+v, %v", read, err)
	}
	got := host.requests()
	if len(got) != 3 || got[0].method != "GET" || got[0].path != "/v1/sessions/ses_1" {
		t.Fatalf("%+v", got)
	}
	// waits 0.1 s, then 0.2 s, then 0.4 s: 0.7 s before the third read
	if elapsed := time.Since(started); elapsed < 700*time.Millisecond || elapsed > 2500*time.Millisecond {
		t.Fatalf("took %s", elapsed)
	}
}

func TestWaitUntilIdleStartsWithTheBusyErrorsRetryAfterAndIsBounded(t *testing.T) {
	host := scriptedHost(t, problem(409, "SESSION_BUSY", map[string]string{"Retry-After": "1"}, `,"activeRunId":"run_1"`),
		func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, "application/json", readAnswer(agenticdriver.SessionStatusRunning))
		})
	client := host.client(t)
	_, busy := client.Run(ctx(t), echoRequest())
	started := time.Now()
	_, err := client.WaitUntilIdle(ctx(t), "ses_1", agenticdriver.WithBusyError(busy), agenticdriver.WithWaitBound(1500*time.Millisecond))
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutWaitIdle {
		t.Fatalf("%T %v", err, err)
	}
	got := host.requests()
	if len(got) < 3 || got[1].at.Sub(started) < time.Second {
		t.Fatalf("first read after %s, %d requests", got[1].at.Sub(started), len(got))
	}
	if elapsed := time.Since(started); elapsed < 1500*time.Millisecond || elapsed > 3500*time.Millisecond {
		t.Fatalf("bounded at %s", elapsed)
	}
}

func TestTheReadTimeoutAlsoBoundsTheSilenceWithinAJSONBody(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"session":`)
		w.(http.Flusher).Flush()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	started := time.Now()
	_, err := host.client(t, agenticdriver.WithTimeouts(agenticdriver.Timeouts{Read: 200 * time.Millisecond})).ReadSession(ctx(t), "ses_1")
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutRead || timeout.ConnectionError.Phase != agenticdriver.PhaseBody {
		t.Fatalf("%T %v", err, err)
	}
	if elapsed := time.Since(started); elapsed < 200*time.Millisecond || len(host.requests()) != 1 {
		t.Fatalf("after %s, %d attempts (a body that stopped after its head is not retried)", elapsed, len(host.requests()))
	}
}

func TestRunSessionSendsTheHandleAndUnwrapsTheSessionOfItsResult(t *testing.T) {
	info := sessionInfo("ses_1", agenticdriver.SessionStatusReady, 4)
	session, err := info.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	answered := strings.Replace(runResult, `"servedModel"`, `"session":`+string(session)+`,"servedModel"`, 1)
	host := scriptedHost(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, "application/json", answered) })
	request := echoRequest()
	result, err := host.client(t).RunSession(ctx(t), agenticdriver.SessionHandle{ID: "ses_1", Revision: 3}, request)
	if err != nil || result.Session.Revision != 4 || result.Output.Text != "echo: hi" {
		t.Fatalf("%+v, %v", result, err)
	}
	if sent := host.requests()[0].body; !strings.Contains(sent, `"session":{"id":"ses_1","revision":3}`) {
		t.Fatalf("sent %s", sent)
	}
	if request.Session.Set {
		t.Fatal("the caller's request was changed")
	}

	bare := scriptedHost(t, ok)
	_, err = bare.client(t).RunSession(ctx(t), agenticdriver.SessionHandle{ID: "ses_1", Revision: 3}, echoRequest())
	var client *agenticdriver.ClientError
	if !errors.As(err, &client) {
		t.Fatalf("an answer without the session: %T %v", err, err)
	}
}
