package pty

import (
	"os"
	"path/filepath"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// Ctrl+G hands the terminal, keys included, to the external editor: a
// line typed while it runs is the editor's (here a script that reads one
// from the terminal into the draft), not tack's, and once it ends the keys
// are tack's again.
func TestCtrlGHandsTheKeysToTheEditorAndBack(t *testing.T) {
	editor := filepath.Join(t.TempDir(), "editor.sh")
	script := "#!/bin/sh\nIFS= read -r line\nprintf '%s\\n' \"$line\" >> \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := start(t, setup{srv: llmtest.New(t), extraEnv: []string{"EDITOR=" + editor, "VISUAL="}})
	r.waitIdle()
	r.Type("first line")
	r.waitText("the draft", "first line")
	r.Key('g', uv.ModCtrl)
	r.waitScreen("the terminal handed to the editor", nil, func(string) bool { return !r.AltScreen() })
	r.Type("from the editor\r")
	r.waitScreen("the draft back with the editor's line", []string{"first line", "from the editor"}, func(string) bool {
		return r.AltScreen()
	})
	r.Type(" and after")
	r.waitText("typing after the editor", "from the editor and after")
}
