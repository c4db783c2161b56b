package agenticdriver

// The hand-written client: one method per operation, over the generated (ogen) Client.

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	ht "github.com/ogen-go/ogen/http"
	"github.com/ogen-go/ogen/ogenerrors"
)

// HostClient talks to one Agentic Driver host. Each method is one operation of openapi.yaml
// (named after its operationId); it returns the success body, or an error that is a
// *ProblemError for a problem response (match it with errors.Is(err, ErrSessionBusy), read it
// with errors.As). Safe for concurrent use.
type HostClient struct {
	raw *Client
}

// HostOption configures New.
type HostOption func(*hostOptions)

type hostOptions struct {
	httpClient ht.Client
}

// WithHTTPClient sets the HTTP client (http.DefaultClient by default). Its timeout also bounds
// streamed runs, so prefer contexts for deadlines.
func WithHTTPClient(client ht.Client) HostOption {
	return func(o *hostOptions) { o.httpClient = client }
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

// New returns a client of the host at baseURL (for example http://127.0.0.1:8080) that sends
// token as its bearer token.
func New(baseURL, token string, opts ...HostOption) (*HostClient, error) {
	o := hostOptions{httpClient: http.DefaultClient}
	for _, opt := range opts {
		opt(&o)
	}
	raw, err := NewClient(baseURL, bearerToken(token), WithClient(problemTransport{next: o.httpClient}))
	if err != nil {
		return nil, err
	}
	return &HostClient{raw: raw}, nil
}

// Raw is the generated client this one wraps. Its methods return the generated response
// types; error statuses reach them as *ProblemError errors, like here.
func (c *HostClient) Raw() *Client { return c.raw }

// CallOption adjusts one call.
type CallOption func(*callOptions)

type callOptions struct {
	idempotencyKey OptString
	edits          []func(*http.Request) error
}

// WithIdempotencyKey sends an Idempotency-Key: a repeat with the same key and body replays the
// recorded outcome instead of running again.
func WithIdempotencyKey(key string) CallOption {
	return func(o *callOptions) { o.idempotencyKey = NewOptString(key) }
}

// WithEditor edits the HTTP request just before it is sent (after the bearer token is set).
func WithEditor(edit func(*http.Request) error) CallOption {
	return func(o *callOptions) { o.edits = append(o.edits, edit) }
}

func collect(opts []CallOption) callOptions {
	var o callOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

func (o callOptions) request(extra ...func(*http.Request) error) []RequestOption {
	edits := append(append([]func(*http.Request) error(nil), o.edits...), extra...)
	if len(edits) == 0 {
		return nil
	}
	return []RequestOption{WithEditRequest(func(request *http.Request) error {
		for _, edit := range edits {
			if err := edit(request); err != nil {
				return err
			}
		}
		return nil
	})}
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
		return zero, fmt.Errorf("agenticdriver: unexpected response %T", response)
	}
	return typed, nil
}

// GetHealth reports whether the host is serving (GET /healthz, no token needed).
func (c *HostClient) GetHealth(ctx context.Context, opts ...CallOption) (*Health, error) {
	return answer[*Health](c.raw.GetHealth(ctx, collect(opts).request()...))
}

// GetDiscovery describes the host as this token sees it (GET /v1/discovery).
func (c *HostClient) GetDiscovery(ctx context.Context, opts ...CallOption) (*Discovery, error) {
	return answer[*Discovery](c.raw.GetDiscovery(ctx, collect(opts).request()...))
}

// CreateSession creates a session at revision 0 (POST /v1/sessions).
func (c *HostClient) CreateSession(ctx context.Context, request *CreateSessionRequest, opts ...CallOption) (*CreateSessionResponse, error) {
	o := collect(opts)
	params := CreateSessionParams{IdempotencyKey: o.idempotencyKey}
	return answer[*CreateSessionResponse](c.raw.CreateSession(ctx, request, params, o.request()...))
}

// ReadSession returns a session's metadata, instructions, visible history and turns.
func (c *HostClient) ReadSession(ctx context.Context, sessionID string, opts ...CallOption) (*ReadSessionResponse, error) {
	params := ReadSessionParams{SessionID: sessionID}
	return answer[*ReadSessionResponse](c.raw.ReadSession(ctx, params, collect(opts).request()...))
}

// DeleteSession removes a session and aborts its active turn.
func (c *HostClient) DeleteSession(ctx context.Context, sessionID string, opts ...CallOption) error {
	params := DeleteSessionParams{SessionID: sessionID}
	_, err := answer[*DeleteSessionNoContent](c.raw.DeleteSession(ctx, params, collect(opts).request()...))
	return err
}

// TruncateSession keeps the first KeepTurns recorded turns of a session, at its next revision.
func (c *HostClient) TruncateSession(ctx context.Context, sessionID string, request *TruncateSessionRequest, opts ...CallOption) (*CreateSessionResponse, error) {
	params := TruncateSessionParams{SessionID: sessionID}
	return answer[*CreateSessionResponse](c.raw.TruncateSession(ctx, request, params, collect(opts).request()...))
}

// Run runs one turn, stateless or continuing a session (Session: NewOptSessionHandle(info.SessionHandle())).
func (c *HostClient) Run(ctx context.Context, request *RunRequest, opts ...CallOption) (*RunResult, error) {
	o := collect(opts)
	params := RunParams{IdempotencyKey: o.idempotencyKey}
	return answer[*RunResult](c.raw.Run(ctx, request, params, o.request()...))
}

// SubmitRunActions answers a run waiting in requires_action (function results or approvals).
func (c *HostClient) SubmitRunActions(ctx context.Context, runID string, request *SubmitRunActionsRequest, opts ...CallOption) (*RunResult, error) {
	o := collect(opts)
	params := SubmitRunActionsParams{RunID: runID, IdempotencyKey: o.idempotencyKey}
	return answer[*RunResult](c.raw.SubmitRunActions(ctx, request, params, o.request()...))
}

// CancelRun cancels an active run.
func (c *HostClient) CancelRun(ctx context.Context, runID string, opts ...CallOption) (*CancelRunResponse, error) {
	params := CancelRunParams{RunID: runID}
	return answer[*CancelRunResponse](c.raw.CancelRun(ctx, params, collect(opts).request()...))
}

// StreamRun runs one turn like Run and streams its events. It returns once the host accepted
// the run; a refusal is the error. ctx bounds the whole stream; Close the stream when done.
func (c *HostClient) StreamRun(ctx context.Context, request *RunRequest, opts ...CallOption) (*EventStream, error) {
	o := collect(opts)
	var captured *http.Response
	params := StreamRunParams{IdempotencyKey: o.idempotencyKey}
	_, err := c.raw.StreamRun(ctx, request, params, append(o.request(acceptEventStream), capture(&captured))...)
	return streamOf(captured, err)
}

// StreamRunActions answers a waiting run like SubmitRunActions and streams the rest of its events.
func (c *HostClient) StreamRunActions(ctx context.Context, runID string, request *SubmitRunActionsRequest, opts ...CallOption) (*EventStream, error) {
	o := collect(opts)
	var captured *http.Response
	params := StreamRunActionsParams{RunID: runID, IdempotencyKey: o.idempotencyKey}
	_, err := c.raw.StreamRunActions(ctx, request, params, append(o.request(acceptEventStream), capture(&captured))...)
	return streamOf(captured, err)
}

func acceptEventStream(request *http.Request) error {
	request.Header.Set("Accept", "text/event-stream")
	return nil
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

func streamOf(response *http.Response, err error) (*EventStream, error) {
	if err != nil {
		if response != nil && response.Body != nil {
			_ = response.Body.Close()
		}
		return nil, answerError(err)
	}
	if response == nil {
		return nil, errors.New("agenticdriver: no streamed response")
	}
	return newEventStream(response), nil
}
