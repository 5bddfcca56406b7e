package agent_test

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// TestAnUnknownFinishReasonKeepsTheAnswerWithANote: a gateway's "eos" is
// no reason to lose a complete answer, but the user is told.
func TestAnUnknownFinishReasonKeepsTheAnswerWithANote(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.Reply(llmtest.Text("All done.", 0), llmtest.Finish("eos"))})
	f.runTurn("go")
	var msg session.AssistantMessage
	var end session.TurnEnd
	for _, e := range f.log.Events() {
		switch d := e.Data.(type) {
		case session.AssistantMessage:
			msg = d
		case session.TurnEnd:
			end = d
		}
	}
	if msg.Text != "All done." || len(msg.Notes) != 1 || !strings.Contains(msg.Notes[0], `("eos")`) || end.Reason != session.StopCompleted {
		t.Fatalf("want the answer kept with a note naming eos and the turn completed, got %+v, %+v", msg, end)
	}
}
