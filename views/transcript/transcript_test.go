package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/palette"
	"github.com/tack-agent/tack/views/cards"
)

func build(s Settings, events []agent.Event) *Transcript {
	tr := New(s)
	for _, e := range events {
		tr.Apply(e)
	}
	return tr
}

func all(tr *Transcript) []string { return tr.Render(0, tr.Lines()+100) }

func plain(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return strings.Join(out, "\n")
}

var wide = Settings{Width: 60, Reasoning: true, Colour: true}

const answer = "Here are **the files**:\n\n```go\nfunc main() {}\n```\n\nDone."

func TestTurnMatchesGolden(t *testing.T) {
	golden.Lines(t, "turn", all(build(wide, turnEvents(1, "list files", answer))))
}

func TestReasoningCollapsesToOneLineWhenOff(t *testing.T) {
	s := wide
	s.Reasoning = false
	got := plain(all(build(s, turnEvents(1, "list files", answer))))
	if strings.Contains(got, "a listing") {
		t.Fatalf("want the reasoning folded, got\n%s", got)
	}
	if !strings.Contains(got, "\nThought for 2s (ctrl+t to show)\n") {
		t.Fatalf("want one line for the reasoning with its duration, got\n%s", got)
	}
}

func TestHiddenReasoningLeavesNoLineUntilShown(t *testing.T) {
	s := wide
	s.Reasoning, s.HideReasoning = false, true
	tr := build(s, turnEvents(1, "list files", answer))
	got := plain(all(tr))
	if strings.Contains(got, "Thought") || strings.Contains(got, "a listing") {
		t.Fatalf("want no reasoning at all with reasoning hidden, got\n%s", got)
	}
	if !strings.Contains(got, "› list files\n\nHere are the files") {
		t.Fatalf("want the answer right under the prompt, got\n%s", got)
	}
	s.Reasoning = true
	tr.SetSettings(s)
	if got := plain(all(tr)); !strings.Contains(got, "a listing") {
		t.Fatalf("want the reasoning whole once shown, got\n%s", got)
	}
}

func TestReasoningStreamingShowsThinkingUntilTheAnswerStarts(t *testing.T) {
	s := wide
	s.Reasoning = false
	tr := build(s, []agent.Event{thinking(1, 1, "The user wants ")})
	if got := plain(all(tr)); !strings.Contains(got, "Thinking… (ctrl+t to show)") || strings.Contains(got, "user wants") {
		t.Fatalf("want a Thinking line alone while reasoning streams, got\n%s", got)
	}
	tr.Apply(text(1, 1, "The answer"))
	if got := plain(all(tr)); !strings.Contains(got, "Thought (ctrl+t to show)\n\nThe answer") {
		t.Fatalf("want the reasoning line settled above the streaming answer, got\n%s", got)
	}
}

func TestTimingLineOnlyForATurnThatTookLong(t *testing.T) {
	short := plain(all(build(wide, turnEvents(1, "list files", answer))))
	if strings.Contains(short, "Worked") || strings.Contains(short, "Model wait") {
		t.Fatalf("want no timing line for a 6.5s turn, got\n%s", short)
	}
	tr := build(wide, []agent.Event{
		logged(session.StepEnd{Turn: 1, Step: 1, Timing: session.StepTiming{ModelWait: 1000, Response: 3000, Tools: 4000}}),
		logged(session.StepEnd{Turn: 1, Step: 2, Timing: session.StepTiming{ModelWait: 1000, Thinking: 3000}}),
		logged(session.TurnEnd{Turn: 1, Reason: session.StopCompleted}),
	})
	if got := plain(all(tr)); got != "\nWorked for 12s · model 8s · tools 4s" {
		t.Fatalf("want one timing line for the turn, got %q", got)
	}
	for _, timing := range []session.StepTiming{{ModelWait: 300, Tools: 11000}, {Response: 12000}} {
		tr := build(wide, []agent.Event{
			logged(session.StepEnd{Turn: 1, Step: 1, Timing: timing}),
			logged(session.TurnEnd{Turn: 1, Reason: session.StopCompleted}),
		})
		if got := plain(all(tr)); strings.Contains(got, "·") || !strings.Contains(got, "Worked for") {
			t.Errorf("%+v: want the total alone when one side took under a second, got %q", timing, got)
		}
	}
}

