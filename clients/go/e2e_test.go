package agenticdriver_test

// End to end against a real host process: sessions, the four session error codes by type,
// forks, streamed runs and an application-function round trip.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-faster/jx"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newSession(t *testing.T, ctx context.Context, client *agenticdriver.HostClient) agenticdriver.SessionInfo {
	t.Helper()
	created, err := client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{
		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})
	if err != nil {
		t.Fatal(err)
	}
	return created.Session
}

func echoRun(input string, session *agenticdriver.SessionInfo) *agenticdriver.RunRequest {
	request := &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: input}
	if session != nil {
		request.Session = agenticdriver.NewOptSessionHandle(session.SessionHandle())
	}
	return request
}

func TestE2ESessionFlow(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)

	health, err := h.client(t, "").GetHealth(ctx)
	if err != nil || health.Status != "ok" {
		t.Fatalf("health: %+v, %v", health, err)
	}

	session := newSession(t, ctx, client)
	if session.Revision != 0 || session.Status != agenticdriver.SessionStatusReady {
		t.Fatalf("new session: %+v", session)
	}
	first, err := client.Run(ctx, echoRun("My name is Ada.", &session))
	if err != nil {
		t.Fatal(err)
	}
	if first.Output.Text != "echo: My name is Ada." || first.Status != agenticdriver.RunStatusCompleted {
		t.Fatalf("first run: %+v", first)
	}
	session = first.Session.Value
	if session.Revision != 1 {
		t.Fatalf("revision after the first run: %d", session.Revision)
	}
	second, err := client.Run(ctx, echoRun("!recall", &session))
	if err != nil {
		t.Fatal(err)
	}
	if want := "recall: 2 messages; last user: My name is Ada."; second.Output.Text != want {
		t.Fatalf("recall: %q, want %q", second.Output.Text, want)
	}

	read, err := client.ReadSession(ctx, session.ID)
	if err != nil {
		t.Fatal(err)
	}
	var history []string
	for _, message := range read.History {
		history = append(history, string(message.Role)+": "+message.Content)
	}
	want := []string{"user: My name is Ada.", "assistant: echo: My name is Ada.", "user: !recall",
		"assistant: recall: 2 messages; last user: My name is Ada."}
	if !slices.Equal(history, want) || read.Session.Revision != 2 || len(read.Turns) != 2 {
		t.Fatalf("read: revision %d, turns %d, history %q", read.Session.Revision, len(read.Turns), history)
	}

	if err := client.DeleteSession(ctx, session.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.ReadSession(ctx, session.ID)
	var problem *agenticdriver.ProblemError
	if !errors.Is(err, agenticdriver.ErrSessionNotFound) || !errors.As(err, &problem) || problem.Status != 404 {
		t.Fatalf("read after delete: %v", err)
	}
}

func TestE2ERevisionConflict(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)
	if _, err := client.Run(ctx, echoRun("one", &session)); err != nil {
		t.Fatal(err)
	}
	_, err := client.Run(ctx, echoRun("stale", &session))
	var conflict *agenticdriver.SessionRevisionConflictError
	if !errors.Is(err, agenticdriver.ErrSessionRevisionConflict) || !errors.As(err, &conflict) {
		t.Fatalf("stale run: %v", err)
	}
	if conflict.Status != 409 || conflict.CurrentRevision != 1 || errors.Is(err, agenticdriver.ErrSessionBusy) {
		t.Fatalf("conflict: %+v", conflict)
	}
}

