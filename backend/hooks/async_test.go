package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// gathered collects, safely across goroutines, what a runner's
// callbacks are handed.
type gathered struct {
	mu    sync.Mutex
	texts []string
	runs  []session.HookRun
}

func (g *gathered) text(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.texts = append(g.texts, s)
}

func (g *gathered) record(d session.Data) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.runs = append(g.runs, d.(session.HookRun))
	return nil
}

func (g *gathered) snapshot() ([]string, []session.HookRun) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.texts...), append([]session.HookRun(nil), g.runs...)
}

func (g *gathered) String() string {
	texts, runs := g.snapshot()
	b, _ := json.Marshal(map[string]any{"texts": texts, "runs": runs})
	return string(b)
}

// An async hook's answer arrives after the call it was about: its
// systemMessage and additionalContext go to the model (Inject) and the
// systemMessage to the user (the run's notice); its block changes
// nothing, and says so.
func TestAsyncHookAnswerReachesTheModelAndTheUser(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "async": true,
  "command": "echo '{\"systemMessage\": \"lint found 2 problems\", \"decision\": \"block\", \"reason\": \"fix them\", \"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"src/a.go:3: x is unused\"}}'"}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Record: g.record, Inject: g.text})
	defer r.Close()
	note := r.AfterTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "edit", Args: json.RawMessage(`{"file_path":"src/a.go"}`)}, tools.Result{Text: "ok"})
	if note != "" {
		t.Errorf("the call waited for the async hook's answer: %q", note)
	}
	testkit.Eventually(t, "the async hook's answer delivered", func() bool {
		texts, runs := g.snapshot()
		return len(texts) == 1 && len(runs) == 1
	}, g.String)
	texts, runs := g.snapshot()
	if !strings.Contains(texts[0], "lint found 2 problems") || !strings.Contains(texts[0], "src/a.go:3: x is unused") ||
		!strings.Contains(texts[0], "post_tool_use") {
		t.Errorf("the model is given %q", texts[0])
	}
	n := runs[0].Notice()
	if !runs[0].Async || runs[0].Message != "lint found 2 problems" || !strings.Contains(n, "says: lint found 2 problems") ||
		!strings.Contains(n, "too late to block anything: fix them") {
		t.Errorf("recorded %+v, notice %q", runs[0], n)
	}
}

// An async hook that answers no systemMessage and no additionalContext
// gives the model nothing; its plain stdout is only recorded, as in
// Claude Code, which reads only a JSON answer of a background hook.
func TestAsyncHookWithoutAMessageGivesTheModelNothing(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "async": true, "command": "echo plain text"}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Record: g.record, Inject: g.text})
	defer r.Close()
	if _, extra := r.PromptSubmitted(context.Background(), 1, "hi"); extra != "" {
		t.Errorf("the prompt waited for the async hook: %q", extra)
	}
	testkit.Eventually(t, "the async hook's run recorded", func() bool { _, runs := g.snapshot(); return len(runs) == 1 }, g.String)
	r.Close() // waits for what follows the record
	texts, runs := g.snapshot()
	if len(texts) != 0 || len(runs) != 1 || runs[0].Output != "plain text" || runs[0].Notice() != "" {
		t.Errorf("gathered %s", g.String())
	}
}

// "asyncRewake": true runs a hook in the background (the call goes on
// though it exits 2) and, when it exits 2, wakes the model with its
// stderr, or its stdout when stderr is empty. An exit 0, or an async
// hook without asyncRewake that exits 2, wakes nothing.
func TestAsyncRewakeWakesTheModelOnExit2(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "asyncRewake": true, "command": "echo 'the tests fail on main' >&2; exit 2"},
  {"type": "command", "asyncRewake": true, "command": "echo 'see build.log'; exit 2"},
  {"type": "command", "asyncRewake": true, "command": "echo 'all good' >&2; exit 0"},
  {"type": "command", "async": true, "command": "echo 'not a rewake' >&2; exit 2"}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Record: g.record, Wake: g.text})
	defer r.Close()
	block := r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"make"}`)}).Block
	if block != "" {
		t.Errorf("an asyncRewake hook blocked the call: %q", block)
	}
	testkit.Eventually(t, "the four runs recorded", func() bool { _, runs := g.snapshot(); return len(runs) == 4 }, g.String)
	r.Close() // waits for the wakes that follow the records
	texts, _ := g.snapshot()
	all := strings.Join(texts, "\n")
	if len(texts) != 2 || !strings.Contains(all, "the tests fail on main") || !strings.Contains(all, "see build.log") ||
		!strings.Contains(all, "pre_tool_use") {
		t.Errorf("woken with %q", texts)
	}
}

// A rewake hook still running when the runner closes (the session ends;
// print mode's ends with its turn) is ended, recorded as cancelled, and
// wakes nothing.
func TestAsyncRewakeHookEndsWithTheRunner(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "asyncRewake": true, "command": "for i in $(seq 1 500); do sleep 0.02; done; echo 'too late' >&2; exit 2"}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Record: g.record, Wake: g.text})
	if reason := r.Stopping(context.Background(), 1, false, "done"); reason != "" {
		t.Errorf("the stop waited for the hook: %q", reason)
	}
	r.Close()
	texts, runs := g.snapshot()
	if len(texts) != 0 || len(runs) != 1 || runs[0].Reason != "cancelled" {
		t.Errorf("gathered %s", g.String())
	}
}

// When the user cancels a turn, the asyncRewake hooks still running end
// and wake nothing, as Claude Code's do on a hard cancel: each would
// start another turn. Other background hooks go on, and a rewake hook
// started after the cancel wakes the model as before.
func TestCancelEndsTheRewakeHooksRunning(t *testing.T) {
	dir := t.TempDir()
	release := filepath.Join(dir, "release")
	wait := "for i in $(seq 1 500); do [ -e " + release + " ] && break; sleep 0.02; done; "
	hs := promptHooks(t, `{"hooks": {"PostToolUse": [{"hooks": [
  {"type": "command", "asyncRewake": true, "command": "`+wait+`echo 'rewake' >&2; exit 2"},
  {"type": "command", "async": true, "command": "`+wait+`echo '{\"systemMessage\": \"async went on\"}'"}]}]}}`)
	var woken, told gathered
	r := NewRunner(Options{Hooks: hs, Cwd: dir, Environ: os.Environ(), Record: woken.record, Wake: woken.text, Inject: told.text})
	defer r.Close()
	call := agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"make"}`)}
	r.AfterTool(context.Background(), 1, call, tools.Result{Text: "ok"})
	r.Cancelled()
	testkit.Eventually(t, "the rewake hook ended", func() bool { _, runs := woken.snapshot(); return len(runs) == 1 }, woken.String)
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the async hook's answer", func() bool { texts, _ := told.snapshot(); return len(texts) == 1 }, told.String)
	r.AfterTool(context.Background(), 2, call, tools.Result{Text: "ok"})
	testkit.Eventually(t, "the next rewake hook's wake", func() bool { texts, _ := woken.snapshot(); return len(texts) == 1 }, woken.String)
	texts, runs := woken.snapshot()
	if runs[0].Reason != "cancelled" || !strings.Contains(texts[0], "rewake") {
		t.Errorf("want the first rewake run cancelled and the second waking the model, got %s", woken.String())
	}
}

