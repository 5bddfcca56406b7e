package snapshots

import (
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/theme"
)

// screenSizes are the sizes the whole screen is pinned at, from a roomy
// terminal down to a split pane.
var screenSizes = []struct{ w, h int }{{120, 40}, {80, 24}, {60, 20}, {40, 12}}

// representativeTurn is a turn the way a small fix runs: the model thinks
// and plans, edits a file, builds (✓) and tests (✗), and is still working.
func representativeTurn(l *log) []agent.Event {
	todos := []card.TodoItem{
		{Content: "Read wc.go", Status: card.TodoCompleted},
		{Content: "Count words in CountWords", Status: card.TodoInProgress, ActiveForm: "Counting words in CountWords"},
		{Content: "Run the tests", Status: card.TodoPending},
	}
	plan := card.Card{Kind: card.Todo, Title: "Plan (1/3 done)", Label: "Update plan", Summary: card.PlanLine(todos), Todos: todos}
	diff := card.Card{Kind: card.Diff, Title: "Edit wc.go", Diffs: []card.FileDiff{{
		Path: "wc.go", Added: 2, Removed: 1, Lines: []card.DiffLine{
			{Op: card.OpContext, Text: "func CountWords(s string) int {", Old: 11, New: 11},
			{Op: card.OpDelete, Text: "\treturn len(s)", Old: 12},
			{Op: card.OpAdd, Text: "\twords := strings.Fields(s)", New: 12},
			{Op: card.OpAdd, Text: "\treturn len(words)", New: 13},
			{Op: card.OpContext, Text: "}", Old: 13, New: 14},
		}}}}
	return events(turnOpening(l, 1, "Make wc count words, not bytes"),
		l.live(session.AssistantMessage{Turn: 1, Step: 1, Reasoning: "CountWords returns len(s), the bytes. strings.Fields splits on runs of space.",
			Text:      "CountWords counts **bytes**; I will split on whitespace instead.",
			ToolCalls: []llm.ToolCall{{ID: "t1", Name: "todo_write", Arguments: "{}"}}, Finish: llm.FinishToolCalls},
			session.ToolCall{Turn: 1, Step: 1, CallID: "t1", Name: "todo_write", Card: plan},
			session.ToolResult{Turn: 1, Step: 1, CallID: "t1", Name: "todo_write", Text: "Plan updated", Card: &plan},
			session.TodoWrite{Turn: 1, Todos: todos},
			session.StepEnd{Turn: 1, Step: 1, Timing: session.StepTiming{ModelWait: 500, Thinking: 4000, Response: 800}}),
		toolStep(l, 1, 2, "e1", "edit", "", diff, session.ToolResult{Text: "Edited wc.go", Card: &diff}),
		bashCall(l, 1, 3, "b1", "go build ./...", "", 0),
		bashCall(l, 1, 4, "b2", "go test ./...", "--- FAIL: TestCountWords (0.00s)\n    wc_test.go:12: got 11, want 2\nFAIL\nFAIL\texample.com/wc\t0.004s", 1),
		[]agent.Event{agent.PhaseChanged{Phase: agent.PhaseThinking}},
	)
}

// queueTwo types one steering message (Enter) and one follow-up (Tab)
// while the turn runs, and lets the agent's inbox report both.
func queueTwo(t *testing.T, f *Fake, tt *Term) {
	t.Helper()
	tt.Type("also handle tabs")
	tt.Key(vt.KeyEnter)
	tt.Type("then update the README")
	tt.Key(vt.KeyTab)
	waitCalls(t, f, "steer also handle tabs", "send then update the README")
	f.Push(agent.InboxChanged{Steering: []string{"also handle tabs"}, FollowUps: []string{"then update the README"}})
}

// TestRepresentativeSessionScreens pins the whole screen over one turn
// with reasoning, a plan, an edit, a passing and a failing command and a
// queue, at every screen size, in the dark and the light palette: first
// while the model works, then with an approval open over it.
func TestRepresentativeSessionScreens(t *testing.T) {
	for _, bg := range []struct {
		name string
		bg   theme.Background
	}{{"dark", theme.Dark}, {"light", theme.Light}} {
		for _, size := range screenSizes {
			name := bg.name + "_" + sizeName(size.w, size.h)
			t.Run(name, func(t *testing.T) {
				f := NewFake(header())
				tt := start(t, f, size.w, size.h, func(o *app.Options) { o.Background = bg.bg })
				var l log
				f.Push(events(running(), representativeTurn(&l))...)
				tt.WaitText(t, "Bash(go test ./...)")
				queueTwo(t, f, tt)
				tt.WaitText(t, "queued")
				tt.Golden(t, "session_"+name)
			})
			t.Run(name+"_approval", func(t *testing.T) {
				f := NewFake(header())
				o := options(f, size.w, size.h)
				o.Background = bg.bg
				tt := startWithBroker(t, f, o)
				var l log
				f.Push(events(running(), representativeTurn(&l))...)
				tt.WaitText(t, "Bash(go test ./...)")
				approveNow(t, f, tt, interact.Approval{CallID: "b3", Tool: "bash", Summary: "go get golang.org/x/text@latest",
					Remember: "go get", Why: "wants the network: proxy.golang.org", Card: &card.Card{Kind: card.Terminal,
						Description: "Fetch the text module", Terminal: &card.TerminalView{Command: "go get golang.org/x/text@latest", Cwd: "/workspace/project"}}})
				tt.WaitText(t, "Allow bash?", "Deny", "$ go get golang.org/x/text@latest")
				tt.Golden(t, "session_"+name+"_approval")
			})
		}
	}
}
