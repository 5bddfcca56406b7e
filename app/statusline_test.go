package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// statusBackend answers the status line with answer, to run again after
// every, and keeps the inputs it was run with.
type statusBackend struct {
	countingBackend
	inputs []hooks.StatusInput
	answer func(n int) ([]string, error)
	every  time.Duration
}

func (b *statusBackend) StatusLine(_ context.Context, in hooks.StatusInput) (hooks.StatusRun, error) {
	b.inputs = append(b.inputs, in)
	rows, err := b.answer(len(b.inputs))
	return hooks.StatusRun{Rows: rows, Every: b.every}, err
}

// statusModel is a subscribed model over be on a clock the test moves.
func statusModel(be *statusBackend, now *time.Time) *Model {
	spec, _ := llm.NewCatalog().Lookup(llm.DefaultModel)
	m := New(Options{Backend: be, Width: 80, Height: 20, Colour: true, Now: func() time.Time { return *now }})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, model: modelInfo{id: spec.ID, effort: llm.EffortHigh, spec: spec, known: true}})
	return m
}

// runStatus runs the status line command cmd holds, if any, and gives
// the model its outcome; it reports whether it ran one.
func runStatus(m *Model, cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	ran := false
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			ran = runStatus(m, c) || ran
		}
	case statusLineMsg:
		_, next := m.Update(msg)
		return runStatus(m, next) || true
	}
	return ran
}

// The command's rows show above the status row once the start has
// settled (not before: it would compete with the first frame), with the
// figures of the status row on its stdin.
func TestStatusLineRowsShowAboveTheStatusRow(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	be := &statusBackend{answer: func(int) ([]string, error) { return []string{"\x1b[36mmine\x1b[0m one", "two"}, nil }}
	m := statusModel(be, &now)
	_, cmd := m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(1, session.TurnStart{Turn: 1})}})
	runStatus(m, cmd)
	if len(be.inputs) != 0 {
		t.Fatal("the status line ran before the start settled")
	}
	now = now.Add(90 * time.Second)
	_, cmd = m.Update(settledMsg{})
	if !runStatus(m, cmd) {
		t.Fatal("want the status line run once the start settled")
	}
	rows := strings.Split(ansi.Strip(screen(m)), "\n")
	at := -1
	for i, r := range rows {
		if strings.HasPrefix(r, "mine one") {
			at = i
		}
	}
	if at < 0 || rows[at+1] != "two" || !strings.Contains(rows[at+2], llm.DefaultModel) {
		t.Errorf("want the two rows right above the status row, got:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.Contains(screen(m), "\x1b[36mmine") {
		t.Errorf("want the row's colour kept, got %q", screen(m))
	}
	in := be.inputs[0]
	if in.Model.ID != llm.DefaultModel || in.Model.DisplayName == "" || in.Cost.DurationMS != 90_000 || in.ContextWindow.Size == 0 ||
		in.Columns != 80 || in.Lines != 20 || in.Effort == nil || in.Effort.Level != "high" {
		t.Errorf("input %+v", in)
	}
	if in.ContextWindow.UsedPct != nil || in.ContextWindow.CurrentUsage != nil {
		t.Errorf("before any answer, want no percentage nor current usage, got %+v", in.ContextWindow)
	}
}

// What changes the figures runs the command again, at most every 300ms
// and one run at a time; the input carries what changed (an edit that
// failed changed no lines).
func TestStatusLineRunsAfterChangesAtMostEvery300ms(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	be := &statusBackend{answer: func(n int) ([]string, error) { return []string{"run " + string(rune('0'+n))}, nil }}
	m := statusModel(be, &now)
	_, cmd := m.Update(settledMsg{})
	runStatus(m, cmd)
	edit := card.Card{Kind: card.Diff, Diffs: []card.FileDiff{{Path: "a.go", Added: 3, Removed: 1}}}
	_, cmd = m.Update(eventsMsg{model: m.model, events: []agent.Event{
		logged(0, session.AssistantMessage{Turn: 1, Step: 1, Usage: llm.Usage{Input: 7000, Output: 80}}),
		logged(1, session.AssistantMessage{Turn: 1, Step: 1, Usage: llm.Usage{Input: 1000, CacheRead: 9000, Output: 500}}),
		logged(2, session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Text: "ok", Card: &edit}),
		logged(3, session.ToolResult{Turn: 1, Step: 1, CallID: "c2", Text: "Error: not applied", IsError: true, Card: &edit}),
		logged(4, session.StepEnd{Turn: 1, Step: 1, Timing: session.StepTiming{ModelWait: 400, Thinking: 1000, Response: 600, Tools: 5000}}),
	}})
	if runStatus(m, cmd) || !m.statusLine.waiting {
		t.Fatal("want the run held until 300ms after the last")
	}
	now = now.Add(300 * time.Millisecond)
	_, cmd = m.Update(statusLineDueMsg{})
	if !runStatus(m, cmd) || len(be.inputs) != 2 {
		t.Fatalf("want the held run made once due, got %d runs", len(be.inputs))
	}
	in := be.inputs[1]
	if in.Cost.LinesAdded != 3 || in.Cost.LinesRemoved != 1 || in.Cost.APIMS != 2000 || in.Cost.TotalUSD <= 0 {
		t.Errorf("cost %+v", in.Cost)
	}
	// The totals are the last request's, as Claude Code's since 2.1.132,
	// and the percentages whole: 10,500 tokens of the default model's
	// window.
	cw := in.ContextWindow
	if cw.TotalInput != 10000 || cw.TotalOutput != 500 || cw.CurrentUsage == nil || *cw.CurrentUsage != (hooks.StatusTokens{Input: 1000, Output: 500, CacheRead: 9000}) {
		t.Errorf("context window %+v (current %+v), want the last request's tokens", cw, cw.CurrentUsage)
	}
	used := int(math.Round(10500 * 100 / float64(cw.Size)))
	b, _ := json.Marshal(cw)
	if want := fmt.Sprintf(`"used_percentage":%d,"remaining_percentage":%d,`, used, 100-used); !strings.Contains(string(b), want) {
		t.Errorf("context window %s, want %s", b, want)
	}
	if !strings.Contains(screen(m), "run 2") {
		t.Errorf("want the second run's row, got:\n%s", ansi.Strip(screen(m)))
	}
	// A change while a run is out waits for it, then runs.
	now = now.Add(time.Second)
	_, out := m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(5, session.TurnEnd{Turn: 1})}})
	_, again := m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(6, session.TurnStart{Turn: 2})}})
	if runStatus(m, again) {
		t.Fatal("want one run at a time")
	}
	now = now.Add(time.Second)
	runStatus(m, out)
	if len(be.inputs) != 4 {
		t.Errorf("want the change made during a run to run it again after, got %d runs", len(be.inputs))
	}
}

