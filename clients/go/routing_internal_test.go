package agenticdriver

// The owner of an id (white box: only routing reads the prefix).

import (
	"strings"
	"testing"
)

func TestTheHostOfAnID(t *testing.T) {
	for id, want := range map[string]string{
		"ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ":    "alpha-1",
		"run_beta.AAECAwQFBgcICQoLDA0ODw":       "beta",
		"ses_a.x":                               "a",
		"ses_0.x":                               "0",
		"ses_" + strings.Repeat("a", 63) + ".x": strings.Repeat("a", 63),
		"run_host-7.with.more.dots":             "host-7",
		"ses_alpha.":                            "alpha",
		"ses_k3Jx9_Qw-Zp0aBcDeFgHiJ":            "", // an old id: no host part
		"ses_" + strings.Repeat("a", 64) + ".x": "",
		"ses_Alpha.x":                           "",
		"ses_-alpha.x":                          "",
		"ses_alpha-.x":                          "",
		"ses_al_pha.x":                          "",
		"ses_.x":                                "",
		"sess_alpha.x":                          "",
		"alpha.x":                               "",
		"":                                      "",
	} {
		if got := hostOf(id); got != want {
			t.Errorf("hostOf(%q) = %q, want %q", id, got, want)
		}
	}
}
