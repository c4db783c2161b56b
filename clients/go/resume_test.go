package agenticdriver_test

// ../BEHAVIOUR.md, "Resuming a stream", against scripted fake hosts: a stream of a run sent
// with onDisconnect continue that ends before its last event rejoins the run by Last-Event-ID
// (or, before its first event, sends its request again), delivers each event once, within the
// retry budget; any other stream is never resumed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const resumedRun = "run_beta.AAECAwQFBgcICQoLDA0ODw"

// runEvent is event number id of resumedRun, as its SSE message: 1 is run.started, 9 is
// run.completed, anything else an output.delta with the text "<id>".
func runEvent(id int) string {
	var data string
	switch id {
	case 1:
		data = `{"type":"run.started","runId":"` + resumedRun + `"}`
	case 9:
		data = `{"type":"run.completed","run":` + strings.Replace(runResult, `"run_1"`, `"`+resumedRun+`"`, 1) + `}`
	default:
		data = fmt.Sprintf(`{"type":"output.delta","runId":"%s","text":"%d"}`, resumedRun, id)
	}
	var kind struct{ Type string }
	_ = json.Unmarshal([]byte(data), &kind)
	return fmt.Sprintf("id: %d\nevent: %s\ndata: %s\n\n", id, kind.Type, data)
}

// streamed answers a stream of the events numbered ids, then ends it as end says: "eof" (the
// body ends cleanly), "reset" (the connection breaks inside the body) or "" (nothing more: the
// ids end with the run's last event).
func streamed(end string, ids ...int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for _, id := range ids {
			_, _ = io.WriteString(w, runEvent(id))
		}
		w.(http.Flusher).Flush()
		if end == "reset" {
			panic(http.ErrAbortHandler) // the server closes the connection inside the chunked body
		}
	}
}

// proxyPage is a proxy's 502 (no problem document): a rejoin that failed, retried.
func proxyPage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Retry-After", "0")
	writeJSON(w, 502, "text/html", "<html>bad gateway</html>")
}

func continueRequest() *agenticdriver.RunRequest {
	request := echoRequest()
	request.OnDisconnect = agenticdriver.NewOptOnDisconnect(agenticdriver.OnDisconnectContinue)
	return request
}

// readAll reads a stream to its end: the ids of its events, and how it ended.
func readAll(stream *agenticdriver.EventStream) ([]string, error) {
	var ids []string
	for _, err := range stream.All() {
		if err != nil {
			return ids, err
		}
		ids = append(ids, stream.LastEventID)
	}
	return ids, nil
}

func lastEventIDs(got []seen) []string {
	found := make([]string, len(got))
	for i, request := range got {
		found[i] = request.header.Get("Last-Event-ID")
	}
	return found
}

func paths(got []seen) []string {
	found := make([]string, len(got))
	for i, request := range got {
		found[i] = request.method + " " + request.path
	}
	return found
}

const eventsPath = "GET /v1/runs/" + resumedRun + "/events"

func TestAContinueStreamCutAfterAnEventRejoinsFromIt(t *testing.T) {
	for _, end := range []string{"reset", "eof"} {
		t.Run(end, func(t *testing.T) {
			// The rejoin replays event 3 again (as a host may): the application still sees it once.
			host := scriptedHost(t, streamed(end, 1, 2, 3), streamed("", 3, 4, 5, 9))
			stream, err := host.client(t).StreamRun(ctx(t), continueRequest())
			if err != nil {
				t.Fatal(err)
			}
			ids, err := readAll(stream)
			if err != nil || strings.Join(ids, ",") != "1,2,3,4,5,9" {
				t.Fatalf("events %v, %v", ids, err)
			}
			got := host.requests()
			if !sameStrings(paths(got), []string{"POST /v1/runs/stream", eventsPath}) {
				t.Fatalf("%q", paths(got))
			}
			if !sameStrings(lastEventIDs(got), []string{"", "3"}) || !sameStrings(hosts(got), []string{"", "beta"}) {
				t.Fatalf("Last-Event-ID %q, Agentic-Host %q", lastEventIDs(got), hosts(got))
			}
			if accept := got[1].header.Get("Accept"); accept != "text/event-stream" {
				t.Fatalf("Accept %q", accept)
			}
		})
	}
}

func TestAStreamWithoutContinueIsNeverResumed(t *testing.T) {
	for _, request := range []*agenticdriver.RunRequest{echoRequest(), func() *agenticdriver.RunRequest {
		cancel := echoRequest()
		cancel.OnDisconnect = agenticdriver.NewOptOnDisconnect(agenticdriver.OnDisconnectCancel)
		return cancel
	}()} {
		host := scriptedHost(t, streamed("reset", 1, 2), streamed("", 3, 9))
		stream, err := host.client(t).StreamRun(ctx(t), request)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := readAll(stream)
		var connection *agenticdriver.ConnectionError
		if !errors.As(err, &connection) || connection.Phase != agenticdriver.PhaseStream || strings.Join(ids, ",") != "1,2" {
			t.Fatalf("events %v, %T %v", ids, err, err)
		}
		if got := host.requests(); len(got) != 1 {
			t.Fatalf("%d requests: %q", len(got), paths(got))
		}
	}
	// A clean end before the last event is not resumed either: it is the same connection error.
	host := scriptedHost(t, streamed("eof", 1, 2))
	stream, err := host.client(t).StreamRun(ctx(t), echoRequest())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	var connection *agenticdriver.ConnectionError
	if !errors.As(err, &connection) || len(ids) != 2 || len(host.requests()) != 1 {
		t.Fatalf("events %v, %v, %d requests", ids, err, len(host.requests()))
	}
}

