package pty

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// lineMode is the argument that picks the line front door.
var lineMode = []string{"--ui", "line"}

// Turn headers and their text are looked for apart: line mode sometimes
// prints the next prompt between them ("[main turn 1] > Partial", about
// once in ten runs under load).

// atPrompt holds when the last row with text is line mode's empty prompt:
// typing before it shows mixes the terminal's echo into the answer.
func atPrompt(screen string) bool {
	rs := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return strings.TrimSpace(rs[len(rs)-1]) == ">"
}

func TestLineModeAnswersCancelsWithCtrlCAndExitsAtEOF(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.Text("Hello from line mode.", 4)),
		llmtest.Reply(llmtest.Text("Partial", 0), llmtest.Stall()),
	)
	r := start(t, setup{srv: srv, args: lineMode})
	r.script(
		step{want: []string{"ready."}, until: atPrompt, do: both(typed("say hello"), key(vt.KeyEnter))},
		step{want: []string{"> say hello", "[main turn 1]", "Hello from line mode."}, until: atPrompt, do: both(typed("long task"), key(vt.KeyEnter))},
	)
	r.waitStalled(srv)
	r.script(
		step{want: []string{"[main turn 2]", "Partial"}, do: ctrl('c')},
		// Ctrl+D, not a second Ctrl+C: see
		// TestLineModeCtrlCRightAfterACancelExitsCleanly.
		step{want: []string{"Turn cancelled."}, until: atPrompt, do: func(r *run) {
			// The prompt the line editor draws after ^C gives its place
			// to the notice instead of staying behind, empty, above it.
			rows := strings.Split(r.Screen(), "\n")
			for i, row := range rows[1:] {
				if strings.TrimSpace(row) == "Turn cancelled." && strings.TrimSpace(rows[i]) == ">" {
					t.Errorf("want no empty prompt left above the notice, got:\n%s", frame(r.Screen()))
				}
			}
			ctrl('d')(r)
		}},
	)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 at end of input, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
	if strings.Contains(r.Raw(), altScreenOn) {
		t.Errorf("want line mode to stay on the main screen, got %q in the output", altScreenOn)
	}
	assertResumeLineLast(t, r, assertRestored(t, r))
}

func TestLineModeCtrlCRightAfterACancelExitsCleanly(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("Partial", 0), llmtest.Stall()))
	r := start(t, setup{srv: srv, args: lineMode})
	r.script(step{want: []string{"ready."}, until: atPrompt, do: both(typed("long task"), key(vt.KeyEnter))})
	r.waitStalled(srv)
	r.script(
		step{want: []string{"[main turn 1]", "Partial"}, do: ctrl('c')},
		step{want: []string{"Turn cancelled."}, do: ctrl('c')},
	)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 after Ctrl+C at the idle prompt, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
}

func TestLineModeSIGTERMWhileRunningExits(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("Partial", 0), llmtest.Stall()))
	r := start(t, setup{srv: srv, args: lineMode})
	r.script(step{want: []string{"ready."}, until: atPrompt, do: both(typed("long task"), key(vt.KeyEnter))})
	r.waitStalled(srv)
	r.waitText("streaming", "[main turn 1]", "Partial")
	assertSIGTERMEndsRestored(t, r)
}

func TestLineModeAnswersAnApprovalAndAQuestionAtThePrompt(t *testing.T) {
	question := `{"questions":[{"id":"db","header":"Database","question":"Which database?",` +
		`"options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","recommended":true}]}]}`
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo hi","description":"Say hi"}`, 2)),
		llmtest.Reply(llmtest.ToolCall("call_q", "ask_user_question", question, 2)),
		llmtest.Reply(llmtest.Text("SQLite it is.", 0)),
	)
	r := start(t, setup{srv: srv, args: append(lineMode, "--permission-mode", "ask")})
	r.script(
		step{want: []string{"ready."}, until: atPrompt, do: both(typed("set up storage"), key(vt.KeyEnter))},
		step{want: []string{"echo hi", "allow? [y]es / [a]lways for this session (echo) / [n]o (reason)"}, until: atPrompt,
			do: both(typed("y"), key(vt.KeyEnter))},
		step{want: []string{"[Database] Which database?", "1. Postgres (recommended)", "2. SQLite"}, until: atPrompt,
			do: both(typed("2"), key(vt.KeyEnter))},
		step{want: []string{"SQLite it is."}, until: atPrompt, do: ctrl('d')},
	)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 at end of input, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("want 3 model requests, got %d", len(reqs))
	}
	if got := reqs[1].ToolResult("call_1"); !strings.Contains(got, "hi") {
		t.Errorf("want the approved bash call's output %q to reach the model, got %q", "hi", got)
	}
	if got, want := reqs[2].ToolResult("call_q"), `{"answers":[{"id":"db","selected":["SQLite"]}]}`; got != want {
		t.Errorf("want the answer %s in the next request, got %s", want, got)
	}
}

