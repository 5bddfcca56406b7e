package launch

import (
	"path/filepath"
	"regexp"
	"slices"
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

// Claude Code's auto memory of the project (MEMORY.md in its folder under
// ~/.claude/projects, or the user's autoMemoryDirectory) reaches the
// model, unless the settings or the environment turn it off; a project's
// shared settings may not move it.
func TestClaudeCodeAutoMemoryReachesTheModel(t *testing.T) {
	cases := []struct {
		name                string
		user, project, env  string
		elsewhere, want     bool
		wantProblemContains string
	}{
		{name: "its folder", want: true},
		{name: "turned off", user: `{"autoMemoryEnabled": false}`},
		{name: "turned off by the environment", env: "1"},
		{name: "the user's folder", user: `{"autoMemoryDirectory": "~/notes"}`, elsewhere: true, want: true},
		{name: "not a project's folder", project: `{"autoMemoryDirectory": "/tmp"}`, want: true,
			wantProblemContains: ".claude/settings.json: autoMemoryDirectory is not taken from a project's shared settings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
			// Claude Code's rule, as hapi's getProjectPath writes it.
			memory := filepath.Join(userHome, ".claude", "projects", regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(cwd, "-"), "memory")
			if c.elsewhere {
				memory = filepath.Join(userHome, "notes")
			}
			files := map[string]string{filepath.Join(memory, "MEMORY.md"): "- Build with `make fast`; see [debugging](debugging.md)."}
			if c.user != "" {
				files[filepath.Join(userHome, ".claude", "settings.json")] = c.user
			}
			if c.project != "" {
				files[filepath.Join(cwd, ".claude", "settings.json")] = c.project
			}
			testkit.WriteTree(t, "/", files)
			llm := llmtest.New(t, llmtest.ReplyText("ok"))
			s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": userHome, "CLAUDE_CODE_DISABLE_AUTO_MEMORY": c.env})
			runTurn(t, s, "hi")
			system := llm.Requests()[0].Messages[0].Content
			want := `<instructions path="` + filepath.Join(memory, "MEMORY.md") + `">` + "\n- Build with `make fast`"
			if got := strings.Contains(system, want); got != c.want {
				t.Errorf("the system prompt holds the memory: %v, want %v", got, c.want)
			}
			if c.wantProblemContains != "" && !slices.ContainsFunc(notices(t, s), func(n string) bool { return strings.Contains(n, c.wantProblemContains) }) {
				t.Errorf("no notice says %q: %q", c.wantProblemContains, notices(t, s))
			}
		})
	}
}