func TestStreamingUpdatesTheBlockTheSettledMessageReplaces(t *testing.T) {
	tr := New(wide)
	tr.Apply(logged(session.StepStart{Turn: 1, Step: 1}))
	tr.Apply(text(1, 1, "Hello "))
	tr.Apply(text(1, 1, "world"))
	if n := tr.Blocks(); n != 1 {
		t.Fatalf("want one block while streaming, got %d", n)
	}
	if got := plain(all(tr)); !strings.Contains(got, "Hello world") {
		t.Fatalf("want streamed text shown, got\n%s", got)
	}
	tr.Apply(logged(session.AssistantMessage{Turn: 1, Step: 1, Text: "Hello, settled world."}))
	if n := tr.Blocks(); n != 1 {
		t.Fatalf("want the settled message in the same block, got %d blocks", n)
	}
	if got := plain(all(tr)); !strings.Contains(got, "Hello, settled world.") || strings.Contains(got, "Hello world") {
		t.Fatalf("want only the settled text, got\n%s", got)
	}
}

func TestStepDiscardedRemovesStreamedContent(t *testing.T) {
	tr := New(wide)
	tr.Apply(text(1, 1, "partial answer"))
	tr.Apply(agent.StepDiscarded{Turn: 1, Step: 1})
	if got := plain(all(tr)); strings.Contains(got, "partial") {
		t.Fatalf("want streamed content gone, got\n%s", got)
	}
	tr.Apply(text(1, 1, "retried"))
	if got := plain(all(tr)); !strings.Contains(got, "retried") {
		t.Fatalf("want the retried stream shown, got\n%s", got)
	}
}

func TestStreamingCodeFenceShowsCodeBeforeItCloses(t *testing.T) {
	tr := New(wide)
	tr.Apply(text(1, 1, "Intro para.\n\n```go\nfunc a() {}\n"))
	got := plain(all(tr))
	if !strings.Contains(got, "Intro para.") || !strings.Contains(got, "  func a() {}") || strings.Contains(got, "```") {
		t.Fatalf("want intro and indented code without the fence, got\n%s", got)
	}
	tr.Apply(text(1, 1, "```\n\nAfter."))
	got = plain(all(tr))
	if !strings.Contains(got, "func a() {}") || !strings.Contains(got, "After.") {
		t.Fatalf("want code and the next paragraph, got\n%s", got)
	}
}

func TestNoticesUseTheReferenceWording(t *testing.T) {
	tests := []struct {
		event agent.Event
		want  string
		fg    string
	}{
		{logged(session.TurnEnd{Turn: 1, Reason: session.StopAborted}), "Turn cancelled.", "33"},
		{logged(session.TurnEnd{Turn: 1, Reason: session.StopMaxTokens}), "The model reached its output-token limit.", "33"},
		{logged(session.TurnEnd{Turn: 1, Reason: session.StopInterrupted}), "The previous process ended during this turn.", "33"},
		{logged(session.TurnEnd{Turn: 1, Reason: session.StopError, Error: &session.Failure{Message: "rate limited: try later"}}), "rate limited: try later", "31"},
		{logged(session.TurnEnd{Turn: 1, Reason: "disposed"}), "Turn ended: disposed.", "33"},
		{logged(session.Retry{Turn: 1, Step: 1, Attempt: 1, Max: 5, DelayMs: 500, Failure: session.Failure{Message: "server error 503"}}),
			"Retrying model request (1/5) in 500ms: server error 503", "33"},
		{logged(session.InboxDiscard{Texts: []string{"a", "b"}}), "Discarded 2 queued messages.", "2"},
		{logged(session.CommandDone{ID: "1", Outcome: "error", Text: "Unknown command: /nope"}), "Unknown command: /nope", "31"},
		{logged(session.CommandDone{ID: "1", Outcome: "success", Text: "Model selected."}), "Model selected.", ""},
		{logged(session.UserMessage{Turn: 2, Kind: session.KindSummary, Text: "secret summary", Replace: &session.Span{Start: 1, End: 9}}),
			"… earlier context was compacted …", "2"},
	}
	for _, tt := range tests {
		tr := build(wide, []agent.Event{tt.event})
		lines := all(tr)
		if got := plain(lines); got != "\n"+tt.want {
			t.Errorf("want %q, got %q", tt.want, got)
			continue
		}
		if tt.fg != "" && !strings.HasPrefix(palette.StyleDump(lines[1]), "‹"+tt.fg+"›") {
			t.Errorf("%q: want style %s, got %q", tt.want, tt.fg, palette.StyleDump(lines[1]))
		}
	}
}

