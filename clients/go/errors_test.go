package agenticdriver_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

// TestSentinelsCoverTheCatalogue: every code of the generated ErrorCode enum (the spec's
// catalogue) has its own sentinel, so a new code fails here until it gets one.
func TestSentinelsCoverTheCatalogue(t *testing.T) {
	codes := agenticdriver.ErrorCode("").AllValues()
	if len(codes) < 30 {
		t.Fatalf("the catalogue has %d codes", len(codes))
	}
	seen := map[error]bool{}
	for _, code := range codes {
		sentinel := agenticdriver.Sentinel(code)
		if sentinel == nil {
			t.Errorf("no sentinel for %s", code)
			continue
		}
		if seen[sentinel] {
			t.Errorf("%s shares a sentinel", code)
		}
		seen[sentinel] = true
		problem := &agenticdriver.ProblemError{Status: 400, Code: code}
		if !errors.Is(problem, sentinel) || !errors.Is(fmt.Errorf("wrapped: %w", problem), sentinel) {
			t.Errorf("errors.Is does not match %s", code)
		}
	}
}

func problemBody(code string, fields string) []byte {
	return []byte(`{"type":"urn:agentic-driver:problem:` + code + `","title":"T","status":409,"code":"` + code +
		`","detail":"about ` + code + `"` + fields + `}`)
}

func TestTheFourSessionCodesAreDistinguishable(t *testing.T) {
	sentinels := []error{agenticdriver.ErrSessionRevisionConflict, agenticdriver.ErrSessionBusy,
		agenticdriver.ErrSessionInterrupted, agenticdriver.ErrSessionAccountRequired}
	for i, code := range []string{"SESSION_REVISION_CONFLICT", "SESSION_BUSY", "SESSION_INTERRUPTED", "SESSION_ACCOUNT_REQUIRED"} {
		problem, ok := agenticdriver.ParseProblem(409, nil, problemBody(code, ""))
		if !ok {
			t.Fatal(code)
		}
		for j, sentinel := range sentinels {
			if errors.Is(problem, sentinel) != (i == j) {
				t.Errorf("%s vs %v", code, sentinel)
			}
		}
	}
}

func TestParseProblemFields(t *testing.T) {
	header := http.Header{"Retry-After": {"2"}}
	problem, ok := agenticdriver.ParseProblem(409, header, problemBody("SESSION_BUSY", `,"activeRunId":"run_1"`))
	if !ok || problem.RetryAfterSeconds.Or(0) != 2 || problem.Detail != "about SESSION_BUSY" {
		t.Fatalf("%+v", problem)
	}
	if problem.Error() != "SESSION_BUSY (409): about SESSION_BUSY" || !problem.Known() {
		t.Fatalf("%q", problem.Error())
	}
	conflict, _ := agenticdriver.ParseProblem(409, nil, problemBody("SESSION_REVISION_CONFLICT", `,"currentRevision":3,"retryAfterSeconds":0`))
	if conflict.RetryAfterSeconds.Or(-1) != 0 {
		t.Fatalf("%+v", conflict)
	}
}

// TestParseProblemRequestID: the X-Request-Id header, else the body's requestId, else empty.
func TestParseProblemRequestID(t *testing.T) {
	body := []byte(`{"type":"t","title":"T","status":404,"code":"SESSION_NOT_FOUND","detail":"d","requestId":"body-id"}`)
	cases := []struct {
		header http.Header
		body   []byte
		want   string
	}{
		{http.Header{"X-Request-Id": {"header-id"}}, body, "header-id"},
		{http.Header{}, body, "body-id"},
		{nil, body, "body-id"},
		{http.Header{}, []byte(`{"code":"SESSION_NOT_FOUND","detail":"d"}`), ""},
	}
	for _, c := range cases {
		problem, ok := agenticdriver.ParseProblem(404, c.header, c.body)
		if !ok || problem.RequestID != c.want {
			t.Errorf("RequestID = %q (ok %v), want %q", problem.RequestID, ok, c.want)
		}
	}
}

func TestParseProblemKeepsAnUnknownCode(t *testing.T) {
	problem, ok := agenticdriver.ParseProblem(418, nil, problemBody("TEAPOT_EMPTY", `,"extra":true`))
	if !ok || problem.Code != "TEAPOT_EMPTY" || problem.Known() || agenticdriver.Sentinel(problem.Code) != nil {
		t.Fatalf("%+v", problem)
	}
	if string(problem.Body) != string(problemBody("TEAPOT_EMPTY", `,"extra":true`)) {
		t.Fatalf("body %s", problem.Body)
	}
}

func TestParseProblemRejectsOtherBodies(t *testing.T) {
	for _, body := range []string{`<html>`, `{"detail":"no code"}`, `[]`} {
		if _, ok := agenticdriver.ParseProblem(502, nil, []byte(body)); ok {
			t.Errorf("%s parsed as a problem", body)
		}
	}
}
