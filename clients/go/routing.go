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
	namedPath = regexp.MustCompile(`^/v1/(?:sessions|runs)/([^/]+)`)
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

// routedHost is the owner of what a request names: the path's session or run id, or for a run
// (POST /v1/runs, /v1/runs/stream) the session of its body. "" when it names nothing.
func routedHost(request *http.Request) string {
	path := request.URL.EscapedPath()
	if path == "/v1/runs" || path == "/v1/runs/stream" {
		return sessionHostOfBody(request)
	}
	found := namedPath.FindStringSubmatch(path)
	if found == nil {
		return ""
	}
	id, err := url.PathUnescape(found[1])
	if err != nil {
		return ""
	}
	return hostOf(id)
}

// sessionHostOfBody reads a run body's session id (from a copy: the request keeps its body).
func sessionHostOfBody(request *http.Request) string {
	if request.GetBody == nil {
		return ""
	}
	body, err := request.GetBody()
	if err != nil {
		return ""
	}
	defer func() { _ = body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(body, maxBody))
	if err != nil || !bytes.Contains(raw, []byte(`"session"`)) {
		return ""
	}
	var run struct {
		Session *struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if json.Unmarshal(raw, &run) != nil || run.Session == nil {
		return ""
	}
	return hostOf(run.Session.ID)
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
