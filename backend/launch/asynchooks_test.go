package launch

import (
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
