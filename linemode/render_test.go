package linemode

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

func logged(d session.Data) agent.Event {
	return agent.Logged{Event: session.Event{Type: d.EventType(), Data: d}}
}

func text(s string) agent.Event {
	return agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: s}}
}

func reasoning(s string) agent.Event {
	return agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkReasoning, Text: s}}
}

func render(color bool, evs ...agent.Event) string {
	var b bytes.Buffer
	r := NewRenderer(&b, color, "main")
	for _, e := range evs {
		r.Event(e)
	}
	return b.String()
}

func TestRendererWritesTheLineModeGrammar(t *testing.T) {
	exit1 := 1
	tests := []struct {
		name  string
		color bool
		evs   []agent.Event
		want  string
	}{
		{"a plain turn", false, []agent.Event{
			logged(session.TurnStart{Turn: 1}), text("Hel"), text("lo!"),
			logged(session.TurnEnd{Turn: 1, Reason: session.StopCompleted}),
		}, "\n[main turn 1] Hello!\n> "},
		{"reasoning is dimmed when colour is on", true, []agent.Event{
			logged(session.TurnStart{Turn: 2}), reasoning("think"), reasoning("ing"), text("Done."),
			logged(session.TurnEnd{Turn: 2, Reason: session.StopCompleted}),
		}, "\n[main turn 2] \x1b[2mthinking\x1b[0m\nDone.\n> "},
		{"reasoning is framed when colour is off", false, []agent.Event{
			logged(session.TurnStart{Turn: 2}), reasoning("think"), reasoning("ing"), text("Done."),
		}, "\n[main turn 2] \n[reasoning]\nthinking\n\nDone."},
		{"reasoning that ends in a line break gets one blank line", false, []agent.Event{
			reasoning("think\n"), text("Done."),
		}, "\n[reasoning]\nthink\n\nDone."},
		{"tool call and result", false, []agent.Event{
			logged(session.ToolCall{CallID: "c1", Name: "read", Arguments: `{"path":"a.txt"}`}),
			logged(session.ToolResult{CallID: "c1", Name: "read", Text: "1\thello"}),
		}, "\n  [tool call] read({\"path\":\"a.txt\"})\n  [tool result] 1   hello\n  "},
		{"the result the model read, continuation lines indented", false, []agent.Event{
			logged(session.ToolResult{CallID: "c1", Name: "bash", Text: "no\n[exit code: 1]",
				Card: &card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: "false", Output: "other", ExitCode: &exit1}}}),
		}, "\n  [tool result] no\n    [exit code: 1]\n  "},
		{"long arguments as the title and one line per field", false, []agent.Event{
			logged(session.ToolCall{CallID: "c1", Name: "write",
				Arguments: `{"file_path":"main.go","content":"` + strings.Repeat("x", 200) + `\nend"}`,
				Card:      card.Card{Kind: card.Diff, Title: "Write main.go"}}),
		}, "\n  [tool call] write: Write main.go\n      file_path: main.go\n      content: 2 lines, 204 bytes"},
		{"a multi-line command shows once, as the title", false, []agent.Event{
			logged(session.ToolCall{CallID: "c1", Name: "bash",
				Arguments: `{"command":"make test","description":"Run the tests","timeout":600000,"note":"` + strings.Repeat("n", 130) + `"}`,
				Card:      card.Card{Kind: card.Terminal, Title: "make test"}}),
		}, "\n  [tool call] bash: make test\n      description: Run the tests\n      timeout: 600000\n      note: 130 bytes"},
		{"a replacement result is not rendered twice", false, []agent.Event{
			logged(session.ToolResult{CallID: "c1", Name: "bash", Text: "short", Replace: &session.Span{Start: 3, End: 3}}),
		}, ""},
		{"todos", false, []agent.Event{
			logged(session.TodoWrite{Todos: []card.TodoItem{
				{Content: "plan", Status: card.TodoCompleted},
				{Content: "build", Status: card.TodoInProgress},
				{Content: "ship", Status: card.TodoPending},
			}}),
		}, "\n  [todos]\n    [x] plan\n    [~] build\n    [ ] ship\n  "},
		{"retry notice", false, []agent.Event{
			logged(session.Retry{Attempt: 1, Max: 5, DelayMs: 500, Failure: session.Failure{Message: "server error"}}),
		}, "\nRetrying model request (1/5) in 500ms: server error\n"},
		{"consecutive retry notices have no blank line between them", false, []agent.Event{
			logged(session.Retry{Attempt: 1, Max: 5, DelayMs: 500, Failure: session.Failure{Message: "server error"}}),
			logged(session.Retry{Attempt: 2, Max: 5, DelayMs: 1000, Failure: session.Failure{Message: "server error"}}),
		}, "\nRetrying model request (1/5) in 500ms: server error\nRetrying model request (2/5) in 1.0s: server error\n"},
		{"cancelled turn", false, []agent.Event{
			logged(session.TurnEnd{Turn: 1, Reason: session.StopAborted}),
		}, "\nTurn cancelled.\n> "},
		{"output-token limit", false, []agent.Event{
			logged(session.TurnEnd{Turn: 1, Reason: session.StopMaxTokens}),
		}, "\nThe model reached its output-token limit.\n> "},
		{"failed turn", false, []agent.Event{
			logged(session.TurnEnd{Turn: 1, Reason: session.StopError, Error: &session.Failure{Message: "Authentication Fails"}}),
		}, "\nAuthentication Fails\n> "},
		{"status and inbox changes draw nothing", false, []agent.Event{
			agent.StatusChanged{Status: agent.StatusRunning}, agent.InboxChanged{}, agent.PhaseChanged{Phase: agent.PhaseTools},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := render(tt.color, tt.evs...); got != tt.want {
				t.Errorf("want %q, got %q", tt.want, got)
			}
		})
	}
}

