package app

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The first frame shows the label the session had when the program
// subscribed, "…" for the sandbox while its probe is to come; the probe
// (and the workspace's listing for @ completion) is asked for only once
// that frame is out (frameOutMsg), and its answer replaces the label in
// the status row and the welcome line.
func TestTheSandboxProbeAnswersAfterTheFirstFrame(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 100, Height: 30})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, permission: "auto · …"})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "auto · …") || !strings.Contains(s, "auto mode (…)") {
		t.Fatalf("want the label the session had, with the sandbox to come, got:\n%s", s)
	}
	before := be.calls.Load()
	_, cmd := m.Update(frameOutMsg{})
	if cmd == nil || be.calls.Load() != before {
		t.Fatalf("want the probe asked for in a command, got %v after %d calls", cmd, be.calls.Load()-before)
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok {
		t.Fatal("want the probe and the workspace's listing in one batch")
	}
	for _, c := range batch {
		m.Update(c())
	}
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "auto · sandboxed") || !strings.Contains(s, "auto mode (sandboxed)") {
		t.Errorf("want the probe's answer shown, got:\n%s", s)
	}
}