func TestADropBeforeTheFirstEventSendsTheSameRunAgain(t *testing.T) {
	host := scriptedHost(t, streamed("reset"), streamed("", 1, 2, 9))
	stream, err := host.client(t).StreamRun(ctx(t), continueRequest(), agenticdriver.WithIdempotencyKey("resume-key-1"))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	if err != nil || strings.Join(ids, ",") != "1,2,9" {
		t.Fatalf("events %v, %v", ids, err)
	}
	got := host.requests()
	if !sameStrings(paths(got), []string{"POST /v1/runs/stream", "POST /v1/runs/stream"}) {
		t.Fatalf("%q", paths(got))
	}
	if got[1].header.Get("Idempotency-Key") != "resume-key-1" || got[0].body != got[1].body || got[1].header.Get("Last-Event-ID") != "" {
		t.Fatalf("the second run is not the same request: %+v", got)
	}
}

func TestFailedRejoinsAreBoundedByTheRetryBudget(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 1, 2), proxyPage)
	stream, err := host.client(t, agenticdriver.WithMaxRetries(1)).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	var page *agenticdriver.UnexpectedStatusError
	if !errors.As(err, &page) || page.Status != 502 || strings.Join(ids, ",") != "1,2" {
		t.Fatalf("events %v, %T %v", ids, err, err)
	}
	// the rejoin, and one retry of it
	if got := host.requests(); !sameStrings(paths(got), []string{"POST /v1/runs/stream", eventsPath, eventsPath}) {
		t.Fatalf("%q", paths(got))
	}
}

func TestARejoinThatDeliversANewEventGivesTheBudgetBack(t *testing.T) {
	// One retry in all; two rejoins fail, but each failure follows a rejoin that brought news.
	host := scriptedHost(t, streamed("reset", 1, 2), proxyPage, streamed("reset", 3, 4), proxyPage, streamed("", 5, 9))
	stream, err := host.client(t, agenticdriver.WithMaxRetries(1)).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	if err != nil || strings.Join(ids, ",") != "1,2,3,4,5,9" {
		t.Fatalf("events %v, %v", ids, err)
	}
	if got := lastEventIDs(host.requests()); !sameStrings(got, []string{"", "2", "2", "4", "4"}) {
		t.Fatalf("Last-Event-ID %q", got)
	}
}

func TestARejoinThatEndsWithNothingNewIsAFailedRejoin(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 1, 2), streamed("eof", 2))
	started := time.Now()
	stream, err := host.client(t, agenticdriver.WithMaxRetries(1)).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	var connection *agenticdriver.ConnectionError
	if !errors.As(err, &connection) || connection.Phase != agenticdriver.PhaseStream || strings.Join(ids, ",") != "1,2" {
		t.Fatalf("events %v, %T %v", ids, err, err)
	}
	got := host.requests()
	if !sameStrings(paths(got), []string{"POST /v1/runs/stream", eventsPath, eventsPath}) {
		t.Fatalf("%q", paths(got))
	}
	// the first rejoin is at once; the second waits a backoff (0.375-0.5 s)
	if gap := got[2].at.Sub(got[1].at); gap < 375*time.Millisecond || time.Since(started) > 5*time.Second {
		t.Fatalf("waited %s before retrying the rejoin", gap)
	}
}

func TestRunEventsExpiredOnARejoinIsTypedAndNotRetried(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 1, 2), problem(410, "RUN_EVENTS_EXPIRED", nil, `,"firstEventId":40`))
	stream, err := host.client(t).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(stream)
	var expired *agenticdriver.RunEventsExpiredError
	if !errors.As(err, &expired) || !errors.Is(err, agenticdriver.ErrRunEventsExpired) || expired.FirstEventID != 40 || expired.Status != 410 {
		t.Fatalf("%T %v", err, err)
	}
	if len(host.requests()) != 2 {
		t.Fatalf("%d requests", len(host.requests()))
	}
}

func TestARejoinFollowsA421OnceToItsOwner(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 1, 2), misdirected("gamma", "beta"), streamed("reset", 3), misdirected("delta", "gamma"))
	stream, err := host.client(t).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	if !errors.Is(err, agenticdriver.ErrMisdirectedRequest) || strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("events %v, %v", ids, err)
	}
	// the second rejoin keeps the owner the first 421 named; its own 421 is the call's second: raised
	if got := hosts(host.requests()); !sameStrings(got, []string{"", "beta", "gamma", "gamma"}) {
		t.Fatalf("Agentic-Host %q", got)
	}
}

