package agenticdriver_test

// ../BEHAVIOUR.md, Routing, against scripted fake hosts: Agentic-Host from the id, one 421
// followed to its owner, HOST_UNAVAILABLE retried then typed.

import (
	"errors"
	"net/http"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const (
	routedSession = "ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ"
	routedRun     = "run_beta.AAECAwQFBgcICQoLDA0ODw"
	cancelled     = `{"id":"run_beta.AAECAwQFBgcICQoLDA0ODw","status":"cancelled","modelWorkStarted":false}`
)

func misdirected(owner, answeredBy string) http.HandlerFunc {
	return problem(421, "MISDIRECTED_REQUEST", nil, `,"hostId":"`+answeredBy+`","ownerHostId":"`+owner+`"`)
}

func hosts(got []seen) []string {
	found := make([]string, len(got))
	for i, request := range got {
		found[i] = request.header.Get("Agentic-Host")
	}
	return found
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAgenticHostNamesTheOwnerOfWhatTheRequestNames(t *testing.T) {
	host := scriptedHost(t, problem(404, "SESSION_NOT_FOUND", nil, ""))
	client := host.client(t)
	c := ctx(t)
	handle := agenticdriver.NewOptSessionHandle(agenticdriver.SessionHandle{ID: routedSession, Revision: 0})
	sessionRun := &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: "x", Session: handle}
	approvals := &agenticdriver.SubmitRunActionsRequest{Approvals: []agenticdriver.ApprovalDecision{{CallID: "c", Approve: true}}}
	calls := []struct {
		name string
		call func() error
		want string
	}{
		{"discovery", func() error { _, err := client.GetDiscovery(c); return err }, ""},
		{"create", func() error {
			_, err := client.CreateSession(c, &agenticdriver.CreateSessionRequest{Provider: "echo", Model: "echo-1", Mode: "history"})
			return err
		}, ""},
		{"stateless run", func() error { _, err := client.Run(c, echoRequest()); return err }, ""},
		{"stateless stream", func() error { _, err := client.StreamRun(c, echoRequest()); return err }, ""},
		{"session run", func() error { _, err := client.Run(c, sessionRun); return err }, "alpha-1"},
		{"session stream", func() error { _, err := client.StreamRun(c, sessionRun); return err }, "alpha-1"},
		{"read", func() error { _, err := client.ReadSession(c, routedSession); return err }, "alpha-1"},
		{"truncate", func() error {
			_, err := client.TruncateSession(c, routedSession, &agenticdriver.TruncateSessionRequest{KeepTurns: 0})
			return err
		}, "alpha-1"},
		{"fork", func() error {
			_, err := client.ForkSession(c, routedSession, &agenticdriver.ForkSessionRequest{})
			return err
		}, "alpha-1"},
		{"delete", func() error { return client.DeleteSession(c, routedSession) }, "alpha-1"},
		{"actions", func() error { _, err := client.SubmitRunActions(c, routedRun, approvals); return err }, "beta"},
		{"actions stream", func() error { _, err := client.StreamRunActions(c, routedRun, approvals); return err }, "beta"},
		{"cancel", func() error { _, err := client.CancelRun(c, routedRun); return err }, "beta"},
		{"get run", func() error { _, err := client.GetRun(c, routedRun); return err }, "beta"},
		{"run events", func() error { _, err := client.StreamRunEvents(c, routedRun, "3"); return err }, "beta"},
		{"old session id", func() error { _, err := client.ReadSession(c, "ses_k3Jx9_Qw-Zp0aBcDeFgHiJ"); return err }, ""},
		{"raw read", func() error {
			_, err := client.Raw().ReadSession(c, agenticdriver.ReadSessionParams{SessionID: routedSession})
			return err
		}, "alpha-1"},
		// Through Raw() only the encoded body names the session: the transport reads it from there.
		{"raw session run", func() error {
			_, err := client.Raw().Run(c, sessionRun, agenticdriver.RunParams{})
			return err
		}, "alpha-1"},
		{"raw session stream", func() error {
			_, err := client.Raw().StreamRun(c, sessionRun, agenticdriver.StreamRunParams{})
			return err
		}, "alpha-1"},
		{"raw stateless run", func() error {
			_, err := client.Raw().Run(c, echoRequest(), agenticdriver.RunParams{})
			return err
		}, ""},
	}
	var want []string
	for _, call := range calls {
		if err := call.call(); !errors.Is(err, agenticdriver.ErrSessionNotFound) {
			t.Fatalf("%s: %v", call.name, err)
		}
		want = append(want, call.want)
	}
	if got := hosts(host.requests()); !sameStrings(got, want) {
		t.Fatalf("Agentic-Host per call:\n got %q\nwant %q", got, want)
	}
}

func TestA421IsFollowedOnceAtOnceToItsOwner(t *testing.T) {
	host := scriptedHost(t, misdirected("gamma", "other-host"), func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 200, "application/json", cancelled)
	})
	answer, err := host.client(t, agenticdriver.WithMaxRetries(0)).CancelRun(ctx(t), routedRun)
	if err != nil || answer.ID != routedRun {
		t.Fatalf("%+v, %v", answer, err)
	}
	got := host.requests()
	if !sameStrings(hosts(got), []string{"beta", "gamma"}) {
		t.Fatalf("Agentic-Host %q", hosts(got))
	}
	if gap := got[1].at.Sub(got[0].at); gap > 300*time.Millisecond {
		t.Fatalf("waited %s before the follow-up", gap)
	}
}

