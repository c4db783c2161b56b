package agenticdriver

// Routing (hand-written; ../BEHAVIOUR.md, Routing): the owner of a session or run id, the
// Agentic-Host header derived from it, and the owner a 421 names.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
)

// routingHeader names the host that owns the session or run a request is about.
const routingHeader = "Agentic-Host"

var (
	routedID  = regexp.MustCompile(`^(?:ses|run)_([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.`)
	hostLabel = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)
)

// hostOf is the owning host of a session or run id (ses_{hostId}.{random},
// run_{hostId}.{random}), or "" for an id in the old form (no ".") or whose host part is not
// a DNS label. Only routing reads it: applications treat ids as opaque.
func hostOf(id string) string {
	if found := routedID.FindStringSubmatch(id); found != nil {
		return found[1]
	}
	return ""
}

// routedHost is the owner of what a request names, by its operation's x-routing-id
// (operations_gen.go, generated from openapi.yaml): the session or run id in its path, or the
// session of a run's body. "" when it names nothing.
func routedHost(request *http.Request) string {
	path := request.URL.EscapedPath()
	operation := operationOf(request.Method, path)
	switch {
	case operation == nil:
		return ""
	case operation.routingParam != "":
		found := operation.path.FindStringSubmatch(path)
		id, err := url.PathUnescape(found[operation.path.SubexpIndex(operation.routingParam)])
		if err != nil {
			return ""
		}
		return hostOf(id)
	case operation.routingPointer != nil:
		return hostOf(bodyID(request, operation.routingPointer))
	}
	return ""
}

// bodyID reads the id at pointer in a request's JSON body (from a copy: the request keeps its body).
// The transport reads it from the encoded body rather than from HostClient.Run's typed request
// because Raw() calls go through the same transport with nothing but the *http.Request, and they
// route too (README, routing); one reader for both keeps them from drifting apart. The cost is one
// bounded decode of a body that mentions the pointer's first member.
func bodyID(request *http.Request, pointer []string) string {
	if request.GetBody == nil {
		return ""
	}
	body, err := request.GetBody()
	if err != nil {
		return ""
	}
	defer func() { _ = body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(body, maxBody))
	if err != nil || !bytes.Contains(raw, []byte(`"`+pointer[0]+`"`)) {
		return ""
	}
	var value any
	if json.Unmarshal(raw, &value) != nil {
		return ""
	}
	for _, member := range pointer {
		object, ok := value.(map[string]any)
		if !ok {
			return ""
		}
		value = object[member]
	}
	id, _ := value.(string)
	return id
}

// misdirectedOwner is the host to send the same request to at once, when err is a 421
// MISDIRECTED_REQUEST naming an owner that is a DNS label.
func misdirectedOwner(err error) (string, bool) {
	var misdirected *MisdirectedRequestError
	if !errors.As(err, &misdirected) || !hostLabel.MatchString(misdirected.OwnerHostID) {
		return "", false
	}
	return misdirected.OwnerHostID, true
}
