package approval

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
)

// A command whose text reads differently than bash runs it (an override
// that shows "rm -rf ~" as a harmless comment, a zero-width space) is
// shown with those characters escaped, and none of them reaches the
// screen.
func TestBidiAndInvisibleCharactersShowEscaped(t *testing.T) {
	cmd := "echo hi # \u202e~ fr- mr\u202c; ls\u200b"
	a := interact.Approval{CallID: "c1", Tool: "bash", Summary: cmd, Details: cmd, Remember: "echo",
		Card: &card.Card{Kind: card.Terminal, Description: "Greet \u2066x\u2069", Terminal: &card.TerminalView{Command: cmd}}}
	v := ansi.Strip(New(a, th, overlaytest.Epoch()).View(100, 30))
	for _, want := range []string{`$ echo hi # \u202e~ fr- mr\u202c; ls\u200b`, `Greet \u2066x\u2069`} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q on the dialog, got\n%s", want, v)
		}
	}
	if strings.ContainsAny(v, "\u202e\u202c\u200b\u2066\u2069") {
		t.Errorf("want no bidi or invisible character on the dialog, got\n%q", v)
	}
}

// An edit whose new line hides an override (Trojan Source: the line reads
// as a comment but compiles as code) shows it escaped in the diff, in the
// path and in a written file's body.
func TestBidiInAnEditsDiffShowsEscaped(t *testing.T) {
	line := "access = \"user\" // \u202e } \u2066if isAdmin\u2069 \u2066 {"
	c := card.Card{Kind: card.Diff, Subject: "auth\u200b.go", Diffs: []card.FileDiff{{Path: "auth\u200b.go", Added: 1, Removed: 1,
		Lines: []card.DiffLine{{Op: card.OpDelete, Text: "access = \"user\"", Old: 3}, {Op: card.OpAdd, Text: line, New: 3}}}}}
	a := interact.Approval{CallID: "c1", Tool: "edit", Summary: "Edit auth.go", Card: &c}
	v := ansi.Strip(New(a, th, overlaytest.Epoch()).View(100, 30))
	for _, want := range []string{`\u202e } \u2066if isAdmin\u2069`, `auth\u200b.go`} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q on the dialog, got\n%s", want, v)
		}
	}
	if strings.ContainsAny(v, "\u202e\u2066\u2069\u200b") {
		t.Errorf("want no bidi or invisible character on the dialog, got\n%q", v)
	}
	if c.Diffs[0].Lines[1].Text != line {
		t.Error("the approval's card was changed; revealing must work on a copy")
	}
}
