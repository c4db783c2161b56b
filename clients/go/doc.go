// Package agenticdriver is the Go client of the Agentic Driver HTTP contract.
//
// The oas_*_gen.go files are generated from the repository's openapi.yaml by ogen
// (make generate; never edit them). The other files are the hand-written layer beside them,
// implementing the shared client behaviour (clients/BEHAVIOUR.md):
//
//   - client.go: HostClient, one method per operation, built with New and its options
//     (WithBaseURL, WithToken, WithMaxRetries, WithTimeouts, WithHTTPClient, WithHeader,
//     WithLogger); per call WithIdempotencyKey, WithResponse, WithEditor;
//   - transport.go: under the generated client: headers, the connect/read/stream-idle
//     timeouts, retries with one Idempotency-Key per call, one debug line per attempt;
//   - errors.go: one error tree rooted at Error: *ConnectionError, *TimeoutError, APIError
//     (*ProblemError with a sentinel per catalogue code for errors.Is, the typed
//     *SessionRevisionConflictError, *SessionBusyError, *RunEventsExpiredError, ...,
//     *UnexpectedStatusError), ...;
//   - wait.go: WaitUntilIdle, the busy helper;
//   - stream.go: streamed runs as an EventStream of typed events (Next, or range over All);
//   - resume.go: a stream of a run sent with onDisconnect continue resumes itself by Last-Event-ID;
//   - session.go: SessionInfo.SessionHandle.
//
// A session in a few lines:
//
//	client, err := agenticdriver.New(agenticdriver.WithBaseURL("http://127.0.0.1:8080"), agenticdriver.WithToken(token))
//	created, err := client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{
//		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})
//	result, err := client.Run(ctx, &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1",
//		Input: "Hello", Session: agenticdriver.NewOptSessionHandle(created.Session.SessionHandle())})
//	var conflict *agenticdriver.SessionRevisionConflictError
//	if errors.As(err, &conflict) { ... conflict.CurrentRevision ... }
package agenticdriver
