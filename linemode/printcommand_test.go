package linemode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// printCommand runs print mode on task in a project whose
// .claude/commands holds files (name → content), against srv.
func printCommand(t *testing.T, srv *llmtest.Server, files map[string]string, o PrintOptions) (PrintOutcome, string, string) {
	t.Helper()
	home, cwd := t.TempDir(), t.TempDir()
	for name, content := range files {
		testkit.WriteFile(t, filepath.Join(cwd, ".claude", "commands", name), content)
	}
	env := map[string]string{"DEEPSEEK_API_KEY": "test", "DEEPSEEK_BASE_URL": srv.URL()}
	return printWith(t, func() (*launch.Session, error) {
		return launch.Open(launch.Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Now: peakClock()})
	}, o)
}

// A task naming a Claude Code command runs it, as claude -p does: the
// model gets the expanded prompt, on the session's model where the file
// names Claude's, and the turn keeps print mode's flags (here its step
// limit, which ends it).
func TestPrintRunsACustomCommand(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "read", `{"file_path":"go.mod"}`, 1)))
	review := "---\nargument-hint: [pr] [priority]\nmodel: claude-3-5-haiku-20241022\nallowed-tools: Read\n---\nReview PR #$0 with priority $1.\n"
	out, _, _ := printCommand(t, srv, map[string]string{"review.md": review},
		PrintOptions{Task: "/review 42 high", Format: FormatJSON, Turn: agent.TurnOptions{MaxSteps: 1}})
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("want one model request, got %d", len(reqs))
	}
	last := reqs[0].Messages[len(reqs[0].Messages)-1]
	if !strings.Contains(last.Content, "Review PR #42 with priority high.") || strings.Contains(last.Content, "/review") {
		t.Errorf("want the command's prompt sent, expanded, got %s", last.Content)
	}
	if reqs[0].Model == "claude-3-5-haiku-20241022" {
		t.Errorf("want the session's model for a Claude model name, got %s", reqs[0].Model)
	}
	if res := out.Results[0]; res.Subtype != subtypeMaxTurns || res.NumTurns != 1 {
		t.Errorf("want the turn ended by --max-turns 1, got %+v", res)
	}
}

// A built-in command answers by itself: its text is the result, of no
// turns; a slash that names no command fails without reaching the model.
func TestPrintRunsBuiltInsAndRefusesUnknownCommands(t *testing.T) {
	srv := llmtest.New(t)
	out, stdout, _ := printCommand(t, srv, nil, PrintOptions{Task: "/status", Format: FormatText})
	if !out.OK() || out.Results[0].NumTurns != 0 || !strings.Contains(stdout, "Session status") {
		t.Errorf("/status: want the status as a result of no turns, got %+v and %q", out.Results[0], stdout)
	}
	out, stdout, stderr := printCommand(t, srv, nil, PrintOptions{Task: "/nosuch thing", Format: FormatText})
	if out.OK() || stdout != "" || !strings.Contains(stderr, "Unknown command: /nosuch") {
		t.Errorf("/nosuch: want a failure on stderr, got %+v, %q, %q", out.Results[0], stdout, stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("want no model request for commands, got %d", n)
	}
}
