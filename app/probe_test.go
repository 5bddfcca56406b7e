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
// that frame is out (frameOutMsg) and the start has settled, and its
// answer replaces the label in the status row and the welcome line.
func TestTheSandboxProbeAnswersAfterTheFirstFrame(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 100, Height: 30})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, permission: "auto · …"})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "auto · …") || !strings.Contains(s, "auto mode (…)") {
		t.Fatalf("want the label the session had, with the sandbox to come, got:\n%s", s)
	}
	before := be.calls.Load()
	_, cmd := m.Update(frameOutMsg{})
	if cmd == nil {
		t.Fatal("want the probe asked for in a command once the frame is out")
	}
	_, cmd = m.Update(cmd())
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

// With the screen's settle to wait for (cmd/tack), the probe and the
// listing start once it has come: not before, and then without another
// message.
func TestTheSandboxProbeWaitsForTheStartToSettle(t *testing.T) {
	be := &countingBackend{}
	settled := make(chan struct{})
	m := New(Options{Backend: be, Width: 100, Height: 30, Settled: settled})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, permission: "auto · …"})
	_, cmd := m.Update(frameOutMsg{})
	if cmd == nil {
		t.Fatal("want a command that waits for the start to settle")
	}
	waited := make(chan tea.Msg, 1)
	go func() { waited <- cmd() }()
	select {
	case msg := <-waited:
		t.Fatalf("want the wait to last until the start settles, got %T at once", msg)
	default:
	}
	close(settled)
	_, cmd = m.Update(<-waited)
	if cmd == nil {
		t.Fatal("want the probe asked for once the start settled")
	}
	if _, ok := cmd().(tea.BatchMsg); !ok {
		t.Fatal("want the probe and the workspace's listing in one batch")
	}
}