// A background hook that names no timeout gets Claude Code's ten
// minutes, not the minute a hook that is waited for gets; one that names
// its own keeps it.
func TestAsyncHooksTimeOutAfterTenMinutes(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"PostToolUse": [{"hooks": [
  {"type": "command", "async": true, "command": "true"},
  {"type": "command", "asyncRewake": true, "command": "true"},
  {"type": "command", "async": true, "timeout": 5, "command": "true"},
  {"type": "command", "command": "true"}]}]}}`)
	var got []time.Duration
	for _, h := range hs {
		got = append(got, h.Timeout)
	}
	if want := []time.Duration{AsyncTimeout, AsyncTimeout, 5 * time.Second, DefaultTimeout}; !slices.Equal(got, want) || AsyncTimeout != 10*time.Minute {
		t.Errorf("timeouts %v, want %v", got, want)
	}
}

// A command that says on its first line {"async": true} (Claude Code's
// way for a hook to go on in the background, as Anthropic's
// security-guidance plugin does) holds the call up no longer: its later
// answer is delivered as an async hook's, and its block, come too late,
// blocks nothing. asyncTimeout bounds it there.
func TestHookThatSaysItIsAsyncGoesOnInTheBackground(t *testing.T) {
	dir := t.TempDir()
	release := filepath.Join(dir, "release")
	hs := promptHooks(t, `{"hooks": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "echo '{\"async\": true}'; for i in $(seq 1 500); do [ -e `+release+` ] && break; sleep 0.02; done; echo '{\"decision\": \"block\", \"reason\": \"found a secret\", \"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"additionalContext\": \"config.go holds a key\"}}'"},
  {"type": "command", "command": "echo '{\"async\": true, \"asyncTimeout\": 50}'; for i in $(seq 1 500); do sleep 0.02; done"}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: dir, Environ: os.Environ(), Record: g.record, Inject: g.text})
	defer r.Close()
	block := r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"ls"}`)}).Block
	if block != "" {
		t.Fatalf("the call waited for the hook's answer and was blocked: %q", block)
	}
	testkit.WriteFile(t, release, "")
	testkit.Eventually(t, "both runs recorded", func() bool { _, runs := g.snapshot(); return len(runs) == 2 }, g.String)
	r.Close() // waits for what follows the records
	texts, runs := g.snapshot()
	byCommand := map[bool]session.HookRun{}
	for _, run := range runs {
		byCommand[strings.Contains(run.Command, "asyncTimeout")] = run
	}
	answered, bounded := byCommand[false], byCommand[true]
	if len(texts) != 1 || !strings.Contains(texts[0], "config.go holds a key") || !answered.Async ||
		!strings.Contains(answered.Notice(), "too late to block anything: found a secret") {
		t.Errorf("the answering hook: delivered %q, recorded %+v", texts, answered)
	}
	if bounded.Outcome != "failed" || bounded.Reason != "timed out after 50ms" {
		t.Errorf("the hook past its asyncTimeout: %+v", bounded)
	}
}

// Once the runner is closed nothing waits in the background: a command
// that goes on there after its first line is ended at once.
func TestHookThatGoesAsyncAfterCloseIsEndedAtOnce(t *testing.T) {
	hs := promptHooks(t, `{"hooks": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "echo '{\"async\": true}'; for i in $(seq 1 500); do sleep 0.02; done"}]}]}}`)
	var g gathered
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(), Record: g.record})
	r.Close()
	r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"ls"}`)})
	if _, runs := g.snapshot(); len(runs) != 1 || runs[0].Reason != "cancelled" {
		t.Errorf("gathered %s", g.String())
	}
}