// Without a status line the command is never asked for again; a failing
// one shows no rows and says why once.
func TestStatusLineOffOrFailing(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	be := &statusBackend{answer: func(int) ([]string, error) { return nil, launch.ErrNoStatusLine }}
	m := statusModel(be, &now)
	_, cmd := m.Update(settledMsg{})
	runStatus(m, cmd)
	now = now.Add(time.Second)
	_, cmd = m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(1, session.TurnStart{Turn: 1})}})
	if runStatus(m, cmd) || len(be.inputs) != 1 {
		t.Errorf("want no run once none is set, got %d", len(be.inputs))
	}

	be = &statusBackend{answer: func(n int) ([]string, error) {
		if n == 3 {
			return []string{"fixed"}, nil
		}
		return nil, errors.New("statusLine of ~/.claude/settings.json exited with status 127")
	}}
	m = statusModel(be, &now)
	for i := range 3 {
		now = now.Add(time.Second)
		var cmd tea.Cmd
		if i == 0 {
			_, cmd = m.Update(settledMsg{})
		} else {
			_, cmd = m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(int64(i), session.TurnStart{Turn: i})}})
		}
		runStatus(m, cmd)
		if i == 1 && strings.Count(ansi.Strip(screen(m)), "exited with status 127") != 1 {
			t.Errorf("want the failure told once, got:\n%s", ansi.Strip(screen(m)))
		}
	}
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "fixed") {
		t.Errorf("want the fixed command's row, got:\n%s", s)
	}
}

