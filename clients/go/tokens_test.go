package agenticdriver_test

// ../BEHAVIOUR.md, "Tokens", against scripted fake hosts: a token source is asked for every attempt,
// asked again once with the refused token on a 401 invalid_token, and checked before anything is sent.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const invalidChallenge = `Bearer realm="agentic-driver", error="invalid_token", error_description="expired"`

func unauthenticated(challenge string) http.HandlerFunc {
	headers := map[string]string{}
	if challenge != "" {
		headers["WWW-Authenticate"] = challenge
	}
	return problem(401, "UNAUTHENTICATED", headers, "")
}

// countingSource hands out token-1, token-2, ... and records what it was told.
type countingSource struct {
	mu   sync.Mutex
	told []string
}

func (s *countingSource) Token(_ context.Context, refused string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.told = append(s.told, refused)
	return fmt.Sprintf("token-%d", len(s.told)), nil
}

func tokensSent(host *scripted) []string {
	var tokens []string
	for _, request := range host.requests() {
		tokens = append(tokens, request.header.Get("Authorization"))
	}
	return tokens
}

func equal(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestATokenSourceIsAskedForEveryAttemptARetryIncluded(t *testing.T) {
	host := scriptedHost(t, drop, ok)
	source := &countingSource{}
	if _, err := host.client(t, agenticdriver.WithTokenSource(source)).Run(ctx(t), echoRequest()); err != nil {
		t.Fatal(err)
	}
	if got := tokensSent(host); !equal(got, []string{"Bearer token-1", "Bearer token-2"}) || !equal(source.told, []string{"", ""}) {
		t.Fatalf("sent %q, told %q", got, source.told)
	}
}

func TestAnInvalidTokenIsAskedAnewOnceWithTheRefusedTokenAndTheSameKey(t *testing.T) {
	host := scriptedHost(t, unauthenticated(invalidChallenge), ok)
	source := &countingSource{}
	result, err := host.client(t, agenticdriver.WithTokenSource(source)).Run(ctx(t), echoRequest())
	if err != nil || result.Output.Text != "echo: hi" {
		t.Fatalf("%+v, %v", result, err)
	}
	got := host.requests()
	if !equal(source.told, []string{"", "token-1"}) || !equal(tokensSent(host), []string{"Bearer token-1", "Bearer token-2"}) {
		t.Fatalf("told %q, sent %q", source.told, tokensSent(host))
	}
	if key := got[0].header.Get("Idempotency-Key"); key == "" || got[1].header.Get("Idempotency-Key") != key || got[0].body != got[1].body {
		t.Fatalf("not the same request again: %q / %q", key, got[1].header.Get("Idempotency-Key"))
	}
}

func TestASecondInvalidTokenIsReturned(t *testing.T) {
	host := scriptedHost(t, unauthenticated(invalidChallenge))
	_, err := host.client(t, agenticdriver.WithTokenSource(&countingSource{})).GetDiscovery(ctx(t))
	if !errors.Is(err, agenticdriver.ErrUnauthenticated) || len(host.requests()) != 2 {
		t.Fatalf("%v after %d requests", err, len(host.requests()))
	}
}

func TestA401WithoutInvalidTokenIsReturnedAtOnce(t *testing.T) {
	host := scriptedHost(t, unauthenticated(`Bearer realm="agentic-driver"`))
	_, err := host.client(t, agenticdriver.WithTokenSource(&countingSource{})).GetDiscovery(ctx(t))
	if !errors.Is(err, agenticdriver.ErrUnauthenticated) || len(host.requests()) != 1 {
		t.Fatalf("%v after %d requests", err, len(host.requests()))
	}
}

func TestAStringTokenIsNotSentAgain(t *testing.T) {
	host := scriptedHost(t, unauthenticated(invalidChallenge))
	_, err := host.client(t).GetDiscovery(ctx(t))
	if !errors.Is(err, agenticdriver.ErrUnauthenticated) || len(host.requests()) != 1 {
		t.Fatalf("%v after %d requests", err, len(host.requests()))
	}
}

func TestASourceThatFailsFailsTheCallBeforeAnythingIsSent(t *testing.T) {
	host := scriptedHost(t, ok)
	down := errors.New("the identity provider is down")
	source := agenticdriver.TokenFunc(func(context.Context, string) (string, error) { return "", down })
	_, err := host.client(t, agenticdriver.WithTokenSource(source)).Run(ctx(t), echoRequest())
	var connection *agenticdriver.ConnectionError
	if !errors.Is(err, down) || !errors.As(err, &connection) || connection.Phase != agenticdriver.PhaseToken || connection.Retryable() {
		t.Fatalf("%v", err)
	}
	if len(host.requests()) != 0 {
		t.Fatalf("%d requests sent", len(host.requests()))
	}
}

func TestATokenAHeaderCannotCarryIsNeverSent(t *testing.T) {
	for _, value := range []string{"", "two words", "line\nbreak", "caf\u00e9", "\x00"} {
		host := scriptedHost(t, ok)
		source := agenticdriver.TokenFunc(func(context.Context, string) (string, error) { return value, nil })
		_, err := host.client(t, agenticdriver.WithTokenSource(source)).GetDiscovery(ctx(t))
		var connection *agenticdriver.ConnectionError
		if !errors.As(err, &connection) || connection.Phase != agenticdriver.PhaseToken || len(host.requests()) != 0 {
			t.Fatalf("%q: %v after %d requests", value, err, len(host.requests()))
		}
	}
}
