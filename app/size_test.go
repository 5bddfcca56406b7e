package app

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

func TestShortScreenKeepsTheEditorAndCursorInSight(t *testing.T) {
	for _, h := range []int{1, 2, 3, 4, 5, 6, 8} {
		m, _ := newTestModel(nil)
		m.Update(tea.WindowSizeMsg{Width: 30, Height: h})
		m.Update(eventsMsg{events: append([]agent.Event{
			agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
		}, paragraphs(1, 10)...)})
		keys.TypeText(keys.Into(m), "draft")
		v := m.View()
		rows := strings.Split(ansi.Strip(v.Content), "\n")
		if len(rows) != h {
			t.Fatalf("height %d: want %d rows, got %d:\n%s", h, h, len(rows), strings.Join(rows, "\n"))
		}
		if last := rows[h-1]; !strings.HasPrefix(last, "> draft") {
			t.Fatalf("height %d: want the editor on the last row, got %q", h, last)
		}
		if v.Cursor == nil || v.Cursor.Y != h-1 || v.Cursor.X != len("> draft") {
			t.Fatalf("height %d: want the cursor at (7, %d), got %+v", h, h-1, v.Cursor)
		}
	}
}

// A draft taller than the room left keeps its last row and the cursor on
// the screen's last row; before, the frame ran a row past the screen and
// the row being typed was not drawn.
func TestShortScreenKeepsATallDraftsLastRow(t *testing.T) {
	words := make([]string, 60)
	for i := range words {
		words[i] = fmt.Sprintf("word%d", i)
	}
	for _, h := range []int{6, 12} {
		m, _ := newTestModel(nil)
		m.Update(tea.WindowSizeMsg{Width: 40, Height: h})
		keys.TypeText(keys.Into(m), strings.Join(words, " "))
		v := m.View()
		rows := strings.Split(ansi.Strip(v.Content), "\n")
		if len(rows) != h {
			t.Fatalf("height %d: want %d rows, got %d:\n%s", h, h, len(rows), strings.Join(rows, "\n"))
		}
		if last := strings.TrimRight(rows[h-1], " "); !strings.HasSuffix(last, "word59") {
			t.Fatalf("height %d: want the draft's end on the last row, got:\n%s", h, strings.Join(rows, "\n"))
		}
		if v.Cursor == nil || v.Cursor.Y != h-1 {
			t.Fatalf("height %d: want the cursor on row %d, got %+v", h, h-1, v.Cursor)
		}
	}
}

// On a screen shorter than the editor's ten rows, the cursor stays in
// sight when it moves up a tall draft; before, the editor grew past the
// screen and the cursor went into the rows cut from the top.
func TestShortScreenKeepsTheCursorInATallDraft(t *testing.T) {
	words := make([]string, 90)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	m, _ := newTestModel(nil)
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 8})
	keys.TypeText(keys.Into(m), strings.Join(words, " "))
	for i := 0; i < 9; i++ {
		m.Update(keys.Key("up"))
		v := m.View()
		if v.Cursor == nil || v.Cursor.Y < 0 || v.Cursor.Y >= 8 {
			t.Fatalf("after %d presses of Up: want the cursor on the screen, got %+v:\n%s", i+1, v.Cursor, ansi.Strip(v.Content))
		}
	}
}

func TestShortScreenGivesTheEditorRowsToAQuestion(t *testing.T) {
	broker := interacttest.Pending(t,
		[]interact.Question{{ID: "q", Question: "Which?", Options: []interact.Option{{Label: "Apples"}, {Label: "Pears"}}}})
	for _, h := range []int{5, 6, 8, 11, 12, 20} {
		m, _ := newTestModel(nil)
		m.Update(tea.WindowSizeMsg{Width: 40, Height: h})
		keys.TypeText(keys.Into(m), "draft")
		m.Update(requestsMsg{pending: broker.Pending()})
		screen := ansi.Strip(m.View().Content)
		if !strings.Contains(screen, "Apples") {
			t.Errorf("height %d: want the question's first option on screen, got:\n%s", h, screen)
		}
		if shown := strings.Contains(screen, "draft"); shown != (h >= compactHeight) {
			t.Errorf("height %d: want the draft shown %v, got:\n%s", h, h >= compactHeight, screen)
		}
	}
}

// bubbletea asks for a view after each of its start messages; the view
// after one that changes nothing is the one before, and a change after
// them is drawn.
func TestMessagesThatChangeNothingKeepTheViewAndChangesAreDrawn(t *testing.T) {
	m, _ := newTestModel(nil)
	before := screen(m)
	for _, msg := range []tea.Msg{tea.ColorProfileMsg{}, tea.EnvMsg{}, tea.WindowSizeMsg{Width: 80, Height: 24}, frameOutMsg{}} {
		m.Update(msg)
		if got := screen(m); got != before {
			t.Fatalf("after %T: want the screen unchanged, got\n%s", msg, got)
		}
	}
	if n := testing.AllocsPerRun(20, func() { m.Update(tea.EnvMsg{}); m.View() }); n > 1 {
		t.Errorf("want the view after a message that changes nothing given again, not drawn (%v allocations)", n)
	}
	keys.TypeText(keys.Into(m), "draft")
	if got := ansi.Strip(screen(m)); !strings.Contains(got, "> draft") {
		t.Fatalf("want the typed draft drawn after messages that changed nothing, got\n%s", got)
	}
	m.Update(tea.ColorProfileMsg{})
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if rows := strings.Split(screen(m), "\n"); len(rows) != 10 {
		t.Fatalf("want a new size drawn after a message that changed nothing, got %d rows", len(rows))
	}
}

// At 40×12 a question's options come before the plan strip and the
// status row, as an approval's choices do.
func TestSmallScreenShowsEveryOptionBeforeThePlan(t *testing.T) {
	broker := interacttest.Pending(t,
		[]interact.Question{{ID: "scope", Header: "Scope", Question: "Should I also fix CountLines?",
			Options: []interact.Option{{Label: "Yes, fix it", Description: "Count a final line without a newline", Recommended: true},
				{Label: "No", Description: "Leave CountLines as it is"}}}})
	m, _ := newTestModel(nil)
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning},
		logged(1, session.TodoWrite{Turn: 1, Todos: []card.TodoItem{{Content: "Fix CountWords", Status: card.TodoInProgress},
			{Content: "Run the suite", Status: card.TodoPending}}})}})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Plan 0/2") {
		t.Fatalf("want the plan strip before the question, got:\n%s", s)
	}
	m.Update(requestsMsg{pending: broker.Pending()})
	s := ansi.Strip(screen(m))
	if !strings.Contains(s, "2. No") || !strings.Contains(s, "Leave CountLines") || strings.Contains(s, "more") {
		t.Fatalf("want both options whole at 40×12, got:\n%s", s)
	}
}
