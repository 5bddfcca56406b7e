package linemode

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
)

// The line-mode approval escapes what the dialog escapes: bidi controls
// and invisible characters in the command.
func TestApprovalPromptShowsBidiControlsEscaped(t *testing.T) {
	cmd := "echo hi # \u202e~ fr- mr\u202c"
	got := ApprovalPrompt(interact.Approval{Tool: "bash", Summary: cmd, Remember: "echo",
		Card: &card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: cmd}}}, "/w")
	if !strings.Contains(got, `$ echo hi # \u202e~ fr- mr\u202c`) || strings.ContainsAny(got, "\u202e\u202c") {
		t.Errorf("want the override shown escaped, got %q", got)
	}
}

// So is an edit's diff: a line that reads as a comment but compiles as
// code (Trojan Source) shows its override escaped, and so does its path.
func TestApprovalPromptShowsBidiInADiffEscaped(t *testing.T) {
	line := "access = \"user\" // \u202e } \u2066if isAdmin\u2069 \u2066 {"
	got := ApprovalPrompt(interact.Approval{Tool: "edit", Summary: "Edit auth.go", Card: &card.Card{Kind: card.Diff,
		Diffs: []card.FileDiff{{Path: "auth\u200b.go", Added: 1, Lines: []card.DiffLine{{Op: card.OpAdd, Text: line}}}}}}, "/w")
	for _, want := range []string{`+ access = "user" // \u202e } \u2066if isAdmin\u2069 \u2066 {`, `auth\u200b.go`} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in the prompt, got %q", want, got)
		}
	}
	if strings.ContainsAny(got, "\u202e\u2066\u2069\u200b") {
		t.Errorf("want no bidi or invisible character in the prompt, got %q", got)
	}
}