func TestCompletedTurnAddsNoNotice(t *testing.T) {
	tr := build(wide, []agent.Event{logged(session.TurnEnd{Turn: 1, Reason: session.StopCompleted})})
	if tr.Lines() != 0 {
		t.Fatalf("want nothing for a completed turn, got %q", plain(all(tr)))
	}
}

func TestSteeringAndContextMessages(t *testing.T) {
	tr := build(wide, []agent.Event{
		logged(session.SteeringMessage{Turn: 1, Text: "also check tests"}),
		logged(session.UserMessage{Turn: 1, Kind: session.KindContext, Origin: "bash", Text: "<notice>\nTask 1 finished\n</notice>"}),
	})
	golden.Lines(t, "steering_context", all(tr))
}

// A slash command's turn is headed by the command as typed; the prompt it
// made shows folded below it, not as the user's words.
func TestACommandsTurnShowsTheCommandAsTyped(t *testing.T) {
	prompt := "## Context\n\n- Status: clean\n- Branch: main\n- Log: 3 commits\n- Diff: none\n\nCreate a commit: fix typo"
	tr := build(wide, []agent.Event{logged(session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: prompt, Typed: "/commit fix typo"})})
	got := plain(all(tr))
	want := "\n› /commit fix typo\n\nContext · the prompt it sent\n## Context\n\n- Status: clean\n… +5 lines (ctrl+o to expand)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestHostileControlSequencesShowEscaped(t *testing.T) {
	evil := "\x1b]2;pwned\x07"
	tr := build(wide, []agent.Event{
		logged(session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "hi " + evil}),
		thinking(1, 1, "think "+evil),
		text(1, 1, "model says "+evil),
		logged(session.AssistantMessage{Turn: 1, Step: 1, Text: "model says " + evil, Reasoning: "think " + evil}),
		logged(session.ToolCall{Turn: 1, Step: 1, CallID: "c", Name: "bash", Card: card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Command: "cat " + evil}}}),
		logged(session.ToolResult{Turn: 1, Step: 1, CallID: "c", Name: "bash", Card: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: "out " + evil + "\n", ExitCode: intp(0)}}}),
		logged(session.ToolCall{Turn: 1, Step: 1, CallID: "d", Name: "write", Card: card.Card{Kind: card.Diff, Title: "Write " + evil}}),
		logged(session.ToolResult{Turn: 1, Step: 1, CallID: "d", Name: "write", Card: &card.Card{Kind: card.Diff,
			Diffs: []card.FileDiff{{Path: "f" + evil + ".go", Created: true, Added: 1, Lines: []card.DiffLine{{Op: card.OpAdd, Text: evil}}}}}}),
	})
	lines := all(tr)
	for _, l := range lines {
		if strings.Contains(l, "\x07") || strings.Contains(l, "\x1b]2") {
			t.Fatalf("want no raw OSC, got %q", l)
		}
	}
	if n := strings.Count(plain(lines), `\x1b]2;pwned\x07`); n < 6 {
		t.Fatalf("want the sequence shown escaped in every place, got %d in\n%s", n, plain(lines))
	}
	golden.Lines(t, "hostile", lines)
}

func TestCardModesApplyToToolBlocks(t *testing.T) {
	tr := build(wide, turnEvents(1, "list files", answer))
	before := tr.Lines()
	s := wide
	s.Cards = cards.Hidden
	tr.SetSettings(s)
	got := plain(all(tr))
	if strings.Contains(got, "Bash(ls)") {
		t.Fatalf("want tool cards hidden, got\n%s", got)
	}
	if tr.Lines() >= before {
		t.Fatalf("want fewer rows with cards hidden, got %d (was %d)", tr.Lines(), before)
	}
}

// Clear and Prepend number the blocks anew: a place taken before tells
// a block that may now be another, so it must not equal a place taken
// after, however alike the blocks at its number.
func TestPlacesOfAnotherNumberingOfTheBlocksDiffer(t *testing.T) {
	tr := build(wide, turnEvents(1, "list files", answer))
	before := tr.PlaceOf(0)
	c := tr.Detached()
	for _, e := range turnEvents(1, "list files", answer) {
		c.Apply(e)
	}
	tr.Prepend(c)
	if tr.PlaceOf(0) == before {
		t.Fatal("want the first row's place after a Prepend to differ from before it")
	}
	tr = build(wide, turnEvents(1, "list files", answer))
	before = tr.PlaceOf(0)
	tr.Clear()
	for _, e := range turnEvents(1, "list files", answer) {
		tr.Apply(e)
	}
	if tr.PlaceOf(0) == before {
		t.Fatal("want the first row's place after a Clear to differ from before it")
	}
}

