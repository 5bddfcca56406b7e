package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

func logged(seq int64, d session.Data) agent.Event {
	return agent.Logged{Event: session.Event{Type: d.EventType(), Seq: seq, Data: d}}
}

// Esc with queued messages: the turn says it was cancelled, then that
// what was queued is back in the editor, where it is.
func TestCancelSaysTheQueueIsBackAfterTheTurnEnded(t *testing.T) {
	m, _ := newTestModel(nil)
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning},
		logged(1, session.TurnStart{Turn: 1}), logged(2, session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "go"})}})
	m.Update(eventsMsg{events: []agent.Event{logged(3, session.InboxDiscard{Texts: []string{"one", "two"}}),
		logged(4, session.TurnEnd{Turn: 1, Reason: session.StopAborted}), agent.StatusChanged{Status: agent.StatusIdle}}})
	s := ansi.Strip(screen(m))
	cancelled, back := strings.Index(s, "Turn cancelled."), strings.Index(s, "The 2 queued messages are back in the editor.")
	if cancelled < 0 || back < cancelled {
		t.Fatalf("want \"Turn cancelled.\" and then the queue's notice, got:\n%s", s)
	}
	if got := m.editor.Value(); got != "one\ntwo" {
		t.Fatalf("want the queued messages in the editor, got %q", got)
	}
}
