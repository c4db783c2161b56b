package agenticdriver_test

// The Go player of the shared client-behaviour scenarios, contract-tests/scenarios/clients/*.json
// (format and the fault proxy's control API: contract-tests/scenarios/clients/README.md).
//
// One host from contract-tests/host.json, one fault proxy in front of it
// (contract-tests/harness/faultproxy.py, run by the repository's .venv Python), and each call
// made through a HostClient built on the proxy's URL with its default retry policy. Values,
// matchers, captures and metric steps reuse the contract player (player_test.go).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const proxyStartup = 20 * time.Second

type faultProxy struct {
	url string
	cmd *exec.Cmd
}

// startFaultProxy runs the fault proxy in front of upstream and reads its "listening on URL" line.
func startFaultProxy(t *testing.T, root, upstream string) *faultProxy {
	t.Helper()
	python := filepath.Join(root, ".venv", "bin", "python")
	if !isFile(python) {
		t.Fatalf("%s not found: run `make setup`", python)
	}
	cmd := exec.Command(python, filepath.Join(root, "contract-tests", "harness", "faultproxy.py"), "--upstream", upstream)
	var stderr bytes.Buffer // the proxy's shutdown noise; shown only when it does not start
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proxy := &faultProxy{cmd: cmd}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		if scanner.Scan() {
			line <- scanner.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case text, ok := <-line:
		url, found := strings.CutPrefix(text, "listening on ")
		if !ok || !found {
			t.Fatalf("the fault proxy said %q", text) // stderr is read only after Wait, in Cleanup
		}
		proxy.url = strings.TrimSpace(url)
	case <-time.After(proxyStartup):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the fault proxy did not start within %s:\n%s", proxyStartup, stderr.String())
	}
	return proxy
}

func (p *faultProxy) arm(faults any) error {
	body, err := json.Marshal(object{"faults": faults})
	if err != nil {
		return err
	}
	response, err := (&http.Client{Timeout: requestTimeout}).Post(p.url+"/__faults", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusNoContent {
		text, _ := io.ReadAll(response.Body)
		return failf("arming the proxy: %d %s", response.StatusCode, text)
	}
	return nil
}

type proxyEntry struct {
	Method         string  `json:"method"`
	Path           string  `json:"path"`
	IdempotencyKey *string `json:"idempotencyKey"`
	AgenticHost    *string `json:"agenticHost"`
	LastEventID    *string `json:"lastEventId"`
	UserAgent      *string `json:"userAgent"`
	AtMs           float64 `json:"atMs"`
}

func (p *faultProxy) log() ([]proxyEntry, error) {
	response, err := (&http.Client{Timeout: requestTimeout}).Get(p.url + "/__faults/log")
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	var log struct{ Requests []proxyEntry }
	if err := json.NewDecoder(response.Body).Decode(&log); err != nil {
		return nil, err
	}
	return log.Requests, nil
}

// clientOutcome is what one logical call came to: its success body in wire form, or its error.
type clientOutcome struct {
	body any
	err  error
	// failure: the player could not make the call (not the client's outcome).
	failure error
}

type clientPlay struct {
	t          *testing.T
	client     *agenticdriver.HostClient
	proxy      *faultProxy
	host       *host
	variables  object
	background map[string]chan clientOutcome
}

func TestClientScenarios(t *testing.T) {
	dir := filepath.Join(contractDir(t), "scenarios", "clients")
	scenarios, err := loadScenarios(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(scenarios) == 0 {
		t.Fatalf("no client scenarios in %s", dir)
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	h, err := startHost(filepath.Join(contractDir(t), "host.json"), tokenEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.stop)
	proxy := startFaultProxy(t, root, h.baseURL)
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			client, err := agenticdriver.New(agenticdriver.WithBaseURL(proxy.url), agenticdriver.WithToken(scenarioTokens["full"]))
			if err != nil {
				t.Fatal(err)
			}
			play := &clientPlay{t: t, client: client, proxy: proxy, host: h, variables: object{}, background: map[string]chan clientOutcome{}}
			defer func() {
				for _, pending := range play.background {
					<-pending
				}
			}()
			steps, _ := s.data["steps"].([]any)
			for index, raw := range steps {
				step := raw.(object)
				if err := play.step(step); err != nil {
					note := ""
					if text, ok := step["note"].(string); ok {
						note = " (" + text + ")"
					}
					t.Fatalf("step %d%s: %v", index+1, note, err)
				}
			}
		})
	}
}

