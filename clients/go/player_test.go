package agenticdriver_test

// The Go player of contract-tests/scenarios/*.json (format: contract-tests/scenarios/README.md).
//
// Every request goes through HostClient, one method per operationId (bodies are decoded from the
// step's wire JSON into the generated request types). A recording http client under it keeps
// each raw answer, so expectations are judged on the wire (status, headers, JSON body; a
// stream's body is the array of its events' data). Each answer is also checked as the client
// understood it: a problem is a *ProblemError of the wire code with a sentinel, a success parsed
// into the generated type, a stream has no unknown event types. Full schema validation of answers
// is the Python runner's job (schemathesis).
//
// Here: loading and playing; one request through the client is player_call_test.go, metric steps
// player_metrics_test.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const requestTimeout = 20 * time.Second

// scenarioTokens maps token names to secrets; hosts get them as CONTRACT_TOKEN_<NAME>.
var scenarioTokens = map[string]string{
	"full":      "contract-go-full-token-00001",
	"no-grants": "contract-go-no-grants-token-1",
	"other":     "contract-go-other-subject-token",
}

const invalidToken = "contract-token-no-host-knows-0"

func tokenEnvironment() map[string]string {
	env := map[string]string{}
	for name, secret := range scenarioTokens {
		env["CONTRACT_TOKEN_"+strings.ToUpper(strings.ReplaceAll(name, "-", "_"))] = secret
	}
	return env
}

type object = map[string]any

type scenario struct {
	name     string
	host     string
	isolated bool
	data     object
}

type scenarioFailure struct{ message string }

func (f *scenarioFailure) Error() string { return f.message }

func failf(format string, args ...any) error { return &scenarioFailure{fmt.Sprintf(format, args...)} }

