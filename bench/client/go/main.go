// Command bench-client-go measures what the Go client costs over a plain net/http request on
// one session turn, and its cold build time.
//
//	make bench-client-go      # or: cd bench/client/go && go run . [-pairs N] [-warmup N]
//
// It starts the reference host (offline echo provider) on a free 127.0.0.1 port and times
// the same session turn (POST /v1/runs continuing a fresh session at revision 0, with an
// Idempotency-Key, the answer parsed from JSON) two ways against it:
//
//   - client: HostClient.Run, which encodes the generated RunRequest, sends it through the
//     client's transport (headers, timeouts, retry policy) and decodes a validated RunResult;
//   - raw: the same request with a plain *http.Client, encoding/json and a one-field struct.
//
// The two are interleaved in pairs, alternating which goes first; sessions are created and
// deleted outside the timed part. Overhead is the ratio of the median turn times (target
// under 1.10). Cold build: in a fresh build cache (the module cache stays), `go build` of a
// net/http-only program (the standard library), then of the smallest program using the
// client (the client and its dependencies over that warm standard library). Prints the figures and writes them to bench/results/client-go.json.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

const (
	turnTarget = 1.10
	input      = "How long does one turn take?"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench-client-go: "+format+"\n", args...)
	os.Exit(1)
}

func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		fail("%v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "openapi.yaml")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			fail("run inside the repository")
		}
		dir = parent
	}
}

func startHost(root, token string) (*exec.Cmd, string) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail("%v", err)
	}
	port := listener.Addr().(*net.TCPAddr).Port
	_ = listener.Close()
	cmd := exec.Command(filepath.Join(root, ".venv", "bin", "agentic-driver"), "serve", "--host", "127.0.0.1",
		"--port", fmt.Sprint(port), "--log-level", "warning")
	cmd.Env = append(os.Environ(), "AGENTIC_DRIVER_TOKEN="+token)
	if err := cmd.Start(); err != nil {
		fail("starting the host: %v (run make setup)", err)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if response, err := http.Get(url + "/healthz"); err == nil {
			_ = response.Body.Close()
			if response.StatusCode == 200 {
				return cmd, url
			}
		}
	}
	_ = cmd.Process.Kill()
	fail("the host did not become healthy")
	return nil, ""
}

type stats struct {
	MedianUs float64 `json:"median_us"`
	P10Us    float64 `json:"p10_us"`
	P90Us    float64 `json:"p90_us"`
	MeanUs   float64 `json:"mean_us"`
}

func summary(samples []time.Duration) stats {
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	var total time.Duration
	for _, s := range sorted {
		total += s
	}
	return stats{MedianUs: us(median(sorted)), P10Us: us(sorted[len(sorted)/10]), P90Us: us(sorted[len(sorted)*9/10]),
		MeanUs: us(total / time.Duration(len(sorted)))}
}

func median[T float64 | time.Duration](sorted []T) T {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

type turns struct {
	baseURL, token string
	plain          *http.Client
	client         *agenticdriver.HostClient
}

func (t *turns) freshSession(ctx context.Context) agenticdriver.SessionInfo {
	created, err := t.client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{Provider: "echo", Model: "echo-1",
		Mode: agenticdriver.SessionModeHistory})
	if err != nil {
		fail("create: %v", err)
	}
	return created.Session
}

func (t *turns) raw(ctx context.Context, session agenticdriver.SessionInfo) time.Duration {
	type handle struct {
		ID       string `json:"id"`
		Revision int    `json:"revision"`
	}
	started := time.Now()
	body, _ := json.Marshal(struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
		Input    string `json:"input"`
		Session  handle `json:"session"`
	}{"echo", "echo-1", input, handle{session.ID, session.Revision}})
	request, _ := http.NewRequestWithContext(ctx, http.MethodPost, t.baseURL+"/v1/runs", bytes.NewReader(body))
	request.Header.Set("Authorization", "Bearer "+t.token)
	request.Header.Set("Content-Type", "application/json")
	request.Header.Set("Accept", "application/json")
	request.Header.Set("Idempotency-Key", uuid4())
	response, err := t.plain.Do(request)
	if err != nil {
		fail("raw turn: %v", err)
	}
	data, err := io.ReadAll(response.Body)
	_ = response.Body.Close()
	var result struct {
		Output struct{ Text string } `json:"output"`
	}
	if err != nil || response.StatusCode != 200 || json.Unmarshal(data, &result) != nil {
		fail("raw turn: %d %s", response.StatusCode, data)
	}
	elapsed := time.Since(started)
	if result.Output.Text != "echo: "+input {
		fail("raw turn answered %q", result.Output.Text)
	}
	return elapsed
}

func (t *turns) sdk(ctx context.Context, session agenticdriver.SessionInfo) time.Duration {
	started := time.Now()
	result, err := t.client.Run(ctx, &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: input,
		Session: agenticdriver.NewOptSessionHandle(session.SessionHandle())})
	if err != nil {
		fail("client turn: %v", err)
	}
	text := result.Output.Text
	elapsed := time.Since(started)
	if text != "echo: "+input {
		fail("client turn answered %q", text)
	}
	return elapsed
}

func (t *turns) timed(ctx context.Context, arm func(context.Context, agenticdriver.SessionInfo) time.Duration) time.Duration {
	session := t.freshSession(ctx)
	elapsed := arm(ctx, session)
	if err := t.client.DeleteSession(ctx, session.ID); err != nil {
		fail("delete: %v", err)
	}
	return elapsed
}

