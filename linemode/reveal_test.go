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
