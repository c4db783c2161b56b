package agenticdriver_test

// End-to-end harness: real host processes on a free 127.0.0.1 port.
//
// startHost writes a host JSON (or takes a config file), starts
// `agentic-driver serve --config FILE --host 127.0.0.1 --port P`, polls /healthz (bounded)
// and returns a host to build clients from; stop terminates it (then kills it). The server
// comes from $AGENTIC_DRIVER_SERVE (the agentic-driver executable) or the repository's
// .venv/bin/agentic-driver. Scenario players reuse startHost with a config file and token
// environment variables.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const (
	startupTimeout = 20 * time.Second
	pollInterval   = 50 * time.Millisecond
	stopTimeout    = 5 * time.Second
)

// repoRoot is the nearest ancestor of the working directory holding openapi.yaml and server/.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "openapi.yaml")) && isDir(filepath.Join(dir, "server")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root (openapi.yaml + server/) not found")
		}
		dir = parent
	}
}

func isFile(path string) bool { info, err := os.Stat(path); return err == nil && !info.IsDir() }
func isDir(path string) bool  { info, err := os.Stat(path); return err == nil && info.IsDir() }

// serveCommand is the agentic-driver executable that serves hosts.
func serveCommand() (string, error) {
	if override := os.Getenv("AGENTIC_DRIVER_SERVE"); override != "" {
		return override, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	command := filepath.Join(root, ".venv", "bin", "agentic-driver")
	if !isFile(command) {
		return "", fmt.Errorf("%s not found: run `make setup` (or set AGENTIC_DRIVER_SERVE)", command)
	}
	return command, nil
}

// freePort is a port that was free on 127.0.0.1 a moment ago.
func freePort() (int, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer listener.Close()
	return listener.Addr().(*net.TCPAddr).Port, nil
}

type host struct {
	baseURL string
	cmd     *exec.Cmd
	workDir string
	logPath string
	exited  chan struct{}
	http    *http.Client // polls /healthz
}

// startHost starts a host from config (a value marshalled to host JSON, or a file path string)
// with extra environment, and waits until /healthz answers.
func startHost(config any, env map[string]string) (*host, error) {
	return launchHost(config, env, "http", http.DefaultClient)
}

// launchHost starts a host serving scheme (https when config has a tls section with a
// certificate) and polls /healthz through poller.
func launchHost(config any, env map[string]string, scheme string, poller *http.Client) (*host, error) {
	command, err := serveCommand()
	if err != nil {
		return nil, err
	}
	workDir, err := os.MkdirTemp("", "agentic-driver-go-e2e-")
	if err != nil {
		return nil, err
	}
	configPath, isPath := config.(string)
	if !isPath {
		configPath = filepath.Join(workDir, "host.json")
		data, err := json.MarshalIndent(config, "", "  ")
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(configPath, data, 0o600); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(workDir, "host.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(command, "serve", "--config", configPath, "--host", "127.0.0.1",
		"--port", fmt.Sprint(port), "--log-level", "warning")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = os.Environ()
	for name, value := range env {
		cmd.Env = append(cmd.Env, name+"="+value)
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	h := &host{baseURL: fmt.Sprintf("%s://127.0.0.1:%d", scheme, port), cmd: cmd, workDir: workDir, logPath: logPath,
		exited: make(chan struct{}), http: poller}
	go func() { _ = cmd.Wait(); close(h.exited) }()
	deadline := time.Now().Add(startupTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-h.exited:
			deadline = time.Now()
			continue
		default:
		}
		if h.healthy() {
			return h, nil
		}
		time.Sleep(pollInterval)
	}
	log := h.log()
	h.stop()
	return nil, fmt.Errorf("host did not become healthy within %s:\n%s", startupTimeout, log)
}

func (h *host) healthy() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	request, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.baseURL+"/healthz", nil)
	response, err := h.http.Do(request)
	if err != nil {
		return false
	}
	defer response.Body.Close()
	var body struct{ Status string }
	return response.StatusCode == 200 && json.NewDecoder(response.Body).Decode(&body) == nil && body.Status == "ok"
}

func (h *host) log() string {
	data, _ := os.ReadFile(h.logPath)
	return string(data)
}

func (h *host) stop() {
	select {
	case <-h.exited:
	default:
		_ = h.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-h.exited:
		case <-time.After(stopTimeout):
			_ = h.cmd.Process.Kill()
			<-h.exited
		}
	}
	_ = os.RemoveAll(h.workDir)
}

// client is a client of this host with a bearer token ("" sends none).
func (h *host) client(t testing.TB, token string) *agenticdriver.HostClient {
	t.Helper()
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(h.baseURL), agenticdriver.WithToken(token))
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// Test tokens (at least 16 characters each).
const fullToken = "go-e2e-full-token-0001"

// standardHostConfig is the host most end-to-end tests share: echo (bound to an account, so it
// holds sessions), echo-unbound (no account binding: stateless only), one token with every grant.
func standardHostConfig() map[string]any {
	return map[string]any{
		"hostId": "go-e2e",
		"providers": []any{
			map[string]any{"id": "echo", "kind": "echo", "accountId": "acct-go", "models": []string{"echo-1"}},
			map[string]any{"id": "echo-unbound", "kind": "echo", "models": []string{"echo-1"}},
		},
		"sessions": map[string]any{"retentionMs": 600000},
		"tokens": []any{map[string]any{"subject": "go-e2e", "token": fullToken, "providers": []string{"*"},
			"sessions": []string{"create", "read", "continue", "delete"}}},
	}
}

var shared struct {
	once sync.Once
	host *host
	err  error
}

// sharedHost is the standard host, started by the first test that needs it and stopped by TestMain.
func sharedHost(t testing.TB) *host {
	t.Helper()
	shared.once.Do(func() { shared.host, shared.err = startHost(standardHostConfig(), nil) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.host
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.host != nil {
		shared.host.stop()
	}
	os.Exit(code)
}
