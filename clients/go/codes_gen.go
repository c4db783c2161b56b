// Code generated from openapi.yaml's ErrorCode x-error-table by generator/error_table.py. DO NOT EDIT.

package agenticdriver

// The sentinel of every code in the catalogue: errors.Is(err, ErrSessionBusy) holds for every
// *ProblemError with that code.
var (
	// ErrUnauthenticated: 401 UNAUTHENTICATED. Send Authorization: Bearer <token> with a token
	// configured on the host or a valid JWT from a trusted issuer; WWW-Authenticate's
	// error_description says why a token was refused (e.g. expired).
	ErrUnauthenticated = &CodeError{ErrorCodeUNAUTHENTICATED}
	// ErrPermissionDenied: 403 PERMISSION_DENIED. The token lacks the session grant (create, read,
	// continue, delete) or the provider; ask the operator.
	ErrPermissionDenied = &CodeError{ErrorCodePERMISSIONDENIED}
	// ErrSessionNotFound: 404 SESSION_NOT_FOUND. Unknown, expired, deleted, or not yours (also: wrong
	// provider/model for it, or its provider's account binding changed). Start a new session.
	ErrSessionNotFound = &CodeError{ErrorCodeSESSIONNOTFOUND}
	// ErrRunNotFound: 404 RUN_NOT_FOUND. The run is not yours, or it ended (nothing to cancel or
	// answer) and, past runs.retentionMs, is no longer readable either: read its session for the
	// outcome.
	ErrRunNotFound = &CodeError{ErrorCodeRUNNOTFOUND}
	// ErrProviderNotFound: 404 PROVIDER_NOT_FOUND. Check GET /v1/discovery for the instances and
	// models you may use.
	ErrProviderNotFound = &CodeError{ErrorCodePROVIDERNOTFOUND}
	// ErrModelNotFound: 404 MODEL_NOT_FOUND. Check GET /v1/discovery for the instances and models you
	// may use.
	ErrModelNotFound = &CodeError{ErrorCodeMODELNOTFOUND}
	// ErrRouteNotFound: 404 ROUTE_NOT_FOUND. Outside the contract: check the path and method.
	ErrRouteNotFound = &CodeError{ErrorCodeROUTENOTFOUND}
	// ErrMethodNotAllowed: 405 METHOD_NOT_ALLOWED. Outside the contract: check the path and method.
	ErrMethodNotAllowed = &CodeError{ErrorCodeMETHODNOTALLOWED}
	// ErrSessionRevisionConflict: 409 SESSION_REVISION_CONFLICT. Your revision is stale
	// (currentRevision says the current one; x-should-retry: false). Read the session, reconcile,
	// retry with the current revision.
	ErrSessionRevisionConflict = &CodeError{ErrorCodeSESSIONREVISIONCONFLICT}
	// ErrSessionBusy: 409 SESSION_BUSY. Another turn is active (activeRunId); wait Retry-After seconds
	// and retry, or cancel that run.
	ErrSessionBusy = &CodeError{ErrorCodeSESSIONBUSY}
	// ErrSessionInterrupted: 409 SESSION_INTERRUPTED. A turn stopped after model work started. Read
	// the session (interruptedTurn), reconcile side effects, create a new session with the history you
	// choose.
	ErrSessionInterrupted = &CodeError{ErrorCodeSESSIONINTERRUPTED}
	// ErrSessionAccountRequired: 409 SESSION_ACCOUNT_REQUIRED. The provider instance has no account
	// binding: use stateless runs, or bind it (accountId) in host config.
	ErrSessionAccountRequired = &CodeError{ErrorCodeSESSIONACCOUNTREQUIRED}
	// ErrRunCancelled: 409 RUN_CANCELLED. Your run was cancelled (reason: cancelled), its session
	// deleted (reason: session_deleted), its client disconnected (reason: disconnected), the host
	// stopped before it finished (reason: shutdown), or its required action was not answered within
	// its actionTimeoutMs (reason: action_timeout; read the session: it is interrupted).
	ErrRunCancelled = &CodeError{ErrorCodeRUNCANCELLED}
	// ErrRunNotWaiting: 409 RUN_NOT_WAITING. The run is still active but waits for no action (for
	// example, someone answered first and it is running again). A finished run is RUN_NOT_FOUND.
	ErrRunNotWaiting = &CodeError{ErrorCodeRUNNOTWAITING}
	// ErrIdempotencyKeyInUse: 409 IDEMPOTENCY_KEY_IN_USE. The first request with this key is still
	// running; retry after it finishes.
	ErrIdempotencyKeyInUse = &CodeError{ErrorCodeIDEMPOTENCYKEYINUSE}
	// ErrRequestTimeout: 408 REQUEST_TIMEOUT. The request body did not arrive within
	// limits.bodyTimeoutMs.
	ErrRequestTimeout = &CodeError{ErrorCodeREQUESTTIMEOUT}
	// ErrPayloadTooLarge: 413 PAYLOAD_TOO_LARGE. The body exceeds limits.maxBodyBytes.
	ErrPayloadTooLarge = &CodeError{ErrorCodePAYLOADTOOLARGE}
	// ErrUnsupportedMediaType: 415 UNSUPPORTED_MEDIA_TYPE. Send Content-Type: application/json.
	ErrUnsupportedMediaType = &CodeError{ErrorCodeUNSUPPORTEDMEDIATYPE}
	// ErrValidationError: 422 VALIDATION_ERROR. Fix the request; errors lists each problem with its
	// location. Unknown fields are refused.
	ErrValidationError = &CodeError{ErrorCodeVALIDATIONERROR}
	// ErrUnsupportedContinuation: 422 UNSUPPORTED_CONTINUATION. The provider cannot keep that mode
	// (see capabilities in discovery); choose the other mode.
	ErrUnsupportedContinuation = &CodeError{ErrorCodeUNSUPPORTEDCONTINUATION}
	// ErrSessionContextUnsupported: 422 SESSION_CONTEXT_UNSUPPORTED. Sessions take text input only;
	// send attachments or retrieval in a stateless run.
	ErrSessionContextUnsupported = &CodeError{ErrorCodeSESSIONCONTEXTUNSUPPORTED}
	// ErrSessionOverrideRejected: 422 SESSION_OVERRIDE_REJECTED. A session owns its instructions and
	// history; do not send them with a session run.
	ErrSessionOverrideRejected = &CodeError{ErrorCodeSESSIONOVERRIDEREJECTED}
	// ErrSessionLimitExceeded: 422 SESSION_LIMIT_EXCEEDED. A bound named in limit (with maximum) would
	// be exceeded; start a new session with a shorter history.
	ErrSessionLimitExceeded = &CodeError{ErrorCodeSESSIONLIMITEXCEEDED}
	// ErrSessionPrefixChanged: 422 SESSION_PREFIX_CHANGED. A native session on a provider whose
	// request prefix must stay byte-identical (Anthropic) got other tools than its first turn; nothing
	// reached the model. Send the same tools, or start a new session.
	ErrSessionPrefixChanged = &CodeError{ErrorCodeSESSIONPREFIXCHANGED}
	// ErrActionMismatch: 422 ACTION_MISMATCH. Answer exactly the requiredAction: the right kind, every
	// call id once, no others.
	ErrActionMismatch = &CodeError{ErrorCodeACTIONMISMATCH}
	// ErrIdempotencyKeyReused: 422 IDEMPOTENCY_KEY_REUSED. This key was used with a different request;
	// use a new key.
	ErrIdempotencyKeyReused = &CodeError{ErrorCodeIDEMPOTENCYKEYREUSED}
	// ErrToolNameConflict: 422 TOOL_NAME_CONFLICT. Two declared tools share a name, or one is named
	// like a host tool (errors says which).
	ErrToolNameConflict = &CodeError{ErrorCodeTOOLNAMECONFLICT}
	// ErrProviderRateLimited: 429 PROVIDER_RATE_LIMITED. The provider refused for rate or quota after
	// the host's own retries; wait Retry-After when present. Without it (a spend or quota limit),
	// waiting will not help.
	ErrProviderRateLimited = &CodeError{ErrorCodePROVIDERRATELIMITED}
	// ErrInternalError: 500 INTERNAL_ERROR. A host defect; please report it.
	ErrInternalError = &CodeError{ErrorCodeINTERNALERROR}
	// ErrHeadersTooLarge: 431 HEADERS_TOO_LARGE. The request head exceeds limits.maxHeaderBytes.
	ErrHeadersTooLarge = &CodeError{ErrorCodeHEADERSTOOLARGE}
	// ErrSessionsDisabled: 501 SESSIONS_DISABLED. The host sets no sessions.retentionMs; use stateless
	// runs.
	ErrSessionsDisabled = &CodeError{ErrorCodeSESSIONSDISABLED}
	// ErrProviderError: 502 PROVIDER_ERROR. The model provider failed; a session turn left the session
	// interrupted.
	ErrProviderError = &CodeError{ErrorCodePROVIDERERROR}
	// ErrProviderAuthFailed: 502 PROVIDER_AUTH_FAILED. The provider refused the host's credentials:
	// the operator must fix the key (apiKeyEnv).
	ErrProviderAuthFailed = &CodeError{ErrorCodePROVIDERAUTHFAILED}
	// ErrProviderRejected: 502 PROVIDER_REJECTED. The provider refused the request itself (for example
	// a signed native item that no longer verifies); a session turn left the session interrupted.
	ErrProviderRejected = &CodeError{ErrorCodePROVIDERREJECTED}
	// ErrSessionStoreFull: 503 SESSION_STORE_FULL. The store holds maxEntries sessions; retry after
	// Retry-After or delete sessions.
	ErrSessionStoreFull = &CodeError{ErrorCodeSESSIONSTOREFULL}
	// ErrHostBusy: 503 HOST_BUSY. Every run slot is taken and the wait line is full (limit:
	// maxQueuedRuns), maxWaitingRuns runs that may wait for the application are active (limit:
	// maxWaitingRuns), or the host holds its maximum of connections (limit: maxConnections); retry
	// after Retry-After.
	ErrHostBusy = &CodeError{ErrorCodeHOSTBUSY}
	// ErrProviderOverloaded: 503 PROVIDER_OVERLOADED. The provider was overloaded (its 503,
	// Anthropic's 529) after the host's own retries; retry later.
	ErrProviderOverloaded = &CodeError{ErrorCodePROVIDEROVERLOADED}
	// ErrShuttingDown: 503 SHUTTING_DOWN. The host is stopping and starts no new work (also /readyz
	// while it drains). A stateless run or a new session: retry after Retry-After (behind a proxy it
	// lands on another host). A session ends with its host: read its history while the host still
	// answers, and create a new session on another host with what it should see.
	ErrShuttingDown = &CodeError{ErrorCodeSHUTTINGDOWN}
	// ErrProviderTimeout: 504 PROVIDER_TIMEOUT. The provider made no progress for idleTimeoutMs; a
	// session turn left the session interrupted.
	ErrProviderTimeout = &CodeError{ErrorCodePROVIDERTIMEOUT}
	// ErrAttachmentUnsupported: 422 ATTACHMENT_UNSUPPORTED. Attachment attachment (mediaType) is a
	// type the instance provider does not take (see its attachmentMediaTypes in discovery), or larger
	// than limit (maxAttachmentBytes, maxRunAttachmentBytes; maximum bytes); nothing reached the
	// model.
	ErrAttachmentUnsupported = &CodeError{ErrorCodeATTACHMENTUNSUPPORTED}
	// ErrMalformedRequest: 400 MALFORMED_REQUEST. The bytes sent are not valid HTTP/1.1 (a control
	// byte in a header, a bad request line or path, a bad Content-Length or chunk size, a header line
	// without a colon); the host answers and closes the connection (Connection: close). Fix the client
	// or the proxy in front.
	ErrMalformedRequest = &CodeError{ErrorCodeMALFORMEDREQUEST}
	// ErrMisdirectedRequest: 421 MISDIRECTED_REQUEST. The request named a session or run of another
	// host process (ownerHostId; hostId is the host that answered); nothing was done. Retry once with
	// Agentic-Host: <ownerHostId> (clients do it for you). See [Scaling](cluster.md).
	ErrMisdirectedRequest = &CodeError{ErrorCodeMISDIRECTEDREQUEST}
	// ErrHostUnavailable: 503 HOST_UNAVAILABLE. Sent by the proxy, not a host: the host that owns the
	// session or run (ownerHostId) is down or restarting (without ownerHostId: no host takes new
	// work). Retry after Retry-After a few times; a host that comes back has lost its sessions
	// (SESSION_NOT_FOUND): then start a new session.
	ErrHostUnavailable = &CodeError{ErrorCodeHOSTUNAVAILABLE}
	// ErrRunEventsExpired: 410 RUN_EVENTS_EXPIRED. The events after your Last-Event-ID outgrew the
	// run's buffer (limits.maxRunEventBytes); firstEventId is the oldest still held. Read the run (GET
	// /v1/runs/{runId}) for its outcome, or rejoin from firstEventId - 1 accepting the gap.
	ErrRunEventsExpired = &CodeError{ErrorCodeRUNEVENTSEXPIRED}
	// ErrSubjectQuotaExceeded: 429 SUBJECT_QUOTA_EXCEEDED. Your subject holds the most this host
	// allows it (limit: perSubject.maxSessions stored sessions, perSubject.maxActiveRuns active runs,
	// or perSubject.runsPerMinute runs started in the last 60 s; maximum is the bound); nothing was
	// started. Delete a session, let a run end, or wait Retry-After.
	ErrSubjectQuotaExceeded = &CodeError{ErrorCodeSUBJECTQUOTAEXCEEDED}
)