// coldBuilds builds, in one fresh GOCACHE, the net/http-only program (the standard library's
// cold build) and then the client program (the client and its dependencies compiled over that
// warm standard library, as a user who has built any Go program meets it).
func coldBuilds(root string) (stdlib, client time.Duration) {
	cache, err := os.MkdirTemp("", "bench-client-go-cache-")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(cache)
	build := func(dir string) time.Duration {
		cmd := exec.Command("go", "build", "-o", filepath.Join(cache, dir), ".")
		cmd.Dir = filepath.Join(root, "bench", "client", "go", "coldbuild", dir)
		cmd.Env = append(os.Environ(), "GOCACHE="+cache)
		started := time.Now()
		if output, err := cmd.CombinedOutput(); err != nil {
			fail("cold build of %s: %v\n%s", dir, err, output)
		}
		return time.Since(started)
	}
	return build("stdlib"), build("client")
}

func main() {
	pairs := flag.Int("pairs", 1500, "interleaved client/raw turn pairs")
	warmup := flag.Int("warmup", 100, "pairs run before timing")
	builds := flag.Int("builds", 1, "cold builds (each about two minutes on two cores)")
	output := flag.String("output", "", "where to write the JSON (default bench/results/client-go.json)")
	flag.Parse()
	root := repoRoot()
	if *output == "" {
		*output = filepath.Join(root, "bench", "results", "client-go.json")
	}

	token := "bench-" + uuid4()
	host, baseURL := startHost(root, token)
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(baseURL), agenticdriver.WithToken(token))
	if err != nil {
		fail("%v", err)
	}
	t := &turns{baseURL: baseURL, token: token, client: client,
		plain: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
	ctx := context.Background()
	for range *warmup {
		t.timed(ctx, t.raw)
		t.timed(ctx, t.sdk)
	}
	var rawSamples, clientSamples []time.Duration
	var pairRatios []float64
	for i := range *pairs {
		var r, c time.Duration
		if i%2 == 0 {
			r, c = t.timed(ctx, t.raw), t.timed(ctx, t.sdk)
		} else {
			c, r = t.timed(ctx, t.sdk), t.timed(ctx, t.raw)
		}
		rawSamples, clientSamples = append(rawSamples, r), append(clientSamples, c)
		pairRatios = append(pairRatios, float64(c)/float64(r))
	}
	_ = host.Process.Signal(os.Interrupt)
	_ = host.Wait()
	rawStats, clientStats := summary(rawSamples), summary(clientSamples)
	slices.Sort(pairRatios)
	ratio := clientStats.MedianUs / rawStats.MedianUs

	var stdlibBuilds, clientBuilds []time.Duration
	for range *builds {
		stdlib, client := coldBuilds(root)
		stdlibBuilds, clientBuilds = append(stdlibBuilds, stdlib), append(clientBuilds, client)
	}
	slices.Sort(stdlibBuilds)
	slices.Sort(clientBuilds)
	buildMedian := map[string]float64{"stdlib": median(stdlibBuilds).Seconds(), "client_over_warm_stdlib": median(clientBuilds).Seconds()}

	fmt.Printf("one session turn, %d interleaved pairs (median, p10-p90):\n", *pairs)
	for _, arm := range []struct {
		name string
		s    stats
	}{{"raw", rawStats}, {"client", clientStats}} {
		fmt.Printf("  %-6s %8.0f us  (%.0f-%.0f)\n", arm.name, arm.s.MedianUs, arm.s.P10Us, arm.s.P90Us)
	}
	verdict := "ok"
	if ratio >= turnTarget {
		verdict = "MISSED"
	}
	fmt.Printf("  client overhead: %.3fx of plain net/http (%+.0f us; median of pair ratios %.3fx; target < %.2fx: %s)\n",
		ratio, clientStats.MedianUs-rawStats.MedianUs, median(pairRatios), turnTarget, verdict)
	fmt.Printf("cold build (fresh GOCACHE, module cache kept), median of %d, %d cpus:\n", *builds, runtime.NumCPU())
	fmt.Printf("  a net/http program (the standard library, cold)           %6.1f s\n", buildMedian["stdlib"])
	fmt.Printf("  then a program using the client (client + dependencies)   %6.1f s\n", buildMedian["client_over_warm_stdlib"])
	fmt.Printf("  from nothing: %.1f s\n", buildMedian["stdlib"]+buildMedian["client_over_warm_stdlib"])

	record := map[string]any{
		"benchmark": "client-go",
		"go":        runtime.Version(),
		"machine":   fmt.Sprintf("%s %s, %d cpus", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		"turn": map[string]any{
			"pairs": *pairs, "warmup_pairs": *warmup, "raw": rawStats, "client": clientStats,
			"ratio_of_medians": ratio, "median_of_pair_ratios": median(pairRatios),
			"overhead_us": clientStats.MedianUs - rawStats.MedianUs, "target_ratio": turnTarget,
		},
		"cold_build": map[string]any{
			"builds": *builds, "median_s": buildMedian,
			"from_nothing_s": buildMedian["stdlib"] + buildMedian["client_over_warm_stdlib"],
		},
	}
	data, _ := json.MarshalIndent(record, "", "  ")
	if err := os.MkdirAll(filepath.Dir(*output), 0o755); err != nil {
		fail("%v", err)
	}
	if err := os.WriteFile(*output, append(data, '\n'), 0o644); err != nil {
		fail("%v", err)
	}
	if relative, err := filepath.Rel(root, *output); err == nil {
		fmt.Printf("wrote %s\n", relative)
	}
}
