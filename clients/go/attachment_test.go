package agenticdriver_test

import (
	"testing"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func TestNewAttachmentBase64EncodesItsContent(t *testing.T) {
	file := agenticdriver.NewAttachment("a.txt", "text/plain", []byte("h\u00e9llo"))
	if file != (agenticdriver.Attachment{Name: "a.txt", MediaType: "text/plain", Data: "aMOpbGxv"}) {
		t.Fatalf("%+v", file)
	}
	if data := agenticdriver.NewAttachment("b", "application/pdf", []byte{0, 255}).Data; data != "AP8=" {
		t.Fatal(data)
	}
}
