package agenticdriver_test

// The groups every client shares (openapi.yaml's x-error-table): errors.Is reaches a code's group.

import (
	"errors"
	"testing"

	agenticdriver "github.com/agentic-driver/agentic-driver/clients/go"
)

func TestACodeIsInItsGroupAndNoOther(t *testing.T) {
	groups := []error{agenticdriver.ErrNotFound, agenticdriver.ErrConflict, agenticdriver.ErrUnprocessable,
		agenticdriver.ErrProviderFailed, agenticdriver.ErrRetryLater}
	for code, want := range map[agenticdriver.ErrorCode]error{
		agenticdriver.ErrorCodeSESSIONNOTFOUND:     agenticdriver.ErrNotFound,
		agenticdriver.ErrorCodeSESSIONBUSY:         agenticdriver.ErrConflict,
		agenticdriver.ErrorCodeVALIDATIONERROR:     agenticdriver.ErrUnprocessable,
		agenticdriver.ErrorCodePROVIDERTIMEOUT:     agenticdriver.ErrProviderFailed,
		agenticdriver.ErrorCodePROVIDERRATELIMITED: agenticdriver.ErrProviderFailed,
		agenticdriver.ErrorCodeHOSTBUSY:            agenticdriver.ErrRetryLater,
		agenticdriver.ErrorCodeHOSTUNAVAILABLE:     agenticdriver.ErrRetryLater,
		agenticdriver.ErrorCodeUNAUTHENTICATED:     nil,
	} {
		err := error(&agenticdriver.ProblemError{Code: code, Status: 400, Detail: "d"})
		for _, group := range groups {
			if errors.Is(err, group) != (group == want) {
				t.Fatalf("%s: errors.Is(%v) = %v", code, group, errors.Is(err, group))
			}
		}
		if !errors.Is(err, agenticdriver.Sentinel(code)) {
			t.Fatalf("%s: not its own sentinel", code)
		}
	}
}
