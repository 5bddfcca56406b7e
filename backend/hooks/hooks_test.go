package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func hook(event Event, command string) Hook {
	return Hook{Event: event, Command: command, Timeout: 10 * time.Second, Origin: "config.toml line 1"}
}

// runOne runs h and, when it goes on in the background after its first
// line, waits for it there: its result is its answer.
func runOne(t *testing.T, h Hook) Result {
	t.Helper()
	res := run(context.Background(), h, Input{Event: "PreToolUse", ToolName: "bash"}, t.TempDir(), os.Environ(), judges{})
	if res.later != nil {
		res = res.later(context.Background())
	}
	return res
}

func TestExitCodesAndAnswers(t *testing.T) {
	cases := []struct {
		name, command string
		outcome       Outcome
		reason        string
	}{
		{"exit 0 goes on", "echo fine", OutcomeOK, ""},
		{"exit 2 blocks with stderr", "echo 'no, not that' >&2; exit 2", OutcomeBlocked, "no, not that"},
		{"other exits fail without blocking", "echo oops >&2; exit 1", OutcomeFailed, "exit status 1: oops"},
		{"a JSON deny blocks", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}'`, OutcomeBlocked, "policy"},
		{"decision block blocks", `echo '{"decision":"block","reason":"later"}'`, OutcomeBlocked, "later"},
		{"continue false blocks", `echo '{"continue":false,"stopReason":"enough"}'`, OutcomeBlocked, "enough"},
		{"garbage JSON fails", `echo '{"decision": block'`, OutcomeFailed, "its answer on stdout is not valid JSON"},
		{"a missing program fails", "/nonexistent/hook", OutcomeFailed, "exit status 127"},
		// anthropics/claude-code's plugins/security-guidance hooks begin
		// with {"async": true} and answer on a later line.
		{"an async hook answers after its first line", `echo '{"async": true, "asyncTimeout": 180000}'; echo 'working'; echo '{"decision":"block","reason":"found"}'`, OutcomeBlocked, "found"},
		{"an async hook's text is its answer", `echo '{"async": true}'; echo '{"metrics": {"ms": 3}}'`, OutcomeOK, ""},
	}
	for _, c := range cases {
		res := runOne(t, hook(PreToolUse, c.command))
		if res.Outcome != c.outcome || !strings.HasPrefix(res.Reason, c.reason) {
			t.Errorf("%s: outcome %s, reason %q; want %s, %q", c.name, res.Outcome, res.Reason, c.outcome, c.reason)
		}
	}
	approve := runOne(t, hook(PreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`))
	if !approve.approves() {
		t.Errorf("allow answer does not approve: %+v", approve)
	}
}

func TestHookReadsClaudeCodeFieldsOnStdin(t *testing.T) {
	out := filepath.Join(t.TempDir(), "in.json")
	var recorded []session.HookRun
	r := NewRunner(Options{
		Hooks: []Hook{hook(PreToolUse, "cat > "+out)}, SessionID: "s1", Transcript: func() string { return "/log.jsonl" }, Cwd: t.TempDir(),
		Environ: os.Environ(), Mode: func() string { return "ask" },
		Record: func(d session.Data) error { recorded = append(recorded, d.(session.HookRun)); return nil },
	})
	v := r.BeforeTool(context.Background(), 3, agent.ToolUse{ID: "call_1", Name: "bash", Args: json.RawMessage(`{"command":"ls"}`)})
	block, allow := v.Block, v.Allow
	if block != "" || allow {
		t.Errorf("block %q allow %v", block, allow)
	}
	b, _ := os.ReadFile(out)
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("stdin %q: %v", b, err)
	}
	if in["hook_event_name"] != "PreToolUse" || in["tool_name"] != "Bash" || in["session_id"] != "s1" ||
		in["tool_input"].(map[string]any)["command"] != "ls" || in["transcript_path"] != "/log.jsonl" ||
		in["permission_mode"] != "ask" || in["tool_use_id"] != "call_1" {
		t.Errorf("stdin = %s", b)
	}
	if len(recorded) != 1 || recorded[0].Outcome != "ok" || recorded[0].Turn != 3 || recorded[0].CallID != "call_1" {
		t.Errorf("recorded %+v", recorded)
	}
}

// The transcript is brought up to date just before a hook runs, and
// only then: a session whose hooks match nothing pays nothing for it.
func TestTranscriptIsSyncedOnlyForAHookThatRuns(t *testing.T) {
	out := filepath.Join(t.TempDir(), "in.json")
	syncs := 0
	hs, _ := FromConfig(config.Hooks{"PreToolUse": {{Matcher: "Edit", Command: "cat > " + out}}}, "settings.json", false)
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ(),
		Transcript: func() string { syncs++; return fmt.Sprintf("/t%d.jsonl", syncs) }})
	r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"ls"}`)})
	if syncs != 0 {
		t.Fatalf("the transcript was synced %d times for a call no hook matches", syncs)
	}
	r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c2", Name: "edit", Args: json.RawMessage(`{"file_path":"a"}`)})
	b, _ := os.ReadFile(out)
	if syncs != 1 || !strings.Contains(string(b), `"transcript_path":"/t1.jsonl"`) {
		t.Fatalf("synced %d times, and the hook read %s; want one sync, its path as transcript_path", syncs, b)
	}
}

