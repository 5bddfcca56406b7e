package tools

import (
	"encoding/json"
	"testing"
)

// Claude Code's file tools always send an absolute file_path, and hook
// scripts written for them rely on it; the model may send tack's a path
// relative to the workspace.
func TestClaudeInputHasAnAbsoluteFilePath(t *testing.T) {
	for args, want := range map[string]string{
		`{"file_path":"src/a.go","old_string":"x"}`: `{"file_path":"/w/src/a.go","old_string":"x"}`,
		`{"file_path":"/etc/hosts"}`:                `{"file_path":"/etc/hosts"}`,
		`{"command":"ls"}`:                          `{"command":"ls"}`,
		`not json`:                                  `{}`,
		`["a list"]`:                                `{}`,
	} {
		if got := string(ClaudeInput(json.RawMessage(args), "/w")); got != want {
			t.Errorf("%s: want %s, got %s", args, want, got)
		}
	}
}
