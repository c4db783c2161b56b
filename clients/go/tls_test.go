package agenticdriver_test

// A host serving HTTPS with a certificate from a throwaway CA, made by trustme (`python -m
// trustme`, from the same virtualenv as the agentic-driver executable): a client trusting the
// CA (file or PEM) completes a session turn; one that does not fails with *ConnectionError.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

type throwawayCA struct{ dir, caFile, certFile, keyFile string }

// newThrowawayCA writes a CA (client.pem) and a server certificate for 127.0.0.1 and localhost
// (server.pem, server.key) into a temporary directory.
func newThrowawayCA(t *testing.T) throwawayCA {
	t.Helper()
	serve, err := serveCommand()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	python := filepath.Join(filepath.Dir(serve), "python")
	out, err := exec.Command(python, "-m", "trustme", "-q", "-d", dir, "-i", "127.0.0.1", "localhost").CombinedOutput()
	if err != nil {
		t.Fatalf("python -m trustme: %v\n%s", err, out)
	}
	return throwawayCA{dir: dir, caFile: filepath.Join(dir, "client.pem"),
		certFile: filepath.Join(dir, "server.pem"), keyFile: filepath.Join(dir, "server.key")}
}

func startTLSHost(t *testing.T, ca throwawayCA) *host {
	t.Helper()
	pem, err := os.ReadFile(ca.caFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	poller := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	config := standardHostConfig()
	config["tls"] = map[string]any{"certFile": ca.certFile, "keyFile": ca.keyFile}
	h, err := launchHost(config, nil, "https", poller)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.stop)
	return h
}

func TestTLSClientTrustingTheCACompletesASessionTurn(t *testing.T) {
	ca := newThrowawayCA(t)
	h := startTLSHost(t, ca)
	pem, err := os.ReadFile(ca.caFile)
	if err != nil {
		t.Fatal(err)
	}
	for name, trust := range map[string]agenticdriver.HostOption{
		"file": agenticdriver.WithCACertFile(ca.caFile),
		"pem":  agenticdriver.WithCACertPEM(pem),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := testContext(t)
			client, err := agenticdriver.New(agenticdriver.WithBaseURL(h.baseURL), agenticdriver.WithToken(fullToken), trust)
			if err != nil {
				t.Fatal(err)
			}
			session := newSession(t, ctx, client)
			result, err := client.Run(ctx, echoRun("over TLS", &session))
			if err != nil {
				t.Fatal(err)
			}
			if result.Output.Text != "echo: over TLS" || result.Session.Value.Revision != session.Revision+1 {
				t.Fatalf("run over TLS: %+v", result)
			}
		})
	}
}

func TestTLSClientNotTrustingTheCAFailsWithConnectionError(t *testing.T) {
	ca := newThrowawayCA(t)
	h := startTLSHost(t, ca)
	other := newThrowawayCA(t)
	for name, options := range map[string][]agenticdriver.HostOption{
		"system roots": nil,
		"another CA":   {agenticdriver.WithCACertFile(other.caFile)},
	} {
		t.Run(name, func(t *testing.T) {
			options := append([]agenticdriver.HostOption{agenticdriver.WithBaseURL(h.baseURL),
				agenticdriver.WithToken(fullToken), agenticdriver.WithMaxRetries(0)}, options...)
			client, err := agenticdriver.New(options...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.GetDiscovery(testContext(t))
			var connection *agenticdriver.ConnectionError
			var unknownAuthority x509.UnknownAuthorityError
			if !errors.As(err, &connection) || !errors.As(err, &unknownAuthority) {
				t.Fatalf("want a *ConnectionError wrapping x509.UnknownAuthorityError, got %T: %v", err, err)
			}
		})
	}
}

func TestTLSUnusableCABundleFailsNew(t *testing.T) {
	dir := t.TempDir()
	for name, option := range map[string]agenticdriver.HostOption{
		"missing file": agenticdriver.WithCACertFile(filepath.Join(dir, "absent.pem")),
		"no PEM":       agenticdriver.WithCACertPEM([]byte("not a certificate")),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := agenticdriver.New(agenticdriver.WithBaseURL("https://localhost:1"), option)
			var clientError *agenticdriver.ClientError
			if !errors.As(err, &clientError) {
				t.Fatalf("want *ClientError, got %T: %v", err, err)
			}
		})
	}
	_, err := agenticdriver.New(agenticdriver.WithHTTPClient(&http.Client{}),
		agenticdriver.WithCACertPEM([]byte("-----BEGIN CERTIFICATE-----")))
	var clientError *agenticdriver.ClientError
	if !errors.As(err, &clientError) {
		t.Fatalf("WithHTTPClient and a CA bundle: want *ClientError, got %T: %v", err, err)
	}
}
