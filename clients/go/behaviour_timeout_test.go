package agenticdriver_test

// ../BEHAVIOUR.md, timeouts and connection errors: refused connections, connect, read and
// stream-idle timeouts (the scripted host: behaviour_test.go).

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func TestConnectionRefusedIsAConnectionError(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + listener.Addr().String()
	_ = listener.Close()
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(url), agenticdriver.WithToken("t"), agenticdriver.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.GetDiscovery(ctx(t))
	var connection *agenticdriver.ConnectionError
	var root agenticdriver.Error
	var opError *net.OpError
	if !errors.As(err, &connection) || !errors.As(err, &root) || connection.Phase != agenticdriver.PhaseConnect || !errors.As(err, &opError) {
		t.Fatalf("%T %v", err, err)
	}
	var timeout *agenticdriver.TimeoutError
	if errors.As(err, &timeout) {
		t.Fatal("a refusal is not a timeout")
	}
}

// dialTimeout is the error of a dial that timed out; every dial the way a connect timeout does.
type dialTimeout struct{}

func (dialTimeout) Error() string   { return "i/o timeout" }
func (dialTimeout) Timeout() bool   { return true }
func (dialTimeout) Temporary() bool { return true }

func TestAConnectTimeoutIsATimeoutErrorAndRetried(t *testing.T) {
	var dials int
	var mu sync.Mutex
	client, err := agenticdriver.New(agenticdriver.WithBaseURL("http://127.0.0.1:9"), agenticdriver.WithToken("t"), agenticdriver.WithMaxRetries(1),
		agenticdriver.WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
			mu.Lock()
			dials++
			mu.Unlock()
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: dialTimeout{}}
		}}}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Run(ctx(t), echoRequest())
	var timeout *agenticdriver.TimeoutError
	var connection *agenticdriver.ConnectionError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutConnect || !errors.As(err, &connection) {
		t.Fatalf("%T %v", err, err)
	}
	if dials != 2 {
		t.Fatalf("%d dials (a connect timeout is retried, even for a POST)", dials)
	}
}

func TestAReadTimeoutIsRetriedForGetButNotForPost(t *testing.T) {
	short := agenticdriver.WithTimeouts(agenticdriver.Timeouts{Read: 150 * time.Millisecond})
	host := scriptedHost(t, stall(t))
	_, err := host.client(t, short).Run(ctx(t), echoRequest())
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutRead || timeout.Limit != 150*time.Millisecond {
		t.Fatalf("%T %v", err, err)
	}
	if got := host.requests(); len(got) != 1 {
		t.Fatalf("POST: %d attempts", len(got))
	}
	reads := scriptedHost(t, stall(t))
	_, err = reads.client(t, short, agenticdriver.WithMaxRetries(1)).ReadSession(ctx(t), "ses_1")
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutRead {
		t.Fatalf("%T %v", err, err)
	}
	if got := reads.requests(); len(got) != 2 {
		t.Fatalf("GET: %d attempts", len(got))
	}
}

func TestAStreamSilentPastTheIdleTimeoutIsATimeoutError(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, "data: {\"type\":\"run.started\",\"runId\":\"run_1\"}\n\n: keep-alive\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	client := host.client(t, agenticdriver.WithTimeouts(agenticdriver.Timeouts{StreamIdle: 200 * time.Millisecond, Read: 150 * time.Millisecond}))
	stream, err := client.StreamRun(ctx(t), echoRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	if event, err := stream.Next(); err != nil || event.EventType() != "run.started" {
		t.Fatalf("%v, %v", event, err)
	}
	started := time.Now()
	_, err = stream.Next()
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutStreamIdle || time.Since(started) < 150*time.Millisecond {
		t.Fatalf("%T %v after %s", err, err, time.Since(started))
	}
	if len(host.requests()) != 1 {
		t.Fatal("a stream is never resent")
	}
}

func TestTheReadTimeoutAlsoBoundsTheSilenceWithinAJSONBody(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"session":`)
		w.(http.Flusher).Flush()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	started := time.Now()
	_, err := host.client(t, agenticdriver.WithTimeouts(agenticdriver.Timeouts{Read: 200 * time.Millisecond})).ReadSession(ctx(t), "ses_1")
	var timeout *agenticdriver.TimeoutError
	if !errors.As(err, &timeout) || timeout.Phase != agenticdriver.TimeoutRead || timeout.ConnectionError.Phase != agenticdriver.PhaseBody {
		t.Fatalf("%T %v", err, err)
	}
	if elapsed := time.Since(started); elapsed < 200*time.Millisecond || len(host.requests()) != 1 {
		t.Fatalf("after %s, %d attempts (a body that stopped after its head is not retried)", elapsed, len(host.requests()))
	}
}
