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

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
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

// -- one request through the client --------------------------------------------------------------

// wireExchange is one request and what came back.
type wireExchange struct {
	status  int
	header  http.Header
	json    any // the body as JSON; a stream's is the array of its events' data
	hasJSON bool
	// parseProblems says what the client's reading of the answer got wrong.
	parseProblems []string
	describe      string
}

type callInput struct {
	baseURL, operationID, auth string
	path, headers              object
	body                       any
	transport                  object
}

// recorder sits under the client: it applies transport deviations and keeps every raw answer.
type recorder struct {
	contentType string
	mu          sync.Mutex
	last        *http.Response
	lastBody    []byte
}

func (r *recorder) RoundTrip(request *http.Request) (*http.Response, error) {
	if r.contentType != "" {
		request.Header.Set("Content-Type", r.contentType)
	}
	response, err := http.DefaultTransport.RoundTrip(request)
	if err != nil {
		return nil, err
	}
	isStream := strings.HasPrefix(response.Header.Get("Content-Type"), "text/event-stream")
	var body []byte
	if !isStream || response.StatusCode != 200 {
		body, err = io.ReadAll(response.Body)
		_ = response.Body.Close()
		if err != nil {
			return nil, err
		}
		response.Body = io.NopCloser(bytes.NewReader(body))
	}
	r.mu.Lock()
	r.last, r.lastBody = response, body
	r.mu.Unlock()
	return response, nil
}

func stringParam(values object, name string) string {
	value, _ := values[name].(string)
	return value
}

// decodeBody turns the step's wire JSON into a generated request type.
func decodeBody[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
}](body any) (*T, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	value := P(new(T))
	if err := value.UnmarshalJSON(raw); err != nil {
		return nil, failf("the body does not decode into %T: %v", value, err)
	}
	return value, nil
}

// operations calls HostClient's method for each operationId; a stream comes back as *EventStream.
var operations = map[string]func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error){
	"getHealth": func(ctx context.Context, c *agenticdriver.HostClient, _ callInput, opts []agenticdriver.CallOption) (any, error) {
		return c.GetHealth(ctx, opts...)
	},
	"getDiscovery": func(ctx context.Context, c *agenticdriver.HostClient, _ callInput, opts []agenticdriver.CallOption) (any, error) {
		return c.GetDiscovery(ctx, opts...)
	},
	"createSession": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.CreateSessionRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.CreateSession(ctx, body, opts...)
	},
	"readSession": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		return c.ReadSession(ctx, stringParam(in.path, "sessionId"), opts...)
	},
	"deleteSession": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		return struct{}{}, c.DeleteSession(ctx, stringParam(in.path, "sessionId"), opts...)
	},
	"truncateSession": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.TruncateSessionRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.TruncateSession(ctx, stringParam(in.path, "sessionId"), body, opts...)
	},
	"forkSession": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.ForkSessionRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.ForkSession(ctx, stringParam(in.path, "sessionId"), body, opts...)
	},
	"run": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.RunRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.Run(ctx, body, opts...)
	},
	"streamRun": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.RunRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.StreamRun(ctx, body, opts...)
	},
	"submitRunActions": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.SubmitRunActionsRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.SubmitRunActions(ctx, stringParam(in.path, "runId"), body, opts...)
	},
	"streamRunActions": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		body, err := decodeBody[agenticdriver.SubmitRunActionsRequest](in.body)
		if err != nil {
			return nil, err
		}
		return c.StreamRunActions(ctx, stringParam(in.path, "runId"), body, opts...)
	},
	"cancelRun": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		return c.CancelRun(ctx, stringParam(in.path, "runId"), opts...)
	},
	"getRun": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		return c.GetRun(ctx, stringParam(in.path, "runId"), opts...)
	},
	"streamRunEvents": func(ctx context.Context, c *agenticdriver.HostClient, in callInput, opts []agenticdriver.CallOption) (any, error) {
		return c.StreamRunEvents(ctx, stringParam(in.path, "runId"), stringParam(in.headers, "Last-Event-ID"), opts...)
	},
}

