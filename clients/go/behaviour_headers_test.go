package agenticdriver_test

// ../BEHAVIOUR.md: headers, the token and the environment, logging, raw responses and the error
// tree (the scripted host: behaviour_test.go).

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func TestHeaders(t *testing.T) {
	host := scriptedHost(t, ok)
	client := host.client(t, agenticdriver.WithHeader("X-Team", "blue"), agenticdriver.WithHeader("Authorization", "Bearer stolen"),
		agenticdriver.WithHeader("Idempotency-Key", "one-for-all"))
	if _, err := client.Run(ctx(t), echoRequest(), agenticdriver.WithIdempotencyKey("this-call")); err != nil {
		t.Fatal(err)
	}
	got := host.requests()[0].header
	if got.Get("X-Team") != "blue" || got.Get("Authorization") != "Bearer tok-secret-0123456789" ||
		got.Get("User-Agent") != "agentic-driver-go/"+agenticdriver.Version || got.Values("Idempotency-Key")[0] != "this-call" ||
		len(got.Values("Idempotency-Key")) != 1 {
		t.Fatalf("%v", got)
	}
	own := scriptedHost(t, ok)
	if _, err := own.client(t, agenticdriver.WithHeader("User-Agent", "my-app/1")).Run(ctx(t), echoRequest()); err != nil {
		t.Fatal(err)
	}
	if ua := own.requests()[0].header.Values("User-Agent"); len(ua) != 1 || ua[0] != "my-app/1" {
		t.Fatalf("%q", ua)
	}
}

func TestNoTokenSendsNoAuthorization(t *testing.T) {
	t.Setenv("AGENTIC_DRIVER_TOKEN", "")
	host := scriptedHost(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, "application/json", `{"status":"ok"}`) })
	client, err := agenticdriver.New(agenticdriver.WithBaseURL(host.server.URL))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.GetHealth(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, sent := host.requests()[0].header["Authorization"]; sent {
		t.Fatal("an Authorization header without a token")
	}
}

func TestTheEnvironmentConfiguresTheClient(t *testing.T) {
	host := scriptedHost(t, ok)
	t.Setenv("AGENTIC_DRIVER_URL", host.server.URL)
	t.Setenv("AGENTIC_DRIVER_TOKEN", "env-token-0123456789")
	client, err := agenticdriver.New()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Run(ctx(t), echoRequest()); err != nil {
		t.Fatal(err)
	}
	if got := host.requests()[0].header.Get("Authorization"); got != "Bearer env-token-0123456789" {
		t.Fatal(got)
	}
}

func TestLoggingSaysEachAttemptAndNeverTheTokenOrABody(t *testing.T) {
	check := func(t *testing.T, text string) {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(text), "\n")
		if len(lines) != 2 {
			t.Fatalf("%d lines:\n%s", len(lines), text)
		}
		for _, want := range []string{"method=POST", "path=/v1/runs", "status=503", "attempt=1", "retryIn=0s", "code=HOST_BUSY", "requestId=req_busy"} {
			if !strings.Contains(lines[0], want) {
				t.Errorf("first line lacks %s: %s", want, lines[0])
			}
		}
		for _, want := range []string{"status=200", "attempt=2", "requestId=req_ok"} {
			if !strings.Contains(lines[1], want) {
				t.Errorf("second line lacks %s: %s", want, lines[1])
			}
		}
		for _, secret := range []string{"tok-secret", "Bearer", "echo: hi", "Authorization", `"input"`} {
			if strings.Contains(text, secret) {
				t.Errorf("the log shows %q:\n%s", secret, text)
			}
		}
	}
	busyThenOK := func(t *testing.T) *scripted {
		return scriptedHost(t, problem(503, "HOST_BUSY", map[string]string{"Retry-After": "0", "X-Request-Id": "req_busy"}, ""), ok)
	}
	t.Run("WithLogger", func(t *testing.T) {
		var buffer bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buffer, &slog.HandlerOptions{Level: slog.LevelDebug}))
		host := busyThenOK(t)
		if _, err := host.client(t, agenticdriver.WithLogger(logger)).Run(ctx(t), echoRequest()); err != nil {
			t.Fatal(err)
		}
		check(t, buffer.String())
	})
	t.Run("AGENTIC_DRIVER_LOG=debug", func(t *testing.T) {
		t.Setenv("AGENTIC_DRIVER_LOG", "debug")
		reader, writer, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr := os.Stderr
		os.Stderr = writer
		host := busyThenOK(t)
		client := host.client(t)
		os.Stderr = stderr
		_, err = client.Run(ctx(t), echoRequest())
		_ = writer.Close()
		text, _ := io.ReadAll(reader)
		if err != nil {
			t.Fatal(err)
		}
		check(t, string(text))
	})
	t.Run("off by default", func(t *testing.T) {
		t.Setenv("AGENTIC_DRIVER_LOG", "")
		var buffer bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buffer, &slog.HandlerOptions{Level: slog.LevelInfo}))
		host := busyThenOK(t)
		if _, err := host.client(t, agenticdriver.WithLogger(logger)).Run(ctx(t), echoRequest()); err != nil || buffer.Len() != 0 {
			t.Fatalf("%v: %s", err, buffer.String())
		}
	})
}

func TestRawResponseOnSuccessAndOnError(t *testing.T) {
	host := scriptedHost(t, ok, problem(409, "SESSION_REVISION_CONFLICT", map[string]string{"X-Request-Id": "req_conflict", "x-should-retry": "false"}, `,"currentRevision":7`))
	client := host.client(t)
	var response *http.Response
	if _, err := client.Run(ctx(t), echoRequest(), agenticdriver.WithResponse(&response)); err != nil {
		t.Fatal(err)
	}
	if response == nil || response.StatusCode != 200 || response.Header.Get("X-Request-Id") != "req_ok" {
		t.Fatalf("%+v", response)
	}
	_, err := client.Run(ctx(t), echoRequest())
	var api agenticdriver.APIError
	var conflict *agenticdriver.SessionRevisionConflictError
	if !errors.As(err, &api) || api.StatusCode() != 409 || api.ResponseHeader().Get("X-Request-Id") != "req_conflict" {
		t.Fatalf("%v", err)
	}
	if !errors.As(err, &conflict) || conflict.CurrentRevision != 7 || conflict.RequestID != "req_conflict" ||
		!errors.Is(err, agenticdriver.ErrSessionRevisionConflict) {
		t.Fatalf("%+v", conflict)
	}
}

func TestAnUnknownCodeIsKeptAsTheGenericProblem(t *testing.T) {
	host := scriptedHost(t, problem(418, "TEAPOT_EMPTY", nil, `,"extra":true`))
	_, err := host.client(t).Run(ctx(t), echoRequest())
	var problemError *agenticdriver.ProblemError
	if !errors.As(err, &problemError) || problemError.Code != "TEAPOT_EMPTY" || problemError.Known() || problemError.Status != 418 {
		t.Fatalf("%T %v", err, err)
	}
	if _, generic := err.(*agenticdriver.ProblemError); !generic {
		t.Fatalf("%T", err)
	}
}
