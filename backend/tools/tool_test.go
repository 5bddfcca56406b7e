package tools

import (
	"testing"

	"github.com/tack-agent/tack/backend/card"
)

// A call failed when it was an error, or when the command it ran did not
// succeed though the model reads a plain result ("[exit code: 3]").
func TestResultFailedTakesTheCommandsOutcome(t *testing.T) {
	zero, three := 0, 3
	for _, c := range []struct {
		r    Result
		want bool
	}{
		{Result{Text: "ok"}, false},
		{Errorf("no such file"), true},
		{Result{Card: &card.Card{Terminal: &card.TerminalView{ExitCode: &zero}}}, false},
		{Result{Card: &card.Card{Terminal: &card.TerminalView{ExitCode: &three}}}, true},
		{Result{Card: &card.Card{Terminal: &card.TerminalView{TimedOut: true}}}, true},
		{Result{Card: &card.Card{Kind: card.Diff}}, false},
	} {
		if got := c.r.Failed(); got != c.want {
			t.Errorf("%+v: Failed() = %v", c.r, got)
		}
	}
}
