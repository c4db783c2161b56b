package agenticdriver

// The transport under the generated client (hand-written): headers, per-attempt timeouts,
// retries and logging, exactly as ../BEHAVIOUR.md says. The generated methods build one
// *http.Request per logical call and hand it to transport.Do, which sends it as many times
// as the retry policy allows (the body is re-read with GetBody, the headers, Idempotency-Key
// included, stay the same) and returns the last answer or one error of this client's tree.

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Version is this client's version, sent in its User-Agent (agentic-driver-go/<Version>).
const Version = "0.1.0"

// Defaults of ../BEHAVIOUR.md.
const (
	DefaultMaxRetries        = 2
	DefaultConnectTimeout    = 5 * time.Second
	DefaultReadTimeout       = 600 * time.Second
	DefaultStreamIdleTimeout = 60 * time.Second
	// MaxRetryAfter is the longest Retry-After the client waits out; a longer ask is returned at once.
	MaxRetryAfter = 60 * time.Second
)

const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 8 * time.Second
)

// callState travels with one logical call (in its context) from a HostClient method to the transport.
type callState struct {
	editors  []func(*http.Request) error
	response **http.Response
	// once: a single attempt (a stream's rejoin, whose retries the stream decides itself).
	once bool
	// route, when set, is shared by every request of one streamed call (its rejoins too), so a
	// 421 is followed once for all of them and the owner it named is kept.
	route *followedRoute
}

// followedRoute remembers a 421 followed in a call.
type followedRoute struct {
	followed bool
	owner    string
}

type callStateKey struct{}

func withCallState(ctx context.Context, state *callState) context.Context {
	return context.WithValue(ctx, callStateKey{}, state)
}

func callStateOf(ctx context.Context) *callState {
	if state, ok := ctx.Value(callStateKey{}).(*callState); ok {
		return state
	}
	return &callState{}
}

// Causes of an attempt's own cancellation, told apart from the caller's.
var (
	errReadTimeoutCause = errors.New("read timeout")
	errIdleTimeoutCause = errors.New("stream idle timeout")
)

type transport struct {
	client     *http.Client
	token      string
	tokens     TokenSource // nil: the token above (or none)
	headers    http.Header
	maxRetries int
	timeouts   Timeouts
	logger     *slog.Logger // nil: no logging
}

func newHTTPClient(connect time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   connect,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}

// prepare sets the headers every attempt sends: the default headers (never Authorization), the
// User-Agent unless a default header names one, the token, then the call's editors.
func (t *transport) prepare(request *http.Request, state *callState) error {
	for name, values := range t.headers {
		if name == "Authorization" || len(request.Header.Values(name)) > 0 && name != "User-Agent" {
			continue
		}
		request.Header[name] = append([]string(nil), values...)
	}
	if request.Header.Get("User-Agent") == "" {
		request.Header.Set("User-Agent", "agentic-driver-go/"+Version)
	}
	if t.token != "" {
		request.Header.Set("Authorization", "Bearer "+t.token)
	}
	for _, edit := range state.editors {
		if err := edit(request); err != nil {
			return err
		}
	}
	return nil
}