func TestClosingAContinueStreamDoesNotResumeIt(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		streamed("", 1)(w, r)
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	stream, err := host.client(t).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Next(); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		_ = stream.Close()
	}()
	if _, err := stream.Next(); err == nil {
		t.Fatal("a closed stream read on")
	}
	time.Sleep(100 * time.Millisecond)
	if len(host.requests()) != 1 {
		t.Fatalf("%d requests after Close", len(host.requests()))
	}
}

func TestAFailureAfterTheLastEventIsTheEndOfTheStream(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 1, 9))
	stream, err := host.client(t).StreamRun(ctx(t), continueRequest())
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := readAll(stream); err != nil || len(ids) != 2 || len(host.requests()) != 1 {
		t.Fatalf("events %v, %v, %d requests", ids, err, len(host.requests()))
	}
}

func TestAContinueActionsStreamRejoinsAfterItsOwnLastEvent(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 5, 6), streamed("", 7, 9))
	request := &agenticdriver.SubmitRunActionsRequest{
		Approvals:    []agenticdriver.ApprovalDecision{{CallID: "c", Approve: true}},
		OnDisconnect: agenticdriver.NewOptOnDisconnect(agenticdriver.OnDisconnectContinue)}
	stream, err := host.client(t).StreamRunActions(ctx(t), resumedRun, request)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	if err != nil || strings.Join(ids, ",") != "5,6,7,9" {
		t.Fatalf("events %v, %v", ids, err)
	}
	got := host.requests()
	if !sameStrings(paths(got), []string{"POST /v1/runs/" + resumedRun + "/actions/stream", eventsPath}) ||
		!sameStrings(lastEventIDs(got), []string{"", "6"}) || !sameStrings(hosts(got), []string{"beta", "beta"}) {
		t.Fatalf("%q, Last-Event-ID %q, Agentic-Host %q", paths(got), lastEventIDs(got), hosts(got))
	}
}

func TestStreamRunEventsSendsLastEventIDAndResumesItself(t *testing.T) {
	host := scriptedHost(t, streamed("reset", 4, 5), streamed("", 6, 9))
	stream, err := host.client(t).StreamRunEvents(ctx(t), resumedRun, "3")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := readAll(stream)
	if err != nil || strings.Join(ids, ",") != "4,5,6,9" {
		t.Fatalf("events %v, %v", ids, err)
	}
	got := host.requests()
	if !sameStrings(paths(got), []string{eventsPath, eventsPath}) || !sameStrings(lastEventIDs(got), []string{"3", "5"}) ||
		!sameStrings(hosts(got), []string{"beta", "beta"}) {
		t.Fatalf("%q, Last-Event-ID %q, Agentic-Host %q", paths(got), lastEventIDs(got), hosts(got))
	}
	// From the first event: no Last-Event-ID at all.
	first := scriptedHost(t, streamed("", 1, 9))
	stream, err = first.client(t).StreamRunEvents(ctx(t), resumedRun, "")
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := readAll(stream); err != nil || len(ids) != 2 {
		t.Fatalf("events %v, %v", ids, err)
	}
	if _, sent := first.requests()[0].header["Last-Event-Id"]; sent {
		t.Fatal("a Last-Event-ID without one")
	}
}

func TestStreamRunEventsRefusedBeforeTheStream(t *testing.T) {
	host := scriptedHost(t, problem(410, "RUN_EVENTS_EXPIRED", nil, `,"firstEventId":7`))
	_, err := host.client(t).StreamRunEvents(ctx(t), resumedRun, "2")
	var expired *agenticdriver.RunEventsExpiredError
	if !errors.As(err, &expired) || expired.FirstEventID != 7 || len(host.requests()) != 1 {
		t.Fatalf("%T %v, %d requests", err, err, len(host.requests()))
	}
}

func TestGetRunReadsTheRunState(t *testing.T) {
	host := scriptedHost(t, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 200, "application/json", `{"id":"`+resumedRun+`","status":"completed","onDisconnect":"continue",`+
			`"firstEventId":1,"lastEventId":9,"result":`+strings.Replace(runResult, `"run_1"`, `"`+resumedRun+`"`, 1)+`}`)
	})
	state, err := host.client(t).GetRun(ctx(t), resumedRun)
	if err != nil || state.Status != agenticdriver.RunStateStatusCompleted || state.LastEventID != 9 ||
		state.OnDisconnect != agenticdriver.OnDisconnectContinue || state.Result.Value.Output.Text != "echo: hi" {
		t.Fatalf("%+v, %v", state, err)
	}
	got := host.requests()
	if !sameStrings(paths(got), []string{"GET /v1/runs/" + resumedRun}) || !sameStrings(hosts(got), []string{"beta"}) {
		t.Fatalf("%q, Agentic-Host %q", paths(got), hosts(got))
	}
}
