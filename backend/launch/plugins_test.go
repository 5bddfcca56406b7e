package launch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// writePlugin writes a Claude Code plugin, laid out as Claude Code's
// plugin docs and published plugins lay them out, named name in dir, with
// an MCP server that logs its calls to calls.jsonl in the plugin's folder.
func writePlugin(t *testing.T, dir, name string) {
	t.Helper()
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"kit": fakeServerJSON("${CLAUDE_PLUGIN_ROOT}/calls.jsonl")}})
	testkit.WriteTree(t, dir, map[string]string{
		".claude-plugin/plugin.json":  `{"name": "` + name + `", "version": "1.2.0", "description": "Review helpers", "author": {"name": "A. Dev"}}`,
		"commands/review.md":          "---\ndescription: Review a change\nargument-hint: [file]\n---\nReview $ARGUMENTS with the checklist.",
		"agents/critic.md":            "---\nname: critic\ndescription: Finds faults in a change\ntools: Read, Grep\n---\nFind the faults.",
		"skills/checklist/SKILL.md":   "---\nname: checklist\ndescription: The review checklist; use when reviewing\n---\n1. Tests.",
		"hooks/hooks.json":            `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "cat ${CLAUDE_PLUGIN_ROOT}/notes.txt; echo root=$CLAUDE_PLUGIN_ROOT"}]}]}}`,
		"notes.txt":                   "Plugin notes: review small diffs.",
		".mcp.json":                   string(mcpJSON),
		"commands/nested/deep/one.md": "Deep.",
	})
}

// A plugin Claude Code installed and the user's settings turn on brings
// its commands (/NAME:cmd), agents and skills (NAME:x), hooks (with
// CLAUDE_PLUGIN_ROOT) and MCP servers; one turned off brings nothing, and
// --plugin-dir loads one from a folder.
func TestInstalledAndGivenPluginsBringWhatTheyHold(t *testing.T) {
	home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
	kit := filepath.Join(user, ".claude", "plugins", "cache", "market", "reviewkit", "1.2.0")
	off := filepath.Join(user, ".claude", "plugins", "cache", "market", "offkit", "0.1.0")
	writePlugin(t, kit, "reviewkit")
	writePlugin(t, off, "offkit")
	given := filepath.Join(t.TempDir(), "localkit")
	testkit.WriteTree(t, given, map[string]string{"commands/hello.md": "Say hello."})
	installed, _ := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{
		"reviewkit@market": []map[string]any{{"scope": "user", "installPath": kit, "version": "1.2.0"}},
		"offkit@market":    []map[string]any{{"scope": "user", "installPath": off, "version": "0.1.0"}},
	}})
	testkit.WriteTree(t, user, map[string]string{
		".claude/plugins/installed_plugins.json": string(installed),
		".claude/settings.json":                  `{"enabledPlugins": {"reviewkit@market": true, "offkit@market": false}}`,
	})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__kit__echo", `{"text":"hi"}`, 2)),
		llmtest.ReplyText("Done."))
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test", PermissionMode: "auto",
		PluginDirs: []PluginDir{{Path: given}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for _, name := range []string{"reviewkit:review", "reviewkit:nested:deep:one", "localkit:hello"} {
		if _, ok := s.Commands.Find(s.Agent.SessionID(), name); !ok {
			t.Errorf("no /%s", name)
		}
	}
	if _, ok := s.Commands.Find(s.Agent.SessionID(), "offkit:review"); ok {
		t.Error("a plugin turned off brought its commands")
	}
	if _, ok := s.Skills.Find("reviewkit:checklist"); !ok {
		t.Errorf("no skill reviewkit:checklist in %+v", s.Skills.Skills)
	}
	runTurn(t, s, "Review.")
	req := llm.Requests()[0]
	var all strings.Builder
	for _, m := range req.Messages {
		all.WriteString(m.Content)
	}
	if got := all.String(); !strings.Contains(got, "Plugin notes: review small diffs.") || !strings.Contains(got, "root="+kit) ||
		strings.Count(got, "Plugin notes") != 1 {
		t.Errorf("want the session_start hook of reviewkit alone, with CLAUDE_PLUGIN_ROOT, in the first request:\n%s", got)
	}
	if tools := strings.Join(req.ToolNames(), " "); !strings.Contains(tools, "mcp__kit__echo") {
		t.Errorf("the plugin's MCP server's tools are not offered: %s", tools)
	}
	if got := llm.Requests()[1].ToolResult("call_1"); got != "echo: hi" {
		t.Errorf("the call of the plugin's server answered %q", got)
	}
	if _, err := os.Stat(filepath.Join(kit, "calls.jsonl")); err != nil {
		t.Errorf("the server's ${CLAUDE_PLUGIN_ROOT} was not the plugin's folder: %v", err)
	}
	if spec := taskSpec(t, req); !strings.Contains(spec, "reviewkit:critic") || strings.Contains(spec, "offkit") {
		t.Errorf("the task tool offers:\n%s", spec)
	}
}

// taskSpec is the description of the task tool in req.
func taskSpec(t *testing.T, req llmtest.Request) string {
	t.Helper()
	for _, tool := range req.Tools {
		if tool.Function.Name == "task" {
			return tool.Function.Description + string(tool.Function.Parameters)
		}
	}
	t.Fatal("no task tool")
	return ""
}

// A plugin installed for a project (`claude plugin install --scope
// project`, which turns it on in the project's .claude/settings.json)
// brings its commands at once, and its hooks and MCP servers once the
// user approves the project's: unanswered, they do not run.
func TestAPluginAProjectTurnsOnRunsOnceApproved(t *testing.T) {
	home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
	kit := filepath.Join(user, ".claude", "plugins", "cache", "market", "reviewkit", "1.2.0")
	writePlugin(t, kit, "reviewkit")
	installed, _ := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{
		"reviewkit@market": []map[string]any{{"scope": "project", "projectPath": cwd, "installPath": kit, "version": "1.2.0"}},
	}})
	testkit.WriteFile(t, filepath.Join(user, ".claude", "plugins", "installed_plugins.json"), string(installed))
	testkit.WriteFile(t, filepath.Join(cwd, ".claude", "settings.json"), `{"enabledPlugins": {"reviewkit@market": true}}`)
	for _, approve := range []bool{false, true} {
		llm := llmtest.New(t, llmtest.ReplyText("Done."))
		s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": user})
		var asked *atomic.Int32
		if approve {
			asked = answerQuestions(t, s.Broker, approveSession)
		}
		if _, ok := s.Commands.Find(s.Agent.SessionID(), "reviewkit:review"); !ok {
			t.Errorf("approved %v: no /reviewkit:review", approve)
		}
		runTurn(t, s, "Review.")
		req := llm.Requests()[0]
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(m.Content)
		}
		hookRan := strings.Contains(all.String(), "Plugin notes")
		offered := slices.Contains(req.ToolNames(), "mcp__kit__echo")
		if hookRan != approve || offered != approve {
			t.Errorf("approved %v: its session_start hook ran %v, its server's tool offered %v", approve, hookRan, offered)
		}
		if approve && asked.Load() != 2 {
			t.Errorf("asked %d questions, want one for the hooks and one for the servers", asked.Load())
		}
		s.Close()
	}
}
