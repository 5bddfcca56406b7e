package hooks

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/tools"
)

// promptHooks reads hooks from a Claude Code settings file's JSON, as a
// user writes prompt hooks there.
func promptHooks(t *testing.T, settings string) []Hook {
	t.Helper()
	s, err := config.ParseClaudeSettings("settings.json", []byte(settings))
	if err != nil {
		t.Fatal(err)
	}
	hs, problems := FromConfig(s.Hooks, "settings.json", false)
	if len(problems) > 0 {
		t.Fatalf("problems: %q", problems)
	}
	return hs
}

// A prompt hook asks a model with its prompt, $ARGUMENTS replaced by the
// hook's input; the model's {"ok": false} keeps a stop going with its
// reason, and blocks a tool call; {"ok": true} lets both be. The model's
// name is asked for unless it is one of Claude's.
func TestPromptHooksAskAModel(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {
  "Stop": [{"hooks": [{"type": "prompt", "prompt": "Evaluate if the agent should stop: $ARGUMENTS. Check the tests ran."}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "Is this command safe?", "model": "deepseek-flash", "timeout": 5}]}],
  "PostToolUse": [{"hooks": [{"type": "prompt", "prompt": "Judge it.", "model": "claude-haiku-4-5"}]}]}}`)
	var asked []string
	answer := `{"ok": false, "reason": "The tests did not run."}`
	judge := func(_ context.Context, model, system, user string) (string, error) {
		asked = append(asked, model+"|"+user)
		if !strings.Contains(system, `{"ok": true`) {
			t.Errorf("the system prompt does not ask for the verdict's shape: %q", system)
		}
		return answer, nil
	}
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Judge: judge})
	ctx := context.Background()
	if got := r.Stopping(ctx, 1, false, "All done."); got != "The tests did not run." {
		t.Errorf("the stop went on with %q", got)
	}
	if len(asked) != 1 || !strings.HasPrefix(asked[0], "|Evaluate if the agent should stop: {") || !strings.Contains(asked[0], `"hook_event_name":"Stop"`) ||
		!strings.Contains(asked[0], `"last_assistant_message":"All done."`) {
		t.Fatalf("asked %q", asked)
	}
	call := agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"rm -rf build"}`)}
	if block := r.BeforeTool(ctx, 1, call).Block; block != "The tests did not run." {
		t.Errorf("the tool call went on: %q", block)
	}
	if last := asked[len(asked)-1]; !strings.HasPrefix(last, "deepseek-flash|Is this command safe?\n\n{") || !strings.Contains(last, "rm -rf build") {
		t.Errorf("without $ARGUMENTS the input follows the prompt: %q", last)
	}
	answer = "Sure.\n```json\n{\"ok\": true, \"reason\": \"\"}\n```"
	if got := r.Stopping(ctx, 1, false, "All done."); got != "" {
		t.Errorf("a fenced ok stopped nothing, yet the stop went on with %q", got)
	}
	r.AfterTool(ctx, 1, call, tools.Result{Text: "done"})
	if last := asked[len(asked)-1]; !strings.HasPrefix(last, "|Judge it.") {
		t.Errorf("a Claude model's name should ask the session's model: %q", last)
	}
}

// A model that answers no verdict, or cannot be asked, fails the hook:
// nothing is blocked.
func TestAPromptHookWithoutAVerdictBlocksNothing(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "Done?"}]}]}}`)
	for name, judge := range map[string]Judge{
		"no verdict": func(context.Context, string, string, string) (string, error) { return "I think so.", nil },
		"no model":   nil,
	} {
		var failed []string
		r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Judge: judge})
		res := r.runFor(context.Background(), caller{}, 1, Stop, Input{}, "")
		for _, x := range res {
			if x.Outcome == OutcomeFailed {
				failed = append(failed, x.Reason)
			}
		}
		if len(failed) != 1 {
			t.Errorf("%s: results %+v", name, res)
		}
		if got := r.Stopping(context.Background(), 1, false, ""); got != "" {
			t.Errorf("%s: the stop went on with %q", name, got)
		}
	}
}

// A prompt or agent hook without its prompt is a problem, as is a type
// tack does not run; an agent hook is read with Claude Code's default
// timeout, and one of Claude's model names means the session's model.
func TestPromptHookProblems(t *testing.T) {
	s, _ := config.ParseClaudeSettings("settings.json", []byte(`{"hooks": {"Stop": [
  {"hooks": [{"type": "prompt"}]}, {"hooks": [{"type": "agent"}]}, {"hooks": [{"type": "mcp_tool", "prompt": "x"}]},
  {"hooks": [{"type": "agent", "prompt": "Verify.", "model": "claude-sonnet-4-6"}]}]}}`))
	hs, problems := FromConfig(s.Hooks, "settings.json", false)
	if len(hs) != 1 || hs[0].Prompt == nil || !hs[0].Prompt.Agent || hs[0].Prompt.Model != "" || hs[0].Timeout != AgentTimeout ||
		hs[0].Command != "agent: Verify." {
		t.Errorf("hooks %+v", hs)
	}
	if len(problems) != 3 || !strings.Contains(problems[0], "a prompt hook without a prompt") ||
		!strings.Contains(problems[1], "an agent hook without a prompt") ||
		!strings.Contains(problems[2], `hook type "mcp_tool" is not supported; use command, http, prompt or agent hooks`) {
		t.Errorf("problems %q", problems)
	}
}
