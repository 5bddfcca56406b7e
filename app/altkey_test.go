package app

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// pressBytes sends m the keys the terminal's decoder reads in b, as one
// read of the terminal brings them.
func pressBytes(t *testing.T, m *Model, b string) {
	t.Helper()
	var d uv.EventDecoder
	for buf := []byte(b); len(buf) > 0; {
		n, ev := d.Decode(buf)
		k, ok := ev.(uv.KeyPressEvent)
		if n == 0 || !ok {
			t.Fatalf("want key presses in %q, got %T at %q", b, ev, buf)
		}
		_, cmd := m.Update(tea.KeyPressMsg(k))
		runCommands(cmd)
		buf = buf[n:]
	}
}

// runCommands runs what a key asked for, as bubbletea would, without the
// messages' answers.
func runCommands(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			runCommands(c)
		}
	}
}

// tmux (and a fast read of any terminal) joins Esc and the key typed
// right after it into one Alt key: Esc then /status arrives as alt+/ and
// "status". It reads as what was typed: the Esc cancels the turn, and the
// draft is the command.
func TestEscJoinedToTheNextKeyIsReadAsEscThenThatKey(t *testing.T) {
	m, be := newTestModel(nil)
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}}})
	pressBytes(t, m, "\x1b/status")
	if got, _ := be.sent.Load().(string); got != "cancel" {
		t.Errorf("want the Esc to cancel the running turn, got %q sent", got)
	}
	if got := m.editor.Value(); got != "/status" {
		t.Errorf("want the draft /status, got %q", got)
	}
	m, _ = newTestModel(nil)
	pressBytes(t, m, "\x1bS")
	if got := m.editor.Value(); got != "S" {
		t.Errorf("Esc then Shift+S: want the draft S, got %q", got)
	}
}

// Alt keys that are bound keep their meaning: the editor's word motions
// and Esc Esc.
func TestBoundAltKeysStayWhole(t *testing.T) {
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "hello world")
	pressBytes(t, m, "\x1bbX")
	if got := m.editor.Value(); got != "hello Xworld" {
		t.Errorf("want alt+b to move a word back before X is typed, got %q", got)
	}
	m, _ = newTestModel(nil)
	pressBytes(t, m, "\x1b\x1b")
	if m.ov.rewind == nil {
		t.Error("want Esc Esc in one read to open the rewind picker, got it closed")
	}
}
