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
		step{do: both(typed("run it"), key(vt.KeyEnter))}, // auto mode: runs in the sandbox unasked
	)
	screen := r.waitText("live output", "○ Bash(echo first-of-many; sleep 120)", "first-of-many", "running ", "esc to interrupt")
	if strings.Contains(screen, "✓ Bash") {
		t.Fatalf("want the command still running, got:\n%s", frame(screen))
	}
	r.Key(vt.KeyEscape)
	r.waitText("cancelled", "Turn cancelled.")
}

// TestEscPutsQueuedMessagesBackInTheEditor: two messages queued while a
// turn runs show above the editor; Esc cancels the turn and leaves both
// in the editor instead of discarding them.
func TestEscPutsQueuedMessagesBackInTheEditor(t *testing.T) {
	r := startStalledTurn(t, llmtest.Text("Working on it", 0))
	r.script(
		step{want: []string{"Working on it"}, do: both(typed("also the README"), key(vt.KeyEnter))},
		step{want: []string{"↳ also the README"}, do: both(typed("and the changelog"), key(vt.KeyTab))},
		step{want: []string{"» and the changelog", "2 queued"}, do: key(vt.KeyEscape)},
	)
	// The editor is the screen's last two rows; waiting for them as well
	// keeps a screen read mid-frame from failing the test.
	r.waitScreen("both queued messages in the editor",
		[]string{"Turn cancelled.", "The 2 queued messages are back in the editor."},
		func(screen string) bool {
			rows := strings.Split(strings.TrimRight(screen, "\n "), "\n")
			editor := strings.Join(rows[max(len(rows)-2, 0):], "\n")
			return strings.Contains(editor, "> also the README") && strings.Contains(editor, "  and the changelog")
		})
}
