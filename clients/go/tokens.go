package agenticdriver

// Token sources (hand-written; ../BEHAVIOUR.md, "Tokens"): asked for the bearer token of every
// attempt, and asked again once, with the refused token, when the host answers 401 with
// WWW-Authenticate: Bearer error="invalid_token".

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
)

// TokenSource gives the bearer token of an attempt. refused is the token the host just refused
// (error="invalid_token": expired, revoked, signed by a retired key), or "" on an ordinary attempt,
// so a source that caches tokens can drop exactly that one. It is called for every attempt, from
// as many goroutines as there are calls in flight, with the call's context.
type TokenSource interface {
	Token(ctx context.Context, refused string) (string, error)
}

// TokenFunc is a function as a TokenSource.
type TokenFunc func(ctx context.Context, refused string) (string, error)

// Token calls f.
func (f TokenFunc) Token(ctx context.Context, refused string) (string, error) { return f(ctx, refused) }

// WithTokenSource has every attempt ask source for its bearer token (it replaces WithToken and
// AGENTIC_DRIVER_TOKEN). A source that fails, or gives a token a header cannot carry, fails the
// call with a *ConnectionError of PhaseToken before anything is sent (errors.Is reaches the
// source's error).
func WithTokenSource(source TokenSource) HostOption {
	return func(o *hostOptions) { o.tokens = source }
}

var invalidTokenChallenge = regexp.MustCompile(`(?i)\berror\s*=\s*"?invalid_token"?`)

// invalidToken reports whether err is the host's 401 refusing the token itself.
func invalidToken(err error) bool {
	var api APIError
	if !errors.As(err, &api) || api.StatusCode() != http.StatusUnauthorized {
		return false
	}
	return invalidTokenChallenge.MatchString(api.ResponseHeader().Get("WWW-Authenticate"))
}

// askToken sets request's Authorization from source, or returns the error that fails the call.
func askToken(ctx context.Context, source TokenSource, refused string, request *http.Request) (string, error) {
	fail := func(err error) error {
		return &ConnectionError{Method: request.Method, Path: request.URL.EscapedPath(), Phase: PhaseToken, Err: err}
	}
	token, err := source.Token(ctx, refused)
	if err != nil {
		return "", fail(fmt.Errorf("not sent: the token source failed: %w", err))
	}
	if !headerSafe(token) {
		return "", fail(errors.New("not sent: the token source gave a token a header cannot carry"))
	}
	request.Header.Set("Authorization", "Bearer "+token)
	return token, nil
}

// headerSafe: visible ASCII only, at least one character (a bearer token has no spaces).
func headerSafe(token string) bool {
	if token == "" {
		return false
	}
	for i := 0; i < len(token); i++ {
		if token[i] < 0x21 || token[i] > 0x7e {
			return false
		}
	}
	return true
}
