package app

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// paragraphs streams n numbered paragraphs as one delta each.
func paragraphs(from, n int) []agent.Event {
	var evs []agent.Event
	for i := from; i < from+n; i++ {
		evs = append(evs, agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: fmt.Sprintf("Paragraph %d.\n\n", i)}})
	}
	return evs
}

func TestNewOutputFollowsOnlyAtTheBottom(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 60, Height: 14})
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 14})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be})
	start := []agent.Event{
		agent.StatusChanged{Status: agent.StatusRunning},
		agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
	}
	m.Update(eventsMsg{events: append(start, paragraphs(1, 20)...)})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Paragraph 20.") {
		t.Fatalf("want the newest paragraph on screen while at the bottom, got\n%s", s)
	}

	m.Update(keys.Key("pgup"))
	before := ansi.Strip(screen(m))
	m.Update(eventsMsg{events: paragraphs(21, 5)})
	if after := ansi.Strip(screen(m)); after != before {
		t.Fatalf("want the scrolled-up view to stay still as output arrives, got\n%s\nwant\n%s", after, before)
	}

	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	m.Update(eventsMsg{events: paragraphs(26, 3)})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Paragraph 28.") {
		t.Fatalf("want the view back at the bottom to follow new output, got\n%s", s)
	}
}
