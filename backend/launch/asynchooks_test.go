package launch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// hookContexts are the context messages hooks added to s's conversation.
func hookContexts(s *Session) []string {
	var out []string
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.UserMessage); ok && d.Kind == session.KindContext && d.Origin == agent.HookOrigin {
			out = append(out, d.Text)
		}
	}
	return out
}

// resume opens the session o names again, on llm, with user as HOME.
func resume(t *testing.T, o Options, llm *llmtest.Server, user string) *Session {
	t.Helper()
	o.Version = "test"
	o.Getenv = func(k string) string {
		return map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}[k]
	}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// said counts the messages of r that hold text.
func said(r llmtest.Request, text string) int {
	n := 0
	for _, m := range r.Messages {
		n += strings.Count(m.Content, text)
	}
	return n
}

// An async PostToolUse hook's additionalContext reaches the model once
// the hook has ended, is kept in the session log, and a resumed session
// sends it again; its systemMessage is recorded for the user with the
// run.
func TestAsyncHookContextReachesTheModelAndSurvivesResume(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "async": true, "command": "echo '{\"systemMessage\": \"build cache is stale\", \"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"Rebuild with make clean.\"}}'"}]}]}}`})
	llm := llmtest.New(t, bashCall("call_1", "echo hi"), llmtest.ReplyText("Ran it."), llmtest.ReplyText("Will rebuild."),
		llmtest.ReplyText("Still here."))
	env := map[string]string{"HOME": user}
	s := openEnv(t, home, cwd, "full-access", llm, env)
	runTurn(t, s, "Run it.")
	testkit.Eventually(t, "the async hook's context in the session", func() bool { return len(hookContexts(s)) == 1 },
		func() string { return strings.Join(hookContexts(s), "\n") })
	runs := hookRuns(s)
	if len(runs) != 1 || runs[0].Message != "build cache is stale" || !strings.Contains(runs[0].Notice(), "build cache is stale") {
		t.Errorf("hook runs = %+v", runs)
	}
	runTurn(t, s, "Next?")
	reqs := llm.Requests()
	if n := said(reqs[len(reqs)-1], "Rebuild with make clean."); n != 1 {
		t.Errorf("the next request holds the hook's context %d times, want once", n)
	}
	id := s.Log.Header().ID
	s.Close()
	resumed := resume(t, Options{Home: home, Cwd: cwd, Resume: id, PermissionMode: "full-access"}, llm, user)
	runTurn(t, resumed, "And now?")
	reqs = llm.Requests()
	if n := said(reqs[len(reqs)-1], "Rebuild with make clean."); n != 1 {
		t.Errorf("the resumed session's request holds the hook's context %d times, want once", n)
	}
}

// waitSteering waits, on sub, until the agent's inbox steers a message
// holding text.
func waitSteering(t *testing.T, sub *agent.Subscription, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	for {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("want a steering message holding %q: %v", text, err)
		}
		for _, e := range evs {
			if in, ok := e.(agent.InboxChanged); ok && slices.ContainsFunc(in.Steering, func(m string) bool { return strings.Contains(m, text) }) {
				return
			}
		}
	}
}

// turnsOf counts the turns s started.
func turnsOf(s *Session) int {
	n := 0
	for _, e := range s.Agent.Events() {
		if _, ok := e.Data.(session.TurnStart); ok {
			n++
		}
	}
	return n
}

// waitFor is a bash command that ends once file exists, or after ten
// seconds, and then prints ran.
func waitFor(file string) string {
	return "for i in $(seq 1 500); do [ -e " + file + " ] \\u0026\\u0026 break; sleep 0.02; done; echo ran"
}

// An asyncRewake hook that exits 2 while the turn runs joins it, as a
// steering message does, and the model reads its stderr at the next step;
// no other turn starts.
func TestAsyncRewakeJoinsTheRunningTurn(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	release := filepath.Join(t.TempDir(), "go")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "asyncRewake": true, "command": "echo 'the tests fail on main' >&2; exit 2"}]}]}}`})
	llm := llmtest.New(t, bashCall("call_1", waitFor(release)), llmtest.ReplyText("Looking at the tests."))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	_, sub := s.Agent.Subscribe()
	defer sub.Close()
	s.Agent.Send("Run make.")
	waitSteering(t, sub, "the tests fail on main")
	testkit.WriteFile(t, release, "")
	testkit.Settle(t, s.Agent)
	reqs := llm.Requests()
	if len(reqs) != 2 || said(reqs[1], "the tests fail on main") != 1 || turnsOf(s) != 1 || !strings.Contains(reqs[1].ToolResult("call_1"), "ran") {
		t.Errorf("%d requests, %d turns; want the hook's message in the turn's second request", len(reqs), turnsOf(s))
	}
}

