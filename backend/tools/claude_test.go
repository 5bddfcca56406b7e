package tools

import (
	"encoding/json"
	"slices"
	"testing"
)

// Claude Code's file tools always send an absolute file_path, and hook
// scripts written for them rely on it; the model may send tack's a path
// relative to the workspace.
func TestClaudeInputHasAnAbsoluteFilePath(t *testing.T) {
	for args, want := range map[string]string{
		`{"file_path":"src/a.go","old_string":"x"}`:    `{"file_path":"/w/src/a.go","old_string":"x"}`,
		`{"notebook_path":"n.ipynb","new_source":"x"}`: `{"new_source":"x","notebook_path":"/w/n.ipynb"}`,
		`{"file_path":"/etc/hosts"}`:                   `{"file_path":"/etc/hosts"}`,
		`{"command":"ls"}`:                             `{"command":"ls"}`,
		`not json`:                                     `{}`,
		`["a list"]`:                                   `{}`,
	} {
		if got := string(ClaudeInput(json.RawMessage(args), "/w")); got != want {
			t.Errorf("%s: want %s, got %s", args, want, got)
		}
	}
}

// Each of tack's tools has today's Claude Code name (the Agent SDK
// 0.3.337's tool list) first, and its older ones call it too.
func TestClaudeNamesAreTodaysFirstAndOldOnesStillCall(t *testing.T) {
	for tack, names := range map[string][]string{
		"task":               {"Agent", "Task"},
		"bash_kill":          {"TaskStop", "KillShell", "KillBash"},
		"list_mcp_resources": {"ListMcpResourcesTool", "ListMcpResources"},
		"read_mcp_resource":  {"ReadMcpResourceTool", "ReadMcpResource"},
		"edit":               {"Edit", "MultiEdit"},
	} {
		if got := ClaudeNames(tack); !slices.Equal(got, names) || ClaudeName(tack) != names[0] {
			t.Errorf("%s: want Claude Code's names %v, today's first; got %v", tack, names, got)
		}
		for _, n := range names {
			if got := FromClaude(n); got != tack {
				t.Errorf("FromClaude(%s) = %s, want %s", n, got, tack)
			}
		}
	}
}
