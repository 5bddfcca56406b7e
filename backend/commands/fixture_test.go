package commands

import (
	"errors"
	"slices"
	"time"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// fakeSession is a fakeAgent with a session log, a model and tools.
type fakeSession struct {
	*fakeAgent
	header session.Header
	model  string
	effort llm.Effort
	tools  []string
}

func (f *fakeSession) Header() session.Header  { return f.header }
func (f *fakeSession) Events() []session.Event { return f.logged() }

func (f *fakeSession) Scan(from int64, types []string, visit func(session.Event) bool) error {
	for _, e := range f.logged() {
		if e.Seq >= from && slices.Contains(types, e.Type) && !visit(e) {
			break
		}
	}
	return nil
}

func (f *fakeSession) Projection() *session.Projection {
	p := session.NewProjection(f.header)
	for _, e := range f.logged() {
		p.Apply(e)
	}
	return p
}
func (f *fakeSession) Model() (string, llm.Effort) { return f.model, f.effort }
func (f *fakeSession) ToolNames() []string         { return f.tools }

func (f *fakeSession) SetModel(model string, effort llm.Effort) error {
	if model == "" {
		return errors.New("empty model")
	}
	f.model, f.effort = model, effort
	_, err := f.Record(session.ModelSelect{Model: model, Effort: effort})
	return err
}

func (f *fakeSession) Rename(name string) error {
	_, err := f.Record(session.Title{Title: name, Source: session.TitleUser})
	return err
}

// testModels is a fixed catalog, so goldens do not follow price changes.
type testModels []llm.Model

func (m testModels) Models() []llm.Model { return m }

var catalog = testModels{
	{ID: "deepseek-flash", Provider: "deepseek", Name: "DeepSeek V4.1 Flash", ContextWindow: 1_000_000,
		Price: llm.Price{CacheHit: 0.006, CacheMiss: 0.30, Output: 1.20}, Efforts: llm.Efforts, DefaultEffort: llm.EffortHigh,
		OffPeak: &llm.OffPeak{Zone: time.FixedZone("UTC+8", 8*3600), Peak: [][2]int{{9, 12}, {14, 18}}, Factor: 0.5}},
	{ID: "deepseek-v4-pro", Provider: "deepseek", Name: "DeepSeek V4 Pro", ContextWindow: 128_000,
		Price: llm.Price{CacheHit: 0.044, CacheMiss: 1.32, Output: 3.96}, Efforts: llm.Efforts, DefaultEffort: llm.EffortHigh},
	{ID: "qwen3-coder", Provider: "local", Name: "Qwen3 Coder", ContextWindow: 32_768,
		Efforts: []llm.Effort{llm.EffortOff}, DefaultEffort: llm.EffortOff},
}

var created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// newSession is a two-turn session with known usage: reasoning, a tool
// call, a title, steering, a compaction and a cancelled turn.
func newSession() *fakeSession {
	f := &fakeSession{
		fakeAgent: newFakeAgent("s-0001"),
		header:    session.Header{Version: 1, ID: "s-0001", Created: created, Cwd: "/home/ada/project", Model: "deepseek-v4-pro"},
		model:     "deepseek-v4-pro", effort: llm.EffortHigh,
		tools: []string{"bash", "edit", "read"},
	}
	for _, d := range sessionData() {
		_, _ = f.Record(d)
	}
	return f
}

func sessionData() []session.Data {
	return []session.Data{
		session.TurnStart{Turn: 1},
		session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "How many lines does main.go have?"},
		session.StepStart{Turn: 1, Step: 1, Model: "deepseek-v4-pro", Effort: llm.EffortHigh},
		session.AssistantMessage{Turn: 1, Step: 1, Reasoning: "I should count them with wc.",
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"wc -l main.go"}`}},
			Usage:     llm.Usage{Input: 10000, CacheRead: 1000, Output: 140, Reasoning: 100}, Finish: llm.FinishToolCalls},
		session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Arguments: `{"command":"wc -l main.go"}`},
		session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Text: "42 main.go\n```\n[exit code: 0]"},
		session.StepEnd{Turn: 1, Step: 1},
		session.StepStart{Turn: 1, Step: 2, Model: "deepseek-v4-pro", Effort: llm.EffortHigh},
		session.AssistantMessage{Turn: 1, Step: 2, Text: "main.go has **42** lines.",
			Usage: llm.Usage{Input: 150, CacheRead: 1500, Output: 120, Reasoning: 20}, Finish: llm.FinishStop},
		session.StepEnd{Turn: 1, Step: 2},
		session.TurnEnd{Turn: 1, Reason: session.StopCompleted},
		session.Title{Title: "Counting lines", Source: "model"},
		session.TurnStart{Turn: 2},
		session.UserMessage{Turn: 2, Kind: session.KindPrompt, Text: "Explain this:\n```go\nfunc main() {}"},
		session.UserMessage{Turn: 2, Kind: session.KindSummary, Text: "<compacted-summary>lines</compacted-summary>",
			Replace: &session.Span{Start: 2, End: 9}},
		session.StepStart{Turn: 2, Step: 1, Model: "deepseek-v4-pro", Effort: llm.EffortHigh},
		session.SteeringMessage{Turn: 2, Text: "Keep it short."},
		session.AssistantMessage{Turn: 2, Step: 1, Reasoning: "The user wants a short answer.", Text: "It is an empty `main`.",
			Usage: llm.Usage{Input: 2000, CacheRead: 40000, Output: 80}, Finish: llm.FinishStop},
		session.StepEnd{Turn: 2, Step: 1},
		session.TurnEnd{Turn: 2, Reason: session.StopAborted},
	}
}