// loadScenarios reads every scenario file of dir and checks it against dir/schema.json.
func loadScenarios(dir string) ([]scenario, error) {
	compiler := jsonschema.NewCompiler()
	schemaFile, err := os.Open(filepath.Join(dir, "schema.json"))
	if err != nil {
		return nil, err
	}
	defer schemaFile.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(schemaFile)
	if err != nil {
		return nil, err
	}
	if err := compiler.AddResource("schema.json", schemaDoc); err != nil {
		return nil, err
	}
	schema, err := compiler.Compile("schema.json")
	if err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var scenarios []scenario
	for _, path := range paths {
		if filepath.Base(path) == "schema.json" {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := schema.Validate(instance); err != nil {
			return nil, fmt.Errorf("%s does not follow scenarios/schema.json:\n%v", filepath.Base(path), err)
		}
		var data object
		if err := json.Unmarshal(raw, &data); err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		if data["name"] != name {
			return nil, fmt.Errorf("%s: name %v must equal the file name", filepath.Base(path), data["name"])
		}
		s := scenario{name: name, host: "main", data: data}
		if host, ok := data["host"].(string); ok {
			s.host = host
		}
		s.isolated, _ = data["isolated"].(bool)
		scenarios = append(scenarios, s)
	}
	return scenarios, nil
}

// -- playing ---------------------------------------------------------------------------------------

type outcome struct {
	result *wireExchange
	err    error
}

type playContext struct {
	scenario    scenario
	baseURL     string
	metricsURLs []string // the hosts whose /metrics a metric step adds up (behind a proxy); none: baseURL
	variables   object
	background  map[string]chan outcome
}

func play(s scenario, baseURL string) error { return playMetered(s, baseURL, nil) }

// playMetered plays s against baseURL; its metric steps add up the /metrics of metricsURLs
// (the hosts behind a proxy at baseURL), or read baseURL's when there are none.
func playMetered(s scenario, baseURL string, metricsURLs []string) error {
	repeat := 1
	if value, ok := s.data["repeat"].(float64); ok {
		repeat = int(value)
	}
	steps, _ := s.data["steps"].([]any)
	for iteration := 1; iteration <= repeat; iteration++ {
		ctx := &playContext{scenario: s, baseURL: baseURL, metricsURLs: metricsURLs, variables: object{},
			background: map[string]chan outcome{}}
		err := func() error {
			defer func() { // a failed step may leave background requests running: let them finish first
				for _, pending := range ctx.background {
					<-pending
				}
			}()
			for index, raw := range steps {
				step := raw.(object)
				if err := runStep(ctx, step); err != nil {
					note := ""
					if text, ok := step["note"].(string); ok {
						note = " (" + text + ")"
					}
					return fmt.Errorf("%s, iteration %d, step %d%s: %w", s.name, iteration, index+1, note, err)
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

func runStep(ctx *playContext, step object) error {
	switch {
	case step["call"] != nil:
		return request(ctx, step)
	case step["await"] != nil:
		name := fmt.Sprint(step["await"])
		pending, ok := ctx.background[name]
		if !ok {
			return failf("no background step named %s is pending", name)
		}
		delete(ctx.background, name)
		done := <-pending
		if done.err != nil {
			return done.err
		}
		return conclude(ctx, done.result, step)
	case step["parallel"] != nil:
		return parallel(ctx, step)
	case step["metric"] != nil:
		return metric(ctx, step)
	}
	return failf("unknown step %v", step)
}

// send resolves the step against the captured values, then sends it.
func send(ctx *playContext, step object) (*wireExchange, error) {
	in, err := prepare(ctx, step)
	if err != nil {
		return nil, err
	}
	return perform(in)
}

// prepare resolves a request step; it reads the captured values, so it runs on the scenario's goroutine.
func prepare(ctx *playContext, step object) (callInput, error) {
	auth, _ := step["as"].(string)
	if auth == "" {
		auth, _ = ctx.scenario.data["as"].(string)
	}
	if auth == "" {
		auth = "full"
	}
	in := callInput{baseURL: ctx.baseURL, operationID: fmt.Sprint(step["call"]), auth: auth, path: object{}, headers: object{}}
	in.transport, _ = step["transport"].(object)
	var err error
	in.path, in.headers, in.body, err = stepFields(step, ctx.variables)
	return in, err
}

func perform(in callInput) (*wireExchange, error) {
	result, err := call(in)
	if err != nil {
		return nil, err
	}
	if len(result.parseProblems) > 0 {
		return nil, failf("%s\n%s", strings.Join(result.parseProblems, "; "), result.describe)
	}
	return result, nil
}

func request(ctx *playContext, step object) error {
	if name, ok := step["background"].(string); ok {
		in, err := prepare(ctx, step)
		if err != nil {
			return err
		}
		pending := make(chan outcome, 1)
		ctx.background[name] = pending
		go func() {
			result, err := perform(in)
			pending <- outcome{result, err}
		}()
		return nil
	}
	expect, _ := step["expect"].(object)
	if until, ok := step["until"].(object); ok {
		deadline, interval := untilPacing(until)
		for {
			result, err := send(ctx, step)
			if err != nil {
				return err
			}
			problems, err := checkExpect(result, expect, ctx.variables)
			if err != nil {
				return err
			}
			if len(problems) == 0 || time.Now().After(deadline) {
				return conclude(ctx, result, step)
			}
			time.Sleep(interval)
		}
	}
	times := 1
	if raw, ok := step["times"]; ok {
		resolved, err := resolve(raw, ctx.variables)
		if err != nil {
			return err
		}
		count, _ := resolved.(float64)
		times = int(count)
	}
	for range times {
		result, err := send(ctx, step)
		if err != nil {
			return err
		}
		if err := conclude(ctx, result, step); err != nil {
			return err
		}
	}
	return nil
}

func conclude(ctx *playContext, result *wireExchange, step object) error {
	expect, _ := step["expect"].(object)
	problems, err := checkExpect(result, expect, ctx.variables)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return failf("%s\n%s", strings.Join(problems, "; "), result.describe)
	}
	captures, _ := step["capture"].(object)
	for _, name := range sortedKeys(captures) {
		location := fmt.Sprint(captures[name])
		value := pointer(result.json, result.hasJSON, location)
		if value == missing {
			return failf("cannot capture %s: %s is not in the answer\n%s", name, location, result.describe)
		}
		ctx.variables[name] = value
	}
	return nil
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var all [][]int
	for _, rest := range permutations(n - 1) {
		for i := 0; i <= len(rest); i++ {
			order := append(append(append([]int{}, rest[:i]...), n-1), rest[i:]...)
			all = append(all, order)
		}
	}
	return all
}

func parallel(ctx *playContext, step object) error {
	requests, _ := step["parallel"].([]any)
	outcomes, _ := step["outcomes"].([]any)
	results := make([]outcome, len(requests))
	start := make(chan struct{})
	var done sync.WaitGroup
	for i, raw := range requests {
		in, err := prepare(ctx, raw.(object))
		if err != nil {
			return err
		}
		done.Add(1)
		go func() {
			defer done.Done()
			<-start // every request is sent at the same moment, each through its own client
			result, err := perform(in)
			results[i] = outcome{result, err}
		}()
	}
	close(start)
	done.Wait()
	var shownAll []string
	for _, result := range results {
		if result.err != nil {
			return result.err
		}
		shownAll = append(shownAll, result.result.describe)
	}
	for _, order := range permutations(len(results)) {
		all := true
		for j, i := range order {
			problems, err := checkExpect(results[i].result, outcomes[j].(object), ctx.variables)
			if err != nil {
				return err
			}
			all = all && len(problems) == 0
		}
		if all {
			return nil
		}
	}
	raw, _ := json.Marshal(outcomes)
	return failf("the concurrent answers do not match the outcomes %s:\n%s", raw, strings.Join(shownAll, "\n"))
}
