package snapshots

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// frozen is the clock of every screen.
var frozen = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

const sessionID = "20260314-092653-7f3a"

// subscribed is what the status row shows once the screen has the
// session: its model.
const subscribed = "deepseek-flash"

func header() session.Header {
	return session.Header{Version: 1, ID: sessionID, Created: frozen, Cwd: "/workspace/project", Model: "deepseek-flash"}
}

// options are the fixed inputs of every screen.
func options(be app.Backend, w, h int) app.Options {
	return app.Options{
		Backend: be, Now: func() time.Time { return frozen },
		Cwd: "/workspace/project", Home: "/workspace", Branch: "main",
		Colour: true, Width: w, Height: h,
	}
}

// startScreen starts the app over a fake session on the 100×30 screen
// most tests draw, with the log the test's events go into.
func startScreen(t *testing.T) (*Fake, *Term, *log) {
	f := NewFake(header())
	return f, start(t, f, 100, 30), &log{}
}

// start runs the chat screen over be at w×h, its options tweaked, and
// waits for the session.
func start(t *testing.T, be app.Backend, w, h int, tweak ...func(*app.Options)) *Term {
	t.Helper()
	o := options(be, w, h)
	for _, fn := range tweak {
		fn(&o)
	}
	tt := Start(t, app.New(o), w, h)
	tt.WaitText(t, subscribed)
	return tt
}

func TestEmptySessionScreen(t *testing.T) {
	for _, size := range []struct {
		w, h int
		want string // the status row's last part to arrive at the size
	}{{100, 30, "~/project (main)"}, {60, 20, "~/project (main)"}, {40, 12, "auto · sandboxed"}} {
		tt := start(t, NewFake(header()), size.w, size.h)
		tt.WaitText(t, size.want)
		tt.Golden(t, "empty_"+sizeName(size.w, size.h))
	}
}

// The welcome line names the mode the session is in, not the one it
// started in: each Shift+Tab changes it with the status row.
func TestWelcomeLineFollowsTheModeShiftTabPicks(t *testing.T) {
	tt := start(t, NewFake(header()), 100, 30)
	for _, mode := range []string{"plan", "read-only", "ask", "auto"} {
		tt.Key(vt.KeyTab, vt.ModShift)
		screen := tt.WaitText(t, mode+" mode (sandboxed) · ", mode+" · sandboxed")
		if rows := strings.Split(screen, "\n"); !strings.Contains(rows[1], mode+" mode") {
			t.Fatalf("want the welcome line under the banner to say %s mode, got:\n%s", mode, screen)
		}
	}
}

