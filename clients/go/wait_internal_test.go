package agenticdriver

// The busy helper's schedule (../BEHAVIOUR.md): each wait twice the one before (a wait under 0.1 s
// counts as 0.1 s), at most 1 s, the same sequence in every client.

import (
	"testing"
	"time"
)

func TestEachIdleWaitIsTwiceTheOneBeforeUpToOneSecond(t *testing.T) {
	ms := time.Millisecond
	for _, schedule := range [][]time.Duration{
		{100 * ms, 200 * ms, 400 * ms, 800 * ms, time.Second, time.Second}, // no busy error
		{0, 200 * ms, 400 * ms},                 // Retry-After: 0
		{time.Second, time.Second, time.Second}, // Retry-After: 1
		{3 * time.Second, time.Second},          // Retry-After: 3
	} {
		for i := 1; i < len(schedule); i++ {
			if got := nextIdleWait(schedule[i-1]); got != schedule[i] {
				t.Fatalf("after %s: %s, want %s", schedule[i-1], got, schedule[i])
			}
		}
	}
}
