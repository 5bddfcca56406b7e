package pty

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestRunningCommandShowsItsOutputBeforeItEnds: a command that prints and
// then runs on shows what it printed in its card, with its clock and the
// working line, while it still runs; Esc then cancels it.
func TestRunningCommandShowsItsOutputBeforeItEnds(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo first-of-many; sleep 120","description":"Run long"}`, 2)),
		llmtest.Reply(llmtest.Text("Stopped.", 0)),
	)
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(
		step{do: both(typed("run it"), key(vt.KeyEnter))},
		step{want: []string{"Allow bash?", "y allow"}, pause: readPause, do: typed("y")},
	)
	screen := r.waitText("live output", "○ Bash(echo first-of-many; sleep 120)", "first-of-many", "running ", "esc to interrupt")
	if strings.Contains(screen, "✓ Bash") {
		t.Fatalf("want the command still running, got:\n%s", frame(screen))
	}
	r.Key(vt.KeyEscape)
	r.waitText("cancelled", "Turn cancelled.")
}
