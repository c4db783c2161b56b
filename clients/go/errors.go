package agenticdriver

// Typed errors (hand-written): one tree, rooted at the Error interface (../BEHAVIOUR.md, Errors).
//
//	Error                          every error this client returns (errors.As(err, &agenticdriver.Error))
//	├── *ConnectionError           no answer: refused, reset, closed, DNS, TLS (Err: the net error)
//	│   └── *TimeoutError          connect, read or stream-idle timeout (errors.As also finds its *ConnectionError)
//	├── APIError                   an answer with an error status: StatusCode(), ResponseHeader()
//	│   ├── *ProblemError          a problem document: Status, Code, Detail, Header, Body, ...
//	│   │   ├── *SessionRevisionConflictError   .CurrentRevision (int)
//	│   │   ├── *SessionBusyError               .ActiveRunID (string)
//	│   │   ├── *MisdirectedRequestError        .HostID, .OwnerHostID (string)
//	│   │   ├── *HostUnavailableError           .OwnerHostID (string; empty: no host takes new work)
//	│   │   └── *RunEventsExpiredError          .FirstEventID (int)
//	│   │     every code also matches its sentinel: errors.Is(err, ErrSessionBusy), ...
//	│   └── *UnexpectedStatusError  an error status whose body is not a problem document (a proxy's page)
//	├── *StreamProtocolError       a malformed Server-Sent Event
//	└── *ClientError               a request that could not be built, a success answer that could not be read
//
// A caller's own cancellation or deadline is returned as ctx.Err() (context.Canceled,
// context.DeadlineExceeded), never retried.
//
// TestSentinelsCoverTheCatalogue fails when the spec gains a code without a sentinel here.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Error is the root of this client's errors: every error it returns, except the caller's own
// context cancellation, satisfies errors.As(err, &target) with var target agenticdriver.Error.
type Error interface {
	error
	agenticDriverError()
}

// APIError is an answer with an error status: a *ProblemError (or one of its typed forms) or
// an *UnexpectedStatusError.
type APIError interface {
	Error
	// StatusCode is the HTTP status of the answer.
	StatusCode() int
	// ResponseHeader is the answer's headers (X-Request-Id, Retry-After, x-should-retry, ...).
	ResponseHeader() http.Header
}

// ConnectionPhase says how far an attempt got before its connection failed.
type ConnectionPhase string

const (
	// PhaseConnect: the connection could not be opened (retried).
	PhaseConnect ConnectionPhase = "connect"
	// PhaseResponse: the request may have been sent, no answer head arrived (retried).
	PhaseResponse ConnectionPhase = "response"
	// PhaseBody: the head arrived, the JSON body did not (not retried).
	PhaseBody ConnectionPhase = "body"
	// PhaseToken: the token source failed or gave a token a header cannot carry; nothing was sent
	// (not retried; the source's error is wrapped).
	PhaseToken ConnectionPhase = "token"
	// PhaseStream: an event stream broke after its 200 head (never retried: read the session; a
	// stream of a run sent with onDisconnect continue is resumed instead, see EventStream).
	PhaseStream ConnectionPhase = "stream"
)

// ConnectionError is a failure with no (complete) answer. Err is the underlying net error.
type ConnectionError struct {
	Method string
	Path   string
	Phase  ConnectionPhase
	Err    error
}

func (e *ConnectionError) Error() string {
	return fmt.Sprintf("agenticdriver: %s %s: connection failed (%s): %v", e.Method, e.Path, e.Phase, e.Err)
}

func (e *ConnectionError) Unwrap() error     { return e.Err }
func (*ConnectionError) agenticDriverError() {}

// Retryable reports whether the policy retries this failure (before any answer arrived).
func (e *ConnectionError) Retryable() bool {
	return e.Phase == PhaseConnect || e.Phase == PhaseResponse
}

// TimeoutPhase names the timeout that expired.
type TimeoutPhase string

const (
	TimeoutConnect    TimeoutPhase = "connect"
	TimeoutRead       TimeoutPhase = "read"
	TimeoutStreamIdle TimeoutPhase = "stream-idle"
	// TimeoutWaitIdle: WaitUntilIdle's bound passed while the session was still running.
	TimeoutWaitIdle TimeoutPhase = "wait-until-idle"
)

// TimeoutError is a timeout of the client's own (connect, read, stream idle, or the busy
// helper's bound). It is a kind of connection error: errors.As(err, &connErr) also holds.
type TimeoutError struct {
	Phase TimeoutPhase
	// Limit is the timeout that expired.
	Limit time.Duration
	ConnectionError
}