func TestATurnHasOneHeaderItsPrompt(t *testing.T) {
	tr := build(wide, []agent.Event{
		logged(session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "fix it"}),
		logged(session.AssistantMessage{Turn: 1, Step: 1, Text: "first"}),
		logged(session.ToolCall{Turn: 1, Step: 1, CallID: "a", Name: "read"}),
		logged(session.AssistantMessage{Turn: 1, Step: 2, Text: "second"}),
	})
	got := plain(all(tr))
	if strings.Contains(got, "Assistant") || !strings.HasPrefix(got, "\n› fix it\n\nfirst\n") {
		t.Fatalf("want the prompt as the only header, got\n%s", got)
	}
}

func TestViewFromBottomMatchesFullRender(t *testing.T) {
	tr := New(wide)
	for turn := 1; turn <= 20; turn++ {
		for _, e := range turnEvents(turn, "prompt", answer) {
			tr.Apply(e)
		}
	}
	full := all(tr)
	for _, off := range []int{0, 1, 7, 50, len(full) - 10} {
		got := tr.View(off, 10)
		want := full[len(full)-off-10 : len(full)-off]
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("offset %d: want\n%s\ngot\n%s", off, plain(want), plain(got))
		}
	}
	if got := tr.Render(5, 8); strings.Join(got, "\n") != strings.Join(full[5:13], "\n") {
		t.Fatalf("want rows 5..13, got\n%s", plain(got))
	}
}

func TestResizeRewrapsVisibleBlocksLazily(t *testing.T) {
	tr := New(wide)
	for turn := 1; turn <= 50; turn++ {
		for _, e := range turnEvents(turn, strings.Repeat("word ", 30), answer) {
			tr.Apply(e)
		}
	}
	tr.View(0, 30)
	s := wide
	s.Width = 30
	tr.SetSettings(s)
	rendered := 0
	for _, b := range tr.blocks {
		if b.cached && b.key.width == 30 {
			rendered++
		}
	}
	if rendered != 0 {
		t.Fatalf("want no block rendered by the resize itself, got %d", rendered)
	}
	for _, l := range tr.View(0, 30) {
		if w := ansi.StringWidth(l); w > 30 {
			t.Fatalf("want rows at most 30 wide after resize, got %d: %q", w, ansi.Strip(l))
		}
	}
	rendered = 0
	for _, b := range tr.blocks {
		if b.cached && b.key.width == 30 {
			rendered++
		}
	}
	if rendered == 0 || rendered > 12 {
		t.Fatalf("want only the visible blocks rendered at the new width, got %d of %d", rendered, tr.Blocks())
	}
}

func TestFinishedBlockRendersOnce(t *testing.T) {
	tr := build(wide, turnEvents(1, "list files", answer))
	first := tr.View(0, 40)
	b := tr.blocks[1]
	lines := b.lines
	tr.View(0, 40)
	tr.Apply(text(2, 1, "more"))
	second := tr.View(0, 40)
	if &b.lines[0] != &lines[0] {
		t.Fatal("want the finished block's cached lines reused, got a re-render")
	}
	if len(second) <= len(first)-10 {
		t.Fatalf("want the view to keep its rows, got %d then %d", len(first), len(second))
	}
}

func TestRowsStayWithinWidthAndPalette(t *testing.T) {
	for _, w := range []int{10, 33, 80} {
		s := wide
		s.Width = w
		for _, l := range all(build(s, turnEvents(1, strings.Repeat("long prompt ", 20), answer))) {
			if sw := ansi.StringWidth(l); sw > max(w, 10) {
				t.Errorf("width %d: want rows within width, got %d: %q", w, sw, ansi.Strip(l))
			}
			if v := palette.Violation(l); v != "" {
				t.Errorf("want palette only, got %s", v)
			}
		}
	}
}

func TestHeightsMatchNaiveSums(t *testing.T) {
	var h heights
	var naive []int
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		v := rng.IntN(5)
		h.push(v)
		naive = append(naive, v)
		if i%3 == 0 {
			j := rng.IntN(len(naive))
			v := rng.IntN(7)
			h.set(j, v)
			naive[j] = v
		}
	}
	sum := 0
	for i, v := range naive {
		for r := sum; r < sum+v; r++ {
			if b, off := h.find(r); b != i || off != r-sum {
				t.Fatalf("row %d: want block %d offset %d, got %d %d", r, i, r-sum, b, off)
			}
		}
		sum += v
	}
	if h.total() != sum {
		t.Fatalf("want total %d, got %d", sum, h.total())
	}
	var r heights
	r.reset(append([]int(nil), naive...))
	for i := range naive {
		if r.prefix(i) != h.prefix(i) {
			t.Fatalf("prefix %d: want %d after reset, got %d", i, h.prefix(i), r.prefix(i))
		}
	}
}