func TestRendererEscapesControlSequencesFromOutsideSources(t *testing.T) {
	got := render(true,
		text("title \x1b]2;pwned\x07 done"),
		logged(session.ToolCall{CallID: "c1", Name: "bash", Arguments: "{\"command\":\"x\x1b[31m\"}"}),
		logged(session.ToolResult{CallID: "c1", Name: "bash", Text: "out \x1b]2;pwned\x07"}),
		logged(session.TodoWrite{Todos: []card.TodoItem{{Content: "a\x1bb", Status: card.TodoPending}}}),
	)
	if strings.Contains(got, "\x1b") || strings.Contains(got, "\x07") {
		t.Fatalf("want no raw ESC or BEL in the output, got %q", got)
	}
	if n := strings.Count(got, `\x1b]2;pwned\x07`); n != 2 {
		t.Errorf("want the OSC title sequence shown escaped twice, got %d times in %q", n, got)
	}
}

func TestRendererJoinsCRLFSplitAcrossDeltas(t *testing.T) {
	if got := render(false, text("a\r"), text("\nb")); got != "a\nb" {
		t.Errorf("want %q, got %q", "a\nb", got)
	}
}

func TestRendererResetsReasoningBeforeAToolCall(t *testing.T) {
	got := render(true, reasoning("hmm"), logged(session.ToolCall{CallID: "c", Name: "ls", Arguments: "{}"}))
	want := "\x1b[2mhmm\x1b[0m\n  [tool call] ls({})"
	if got != want {
		t.Errorf("want %q, got %q", want, got)
	}
}

func TestRendererCountsOpenToolCalls(t *testing.T) {
	var b bytes.Buffer
	r := NewRenderer(&b, false, "main")
	r.Event(logged(session.ToolCall{CallID: "c1", Name: "ask_user_question"}))
	if r.OpenCalls() != 1 {
		t.Fatalf("want 1 open call after a tool call, got %d", r.OpenCalls())
	}
	r.Event(logged(session.ToolResult{CallID: "c1", Name: "ask_user_question"}))
	if r.OpenCalls() != 0 {
		t.Errorf("want no open call after its result, got %d", r.OpenCalls())
	}
}

func TestBannerEndsInThePrompt(t *testing.T) {
	var b bytes.Buffer
	NewRenderer(&b, false, "main").Banner("ready.")
	if b.String() != "ready.\n> " {
		t.Errorf("want %q, got %q", "ready.\n> ", b.String())
	}
}

func TestResumedSessionSaysWhatItHolds(t *testing.T) {
	at := func(d session.Data) session.Event { return session.Event{Data: d} }
	cases := []struct {
		name    string
		history []session.Event
		want    string
	}{
		{"new", nil, ""},
		{"no turns", []session.Event{at(session.CommandDone{ID: "1"})}, "Resumed session s1."},
		{"two turns", []session.Event{at(session.TurnStart{Turn: 1}), at(session.TurnEnd{Turn: 1, Reason: session.StopCompleted}),
			at(session.TurnStart{Turn: 2}), at(session.TurnEnd{Turn: 2, Reason: session.StopCompleted})},
			"Resumed session s1: 2 earlier turn(s); /export writes them to a file."},
		{"crashed", []session.Event{at(session.TurnStart{Turn: 1}), at(session.TurnEnd{Turn: 1, Reason: session.StopInterrupted})},
			"Resumed session s1: 1 earlier turn(s); /export writes them to a file. Its last turn was interrupted when the previous process ended: check the side effects of tools that were running."},
	}
	for _, c := range cases {
		p := session.NewProjection(session.Header{ID: "s1"})
		for _, e := range c.history {
			p.Apply(e)
		}
		if got := resumedText("s1", agent.Snapshot{Projection: p, Recent: c.history}); got != c.want {
			t.Errorf("%s: want %q, got %q", c.name, c.want, got)
		}
	}
}
