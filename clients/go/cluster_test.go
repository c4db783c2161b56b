//go:build cluster

package agenticdriver_test

// The shared contract scenarios and the routing behaviour (../BEHAVIOUR.md, Routing) through
// the HAProxy configuration the product generates, in front of real host processes.
//
// Built only with `-tags cluster` (`make test-cluster` runs it after installing HAProxy from
// Debian): each cluster is N hosts from one host JSON (`serve --host-id`), the proxy config
// from `agentic-driver cluster config --format haproxy` (which checks it with `haproxy -c`),
// and `haproxy -db` on a free 127.0.0.1 port, ready once it routes to every host. Every process
// is stopped by its own handle.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const routingHeader = "Agentic-Host"

// perProcess are the scenarios about one process (limits and the host id are per process):
// played through the proxy in front of one host whose id is host.json's, contract-host.
var perProcess = map[string]string{
	"host-busy":    "fills one host's run slots and wait line",
	"run-slots":    "takes both run slots of one host",
	"session-flow": "expects the session to name the host that discovery names",
}

type proxiedCluster struct {
	url     string
	hosts   map[string]*host
	proxy   *exec.Cmd
	exited  chan struct{}
	workDir string
	logPath string
}

// hostURLs are the hosts' own base URLs (for the metric steps, which add up every host's /metrics).
func (c *proxiedCluster) hostURLs() []string {
	var urls []string
	for _, h := range c.hosts {
		urls = append(urls, h.baseURL)
	}
	return urls
}

func (c *proxiedCluster) proxyLog() string {
	data, _ := os.ReadFile(c.logPath)
	return string(data)
}

func (c *proxiedCluster) stop() {
	if c.proxy != nil {
		select {
		case <-c.exited:
		default:
			_ = c.proxy.Process.Signal(syscall.SIGTERM)
			select {
			case <-c.exited:
			case <-time.After(stopTimeout):
				_ = c.proxy.Process.Kill()
				<-c.exited
			}
		}
	}
	for _, h := range c.hosts {
		h.stop()
	}
	_ = os.RemoveAll(c.workDir)
}

// startCluster starts one host per id from config, then HAProxy in front of them; t's cleanup stops all.
func startCluster(t *testing.T, config string, hostIDs ...string) *proxiedCluster {
	t.Helper()
	workDir, err := os.MkdirTemp("", "agentic-driver-go-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	c := &proxiedCluster{hosts: map[string]*host{}, workDir: workDir}
	t.Cleanup(c.stop)
	for _, id := range hostIDs {
		h, err := launchHost(config, tokenEnvironment(), "http", http.DefaultClient, "--host-id", id)
		if err != nil {
			t.Fatal(err)
		}
		c.hosts[id] = h
	}
	for attempt := range 3 { // a free port can be taken between probing and binding
		if err := c.startProxy(attempt); err != nil {
			t.Fatal(err)
		}
		if c.routesToEveryHost() {
			return c
		}
		log := c.proxyLog()
		c.stopProxy()
		if !strings.Contains(strings.ToLower(log), "bind") {
			t.Fatalf("haproxy did not route to every host within %s; its log:\n%s", startupTimeout, log)
		}
	}
	t.Fatalf("haproxy could not bind a free port; its log:\n%s", c.proxyLog())
	return nil
}

func (c *proxiedCluster) stopProxy() {
	_ = c.proxy.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(stopTimeout):
		_ = c.proxy.Process.Kill()
		<-c.exited
	}
	c.proxy = nil
}