// With a refresh interval the command runs again once it has passed, with
// no change; one timer at a time.
func TestStatusLineRefreshInterval(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	be := &statusBackend{answer: func(n int) ([]string, error) { return []string{fmt.Sprint("run ", n)}, nil }, every: time.Millisecond}
	m := statusModel(be, &now)
	_, cmd := m.Update(settledMsg{})
	runStatus(m, cmd)
	if !m.statusLine.ticking {
		t.Fatal("want a timer for the refresh interval")
	}
	now = now.Add(time.Second)
	_, cmd = m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(1, session.TurnStart{Turn: 1})}})
	runStatus(m, cmd)
	now = now.Add(time.Second)
	_, cmd = m.Update(statusLineTickMsg{})
	if !runStatus(m, cmd) || len(be.inputs) != 3 || !strings.Contains(screen(m), "run 3") {
		t.Errorf("want a run once the interval passed, got %d runs:\n%s", len(be.inputs), ansi.Strip(screen(m)))
	}
	if !m.statusLine.ticking {
		t.Error("want the timer set again after the run")
	}
}

// After a compaction the last request's tokens no longer tell the
// context's size: until the model answers again the input has them null
// and the totals 0, as Claude Code's after /compact, and ccusage
// statusline, which shows total_input_tokens as the context, shows no
// longer the old, larger one.
func TestStatusLineForgetsTheLastRequestAfterACompaction(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	m := statusModel(&statusBackend{}, &now)
	m.Update(eventsMsg{model: m.model, events: []agent.Event{
		logged(0, session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "go"}),
		logged(1, session.AssistantMessage{Turn: 1, Step: 1, Text: "done", Usage: llm.Usage{Input: 1000, CacheRead: 90000, Output: 500}}),
		logged(2, session.UserMessage{Turn: 2, Kind: session.KindSummary, Text: "summary", Replace: &session.Span{Start: 0, End: 1}}),
	}})
	in := m.statusInput(now)
	if cw := in.ContextWindow; cw.TotalInput != 0 || cw.TotalOutput != 0 || cw.CurrentUsage != nil || cw.UsedPct != nil || in.Exceeds200K {
		t.Errorf("after a compaction, context window %+v (current %+v), want no tokens", cw, cw.CurrentUsage)
	}
	m.Update(eventsMsg{model: m.model, events: []agent.Event{
		logged(3, session.AssistantMessage{Turn: 2, Step: 1, Text: "on", Usage: llm.Usage{Input: 3000, Output: 20}}),
	}})
	if cw := m.statusInput(now).ContextWindow; cw.TotalInput != 3000 || cw.CurrentUsage == nil {
		t.Errorf("after the next answer, context window %+v, want its tokens", cw)
	}
	ccusage := testkit.ClaudeTool(t, "ccusage")
	run, err := hooks.StatusLine{Command: ccusage + " statusline --offline --no-cache"}.Run(context.Background(), t.TempDir(),
		append(os.Environ(), "HOME="+t.TempDir(), "NO_COLOR=1"), in)
	if line := strings.Join(run.Rows, "\n"); err != nil || strings.Contains(line, "91,000") || !strings.Contains(line, "🧠 0") {
		t.Errorf("ccusage statusline printed %q (%v), want no context before the next answer", line, err)
	}
}

// The session's name reaches a status line as Claude Code's session_name
// once the model has titled the session, not before (a title made from
// the first prompt is no name).
func TestStatusLineNamesTheSessionByTheModelsTitle(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	m := statusModel(&statusBackend{}, &now)
	m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(0, session.Title{Title: "fix the parser", Source: "prompt"})}})
	if name := m.statusInput(now).SessionName; name != "" {
		t.Errorf("before the model's title, session_name %q, want none", name)
	}
	m.Update(eventsMsg{model: m.model, events: []agent.Event{logged(1, session.Title{Title: "Parser fix", Source: "model"})}})
	if name := m.statusInput(now).SessionName; name != "Parser fix" {
		t.Errorf("session_name %q, want the model's title", name)
	}
}