func TestMatchersTakeTacksAndClaudeCodesToolNames(t *testing.T) {
	hs, problems := FromConfig(config.Hooks{
		"PreToolUse":     {{Matcher: "Bash", Command: "a", Line: 1}, {Matcher: "write|edit", Command: "b", Line: 4}, {Matcher: "(", Command: "c", Line: 7}},
		"on_save":        {{Command: "d", Line: 9}},
		"WorktreeCreate": {{Command: "e", Line: 10}},
		"stop":           {{Line: 11}},
	}, "config.toml", false)
	if len(hs) != 2 || !hs[0].Matches("bash") || hs[0].Matches("bash_output") || !hs[1].Matches("edit") || hs[1].Matches("read") {
		t.Errorf("hooks = %+v", hs)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"config.toml line 7: hooks.PreToolUse: matcher", "config.toml line 9: hooks.on_save is not a hook event",
		"config.toml line 10: hooks.WorktreeCreate is a Claude Code event tack has no counterpart of; the hook is skipped", "config.toml line 11: hooks.stop: no command"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

func TestProjectHooksRunOnlyOnceApproved(t *testing.T) {
	asked := 0
	answer := false
	out := filepath.Join(t.TempDir(), "ran")
	h := hook(UserPromptSubmit, "echo context; touch "+out)
	h.Project = true
	r := NewRunner(Options{Hooks: []Hook{h}, Cwd: t.TempDir(), Environ: os.Environ(),
		Approve: func(context.Context) (bool, error) { asked++; return answer, nil }})
	if _, extra := r.PromptSubmitted(context.Background(), 1, "hi"); extra != "" {
		t.Errorf("an unapproved project hook added %q", extra)
	}
	r.PromptSubmitted(context.Background(), 2, "again")
	if asked != 1 {
		t.Errorf("asked %d times, want once per session", asked)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the unapproved hook ran")
	}
}

// PreCompact's matcher picks the trigger, as in Claude Code: a hook for
// manual compactions stays out of an automatic one. It reads what the
// user asked of the summary as custom_instructions.
func TestPreCompactMatchesTheTrigger(t *testing.T) {
	hs, _ := FromConfig(config.Hooks{"PreCompact": {{Matcher: "manual", Command: "sed 's/^/input /'"}}}, "settings.json", false)
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ()})
	if got := r.Compacting(context.Background(), 1, "auto", ""); got != "" {
		t.Errorf("auto ran the manual hook: %q", got)
	}
	got := r.Compacting(context.Background(), 1, "manual", "keep the API notes")
	if !strings.Contains(got, `"trigger":"manual"`) || !strings.Contains(got, `"custom_instructions":"keep the API notes"`) {
		t.Errorf("manual: want the trigger and the user's instructions in the hook's input, got %q", got)
	}
}