func (p *clientPlay) step(step object) error {
	switch {
	case step["call"] != nil:
		return p.call(step)
	case step["await"] != nil:
		name := fmt.Sprint(step["await"])
		pending, ok := p.background[name]
		if !ok {
			return failf("no background call named %s", name)
		}
		delete(p.background, name)
		return p.conclude(<-pending, step)
	case step["faults"] != nil:
		faults, err := resolve(step["faults"], p.variables)
		if err != nil {
			return err
		}
		list, _ := faults.([]any)
		for _, fault := range list {
			if fault, ok := fault.(object); ok {
				if fault["path"], err = interpolate(fmt.Sprint(fault["path"]), p.variables); err != nil {
					return err
				}
			}
		}
		return p.proxy.arm(list)
	case step["proxyLog"] != nil:
		return p.checkLog(step)
	case step["metric"] != nil:
		return metric(&playContext{baseURL: p.host.baseURL, variables: p.variables}, step)
	}
	return failf("unknown step %v", step)
}

func (p *clientPlay) call(step object) error {
	if name, ok := step["background"].(string); ok {
		pending := make(chan clientOutcome, 1)
		p.background[name] = pending
		in, err := p.prepare(step)
		if err != nil {
			return err
		}
		go func() { pending <- p.invoke(in) }()
		return nil
	}
	until, repeat := step["until"].(object)
	if !repeat {
		in, err := p.prepare(step)
		if err != nil {
			return err
		}
		return p.conclude(p.invoke(in), step)
	}
	deadline, interval := untilPacing(until)
	for {
		in, err := p.prepare(step)
		if err != nil {
			return err
		}
		outcome := p.invoke(in)
		if outcome.failure != nil {
			return outcome.failure
		}
		problems, err := p.judge(outcome, step)
		if err != nil {
			return err
		}
		if len(problems) == 0 || time.Now().After(deadline) {
			return p.conclude(outcome, step)
		}
		time.Sleep(interval)
	}
}

type clientCall struct {
	name          string
	path, headers object
	body          any
}

func (p *clientPlay) prepare(step object) (clientCall, error) {
	in := clientCall{name: fmt.Sprint(step["call"])}
	var err error
	in.path, in.headers, in.body, err = stepFields(step, p.variables)
	return in, err
}

type marshaler interface{ MarshalJSON() ([]byte, error) }

// wire is a generated success type as its JSON.
func wire(value marshaler, err error) clientOutcome {
	if err != nil {
		return clientOutcome{err: err}
	}
	raw, marshalErr := value.MarshalJSON()
	if marshalErr != nil {
		return clientOutcome{failure: marshalErr}
	}
	var body any
	if err := json.Unmarshal(raw, &body); err != nil {
		return clientOutcome{failure: err}
	}
	return clientOutcome{body: body}
}

func (p *clientPlay) invoke(in clientCall) clientOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var opts []agenticdriver.CallOption
	if key, ok := in.headers["Idempotency-Key"].(string); ok {
		opts = append(opts, agenticdriver.WithIdempotencyKey(key))
	}
	c := p.client
	id := func(name string) string { return stringParam(in.path, name) }
	switch in.name {
	case "createSession":
		body, err := decodeBody[agenticdriver.CreateSessionRequest](in.body)
		if err != nil {
			return clientOutcome{failure: err}
		}
		return wire(c.CreateSession(ctx, body, opts...))
	case "readSession":
		return wire(c.ReadSession(ctx, id("sessionId"), opts...))
	case "waitUntilIdle":
		return wire(c.WaitUntilIdle(ctx, id("sessionId"), agenticdriver.WithWaitBound(10*time.Second)))
	case "deleteSession":
		return clientOutcome{err: c.DeleteSession(ctx, id("sessionId"), opts...)}
	case "truncateSession":
		body, err := decodeBody[agenticdriver.TruncateSessionRequest](in.body)
		if err != nil {
			return clientOutcome{failure: err}
		}
		return wire(c.TruncateSession(ctx, id("sessionId"), body, opts...))
	case "forkSession":
		// A step without a body forks at the current revision, as `{}` does.
		body := &agenticdriver.ForkSessionRequest{}
		if in.body != nil {
			var err error
			if body, err = decodeBody[agenticdriver.ForkSessionRequest](in.body); err != nil {
				return clientOutcome{failure: err}
			}
		}
		return wire(c.ForkSession(ctx, id("sessionId"), body, opts...))
	case "run":
		body, err := decodeBody[agenticdriver.RunRequest](in.body)
		if err != nil {
			return clientOutcome{failure: err}
		}
		return wire(c.Run(ctx, body, opts...))
	case "submitRunActions":
		body, err := decodeBody[agenticdriver.SubmitRunActionsRequest](in.body)
		if err != nil {
			return clientOutcome{failure: err}
		}
		return wire(c.SubmitRunActions(ctx, id("runId"), body, opts...))
	case "cancelRun":
		return wire(c.CancelRun(ctx, id("runId"), opts...))
	case "streamRun":
		body, err := decodeBody[agenticdriver.RunRequest](in.body)
		if err != nil {
			return clientOutcome{failure: err}
		}
		return events(c.StreamRun(ctx, body, opts...))
	case "getRun":
		return wire(c.GetRun(ctx, id("runId"), opts...))
	case "streamRunEvents":
		return events(c.StreamRunEvents(ctx, id("runId"), stringParam(in.headers, "Last-Event-ID"), opts...))
	}
	return clientOutcome{failure: failf("the player has no call %s", in.name)}
}

