package app

import (
	"os"
	"slices"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// TestCtrlGLooksTheEditorUpInItsCommand checks that the editor program is
// found (a PATH lookup) in the command that writes the draft, so Update
// only hands the ready command to bubbletea.
func TestCtrlGLooksTheEditorUpInItsCommand(t *testing.T) {
	be := &countingBackend{}
	env := map[string]string{"EDITOR": "no-such-editor-here --wait"}
	m := New(Options{Backend: be, Width: 80, Height: 24, Getenv: func(k string) string { return env[k] }})
	keys.TypeText(keys.Into(m), "draft")
	_, cmd := m.Update(keys.Key("ctrl+g"))
	msg, ok := cmd().(draftFileMsg)
	if !ok || msg.err != nil {
		t.Fatalf("want the draft written, got %#v", msg)
	}
	defer os.Remove(msg.path)
	if msg.editor == nil || msg.editor.Err == nil {
		t.Fatalf("want the command to have looked the editor up (and failed for a missing one), got %+v", msg.editor)
	}
	if want := []string{"no-such-editor-here", "--wait", msg.path}; !slices.Equal(msg.editor.Args, want) {
		t.Fatalf("want the editor's words and the draft file, got %q", msg.editor.Args)
	}
}
