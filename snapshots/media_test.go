package snapshots

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// TestResumeShowsAttachedImagesAndSubagentsAsLive replays a session with
// an attached image, a read of an image file and a finished task, and
// wants the resumed screen to equal the live one.
func TestResumeShowsAttachedImagesAndSubagentsAsLive(t *testing.T) {
	shot := session.ImageRef{Hash: strings.Repeat("c", 64), MediaType: "image/png", Name: "shot.png", Bytes: 48_210, Width: 1280, Height: 800}
	taskCard := card.Card{Kind: card.Generic, Title: "Task Find the bug (general)", Description: "2 steps · 1 tool call · 3.1k tokens · $0.0011",
		Body: "● Grep \"panic\"\n\nThe panic comes from parse.go:42."}
	var l log
	live := events(running(),
		l.live(session.TurnStart{Turn: 1},
			session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "why does it crash? @shot.png", Images: []session.ImageRef{shot}},
			session.StepStart{Turn: 1, Step: 1, Model: "deepseek-flash", Effort: llm.EffortHigh},
			session.AssistantMessage{Turn: 1, Step: 1, ToolCalls: []llm.ToolCall{{ID: "t1", Name: "task", Arguments: `{}`}}, Finish: llm.FinishToolCalls},
			session.ToolCall{Turn: 1, Step: 1, CallID: "t1", Name: "task", Card: card.Card{Kind: card.Generic, Title: "Task Find the bug (general)", Body: "find it"}}),
		[]agent.Event{agent.ToolProgress{CallID: "t1", Card: card.Card{Kind: card.Generic, Title: "Task Find the bug (general)", Description: "1 step · thinking"}}},
		l.live(session.ToolResult{Turn: 1, Step: 1, CallID: "t1", Name: "task", Text: "The panic comes from parse.go:42.", Card: &taskCard},
			session.StepEnd{Turn: 1, Step: 1},
			session.StepStart{Turn: 1, Step: 2, Model: "deepseek-flash", Effort: llm.EffortHigh},
			session.AssistantMessage{Turn: 1, Step: 2, Text: "It is the parser.", Finish: llm.FinishStop},
			session.StepEnd{Turn: 1, Step: 2},
			session.TurnEnd{Turn: 1, Reason: session.StopCompleted}),
		idle())
	tt := wantResumedLikeLive(t, live, "It is the parser.")
	liveScreen, _ := tt.Snapshot()
	for _, want := range []string{"[image] shot.png · 47.1 KB · 1280×800", "2 steps · 1 tool call · 3.1k tokens · $0.0011"} {
		if !strings.Contains(liveScreen, want) {
			t.Errorf("want %q on screen, got\n%s", want, liveScreen)
		}
	}
}
