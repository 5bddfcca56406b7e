//go:build linux

package tmuxdiff

import (
	"strings"
	"testing"
)

// TestScreensAgreeWithTmux replays what tack wrote on the way to each
// scenario's screens into x/vt, as the screen tests feed it, and into
// tmux, and fails on any difference
// between the two screens that the table of known differences does not
// explain. A known difference the table says tack's screens show fails
// too when, every scenario having run, none showed it: the table says what
// the emulators do with tack's bytes now.
func TestScreensAgreeWithTmux(t *testing.T) {
	needTmux(t)
	seen := map[string]bool{}
	ran := 0
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			ran++
			rec := sc.record(t)
			vts, tmuxes := replay(t, rec, asTheTestsDo)
			for _, m := range rec.marks {
				if m.check == "" {
					continue
				}
				var unexplained []string
				for _, d := range compare(m.check, vts[m.check], tmuxes[m.check]) {
					if k, ok := explain(d); ok {
						seen[k.name] = true
						t.Logf("known difference (%s): %s", k.name, d)
						continue
					}
					unexplained = append(unexplained, d.String())
				}
				if len(unexplained) > 0 {
					t.Errorf("x/vt and tmux show %q differently:\n%s\nx/vt:\n%s\ntmux:\n%s", m.check,
						strings.Join(unexplained, "\n"), show(vts[m.check]), show(tmuxes[m.check]))
				}
			}
		})
	}
	if ran < len(scenarios) || t.Failed() {
		return
	}
	for _, k := range known {
		if k.inTack != nil && !seen[k.name] {
			t.Errorf("known difference %q (%s) did not occur: remove it from the table", k.name, k.reason)
		}
	}
}