// rewakeAfterTheTurn is an asyncRewake PostToolUse hook of Bash that
// exits 2 once release exists.
func rewakeAfterTheTurn(release string) map[string]string {
	return map[string]string{".claude/settings.json": `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "asyncRewake": true, "command": "` + waitFor(release) + ` >/dev/null; echo 'lint: 2 errors in main.go' >&2; exit 2"}]}]}}`}
}

// An asyncRewake hook that exits 2 once the agent is idle starts a turn
// with its message, as Claude Code wakes an idle model.
func TestAsyncRewakeStartsATurnWhenIdle(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	release := filepath.Join(t.TempDir(), "go")
	testkit.WriteTree(t, user, rewakeAfterTheTurn(release))
	llm := llmtest.New(t, bashCall("call_1", "echo hi"), llmtest.ReplyText("Done."), llmtest.ReplyText("Fixing the lint errors."))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Say hi.")
	testkit.WriteFile(t, release, "")
	testkit.Eventually(t, "a second turn", func() bool { return turnsOf(s) == 2 })
	testkit.Settle(t, s.Agent)
	reqs := llm.Requests()
	if len(reqs) != 3 || said(reqs[2], "lint: 2 errors in main.go") != 1 {
		t.Errorf("%d requests; want the hook's message to start a third", len(reqs))
	}
}

// In print mode, which ends with its turn, an asyncRewake hook that
// exits 2 after the turn starts no turn nobody would follow: its message
// is kept as context for a later prompt.
func TestAsyncRewakeInPrintModeStartsNoTurn(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	release := filepath.Join(t.TempDir(), "go")
	testkit.WriteTree(t, user, rewakeAfterTheTurn(release))
	llm := llmtest.New(t, bashCall("call_1", "echo hi"), llmtest.ReplyText("Done."))
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: "full-access",
		Version: "test", Unattended: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	runTurn(t, s, "Say hi.")
	testkit.WriteFile(t, release, "")
	testkit.Eventually(t, "the hook's message kept as context", func() bool {
		return slices.ContainsFunc(hookContexts(s), func(c string) bool { return strings.Contains(c, "lint: 2 errors in main.go") })
	})
	testkit.Settle(t, s.Agent)
	if n, turns := len(llm.Requests()), turnsOf(s); n != 2 || turns != 1 {
		t.Errorf("%d requests and %d turns; want the one turn print mode ran", n, turns)
	}
}

// Esc (the agent's Cancel) ends the asyncRewake hooks still running, as
// Claude Code's hard cancel does: one exiting 2 afterwards would start
// the turn the user just stopped over again.
func TestCancelEndsTheRewakeHooksThatWouldStartATurn(t *testing.T) {
	home, user, cwd, dir := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	started, release, toolRelease := filepath.Join(dir, "started"), filepath.Join(dir, "go"), filepath.Join(dir, "tool")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "asyncRewake": true, "command": "touch ` + started + `; ` + waitFor(release) + ` >/dev/null; echo 'the tests fail on main' >&2; exit 2"}]}]}}`})
	llm := llmtest.New(t, bashCall("call_1", waitFor(toolRelease)))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	s.Agent.Send("Run make.")
	testkit.Eventually(t, "the rewake hook running", func() bool { _, err := os.Stat(started); return err == nil })
	s.Agent.Cancel()
	testkit.WriteFile(t, release, "")
	testkit.WriteFile(t, toolRelease, "")
	testkit.Eventually(t, "the rewake hook's run logged", func() bool {
		for _, e := range s.Agent.Events() {
			if d, ok := e.Data.(session.HookRun); ok && d.Event == "pre_tool_use" {
				return true
			}
		}
		return false
	})
	testkit.Settle(t, s.Agent)
	if n, reqs := turnsOf(s), len(llm.Requests()); n != 1 || reqs != 1 {
		t.Errorf("%d turns and %d requests after the cancel; want the cancelled turn alone", n, reqs)
	}
}
