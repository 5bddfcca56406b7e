package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
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

func TestEscEscOpensTheRewindPickerAndItsChoiceRunsTheRewind(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 100, Height: 30})
	d := noIO{t: t, be: be, m: m}
	var history []session.Event
	history = append(history, promptTurn(0, 1, "first prompt")...)
	history = append(history, session.Event{Type: "checkpoint", Seq: 3, Data: session.Checkpoint{Turn: 1, Phase: session.PhaseTurn, ID: "c1"}})
	history = append(history, promptTurn(4, 2, "second prompt")...)
	d.step(subscribedMsg{sessionID: "s-1", sub: be, history: snapshotOf(history)})
	d.step(keys.Key("esc"))
	if m.ov.rewind != nil || m.hint != escAgainHint {
		t.Fatalf("want one Esc to arm the picker with a hint, got picker=%v hint=%q", m.ov.rewind != nil, m.hint)
	}
	d.step(keys.Key("x"))
	d.step(keys.Key("esc"))
	if m.ov.rewind != nil {
		t.Fatal("want Esc with a draft to leave the picker closed")
	}
	d.step(keys.Key("ctrl+c")) // clear the draft
	d.step(keys.Key("esc"))
	d.step(keys.Key("esc"))
	if m.ov.rewind == nil {
		t.Fatal("want Esc Esc with an empty draft to open the rewind picker")
	}
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Turn 2  second prompt") {
		t.Fatalf("want the picker to list turn 2, got\n%s", s)
	}
	d.step(keys.Key("down"))
	d.step(keys.Key("enter"))
	d.run(d.step(keys.Key("enter")))
	d.wantSent("choosing turn 1, files and conversation", "execute /rewind 1")
	if m.ov.rewind != nil {
		t.Error("want the picker closed once its rewind runs")
	}
}

func TestARewindPutsThePromptBackAndARefusalAsksToConfirm(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 100, Height: 30})
	d := noIO{t: t, be: be, m: m}
	d.step(subscribedMsg{sessionID: "s-1", sub: be})
	refusal := commands.Execution{Result: commands.Result{Kind: commands.Error, Text: "Not rewound",
		Action: commands.ActionConfirmRewind{Paths: []string{"notes.md"}, Line: "/rewind 2 --force"}}}
	d.step(commandMsg{line: "/rewind 2", exec: refusal, found: true})
	if m.ov.rewind == nil || !m.editor.Empty() {
		t.Fatalf("want a confirmation open and no draft kept, got picker=%v draft=%q", m.ov.rewind != nil, m.editor.Value())
	}
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "notes.md") {
		t.Fatalf("want the confirmation to list notes.md, got\n%s", s)
	}
	if cmd := d.step(keys.Key("enter")); cmd != nil {
		cmd() // its reply, from this fake, would be an unknown command
	}
	d.wantSent("confirming", "execute /rewind 2 --force")
	done := commands.Execution{Result: commands.Result{Kind: commands.Success, Action: commands.ActionRewound{Prompt: "second prompt"}}}
	d.step(commandMsg{line: "/rewind 2 --force", exec: done, found: true})
	if got := m.editor.Value(); got != "second prompt" {
		t.Errorf("want turn 2's prompt back in the editor, got %q", got)
	}
}

func TestCommandCardsShowAsToolCards(t *testing.T) {
	m, _ := newTestModel(nil)
	diff := card.Card{Kind: card.Diff, Title: "Changes since turn 2 began",
		Diffs: []card.FileDiff{{Path: "a.txt", Added: 1, Lines: []card.DiffLine{{Op: card.OpAdd, Text: "new line"}}}}}
	done := session.Event{Type: "command/done", Seq: 1, Data: session.CommandDone{ID: "c", Outcome: "success", Text: "Changes since turn 2 began: 1 file, +1 −0.", Cards: []card.Card{diff}}}
	m.Update(eventsMsg{events: []agent.Event{agent.Logged{Event: done}}})
	s := ansi.Strip(screen(m))
	for _, want := range []string{"Changes since turn 2 began: 1 file", "✓ Diff(a.txt)  +1 -0", "+ new line"} {
		if !strings.Contains(s, want) {
			t.Errorf("want %q on screen, got\n%s", want, s)
		}
	}
}