func TestAFollowedRunKeepsItsKeyAndBodyAndASecond421IsTyped(t *testing.T) {
	host := scriptedHost(t, misdirected("alpha-1", "delta"))
	handle := agenticdriver.NewOptSessionHandle(agenticdriver.SessionHandle{ID: routedSession, Revision: 3})
	_, err := host.client(t).Run(ctx(t), &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: "once", Session: handle})
	var typed *agenticdriver.MisdirectedRequestError
	if !errors.As(err, &typed) || !errors.Is(err, agenticdriver.ErrMisdirectedRequest) {
		t.Fatalf("%T %v", err, err)
	}
	if typed.Status != 421 || typed.HostID != "delta" || typed.OwnerHostID != "alpha-1" {
		t.Fatalf("%+v", typed)
	}
	got := host.requests()
	if len(got) != 2 {
		t.Fatalf("%d attempts, want 2 (one follow-up; 421 is not in the retry table)", len(got))
	}
	if got[0].header.Get("Idempotency-Key") == "" || got[0].header.Get("Idempotency-Key") != got[1].header.Get("Idempotency-Key") ||
		got[0].body != got[1].body {
		t.Fatalf("the follow-up is not the same request: %+v", got)
	}
}

func TestA421AfterARetryIsStillFollowedAndLaterRetriesKeepTheOwner(t *testing.T) {
	busy := problem(503, "HOST_BUSY", map[string]string{"Retry-After": "0"}, "")
	host := scriptedHost(t, busy, misdirected("gamma", "other-host"), busy, problem(404, "SESSION_NOT_FOUND", nil, ""))
	_, err := host.client(t).ReadSession(ctx(t), routedSession)
	if !errors.Is(err, agenticdriver.ErrSessionNotFound) {
		t.Fatal(err)
	}
	if got := hosts(host.requests()); !sameStrings(got, []string{"alpha-1", "alpha-1", "gamma", "gamma"}) {
		t.Fatalf("Agentic-Host %q", got)
	}
}

func TestA421WithoutAUsableOwnerIsNotFollowed(t *testing.T) {
	host := scriptedHost(t, misdirected("Not A Label", "other-host"))
	_, err := host.client(t).ReadSession(ctx(t), routedSession)
	if !errors.Is(err, agenticdriver.ErrMisdirectedRequest) || len(host.requests()) != 1 {
		t.Fatalf("%v after %d requests", err, len(host.requests()))
	}
}

func TestAStreamedRunFollowsA421BeforeItsHead(t *testing.T) {
	host := scriptedHost(t, misdirected("gamma", "other-host"), func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 200, "text/event-stream", "event: later.kind\ndata: {\"type\":\"later.kind\",\"n\":1}\n\n")
	})
	handle := agenticdriver.NewOptSessionHandle(agenticdriver.SessionHandle{ID: routedSession, Revision: 0})
	stream, err := host.client(t).StreamRun(ctx(t), &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: "x", Session: handle})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stream.Close() }()
	if _, err := stream.Next(); err != nil {
		t.Fatal(err)
	}
	if got := hosts(host.requests()); !sameStrings(got, []string{"alpha-1", "gamma"}) {
		t.Fatalf("Agentic-Host %q", got)
	}
}

func TestHostUnavailableIsRetriedThenTyped(t *testing.T) {
	host := scriptedHost(t, problem(503, "HOST_UNAVAILABLE", map[string]string{"Retry-After": "0"}, `,"ownerHostId":"alpha-1"`))
	_, err := host.client(t).ReadSession(ctx(t), routedSession)
	var typed *agenticdriver.HostUnavailableError
	if !errors.As(err, &typed) || !errors.Is(err, agenticdriver.ErrHostUnavailable) || typed.OwnerHostID != "alpha-1" {
		t.Fatalf("%T %v", err, err)
	}
	if len(host.requests()) != 3 {
		t.Fatalf("%d attempts, want 3", len(host.requests()))
	}
}
