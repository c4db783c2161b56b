// Command stdlib is the floor of the cold build: the same program with net/http only.
package main

import (
	"fmt"
	"net/http"
)

func main() {
	client := &http.Client{}
	fmt.Println(client != nil)
}
