package app

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// benchBlocks is the transcript size the budgets are set for.
const benchBlocks = 10_000

// blocks is benchBlocks, or a tenth of it under -short, the CI smoke,
// which runs each benchmark once to see it still works.
func blocks() int {
	if testing.Short() {
		return benchBlocks / 10
	}
	return benchBlocks
}

// history makes a session whose transcript has at least n blocks (a turn
// is about four since the transcript heads a turn once): per turn a
// prompt, an assistant step with reasoning and Markdown, a bash card with
// output, a timing footer and a final answer.
func history(n int) []session.Event {
	var out []session.Event
	seq := int64(0)
	add := func(d session.Data) {
		seq++
		out = append(out, session.Event{Type: d.EventType(), Seq: seq, Data: d})
	}
	code := 0
	for turn := 1; len(out) < n*3; turn++ {
		id := fmt.Sprintf("call_%d", turn)
		term := card.Card{Kind: card.Terminal, Description: "Run the tests", Terminal: &card.TerminalView{Command: "go test ./...", Cwd: "/w"}}
		res := term
		res.Terminal = &card.TerminalView{Command: "go test ./...", Cwd: "/w", Output: "ok  a\nok  b\nok  c\nok  d\nok  e\nok  f\nok  g\nok  h\nok  i\nok  j", ExitCode: &code}
		add(session.TurnStart{Turn: turn})
		add(session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: fmt.Sprintf("Fix test %d in the parser package", turn)})
		add(session.StepStart{Turn: turn, Step: 1})
		add(session.AssistantMessage{Turn: turn, Step: 1, Reasoning: "The test fails because the **lexer** drops the last token.",
			Text: "I will run the tests first:\n\n- check `lexer.go`\n- then `parser.go`", ToolCalls: []llm.ToolCall{{ID: id, Name: "bash"}}, Usage: llm.Usage{Input: 100, Output: 20}})
		add(session.ToolCall{Turn: turn, Step: 1, CallID: id, Name: "bash", Card: term})
		add(session.ToolResult{Turn: turn, Step: 1, CallID: id, Name: "bash", Text: "ok", Card: &res})
		add(session.StepEnd{Turn: turn, Step: 1, Timing: session.StepTiming{ModelWait: 300, Thinking: 800, Response: 400, Tools: 1200}})
		add(session.StepStart{Turn: turn, Step: 2})
		add(session.AssistantMessage{Turn: turn, Step: 2, Text: "## Fixed\n\nThe lexer now keeps the last token:\n\n```go\nreturn append(toks, tok)\n```"})
		add(session.StepEnd{Turn: turn, Step: 2, Timing: session.StepTiming{ModelWait: 200, Response: 300}})
		add(session.TurnEnd{Turn: turn, Reason: session.StopCompleted})
	}
	return out
}

// snapshotOf is the snapshot a backend gives of a session made of events.
func snapshotOf(events []session.Event) agent.Snapshot {
	p := session.NewProjection(session.Header{ID: "s-1"})
	for _, e := range events {
		p.Apply(e)
	}
	snap := agent.Snapshot{Projection: p}
	snap.Recent, snap.Earlier, snap.Err = p.History(session.Events(events), 1<<62, p.TranscriptLen())
	return snap
}

// bigModel is a chat model showing a transcript of blocks() blocks.
func bigModel(b *testing.B) *Model {
	b.Helper()
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 120, Height: 40, Colour: true, Cwd: "/w", Home: "/home/u", Branch: "main"})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, history: snapshotOf(history(blocks()))})
	if n := m.tr.Blocks(); n < blocks() {
		b.Fatalf("want at least %d blocks, got %d", blocks(), n)
	}
	wantOnScreen(b, m, "The lexer now keeps the last token")
	return m
}

// wantOnScreen fails b unless the frame m draws shows text.
func wantOnScreen(b *testing.B, m *Model, text string) {
	b.Helper()
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, text) {
		b.Fatalf("want %q on the screen, got\n%s", text, v)
	}
}

// measure runs frame b.N times and reports the median and worst frame.
func measure(b *testing.B, frame func(i int)) {
	b.Helper()
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		frame(i)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "ms-worst")
}

// BenchmarkKeystroke is a key typed into the editor to the rendered frame,
// over a 10,000-block transcript.
func BenchmarkKeystroke(b *testing.B) {
	m := bigModel(b)
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	measure(b, func(i int) {
		m.Update(keys[i%2])
		m.View()
	})
	if m.editor.Value() != []string{"a", ""}[(b.N-1)%2] {
		b.Fatalf("want the editor to hold what was typed, got %q", m.editor.Value())
	}
}

// BenchmarkTyping is a key typed into a one-line prompt to the rendered
// frame, over a 10,000-block transcript: prompts of up to 60 characters,
// typed one key at a time.
func BenchmarkTyping(b *testing.B) {
	m := bigModel(b)
	measure(b, func(i int) {
		if i%60 == 0 {
			m.editor.Reset()
		}
		m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
		m.View()
	})
	if want := strings.Repeat("q", (b.N-1)%60+1); m.editor.Value() != want {
		b.Fatalf("want the editor to hold what was typed, got %q", m.editor.Value())
	}
}

// BenchmarkStreamDelta is one streamed text delta to the rendered frame,
// at the end of a 10,000-block transcript.
func BenchmarkStreamDelta(b *testing.B) {
	m := bigModel(b)
	turn := 100_000
	m.Update(eventsMsg{events: []agent.Event{
		agent.StatusChanged{Status: agent.StatusRunning},
		agent.Logged{Event: session.Event{Type: "step/start", Seq: 1 << 40, Data: session.StepStart{Turn: turn, Step: 1}}},
	}})
	words := []string{"The ", "parser ", "now ", "handles ", "`nested` ", "blocks.\n\n", "- one\n", "- two\n\n"}
	measure(b, func(i int) {
		m.Update(eventsMsg{events: []agent.Event{agent.Delta{Turn: turn, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: words[i%len(words)]}}}})
		m.View()
	})
	wantOnScreen(b, m, "The")
}

// BenchmarkResize is a terminal resize to the rendered frame.
func BenchmarkResize(b *testing.B) {
	m := bigModel(b)
	sizes := []tea.WindowSizeMsg{{Width: 100, Height: 30}, {Width: 120, Height: 40}, {Width: 80, Height: 24}}
	measure(b, func(i int) {
		m.Update(sizes[i%len(sizes)])
		m.View()
	})
	wantOnScreen(b, m, "The lexer now keeps the last token")
}

// BenchmarkTranscriptMemory reports the live heap of a model holding a
// 10,000-block transcript, scrolled through once so every block rendered
// (which it checks by the first prompt on the screen at the top).
func BenchmarkTranscriptMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		m := bigModel(b)
		for m.scroll < m.maxScroll() {
			m.scrollBy(m.viewportRows())
			m.View()
		}
		wantOnScreen(b, m, "Fix test 1 in the parser package")
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-heap")
		runtime.KeepAlive(m)
	}
}
