package agenticdriver_test

// The README's examples, compiled by go vet and go test (they have no Output, so they are not run).

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func ExampleHostClient_Run() {
	ctx := context.Background()
	client, err := agenticdriver.New(agenticdriver.WithBaseURL("http://127.0.0.1:8080"),
		agenticdriver.WithToken(os.Getenv("AGENTIC_DRIVER_TOKEN")))
	if err != nil {
		log.Fatal(err)
	}
	created, err := client.CreateSession(ctx, &agenticdriver.CreateSessionRequest{
		Provider: "echo", Model: "echo-1", Mode: agenticdriver.SessionModeHistory})
	if err != nil {
		log.Fatal(err)
	}
	session := created.Session
	for _, input := range []string{"My name is Ada.", "!recall"} {
		result, err := client.Run(ctx, &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: input,
			Session: agenticdriver.NewOptSessionHandle(session.SessionHandle())})
		var conflict *agenticdriver.SessionRevisionConflictError
		switch {
		case errors.As(err, &conflict):
			log.Fatalf("stale; the current revision is %d", conflict.CurrentRevision)
		case errors.Is(err, agenticdriver.ErrSessionBusy):
			read, _ := client.WaitUntilIdle(ctx, session.ID, agenticdriver.WithBusyError(err))
			log.Fatalf("another turn was active; the session is now at revision %d", read.Session.Revision)
		case err != nil:
			log.Fatal(err)
		}
		fmt.Println(result.Output.Text)
		session = result.Session.Value
	}
}

func ExampleHostClient_StreamRun() {
	ctx := context.Background()
	client, err := agenticdriver.New()
	if err != nil {
		log.Fatal(err)
	}
	stream, err := client.StreamRun(ctx, &agenticdriver.RunRequest{Provider: "echo", Model: "echo-1", Input: "!chunks 3\nHello"})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	for event, err := range stream.All() {
		if err != nil {
			log.Fatal(err) // a *ConnectionError or *TimeoutError: read the session to reconcile
		}
		switch event := event.(type) {
		case *agenticdriver.OutputDeltaEvent:
			fmt.Print(event.Text)
		case *agenticdriver.UnknownEvent:
			fmt.Println("newer event type", event.Type)
		}
	}
}

func ExampleWithResponse() {
	client, err := agenticdriver.New()
	if err != nil {
		log.Fatal(err)
	}
	var response *http.Response
	discovery, err := client.GetDiscovery(context.Background(), agenticdriver.WithResponse(&response))
	var api agenticdriver.APIError
	if errors.As(err, &api) {
		log.Fatalf("%d, request %s", api.StatusCode(), api.ResponseHeader().Get("X-Request-Id"))
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(discovery.HostID, response.StatusCode, response.Header.Get("X-Request-Id"))
}
