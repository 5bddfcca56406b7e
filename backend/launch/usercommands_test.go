package launch

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestCustomCommandRunsItsPromptOnItsModelWithItsAllowedTools(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{".claude/commands/git/status.md": "---\ndescription: Show the status\nmodel: deepseek-v4-pro\n" +
		"allowed-tools: Bash(echo:*)\n---\nRun `echo $1` and report on $ARGUMENTS."})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo tracked","description":"Print the word"}`, 1)),
		llmtest.ReplyText("Reported."),
	)
	s := openMCP(t, home, cwd, "ask", llm) // nobody can answer: an ask would be denied
	runCommand(t, s, "/git:status tracked files")
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests: %d", len(reqs))
	}
	last := reqs[0].Messages[len(reqs[0].Messages)-1]
	if last.Role != "user" || last.Content != "Run `echo tracked` and report on tracked files." {
		t.Errorf("the model read %+v", last)
	}
	if reqs[0].Model != "deepseek-v4-pro" {
		t.Errorf("model = %q, want the command's", reqs[0].Model)
	}
	if got := reqs[1].ToolResult("call_1"); !strings.Contains(got, "tracked") || strings.HasPrefix(got, "Error") {
		t.Errorf("the allowed command did not run: %q", got)
	}
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.ApprovalDecided); ok && d.Policy != "allowed-tools" {
			t.Errorf("decided by %+v, want allowed-tools", d)
		}
	}
}
