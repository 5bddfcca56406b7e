package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// claude -p ends the background hooks still running once its turn is
// over; so does tack -p: an asyncRewake hook that would exit 2 later is
// ended (its run logged as cancelled) instead of being waited for, and
// wakes nothing.
func TestPrintEndsBackgroundHooksWithItsTurn(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, home, map[string]string{".claude/settings.json": `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "asyncRewake": true, "command": "for i in $(seq 1 500); do sleep 0.02; done; echo 'woke too late' >&2; exit 2"}]}]}}`})
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo ran-it","description":"Echo"}`, 1)),
		llmtest.ReplyText("Ran it."),
	)
	r := startTackIn(t, srv, home, dir, "-p", "run", "--permission-mode", "full-access")
	r.closeStdin()
	r.wantExit(0)
	if got := r.stdout.String(); got != "Ran it.\n" {
		t.Errorf("want stdout exactly the answer, got %q", got)
	}
	logs, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("want one session log, got %q", logs)
	}
	b, _ := os.ReadFile(logs[0])
	if log := string(b); !strings.Contains(log, `"type":"hook/run"`) || !strings.Contains(log, `"reason":"cancelled"`) || strings.Contains(log, "exited 2 and reports") {
		t.Errorf("want the hook's run logged as cancelled and no wake, got:\n%s", log)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("want the print turn's 2 requests, got %d", n)
	}
}
