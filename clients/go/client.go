package agenticdriver

// The hand-written client: one method per operation, over the generated (ogen) Client.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ogen-go/ogen/ogenerrors"
)

// HostClient talks to one Agentic Driver host. Each method is one operation of openapi.yaml
// (named after its operationId); it returns the success body, or an error of this client's
// tree (see Error): a *ProblemError for a problem response (match it with
// errors.Is(err, ErrSessionBusy), read it with errors.As), a *ConnectionError or *TimeoutError
// when no answer came. Each call retries what ../BEHAVIOUR.md says to retry, with one
// Idempotency-Key for all its attempts. Safe for concurrent use.
type HostClient struct {
	raw       *Client
	transport *transport
}

// HostOption configures New.
type HostOption func(*hostOptions)

// Timeouts are the client's own timeouts. A zero field keeps its default; a negative one
// turns that timeout off.
type Timeouts struct {
	// Connect bounds opening a connection (default 5 s). Ignored with WithHTTPClient, whose
	// dialer decides.
	Connect time.Duration
	// Read bounds the wait for the answer's head, and each wait between body bytes of a JSON
	// answer (default 600 s: a turn may take minutes).
	Read time.Duration
	// StreamIdle bounds the silence between two events (or keep-alive comments) of an event
	// stream (default 60 s).
	StreamIdle time.Duration
}

type hostOptions struct {
	baseURL, token string
	tokens         TokenSource
	baseURLSet     bool
	httpClient     *http.Client
	maxRetries     int
	timeouts       Timeouts
	headers        http.Header
	logger         *slog.Logger
	caPEM          []byte // WithCACertFile / WithCACertPEM (tls.go)
	caErr          error
}

// WithBaseURL sets the host's URL, for example http://127.0.0.1:8080 (default: the
// AGENTIC_DRIVER_URL environment variable, else http://127.0.0.1:8080).
func WithBaseURL(baseURL string) HostOption {
	return func(o *hostOptions) { o.baseURL, o.baseURLSet = baseURL, true }
}

// WithToken sets the bearer token (default: the AGENTIC_DRIVER_TOKEN environment variable).
// An empty token sends no Authorization header (then only GetHealth can be called).
func WithToken(token string) HostOption {
	return func(o *hostOptions) { o.token = token }
}

// WithMaxRetries sets how many times a failed attempt is retried (default 2; 0 turns retries off).
func WithMaxRetries(retries int) HostOption {
	return func(o *hostOptions) { o.maxRetries = max(retries, 0) }
}

// WithTimeouts sets the connect, read and stream-idle timeouts (zero fields keep the defaults).
func WithTimeouts(timeouts Timeouts) HostOption {
	return func(o *hostOptions) {
		for _, field := range []struct{ from, into *time.Duration }{
			{&timeouts.Connect, &o.timeouts.Connect}, {&timeouts.Read, &o.timeouts.Read},
			{&timeouts.StreamIdle, &o.timeouts.StreamIdle},
		} {
			if *field.from != 0 {
				*field.into = max(*field.from, 0)
			}
		}
	}
}

// WithHTTPClient sends every request through client instead of the client's own (which has a
// 5 s connect timeout). The read and stream-idle timeouts still apply; client.Timeout, if set,
// also bounds streamed runs, so prefer contexts for deadlines.
func WithHTTPClient(client *http.Client) HostOption {
	return func(o *hostOptions) { o.httpClient = client }
}

// WithHeader adds a header sent with every request (call it again to add more). A default
// header never replaces Authorization, nor a header the call itself sets; a User-Agent given
// here replaces the client's.
func WithHeader(name, value string) HostOption {
	return func(o *hostOptions) { o.headers.Add(name, value) }
}

// WithLogger logs one line per attempt at slog.LevelDebug on logger (method, path, status or
// failure, attempt, the wait before the next one, X-Request-Id; never a token or a body).
// Without it, AGENTIC_DRIVER_LOG=debug logs to standard error.
func WithLogger(logger *slog.Logger) HostOption {
	return func(o *hostOptions) { o.logger = logger }
}

