// Code generated from openapi.yaml by generator/operations.py. DO NOT EDIT.

package agenticdriver

import "regexp"

// operationFacts is what the transport needs of one operation: its method and path, whether it
// takes an Idempotency-Key, and the id that routes it (x-routing-id): a path parameter
// (routingParam) or members of the JSON body (routingPointer).
type operationFacts struct {
	id             string
	method         string
	path           *regexp.Regexp
	idempotencyKey bool
	routingParam   string
	routingPointer []string
}

var operations = []operationFacts{
	{id: "getHealth", method: "GET", path: regexp.MustCompile(`^/healthz$`), idempotencyKey: false, routingParam: "", routingPointer: nil},
	{id: "getReadiness", method: "GET", path: regexp.MustCompile(`^/readyz$`), idempotencyKey: false, routingParam: "", routingPointer: nil},
	{id: "getDiscovery", method: "GET", path: regexp.MustCompile(`^/v1/discovery$`), idempotencyKey: false, routingParam: "", routingPointer: nil},
	{id: "run", method: "POST", path: regexp.MustCompile(`^/v1/runs$`), idempotencyKey: true, routingParam: "", routingPointer: []string{"session", "id"}},
	{id: "streamRun", method: "POST", path: regexp.MustCompile(`^/v1/runs/stream$`), idempotencyKey: true, routingParam: "", routingPointer: []string{"session", "id"}},
	{id: "createSession", method: "POST", path: regexp.MustCompile(`^/v1/sessions$`), idempotencyKey: true, routingParam: "", routingPointer: nil},
	{id: "getRun", method: "GET", path: regexp.MustCompile(`^/v1/runs/(?P<runId>[^/]+)$`), idempotencyKey: false, routingParam: "runId", routingPointer: nil},
	{id: "submitRunActions", method: "POST", path: regexp.MustCompile(`^/v1/runs/(?P<runId>[^/]+)/actions$`), idempotencyKey: true, routingParam: "runId", routingPointer: nil},
	{id: "streamRunActions", method: "POST", path: regexp.MustCompile(`^/v1/runs/(?P<runId>[^/]+)/actions/stream$`), idempotencyKey: true, routingParam: "runId", routingPointer: nil},
	{id: "cancelRun", method: "POST", path: regexp.MustCompile(`^/v1/runs/(?P<runId>[^/]+)/cancel$`), idempotencyKey: false, routingParam: "runId", routingPointer: nil},
	{id: "streamRunEvents", method: "GET", path: regexp.MustCompile(`^/v1/runs/(?P<runId>[^/]+)/events$`), idempotencyKey: false, routingParam: "runId", routingPointer: nil},
	{id: "deleteSession", method: "DELETE", path: regexp.MustCompile(`^/v1/sessions/(?P<sessionId>[^/]+)$`), idempotencyKey: false, routingParam: "sessionId", routingPointer: nil},
	{id: "readSession", method: "GET", path: regexp.MustCompile(`^/v1/sessions/(?P<sessionId>[^/]+)$`), idempotencyKey: false, routingParam: "sessionId", routingPointer: nil},
	{id: "forkSession", method: "POST", path: regexp.MustCompile(`^/v1/sessions/(?P<sessionId>[^/]+)/fork$`), idempotencyKey: true, routingParam: "sessionId", routingPointer: nil},
	{id: "truncateSession", method: "POST", path: regexp.MustCompile(`^/v1/sessions/(?P<sessionId>[^/]+)/truncate$`), idempotencyKey: false, routingParam: "sessionId", routingPointer: nil},
}

// operationOf is the operation a request is, by its method and (escaped) path, or nil.
func operationOf(method, path string) *operationFacts {
	for i := range operations {
		if operations[i].method == method && operations[i].path.MatchString(path) {
			return &operations[i]
		}
	}
	return nil
}
