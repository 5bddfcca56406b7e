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
