package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// /init runs a turn whose prompt asks for AGENTS.md (the transcript shows
// what was typed), and the model's write lands in the workspace.
func TestInitAsksTheModelForAgentsMD(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "write", `{"file_path":"AGENTS.md","content":"# Guide\n\nRun go test ./...\n"}`, 2)),
		llmtest.ReplyText("Wrote AGENTS.md."),
	)
	s := openMCP(t, home, cwd, "auto", llm)
	runCommand(t, s, "/init the tests")
	reqs := requests(t, llm, 2)
	prompt := lastMessage(reqs[0]).Content
	if !strings.HasPrefix(prompt, "Write AGENTS.md at the root") || !strings.HasSuffix(prompt, "attend to this too: the tests") {
		t.Errorf("the turn's prompt is %q", prompt)
	}
	if got, err := os.ReadFile(filepath.Join(cwd, "AGENTS.md")); err != nil || !strings.Contains(string(got), "go test") {
		t.Errorf("AGENTS.md: %q (%v)", got, err)
	}
	found := false
	for _, e := range s.Agent.Events() {
		if m, ok := e.Data.(session.UserMessage); ok {
			found = found || m.Input() == "/init the tests"
		}
	}
	if !found {
		t.Error("the log does not keep what was typed")
	}
}