func (e *TimeoutError) Error() string {
	if e.Phase == TimeoutWaitIdle {
		return fmt.Sprintf("agenticdriver: session %s still running after %s", e.Path, e.Limit)
	}
	return fmt.Sprintf("agenticdriver: %s %s: %s timeout after %s", e.Method, e.Path, e.Phase, e.Limit)
}

// Timeout reports true (as net.Error does).
func (e *TimeoutError) Timeout() bool { return true }

// As lets errors.As find the *ConnectionError a timeout is.
func (e *TimeoutError) As(target any) bool {
	if connection, ok := target.(**ConnectionError); ok {
		*connection = &e.ConnectionError
		return true
	}
	return false
}

// CodeError is the sentinel of one catalogue code: errors.Is(err, ErrSessionBusy) holds for
// every *ProblemError with that code.
type CodeError struct{ Code ErrorCode }

func (e *CodeError) Error() string { return string(e.Code) }

// GroupError is the sentinel of a group of codes, the same groups in every client: ErrNotFound,
// ErrConflict, ErrUnprocessable, ErrProviderFailed (the provider failed after model work started)
// and ErrRetryLater (the host takes no new work now). errors.Is(err, ErrProviderFailed) holds for
// every *ProblemError whose code is in the group (codes_gen.go, from openapi.yaml's x-error-table).
type GroupError struct{ Name string }

func (e *GroupError) Error() string { return e.Name }

// sentinels indexes the generated sentinels (codes_gen.go, from openapi.yaml's x-error-table) by code.
var sentinels = map[ErrorCode]*CodeError{}

func init() {
	for _, sentinel := range allSentinels {
		sentinels[sentinel.Code] = sentinel
	}
}

// Sentinel returns the sentinel error of a catalogue code, or nil for a code this client does not know.
func Sentinel(code ErrorCode) error {
	if sentinel, ok := sentinels[code]; ok {
		return sentinel
	}
	return nil
}

// ProblemError is a problem response. Match its code with errors.Is(err, ErrSessionBusy), or
// get the fields with errors.As(err, &problem). SESSION_REVISION_CONFLICT and SESSION_BUSY
// arrive as *SessionRevisionConflictError and *SessionBusyError, which unwrap to this (as do the
// other typed forms of the tree above).
type ProblemError struct {
	// Status is the HTTP status.
	Status int
	// Code is the stable machine-readable code (it may be one this client does not know).
	Code ErrorCode
	// Detail says what happened, for a person.
	Detail string
	Title  string
	// Type is urn:agentic-driver:problem:<code>.
	Type     string
	Instance string
	// RetryAfterSeconds: the body's field, else the Retry-After header, where waiting helps.
	RetryAfterSeconds OptInt
	// Limit and Maximum: the bound that was hit, by its host setting name, and its value.
	Limit   string
	Maximum OptInt
	// Reason (RUN_CANCELLED): cancelled, session_deleted or disconnected.
	Reason string
	// Errors (VALIDATION_ERROR): every problem found in the request.
	Errors []ValidationIssue
	// Header is the answer's headers. RequestID is the host's id for the request: its X-Request-Id,
	// else the problem's requestId (a stream's problem has no headers); host logs and spans carry it.
	Header    http.Header
	RequestID string
	// Body is the problem document as sent.
	Body json.RawMessage
}

func (*ProblemError) agenticDriverError() {}

// StatusCode is the HTTP status.
func (e *ProblemError) StatusCode() int { return e.Status }

// ResponseHeader is the answer's headers (never nil).
func (e *ProblemError) ResponseHeader() http.Header {
	if e.Header == nil {
		return http.Header{}
	}
	return e.Header
}

// RetryAfter is how long the host asked to wait, when it did.
func (e *ProblemError) RetryAfter() (time.Duration, bool) {
	return retryAfter(e.ResponseHeader(), e)
}

// SessionRevisionConflictError is SESSION_REVISION_CONFLICT: the handle's revision is stale.
// Re-read the session (or use CurrentRevision) before sending the next turn.
type SessionRevisionConflictError struct {
	*ProblemError
	// CurrentRevision is the session's current revision (always sent with this code).
	CurrentRevision int
}

func (e *SessionRevisionConflictError) Unwrap() error { return e.ProblemError }

// SessionBusyError is SESSION_BUSY: another turn of the session is active. Do not resend the
// same handle; call WaitUntilIdle(ctx, id, WithBusyError(err)) and decide from its read.
type SessionBusyError struct {
	*ProblemError
	// ActiveRunID is the run that holds the session (always sent with this code).
	ActiveRunID string
}