// hungCompact runs one turn in line mode, then /compact against a model
// that never answers the summary request, and returns once it hangs. The
// model's 100-token window leaves the first turn's history to compact.
func hungCompact(t *testing.T) (*run, *llmtest.Server) {
	t.Helper()
	home := t.TempDir()
	config := "model = \"tiny\"\n[[models]]\nid = \"tiny\"\nprovider = \"deepseek\"\ncontext_window = 100\nmax_output = 50\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.ReplyText(strings.Repeat("A long answer. ", 20)), llmtest.Reply(llmtest.Stall()))
	r := start(t, setup{srv: srv, home: home, args: lineMode})
	r.script(
		step{want: []string{"ready."}, until: atPrompt, do: both(typed("hi"), key(vt.KeyEnter))},
		step{want: []string{"[main turn 1]", "A long answer."}, until: atPrompt, do: both(typed("/compact"), key(vt.KeyEnter))},
	)
	r.waitStalled(srv)
	return r, srv
}

// TestLineModeCtrlCCancelsAHungCompactAndGivesThePromptBack: the fake
// never ends the summary request itself, so the cancellation on the screen
// and the prompt back can only come from Ctrl+C.
func TestLineModeCtrlCCancelsAHungCompactAndGivesThePromptBack(t *testing.T) {
	r, _ := hungCompact(t)
	ctrl('c')(r)
	r.waitScreen("cancelled", []string{"command cancelled"}, atPrompt)
	r.script(
		step{do: both(typed("/status"), key(vt.KeyEnter))},
		step{want: []string{"Permissions and sandbox"}, until: atPrompt, do: ctrl('d')},
	)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 at end of input, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
	assertCooked(t, r)
}

// TestLineModeSIGTERMEndsAHungCompactWithTheTerminalRestored: tack leaves
// after shutdownGrace even when the cancel does not take, so the exit code
// alone proves little; the command's cancellation on the screen does, as
// line mode shows it only while it still waits for the cancelled work.
func TestLineModeSIGTERMEndsAHungCompactWithTheTerminalRestored(t *testing.T) {
	r, _ := hungCompact(t)
	if err := r.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := r.exitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("want exit code %d after SIGTERM, got %d; the screen is:\n%s", 128+int(syscall.SIGTERM), code, frame(r.Screen()))
	}
	if !strings.Contains(r.Screen(), "command cancelled") {
		t.Errorf("want the command's cancellation shown before the exit, the screen is:\n%s", frame(r.Screen()))
	}
	assertCooked(t, r)
	assertResumeLineLast(t, r, assertRestored(t, r))
}

// TestLineModeCtrlDDuringAHungCompactSaysWhyAndCtrlCLeaves: Ctrl+D ends
// input but the running command holds the exit, so line mode says so; the
// Ctrl+C it points to cancels the command, and tack leaves with the
// terminal restored.
func TestLineModeCtrlDDuringAHungCompactSaysWhyAndCtrlCLeaves(t *testing.T) {
	r, _ := hungCompact(t)
	ctrl('d')(r)
	r.waitScreen("the reason tack stays", []string{"Input ended: tack exits once the running work ends; Ctrl+C cancels it."}, nil)
	ctrl('c')(r)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 once the cancelled command settled, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
	if !strings.Contains(r.Screen(), "command cancelled") {
		t.Errorf("want the command shown cancelled, got:\n%s", frame(r.Screen()))
	}
	assertCooked(t, r)
}
