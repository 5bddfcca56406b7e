package pty

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/overlays/approval"
)

// model is the status row's model and effort with the default config.
const model = "deepseek-flash"

// rowsOf splits a screen into its rows, padded to the terminal's height.
func rowsOf(screen string) []string {
	r := strings.Split(screen, "\n")
	for len(r) < rows {
		r = append(r, "")
	}
	return r
}

// hasRow reports whether a row of the screen reads exactly text, ignoring
// surrounding blanks.
func hasRow(screen, text string) bool {
	for _, row := range rowsOf(screen) {
		if strings.TrimSpace(row) == text {
			return true
		}
	}
	return false
}

// waitIdle waits for the empty chat screen: the status row naming the
// model above an editor on the last row.
func (r *run) waitIdle() string {
	r.t.Helper()
	screen, _, err := r.WaitScreen(stepLimit, idleScreen)
	if err != nil {
		r.t.Fatalf("want the status row (%s) above the editor (>) within %v, got (%v):\n%s", model, stepLimit, err, frame(screen))
	}
	return screen
}

// idleScreen holds when the second-to-last row is the status row (a long
// working directory may be dropped from it to keep the model in view) and
// the last row is the editor's prompt without the steering placeholder.
// (Between a turn's end and the agent going idle the prompt is back but
// the placeholder is not gone yet: keys there still reach a running agent.)
func idleScreen(screen string) bool {
	rs := rowsOf(screen)
	status, editor := rs[rows-2], rs[rows-1]
	return strings.Contains(status, model) &&
		strings.HasPrefix(editor, ">") && !strings.Contains(editor, "esc to cancel")
}

func TestPromptStreamsTheAnswer(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("The answer is **42**, as computed.", 4), llmtest.Pace(5*time.Millisecond)))
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(step{do: both(typed("What is the answer?"), key(vt.KeyEnter))})
	// The answer is on screen before the turn ends; the status row and the
	// editor's caret come back once it has.
	r.waitScreen("answer", []string{"› What is the answer?", "The answer is 42, as computed."}, idleScreen)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("want 1 model request, got %d", n)
	}
}

// readPause outlasts the moment after a dialog opens in which it ignores
// keys, with a margin for a loaded machine.
const readPause = approval.Guard + 100*time.Millisecond

func TestBashCallAsksApprovalThenShowsItsOutput(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo hi","description":"Say hi"}`, 2)),
		llmtest.Reply(llmtest.Text("Said hi.", 0)),
	)
	r := start(t, setup{srv: srv, args: []string{"--permission-mode", "ask"}})
	r.waitIdle()
	r.script(
		step{do: both(typed("greet"), key(vt.KeyEnter))},
		step{want: []string{"Allow bash?", "y allow"}, pause: readPause, do: typed("y")},
	)
	screen := r.waitText("bash card", "✓ Bash(echo hi)", "Said hi.")
	if !hasRow(screen, "hi") {
		t.Errorf("want the bash card to show the output row %q, got:\n%s", "hi", frame(screen))
	}
	if strings.Contains(screen, "Allow bash?") {
		t.Errorf("want the approval dialog gone once answered, got:\n%s", frame(screen))
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 model requests, got %d", len(reqs))
	}
	if got := reqs[1].ToolResult("call_1"); !strings.Contains(got, "hi") {
		t.Errorf("want the bash result to carry %q to the model, got %q", "hi", got)
	}
}

func TestQuestionAnsweredReachesTheModel(t *testing.T) {
	args := `{"questions":[{"id":"db","header":"Database","question":"Which database should I use?",` +
		`"options":[{"label":"Postgres"},{"label":"SQLite","recommended":true}]}]}`
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_q", "ask_user_question", args, 2)),
		llmtest.Reply(llmtest.Text("SQLite it is.", 0)),
	)
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(
		step{do: both(typed("set up storage"), key(vt.KeyEnter))},
		// The panel opens on the recommended option; Enter submits it.
		step{want: []string{"Which database should I use?", "› 2. SQLite (recommended)", "Enter submit"}, pause: readPause, do: key(vt.KeyEnter)},
		step{want: []string{"SQLite it is."}},
	)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 model requests, got %d", len(reqs))
	}
	want := `{"answers":[{"id":"db","selected":["SQLite"]}]}`
	if got := reqs[1].ToolResult("call_q"); got != want {
		t.Errorf("want the answer %s in the next request, got %s", want, got)
	}
}

// waitStalled waits until the model's stream stalls.
func (r *run) waitStalled(srv *llmtest.Server) {
	r.t.Helper()
	select {
	case <-srv.Stalled():
	case <-time.After(stepLimit):
		r.t.Fatalf("want the stream to stall within %v, the screen is:\n%s", stepLimit, frame(r.Screen()))
	}
}

// startStalledTurn starts tack, asks it to "do the thing", and returns
// once the model's stream has sent parts and stalled.
func startStalledTurn(t *testing.T, parts ...llmtest.Part) *run {
	srv := llmtest.New(t, llmtest.Reply(append(parts, llmtest.Stall())...))
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(step{do: both(typed("do the thing"), key(vt.KeyEnter))})
	r.waitStalled(srv)
	return r
}

func TestEscCancelsAStalledTurn(t *testing.T) {
	r := startStalledTurn(t, llmtest.Text("Working on it", 0))
	r.script(
		step{want: []string{"Working on it", "esc to cancel"}, do: key(vt.KeyEscape)},
		step{want: []string{"Turn cancelled."}},
	)
	// What had arrived of the answer stays on screen.
	if screen := r.waitIdle(); !strings.Contains(screen, "Working on it") {
		t.Errorf("want the partial answer kept after the cancel, got:\n%s", frame(screen))
	}
}

func TestStreamedTextShowsWhileTheModelIsSlow(t *testing.T) {
	r := startStalledTurn(t, llmtest.Pace(150*time.Millisecond), llmtest.Text("Working on it", 0))
	r.waitText("streamed text", "› do the thing", "Working on it")
}

// TestNoReasoningFlagHidesReasoningOnTheScreen runs tack --no-reasoning:
// the answer shows and the model's reasoning, not even its one folded
// line, does not.
func TestNoReasoningFlagHidesReasoningOnTheScreen(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Reasoning("Weighing the options.", 0), llmtest.Text("Use the second one.", 0)))
	r := start(t, setup{srv: srv, args: []string{"--no-reasoning"}})
	r.waitIdle()
	r.script(step{do: both(typed("Which one?"), key(vt.KeyEnter))})
	screen := r.waitScreen("answer", []string{"› Which one?", "Use the second one."}, idleScreen)
	if strings.Contains(screen, "Thought") || strings.Contains(screen, "Weighing") {
		t.Fatalf("want no reasoning with --no-reasoning, got:\n%s", frame(screen))
	}
}