// allSentinels lists every sentinel, in the catalogue's order (Sentinel reads it).
var allSentinels = []*CodeError{
	ErrUnauthenticated,
	ErrPermissionDenied,
	ErrSessionNotFound,
	ErrRunNotFound,
	ErrProviderNotFound,
	ErrModelNotFound,
	ErrRouteNotFound,
	ErrMethodNotAllowed,
	ErrSessionRevisionConflict,
	ErrSessionBusy,
	ErrSessionInterrupted,
	ErrSessionAccountRequired,
	ErrRunCancelled,
	ErrRunNotWaiting,
	ErrIdempotencyKeyInUse,
	ErrRequestTimeout,
	ErrPayloadTooLarge,
	ErrUnsupportedMediaType,
	ErrValidationError,
	ErrUnsupportedContinuation,
	ErrSessionContextUnsupported,
	ErrSessionOverrideRejected,
	ErrSessionLimitExceeded,
	ErrSessionPrefixChanged,
	ErrActionMismatch,
	ErrIdempotencyKeyReused,
	ErrToolNameConflict,
	ErrProviderRateLimited,
	ErrInternalError,
	ErrHeadersTooLarge,
	ErrSessionsDisabled,
	ErrProviderError,
	ErrProviderAuthFailed,
	ErrProviderRejected,
	ErrSessionStoreFull,
	ErrHostBusy,
	ErrProviderOverloaded,
	ErrShuttingDown,
	ErrProviderTimeout,
	ErrAttachmentUnsupported,
	ErrMalformedRequest,
	ErrMisdirectedRequest,
	ErrHostUnavailable,
	ErrRunEventsExpired,
	ErrSubjectQuotaExceeded,
}

