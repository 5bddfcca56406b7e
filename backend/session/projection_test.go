package session

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// project applies payloads as events with seqs from 0, one second apart.
func project(data ...Data) *Projection {
	p, _ := projectEvents(data...)
	return p
}

// projectEvents is project that also returns the events, a Source for
// what the projection refers to.
func projectEvents(data ...Data) (*Projection, Events) {
	p := NewProjection(testHeader("s1"))
	var events Events
	for i, d := range data {
		e := Event{Type: d.EventType(), Seq: int64(i), Time: at(i), Data: d}
		events = append(events, e)
		p.Apply(e)
	}
	return p, events
}

// surface is p's surface, which it holds whole.
func surface(t *testing.T, p *Projection) []llm.Message {
	t.Helper()
	s, err := p.Surface(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSurfaceIsTheModelViewInOrder(t *testing.T) {
	p := project(append(completedTurn(1, "a"),
		TurnStart{Turn: 2},
		UserMessage{Turn: 2, Kind: KindContext, Text: "notice", Origin: "tasks"},
		SteeringMessage{Turn: 2, Text: "steer"},
	)...)
	want := []llm.Message{
		{Role: llm.RoleUser, Content: "a"},
		{Role: llm.RoleAssistant, Reasoning: "look", ToolCalls: []llm.ToolCall{{ID: "a-c1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: llm.RoleTool, Content: "main.go", ToolCallID: "a-c1"},
		{Role: llm.RoleAssistant, Content: "done"},
		{Role: llm.RoleUser, Content: "notice"},
		{Role: llm.RoleUser, Content: "steer"},
	}
	if got := surface(t, p); !reflect.DeepEqual(got, want) {
		t.Errorf("want surface\n%#v\ngot\n%#v", want, got)
	}
}

// compacted is two turns whose first was compacted into a summary, then a
// third prompt. Seqs 0–10 are turn 1, 11–21 turn 2.
func compacted() []Data {
	data := append(completedTurn(1, "a"), completedTurn(2, "b")...)
	return append(data,
		CompactStart{Turn: 0},
		UserMessage{Kind: KindSummary, Text: "summary of a", Replace: &Span{Start: 0, End: 10}},
		CompactEnd{Items: 4, Tokens: 50},
		TurnStart{Turn: 3},
		UserMessage{Turn: 3, Kind: KindPrompt, Text: "c"},
	)
}

func TestCompactionReplacesTheSpanAtItsFirstEntry(t *testing.T) {
	p := project(compacted()...)
	var got []string
	for _, m := range surface(t, p) {
		got = append(got, string(m.Role)+":"+m.Content)
	}
	want := []string{"user:summary of a", "user:b", "assistant:", "tool:main.go", "assistant:done", "user:c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("want surface %v, got %v", want, got)
	}
}

func TestPrunedToolResultReplacesItInPlace(t *testing.T) {
	data := completedTurn(1, "a")
	data = append(data, ToolResult{CallID: "a-c1", Name: "bash", Text: "[pruned]", Replace: &Span{Start: 5, End: 5}})
	p := project(data...)
	s := surface(t, p)
	if len(s) != 4 || s[2].Content != "[pruned]" || s[2].ToolCallID != "a-c1" {
		t.Errorf("want the tool result replaced in place, got %#v", s)
	}
	// The replacement is not a message of its own.
	if got := p.Usage().Messages; got != 4 {
		t.Errorf("want the turn's 4 messages counted, got %d", got)
	}
}

func TestTranscriptKeepsAppendOriginEventsAndOneMarker(t *testing.T) {
	p, events := projectEvents(compacted()...)
	tr, err := p.Transcript(events)
	if err != nil {
		t.Fatal(err)
	}
	want := "turn/start user/message step/start assistant/message tool/call tool/result step/end " +
		"step/start assistant/message step/end turn/end"
	want = want + " " + want // turn 2 looks like turn 1
	want += " compaction/marker compact/end turn/start user/message"
	if got := types(tr); got != want {
		t.Errorf("want transcript\n%s\ngot\n%s", want, got)
	}
	marker := tr[len(tr)-4]
	if marker.Seq != 23 || !marker.Time.Equal(at(23)) {
		t.Errorf("want the marker at the replacement's seq 23 and time, got seq %d at %v", marker.Seq, marker.Time)
	}
	if _, ok := marker.Data.(CompactionMarker); !ok {
		t.Errorf("want CompactionMarker data, got %T", marker.Data)
	}
}

func TestTodosAreClearedAtTheNextTurn(t *testing.T) {
	todos := []card.TodoItem{{Content: "write tests", Status: "in_progress", ActiveForm: "Writing tests"}}
	p := project(TurnStart{Turn: 1}, TodoWrite{Turn: 1, Todos: todos})
	if got := p.Todos(); !reflect.DeepEqual(got, todos) {
		t.Errorf("want todos %v, got %v", todos, got)
	}
	p.Apply(Event{Type: "turn/start", Seq: 2, Time: at(2), Data: TurnStart{Turn: 2}})
	if got := p.Todos(); got != nil {
		t.Errorf("want no todos after the next turn/start, got %v", got)
	}
}

func TestUsageTotalsSumAssistantMessages(t *testing.T) {
	p := project(append(completedTurn(1, "a"), completedTurn(2, "b")...)...)
	want := Totals{
		Sum:   llm.Usage{Input: 240, CacheRead: 200, Output: 30},
		Last:  llm.Usage{Input: 20, CacheRead: 100, Output: 5},
		Turns: 2, Steps: 4, ToolCalls: 2, Messages: 8,
	}
	if got := p.Usage(); got != want {
		t.Errorf("want %+v, got %+v", want, got)
	}
	if p.Turn() != 2 || p.Steps() != 4 {
		t.Errorf("want turn 2 and 4 steps, got %d and %d", p.Turn(), p.Steps())
	}
}

func TestContextTokens(t *testing.T) {
	base := completedTurn(1, "a")
	tests := []struct {
		name string
		data []Data
		want int
	}{
		{"nothing after the last response", base, 125},
		{"a prompt appended since", append(base[:len(base):len(base)],
			UserMessage{Kind: KindPrompt, Text: strings.Repeat("x", 400)}), 225},
		{"no response yet", []Data{UserMessage{Kind: KindPrompt, Text: strings.Repeat("x", 80)}}, 20},
		{"after a replacement", append(base[:len(base):len(base)],
			UserMessage{Kind: KindSummary, Text: strings.Repeat("s", 40), Replace: &Span{Start: 0, End: 10}}), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := project(tt.data...).ContextTokens(); got != tt.want {
				t.Errorf("want %d tokens, got %d", tt.want, got)
			}
		})
	}
}

func TestTitleComesFromTitleEventElseFirstPrompt(t *testing.T) {
	long := "  \n  Refactor   the session store so that listing never reads whole files again\nsecond line"
	p := project(TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: long})
	want := "Refactor the session store so that listing never…"
	if got := p.Title(); got != want {
		t.Errorf("want fallback title %q, got %q", want, got)
	}
	p.Apply(Event{Type: "session/title", Seq: 2, Data: Title{Title: "Faster listing", Source: "model"}})
	if got := p.Title(); got != "Faster listing" {
		t.Errorf("want the title event's title, got %q", got)
	}
}

// The session's name is the model's title, as Claude Code's session_name
// is its AI-generated title: none before it, not the first prompt's.
func TestNameIsTheModelsTitle(t *testing.T) {
	p := project(TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "fix the parser"}, Title{Title: "fix the parser", Source: "prompt"})
	if got := p.Name(); got != "" {
		t.Errorf("before the model's title, name %q, want none", got)
	}
	p.Apply(Event{Type: "session/title", Seq: 3, Data: Title{Title: "Parser fix", Source: "model"}})
	if got := p.Name(); got != "Parser fix" {
		t.Errorf("name %q, want the model's title", got)
	}
}

func TestModesModelAndPromptsFollowTheLatestEvents(t *testing.T) {
	p := project(
		TurnStart{Turn: 1},
		UserMessage{Turn: 1, Kind: KindPrompt, Text: "one"},
		UserMessage{Turn: 1, Kind: KindContext, Text: "ctx"},
		SteeringMessage{Turn: 1, Text: "two"},
		PermissionMode{Mode: "read-only"},
		PlanMode{Active: true},
		StepStart{Turn: 1, Step: 1, Model: "deepseek-v4-pro", Effort: llm.EffortMax},
		ModelSelect{Model: "deepseek-v4-flash", Effort: llm.EffortOff},
	)
	if m, e := p.Model(); m != "deepseek-v4-flash" || e != llm.EffortOff {
		t.Errorf("want deepseek-v4-flash/off, got %s/%s", m, e)
	}
	if got := p.Prompts(); !reflect.DeepEqual(got, []string{"one", "two"}) {
		t.Errorf("want prompts [one two], got %v", got)
	}
	if p.PermissionMode() != "read-only" || !p.PlanMode() {
		t.Errorf("want read-only and plan mode on, got %q and %v", p.PermissionMode(), p.PlanMode())
	}
	if !p.Created().Equal(t0) || !p.LastActive().Equal(at(7)) {
		t.Errorf("want created %v last active %v, got %v %v", t0, at(7), p.Created(), p.LastActive())
	}
	if m, _ := NewProjection(testHeader("s1")).Model(); m != "deepseek-v4-flash" {
		t.Errorf("want the header's model before any step, got %s", m)
	}
}

func TestSecondCompactionReplacesTheFirstSummary(t *testing.T) {
	data := append(compacted(), UserMessage{Kind: KindSummary, Text: "summary of a and b", Replace: &Span{Start: 0, End: 21}})
	p := project(data...)
	var got []string
	for _, m := range surface(t, p) {
		got = append(got, m.Content)
	}
	if want := []string{"summary of a and b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("want surface %v, got %v", want, got)
	}
	if seqs := p.SurfaceSeqs(); !reflect.DeepEqual(seqs, []int64{0, 26}) {
		t.Errorf("want surface seqs [0 26], got %v", seqs)
	}
}

// The last request's usage tells the context's size until a replacement
// rewrites history, and again from the next response: Claude Code's
// status line has current_usage null after /compact until then.
func TestLastRequestIsNoneAfterAReplacement(t *testing.T) {
	base := completedTurn(1, "a")
	summary := UserMessage{Kind: KindSummary, Text: "s", Replace: &Span{Start: 0, End: 10}}
	next := AssistantMessage{Turn: 2, Step: 1, Text: "b", Usage: llm.Usage{Input: 30, Output: 2}}
	for _, tt := range []struct {
		name string
		data []Data
		want llm.Usage
		ok   bool
	}{
		{"no response yet", []Data{UserMessage{Kind: KindPrompt, Text: "x"}}, llm.Usage{}, false},
		{"after a response", base, llm.Usage{Input: 20, CacheRead: 100, Output: 5}, true},
		{"after a compaction", append(slices.Clip(base), summary), llm.Usage{}, false},
		{"after the next response", append(slices.Clip(base), summary, next), next.Usage, true},
	} {
		if got, ok := project(tt.data...).LastRequest(); got != tt.want || ok != tt.ok {
			t.Errorf("%s: last request %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
