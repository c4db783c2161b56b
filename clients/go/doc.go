// Package agenticdriver is the Go client of the Agentic Driver HTTP contract.
//
// The oas_*_gen.go files are generated from the repository's openapi.yaml by ogen
// (make generate; never edit them). The other files are the hand-written layer beside them:
//
//   - client.go: HostClient, one method per operation, built with New(baseURL, token);
//   - errors.go: *ProblemError for every problem response, with one sentinel per catalogue
//     code for errors.Is (ErrSessionRevisionConflict, ErrSessionBusy, ...);
//   - stream.go: streamed runs as an EventStream of typed events (Next, or range over All);
//   - session.go: SessionInfo.SessionHandle.
//
// A session in a few lines:
//
//	client, err := agenticdriver.New("http://127.0.0.1:8080", token)
//	created, err := client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{
//		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})
//	result, err := client.Run(ctx, &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1",
//		Input: "Hello", Session: agenticdriver.NewOptSessionHandle(created.Session.SessionHandle())})
//	if errors.Is(err, agenticdriver.ErrSessionBusy) { ... }
package agenticdriver
