package hooks

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
)

// asker is a Judge that answers answer and remembers what it was asked.
type asker struct {
	answer string
	asked  []string // model, system and user of each question, joined
}

func (a *asker) judge(_ context.Context, model, system, user string) (string, error) {
	a.asked = append(a.asked, model+"\n"+system+"\n"+user)
	return a.answer, nil
}

// An agent hook (Claude Code's "type": "agent") is answered by Verify, a
// subagent with read-only tools, never by the prompt hooks' Judge, and
// its {"ok": false} is read as a prompt hook's is: a stop goes on with
// its reason, a tool call is blocked.
func TestAgentHooksAskTheVerifier(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {
  "Stop": [{"hooks": [{"type": "agent", "prompt": "Verify that the tests ran and passed: $ARGUMENTS", "model": "deepseek-flash"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "agent", "prompt": "Is the branch protected?"}]}]}}`)
	judge := &asker{answer: `{"ok": true}`}
	verify := &asker{answer: "Checked.\n```json\n{\"ok\": false, \"reason\": \"The tests were not run.\"}\n```"}
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Judge: judge.judge, Verify: verify.judge})
	if got := r.Stopping(context.Background(), 1, false, "All done."); got != "The tests were not run." {
		t.Errorf("the stop went on with %q", got)
	}
	block := r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"git push"}`)}).Block
	if block != "The tests were not run." {
		t.Errorf("the call was blocked with %q", block)
	}
	if len(judge.asked) != 0 || len(verify.asked) != 2 {
		t.Fatalf("the judge was asked %d times and the verifier %d, want 0 and 2", len(judge.asked), len(verify.asked))
	}
	stop := verify.asked[0]
	if !strings.HasPrefix(stop, "deepseek-flash\n") || !strings.Contains(stop, "read-only tools") ||
		!strings.Contains(stop, `Verify that the tests ran and passed: {"session_id"`) || !strings.Contains(stop, `"last_assistant_message":"All done."`) {
		t.Errorf("the verifier was asked %q", stop)
	}
	if q := verify.asked[1]; !strings.Contains(q, "Is the branch protected?\n\n{") || !strings.Contains(q, `"command":"git push"`) {
		t.Errorf("the verifier was asked %q", q)
	}
}

// Without a verifier an agent hook fails, and blocks nothing.
func TestAgentHookWithoutAVerifierBlocksNothing(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"Stop": [{"hooks": [{"type": "agent", "prompt": "Verify."}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Record: g.record})
	if got := r.Stopping(context.Background(), 1, false, "done"); got != "" {
		t.Errorf("the stop went on with %q", got)
	}
	if _, runs := g.snapshot(); len(runs) != 1 || runs[0].Outcome != "failed" || !strings.Contains(runs[0].Reason, "no model to answer agent hooks") {
		t.Errorf("recorded %s", g.String())
	}
}
