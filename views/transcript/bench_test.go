package transcript

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
)

const benchAnswer = "## Plan\n\nI will change `main.go` so the server **retries** requests:\n\n" +
	"1. read the config\n2. add a backoff\n3. run the tests\n\n```go\nfunc retry(n int) error {\n\tfor i := 0; i < n; i++ {\n\t\tif err := call(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn errFailed\n}\n```\n\n" +
	"That keeps the change small and testable."

// benchBlocks is the transcript size the benchmarks are set for: 10,000
// blocks, or a tenth of it under -short, the CI smoke, which runs each
// benchmark once to see it still works.
func benchBlocks() int {
	if testing.Short() {
		return 1_000
	}
	return 10_000
}

// session10k appends settled turns (a prompt, a step with reasoning and
// Markdown, a tool card, and the timing the step logs) until they make
// benchBlocks blocks, as a resumed session builds them, and returns the
// number of the last turn. How many blocks a turn makes is the
// transcript's business, so the count is read, not assumed.
func session10k(tr *Transcript) (lastTurn int) {
	output := strings.Repeat("ok  \tgithub.com/x/pkg\t0.01s\n", 20)
	turn := 0
	for tr.Blocks() < benchBlocks() {
		turn++
		var c, r card.Card
		if turn%2 == 0 {
			c = card.Card{Kind: card.Terminal, Description: "Run tests", Terminal: &card.TerminalView{Command: "go test ./...", Cwd: "/src"}}
			r = card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Output: output, ExitCode: intp(0)}}
		} else {
			c = card.Card{Kind: card.Diff, Title: "Edit main.go"}
			r = card.Card{Kind: card.Diff, Diffs: []card.FileDiff{{Path: "main.go", Added: 2, Removed: 1, Lines: []card.DiffLine{
				{Op: card.OpContext, Text: "func main() {"}, {Op: card.OpDelete, Text: "\tserve()"},
				{Op: card.OpAdd, Text: "\tretry(3)"}, {Op: card.OpAdd, Text: "\tserve()"}, {Op: card.OpContext, Text: "}"}}}}}
		}
		for _, d := range []session.Data{
			session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: fmt.Sprintf("Please make change number %d to the server.", turn)},
			session.AssistantMessage{Turn: turn, Step: 1, Text: benchAnswer,
				Reasoning: "The user wants a retry loop. I should read main.go first, then edit it and run the tests."},
			session.ToolCall{Turn: turn, Step: 1, CallID: fmt.Sprint("c", turn), Name: "tool", Card: c},
			session.ToolResult{Turn: turn, Step: 1, CallID: fmt.Sprint("c", turn), Name: "tool", Text: "done", Card: &r},
			session.StepEnd{Turn: turn, Step: 1, Timing: session.StepTiming{ModelWait: 900, Thinking: 1200, Response: 800, Tools: 300}},
		} {
			tr.ApplyLogged(session.Event{Type: d.EventType(), Data: d})
		}
	}
	return turn
}

// benchTranscript is a transcript of about 10,000 blocks, its bottom
// screen shown, and the number of the turn after its last.
func benchTranscript(b *testing.B) (*Transcript, int) {
	b.Helper()
	tr := New(Settings{Width: 100, Reasoning: true, Colour: true})
	next := session10k(tr) + 1
	tr.View(0, 30)
	return tr, next
}

// BenchmarkStreamDeltaFrame appends one streamed delta to the step at the
// bottom of a 10,000-block transcript and renders the visible 30 rows.
func BenchmarkStreamDeltaFrame(b *testing.B) {
	tr, next := benchTranscript(b)
	tr.Apply(text(next, 1, benchAnswer+"\n\n"))
	tr.View(0, 30)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		d := " word"
		if i++; i%40 == 0 {
			d = ".\n\n"
		}
		tr.Apply(text(next, 1, d))
		if rows := tr.View(0, 30); len(rows) != 30 || !strings.Contains(ansi.Strip(strings.Join(rows, "\n")), "word") {
			b.Fatalf("want 30 rows ending in the streamed words, got %q", rows)
		}
	}
}

// wantPage fails b unless rows are a page of n rows, some of them text.
func wantPage(b *testing.B, rows []string, n int) {
	b.Helper()
	if len(rows) != n || strings.TrimSpace(ansi.Strip(strings.Join(rows, ""))) == "" {
		b.Fatalf("want %d rows of the transcript, got %q", n, rows)
	}
}

// BenchmarkScrollPageFrame scrolls up one page of 30 rows and renders it;
// every page shows blocks not rendered before.
func BenchmarkScrollPageFrame(b *testing.B) {
	tr, _ := benchTranscript(b)
	off := 0
	b.ReportAllocs()
	for b.Loop() {
		off += 30
		if off > tr.Lines()-30 {
			off = 0
		}
		wantPage(b, tr.View(off, 30), 30)
	}
}

// BenchmarkScrollPageSeenFrame scrolls over pages already rendered once.
func BenchmarkScrollPageSeenFrame(b *testing.B) {
	tr, _ := benchTranscript(b)
	seen := min(3000, tr.Lines()-30)
	for off := 0; off < seen; off += 30 {
		tr.View(off, 30)
	}
	off := 0
	b.ReportAllocs()
	for b.Loop() {
		off = (off + 30) % seen
		wantPage(b, tr.View(off, 30), 30)
	}
}

// BenchmarkResizeFrame changes the width and renders the visible rows.
func BenchmarkResizeFrame(b *testing.B) {
	tr, _ := benchTranscript(b)
	widths := []int{80, 100, 120, 60}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		s := tr.Settings()
		s.Width = widths[i%len(widths)]
		i++
		tr.SetSettings(s)
		rows := tr.View(0, 30)
		wantPage(b, rows, 30)
		for _, r := range rows {
			if w := ansi.StringWidth(r); w > s.Width {
				b.Fatalf("want rows within %d columns, got %d: %q", s.Width, w, r)
			}
		}
	}
}

// BenchmarkMemory10k builds 10,000 blocks (benchBlocks) and reports the
// live heap twice:
// after showing the bottom screen (a resumed session), and after rendering
// every row once (the worst case: every block cached).
func BenchmarkMemory10k(b *testing.B) {
	var built, rendered float64
	for b.Loop() {
		tr := New(Settings{Width: 100, Reasoning: true, Colour: true})
		session10k(tr)
		wantPage(b, tr.View(0, 30), 30)
		built = heapMB()
		for top := 0; top < tr.Lines(); top += 200 {
			tr.Render(top, 200)
		}
		rendered = heapMB()
		runtime.KeepAlive(tr)
	}
	b.ReportMetric(built, "heap-MB-built")
	b.ReportMetric(rendered, "heap-MB-all-rendered")
}

func heapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}