// Notification hooks' matchers pick what the notification is about, by
// Claude Code's names: one for idle_prompt stays out of a permission
// prompt. A turn that ends arms an idle_prompt IdleAfter later, which the
// next prompt disarms.
func TestNotificationsByTypeAndTheIdlePrompt(t *testing.T) {
	dir := t.TempDir()
	hs, _ := FromConfig(config.Hooks{"Notification": {
		{Matcher: "permission_prompt", Command: "cat >> " + filepath.Join(dir, "permission")},
		{Matcher: "idle_prompt", Command: "cat >> " + filepath.Join(dir, "idle")},
	}}, "settings.json", false)
	r := NewRunner(Options{Hooks: hs, Cwd: dir, Environ: os.Environ(), IdleAfter: 20 * time.Millisecond})
	defer r.Close()
	r.Notify("tack needs your permission to use bash", NotifyPermission)
	testkit.Eventually(t, "the permission hook's run", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "permission"))
		return strings.Contains(string(b), `"notification_type":"permission_prompt"`)
	})
	r.Stopping(context.Background(), 1, false, "")
	testkit.Eventually(t, "the idle hook's run", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "idle"))
		return strings.Contains(string(b), `"notification_type":"idle_prompt"`) && strings.Contains(string(b), "waiting for your input")
	})
	if b, _ := os.ReadFile(filepath.Join(dir, "permission")); strings.Count(string(b), "notification_type") != 1 {
		t.Errorf("the permission hook heard of the idle prompt too: %s", b)
	}
	r.opts.IdleAfter = time.Hour
	r.Stopping(context.Background(), 2, false, "")
	r.PromptSubmitted(context.Background(), 3, "next")
	r.bgMu.Lock()
	armed := r.idle != nil
	r.bgMu.Unlock()
	if armed {
		t.Error("the next prompt left the idle notice armed")
	}
}