// bearerToken is the SecuritySource: the token, or no Authorization header when it is empty
// (then only GetHealth can be called).
type bearerToken string

func (t bearerToken) BearerAuth(context.Context, OperationName) (BearerAuth, error) {
	if t == "" {
		return BearerAuth{}, ogenerrors.ErrSkipClientSecurity
	}
	return BearerAuth{Token: string(t)}, nil
}

// DefaultBaseURL is the host New talks to without WithBaseURL or AGENTIC_DRIVER_URL.
const DefaultBaseURL = "http://127.0.0.1:8080"

// New returns a client of one host:
//
//	client, err := agenticdriver.New(agenticdriver.WithBaseURL("http://127.0.0.1:8080"),
//		agenticdriver.WithToken(os.Getenv("AGENTIC_DRIVER_TOKEN")))
func New(opts ...HostOption) (*HostClient, error) {
	o := hostOptions{
		baseURL:    os.Getenv("AGENTIC_DRIVER_URL"),
		token:      os.Getenv("AGENTIC_DRIVER_TOKEN"),
		maxRetries: DefaultMaxRetries,
		timeouts:   Timeouts{Connect: DefaultConnectTimeout, Read: DefaultReadTimeout, StreamIdle: DefaultStreamIdleTimeout},
		headers:    http.Header{},
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.baseURL == "" && !o.baseURLSet {
		o.baseURL = DefaultBaseURL
	}
	if o.logger == nil && strings.EqualFold(strings.TrimSpace(os.Getenv("AGENTIC_DRIVER_LOG")), "debug") {
		o.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	roots, err := trustedRoots(&o)
	if err != nil {
		return nil, &ClientError{Err: err}
	}
	if o.httpClient == nil {
		o.httpClient = newHTTPClient(o.timeouts.Connect)
		trust(o.httpClient, roots)
	}
	t := &transport{client: o.httpClient, token: o.token, tokens: o.tokens, headers: o.headers,
		maxRetries: o.maxRetries, timeouts: o.timeouts, logger: o.logger}
	if o.tokens != nil {
		t.token = "" // the source's token is set per attempt
	}
	var security SecuritySource = bearerToken(t.token)
	if o.tokens != nil {
		security = bearerToken("from-the-token-source") // the transport sets each attempt's own token
	}
	raw, err := NewClient(o.baseURL, security, WithClient(t))
	if err != nil {
		return nil, &ClientError{Err: err}
	}
	return &HostClient{raw: raw, transport: t}, nil
}

// Raw is the generated client this one wraps, over the same transport (headers, timeouts,
// retries; without an idempotency key unless you pass one). Its methods return the generated
// response types; error statuses reach them as errors of this client's tree, like here.
func (c *HostClient) Raw() *Client { return c.raw }

// CallOption adjusts one call.
type CallOption func(*callOptions)

type callOptions struct {
	idempotencyKey string
	state          callState
}

// WithIdempotencyKey sends this Idempotency-Key instead of a fresh random one (the client
// sends one on every call that takes it, the same on each attempt): a repeat with the same
// key and body replays the recorded outcome instead of running again.
func WithIdempotencyKey(key string) CallOption {
	return func(o *callOptions) { o.idempotencyKey = key }
}

// WithEditor edits the HTTP request just before it is sent (after the default headers and
// the token are set), once per call.
func WithEditor(edit func(*http.Request) error) CallOption {
	return func(o *callOptions) { o.state.editors = append(o.state.editors, edit) }
}

// WithResponse stores the HTTP response that produced the call's result in *into (its status
// and headers; the body is already read). On error, the error carries them
// (APIError.StatusCode, ResponseHeader).
func WithResponse(into **http.Response) CallOption {
	return func(o *callOptions) { o.state.response = into }
}

func collect(ctx context.Context, opts []CallOption) (context.Context, *callOptions) {
	o := &callOptions{}
	for _, opt := range opts {
		opt(o)
	}
	return withCallState(ctx, &o.state), o
}

// key is the call's Idempotency-Key: the caller's, else a fresh UUID.
func (o *callOptions) key() OptString {
	if o.idempotencyKey != "" {
		return NewOptString(o.idempotencyKey)
	}
	return NewOptString(newIdempotencyKey())
}

// answer checks what a generated method returned: the success type, or an error.
func answer[T any](response any, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, answerError(err)
	}
	typed, ok := response.(T)
	if !ok {
		// Unreachable while problemTransport turns every error status into an error.
		return zero, &ClientError{Err: fmt.Errorf("unexpected response %T", response)}
	}
	return typed, nil
}

// GetHealth reports whether the host is serving (GET /healthz, no token needed).
func (c *HostClient) GetHealth(ctx context.Context, opts ...CallOption) (*Health, error) {
	ctx, _ = collect(ctx, opts)
	return answer[*Health](c.raw.GetHealth(ctx))
}

// GetDiscovery describes the host as this token sees it (GET /v1/discovery).
func (c *HostClient) GetDiscovery(ctx context.Context, opts ...CallOption) (*Discovery, error) {
	ctx, _ = collect(ctx, opts)
	return answer[*Discovery](c.raw.GetDiscovery(ctx))
}

// CreateSession creates a session at revision 0 (POST /v1/sessions).
func (c *HostClient) CreateSession(ctx context.Context, request *CreateSessionRequest, opts ...CallOption) (*CreateSessionResponse, error) {
	ctx, o := collect(ctx, opts)
	params := CreateSessionParams{IdempotencyKey: o.key()}
	return answer[*CreateSessionResponse](c.raw.CreateSession(ctx, request, params))
}

// ReadSession returns a session's metadata, instructions, visible history and turns.
func (c *HostClient) ReadSession(ctx context.Context, sessionID string, opts ...CallOption) (*ReadSessionResponse, error) {
	params := ReadSessionParams{SessionID: sessionID}
	ctx, _ = collect(ctx, opts)
	return answer[*ReadSessionResponse](c.raw.ReadSession(ctx, params))
}

// DeleteSession removes a session and aborts its active turn.
func (c *HostClient) DeleteSession(ctx context.Context, sessionID string, opts ...CallOption) error {
	params := DeleteSessionParams{SessionID: sessionID}
	ctx, _ = collect(ctx, opts)
	_, err := answer[*DeleteSessionNoContent](c.raw.DeleteSession(ctx, params))
	return err
}

// TruncateSession keeps the first KeepTurns recorded turns of a session, at its next revision.
func (c *HostClient) TruncateSession(ctx context.Context, sessionID string, request *TruncateSessionRequest, opts ...CallOption) (*CreateSessionResponse, error) {
	params := TruncateSessionParams{SessionID: sessionID}
	ctx, _ = collect(ctx, opts)
	return answer[*CreateSessionResponse](c.raw.TruncateSession(ctx, request, params))
}

// ForkSession copies a session up to a turn boundary into a new session on the same host
// (POST /v1/sessions/{sessionId}/fork): request.Revision is the boundary (unset, or a nil
// request: the current revision). The fork starts at that revision with the source's history,
// turns and native state up to it and its own accounting at zero; the source is unchanged and
// the two continue independently. An active turn is ErrSessionBusy (see WaitUntilIdle); a
// boundary the session no longer holds is a *SessionRevisionConflictError. Like CreateSession
// it sends one Idempotency-Key for all its attempts (WithIdempotencyKey gives yours).
func (c *HostClient) ForkSession(ctx context.Context, sessionID string, request *ForkSessionRequest, opts ...CallOption) (*CreateSessionResponse, error) {
	if request == nil {
		request = &ForkSessionRequest{}
	}
	ctx, o := collect(ctx, opts)
	params := ForkSessionParams{SessionID: sessionID, IdempotencyKey: o.key()}
	return answer[*CreateSessionResponse](c.raw.ForkSession(ctx, request, params))
}

// Run runs one turn, stateless or continuing a session (Session: NewOptSessionHandle(info.SessionHandle()));
// RunSession is the same for a session, with the session of its result unwrapped.
func (c *HostClient) Run(ctx context.Context, request *RunRequest, opts ...CallOption) (*RunResult, error) {
	ctx, o := collect(ctx, opts)
	params := RunParams{IdempotencyKey: o.key()}
	return answer[*RunResult](c.raw.Run(ctx, request, params))
}

// SessionRunResult is the result of a session run: Session, the session at its next revision, is
// always there (the embedded RunResult's Session holds the same, as an OptSessionInfo).
type SessionRunResult struct {
	*RunResult
	Session SessionInfo
}

// RunSession runs one turn of the session at handle (request.Session is set to it; the rest of
// request is as for Run). An answer without the session, which the contract rules out, is a
// *ClientError.
func (c *HostClient) RunSession(ctx context.Context, handle SessionHandle, request *RunRequest, opts ...CallOption) (*SessionRunResult, error) {
	sent := *request
	sent.Session = NewOptSessionHandle(handle)
	result, err := c.Run(ctx, &sent, opts...)
	if err != nil {
		return nil, err
	}
	session, ok := result.Session.Get()
	if !ok {
		return nil, &ClientError{Err: errors.New("a session run answered without its session")}
	}
	return &SessionRunResult{RunResult: result, Session: session}, nil
}

// SubmitRunActions answers a run waiting in requires_action (function results or approvals).
func (c *HostClient) SubmitRunActions(ctx context.Context, runID string, request *SubmitRunActionsRequest, opts ...CallOption) (*RunResult, error) {
	ctx, o := collect(ctx, opts)
	params := SubmitRunActionsParams{RunID: runID, IdempotencyKey: o.key()}
	return answer[*RunResult](c.raw.SubmitRunActions(ctx, request, params))
}

// CancelRun cancels an active run.
func (c *HostClient) CancelRun(ctx context.Context, runID string, opts ...CallOption) (*CancelRunResponse, error) {
	params := CancelRunParams{RunID: runID}
	ctx, _ = collect(ctx, opts)
	return answer[*CancelRunResponse](c.raw.CancelRun(ctx, params))
}

// GetRun reads a run's state and outcome (GET /v1/runs/{runId}): its status, its session at
// the current revision, its result once it completed or paused, its problem once it failed or
// was cancelled, and the ids of its first still-buffered and last events. Runs stay readable
// for the host's runs.retentionMs after they end: the way to reconcile a lost answer or a
// stream that could not be resumed (RUN_EVENTS_EXPIRED).
func (c *HostClient) GetRun(ctx context.Context, runID string, opts ...CallOption) (*RunState, error) {
	params := GetRunParams{RunID: runID}
	ctx, _ = collect(ctx, opts)
	return answer[*RunState](c.raw.GetRun(ctx, params))
}

// StreamRun runs one turn like Run and streams its events. It returns once the host accepted
// the run; a refusal is the error. ctx bounds the whole stream; Close the stream when done.
// A request with OnDisconnect continue is resumed when its connection drops (see EventStream).
func (c *HostClient) StreamRun(ctx context.Context, request *RunRequest, opts ...CallOption) (*EventStream, error) {
	ctx, o := collect(ctx, streamOptions(opts))
	params := StreamRunParams{IdempotencyKey: o.key()}
	send := func(ctx context.Context) (*http.Response, error) {
		var captured *http.Response
		_, err := c.raw.StreamRun(ctx, request, params, capture(&captured))
		return opened(captured, err)
	}
	return c.openStream(ctx, o, "", request.OnDisconnect, send)
}

// StreamRunActions answers a waiting run like SubmitRunActions and streams the rest of its
// events (their ids go on from the run's earlier ones). A request with OnDisconnect continue is
// resumed when its connection drops (see EventStream).
func (c *HostClient) StreamRunActions(ctx context.Context, runID string, request *SubmitRunActionsRequest, opts ...CallOption) (*EventStream, error) {
	ctx, o := collect(ctx, streamOptions(opts))
	params := StreamRunActionsParams{RunID: runID, IdempotencyKey: o.key()}
	send := func(ctx context.Context) (*http.Response, error) {
		var captured *http.Response
		_, err := c.raw.StreamRunActions(ctx, request, params, capture(&captured))
		return opened(captured, err)
	}
	return c.openStream(ctx, o, runID, request.OnDisconnect, send)
}

// openStream sends a streamed call's request and returns its stream, which resumes by itself when
// the request asked for OnDisconnect continue (runID: the run its path names, "" for StreamRun).
func (c *HostClient) openStream(ctx context.Context, o *callOptions, runID string, onDisconnect OptOnDisconnect,
	send func(context.Context) (*http.Response, error)) (*EventStream, error) {
	response, err := send(ctx)
	if err != nil {
		return nil, err
	}
	stream := newEventStream(response)
	if onDisconnect.Or(OnDisconnectCancel) == OnDisconnectContinue {
		stream.resume = c.resumer(ctx, o, runID, send)
	}
	return stream, nil
}

// StreamRunEvents reads a run's events after lastEventID (GET /v1/runs/{runId}/events with
// Last-Event-ID; "" reads from the run's first event), replayed with their original ids, then
// follows the run live until it completes, pauses or fails. Pass the LastEventID of the
// EventStream you read before. Reading never stops the run, so this stream is always resumed
// when its connection drops (see EventStream). Events no longer buffered are a
// *RunEventsExpiredError (errors.Is(err, ErrRunEventsExpired)): read the run with GetRun.
func (c *HostClient) StreamRunEvents(ctx context.Context, runID, lastEventID string, opts ...CallOption) (*EventStream, error) {
	ctx, o := collect(ctx, streamOptions(opts))
	params := StreamRunEventsParams{RunID: runID}
	if lastEventID != "" {
		params.LastEventID = NewOptString(lastEventID)
	}
	var captured *http.Response
	_, err := c.raw.StreamRunEvents(ctx, params, capture(&captured))
	response, err := opened(captured, err)
	if err != nil {
		return nil, err
	}
	stream := newEventStream(response)
	if after, numbered := eventNumber(lastEventID); numbered {
		stream.last = after
	}
	stream.resume = c.resumer(ctx, o, runID, nil)
	return stream, nil
}

// streamOptions asks for the event stream (whose body the transport leaves to EventStream,
// under the stream-idle timeout), and makes every request of the call share one followed 421.
func streamOptions(opts []CallOption) []CallOption {
	return append([]CallOption{func(o *callOptions) {
		o.state.route = &followedRoute{}
		o.state.editors = append(o.state.editors, func(request *http.Request) error {
			request.Header.Set("Accept", "text/event-stream")
			return nil
		})
	}}, opts...)
}

// capture keeps the streamed response for EventStream, which reads the events itself: the
// generated stream reader would resend the POST after a broken connection (a second run) and
// fails on event types it does not know, which the contract says to tolerate.
func capture(into **http.Response) RequestOption {
	return WithEditResponse(func(response *http.Response) error {
		*into = response
		return nil
	})
}

// opened is the streamed answer a generated stream method captured, or the call's error.
func opened(response *http.Response, err error) (*http.Response, error) {
	if err != nil {
		if response != nil && response.Body != nil {
			_ = response.Body.Close()
		}
		return nil, answerError(err)
	}
	if response == nil {
		return nil, &ClientError{Err: errors.New("no streamed response")}
	}
	return response, nil
}