// Do sends one logical call: every attempt the retry policy allows.
func (t *transport) Do(request *http.Request) (*http.Response, error) {
	ctx := request.Context()
	state := callStateOf(ctx)
	if err := t.prepare(request, state); err != nil {
		return nil, err
	}
	path := request.URL.EscapedPath()
	if host := routedHost(request); host != "" && request.Header.Get(routingHeader) == "" {
		request.Header.Set(routingHeader, host)
	}
	route := state.route
	if route == nil {
		route = &followedRoute{}
	}
	if route.owner != "" {
		request.Header.Set(routingHeader, route.owner)
	}
	retries := t.maxRetries
	if state.once {
		retries = 0
	}
	var token, refused string // the source's token of this attempt; the one the host just refused
	reauthorized := false
	for attempt, sent := 1, 0; ; attempt++ {
		if sent > 0 && request.GetBody != nil {
			body, err := request.GetBody()
			if err != nil {
				return nil, err
			}
			request.Body = body
		}
		if t.tokens != nil {
			var err error
			if token, err = askToken(ctx, t.tokens, refused, request); err != nil {
				return nil, err
			}
			refused = ""
		}
		sent++
		response, err := t.attempt(request)
		if err == nil {
			if state.response != nil {
				*state.response = response
			}
			t.log(ctx, request.Method, path, attempt, response.StatusCode, response.Header, nil, -1)
			return response, nil
		}
		if ctx.Err() != nil { // the caller's cancellation or deadline: not ours to retry
			t.log(ctx, request.Method, path, attempt, 0, nil, ctx.Err(), -1)
			return nil, ctx.Err()
		}
		if t.tokens != nil && !reauthorized && invalidToken(err) {
			// The host refused the source's token itself: ask it again and send once more, at once.
			refused, reauthorized = token, true
			t.log(ctx, request.Method, path, attempt, http.StatusUnauthorized, nil, err, 0)
			attempt--
			continue
		}
		if owner, ok := misdirectedOwner(err); ok && !route.followed {
			// A wrong hop: the same request at once to the owner, once per call, not one of the retries.
			route.followed, route.owner = true, owner
			request.Header.Set(routingHeader, owner)
			t.log(ctx, request.Method, path, attempt, http.StatusMisdirectedRequest, nil, err, 0)
			attempt--
			continue
		}
		retry, wait := t.decide(request.Method, err, attempt-1)
		status, header := 0, http.Header(nil)
		var api APIError
		if errors.As(err, &api) {
			status, header = api.StatusCode(), api.ResponseHeader()
		}
		if !retry || attempt > retries {
			t.log(ctx, request.Method, path, attempt, status, header, err, -1)
			return nil, err
		}
		t.log(ctx, request.Method, path, attempt, status, header, err, wait)
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// attempt sends the request once. A JSON answer is read whole here (bounded by the read
// timeout between bytes); an error status becomes its error; an event stream's body is
// wrapped in the stream-idle timeout.
func (t *transport) attempt(request *http.Request) (*http.Response, error) {
	parent := request.Context()
	ctx, cancel := context.WithCancelCause(parent)
	headTimer := startTimer(t.timeouts.Read, func() { cancel(errReadTimeoutCause) })
	response, err := t.client.Do(request.WithContext(ctx))
	headTimer.stop()
	if err != nil {
		cause := context.Cause(ctx)
		cancel(nil)
		return nil, t.classify(request.Method, request.URL.EscapedPath(), err, cause, parent)
	}
	// An event stream (a streamed call's, or one that Raw() asked for) is read by its caller.
	isStream := response.StatusCode < 300 && strings.HasPrefix(response.Header.Get("Content-Type"), "text/event-stream")
	if isStream {
		response.Body = newIdleBody(response.Body, t.timeouts.StreamIdle, ctx, cancel, parent, request)
		return response, nil
	}
	body, err := readAll(response.Body, t.timeouts.Read, cancel)
	_ = response.Body.Close()
	cause := context.Cause(ctx)
	cancel(nil)
	if err != nil { // the head arrived, the body did not: never retried
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		base := ConnectionError{Method: request.Method, Path: request.URL.EscapedPath(), Phase: PhaseBody, Err: err}
		if cause == errReadTimeoutCause {
			return nil, &TimeoutError{Phase: TimeoutRead, Limit: t.timeouts.Read, ConnectionError: base}
		}
		return nil, &base
	}
	response.Body = io.NopCloser(bytes.NewReader(body))
	if response.StatusCode >= 400 {
		return nil, answerErrorOf(response.StatusCode, response.Header, body)
	}
	return response, nil
}

// readAll reads a JSON answer, cancelling the attempt after `idle` without a byte.
func readAll(body io.Reader, idle time.Duration, cancel context.CancelCauseFunc) ([]byte, error) {
	if idle <= 0 {
		return io.ReadAll(io.LimitReader(body, maxBody))
	}
	timer := time.AfterFunc(idle, func() { cancel(errReadTimeoutCause) })
	defer timer.Stop()
	var buffer bytes.Buffer
	chunk := make([]byte, 32*1024)
	for {
		n, err := body.Read(chunk)
		buffer.Write(chunk[:n])
		if buffer.Len() > maxBody {
			return nil, fmt.Errorf("the answer exceeds %d bytes", maxBody)
		}
		if err == io.EOF {
			return buffer.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		timer.Reset(idle)
	}
}

// maxBody bounds how much of a JSON answer is read.
const maxBody = 64 << 20

// classify turns a failed attempt into this client's connection or timeout error.
func (t *transport) classify(method, path string, err error, cause error, parent context.Context) error {
	if parent.Err() != nil {
		return parent.Err()
	}
	var urlError interface{ Unwrap() error }
	inner := err
	if errors.As(err, &urlError) {
		if unwrapped := urlError.Unwrap(); unwrapped != nil {
			inner = unwrapped
		}
	}
	base := ConnectionError{Method: method, Path: path, Err: inner}
	var opError *net.OpError
	dial := errors.As(err, &opError) && opError.Op == "dial"
	var timeout interface{ Timeout() bool }
	timedOut := errors.As(err, &timeout) && timeout.Timeout()
	switch {
	case dial && timedOut:
		base.Phase = PhaseConnect
		return &TimeoutError{Phase: TimeoutConnect, Limit: t.timeouts.Connect, ConnectionError: base}
	case dial:
		base.Phase = PhaseConnect
		return &base
	case cause == errReadTimeoutCause || timedOut:
		base.Phase = PhaseResponse
		return &TimeoutError{Phase: TimeoutRead, Limit: t.timeouts.Read, ConnectionError: base}
	}
	base.Phase = PhaseResponse
	return &base
}

// decide says whether the failed attempt number n (from 0) is retried, and after how long.
func (t *transport) decide(method string, err error, n int) (bool, time.Duration) {
	var timeoutError *TimeoutError
	var connection *ConnectionError
	switch {
	case errors.As(err, &timeoutError):
		if timeoutError.Phase == TimeoutRead && method == http.MethodPost {
			return false, 0 // the host stops a run whose client hung up: a retry could only replay that
		}
		return timeoutError.ConnectionError.Retryable(), backoff(n)
	case errors.As(err, &connection):
		return connection.Retryable(), backoff(n)
	}
	var api APIError
	if !errors.As(err, &api) {
		return false, 0
	}
	header := api.ResponseHeader()
	if strings.EqualFold(strings.TrimSpace(header.Get("X-Should-Retry")), "false") {
		return false, 0
	}
	var problem *ProblemError
	if errors.As(err, &problem) {
		switch problem.Code {
		case ErrorCodeHOSTBUSY, ErrorCodeSESSIONSTOREFULL, ErrorCodeSHUTTINGDOWN, ErrorCodeHOSTUNAVAILABLE,
			ErrorCodeIDEMPOTENCYKEYINUSE:
		default:
			return false, 0
		}
	} else if status := api.StatusCode(); status != 502 && status != 503 && status != 504 {
		return false, 0
	}
	if asked, ok := retryAfter(header, problem); ok {
		if asked > MaxRetryAfter {
			return false, 0
		}
		return true, asked
	}
	return true, backoff(n)
}

// retryAfter reads Retry-After (delta-seconds or an HTTP date), else the problem's retryAfterSeconds.
func retryAfter(header http.Header, problem *ProblemError) (time.Duration, bool) {
	if value := strings.TrimSpace(header.Get("Retry-After")); value != "" {
		if seconds, err := strconv.ParseFloat(value, 64); err == nil && seconds >= 0 && !math.IsInf(seconds, 0) {
			return time.Duration(seconds * float64(time.Second)), true
		}
		if date, err := http.ParseTime(value); err == nil {
			return max(time.Until(date), 0), true
		}
	}
	if problem != nil && problem.RetryAfterSeconds.Set {
		return time.Duration(problem.RetryAfterSeconds.Value) * time.Second, true
	}
	return 0, false
}

// backoff is the wait before retry n (from 0) without Retry-After: min(0.5 s * 2^n, 8 s) times [0.75, 1.0].
func backoff(n int) time.Duration {
	wait := backoffMax
	if n < 5 {
		wait = min(backoffBase<<n, backoffMax)
	}
	return time.Duration(float64(wait) * (0.75 + 0.25*mathrand.Float64()))
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

type stoppable struct{ timer *time.Timer }

func startTimer(d time.Duration, fire func()) stoppable {
	if d <= 0 {
		return stoppable{}
	}
	return stoppable{time.AfterFunc(d, fire)}
}

func (s stoppable) stop() {
	if s.timer != nil {
		s.timer.Stop()
	}
}

// idleBody is an event stream's body: a read that waits longer than idle ends the attempt
// with a stream-idle *TimeoutError; a failure is a *ConnectionError.
type idleBody struct {
	body    io.ReadCloser
	idle    time.Duration
	timer   *time.Timer
	ctx     context.Context
	cancel  context.CancelCauseFunc
	parent  context.Context
	method  string
	path    string
	closing sync.Once
}

func newIdleBody(body io.ReadCloser, idle time.Duration, ctx context.Context, cancel context.CancelCauseFunc,
	parent context.Context, request *http.Request) *idleBody {
	b := &idleBody{body: body, idle: idle, ctx: ctx, cancel: cancel, parent: parent,
		method: request.Method, path: request.URL.EscapedPath()}
	if idle > 0 {
		b.timer = time.AfterFunc(idle, func() { cancel(errIdleTimeoutCause) })
	}
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if b.timer != nil && n > 0 {
		b.timer.Reset(b.idle)
	}
	if err == nil || err == io.EOF {
		return n, err
	}
	if b.parent.Err() != nil {
		return n, b.parent.Err()
	}
	if context.Cause(b.ctx) == errIdleTimeoutCause {
		return n, &TimeoutError{Phase: TimeoutStreamIdle, Limit: b.idle,
			ConnectionError: ConnectionError{Method: b.method, Path: b.path, Phase: PhaseStream, Err: err}}
	}
	return n, &ConnectionError{Method: b.method, Path: b.path, Phase: PhaseStream, Err: err}
}

func (b *idleBody) Close() error {
	var err error
	b.closing.Do(func() {
		if b.timer != nil {
			b.timer.Stop()
		}
		err = b.body.Close()
		b.cancel(nil)
	})
	return err
}

// log writes one debug line per attempt: never a token, a header value other than the
// request id, or a body.
func (t *transport) log(ctx context.Context, method, path string, attempt, status int, header http.Header, err error, wait time.Duration) {
	if t.logger == nil || !t.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{slog.String("method", method), slog.String("path", path), slog.Int("attempt", attempt)}
	if status != 0 {
		attrs = append(attrs, slog.Int("status", status))
	}
	if err != nil && status == 0 {
		attrs = append(attrs, slog.String("failure", failureText(err)))
	}
	var problem *ProblemError
	if errors.As(err, &problem) {
		attrs = append(attrs, slog.String("code", string(problem.Code)))
	}
	if wait >= 0 {
		attrs = append(attrs, slog.Duration("retryIn", wait))
	}
	if id := header.Get("X-Request-Id"); id != "" {
		attrs = append(attrs, slog.String("requestId", id))
	}
	t.logger.LogAttrs(ctx, slog.LevelDebug, "agentic-driver attempt", attrs...)
}

// failureText names a connection failure without any request data.
func failureText(err error) string {
	var timeoutError *TimeoutError
	if errors.As(err, &timeoutError) {
		return string(timeoutError.Phase) + " timeout"
	}
	var connection *ConnectionError
	if errors.As(err, &connection) && connection.Err != nil {
		return connection.Err.Error()
	}
	return err.Error()
}

// newIdempotencyKey is a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