func (e *SessionBusyError) Unwrap() error { return e.ProblemError }

// MisdirectedRequestError is MISDIRECTED_REQUEST (421): host HostID answered for a session or
// run that host OwnerHostID owns, and did nothing. The client already sent the request once
// more to the owner (Agentic-Host); this is the second 421 of the call: check that the proxy
// routes on Agentic-Host.
type MisdirectedRequestError struct {
	*ProblemError
	// HostID is the host that answered (always sent with this code).
	HostID string
	// OwnerHostID is the host that owns the session or run (always sent with this code).
	OwnerHostID string
}

func (e *MisdirectedRequestError) Unwrap() error { return e.ProblemError }

// HostUnavailableError is HOST_UNAVAILABLE (503, from the proxy): host OwnerHostID, which owns
// the session or run, is down. Retried after Retry-After like HOST_BUSY; sessions never move,
// and once back that host answers SESSION_NOT_FOUND for the sessions it lost.
type HostUnavailableError struct {
	*ProblemError
	// OwnerHostID is the host the request was for; empty when the request named no session or
	// run and no host behind the proxy takes new work.
	OwnerHostID string
}

func (e *HostUnavailableError) Unwrap() error { return e.ProblemError }

// RunEventsExpiredError is RUN_EVENTS_EXPIRED (410, from StreamRunEvents or a stream's resume):
// the run's events after the Last-Event-ID sent outgrew the host's buffer. Read the run's outcome
// with GetRun, or rejoin from FirstEventID-1 accepting the gap.
type RunEventsExpiredError struct {
	*ProblemError
	// FirstEventID is the oldest of the run's events the host still holds (always sent with this code).
	FirstEventID int
}

func (e *RunEventsExpiredError) Unwrap() error { return e.ProblemError }

func (e *ProblemError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Detail)
}

// Is reports whether target is the sentinel of this problem's code, or of its code's group.
func (e *ProblemError) Is(target error) bool {
	switch sentinel := target.(type) {
	case *CodeError:
		return sentinel.Code == e.Code
	case *GroupError:
		return codeGroups[e.Code] == sentinel
	}
	return false
}

// Known reports whether the code is in this client's catalogue.
func (e *ProblemError) Known() bool {
	_, ok := sentinels[e.Code]
	return ok
}

// UnexpectedStatusError is an error status whose body is not a problem document.
type UnexpectedStatusError struct {
	Status    int
	Header    http.Header
	RequestID string
	Body      []byte
}

func (*UnexpectedStatusError) agenticDriverError() {}

// StatusCode is the HTTP status.
func (e *UnexpectedStatusError) StatusCode() int { return e.Status }

// ResponseHeader is the answer's headers (never nil).
func (e *UnexpectedStatusError) ResponseHeader() http.Header {
	if e.Header == nil {
		return http.Header{}
	}
	return e.Header
}

func (e *UnexpectedStatusError) Error() string {
	body := string(e.Body)
	if len(body) > 200 {
		body = body[:200]
	}
	return fmt.Sprintf("unexpected %d answer: %s", e.Status, body)
}

// StreamProtocolError is a Server-Sent Event whose data is not a JSON object with a string type.
type StreamProtocolError struct {
	Event string
	Data  string
	Err   error
}

func (e *StreamProtocolError) Error() string {
	return fmt.Sprintf("malformed %q event: %v", e.Event, e.Err)
}

func (e *StreamProtocolError) Unwrap() error     { return e.Err }
func (*StreamProtocolError) agenticDriverError() {}

// wireProblem decodes a problem leniently: Code stays a string, so a newer code still parses.
type wireProblem struct {
	Type              string            `json:"type"`
	Title             string            `json:"title"`
	Status            int               `json:"status"`
	Code              *string           `json:"code"`
	Detail            *string           `json:"detail"`
	Instance          string            `json:"instance"`
	CurrentRevision   *int              `json:"currentRevision"`
	ActiveRunID       string            `json:"activeRunId"`
	RetryAfterSeconds *int              `json:"retryAfterSeconds"`
	Limit             string            `json:"limit"`
	Maximum           *int              `json:"maximum"`
	Reason            string            `json:"reason"`
	Errors            []ValidationIssue `json:"errors"`
	HostID            string            `json:"hostId"`
	OwnerHostID       string            `json:"ownerHostId"`
	FirstEventID      *int              `json:"firstEventId"`
	RequestID         string            `json:"requestId"`
}