func TestStreamingToolCallShowsPendingHeader(t *testing.T) {
	tr := build(wide, []agent.Event{
		agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkToolCall, ToolCall: &llm.ToolCallDelta{Index: 0, ID: "x", Name: "grep"}}},
		agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkToolCall, ToolCall: &llm.ToolCallDelta{Index: 0, Arguments: `{"p`}}},
	})
	if got := plain(all(tr)); !strings.Contains(got, "○ Grep …") {
		t.Fatalf("want a pending tool row, got\n%s", got)
	}
}

// The app renders the bottom of the transcript after every batch; a step
// drawn empty when it started must still grow into view as text streams.
func TestStreamedTextShowsAtTheBottomWhileItStreams(t *testing.T) {
	tr := New(wide)
	tr.ApplyLogged(session.Event{Type: "user/message", Data: session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "do the thing"}})
	tr.Apply(logged(session.StepStart{Turn: 1, Step: 1}))
	tr.View(0, 20) // the empty step is rendered and cached
	tr.Apply(text(1, 1, "Hello from the model."))
	if got := plain(tr.View(0, 20)); !strings.Contains(got, "Hello from the model.") {
		t.Fatalf("want the streamed text at the bottom, got\n%s", got)
	}
	tr.Apply(text(1, 1, "\n\nA second paragraph.\n\nA third one, last."))
	if got := plain(tr.View(0, 20)); !strings.Contains(got, "A third one, last.") {
		t.Fatalf("want the growing text's end at the bottom, got\n%s", got)
	}
}

func TestRetriedStepAnswersBelowTheRetryNotice(t *testing.T) {
	tr := New(wide)
	tr.Apply(logged(session.StepStart{Turn: 1, Step: 1}))
	tr.Apply(text(1, 1, "partial"))
	tr.Apply(logged(session.Retry{Turn: 1, Step: 1, Attempt: 1, Max: 5, DelayMs: 500, Failure: session.Failure{Message: "rate limited"}}))
	tr.Apply(text(1, 1, "Recovered answer."))
	tr.Apply(logged(session.AssistantMessage{Turn: 1, Step: 1, Text: "Recovered answer."}))
	got := plain(all(tr))
	notice, answer := strings.Index(got, "Retrying model request"), strings.Index(got, "Recovered answer.")
	if notice < 0 || answer < 0 || notice > answer || strings.Contains(got, "partial") {
		t.Fatalf("want the retry notice, then the answer, and no partial text; got\n%s", got)
	}
}

// Retries in a row show as one line, the latest attempt's; before, each
// took its own two rows, ten rows of a server's bad minute.
func TestRetriesInARowShowAsOneLine(t *testing.T) {
	tr := New(wide)
	tr.Apply(logged(session.StepStart{Turn: 1, Step: 1}))
	for a := 1; a <= 3; a++ {
		tr.Apply(logged(session.Retry{Turn: 1, Step: 1, Attempt: a, Max: 5, DelayMs: 500, Failure: session.Failure{Message: "server error"}}))
	}
	got := plain(all(tr))
	if n := strings.Count(got, "Retrying model request"); n != 1 || !strings.Contains(got, "(3/5)") {
		t.Fatalf("want one retry line, of attempt 3/5; got\n%s", got)
	}
}

// An app keeps a scrolled-up view still by adding the growth of Lines() to
// its offset; that growth must be exact for the blocks that just changed.
func TestMeasureMakesTheGrowthOfChangedBlocksExact(t *testing.T) {
	tr := New(wide)
	tr.Apply(logged(session.StepStart{Turn: 1, Step: 1}))
	tr.Apply(text(1, 1, "First paragraph.\n\n"))
	tr.View(0, 20) // the step is rendered and cached
	tr.Apply(text(1, 1, "Second.\n\nThird.\n\nFourth, long enough to wrap over more than one row of the width.\n\n"))
	tr.Apply(logged(session.Retry{Turn: 1, Step: 2, Attempt: 1, Max: 5, DelayMs: 500, Failure: session.Failure{Message: "x"}}))
	tr.Measure()
	if got, want := tr.Lines(), len(all(tr)); got != want {
		t.Fatalf("want Lines() %d after Measure, got %d", want, got)
	}
}

