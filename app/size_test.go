package app

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

func TestShortScreenKeepsTheEditorAndCursorInSight(t *testing.T) {
	for _, h := range []int{1, 2, 3, 4, 5, 6, 8} {
		m, _ := newTestModel(nil)
		m.Update(tea.WindowSizeMsg{Width: 30, Height: h})
		m.Update(eventsMsg{events: append([]agent.Event{
			agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
		}, paragraphs(1, 10)...)})
		for _, r := range "draft" {
			m.Update(key(string(r)))
		}
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
