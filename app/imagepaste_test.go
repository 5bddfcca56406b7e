package app

import (
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

func TestPastingAnImagePathAttachesItAsAMention(t *testing.T) {
	dir := t.TempDir()
	shot := filepath.Join(dir, "screen shot.png")
	if err := os.WriteFile(shot, []byte("\x89PNG"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "what is wrong here? ")
	_, cmd := m.Update(tea.PasteMsg{Content: "'" + shot + "'"})
	if cmd == nil {
		t.Fatal("want the paste checked off the update loop, got no command")
	}
	m.Update(cmd())
	if got, want := m.editor.Value(), `what is wrong here? @"`+shot+`" `; got != want {
		t.Fatalf("want the dragged image as a mention, got %q", got)
	}
	_, cmd = m.Update(tea.PasteMsg{Content: "plain words"})
	m.Update(cmd())
	if got, want := m.editor.Value(), `what is wrong here? @"`+shot+`" plain words`; got != want {
		t.Fatalf("want other pastes kept as they are, got %q", got)
	}
}