// jsonText is a value as JSON, for comparing lists of strings and nulls.
func jsonText(value any) string {
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	return string(raw)
}

// events reads a whole stream as the JSON array of its events' data.
func events(stream *agenticdriver.EventStream, err error) clientOutcome {
	if err != nil {
		return clientOutcome{err: err}
	}
	all := []any{}
	for _, err := range stream.All() {
		if err != nil {
			return clientOutcome{err: err}
		}
		var data any
		if err := json.Unmarshal(stream.LastEventData, &data); err != nil {
			return clientOutcome{failure: err}
		}
		all = append(all, data)
	}
	return clientOutcome{body: all}
}

// judge lists what does not hold of the step's expect.
func (p *clientPlay) judge(outcome clientOutcome, step object) ([]string, error) {
	expect, _ := step["expect"].(object)
	if _, wantsOK := expect["ok"]; wantsOK {
		if outcome.err != nil {
			return []string{fmt.Sprintf("the call failed: %T %v", outcome.err, outcome.err)}, nil
		}
		body, _ := expect["body"].(object)
		return mismatches("body", body, p.variables, func(location string) (any, error) {
			return pointer(outcome.body, true, location), nil
		}, asIs)
	}
	want, _ := expect["error"].(object)
	if outcome.err == nil {
		return []string{fmt.Sprintf("the call returned %s, expected an error %s", shown(outcome.body), shown(want))}, nil
	}
	var root agenticdriver.Error
	if !errors.As(outcome.err, &root) {
		return []string{fmt.Sprintf("%T %v is outside the client's error tree", outcome.err, outcome.err)}, nil
	}
	switch want["kind"] {
	case "connection":
		var connection *agenticdriver.ConnectionError
		if !errors.As(outcome.err, &connection) {
			return []string{fmt.Sprintf("%T %v is not a connection error", outcome.err, outcome.err)}, nil
		}
		return nil, nil
	case "timeout":
		var timeout *agenticdriver.TimeoutError
		if !errors.As(outcome.err, &timeout) {
			return []string{fmt.Sprintf("%T %v is not a timeout error", outcome.err, outcome.err)}, nil
		}
		return nil, nil
	}
	var problem *agenticdriver.ProblemError
	if !errors.As(outcome.err, &problem) {
		return []string{fmt.Sprintf("%T %v is not a problem error", outcome.err, outcome.err)}, nil
	}
	var problems []string
	if code := fmt.Sprint(want["code"]); string(problem.Code) != code || !errors.Is(outcome.err, agenticdriver.Sentinel(problem.Code)) {
		problems = append(problems, fmt.Sprintf("code %s, expected %s (with its sentinel)", problem.Code, code))
	}
	if status, _ := want["status"].(float64); problem.Status != int(status) {
		problems = append(problems, fmt.Sprintf("status %d, expected %v", problem.Status, want["status"]))
	}
	fields, _ := want["fields"].(object)
	fieldProblems, err := mismatches("field", fields, p.variables, func(name string) (any, error) {
		return typedField(outcome.err, problem, name)
	}, asIs)
	if err != nil {
		return nil, err
	}
	return append(problems, fieldProblems...), nil
}

// typedField reads a field by its wire name from the typed error's own accessor.
func typedField(err error, problem *agenticdriver.ProblemError, name string) (any, error) {
	optional := func(value agenticdriver.OptInt) any {
		if !value.Set {
			return missing
		}
		return float64(value.Value)
	}
	switch name {
	case "currentRevision":
		var conflict *agenticdriver.SessionRevisionConflictError
		if !errors.As(err, &conflict) {
			return missing, nil
		}
		return float64(conflict.CurrentRevision), nil
	case "activeRunId":
		var busy *agenticdriver.SessionBusyError
		if !errors.As(err, &busy) {
			return missing, nil
		}
		return busy.ActiveRunID, nil
	case "hostId", "ownerHostId":
		var misdirected *agenticdriver.MisdirectedRequestError
		var unavailable *agenticdriver.HostUnavailableError
		switch {
		case errors.As(err, &misdirected) && name == "hostId":
			return misdirected.HostID, nil
		case errors.As(err, &misdirected):
			return misdirected.OwnerHostID, nil
		case errors.As(err, &unavailable) && name == "ownerHostId":
			return unavailable.OwnerHostID, nil
		}
		return missing, nil
	case "firstEventId":
		var expired *agenticdriver.RunEventsExpiredError
		if !errors.As(err, &expired) {
			return missing, nil
		}
		return float64(expired.FirstEventID), nil
	case "retryAfterSeconds":
		return optional(problem.RetryAfterSeconds), nil
	case "maximum":
		return optional(problem.Maximum), nil
	case "limit":
		return problem.Limit, nil
	case "reason":
		return problem.Reason, nil
	case "detail":
		return problem.Detail, nil
	}
	return nil, failf("the player knows no typed field %s", name)
}