// startProxy writes the product's HAProxy config for the hosts and starts haproxy on it.
func (c *proxiedCluster) startProxy(attempt int) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	command, err := serveCommand()
	if err != nil {
		return err
	}
	args := []string{"cluster", "config", "--format", "haproxy", "--bind", fmt.Sprintf("127.0.0.1:%d", port)}
	for id, h := range c.hosts {
		args = append(args, "--host="+id+"="+strings.TrimPrefix(h.baseURL, "http://"))
	}
	generate := exec.Command(command, args...)
	var stderr strings.Builder
	generate.Stderr = &stderr
	text, err := generate.Output()
	if err != nil {
		return fmt.Errorf("agentic-driver cluster config: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "haproxy accepts the configuration") {
		return fmt.Errorf("the generated config was not checked with haproxy -c:\n%s", stderr.String())
	}
	configPath := filepath.Join(c.workDir, fmt.Sprintf("haproxy-%d.conf", attempt))
	if err := os.WriteFile(configPath, text, 0o600); err != nil {
		return err
	}
	c.logPath = filepath.Join(c.workDir, fmt.Sprintf("haproxy-%d.log", attempt))
	logFile, err := os.Create(c.logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	c.proxy = exec.Command("haproxy", "-db", "-f", configPath)
	c.proxy.Stdout, c.proxy.Stderr = logFile, logFile
	if err := c.proxy.Start(); err != nil {
		return err
	}
	c.url = fmt.Sprintf("http://127.0.0.1:%d", port)
	c.exited = make(chan struct{})
	go func(proxy *exec.Cmd, exited chan struct{}) { _ = proxy.Wait(); close(exited) }(c.proxy, c.exited)
	return nil
}

// routesToEveryHost polls (bounded) until discovery with each host's Agentic-Host reaches that host.
func (c *proxiedCluster) routesToEveryHost() bool {
	deadline := time.Now().Add(startupTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-c.exited:
			return false
		default:
		}
		all := true
		for id := range c.hosts {
			all = all && c.routedTo(id)
		}
		if all {
			return true
		}
		time.Sleep(pollInterval)
	}
	return false
}

func (c *proxiedCluster) routedTo(hostID string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	request, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/v1/discovery", nil)
	request.Header.Set("Authorization", "Bearer "+scenarioTokens["full"])
	request.Header.Set(routingHeader, hostID)
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return false
	}
	defer response.Body.Close()
	var discovery struct{ HostID string }
	return response.StatusCode == 200 && json.NewDecoder(response.Body).Decode(&discovery) == nil &&
		discovery.HostID == hostID
}