func describeCall(in callInput, status int, body string) string {
	path, _ := json.Marshal(in.path)
	request := ""
	if in.body != nil {
		raw, _ := json.Marshal(in.body)
		request = truncate(string(raw), 400)
	}
	return fmt.Sprintf("%s %s %s\n  -> %d %s", in.operationID, path, request, status, truncate(body, 800))
}

func truncate(text string, limit int) string {
	if len(text) > limit {
		return text[:limit]
	}
	return text
}

func call(in callInput) (*wireExchange, error) {
	operation, ok := operations[in.operationID]
	if !ok {
		return nil, failf("the client has no operation %s", in.operationID)
	}
	contentType, _ := in.transport["contentType"].(string)
	wire := &recorder{contentType: contentType}
	token := scenarioTokens[in.auth]
	var opts []agenticdriver.CallOption
	switch in.auth {
	case "invalid":
		token = invalidToken
	case "none": // the generated client needs a token to send a secured request: send one, then drop it
		token = invalidToken
		opts = append(opts, agenticdriver.WithEditor(func(r *http.Request) error { r.Header.Del("Authorization"); return nil }))
	default:
		if token == "" {
			return nil, failf("unknown credentials %s", in.auth)
		}
	}
	if key, ok := in.headers["Idempotency-Key"].(string); ok {
		opts = append(opts, agenticdriver.WithIdempotencyKey(key))
	}
	// One attempt per step: these scenarios judge the host's every answer, retries are the client scenarios' business.
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(in.baseURL), agenticdriver.WithToken(token),
		agenticdriver.WithHTTPClient(&http.Client{Transport: wire}), agenticdriver.WithMaxRetries(0))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	parsed, callErr := operation(ctx, client, in, opts)
	var failure *scenarioFailure
	if errors.As(callErr, &failure) {
		return nil, failure
	}
	if stream, ok := parsed.(*agenticdriver.EventStream); ok && callErr == nil {
		return readStream(in, stream), nil
	}
	wire.mu.Lock()
	response, body := wire.last, wire.lastBody
	wire.mu.Unlock()
	if response == nil {
		return nil, failf("the client sent no request: %v", callErr)
	}
	result := &wireExchange{status: response.StatusCode, header: response.Header, describe: describeCall(in, response.StatusCode, string(body))}
	if len(body) == 0 {
		result.json, result.hasJSON = nil, true
	} else if json.Unmarshal(body, &result.json) == nil {
		result.hasJSON = true
	}
	result.parseProblems = checkParsed(response.StatusCode, result.json, callErr)
	return result, nil
}

// checkParsed: the client read a success into its type, and a problem as a *ProblemError of the wire code.
func checkParsed(status int, wire any, err error) []string {
	if status < 400 {
		if err != nil {
			return []string{fmt.Sprintf("the client failed on a %d answer: %v", status, err)}
		}
		return nil
	}
	var problem *agenticdriver.ProblemError
	if !errors.As(err, &problem) {
		return []string{fmt.Sprintf("the client did not read the %d answer as a problem: %v", status, err)}
	}
	wireCode, _ := wire.(object)["code"].(string)
	switch {
	case string(problem.Code) != wireCode:
		return []string{fmt.Sprintf("the client read code %s, the wire says %s", problem.Code, wireCode)}
	case !errors.Is(err, agenticdriver.Sentinel(problem.Code)):
		return []string{fmt.Sprintf("the client has no sentinel for %s", problem.Code)}
	}
	return nil
}

func readStream(in callInput, stream *agenticdriver.EventStream) *wireExchange {
	defer stream.Close()
	limit := -1
	if value, ok := in.transport["disconnectAfterEvents"].(float64); ok {
		limit = int(value)
	}
	events := []any{}
	var problems, unknown []string
	for limit < 0 || len(events) < limit {
		event, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("reading the stream failed: %v", err))
			break
		}
		if unknownEvent, ok := event.(*agenticdriver.UnknownEvent); ok {
			unknown = append(unknown, unknownEvent.Type)
		}
		var data any
		if err := json.Unmarshal(stream.LastEventData, &data); err != nil {
			problems = append(problems, fmt.Sprintf("event data is not JSON: %v", err))
		}
		events = append(events, data)
	}
	if len(unknown) > 0 {
		problems = append(problems, fmt.Sprintf("the client does not know the event types %v", unknown))
	}
	shown, _ := json.Marshal(events)
	response := stream.Response()
	return &wireExchange{status: response.StatusCode, header: response.Header, json: events, hasJSON: true,
		parseProblems: problems, describe: describeCall(in, response.StatusCode, "(events) "+string(shown))}
}