func TestE2ESessionBusy(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)

	slow := make(chan error, 1)
	go func() {
		result, err := client.Run(ctx, echoRun("!sleep 1500\nslow", &session))
		if err == nil && result.Session.Value.Revision != 1 {
			err = errors.New("the slow run did not advance the revision")
		}
		slow <- err
	}()
	waitForStatus(t, ctx, client, session.ID, agenticdriver.SessionStatusRunning)
	_, err := client.Run(ctx, echoRun("again", &session))
	var busy *agenticdriver.SessionBusyError
	if !errors.Is(err, agenticdriver.ErrSessionBusy) || !errors.As(err, &busy) {
		t.Fatalf("concurrent run: %v", err)
	}
	if !strings.HasPrefix(busy.ActiveRunID, "run_") || !busy.RetryAfterSeconds.Set {
		t.Fatalf("busy: %+v", busy)
	}
	idle, err := client.WaitUntilIdle(ctx, session.ID, agenticdriver.WithBusyError(err))
	if err != nil || idle.Session.Status != agenticdriver.SessionStatusReady || idle.Session.Revision != 1 || len(idle.Turns) != 1 {
		t.Fatalf("wait until idle: %+v, %v", idle, err)
	}
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
}

// waitForStatus polls the session (bounded) until it has the status.
func waitForStatus(t *testing.T, ctx context.Context, client *agenticdriver.HostClient, id string, status agenticdriver.SessionStatus) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		read, err := client.ReadSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if read.Session.Status == status {
			return
		}
	}
	t.Fatalf("session %s never became %s", id, status)
}

func TestE2ESessionInterrupted(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)
	if _, err := client.Run(ctx, echoRun("!fail", &session)); !errors.Is(err, agenticdriver.ErrProviderError) {
		t.Fatalf("!fail: %v", err)
	}
	_, err := client.Run(ctx, echoRun("after", &session))
	if !errors.Is(err, agenticdriver.ErrSessionInterrupted) {
		t.Fatalf("run after a failure: %v", err)
	}
	read, err := client.ReadSession(ctx, session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if read.Session.Status != agenticdriver.SessionStatusInterrupted || read.InterruptedTurn.Value.Reason != agenticdriver.InterruptReasonFailed {
		t.Fatalf("read: %+v", read)
	}
}

func TestE2ESessionAccountRequired(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	_, err := client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{
		Provider: "echo-unbound", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})
	var problem *agenticdriver.ProblemError
	if !errors.Is(err, agenticdriver.ErrSessionAccountRequired) || !errors.As(err, &problem) || problem.Status != 409 {
		t.Fatalf("create on an unbound provider: %v", err)
	}
	// The same instance still serves stateless runs.
	result, err := client.Run(ctx, &agenticdriver.RunRequest{Provider: "echo-unbound", Model: "echo-1", Input: "hi"})
	if err != nil || result.Output.Text != "echo: hi" {
		t.Fatalf("stateless: %+v, %v", result, err)
	}
}