// The groups every client shares (x-error-table's group): errors.Is(err, ErrProviderFailed) holds for
// every *ProblemError whose code is in that group.
var (
	ErrNotFound       = &GroupError{"NotFound"}
	ErrConflict       = &GroupError{"Conflict"}
	ErrUnprocessable  = &GroupError{"Unprocessable"}
	ErrProviderFailed = &GroupError{"ProviderFailed"}
	ErrRetryLater     = &GroupError{"RetryLater"}
)

// codeGroups is the group of each code that has one.
var codeGroups = map[ErrorCode]*GroupError{
	ErrorCodeSESSIONNOTFOUND:           ErrNotFound,
	ErrorCodeRUNNOTFOUND:               ErrNotFound,
	ErrorCodePROVIDERNOTFOUND:          ErrNotFound,
	ErrorCodeMODELNOTFOUND:             ErrNotFound,
	ErrorCodeROUTENOTFOUND:             ErrNotFound,
	ErrorCodeSESSIONREVISIONCONFLICT:   ErrConflict,
	ErrorCodeSESSIONBUSY:               ErrConflict,
	ErrorCodeSESSIONINTERRUPTED:        ErrConflict,
	ErrorCodeSESSIONACCOUNTREQUIRED:    ErrConflict,
	ErrorCodeRUNCANCELLED:              ErrConflict,
	ErrorCodeRUNNOTWAITING:             ErrConflict,
	ErrorCodeIDEMPOTENCYKEYINUSE:       ErrConflict,
	ErrorCodeVALIDATIONERROR:           ErrUnprocessable,
	ErrorCodeUNSUPPORTEDCONTINUATION:   ErrUnprocessable,
	ErrorCodeSESSIONCONTEXTUNSUPPORTED: ErrUnprocessable,
	ErrorCodeSESSIONOVERRIDEREJECTED:   ErrUnprocessable,
	ErrorCodeSESSIONLIMITEXCEEDED:      ErrUnprocessable,
	ErrorCodeSESSIONPREFIXCHANGED:      ErrUnprocessable,
	ErrorCodeACTIONMISMATCH:            ErrUnprocessable,
	ErrorCodeIDEMPOTENCYKEYREUSED:      ErrUnprocessable,
	ErrorCodeTOOLNAMECONFLICT:          ErrUnprocessable,
	ErrorCodePROVIDERRATELIMITED:       ErrProviderFailed,
	ErrorCodePROVIDERERROR:             ErrProviderFailed,
	ErrorCodePROVIDERAUTHFAILED:        ErrProviderFailed,
	ErrorCodePROVIDERREJECTED:          ErrProviderFailed,
	ErrorCodeSESSIONSTOREFULL:          ErrRetryLater,
	ErrorCodeHOSTBUSY:                  ErrRetryLater,
	ErrorCodePROVIDEROVERLOADED:        ErrProviderFailed,
	ErrorCodeSHUTTINGDOWN:              ErrRetryLater,
	ErrorCodePROVIDERTIMEOUT:           ErrProviderFailed,
	ErrorCodeATTACHMENTUNSUPPORTED:     ErrUnprocessable,
	ErrorCodeHOSTUNAVAILABLE:           ErrRetryLater,
}
