// Command client is the smallest program using the Go client: what a cold build compiles.
package main

import (
	"fmt"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func main() {
	client, err := agenticdriver.New()
	fmt.Println(client != nil, err)
}