func sizeName(w, h int) string {
	return itoa(w) + "x" + itoa(h)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func lines(prefix string, n int) string {
	s := ""
	for i := 1; i <= n; i++ {
		if i > 1 {
			s += "\n"
		}
		s += prefix + " " + itoa(i)
	}
	return s
}

func TestStreamingAnswerWithReasoningAndCode(t *testing.T) {
	for _, size := range []struct{ w, h int }{{100, 30}, {60, 20}} {
		f := NewFake(header())
		tt := start(t, f, size.w, size.h)
		streamAnswer(t, f, tt)
		tt.Golden(t, "streaming_"+sizeName(size.w, size.h))
	}
}

// streamAnswer streams a turn's reasoning and the start of an answer with
// code, and waits until it shows.
func streamAnswer(t *testing.T, f *Fake, tt *Term) {
	t.Helper()
	var l log
	f.Push(events(running(), turnOpening(&l, 1, "Write a hello world in Go"), []agent.Event{
		reasoning(1, 1, "The user wants a **minimal** program.\n\nI will show main.go."),
		text(1, 1, "Here is the program:\n\n```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\nRun it with `go run"),
	}, []agent.Event{agent.PhaseChanged{Phase: agent.PhaseResponding}})...)
	tt.WaitText(t, "Run it with")
}

func TestBashCardCollapsedAndExpanded(t *testing.T) {
	f, tt, l := startScreen(t)
	bashCardStates(t, f, tt, l)
}

// bashCardStates runs a command with 14 lines of output and checks its
// card collapsed, expanded and hidden against their goldens.
func bashCardStates(t *testing.T, f *Fake, tt *Term, l *log) {
	t.Helper()
	f.Push(events(running(), turnOpening(l, 1, "Run the tests"),
		bashCall(l, 1, 1, "call_1", "go test ./...", lines("ok  \tpkg", 14), 0),
		l.live(session.TurnEnd{Turn: 1, Reason: session.StopCompleted}), idle())...)
	tt.WaitText(t, "lines (ctrl+o to expand)")
	tt.Golden(t, "bash_collapsed")
	tt.Ctrl('o')
	tt.WaitText(t, "Tool and context cards expanded.")
	tt.Golden(t, "bash_expanded")
	tt.Ctrl('o')
	tt.WaitText(t, "Tool cards hidden.")
	tt.Golden(t, "bash_hidden")
}

func TestEditDiffCard(t *testing.T) {
	f, tt, l := startScreen(t)
	diff := card.Card{Kind: card.Diff, Title: "Edit main.go", Diffs: []card.FileDiff{{
		Path: "main.go", Added: 2, Removed: 1, Lines: []card.DiffLine{
			{Op: card.OpContext, Text: "func main() {"},
			{Op: card.OpDelete, Text: "\tfmt.Println(\"hello\")"},
			{Op: card.OpAdd, Text: "\tname := os.Args[1]"},
			{Op: card.OpAdd, Text: "\tfmt.Println(\"hello\", name)"},
			{Op: card.OpContext, Text: "}"},
		}}}}
	f.Push(events(running(), turnOpening(l, 1, "Greet by name"),
		toolStep(l, 1, 1, "c1", "edit", "", diff, session.ToolResult{Text: "Edited main.go", Card: &diff}))...)
	tt.WaitText(t, "Edit(main.go)", "+2 -1")
	tt.Golden(t, "edit_diff")
}

func TestErrorCard(t *testing.T) {
	f, tt, l := startScreen(t)
	call := card.Card{Kind: card.Read, Title: "Read missing.go"}
	f.Push(events(running(), turnOpening(l, 1, "Read missing.go"), toolStep(l, 1, 1, "c1", "read", "", call,
		session.ToolResult{Text: "open missing.go: no such file or directory", IsError: true}))...)
	tt.WaitText(t, "no such file or directory")
	tt.Golden(t, "error_card")
}

func TestPlanStripThreeStates(t *testing.T) {
	f, tt, l := startScreen(t)
	f.Push(events(running(), turnOpening(l, 1, "Refactor the parser"), l.live(session.TodoWrite{Turn: 1, Todos: []card.TodoItem{
		{Content: "Read the parser", Status: card.TodoCompleted},
		{Content: "Split the lexer out", Status: card.TodoInProgress},
		{Content: "Run the tests", Status: card.TodoPending},
	}}))...)
	tt.WaitText(t, "Plan 1/3 · Split the lexer out  (ctrl+s for all)")
	tt.Golden(t, "plan_strip")
	tt.Ctrl('s')
	tt.WaitText(t, "(ctrl+s to fold)", "✓ Read the parser", "○ Run the tests")
	tt.Golden(t, "plan_strip_open")
	f.Push(events(l.live(session.TodoWrite{Turn: 1, Todos: []card.TodoItem{
		{Content: "Read the parser", Status: card.TodoCompleted},
		{Content: "Split the lexer out", Status: card.TodoCompleted},
		{Content: "Run the tests", Status: card.TodoCompleted},
	}}))...)
	tt.WaitGone(t, "Plan 1/3")
	if s := tt.WaitGone(t, "Run the tests"); strings.Contains(s, "Plan ") {
		t.Fatalf("want no plan strip once every item is done, got\n%s", s)
	}
}

func TestQueuedBadgeWithTwoSteeringMessages(t *testing.T) {
	f, tt, l := startScreen(t)
	f.Push(events(running(), turnOpening(l, 1, "Write the docs"))...)
	tt.WaitText(t, "Write the docs")
	tt.Type("also the README")
	tt.Key(vt.KeyEnter)
	tt.Type("and the changelog")
	tt.Key(vt.KeyEnter)
	waitCalls(t, f, "steer also the README", "steer and the changelog")
	f.Push(agent.InboxChanged{Steering: []string{"also the README", "and the changelog"}})
	tt.WaitText(t, "2 queued")
	tt.Golden(t, "queued_badge")
	f.Push(events([]agent.Event{agent.InboxChanged{}}, l.live(
		session.SteeringMessage{Turn: 1, Text: "also the README"},
		session.SteeringMessage{Turn: 1, Text: "and the changelog"},
	))...)
	tt.WaitGone(t, "2 queued")
	tt.WaitText(t, "↳ also the README", "↳ and the changelog")
	tt.Golden(t, "steering_taken")
}

func waitCalls(t *testing.T, f *Fake, want ...string) {
	t.Helper()
	testkit.Eventually(t, fmt.Sprintf("backend calls %q", want), func() bool { return len(f.Calls()) >= len(want) },
		func() string { return fmt.Sprintf("%q", f.Calls()) })
	got := f.Calls()
	for i, w := range want {
		if got[len(got)-len(want)+i] != w {
			t.Fatalf("want backend calls ending %q, got %q", want, got)
		}
	}
}

func TestEveryTurnEndNotice(t *testing.T) {
	f, tt, l := startScreen(t)
	ends := []session.TurnEnd{
		{Turn: 1, Reason: session.StopCompleted},
		{Turn: 2, Reason: session.StopAborted},
		{Turn: 3, Reason: session.StopMaxTokens},
		{Turn: 4, Reason: session.StopInterrupted},
		{Turn: 5, Reason: session.StopError, Error: &session.Failure{Kind: "auth", Message: "The API key was rejected (401): check DEEPSEEK_API_KEY."}},
		{Turn: 6, Reason: "disposed"},
	}
	for _, e := range ends {
		f.Push(events(running(), l.live(session.TurnStart{Turn: e.Turn},
			session.UserMessage{Turn: e.Turn, Kind: session.KindPrompt, Text: "turn " + itoa(e.Turn)}, e), idle())...)
	}
	tt.WaitText(t, "Turn ended: disposed.")
	tt.Golden(t, "turn_end_notices")
}

func TestRetryNotice(t *testing.T) {
	f, tt, l := startScreen(t)
	f.Push(events(running(), turnOpening(l, 1, "Hello"), []agent.Event{text(1, 1, "Partial ans")}, l.live(
		session.Retry{Turn: 1, Step: 1, Attempt: 1, Max: 5, DelayMs: 500, Failure: session.Failure{Kind: "rate-limit", Message: "rate limited (429)"}},
	))...)
	tt.WaitText(t, "Retrying model request (1/5) in 500ms")
	tt.Golden(t, "retry_notice")
}

func TestLongAnswerScrolledToTheMiddle(t *testing.T) {
	f, tt, l := startScreen(t)
	answer := ""
	for i := 1; i <= 80; i++ {
		answer += "Paragraph " + itoa(i) + " of the long answer.\n\n"
	}
	f.Push(events(running(), turnOpening(l, 1, "Tell me a long story"), l.live(
		session.AssistantMessage{Turn: 1, Step: 1, Text: answer, Finish: llm.FinishStop},
		session.TurnEnd{Turn: 1, Reason: session.StopCompleted},
	), idle())...)
	tt.WaitText(t, "Paragraph 80 of")
	tt.Key(vt.KeyPgUp)
	tt.Key(vt.KeyPgUp)
	tt.Key(vt.KeyPgUp)
	tt.WaitText(t, "Paragraph 35 of", "Paragraph 41 of")
	tt.Golden(t, "long_answer_middle")
	tt.Key(vt.KeyEnd)
	tt.WaitText(t, "Paragraph 80 of")
}

func TestHostileControlSequencesShowEscaped(t *testing.T) {
	f, tt, l := startScreen(t)
	evil := "evil\x1b]0;pwned\x07.go"
	out := "before\x1b[2J\x1b[31mred\x1b[0m after\x1b]52;c;aGk=\x07"
	call := card.Card{Kind: card.Terminal, Title: "cat " + evil, Terminal: &card.TerminalView{Command: "cat " + evil}}
	res := call
	res.Terminal = &card.TerminalView{Command: "cat " + evil, Output: out, ExitCode: exit(0)}
	f.Push(events(running(), turnOpening(l, 1, "Show "+evil), l.live(
		session.AssistantMessage{Turn: 1, Step: 1, Text: "Model says \x1b[5mblink\x1b[0m and \x9b31m", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "bash"}}, Finish: llm.FinishToolCalls},
		session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Card: call},
		session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Text: out, Card: &res},
		session.Title{Title: "Title \x1b[31mred\x07 here", Source: "model"},
	))...)
	tt.WaitText(t, `\x1b]0;pwned`, `\x1b[2J`)
	tt.Golden(t, "hostile")
	tt.WaitTitle(t, `Title \x1b[31mred\x07 here — tack`) // x/vt drops titles that contain a semicolon
}