// A handler's "if" narrows it to the calls a permission rule names, as in
// Claude Code (the shape of anthropics/claude-code's
// plugins/security-guidance/hooks/hooks.json: "matcher": "Bash" with
// "if": "Bash(git commit:*)"): a guard that always exits 2 blocks only
// those, and at an event about no tool call it never runs.
func TestIfNarrowsAHandlerToTheCallsItsRuleNames(t *testing.T) {
	settings, err := config.ParseClaudeSettings("settings.json", []byte(`{"hooks": {
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "if": "Bash(git push *)", "command": "echo 'no pushing' >&2; exit 2"}]},
			{"matcher": "Bash", "hooks": [{"type": "command", "if": "tool_input.command matches 'rm'", "command": "exit 2"}]}],
		"Stop": [{"hooks": [{"type": "command", "if": "Bash(git push *)", "command": "echo 'never' >&2; exit 2"}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	hs, problems := FromConfig(settings.Hooks, "settings.json", false)
	if len(hs) != 2 || len(problems) != 1 || !strings.Contains(problems[0], "is not a permission rule such as Bash(git push *)") {
		t.Fatalf("want the two hooks with a rule and the other reported, got %d hooks and %q", len(hs), problems)
	}
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ()})
	for command, blocked := range map[string]bool{"ls -la": false, "git status && git push origin main": true, "git pushd": false} {
		args, _ := json.Marshal(map[string]string{"command": command})
		reason := r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c", Name: "bash", Args: args}).Block
		if (reason != "") != blocked {
			t.Errorf("%s: want blocked %v, got reason %q", command, blocked, reason)
		}
	}
	if reason := r.Stopping(context.Background(), 1, false, "done"); reason != "" {
		t.Errorf("a stop hook with an if ran and kept the agent going: %q", reason)
	}
}

// A hook with "async": true (Claude Code's background hooks) runs while
// the call goes on: nothing waits for it, and a block it answers does not
// block; its run is logged once it ends.
func TestAsyncHooksRunInTheBackground(t *testing.T) {
	dir := t.TempDir()
	release, ran := filepath.Join(dir, "release"), filepath.Join(dir, "ran")
	s, err := config.ParseClaudeSettings("settings.json", []byte(`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "async": true,
  "command": "for i in $(seq 1 500); do [ -e `+release+` ] && break; sleep 0.02; done; touch `+ran+`; echo no >&2; exit 2"}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	hs, _ := FromConfig(s.Hooks, "settings.json", false)
	logged := make(chan session.HookRun, 1)
	r := NewRunner(Options{Hooks: hs, Cwd: dir, Environ: os.Environ(),
		Record: func(d session.Data) error { logged <- d.(session.HookRun); return nil }})
	defer r.Close()
	block := r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"ls"}`)}).Block
	if _, err := os.Stat(ran); block != "" || err == nil {
		t.Fatalf("the call waited for the async hook (block %q, ran %v)", block, err == nil)
	}
	testkit.WriteFile(t, release, "")
	if run := <-logged; run.Outcome != string(OutcomeBlocked) || run.Reason != "no" {
		t.Errorf("logged %+v", run)
	}
}

// Claude Code renamed Task to Agent and KillShell to TaskStop; settings
// written before and after match the same tools.
func TestMatchersTakeClaudeCodesOldAndNewToolNames(t *testing.T) {
	hs, problems := FromConfig(config.Hooks{
		"PreToolUse": {{Matcher: "Task", Command: "a", Line: 1}, {Matcher: "Agent", Command: "b", Line: 2}, {Matcher: "KillShell|TaskStop", Command: "c", Line: 3}},
	}, "config.toml", false)
	if len(problems) != 0 || len(hs) != 3 {
		t.Fatalf("hooks = %+v, problems %v", hs, problems)
	}
	if !hs[0].Matches("task") || !hs[1].Matches("task") || hs[0].Matches("bash_kill") || !hs[2].Matches("bash_kill") || hs[2].Matches("task") {
		t.Errorf("want Task and Agent to match task alone, KillShell|TaskStop bash_kill alone")
	}
}

// hookInputs are the inputs the hooks that ran "cat >> out; echo" read,
// one a line, each with the CLAUDE_EFFORT the command saw as "env".
func hookInputs(t *testing.T, out string) []map[string]any {
	t.Helper()
	b, _ := os.ReadFile(out)
	var ins []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		body, env, _ := strings.Cut(line, "\t")
		var in map[string]any
		if err := json.Unmarshal([]byte(body), &in); err != nil {
			t.Fatalf("stdin %q: %v", body, err)
		}
		in["env"] = env
		ins = append(ins, in)
	}
	return ins
}

// Claude Code's common input fields: effort.level (and CLAUDE_EFFORT)
// in a turn, the subagent's own in its calls, none at the session's start
// and end; agent_id only in a subagent, agent_type there and for a
// session run as an agent (--agent); and session_start's model. The
// shapes are those of Claude Code's hooks reference, "Common input
// fields" and "SessionStart input".
func TestHooksReadTheEffortAndTheAgent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook command here is sh")
	}
	out := filepath.Join(t.TempDir(), "in.jsonl")
	command := `cat >> ` + out + `; printf '\t%s\n' "$CLAUDE_EFFORT" >> ` + out
	effort := llm.EffortHigh
	r := NewRunner(Options{
		Hooks: []Hook{hook(SessionStart, command), hook(PreToolUse, command), hook(Stop, command), hook(SessionEnd, command)}, Cwd: t.TempDir(),
		Environ: os.Environ(), Model: func() (string, llm.Effort) { return "deepseek-flash", effort }, AgentType: "reviewer",
	})
	r.sessionStart()
	call := agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"ls"}`)}
	r.BeforeTool(context.Background(), 1, call)
	effort = llm.EffortOff
	r.Stopping(context.Background(), 1, false, "done")
	effort = llm.EffortMax
	sub := r.ForSubagent("child-1", nil, "Explore", func() llm.Effort { return llm.EffortLow }, nil)
	sub.BeforeTool(context.Background(), 1, call)
	r.EndSession("other")
	var got []string
	for _, in := range hookInputs(t, out) {
		got = append(got, fmt.Sprintf("%v effort=%v env=%q agent_id=%v agent_type=%v model=%v", in["hook_event_name"], in["effort"], in["env"], in["agent_id"], in["agent_type"], in["model"]))
	}
	want := []string{
		`SessionStart effort=<nil> env="" agent_id=<nil> agent_type=reviewer model=deepseek-flash`,
		`PreToolUse effort=map[level:high] env="high" agent_id=<nil> agent_type=reviewer model=<nil>`,
		`Stop effort=<nil> env="" agent_id=<nil> agent_type=reviewer model=<nil>`,
		`PreToolUse effort=map[level:low] env="low" agent_id=child-1 agent_type=Explore model=<nil>`,
		`SessionEnd effort=<nil> env="" agent_id=<nil> agent_type=reviewer model=<nil>`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the hooks read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