// TestThroughHAProxy plays every scenario through the proxy, then checks the routing header and
// the one 421 follow-up on the two-host cluster the scenarios used.
func TestThroughHAProxy(t *testing.T) {
	dir := contractDir(t)
	scenarios, err := loadScenarios(filepath.Join(dir, "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	configs := map[string]string{
		"main":        filepath.Join(dir, "host.json"),
		"no-sessions": filepath.Join(dir, "host-no-sessions.json"),
		"quotas":      filepath.Join(dir, "host-quotas.json"),
	}
	names := map[string]bool{}
	for _, s := range scenarios {
		names[s.name] = true
	}
	for name := range perProcess {
		if !names[name] { // a renamed one would otherwise be played over two hosts, and fail for that
			t.Fatalf("perProcess names %s, which is not a scenario", name)
		}
	}
	// The shared clusters live for the whole test (their cleanup is the parent's, not a subtest's).
	spread := startCluster(t, configs["main"], "contract-a", "contract-b")
	single := startCluster(t, configs["main"], "contract-host")
	played := 0
	for _, s := range scenarios {
		t.Run("scenario/"+s.name, func(t *testing.T) {
			var c *proxiedCluster
			_, oneProcess := perProcess[s.name]
			switch {
			case s.isolated || s.host != "main":
				c = startCluster(t, configs[s.host], "contract-host")
			case oneProcess:
				c = single
			default:
				c = spread
			}
			if err := playMetered(s, c.url, c.hostURLs()); err != nil {
				t.Fatal(err)
			}
			played++
		})
	}
	if played != len(scenarios) || len(scenarios) < 20 {
		t.Fatalf("played %d of %d scenarios through the proxy", played, len(scenarios))
	}
	t.Run("a wrong hop is followed once to the owner", func(t *testing.T) { wrongHopIsFollowedOnce(t, spread) })
}

// hop is one request as it left the client: the Agentic-Host it carried and the status it got.
type hop struct {
	header string
	status int
}

// hopRecorder is an http.RoundTripper that keeps every hop of the requests sent through it.
type hopRecorder struct {
	mu   sync.Mutex
	hops []hop
}

func (r *hopRecorder) RoundTrip(request *http.Request) (*http.Response, error) {
	response, err := http.DefaultTransport.RoundTrip(request)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.hops = append(r.hops, hop{request.Header.Get(routingHeader), response.StatusCode})
	r.mu.Unlock()
	return response, nil
}

func (r *hopRecorder) take() []hop {
	r.mu.Lock()
	defer r.mu.Unlock()
	taken := r.hops
	r.hops = nil
	return taken
}

// ownerOf reads the documented prefix of an id (ses_{hostId}.{random}).
func ownerOf(t *testing.T, id string) string {
	t.Helper()
	_, rest, found := strings.Cut(id, "_")
	owner, _, dotted := strings.Cut(rest, ".")
	if !found || !dotted {
		t.Fatalf("%q does not name its host", id)
	}
	return owner
}

// wrongHopIsFollowedOnce: the header the client derives from the id takes every request to the
// owner in one hop; a wrong header gets the other host's 421, followed once to the owner, with no
// side effect of the misdirected attempt.
func wrongHopIsFollowedOnce(t *testing.T, c *proxiedCluster) {
	recorder := &hopRecorder{}
	// No retries: the 421 follow-up is not one of them.
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(c.url), agenticdriver.WithToken(scenarioTokens["full"]),
		agenticdriver.WithHTTPClient(&http.Client{Transport: recorder}), agenticdriver.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	created, err := client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{Provider: "echo", Model: "echo-1", Mode: "history"})
	if err != nil {
		t.Fatal(err)
	}
	if hops := recorder.take(); len(hops) != 1 || hops[0].header != "" {
		t.Fatalf("create names no session, so it goes load-balanced without Agentic-Host: %+v", hops)
	}
	owner := ownerOf(t, created.Session.ID)
	other := map[string]string{"contract-a": "contract-b", "contract-b": "contract-a"}[owner]
	turn := func(input string, opts ...agenticdriver.CallOption) int {
		t.Helper()
		read, err := client.ReadSession(ctx, created.Session.ID)
		if err != nil {
			t.Fatal(err)
		}
		handle := agenticdriver.SessionHandle{ID: created.Session.ID, Revision: read.Session.Revision}
		request := &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: input,
			Session: agenticdriver.NewOptSessionHandle(handle)}
		result, err := client.Run(ctx, request, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return result.Session.Value.Revision
	}

	// The header derived from the id: every request one hop, to the owner.
	first := turn("one")
	if hops := recorder.take(); len(hops) != 2 || hops[0] != (hop{owner, 200}) || hops[1] != (hop{owner, 200}) {
		t.Fatalf("read and run should each reach %s in one hop: %+v", owner, hops)
	}

	// A header naming the wrong host: the proxy sends it there, that host answers 421 naming the
	// owner, and the client sends the same request once more, to the owner.
	wrong := agenticdriver.WithEditor(func(request *http.Request) error {
		if request.Method == http.MethodPost {
			request.Header.Set(routingHeader, other)
		}
		return nil
	})
	second := turn("two", wrong)
	hops := recorder.take()
	want := []hop{{owner, 200}, {other, http.StatusMisdirectedRequest}, {owner, 200}}
	if len(hops) != len(want) || hops[0] != want[0] || hops[1] != want[1] || hops[2] != want[2] {
		t.Fatalf("want read, then the run's 421 from %s and its one follow-up to %s: got %+v", other, owner, hops)
	}
	if second != first+1 {
		t.Fatalf("the misdirected attempt must have no side effect: revision %d after %d", second, first)
	}

	// A read names the session in its path; with a wrong header the proxy still sends it where
	// the header says, that host answers 421, and the one follow-up reaches the owner.
	if _, err := client.ReadSession(ctx, created.Session.ID, agenticdriver.WithEditor(func(request *http.Request) error {
		request.Header.Set(routingHeader, other)
		return nil
	})); err != nil {
		t.Fatalf("a read with a wrong header should succeed after one follow-up: %v", err)
	}
	if hops := recorder.take(); len(hops) != 2 || hops[0] != (hop{other, 421}) || hops[1] != (hop{owner, 200}) {
		t.Fatalf("want the read's 421 from %s and its follow-up to %s: got %+v", other, owner, hops)
	}
}