func checkExpect(result *wireExchange, expect object, variables object) ([]string, error) {
	var problems []string
	if status, _ := expect["status"].(float64); result.status != int(status) {
		problems = append(problems, fmt.Sprintf("status %d, expected %v", result.status, expect["status"]))
	}
	if wanted, ok := expect["code"]; ok {
		var codes []any
		if list, isList := wanted.([]any); isList {
			codes = list
		} else {
			codes = []any{wanted}
		}
		var code any
		if body, isObject := result.json.(object); isObject && result.status >= 400 {
			code = body["code"]
		}
		found := false
		for _, candidate := range codes {
			found = found || candidate == code
		}
		if !found {
			problems = append(problems, fmt.Sprintf("code %v, expected %v", code, codes))
		}
	}
	body, _ := expect["body"].(object)
	bodyProblems, err := mismatches("body", body, variables, func(location string) (any, error) {
		return pointer(result.json, result.hasJSON, location), nil
	}, func(location string) string {
		if location == "" {
			return "(whole)"
		}
		return location
	})
	if err != nil {
		return nil, err
	}
	headers, _ := expect["headers"].(object)
	headerProblems, err := mismatches("header", headers, variables, func(name string) (any, error) {
		if values := result.header.Values(name); len(values) > 0 {
			return values[0], nil
		}
		return missing, nil
	}, asIs)
	if err != nil {
		return nil, err
	}
	return append(append(problems, bodyProblems...), headerProblems...), nil
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

var (
	samplePattern = regexp.MustCompile(`^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)`)
	labelPattern  = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"`)
)

// metricValue sums the samples called name whose labels include labels.
func metricValue(text, name string, labels object) float64 {
	total := 0.0
	for _, line := range strings.Split(text, "\n") {
		sample := samplePattern.FindStringSubmatch(line)
		if strings.HasPrefix(line, "#") || sample == nil || sample[1] != name {
			continue
		}
		found := map[string]string{}
		for _, label := range labelPattern.FindAllStringSubmatch(sample[2], -1) {
			found[label[1]] = label[2]
		}
		all := true
		for key, value := range labels {
			all = all && found[key] == fmt.Sprint(value)
		}
		if value, err := strconv.ParseFloat(sample[3], 64); all && err == nil {
			total += value
		}
	}
	return total
}

// metricsText is the /metrics of every host the scenario talks to, one after the other.
func metricsText(ctx *playContext) (string, error) {
	urls := ctx.metricsURLs
	if len(urls) == 0 {
		urls = []string{ctx.baseURL}
	}
	client := http.Client{Timeout: requestTimeout}
	var all strings.Builder
	for _, url := range urls {
		response, err := client.Get(url + "/metrics")
		if err != nil {
			return "", err
		}
		text, err := io.ReadAll(response.Body)
		_ = response.Body.Close()
		if err != nil {
			return "", err
		}
		all.Write(text)
		all.WriteString("\n")
	}
	return all.String(), nil
}

func metric(ctx *playContext, step object) error {
	text, err := metricsText(ctx)
	if err != nil {
		return err
	}
	name := fmt.Sprint(step["metric"])
	labels, _ := step["labels"].(object)
	value := metricValue(text, name, labels)
	if expect, ok := step["expect"].(object); ok {
		since, err := resolve(expect["since"], ctx.variables)
		if err != nil {
			return err
		}
		sinceValue, _ := since.(float64)
		if increase, _ := expect["increase"].(float64); value-sinceValue != increase {
			return failf("%s%v grew by %g, expected %g", name, labels, value-sinceValue, increase)
		}
	}
	if name, ok := step["capture"].(string); ok {
		ctx.variables[name] = value
	}
	return nil
}