func TestAnAttachedImageShowsAsALineWithNameSizeAndDimensions(t *testing.T) {
	shot := session.ImageRef{Hash: strings.Repeat("a", 64), MediaType: "image/png", Name: "shot.png", Bytes: 48_210, Width: 1280, Height: 800}
	big := session.ImageRef{Hash: strings.Repeat("b", 64), MediaType: "image/jpeg", Name: "photo\x1b[31m.jpg", Bytes: 310_000, Width: 2048, Height: 1536, OrigWidth: 4032, OrigHeight: 3024}
	tr := build(Settings{Width: 100}, []agent.Event{
		logged(session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "what is wrong? @shot.png @photo.jpg", Images: []session.ImageRef{shot, big}}),
	})
	got := plain(all(tr))
	for _, want := range []string{"[image] shot.png · 47.1 KB · 1280×800", `[image] photo\x1b[31m.jpg · 302.7 KB · 2048×1536 (scaled from 4032×3024)`} {
		if !strings.Contains(got, want) {
			t.Errorf("want the line %q, got\n%s", want, got)
		}
	}
}

func TestRunningCommandCountsItsTimeWithoutTheApprovalWait(t *testing.T) {
	at := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	ev := func(sec int, d session.Data) agent.Event {
		return agent.Logged{Event: session.Event{Type: d.EventType(), Time: at.Add(time.Duration(sec) * time.Second), Data: d}}
	}
	call := card.Card{Kind: card.Terminal, Label: "Bash", Subject: "go test ./...", Terminal: &card.TerminalView{Command: "go test ./..."}}
	tr := build(wide, []agent.Event{
		ev(0, session.ToolCall{Turn: 1, Step: 1, CallID: "c", Name: "bash", Card: call}),
		ev(0, session.ApprovalAsked{CallID: "c", Tool: "bash"}),
	})
	tr.Tick(at.Add(30 * time.Second))
	if got := plain(all(tr)); strings.Contains(got, "running") {
		t.Fatalf("want no running time while the call waits for approval, got\n%s", got)
	}
	tr.Apply(ev(30, session.ApprovalDecided{CallID: "c", Tool: "bash", Decision: "allow"}))
	tr.Apply(agent.ToolProgress{CallID: "c", Card: card.Card{Kind: card.Terminal, Label: "Bash", Subject: "go test ./...",
		Terminal: &card.TerminalView{Command: "go test ./...", Output: "ok  pkg/a\n"}}})
	if !tr.Tick(at.Add(36*time.Second + 400*time.Millisecond)) {
		t.Fatal("want the tick to change the running card")
	}
	if got := plain(all(tr)); !strings.Contains(got, "○ Bash(go test ./...)\n  ok  pkg/a\n  running 6s") {
		t.Fatalf("want the live output and 6s of running, got\n%s", got)
	}
	if tr.Tick(at.Add(36*time.Second + 900*time.Millisecond)) {
		t.Fatal("want no change within the same second")
	}
}

// While an edit waits for approval, its dialog shows the diff; the card
// above it keeps its header, and the diff comes back once decided.
func TestCardWaitingForApprovalLeavesItsBodyToTheDialog(t *testing.T) {
	call := card.Card{Kind: card.Diff, Label: "Edit", Subject: "wc.go", Diffs: []card.FileDiff{{Path: "wc.go", Added: 1, Removed: 1,
		Lines: []card.DiffLine{{Op: card.OpDelete, Text: "n := 0"}, {Op: card.OpAdd, Text: "return len(strings.Fields(s))"}}}}}
	s := wide
	s.Cards = cards.Collapsed
	tr := build(s, []agent.Event{
		logged(session.ToolCall{Turn: 1, Step: 1, CallID: "c", Name: "edit", Card: call}),
		logged(session.ApprovalAsked{CallID: "c", Tool: "edit"}),
	})
	if got := plain(all(tr)); !strings.Contains(got, "○ Edit(wc.go)") || strings.Contains(got, "strings.Fields") {
		t.Fatalf("want the header without the diff while the approval is open, got\n%s", got)
	}
	tr.Apply(logged(session.ApprovalDecided{CallID: "c", Tool: "edit", Decision: "allow"}))
	if got := plain(all(tr)); !strings.Contains(got, "strings.Fields") {
		t.Fatalf("want the diff back once decided, got\n%s", got)
	}
}