func optInt(value *int) OptInt {
	if value == nil {
		return OptInt{}
	}
	return NewOptInt(*value)
}

// ParseProblem reads a problem document; ok is false when body is not one.
func ParseProblem(status int, header http.Header, body []byte) (problem *ProblemError, ok bool) {
	var wire wireProblem
	if err := json.Unmarshal(body, &wire); err != nil || wire.Code == nil || wire.Detail == nil {
		return nil, false
	}
	problem = &ProblemError{
		Status:            status,
		Code:              ErrorCode(*wire.Code),
		Detail:            *wire.Detail,
		Title:             wire.Title,
		Type:              wire.Type,
		Instance:          wire.Instance,
		RetryAfterSeconds: optInt(wire.RetryAfterSeconds),
		Limit:             wire.Limit,
		Maximum:           optInt(wire.Maximum),
		Reason:            wire.Reason,
		Errors:            wire.Errors,
		Header:            header,
		RequestID:         wire.RequestID,
		Body:              append(json.RawMessage(nil), body...),
	}
	if header != nil && header.Get("X-Request-Id") != "" {
		problem.RequestID = header.Get("X-Request-Id")
	}
	if !problem.RetryAfterSeconds.Set && header != nil {
		if seconds, err := strconv.Atoi(strings.TrimSpace(header.Get("Retry-After"))); err == nil {
			problem.RetryAfterSeconds = NewOptInt(seconds)
		}
	}
	return problem, true
}

// FromProblem converts a problem carried inside a document (a run.failed event) into a *ProblemError.
func FromProblem(problem Problem) *ProblemError {
	body, _ := problem.MarshalJSON()
	parsed, ok := ParseProblem(problem.Status, nil, body)
	if !ok {
		return &ProblemError{Status: problem.Status, Code: problem.Code, Detail: problem.Detail, Body: body}
	}
	return parsed
}

// typed returns the problem as its typed form where the code has one (its guaranteed field
// present), else the *ProblemError itself.
func typed(problem *ProblemError) Error {
	var wire wireProblem
	_ = json.Unmarshal(problem.Body, &wire)
	switch problem.Code {
	case ErrorCodeSESSIONREVISIONCONFLICT:
		if wire.CurrentRevision != nil {
			return &SessionRevisionConflictError{ProblemError: problem, CurrentRevision: *wire.CurrentRevision}
		}
	case ErrorCodeSESSIONBUSY:
		if wire.ActiveRunID != "" {
			return &SessionBusyError{ProblemError: problem, ActiveRunID: wire.ActiveRunID}
		}
	case ErrorCodeMISDIRECTEDREQUEST:
		if wire.HostID != "" && wire.OwnerHostID != "" {
			return &MisdirectedRequestError{ProblemError: problem, HostID: wire.HostID, OwnerHostID: wire.OwnerHostID}
		}
	case ErrorCodeHOSTUNAVAILABLE:
		// Without ownerHostId the request named no session or run: no host behind the proxy takes new work.
		return &HostUnavailableError{ProblemError: problem, OwnerHostID: wire.OwnerHostID}
	case ErrorCodeRUNEVENTSEXPIRED:
		if wire.FirstEventID != nil {
			return &RunEventsExpiredError{ProblemError: problem, FirstEventID: *wire.FirstEventID}
		}
	}
	return problem
}

// answerErrorOf is the error of an error status: the typed problem, or an *UnexpectedStatusError.
func answerErrorOf(status int, header http.Header, body []byte) Error {
	if problem, ok := ParseProblem(status, header, bytes.TrimSpace(body)); ok {
		return typed(problem)
	}
	return &UnexpectedStatusError{Status: status, Header: header, RequestID: header.Get("X-Request-Id"), Body: body}
}

// answerError returns the error of this client's tree inside a generated method's error
// unwrapped (the generated code adds context such as "do request: "), the caller's context
// error as itself, else err itself.
func answerError(err error) error {
	var ours Error
	if errors.As(err, &ours) {
		return ours
	}
	for _, ctxErr := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, ctxErr) {
			return ctxErr
		}
	}
	return &ClientError{Err: err}
}

// ClientError is a request this client could not build (a WithEditor function failed, say)
// or a success answer it could not read into its type. Err says what.
type ClientError struct{ Err error }

func (e *ClientError) Error() string     { return "agenticdriver: " + e.Err.Error() }
func (e *ClientError) Unwrap() error     { return e.Err }
func (*ClientError) agenticDriverError() {}
