package agenticdriver_test

// ../BEHAVIOUR.md against local fake hosts: the scripted host and its answers (shared by the
// behaviour_*_test.go files), and idempotency keys. Retries are in behaviour_retry_test.go,
// timeouts and connection errors in behaviour_timeout_test.go, headers, logging, raw responses and
// the error tree in behaviour_headers_test.go, the busy helper and RunSession in
// behaviour_sessions_test.go.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
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

func echoRequest() *agenticdriver.RunRequest {
	return &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: "hi"}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func sessionInfo(id string, status agenticdriver.SessionStatus, revision int) agenticdriver.SessionInfo {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return agenticdriver.SessionInfo{ID: id, Revision: revision, Status: status,
		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory, CreatedAt: at, UpdatedAt: at,
		ExpiresAt: agenticdriver.NewNilDateTime(at), HostID: "h", NativeHistory: agenticdriver.NativeHistoryFilterFull,
		Cost: agenticdriver.NilFloat64{Null: true}, Retries: agenticdriver.RetryAccounting{Cost: agenticdriver.NilFloat64{Null: true}},
		ServedModels: []string{}}
}

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
