package agenticdriver

// Typed errors (hand-written). Every problem response (RFC 9457, application/problem+json)
// becomes a *ProblemError; each code of the catalogue (ErrorCode, generated from openapi.yaml)
// has a sentinel that errors.Is matches:
//
//	error
//	├── *ProblemError            a problem response: Status, Code, Detail and the code's fields
//	│     errors.Is(err, ErrSessionBusy), errors.Is(err, ErrSessionRevisionConflict), ...
//	├── *UnexpectedStatusError   an error status whose body is not a problem document
//	└── *StreamProtocolError     a malformed Server-Sent Event
//
// TestSentinelsCoverTheCatalogue fails when the spec gains a code without a sentinel here.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	ht "github.com/ogen-go/ogen/http"
)

// CodeError is the sentinel of one catalogue code: errors.Is(err, ErrSessionBusy) holds for
// every *ProblemError with that code.
type CodeError struct{ Code ErrorCode }

func (e *CodeError) Error() string { return string(e.Code) }

// The sentinel of every code in the catalogue (components.schemas.ErrorCode).
var (
	ErrUnauthenticated           = &CodeError{ErrorCodeUNAUTHENTICATED}
	ErrPermissionDenied          = &CodeError{ErrorCodePERMISSIONDENIED}
	ErrSessionNotFound           = &CodeError{ErrorCodeSESSIONNOTFOUND}
	ErrRunNotFound               = &CodeError{ErrorCodeRUNNOTFOUND}
	ErrProviderNotFound          = &CodeError{ErrorCodePROVIDERNOTFOUND}
	ErrModelNotFound             = &CodeError{ErrorCodeMODELNOTFOUND}
	ErrRouteNotFound             = &CodeError{ErrorCodeROUTENOTFOUND}
	ErrMethodNotAllowed          = &CodeError{ErrorCodeMETHODNOTALLOWED}
	ErrSessionRevisionConflict   = &CodeError{ErrorCodeSESSIONREVISIONCONFLICT}
	ErrSessionBusy               = &CodeError{ErrorCodeSESSIONBUSY}
	ErrSessionInterrupted        = &CodeError{ErrorCodeSESSIONINTERRUPTED}
	ErrSessionAccountRequired    = &CodeError{ErrorCodeSESSIONACCOUNTREQUIRED}
	ErrRunCancelled              = &CodeError{ErrorCodeRUNCANCELLED}
	ErrRunNotWaiting             = &CodeError{ErrorCodeRUNNOTWAITING}
	ErrIdempotencyKeyInUse       = &CodeError{ErrorCodeIDEMPOTENCYKEYINUSE}
	ErrPayloadTooLarge           = &CodeError{ErrorCodePAYLOADTOOLARGE}
	ErrUnsupportedMediaType      = &CodeError{ErrorCodeUNSUPPORTEDMEDIATYPE}
	ErrValidationError           = &CodeError{ErrorCodeVALIDATIONERROR}
	ErrUnsupportedContinuation   = &CodeError{ErrorCodeUNSUPPORTEDCONTINUATION}
	ErrSessionContextUnsupported = &CodeError{ErrorCodeSESSIONCONTEXTUNSUPPORTED}
	ErrSessionOverrideRejected   = &CodeError{ErrorCodeSESSIONOVERRIDEREJECTED}
	ErrSessionLimitExceeded      = &CodeError{ErrorCodeSESSIONLIMITEXCEEDED}
	ErrActionMismatch            = &CodeError{ErrorCodeACTIONMISMATCH}
	ErrIdempotencyKeyReused      = &CodeError{ErrorCodeIDEMPOTENCYKEYREUSED}
	ErrToolNameConflict          = &CodeError{ErrorCodeTOOLNAMECONFLICT}
	ErrInternalError             = &CodeError{ErrorCodeINTERNALERROR}
	ErrSessionsDisabled          = &CodeError{ErrorCodeSESSIONSDISABLED}
	ErrProviderError             = &CodeError{ErrorCodePROVIDERERROR}
	ErrSessionStoreFull          = &CodeError{ErrorCodeSESSIONSTOREFULL}
	ErrHostBusy                  = &CodeError{ErrorCodeHOSTBUSY}
	ErrProviderTimeout           = &CodeError{ErrorCodePROVIDERTIMEOUT}
	ErrProviderRateLimited       = &CodeError{ErrorCodePROVIDERRATELIMITED}
	ErrProviderOverloaded        = &CodeError{ErrorCodePROVIDEROVERLOADED}
	ErrProviderAuthFailed        = &CodeError{ErrorCodePROVIDERAUTHFAILED}
	ErrProviderRejected          = &CodeError{ErrorCodePROVIDERREJECTED}
	ErrSessionPrefixChanged      = &CodeError{ErrorCodeSESSIONPREFIXCHANGED}
	ErrShuttingDown              = &CodeError{ErrorCodeSHUTTINGDOWN}
	ErrHeadersTooLarge           = &CodeError{ErrorCodeHEADERSTOOLARGE}
	ErrRequestTimeout            = &CodeError{ErrorCodeREQUESTTIMEOUT}
)

