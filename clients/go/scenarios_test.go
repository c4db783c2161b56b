package agenticdriver_test

// Plays every contract-tests/scenarios/*.json against live hosts through this client.
//
// The scenarios live once, at the repository root (contract-tests/); this test plays whatever is
// there. AGENTIC_DRIVER_CONTRACT_TESTS points at another contract-tests directory (for trying
// out scenarios that are not committed yet). Until the directory exists in the repository, the
// test is skipped and says so.

import (
	"os"
	"path/filepath"
	"testing"
)

func contractDir(t *testing.T) string {
	if dir := os.Getenv("AGENTIC_DRIVER_CONTRACT_TESTS"); dir != "" {
		return dir
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "contract-tests")
}

func TestContractScenarios(t *testing.T) {
	dir := contractDir(t)
	scenariosDir := filepath.Join(dir, "scenarios")
	if !isDir(scenariosDir) {
		t.Skipf("%s does not exist in this checkout yet", scenariosDir)
	}
	scenarios, err := loadScenarios(scenariosDir)
	if err != nil {
		t.Fatal(err)
	}
	configs := map[string]string{
		"main":        filepath.Join(dir, "host.json"),
		"no-sessions": filepath.Join(dir, "host-no-sessions.json"),
		"quotas":      filepath.Join(dir, "host-quotas.json"),
	}
	shared := map[string]*host{}
	t.Cleanup(func() {
		for _, h := range shared {
			h.stop()
		}
	})
	hostFor := func(t *testing.T, s scenario) *host {
		config, ok := configs[s.host]
		if !ok {
			t.Fatalf("unknown host %s", s.host)
		}
		if !s.isolated {
			if h, ok := shared[s.host]; ok {
				return h
			}
		}
		h, err := startHost(config, tokenEnvironment())
		if err != nil {
			t.Fatal(err)
		}
		if s.isolated {
			t.Cleanup(h.stop)
		} else {
			shared[s.host] = h
		}
		return h
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if err := play(s, hostFor(t, s).baseURL); err != nil {
				t.Fatal(err)
			}
		})
	}
}
