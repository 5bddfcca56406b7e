package app

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/sessionpicker"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/cards"
)

// screen is the model's view as plain text.
func screen(m *Model) string { return m.View().Content }

func newTestModel(now func() time.Time) (*Model, *countingBackend) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 80, Height: 24, Now: now})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be})
	return m, be
}

// enterCommand presses Enter on a command draft and follows the submission
// through the command it becomes to its settled result.
func enterCommand(m *Model) {
	_, cmd := m.Update(keys.Key("enter"))
	for cmd != nil {
		msg := cmd()
		_, cmd = m.Update(msg)
		if _, ok := msg.(commandMsg); ok {
			return
		}
	}
}

func TestEscClosesTheOverlayBeforeCancellingTheTurn(t *testing.T) {
	m, be := newTestModel(nil)
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}}})
	m.Update(keys.Key("?"))
	if m.ov.help == nil {
		t.Fatal("want ? on an empty editor to open help, got it closed")
	}
	before := m.tr.Settings().Cards
	m.Update(keys.Key("ctrl+o"))
	if got := m.tr.Settings().Cards; got != before {
		t.Fatalf("want Ctrl+O ignored while help is open, got cards %v", got)
	}
	_, cmd := m.Update(keys.Key("esc"))
	if m.ov.help != nil || cmd != nil {
		t.Fatalf("want the first Esc to close help and cancel nothing, got help open %v, command %v", m.ov.help != nil, cmd != nil)
	}
	_, cmd = m.Update(keys.Key("esc"))
	if cmd == nil {
		t.Fatal("want the second Esc to cancel the running turn, got no command")
	}
	cmd()
	if got := be.sent.Load(); got != "cancel" {
		t.Fatalf("want the second Esc to cancel, got %v", got)
	}
}

func TestCompactionShowsItsElapsedTime(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m, _ := newTestModel(func() time.Time { return now })
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}, agent.PhaseChanged{Phase: agent.PhaseCompacting}}})
	now = now.Add(12 * time.Second)
	m.Update(tickMsg{})
	s := screen(m)
	if !strings.Contains(s, "Context being compacted 12.0s") || !strings.Contains(s, "⊙") {
		t.Fatalf("want the compaction timer and ⊙ on screen, got:\n%s", s)
	}
	m.Update(eventsMsg{events: []agent.Event{agent.PhaseChanged{Phase: agent.PhaseResponding}}})
	if s := screen(m); strings.Contains(s, "Context being compacted") || !strings.Contains(s, "●") {
		t.Fatalf("want the timer gone and ● shown once the model responds, got:\n%s", s)
	}
}

// A running command's output comes with its clock up to date: a tick
// comes once a second, at no particular point of the command's seconds,
// so a clock brought up to now only by ticks lags what the output says.
func TestARunningCommandsOutputComesWithItsClockUpToNow(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m, _ := newTestModel(func() time.Time { return now })
	bash := func(output string) card.Card {
		return card.Card{Kind: card.Terminal, Label: "Bash", Subject: "make", Terminal: &card.TerminalView{Command: "make", Output: output}}
	}
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning},
		agent.Logged{Event: session.Event{Time: now, Data: session.ToolCall{Turn: 1, Step: 1, CallID: "c", Name: "bash", Card: bash("")}}}}})
	now = now.Add(900 * time.Millisecond)
	m.Update(tickMsg{})
	now = now.Add(3 * time.Second)
	m.Update(eventsMsg{events: []agent.Event{agent.ToolProgress{CallID: "c", Card: bash("step 4\n")}}})
	if s := screen(m); !strings.Contains(s, "step 4") || !strings.Contains(s, "running 3s") {
		t.Fatalf("want step 4 shown with 3s of running, got:\n%s", s)
	}
}

func TestChoosingASessionEndsTheProgramWithItsID(t *testing.T) {
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "/resume")
	enterCommand(m)
	if m.ov.sessions == nil {
		t.Fatal("want /resume to open the session picker, got none")
	}
	m.Update(sessionsMsg{loaded: sessionpicker.Loaded{Workspace: []session.Summary{
		{ID: "s-1", Cwd: "/w"}, {ID: "s-0", Cwd: "/elsewhere"},
	}}})
	m.Update(keys.Key("down"))
	_, cmd := m.Update(keys.Key("enter"))
	if got := m.Result(); got != (Result{ResumeID: "s-0", Cwd: "/elsewhere"}) {
		t.Fatalf("want the result to resume s-0 in /elsewhere, got %+v", got)
	}
	if cmd == nil {
		t.Fatal("want choosing a session to quit the program, got no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("want choosing a session to quit the program, got another command")
	}
}

func TestDetailsDialogAppliesLive(t *testing.T) {
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "/details")
	enterCommand(m)
	if m.ov.details == nil {
		t.Fatal("want /details to open the dialog, got none")
	}
	m.Update(keys.Key("tab"))
	if got := m.tr.Settings().Cards; got != cards.Expanded {
		t.Fatalf("want Tab in the dialog to expand cards at once, got %v", got)
	}
}

func TestResumeWhileATurnRunsGoesToTheRegistry(t *testing.T) {
	m, be := newTestModel(nil)
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}}})
	cmd := m.submit("/resume")
	if m.ov.sessions != nil {
		t.Fatal("want no session picker while a turn runs, got one")
	}
	if cmd == nil {
		t.Fatal("want /resume sent to the registry, which refuses it as busy, got no command")
	}
	cmd()
	if got := be.sent.Load(); got != "execute /resume" {
		t.Fatalf("want the registry to run %q, got %v", "/resume", got)
	}
}

func TestCommandInputKeepsItsTrailingText(t *testing.T) {
	m, be := newTestModel(nil)
	cmd := m.submit("/export notes.md  ")
	cmd()
	if got := be.sent.Load(); got != "execute /export notes.md  " {
		t.Fatalf("want the line passed as typed, got %q", got)
	}
}

// /resume WORDS opens the session picker with the words in its search.
func TestResumeWithWordsOpensThePickerSearching(t *testing.T) {
	m, _ := newTestModel(nil)
	res := commands.Result{Kind: commands.Success, Action: commands.ActionOpenResumePicker{Search: "lexer"}}
	m.Update(commandMsg{line: "/resume lexer", found: true, exec: commands.Execution{Name: "resume", Result: res}})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Search: lexer") {
		t.Errorf("want the picker searching for lexer, got:\n%s", s)
	}
}
