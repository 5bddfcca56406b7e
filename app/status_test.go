package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// Shift+Tab cycles the modes: passing over three to reach the fourth
// leaves one notice, the mode reached, not one per press.
func TestCyclingModesLeavesOneNotice(t *testing.T) {
	m, _ := newTestModel(nil)
	for _, label := range []string{"plan · sandboxed", "read-only · sandboxed", "ask · sandboxed"} {
		m.Update(permissionMsg{label: label})
	}
	s := ansi.Strip(screen(m))
	if n := strings.Count(s, "Permission mode:"); n != 1 || !strings.Contains(s, "Permission mode: ask · sandboxed") {
		t.Fatalf("want one notice naming the mode reached, got %d in:\n%s", n, s)
	}
	m.Update(keys.Key("ctrl+o"))
	m.Update(keys.Key("ctrl+o"))
	s = ansi.Strip(screen(m))
	if strings.Contains(s, "cards expanded") || !strings.Contains(s, "Tool cards hidden.") {
		t.Fatalf("want Ctrl+O pressed twice to leave the notice of the detail reached, got:\n%s", s)
	}
}

// F2 says what it did; before, mouse capture went off or on silently and
// the wheel just stopped scrolling.
func TestF2SaysWhetherTheMouseIsCaptured(t *testing.T) {
	m, _ := newTestModel(nil)
	for _, want := range []string{"Mouse capture off", "Mouse capture on"} {
		m.Update(keys.Key("f2"))
		if s := ansi.Strip(screen(m)); !strings.Contains(s, want) {
			t.Fatalf("want %q after F2, got:\n%s", want, s)
		}
	}
}
