package app

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

func TestNarrowScreenRowsFitItsWidth(t *testing.T) {
	pending := interacttest.Pending(t,
		interact.Approval{Tool: "bash", Summary: "ls 中文 -la /tmp", Details: "ls 中文 -la /tmp"},
		[]interact.Question{{ID: "q", Header: "选择", Question: "Which 中文 one?", Options: []interact.Option{{Label: "选项 A", Description: "描述"}, {Label: "B"}}}},
	).Pending()
	for w := 4; w < 25; w++ {
		m, _ := newTestModel(nil)
		m.Update(tea.WindowSizeMsg{Width: w, Height: 12})
		m.Update(eventsMsg{events: append([]agent.Event{
			agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
		}, paragraphs(1, 10)...)})
		keys.TypeText(keys.Into(m), "draft 中文 text that wraps")
		v := m.View()
		if v.Cursor != nil && v.Cursor.X >= w {
			t.Errorf("width %d: want the cursor within the screen, got column %d", w, v.Cursor.X)
		}
		wantRowsWithin(t, w, "editor", v.Content)
		for i := range pending {
			m.Update(requestsMsg{pending: pending[i:]})
			wantRowsWithin(t, w, "request", m.View().Content)
		}
		m.Update(requestsMsg{})
		m.Update(keys.Key("?"))
		wantRowsWithin(t, w, "help", m.View().Content)
	}
}

func wantRowsWithin(t *testing.T, w int, what, content string) {
	t.Helper()
	for i, row := range strings.Split(content, "\n") {
		if got := ansi.StringWidth(row); got > w {
			t.Errorf("width %d, %s: want rows at most %d wide, got row %d %d wide: %q", w, what, w, i, got, ansi.Strip(row))
		}
	}
}
