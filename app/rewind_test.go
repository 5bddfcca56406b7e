package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// promptTurn is the events of a turn that only holds its prompt, from seq.
func promptTurn(seq int64, turn int, prompt string) []session.Event {
	return []session.Event{
		{Type: "turn/start", Seq: seq, Data: session.TurnStart{Turn: turn}},
		{Type: "user/message", Seq: seq + 1, Data: session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: prompt}},
		{Type: "turn/end", Seq: seq + 2, Data: session.TurnEnd{Turn: turn, Reason: session.StopCompleted}},
	}
}

func TestARewindRedrawsTheTranscriptWithoutTheRewoundTurns(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	var history []session.Event
	history = append(history, promptTurn(0, 1, "first prompt")...)
	history = append(history, promptTurn(3, 2, "second prompt")...)
	history = append(history, promptTurn(6, 3, "third prompt")...)
	be.logged = history
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, history: snapshotOf(history)})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "third prompt") {
		t.Fatalf("want the third prompt on screen before the rewind, got\n%s", s)
	}
	rewind := session.Event{Type: "session/rewind", Seq: 9, Data: session.Rewind{Turn: 2, Conversation: true, Back: 3}}
	be.logged = append(be.logged, rewind)
	m.Update(eventsMsg{events: []agent.Event{agent.Logged{Event: rewind}}})
	readHistory(m, be)
	s := ansi.Strip(screen(m))
	if !strings.Contains(s, "first prompt") || strings.Contains(s, "second prompt") || strings.Contains(s, "third prompt") {
		t.Fatalf("want only turn 1 on screen after rewinding to turn 2, got\n%s", s)
	}
	undo := session.Event{Type: "session/rewind", Seq: 10, Data: session.Rewind{Conversation: true, Back: 9, Undo: 9}}
	be.logged = append(be.logged, undo)
	m.Update(eventsMsg{events: []agent.Event{agent.Logged{Event: undo}}})
	readHistory(m, be)
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "third prompt") {
		t.Fatalf("want the rewound turns back on screen after undoing the rewind, got\n%s", s)
	}
}