// jsonOf is a generated value as its JSON, for comparing reads.
func jsonOf(t *testing.T, value marshaler) string {
	t.Helper()
	raw, err := value.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestE2EForkSession(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	source := newSession(t, ctx, client)
	for _, input := range []string{"one", "two", "three"} {
		result, err := client.Run(ctx, echoRun(input, &source))
		if err != nil {
			t.Fatal(err)
		}
		source = result.Session.Value
	}
	before, err := client.ReadSession(ctx, source.ID)
	if err != nil || before.Session.Revision != 3 || len(before.Turns) != 3 {
		t.Fatalf("source: %+v, %v", before, err)
	}

	// At the current revision (no boundary given): a new session on the same host, accounting at zero.
	var response *http.Response
	current, err := client.ForkSession(ctx, source.ID, &agenticdriver.ForkSessionRequest{}, agenticdriver.WithResponse(&response))
	if err != nil {
		t.Fatal(err)
	}
	now := current.Session
	if response.StatusCode != 201 || now.ID == source.ID || !strings.HasPrefix(now.ID, "ses_"+source.HostID+".") {
		t.Fatalf("fork: %d %s (source %s)", response.StatusCode, now.ID, source.ID)
	}
	if now.Revision != 3 || now.Status != agenticdriver.SessionStatusReady || now.RunCount != 0 || now.Usage.InputTokens != 0 ||
		now.Provider != source.Provider || now.Model != source.Model || now.Mode != source.Mode ||
		now.MessageCount != before.Session.MessageCount {
		t.Fatalf("fork at the current revision: %+v", now)
	}

	// At a turn boundary: the state the first turn produced, with that turn.
	boundary, err := client.ForkSession(ctx, source.ID, &agenticdriver.ForkSessionRequest{Revision: agenticdriver.NewOptInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	atOne := boundary.Session
	if atOne.Revision != 1 || atOne.MessageCount != 2 {
		t.Fatalf("fork at revision 1: %+v", atOne)
	}
	forked, err := client.ReadSession(ctx, atOne.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(forked.History) != 2 || len(forked.Turns) != 1 || jsonOf(t, &forked.History[0]) != jsonOf(t, &before.History[0]) ||
		jsonOf(t, &forked.History[1]) != jsonOf(t, &before.History[1]) || jsonOf(t, &forked.Turns[0]) != jsonOf(t, &before.Turns[0]) {
		t.Fatalf("the fork at revision 1 holds %d messages, %d turns", len(forked.History), len(forked.Turns))
	}

	// The fork continues by itself; the source is unchanged by it and goes on by itself.
	recall, err := client.Run(ctx, echoRun("!recall", &atOne))
	if err != nil || recall.Output.Text != "recall: 2 messages; last user: one" || recall.Session.Value.Revision != 2 {
		t.Fatalf("the fork's turn: %+v, %v", recall, err)
	}
	after, err := client.ReadSession(ctx, source.ID)
	if err != nil || jsonOf(t, after) != jsonOf(t, before) {
		t.Fatalf("the source changed: %v\n%s\n%s", err, jsonOf(t, before), jsonOf(t, after))
	}
	onward, err := client.Run(ctx, echoRun("!recall", &source))
	if err != nil || onward.Output.Text != "recall: 6 messages; last user: three" || onward.Session.Value.Revision != 4 {
		t.Fatalf("the source's turn: %+v, %v", onward, err)
	}
	if read, err := client.ReadSession(ctx, atOne.ID); err != nil || read.Session.Revision != 2 {
		t.Fatalf("the fork after the source's turn: %+v, %v", read, err)
	}

	// A boundary the session does not hold.
	_, err = client.ForkSession(ctx, source.ID, &agenticdriver.ForkSessionRequest{Revision: agenticdriver.NewOptInt(9)})
	var conflict *agenticdriver.SessionRevisionConflictError
	if !errors.Is(err, agenticdriver.ErrSessionRevisionConflict) || !errors.As(err, &conflict) || conflict.CurrentRevision != 4 {
		t.Fatalf("fork at revision 9: %v", err)
	}

	// One key, one fork.
	key := agenticdriver.WithIdempotencyKey("go-e2e-fork-" + source.ID)
	first, err := client.ForkSession(ctx, source.ID, nil, key)
	if err != nil {
		t.Fatal(err)
	}
	again, err := client.ForkSession(ctx, source.ID, nil, key)
	if err != nil || again.Session.ID != first.Session.ID {
		t.Fatalf("the same key forked again: %s then %+v, %v", first.Session.ID, again, err)
	}
}

func TestE2EForkOfABusySession(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)

	slow := make(chan error, 1)
	go func() {
		result, err := client.Run(ctx, echoRun("!sleep 1500\nslow", &session))
		if err == nil && result.Session.Value.Revision != 1 {
			err = errors.New("the slow run did not advance the revision")
		}
		slow <- err
	}()
	waitForStatus(t, ctx, client, session.ID, agenticdriver.SessionStatusRunning)
	_, err := client.ForkSession(ctx, session.ID, &agenticdriver.ForkSessionRequest{})
	var busy *agenticdriver.SessionBusyError
	if !errors.Is(err, agenticdriver.ErrSessionBusy) || !errors.As(err, &busy) {
		t.Fatalf("fork while a turn is active: %v", err)
	}
	if busy.Status != 409 || !strings.HasPrefix(busy.ActiveRunID, "run_") {
		t.Fatalf("busy: %+v", busy)
	}
	idle, err := client.WaitUntilIdle(ctx, session.ID, agenticdriver.WithBusyError(err))
	if err != nil || idle.Session.Revision != 1 {
		t.Fatalf("wait until idle: %+v, %v", idle, err)
	}
	fork, err := client.ForkSession(ctx, session.ID, &agenticdriver.ForkSessionRequest{})
	if err != nil || fork.Session.Revision != 1 || fork.Session.MessageCount != 2 {
		t.Fatalf("fork once idle: %+v, %v", fork, err)
	}
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
}

func TestE2EStreamedRun(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)
	stream, err := client.StreamRun(ctx, echoRun("!chunks 3\nTell me a story", &session))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var types, deltas []string
	var completed *agenticdriver.RunCompletedEvent
	for event, err := range stream.All() {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, event.EventType())
		switch event := event.(type) {
		case *agenticdriver.OutputDeltaEvent:
			deltas = append(deltas, event.Text)
		case *agenticdriver.RunCompletedEvent:
			completed = event
		}
	}
	want := []string{"run.started", "output.delta", "output.delta", "output.delta", "run.completed"}
	if !slices.Equal(types, want) || completed == nil {
		t.Fatalf("events: %q", types)
	}
	if strings.Join(deltas, "") != completed.Run.Output.Text || completed.Run.Output.Text != "echo: Tell me a story" {
		t.Fatalf("deltas %q, final %q", deltas, completed.Run.Output.Text)
	}
	if completed.Run.Session.Value.Revision != 1 {
		t.Fatalf("revision: %d", completed.Run.Session.Value.Revision)
	}
}

func TestE2EStreamRefusedBeforeTheStream(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)
	if _, err := client.Run(ctx, echoRun("one", &session)); err != nil {
		t.Fatal(err)
	}
	stream, err := client.StreamRun(ctx, echoRun("stale", &session))
	if stream != nil || !errors.Is(err, agenticdriver.ErrSessionRevisionConflict) {
		t.Fatalf("stale stream: %v", err)
	}
}

