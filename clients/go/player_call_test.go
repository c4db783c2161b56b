package agenticdriver_test

// One request of a contract scenario through HostClient (player_test.go): the operation for its
// operationId, the recording transport under the client that keeps the raw answer, and the check
// of that answer against the step's expect.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

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
