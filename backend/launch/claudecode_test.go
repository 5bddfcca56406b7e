package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// TestClaudeCodeArgumentFormsAreAccepted runs, through a real session and
// its tools, the argument shapes models trained on Claude Code send
// (providers.md §3, seen verbatim in public Claude Code transcripts): each
// call must run, not be refused as invalid.
func TestClaudeCodeArgumentFormsAreAccepted(t *testing.T) {
	calls := []struct{ name, args string }{
		{"todo_write", `{"todos":[{"content":"Find the handler","status":"in_progress","activeForm":"Finding the handler"},{"content":"Fix it","status":"pending","activeForm":"Fixing it"}]}`},
		{"grep", `{"pattern":"handler","output_mode":"content","glob":"*.go","-n":true,"-i":true,"-C":1,"head_limit":20}`},
		{"grep", `{"pattern":"func\\s+\\w+\\(\\)\\s*\\{\\n","type":"go","multiline":true,"output_mode":"count"}`},
		{"grep", `{"pattern":"Handler","output_mode":"files_with_matches","-A":2,"-B":1}`},
		{"bash", `{"command":"echo hi","timeout":120000}`},
		{"bash", `{"command":"sleep 30","description":"Wait in the background","run_in_background":true}`},
		{"bash_output", `{"bash_id":"bash-1"}`},
		{"bash_kill", `{"shell_id":"bash-1"}`},
	}
	var script []llmtest.Response
	for i, c := range calls {
		script = append(script, llmtest.Reply(llmtest.Reasoning("Next.", 0), llmtest.ToolCall("call_"+string(rune('a'+i)), c.name, c.args, 2)))
	}
	script = append(script, llmtest.ReplyText("Done."))
	srv := llmtest.New(t, script...)
	home, cwd := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(cwd, "main.go"), []byte("package main\n\n// Handler serves.\nfunc handler() {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": srv.URL()}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: "full-access",
		Now: func() time.Time { return time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runTurn(t, s, "find and fix the handler")
	srv.AssertConsumed(t)
	var results []session.ToolResult
	for _, e := range s.Agent.Events() {
		if r, ok := e.Data.(session.ToolResult); ok {
			results = append(results, r)
		}
	}
	if len(results) != len(calls) {
		t.Fatalf("want %d results, got %d", len(calls), len(results))
	}
	for i, r := range results {
		if r.IsError || strings.Contains(r.Text, "invalid") {
			t.Errorf("%s %s: want it run, got %q", calls[i].name, calls[i].args, r.Text)
		}
	}
	if got := results[1].Text; !strings.Contains(got, "main.go:3:// Handler serves.") || !strings.Contains(got, "main.go-2-") {
		t.Errorf("want grep's content lines with context, got %q", got)
	}
	if got := results[2].Text; !strings.HasPrefix(got, filepath.Join(cwd, "main.go")+":1\n") {
		t.Errorf("want grep's multiline count, got %q", got)
	}
}