var sentinels = map[ErrorCode]*CodeError{}

func init() {
	for _, sentinel := range []*CodeError{
		ErrUnauthenticated, ErrPermissionDenied, ErrSessionNotFound, ErrRunNotFound, ErrProviderNotFound,
		ErrModelNotFound, ErrRouteNotFound, ErrMethodNotAllowed, ErrSessionRevisionConflict, ErrSessionBusy,
		ErrSessionInterrupted, ErrSessionAccountRequired, ErrRunCancelled, ErrRunNotWaiting,
		ErrIdempotencyKeyInUse, ErrPayloadTooLarge, ErrUnsupportedMediaType, ErrValidationError,
		ErrUnsupportedContinuation, ErrSessionContextUnsupported, ErrSessionOverrideRejected,
		ErrSessionLimitExceeded, ErrActionMismatch, ErrIdempotencyKeyReused, ErrToolNameConflict, ErrInternalError,
		ErrSessionsDisabled, ErrProviderError, ErrSessionStoreFull, ErrHostBusy, ErrProviderTimeout,
		ErrProviderRateLimited, ErrProviderOverloaded, ErrProviderAuthFailed, ErrProviderRejected, ErrSessionPrefixChanged, ErrShuttingDown, ErrHeadersTooLarge, ErrRequestTimeout,
	} {
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
// get the fields with errors.As(err, &problem).
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
	// CurrentRevision (SESSION_REVISION_CONFLICT): the session's current revision.
	CurrentRevision OptInt
	// ActiveRunID (SESSION_BUSY): the run that holds the session.
	ActiveRunID string
	// RetryAfterSeconds: the body's field, else the Retry-After header, where waiting helps.
	RetryAfterSeconds OptInt
	// Limit and Maximum: the bound that was hit, by its host setting name, and its value.
	Limit   string
	Maximum OptInt
	// Reason (RUN_CANCELLED): cancelled, session_deleted or disconnected.
	Reason string
	// Errors (VALIDATION_ERROR): every problem found in the request.
	Errors []ValidationIssue
	// Body is the problem document as sent.
	Body json.RawMessage
}

func (e *ProblemError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Detail)
}

// Is reports whether target is the sentinel of this problem's code.
func (e *ProblemError) Is(target error) bool {
	sentinel, ok := target.(*CodeError)
	return ok && sentinel.Code == e.Code
}

// Known reports whether the code is in this client's catalogue.
func (e *ProblemError) Known() bool {
	_, ok := sentinels[e.Code]
	return ok
}

// UnexpectedStatusError is an error status whose body is not a problem document.
type UnexpectedStatusError struct {
	Status int
	Body   []byte
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

func (e *StreamProtocolError) Unwrap() error { return e.Err }

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
		CurrentRevision:   optInt(wire.CurrentRevision),
		ActiveRunID:       wire.ActiveRunID,
		RetryAfterSeconds: optInt(wire.RetryAfterSeconds),
		Limit:             wire.Limit,
		Maximum:           optInt(wire.Maximum),
		Reason:            wire.Reason,
		Errors:            wire.Errors,
		Body:              append(json.RawMessage(nil), body...),
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

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 1 << 20

// problemTransport turns every error status into an error before the generated decoders see it:
// a *ProblemError for a problem document (whatever its code), else an *UnexpectedStatusError.
// It sits under the generated client (WithClient), so Raw() callers get the same errors.
type problemTransport struct{ next ht.Client }

func (t problemTransport) Do(request *http.Request) (*http.Response, error) {
	response, err := t.next.Do(request)
	if err != nil || response.StatusCode < 400 {
		return response, err
	}
	defer response.Body.Close()
	body, err := io.ReadAll(io.LimitReader(response.Body, maxErrorBody))
	if err != nil {
		return nil, fmt.Errorf("reading the %d answer: %w", response.StatusCode, err)
	}
	if problem, ok := ParseProblem(response.StatusCode, response.Header, bytes.TrimSpace(body)); ok {
		return nil, problem
	}
	return nil, &UnexpectedStatusError{Status: response.StatusCode, Body: body}
}

// answerError returns the *ProblemError or *UnexpectedStatusError inside a generated method's
// error unwrapped (the generated code adds context such as "do request: "), else err itself.
func answerError(err error) error {
	var problem *ProblemError
	if errors.As(err, &problem) {
		return problem
	}
	var unexpected *UnexpectedStatusError
	if errors.As(err, &unexpected) {
		return unexpected
	}
	return err
}
