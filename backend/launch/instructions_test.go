package launch

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// A project's CLAUDE.md and Claude Code rules, and the user's rules,
// reach the model's system prompt in a real session; a scoped rule says
// what it applies to.
func TestClaudeCodeMemoryAndRulesReachTheModel(t *testing.T) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		"CLAUDE.md":                 "Project memory: use tabs.",
		".claude/rules/testing.md":  "Rule: table tests.",
		".claude/rules/api/http.md": "---\npaths: [\"api/**/*.go\"]\n---\nRule: wrap errors.",
	})
	testkit.WriteFile(t, userHome+"/.claude/rules/me.md", "Rule: answer in English.")
	llm := llmtest.New(t, llmtest.ReplyText("ok"))
	s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": userHome})
	runTurn(t, s, "hi")
	system := llm.Requests()[0].Messages[0].Content
	for _, want := range []string{"Project memory: use tabs.", "Rule: table tests.", "Rule: answer in English.", `applies_to="api/**/*.go">` + "\nRule: wrap errors."} {
		if !strings.Contains(system, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
}