var getWeather = []agenticdriver.ToolDefinition{{
	Name:        "get_weather",
	Description: agenticdriver.NewOptString("Weather in a city"),
	Parameters:  agenticdriver.ToolDefinitionParameters{"type": jx.Raw(`"object"`)},
}}

func TestE2EFunctionCallRoundTrip(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)
	request := echoRun(`!call get_weather {"x":1}`, &session)
	request.Tools = getWeather
	waiting, err := client.Run(ctx, request)
	if err != nil {
		t.Fatal(err)
	}
	action := waiting.RequiredAction.Value
	if waiting.Status != agenticdriver.RunStatusRequiresAction || !action.IsFunctionCallsAction() {
		t.Fatalf("waiting: %+v", waiting)
	}
	call := action.FunctionCallsAction.Calls[0]
	var arguments map[string]any
	raw, _ := json.Marshal(call.Arguments)
	if err := json.Unmarshal(raw, &arguments); err != nil || call.Name != "get_weather" || arguments["x"] != float64(1) {
		t.Fatalf("call: %+v (%s)", call, raw)
	}

	if _, err := client.Run(ctx, echoRun("meanwhile", &session)); !errors.Is(err, agenticdriver.ErrSessionBusy) {
		t.Fatalf("run while waiting: %v", err)
	}

	done, err := client.SubmitRunActions(ctx, waiting.ID, &agenticdriver.SubmitRunActionsRequest{
		FunctionResults: []agenticdriver.FunctionResult{{CallID: call.CallID, Output: "sunny"}}})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != agenticdriver.RunStatusCompleted || !strings.HasSuffix(done.Output.Text, "get_weather -> sunny") ||
		done.Session.Value.Revision != 1 {
		t.Fatalf("done: %+v", done)
	}
}

