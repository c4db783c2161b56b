// Command newcomer is what a new user of the Go client writes first: it installs the client
// as clients/go/README.md says (a replace directive to a checkout), and runs against a live
// host (AGENTIC_DRIVER_URL, AGENTIC_DRIVER_TOKEN): discovery, a session with two turns that
// prove continuation, a streamed turn, a stale revision caught as the typed conflict, a busy
// session caught as the typed busy error, the busy helper, read and delete. It checks every
// result and exits 1 on the first mismatch.
//
//	make newcomer-go
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func check(ok bool, format string, args ...any) {
	if !ok {
		fmt.Fprintf(os.Stderr, "newcomer-go: FAILED: "+format+"\n", args...)
		os.Exit(1)
	}
}

func must[T any](value T, err error) T {
	check(err == nil, "%v", err)
	return value
}

func run(input string, session agenticdriver.SessionInfo) *agenticdriver.RunRequest {
	return &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: input,
		Session: agenticdriver.NewOptSessionHandle(session.SessionHandle())}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := must(agenticdriver.New()) // AGENTIC_DRIVER_URL and AGENTIC_DRIVER_TOKEN

	discovery := must(client.GetDiscovery(ctx))
	check(slices.ContainsFunc(discovery.Providers, func(p agenticdriver.ProviderInfo) bool {
		return p.ID == "echo" && slices.Contains(p.Models, "echo-1")
	}), "discovery has no echo/echo-1: %+v", discovery.Providers)
	fmt.Printf("discovery: host %s, %d provider(s)\n", discovery.HostID, len(discovery.Providers))

	session := must(client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{
		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})).Session
	check(session.Revision == 0, "a new session at revision %d", session.Revision)
	fmt.Printf("created %s\n", session.ID)

	echo := func(input string) *agenticdriver.RunRequest {
		return &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: input}
	}
	first := must(client.RunSession(ctx, session.SessionHandle(), echo("My name is Ada.")))
	check(first.Output.Text == "echo: My name is Ada.", "first turn: %q", first.Output.Text)
	session = first.Session // a SessionRunResult's session is always there
	second := must(client.RunSession(ctx, session.SessionHandle(), echo("!recall")))
	want := "recall: 2 messages; last user: My name is Ada."
	check(second.Output.Text == want, "recall: %q, want %q", second.Output.Text, want)
	session = second.Session
	check(session.Revision == 2, "revision after two turns: %d", session.Revision)
	fmt.Printf("two turns: %q\n", second.Output.Text)

	stream := must(client.StreamRun(ctx, run("!chunks 3\nTell me a story", session)))
	var deltas []string
	var completed *agenticdriver.RunCompletedEvent
	for event, err := range stream.All() {
		check(err == nil, "stream: %v", err)
		switch event := event.(type) {
		case *agenticdriver.OutputDeltaEvent:
			deltas = append(deltas, event.Text)
		case *agenticdriver.RunCompletedEvent:
			completed = event
		}
	}
	check(completed != nil && len(deltas) == 3, "stream: %d deltas, completed %v", len(deltas), completed != nil)
	check(strings.Join(deltas, "") == "echo: Tell me a story" && completed.Run.Output.Text == "echo: Tell me a story",
		"stream text %q", strings.Join(deltas, ""))
	stale := session // revision 2, now stale
	session = completed.Run.Session.Value
	check(session.Revision == 3, "revision after the stream: %d", session.Revision)
	fmt.Printf("streamed %d deltas\n", len(deltas))

	_, err := client.Run(ctx, run("stale", stale))
	var conflict *agenticdriver.SessionRevisionConflictError
	check(errors.As(err, &conflict), "a stale revision: %v", err)
	check(conflict.CurrentRevision == 3 && errors.Is(err, agenticdriver.ErrSessionRevisionConflict),
		"conflict: current revision %d", conflict.CurrentRevision)
	fmt.Printf("stale revision %d: conflict, current revision %d\n", stale.Revision, conflict.CurrentRevision)

	slow := make(chan error, 1)
	go func() {
		result, err := client.Run(ctx, run("!sleep 1500\nslow", session))
		if err == nil && result.Output.Text != "echo: slow" {
			err = fmt.Errorf("the slow turn answered %q", result.Output.Text)
		}
		slow <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		read := must(client.ReadSession(ctx, session.ID))
		if read.Session.Status == agenticdriver.SessionStatusRunning {
			break
		}
		check(time.Now().Before(deadline), "the slow turn never started")
	}
	_, err = client.Run(ctx, run("too soon", session))
	var busy *agenticdriver.SessionBusyError
	check(errors.As(err, &busy) && errors.Is(err, agenticdriver.ErrSessionBusy), "a busy session: %v", err)
	check(strings.HasPrefix(busy.ActiveRunID, "run_"), "busy: active run %q", busy.ActiveRunID)
	fmt.Printf("busy: active run %s\n", busy.ActiveRunID)

	idle := must(client.WaitUntilIdle(ctx, session.ID, agenticdriver.WithBusyError(err)))
	check(idle.Session.Status == agenticdriver.SessionStatusReady && idle.Session.Revision == 4,
		"after waiting: %s at revision %d", idle.Session.Status, idle.Session.Revision)
	check(<-slow == nil, "the slow turn failed")
	fmt.Printf("waited until idle: revision %d\n", idle.Session.Revision)

	read := must(client.ReadSession(ctx, session.ID))
	check(len(read.Turns) == 4 && len(read.History) == 8 && read.History[0].Content == "My name is Ada.",
		"read: %d turns, %d messages", len(read.Turns), len(read.History))
	check(client.DeleteSession(ctx, session.ID) == nil, "delete")
	_, err = client.ReadSession(ctx, session.ID)
	check(errors.Is(err, agenticdriver.ErrSessionNotFound), "read after delete: %v", err)
	fmt.Println("newcomer-go: ok")
}
