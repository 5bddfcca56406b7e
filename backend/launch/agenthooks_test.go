package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// partition splits reqs into those match refuses and those it takes.
func partition(reqs []llmtest.Request, match func(llmtest.Request) bool) (others, matched []llmtest.Request) {
	for _, r := range reqs {
		if match(r) {
			matched = append(matched, r)
		} else {
			others = append(others, r)
		}
	}
	return others, matched
}

// An agent hook (Claude Code's "type": "agent") runs a subagent with
// read-only tools and no thinking, whose calls meet no hooks; its
// {"ok": false} keeps the stop going with its reason, as a prompt
// hook's does, and its {"ok": true} lets the turn end.
func TestAgentStopHookVerifiesWithReadOnlyTools(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	calls := filepath.Join(t.TempDir(), "calls")
	testkit.WriteFile(t, filepath.Join(cwd, "main.go"), "package main\n\n// TODO: remove the debug print\n")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {
  "Stop": [{"hooks": [{"type": "agent", "prompt": "Verify that main.go has no TODO left. $ARGUMENTS"}]}],
  "PreToolUse": [{"hooks": [{"type": "command", "command": "cat >> ` + calls + `"}]}]}}`})
	llm := llmtest.New(t, llmtest.ReplyText("Done."), llmtest.ReplyText("Removed the TODO."))
	verifying := func(r llmtest.Request) bool {
		return strings.Contains(r.Messages[0].Content, "You are verifying a hook condition")
	}
	llm.Route(verifying,
		llmtest.Reply(llmtest.ToolCall("v1", "read", `{"file_path":"main.go"}`, 1)),
		llmtest.ReplyText(`{"ok": false, "reason": "main.go still has a TODO."}`),
		llmtest.ReplyText(`{"ok": true, "reason": ""}`))
	s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Clean up main.go.")
	main, verified := partition(llm.Requests(), verifying)
	if len(main) != 2 || len(verified) != 3 {
		t.Fatalf("%d requests of the turn and %d of the hook's subagent, want 2 and 3", len(main), len(verified))
	}
	if got := lastMessage(main[1]).Content; !strings.Contains(got, "main.go still has a TODO.") {
		t.Errorf("the turn went on without the hook's reason: %q", got)
	}
	v := verified[0]
	if tools := v.ToolNames(); !slices.Equal(slices.Sorted(slices.Values(tools)), []string{"glob", "grep", "read"}) {
		t.Errorf("the hook's subagent was offered %q, want the read-only tools", tools)
	}
	if q := lastMessage(v).Content; !strings.Contains(q, "Verify that main.go has no TODO left.") ||
		!strings.Contains(q, `"last_assistant_message":"Done."`) {
		t.Errorf("the hook's subagent was asked %q", q)
	}
	if v.Thinking == nil || v.Thinking.Type != "disabled" {
		t.Errorf("the hook's subagent thinks: %+v", v.Thinking)
	}
	if got := verified[1].ToolResult("v1"); !strings.Contains(got, "TODO: remove the debug print") {
		t.Errorf("the subagent's read answered %q", got)
	}
	if b, err := os.ReadFile(calls); err == nil {
		t.Errorf("the subagent's calls ran the session's PreToolUse hook: %s", b)
	}
	runs := hookRuns(s)
	if len(runs) != 2 || runs[0].Outcome != "blocked" || runs[1].Outcome != "ok" || !strings.HasPrefix(runs[0].Command, "agent: ") {
		t.Errorf("hook runs = %+v", runs)
	}
}

// An agent hook's subagent stops after 50 steps, as Claude Code's does
// after 50 turns; a hook that did not answer by then fails and blocks
// nothing.
func TestAgentHookSubagentStopsAfterFiftySteps(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteFile(t, filepath.Join(cwd, "main.go"), "package main\n")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {
  "Stop": [{"hooks": [{"type": "agent", "prompt": "Verify that main.go builds."}]}]}}`})
	llm := llmtest.New(t, llmtest.ReplyText("Done."))
	verifying := func(r llmtest.Request) bool {
		return strings.Contains(r.Messages[0].Content, "You are verifying a hook condition")
	}
	var reads []llmtest.Response
	for range 60 {
		reads = append(reads, llmtest.Reply(llmtest.ToolCall("v", "read", `{"file_path":"main.go"}`, 1)))
	}
	llm.Route(verifying, reads...)
	s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Build it.")
	_, verified := partition(llm.Requests(), verifying)
	n := len(verified)
	runs := hookRuns(s)
	if n != agentHookSteps || len(runs) != 1 || runs[0].Outcome != "failed" || lastTurnEnd(s).Reason != "completed" {
		t.Errorf("%d requests of the subagent (want %d), hook runs %+v, turn end %+v", n, agentHookSteps, runs, lastTurnEnd(s))
	}
}
