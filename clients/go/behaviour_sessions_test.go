package agenticdriver_test

// ../BEHAVIOUR.md, the busy helper (WaitUntilIdle) and RunSession (the scripted host:
// behaviour_test.go).

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func readAnswer(status agenticdriver.SessionStatus) string {
	read := agenticdriver.ReadSessionResponse{Session: sessionInfo("ses_1", status, 3),
		Instructions: agenticdriver.NilString{Null: true}, History: []agenticdriver.Message{}, Turns: []agenticdriver.Turn{}}
	data, err := read.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestWaitUntilIdleReadsUntilTheSessionIsNoLongerRunning(t *testing.T) {
	running := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, "application/json", readAnswer(agenticdriver.SessionStatusRunning))
	}
	ready := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, "application/json", readAnswer(agenticdriver.SessionStatusReady))
	}
	host := scriptedHost(t, running, running, ready)
	started := time.Now()
	read, err := host.client(t).WaitUntilIdle(ctx(t), "ses_1")
	if err != nil || read.Session.Status != agenticdriver.SessionStatusReady || read.Session.Revision != 3 {
		t.Fatalf("%+v, %v", read, err)
	}
	got := host.requests()
	if len(got) != 3 || got[0].method != "GET" || got[0].path != "/v1/sessions/ses_1" {
		t.Fatalf("%+v", got)
	}
	// waits 0.1 s, then 0.2 s, then 0.4 s: 0.7 s before the third read
	if elapsed := time.Since(started); elapsed < 700*time.Millisecond || elapsed > 2500*time.Millisecond {
		t.Fatalf("took %s", elapsed)
	}
}

func TestWaitUntilIdleStartsWithTheBusyErrorsRetryAfterAndIsBounded(t *testing.T) {
	host := scriptedHost(t, problem(409, "SESSION_BUSY", map[string]string{"Retry-After": "1"}, `,"activeRunId":"run_1"`),
		func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, "application/json", readAnswer(agenticdriver.SessionStatusRunning))
		})
	client := host.client(t)
	_, busy := client.Run(ctx(t), echoRequest())
	started := time.Now()
	_, err := client.WaitUntilIdle(ctx(t), "ses_1", agenticdriver.WithBusyError(busy), agenticdriver.WithWaitBound(1500*time.Millisecond))
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutWaitIdle {
		t.Fatalf("%T %v", err, err)
	}
	got := host.requests()
	if len(got) < 3 || got[1].at.Sub(started) < time.Second {
		t.Fatalf("first read after %s, %d requests", got[1].at.Sub(started), len(got))
	}
	if elapsed := time.Since(started); elapsed < 1500*time.Millisecond || elapsed > 3500*time.Millisecond {
		t.Fatalf("bounded at %s", elapsed)
	}
}

func TestRunSessionSendsTheHandleAndUnwrapsTheSessionOfItsResult(t *testing.T) {
	info := sessionInfo("ses_1", agenticdriver.SessionStatusReady, 4)
	session, err := info.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	answered := strings.Replace(runResult, `"servedModel"`, `"session":`+string(session)+`,"servedModel"`, 1)
	host := scriptedHost(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, "application/json", answered) })
	request := echoRequest()
	result, err := host.client(t).RunSession(ctx(t), agenticdriver.SessionHandle{ID: "ses_1", Revision: 3}, request)
	if err != nil || result.Session.Revision != 4 || result.Output.Text != "echo: hi" {
		t.Fatalf("%+v, %v", result, err)
	}
	if sent := host.requests()[0].body; !strings.Contains(sent, `"session":{"id":"ses_1","revision":3}`) {
		t.Fatalf("sent %s", sent)
	}
	if request.Session.Set {
		t.Fatal("the caller's request was changed")
	}

	bare := scriptedHost(t, ok)
	_, err = bare.client(t).RunSession(ctx(t), agenticdriver.SessionHandle{ID: "ses_1", Revision: 3}, echoRequest())
	var client *agenticdriver.ClientError
	if !errors.As(err, &client) {
		t.Fatalf("an answer without the session: %T %v", err, err)
	}
}