func (p *clientPlay) conclude(outcome clientOutcome, step object) error {
	if outcome.failure != nil {
		return outcome.failure
	}
	problems, err := p.judge(outcome, step)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return failf("%s: %s", step["call"], strings.Join(problems, "; "))
	}
	captures, _ := step["capture"].(object)
	for _, name := range sortedKeys(captures) {
		value := pointer(outcome.body, true, fmt.Sprint(captures[name]))
		if value == missing {
			return failf("cannot capture %s: %s is not in %s", name, captures[name], shown(outcome.body))
		}
		p.variables[name] = value
	}
	return nil
}

func (p *clientPlay) checkLog(step object) error {
	selector, _ := step["proxyLog"].(object)
	path, err := interpolate(fmt.Sprint(selector["path"]), p.variables)
	if err != nil {
		return err
	}
	method := fmt.Sprint(selector["method"])
	entries, err := p.proxy.log()
	if err != nil {
		return err
	}
	var selected []proxyEntry
	for _, entry := range entries {
		if entry.Method == method && entry.Path == path {
			selected = append(selected, entry)
		}
	}
	expect, _ := step["expect"].(object)
	var problems []string
	if count, ok := expect["count"].(float64); ok && len(selected) != int(count) {
		problems = append(problems, fmt.Sprintf("%d requests, expected %v", len(selected), count))
	}
	if keys, ok := expect["idempotencyKeys"].(float64); ok {
		distinct := map[string]bool{}
		for _, entry := range selected {
			if entry.IdempotencyKey == nil {
				problems = append(problems, "a request without an Idempotency-Key")
				continue
			}
			distinct[*entry.IdempotencyKey] = true
		}
		if len(distinct) != int(keys) {
			problems = append(problems, fmt.Sprintf("%d distinct keys, expected %v", len(distinct), keys))
		}
	}
	if gap, ok := expect["minGapMs"].(float64); ok {
		for i := 1; i < len(selected); i++ {
			if actual := selected[i].AtMs - selected[i-1].AtMs; actual < gap {
				problems = append(problems, fmt.Sprintf("%.0f ms between attempts %d and %d, expected at least %v", actual, i, i+1, gap))
			}
		}
	}
	for _, header := range []struct {
		expectation, name string
		of                func(proxyEntry) *string
	}{
		{"agenticHosts", "Agentic-Host", func(entry proxyEntry) *string { return entry.AgenticHost }},
		{"lastEventIds", "Last-Event-ID", func(entry proxyEntry) *string { return entry.LastEventID }},
	} {
		wanted, ok := expect[header.expectation].([]any)
		if !ok {
			continue
		}
		got := make([]any, len(selected))
		for i, entry := range selected {
			if value := header.of(entry); value != nil {
				got[i] = *value
			}
		}
		if jsonText(got) != jsonText(wanted) {
			problems = append(problems, fmt.Sprintf("%s %s, expected %s", header.name, shown(got), shown(wanted)))
		}
	}
	if prefix, ok := expect["userAgentPrefix"].(string); ok {
		for _, entry := range selected {
			if entry.UserAgent == nil || !strings.HasPrefix(*entry.UserAgent, prefix) {
				problems = append(problems, fmt.Sprintf("User-Agent %v does not start with %s", shown(entry.UserAgent), prefix))
			}
		}
	}
	keys := map[string]bool{}
	var gaps []string
	for i, entry := range selected {
		if entry.IdempotencyKey != nil {
			keys[*entry.IdempotencyKey] = true
		}
		if i > 0 {
			gaps = append(gaps, fmt.Sprintf("%.0f ms", entry.AtMs-selected[i-1].AtMs))
		}
	}
	p.t.Logf("%s %s: %d attempts, %d distinct keys, gaps %v", method, path, len(selected), len(keys), gaps)
	if len(problems) > 0 {
		shownLog, _ := json.Marshal(selected)
		return failf("%s %s: %s\n  log: %s", method, path, strings.Join(problems, "; "), shownLog)
	}
	return nil
}