func TestE2EStreamedFunctionCall(t *testing.T) {
	h := sharedHost(t)
	ctx := testContext(t)
	client := h.client(t, fullToken)
	session := newSession(t, ctx, client)
	request := echoRun(`!call get_weather {"x":2}`, &session)
	request.Tools = getWeather
	stream, err := client.StreamRun(ctx, request)
	if err != nil {
		t.Fatal(err)
	}
	final, err := stream.Final()
	if err != nil {
		t.Fatal(err)
	}
	waiting, ok := final.(*agenticdriver.RunRequiresActionEvent)
	if !ok {
		t.Fatalf("final event: %T", final)
	}
	callID := waiting.Run.RequiredAction.Value.FunctionCallsAction.Calls[0].CallID
	rest, err := client.StreamRunActions(ctx, waiting.Run.ID, &agenticdriver.SubmitRunActionsRequest{
		FunctionResults: []agenticdriver.FunctionResult{{CallID: callID, Output: "rain"}}})
	if err != nil {
		t.Fatal(err)
	}
	final, err = rest.Final()
	completed, ok := final.(*agenticdriver.RunCompletedEvent)
	if err != nil || !ok || !strings.HasSuffix(completed.Run.Output.Text, "get_weather -> rain") {
		t.Fatalf("final: %#v, %v", final, err)
	}
}

// TestE2ECatalogueMatchesTheServedContract compares the client's error sentinels and event types
// with the contract the host serves at /openapi.json.
func TestE2ECatalogueMatchesTheServedContract(t *testing.T) {
	h := sharedHost(t)
	response, err := http.Get(h.baseURL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	var spec struct {
		Components struct {
			Schemas struct {
				ErrorCode struct{ Enum []string }
				RunEvent  struct {
					Discriminator struct{ Mapping map[string]string }
				}
			}
		}
	}
	if err := json.NewDecoder(response.Body).Decode(&spec); err != nil {
		t.Fatal(err)
	}
	codes := spec.Components.Schemas.ErrorCode.Enum
	if len(codes) == 0 {
		t.Fatal("no ErrorCode enum in the served contract")
	}
	for _, code := range codes {
		if agenticdriver.Sentinel(agenticdriver.ErrorCode(code)) == nil {
			t.Errorf("no sentinel for %s", code)
		}
	}
	var eventTypes []string
	for eventType := range spec.Components.Schemas.RunEvent.Discriminator.Mapping {
		eventTypes = append(eventTypes, eventType)
	}
	sort.Strings(eventTypes)
	for _, eventType := range eventTypes {
		event, err := agenticdriver.ParseEvent(eventType, minimalEvent(eventType))
		if err != nil {
			t.Fatalf("%s: %v", eventType, err)
		}
		if _, unknown := event.(*agenticdriver.UnknownEvent); unknown {
			t.Errorf("event type %s is unknown to this client", eventType)
		}
	}
}

// minimalEvent is a valid event of each type, enough for the generated decoder.
func minimalEvent(eventType string) []byte {
	result := `{"id":"run_1","status":"completed","output":{"text":""},"usage":{"inputTokens":0,"outputTokens":0,"cachedInputTokens":0,"cacheWriteTokens":0,"reasoningTokens":0},"cost":null,"retries":{"count":0,"inputTokens":0,"outputTokens":0,"cost":null},"servedModel":"echo-1"}`
	problem := `{"type":"t","title":"t","status":502,"code":"PROVIDER_ERROR","detail":"d"}`
	bodies := map[string]string{
		"run.started":         `{"type":"run.started","runId":"run_1"}`,
		"output.delta":        `{"type":"output.delta","runId":"run_1","text":"x"}`,
		"run.requires_action": `{"type":"run.requires_action","run":` + result + `}`,
		"run.completed":       `{"type":"run.completed","run":` + result + `}`,
		"run.failed":          `{"type":"run.failed","runId":"run_1","problem":` + problem + `}`,
	}
	if body, ok := bodies[eventType]; ok {
		return []byte(body)
	}
	return []byte(`{"type":"` + eventType + `"}`)
}
