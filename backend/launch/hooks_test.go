package launch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/claudelog"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func hookRuns(s *Session) []session.HookRun {
	var out []session.HookRun
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.HookRun); ok {
			out = append(out, d)
		}
	}
	return out
}

func bashCall(id, command string) llmtest.Response {
	return llmtest.Reply(llmtest.ToolCall(id, "bash", `{"command":"`+command+`","description":"Run it"}`, 1))
}

func TestPreToolUseHookBlocksBashAndTheModelReadsTheReason(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	seen := filepath.Join(t.TempDir(), "stdin.json")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.pre_tool_use]]
matcher = "Bash"
command = "cat > `+seen+`; echo 'rm is not allowed here; move files to ./trash instead' >&2; exit 2"
`), 0o600)
	llm := llmtest.New(t, bashCall("call_1", "rm -rf build"), llmtest.ReplyText("I will move them instead."))
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "Clean up.")
	got := llm.Requests()[1].ToolResult("call_1")
	if got != "Error: a hook blocked this call: rm is not allowed here; move files to ./trash instead" {
		t.Errorf("the model read %q", got)
	}
	if b, _ := os.ReadFile(seen); !strings.Contains(string(b), `"command":"rm -rf build"`) || !strings.Contains(string(b), `"hook_event_name":"PreToolUse"`) {
		t.Errorf("the hook read %s", b)
	}
	runs := hookRuns(s)
	if len(runs) != 1 || runs[0].Outcome != "blocked" || runs[0].Tool != "bash" || !strings.Contains(runs[0].Origin, "config.toml line 1") {
		t.Errorf("hook runs = %+v", runs)
	}
}

func TestHooksThatTimeOutOrPrintGarbageBlockNothingAndAreReported(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.pre_tool_use]]
command = "sleep 20"
timeout = 0.3

[[hooks.post_tool_use]]
command = "echo '{this is not json'"
`), 0o600)
	llm := llmtest.New(t, bashCall("call_1", "echo ran"), llmtest.ReplyText("Done."))
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "Run it.")
	if got := llm.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "ran") || strings.HasPrefix(got, "Error") {
		t.Errorf("the call did not run past the failed hooks: %q", got)
	}
	runs := hookRuns(s)
	if len(runs) != 2 || runs[0].Reason != "timed out after 300ms" || runs[0].Outcome != "failed" ||
		!strings.Contains(runs[1].Reason, "not valid JSON") || !strings.Contains(runs[1].Notice(), "config.toml line 5") {
		t.Errorf("hook runs = %+v", runs)
	}
	if end := lastTurnEnd(s); end.Reason != session.StopCompleted {
		t.Errorf("turn ended %+v", end)
	}
}

func TestPromptHookAddsContextOrBlocksAndStopHookContinuesOnce(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.user_prompt_submit]]
command = "if grep -q secret; then echo 'that prompt holds a secret' >&2; exit 2; fi; echo 'The branch is main.'"

[[hooks.stop]]
command = "if grep -q '\"stop_hook_active\":true'; then exit 0; fi; echo '{\"decision\":\"block\",\"reason\":\"run the tests first\"}'"
`), 0o600)
	llm := llmtest.New(t, llmtest.ReplyText("Done."), llmtest.ReplyText("Tests pass."))
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "Fix it.")
	reqs := requests(t, llm, 2)
	if c := lastMessage(reqs[0]); c.Role != "user" || !strings.Contains(c.Content, "The branch is main.") {
		t.Errorf("the prompt hook's context is not in the request: %+v", c)
	}
	last := lastMessage(reqs[1])
	if !strings.Contains(last.Content, "A stop hook asks you to continue: run the tests first") {
		t.Errorf("the stop hook's reason is not in the second request: %+v", last)
	}
	runTurn(t, s, "Here is my secret password.")
	if n := len(llm.Requests()); n != 2 {
		t.Errorf("a blocked prompt reached the model (%d requests)", n)
	}
	end := lastTurnEnd(s)
	if end.Reason != session.StopError || !strings.Contains(end.Error.Message, "blocked the prompt") ||
		!strings.Contains(end.Error.Message, "that prompt holds a secret") {
		t.Errorf("blocked turn ended %+v", end)
	}
}

func TestProjectHooksWithoutApprovalDoNotRun(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	os.MkdirAll(filepath.Join(cwd, ".tack"), 0o755)
	os.WriteFile(filepath.Join(cwd, ".tack", "settings.toml"), []byte("[[hooks.user_prompt_submit]]\ncommand = \"touch "+ran+"\"\n"), 0o600)
	llm := llmtest.New(t, llmtest.ReplyText("ok"))
	s := openMCP(t, home, cwd, "full-access", llm) // nobody can approve
	runTurn(t, s, "hi")
	if _, err := os.Stat(ran); err == nil {
		t.Error("an unapproved project hook ran")
	}
	if n := noticesOf(t, s, 1); !strings.Contains(n, "do not run in this session") {
		t.Errorf("notice = %q", n)
	}
}

// denyApprovals answers every approval with deny until the test ends.
// denyApprovals denies every approval b puts to the user, and returns
// the list of those it denied, filled as they come.
func denyApprovals(t *testing.T, b *interact.Broker) *[]interact.Approval {
	t.Helper()
	var denied []interact.Approval
	interacttest.Serve(t, b, func(r *interact.Request) {
		if r.Approval != nil {
			denied = append(denied, *r.Approval)
			r.Decide(interact.Decision{Verdict: interact.Deny})
		}
	})
	return &denied
}

// Notification hooks' matchers pick by notification_type, by Claude
// Code's names: an approval and the model's question are a
// permission_prompt, an MCP server's form an elicitation_dialog.
func TestNotificationsNameWhatTheUserIsAskedFor(t *testing.T) {
	for _, c := range []struct {
		req       *interact.Request
		kind, msg string
	}{
		{&interact.Request{Approval: &interact.Approval{Tool: "bash"}}, hooks.NotifyPermission, "tack needs your permission to use bash"},
		{&interact.Request{Questions: []interact.Question{{Question: "Which database?"}}}, hooks.NotifyPermission, "tack has a question for you: Which database?"},
		{&interact.Request{Questions: []interact.Question{{Question: "Email (required)", Server: "crm"}}}, hooks.NotifyElicitation,
			"MCP server crm asks for your input: Email (required)"},
	} {
		if msg, kind := requestMessage(c.req); kind != c.kind || msg != c.msg {
			t.Errorf("want %s %q, got %s %q", c.kind, c.msg, kind, msg)
		}
	}
}

func TestNotificationHookHearsOfAnApproval(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	heard := filepath.Join(t.TempDir(), "heard.json")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[[hooks.notification]]\ncommand = \"cat > "+heard+"\"\n"), 0o600)
	llm := llmtest.New(t, bashCall("call_1", "echo hi"), llmtest.ReplyText("ok"))
	s := openMCP(t, home, cwd, "ask", llm)
	denyApprovals(t, s.Broker)
	_, sub := s.Agent.Subscribe()
	defer sub.Close()
	runTurn(t, s, "greet")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ran := false; !ran; {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatal("the notification hook never ran")
		}
		for _, e := range evs {
			if l, ok := e.(agent.Logged); ok {
				if d, ok := l.Data.(session.HookRun); ok && d.Event == "notification" {
					ran = true
				}
			}
		}
	}
	b, _ := os.ReadFile(heard)
	if !strings.Contains(string(b), `"hook_event_name":"Notification"`) || !strings.Contains(string(b), `"message":"tack needs your permission to use bash"`) {
		t.Errorf("the hook heard %s", b)
	}
}

// TestHooksStartFromTheSessionsEnvironment: a hook's environment is
// Options.Environ (secrets removed) plus the project variables, never the
// process's own environment, which launch reads only through its options.
func TestHooksStartFromTheSessionsEnvironment(t *testing.T) {
	t.Setenv("TACK_TEST_PROCESS_ONLY", "leaked")
	home, cwd := t.TempDir(), t.TempDir()
	seen := filepath.Join(t.TempDir(), "env.txt")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.pre_tool_use]]
command = "env > `+seen+`"
`), 0o600)
	llm := llmtest.New(t, bashCall("call_1", "echo ran"), llmtest.ReplyText("Done."))
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: "full-access",
		Environ: []string{"PATH=" + os.Getenv("PATH"), "TACK_TEST_OPTION=given", "DEEPSEEK_API_KEY=secret"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	runTurn(t, s, "Run it.")
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("want the hook to have run: %v", err)
	}
	got := string(b)
	if !strings.Contains(got, "TACK_TEST_OPTION=given") || !strings.Contains(got, "TACK_PROJECT_DIR="+s.Cwd) {
		t.Errorf("want the session's environment and the project variables, got:\n%s", got)
	}
	if strings.Contains(got, "TACK_TEST_PROCESS_ONLY") || strings.Contains(got, "DEEPSEEK_API_KEY") {
		t.Errorf("want neither the process's environment nor provider secrets, got:\n%s", got)
	}
}

// Claude Code's settings files hold hooks in the shape tack reads: the
// user's ~/.claude/settings.json runs as the user's own, and a project's
// .claude/settings.json once the user approves it, which the question
// names. A settings file that is not JSON is reported with its line.
func TestClaudeCodeSettingsHooksRun(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{
  "permissions": {"allow": ["Bash(npm run test:*)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'no rm here' >&2; exit 2"}]}]
  }
}`})
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/settings.json":       `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "touch ` + ran + `"}]}]}}`,
		".claude/settings.local.json": "{\n  \"hooks\": [\n}",
	})
	llm := llmtest.New(t, bashCall("call_1", "rm -rf build"), llmtest.ReplyText("Fine."))
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: "full-access"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var question string
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		if len(r.Questions) > 0 {
			question = r.Questions[0].Question
			r.Answer([]interact.Answer{{ID: r.Questions[0].ID, Selected: []string{approveSession}}})
		}
	})
	runTurn(t, s, "Clean up.")
	if got := llm.Requests()[1].ToolResult("call_1"); got != "Error: a hook blocked this call: no rm here" {
		t.Errorf("the user's hook did not block: the model read %q", got)
	}
	if _, err := os.Stat(ran); err != nil {
		t.Errorf("the approved project hook did not run: %v", err)
	}
	if want := "This project's " + filepath.Join(".claude", "settings.json") + " runs 1 hook command(s)."; !strings.HasPrefix(question, want) {
		t.Errorf("want the question to name the file, got %q", question)
	}
	if n := noticesOf(t, s, 1); !strings.Contains(n, "settings.local.json line 3") {
		t.Errorf("want the broken file reported with its line, got %q", n)
	}
}

// SessionStart and SessionEnd hooks from ~/.claude/settings.json, as
// Claude Code users keep them: what session_start prints goes to the
// model once, with the first prompt, its matcher choosing between a new
// session and a resumed one; session_end runs as the session closes.
func TestSessionStartAndEndHooksOfClaudeCodeSettings(t *testing.T) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	ended := filepath.Join(t.TempDir(), "ended.json")
	testkit.WriteTree(t, userHome, map[string]string{".claude/settings.json": `{"hooks": {
  "SessionStart": [
    {"matcher": "startup", "hooks": [{"type": "command", "command": "echo 'Notes for a new session: main is frozen'"}]},
    {"matcher": "resume", "hooks": [{"type": "command", "command": "echo 'Notes for a resumed session'"}]}
  ],
  "SessionEnd": [{"hooks": [{"type": "command", "command": "cat > ` + ended + `"}]}]
}}`})
	llm := llmtest.New(t, llmtest.ReplyText("one"), llmtest.ReplyText("two"), llmtest.ReplyText("three"))
	env := map[string]string{"HOME": userHome, "PATH": os.Getenv("PATH")}
	s := openEnv(t, home, cwd, "auto", llm, env)
	runTurn(t, s, "First.")
	runTurn(t, s, "Second.")
	id := s.Log.Header().ID
	s.Close()
	b, _ := os.ReadFile(ended)
	if !strings.Contains(string(b), `"hook_event_name":"SessionEnd"`) || !strings.Contains(string(b), `"reason":"other"`) ||
		!strings.Contains(string(b), `"session_id":"`+id+`"`) {
		t.Errorf("the session_end hook read %q", b)
	}
	resumed := resume(t, Options{Home: home, Cwd: cwd, Resume: id}, llm, userHome)
	runTurn(t, resumed, "Third.")
	reqs := llm.Requests()
	for i, want := range []struct{ news, resumed int }{{1, 0}, {1, 0}, {1, 1}} {
		var all strings.Builder
		for _, m := range reqs[i].Messages {
			all.WriteString(m.Content)
		}
		got := all.String()
		if n, r := strings.Count(got, "main is frozen"), strings.Count(got, "Notes for a resumed session"); n != want.news || r != want.resumed {
			t.Errorf("request %d holds the new session's notes %d times and the resumed one's %d times, want %d and %d:\n%s",
				i+1, n, r, want.news, want.resumed, got)
		}
	}
}

// A subagent's calls meet the user's PreToolUse guard as the session's do
// (in Claude Code the task tool's agents are not a way around it), its
// hook runs are logged in its own session, and SubagentStop runs when it
// would end, matched on its type, with agent_id and agent_type; a block
// keeps it going once more.
func TestSubagentsRunTheSessionsToolHooksAndSubagentStop(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	stopped := filepath.Join(t.TempDir(), "stop.jsonl")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "grep -q forbidden && { echo 'not that' >&2; exit 2; }; exit 0"}]}],
  "SubagentStop": [{"matcher": "general-purpose", "hooks": [{"type": "command",
    "command": "cat >> ` + stopped + `; echo >> ` + stopped + `; [ $(wc -l < ` + stopped + `) -ge 2 ] || { echo 'check the tests too' >&2; exit 2; }"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "echo stop >> ` + stopped + `.parent"}]}],
  "SubagentStart": [{"matcher": "general-purpose", "hooks": [{"type": "command", "command": "echo 'Mind the vendored code.'"}]}]
}}`})
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("task_1", "task", `{"description":"Tidy","prompt":"tidy up"}`, 1)),
		llmtest.ReplyText("Tidied."))
	srv.Route(llmtest.FirstUserMessage("tidy up"),
		bashCall("child_1", "echo forbidden"),
		llmtest.ReplyText("Could not."),
		llmtest.ReplyText("Tests checked too."))
	s := openEnv(t, home, cwd, "full-access", srv, map[string]string{"HOME": user})
	runTurn(t, s, "Tidy up with a subagent.")
	srv.AssertConsumed(t)
	var child []llmtest.Request
	for _, r := range srv.Requests() {
		if len(r.Messages) > 1 && r.Messages[1].Content == "tidy up" {
			child = append(child, r)
		}
	}
	if len(child) != 3 || child[1].ToolResult("child_1") != "Error: a hook blocked this call: not that" {
		t.Fatalf("the subagent's call was not blocked: %d requests", len(child))
	}
	if first := child[0].Messages; !strings.Contains(first[len(first)-1].Content, "Mind the vendored code.") {
		t.Errorf("SubagentStart's words did not reach the subagent: %+v", first[len(first)-1])
	}
	if last := child[2].Messages; !strings.Contains(last[len(last)-1].Content, "check the tests too") {
		t.Errorf("the SubagentStop block did not reach the subagent: %+v", last[len(last)-1])
	}
	raw, _ := os.ReadFile(stopped)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"hook_event_name":"SubagentStop"`) || !strings.Contains(lines[0], `"agent_type":"general-purpose"`) ||
		!strings.Contains(lines[0], `"stop_hook_active":false`) || !strings.Contains(lines[1], `"stop_hook_active":true`) {
		t.Errorf("SubagentStop read:\n%s", raw)
	}
	if b, _ := os.ReadFile(stopped + ".parent"); strings.Count(string(b), "stop") != 1 {
		t.Errorf("want the session's Stop hook once, for its own turn, got %q", b)
	}
	if runs := hookRuns(s); len(runs) != 1 || runs[0].Event != "stop" {
		t.Errorf("the parent's log holds the subagent's hook runs: %+v", runs)
	}
	var childRuns []string
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.TaskStart); ok {
			h, evs := childEvents(t, home, d.Child)
			for _, e := range evs {
				if r, ok := e.Data.(session.HookRun); ok {
					childRuns = append(childRuns, r.Event+" "+r.Outcome)
				}
			}
			path := claudelog.Path(filepath.Join(filepath.Dir(s.Log.Path()), d.Child+".jsonl"), h)
			if b, _ := os.ReadFile(path); !strings.Contains(lines[0], `"agent_transcript_path":"`+path+`"`) || !strings.Contains(string(b), `"isSidechain":true`) {
				t.Errorf("SubagentStop lacks the subagent's transcript, a sidechain at %s: %s", path, lines[0])
			}
		}
	}
	if got := strings.Join(childRuns, ", "); got != "subagent_start ok, pre_tool_use blocked, subagent_stop blocked, subagent_stop ok" {
		t.Errorf("the subagent's log holds the hook runs %q", got)
	}
}

// A PreToolUse hook rewrites a call with updatedInput, as real Claude Code
// 2.1.332 lets it (seen running the same hook against a scripted API):
// the command the hook wrote runs in place of the model's, the fields it
// left out as the model sent them, and its allow skips the question.
func TestPreToolUseHookRewritesTheCall(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"allow\", \"updatedInput\": {\"command\": \"echo rewritten\"}}}'"}]}]}}`})
	llm := llmtest.New(t, bashCall("call_1", "echo original"), llmtest.ReplyText("Done."))
	s := openEnv(t, home, cwd, "ask", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Say it.")
	if got := llm.Requests()[1].ToolResult("call_1"); got != "rewritten\n" {
		t.Errorf("the model read %q, want the rewritten command's output", got)
	}
}

// A PreToolUse hook that answers continue: false stops the turn, as it
// stops Claude Code after the hook: the call is refused with the hook's
// reason, and no further step asks the model.
func TestPreToolUseHookThatDoesNotContinueEndsTheTurn(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "printf '%s' '{\"continue\": false, \"stopReason\": \"the deploy window is closed\"}'"}]}]}}`})
	llm := llmtest.New(t, bashCall("call_1", "make deploy"), bashCall("call_2", "make deploy"), llmtest.ReplyText("Done."))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Deploy.")
	if n := len(llm.Requests()); n != 1 {
		t.Errorf("want the turn to end after the hook's step, the model asked %d times", n)
	}
	var end session.TurnEnd
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.TurnEnd); ok {
			end = d
		}
	}
	if end.Error == nil || !strings.Contains(end.Error.Message, "the deploy window is closed") {
		t.Errorf("want the turn ended with the hook's reason, got %+v", end)
	}
}

// claudeCodeHookAnswers are PreToolUse answers of pretooluse-hook.py and
// what real Claude Code made of each (record.py hooks).
const claudeCodeHookAnswers = "../../testdata/claudecode/cc-2.1.332.pretooluse-answers.json"

// TestPreToolUseAnswersDecideAsInClaudeCode runs the recorded hook under
// tack: each answer blocks the call where it blocked Claude Code's, and
// otherwise the model reads what Claude Code's did.
func TestPreToolUseAnswersDecideAsInClaudeCode(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the recorded hook is a Python script")
	}
	hook, err := filepath.Abs("../../testdata/claudecode/pretooluse-hook.py")
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		Cases []struct {
			Name, Read string
			Blocked    bool
		}
	}
	testkit.ReadJSON(t, claudeCodeHookAnswers, &recorded)
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "` + hook + `"}]}]}}`})
	var replies []llmtest.Response
	for i, c := range recorded.Cases {
		replies = append(replies, bashCall(fmt.Sprintf("call_%d", i), "echo "+c.Name))
	}
	llm := llmtest.New(t, append(replies, llmtest.ReplyText("Done."))...)
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Run them.")
	reqs := llm.Requests()
	for i, c := range recorded.Cases {
		got := reqs[i+1].ToolResult(fmt.Sprintf("call_%d", i))
		blocked := strings.HasPrefix(got, "Error: a hook blocked this call")
		if blocked != c.Blocked || !blocked && strings.TrimSpace(got) != c.Read {
			t.Errorf("%s: the model read %q; in Claude Code the call was blocked: %v, and read %q", c.Name, got, c.Blocked, c.Read)
		}
	}
}

// PostToolUse runs after a call that succeeded and PostToolUseFailure
// after one that failed, each alone, as in Claude Code; the failure hook
// reads the error, and what it says on exit 2 reaches the model with the
// result.
func TestPostToolUseHooksHearOfOutcomes(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	succeeded, failed := filepath.Join(t.TempDir(), "successes.jsonl"), filepath.Join(t.TempDir(), "failures.jsonl")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {
  "PostToolUse": [{"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "cat >> ` + succeeded + `; echo >> ` + succeeded + `"}]}],
  "PostToolUseFailure": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "cat >> ` + failed + `; echo >> ` + failed + `; echo 'run make deps first' >&2; exit 2"}]}]}}`})
	llm := llmtest.New(t, bashCall("call_ok", "echo fine"), bashCall("call_bad", "exit 3"),
		llmtest.Reply(llmtest.ToolCall("call_write", "write", `{"file_path":"notes.txt","content":"done"}`, 1)), llmtest.ReplyText("Will do."))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Build it.")
	reqs := llm.Requests()
	if got := reqs[1].ToolResult("call_ok"); strings.Contains(got, "make deps") {
		t.Errorf("the failure hook ran after a call that succeeded: %q", got)
	}
	if got := reqs[2].ToolResult("call_bad"); !strings.Contains(got, "exit code: 3") || !strings.HasSuffix(got, "[hook] run make deps first") {
		t.Errorf("the model read %q", got)
	}
	raw, _ := os.ReadFile(failed)
	if lines := strings.Split(strings.TrimSpace(string(raw)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], `"hook_event_name":"PostToolUseFailure"`) ||
		!strings.Contains(lines[0], `"error":"`) || !strings.Contains(lines[0], `"is_interrupt":false`) || !strings.Contains(lines[0], `"tool_name":"Bash"`) ||
		!strings.Contains(lines[0], `"duration_ms":`) {
		t.Errorf("the failure hook read:\n%s", raw)
	}
	// Claude Code's scripts read a command's stdout and the file a tool
	// wrote from tool_response, in the Agent SDK's shapes (BashOutput,
	// FileWriteOutput), with the filePath and success its docs show.
	raw, _ = os.ReadFile(succeeded)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var write struct {
		ToolName     string `json:"tool_name"`
		ToolResponse struct {
			FilePath, Type string
			Success        bool
		} `json:"tool_response"`
	}
	if len(lines) == 2 {
		_ = json.Unmarshal([]byte(lines[1]), &write)
	}
	if len(lines) != 2 || !strings.Contains(lines[0], `"hook_event_name":"PostToolUse"`) ||
		!strings.Contains(lines[0], `"tool_use_id":"call_ok"`) || !strings.Contains(lines[0], `"stdout":"fine"`) ||
		!strings.Contains(lines[0], `"duration_ms":`) ||
		write.ToolName != "Write" || write.ToolResponse.FilePath != filepath.Join(cwd, "notes.txt") || !write.ToolResponse.Success || write.ToolResponse.Type != "create" {
		t.Errorf("the success hook read:\n%s", raw)
	}
}

// StopFailure runs when a turn ends on an error of the model's API, its
// matcher on the error's type by Claude Code's names.
func TestStopFailureHookHearsOfAFailedTurn(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	seen := filepath.Join(t.TempDir(), "failure.json")
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"StopFailure": [
  {"matcher": "rate_limit", "hooks": [{"type": "command", "command": "echo wrong"}]},
  {"matcher": "authentication_failed", "hooks": [{"type": "command", "command": "cat > ` + seen + `.part; mv ` + seen + `.part ` + seen + `"}]}]}}`})
	llm := llmtest.New(t, llmtest.HTTPError(401, "Authentication Fails, Your api key is invalid"))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Hello.")
	testkit.Eventually(t, "the StopFailure hook's run", func() bool { _, err := os.Stat(seen); return err == nil })
	raw, _ := os.ReadFile(seen)
	for _, want := range []string{`"hook_event_name":"StopFailure"`, `"error":"authentication_failed"`, `"error_details":"`, "api key is invalid"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the hook read %s, without %s", raw, want)
		}
	}
	testkit.Eventually(t, "the run logged", func() bool { return len(hookRuns(s)) > 0 })
	if runs := hookRuns(s); len(runs) != 1 || runs[0].Event != "stop_failure" || runs[0].Outcome != "ok" {
		t.Errorf("want the one matching hook's run, got %+v", runs)
	}
}

// PermissionRequest hooks answer approvals in the user's place, as in
// Claude Code: a decision of allow runs the call unasked, exit 2 denies
// it with its reason, and a hook that says nothing leaves the question to
// the user.
func TestPermissionRequestHookAnswersInTheUsersPlace(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{
		".claude/decide.sh": `input=$(cat)
case "$input" in
*'"command":"echo tests pass"'*) echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}' ;;
*'"command":"rm -f build.log"'*) echo 'no deleting here' >&2; exit 2 ;;
esac`,
		".claude/settings.json": `{"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh ` + user + `/.claude/decide.sh"}]}]}}`,
	})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_ok", "bash", `{"command":"echo tests pass","description":"Test"}`, 1),
			llmtest.ToolCall("call_rm", "bash", `{"command":"rm -f build.log","description":"Clean"}`, 1),
			llmtest.ToolCall("call_ask", "bash", `{"command":"echo asked","description":"Ask"}`, 1)),
		llmtest.ReplyText("Done."))
	s := openEnv(t, home, cwd, "ask", llm, map[string]string{"HOME": user})
	asked := denyApprovals(t, s.Broker)
	runTurn(t, s, "Test and clean.")
	got := llm.Requests()[1]
	if r := got.ToolResult("call_ok"); !strings.Contains(r, "tests pass") {
		t.Errorf("the allowed call answered %q", r)
	}
	if r := got.ToolResult("call_rm"); !strings.Contains(r, "a permission_request hook denied this call: no deleting here") {
		t.Errorf("the denied call answered %q", r)
	}
	if len(*asked) != 1 || !strings.Contains((*asked)[0].Summary, "echo asked") {
		t.Errorf("want only the undecided call put to the user, got %+v", *asked)
	}
}

// A prompt Stop hook, as Claude Code users write them, asks the session's
// model (without thinking) whether the answer the turn would end on is
// done; its "ok": false keeps the turn going with the reason.
func TestPromptStopHookKeepsTheTurnGoing(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {"Stop": [{"hooks": [{"type": "prompt",
  "prompt": "Review the assistant's final response: $ARGUMENTS. If it skipped the tests, respond {\"ok\": false, \"reason\": \"Run the tests.\"}; otherwise {\"ok\": true}."}]}]}}`})
	llm := llmtest.New(t, llmtest.ReplyText("Fixed it; tests are for later."), llmtest.ReplyText("Ran the tests: all pass."))
	judging := func(r llmtest.Request) bool {
		return strings.Contains(r.Messages[0].Content, "You are evaluating a hook condition")
	}
	llm.Route(judging, llmtest.Reply(llmtest.Text(`{"ok": false, "reason": "Run the tests."}`, 0), llmtest.Usage(0, 210, 14, 0)),
		llmtest.Reply(llmtest.Text(`{"ok": true, "reason": ""}`, 0), llmtest.Usage(0, 230, 9, 0)))
	s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Fix the bug.")
	main, judged := partition(llm.Requests(), judging)
	if len(main) != 2 || len(judged) != 2 {
		t.Fatalf("%d requests of the turn and %d of the hook, want 2 and 2", len(main), len(judged))
	}
	if got := lastMessage(main[1]).Content; !strings.Contains(got, "Run the tests.") {
		t.Errorf("the turn went on without the hook's reason: %q", got)
	}
	if q := judged[0].Messages[1].Content; !strings.Contains(q, `"last_assistant_message":"Fixed it; tests are for later."`) {
		t.Errorf("the hook's question: %q", q)
	}
	if judged[0].Thinking == nil || judged[0].Thinking.Type != "disabled" || judged[0].Header.Get("X-Tack-Purpose") != "hook" {
		t.Errorf("the hook's request thinks (%+v) or is not marked (%q)", judged[0].Thinking, judged[0].Header.Get("X-Tack-Purpose"))
	}
	// What the judging cost counts in the session's usage.
	var spent []string
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.SideUsage); ok && d.Purpose == "hook" {
			spent = append(spent, fmt.Sprintf("%d+%d", d.Usage.Input, d.Usage.Output))
		}
	}
	if got := strings.Join(spent, ", "); got != "210+14, 230+9" {
		t.Errorf("want both judgements' usage logged, got %q", got)
	}
}

// disableAllHooks in the user's settings turns off the hooks of Claude
// Code's files and the status line; in a project's, the project's hooks
// alone, as a project may not turn off the user's guards; a local file's
// false wins over the shared file's true, by Claude Code's order.
func TestDisableAllHooks(t *testing.T) {
	hook := func(word string) string {
		return `"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo ` + word + `"}]}]`
	}
	cases := []struct {
		name                  string
		user, project, local  string
		wantUser, wantProject bool
	}{
		{name: "none", user: `{"hooks": {` + hook("user-hook") + `}}`, project: `{"hooks": {` + hook("project-hook") + `}}`,
			wantUser: true, wantProject: true},
		{name: "the user's", user: `{"disableAllHooks": true, "statusLine": {"type": "command", "command": "echo line"}, "hooks": {` + hook("user-hook") + `}}`,
			project: `{"hooks": {` + hook("project-hook") + `}}`},
		{name: "a project's", user: `{"hooks": {` + hook("user-hook") + `}}`, project: `{"disableAllHooks": true, "hooks": {` + hook("project-hook") + `}}`,
			wantUser: true},
		{name: "local over project", user: `{"hooks": {` + hook("user-hook") + `}}`, project: `{"disableAllHooks": true, "hooks": {` + hook("project-hook") + `}}`,
			local: `{"disableAllHooks": false}`, wantUser: true, wantProject: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
			files := map[string]string{filepath.Join(user, ".claude", "settings.json"): c.user, filepath.Join(cwd, ".claude", "settings.json"): c.project}
			if c.local != "" {
				files[filepath.Join(cwd, ".claude", "settings.local.json")] = c.local
			}
			testkit.WriteTree(t, "/", files)
			llm := llmtest.New(t, llmtest.ReplyText("ok"))
			s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": user})
			answerQuestions(t, s.Broker, approveSession)
			runTurn(t, s, "hi")
			var all strings.Builder
			for _, m := range llm.Requests()[0].Messages {
				all.WriteString(m.Content)
			}
			if got := strings.Contains(all.String(), "user-hook"); got != c.wantUser {
				t.Errorf("the user's hook ran: %v, want %v", got, c.wantUser)
			}
			if got := strings.Contains(all.String(), "project-hook"); got != c.wantProject {
				t.Errorf("the project's hook ran: %v, want %v", got, c.wantProject)
			}
			if _, err := s.StatusLine(context.Background(), hooks.StatusInput{}); c.name == "the user's" && !errors.Is(err, ErrNoStatusLine) {
				t.Errorf("the status line runs: %v", err)
			}
		})
	}
}

// An edit or a write its tool would refuse (of a file the model has not
// read, or of text the file does not hold) fails before a PreToolUse hook
// hears of it or the user is asked, as Claude Code validates a call's
// input first: found in a real terminal, where tack asked to allow an
// edit, showed its diff, and then refused it. One that would apply is
// asked about.
func TestCallsThatWouldFailAreNotPutToTheUser(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	heard := filepath.Join(t.TempDir(), "heard")
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[[hooks.pre_tool_use]]\ncommand = \"cat >> "+heard+"; echo >> "+heard+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	edit := func(id, old string) llmtest.Part {
		return llmtest.ToolCall(id, "edit", `{"file_path":"a.txt","old_string":"`+old+`","new_string":"1"}`, 1)
	}
	llm := llmtest.New(t,
		llmtest.Reply(edit("c1", "one"), llmtest.ToolCall("c2", "write", `{"file_path":"b.txt","content":"2\n"}`, 1)),
		llmtest.Reply(llmtest.ToolCall("c3", "read", `{"file_path":"a.txt"}`, 1)),
		llmtest.Reply(edit("c4", "three")),
		llmtest.Reply(edit("c5", "one")),
		llmtest.ReplyText("done"))
	s := openEnv(t, home, cwd, "ask", llm, nil)
	asked := denyApprovals(t, s.Broker)
	runTurn(t, s, "Change the files.")
	reqs := llm.Requests()
	for _, c := range []struct {
		req        int
		id, result string
	}{
		{1, "c1", "has not been read in this session"},
		{1, "c2", "has not been read in this session"},
		{3, "c4", "old_string was not found in"},
	} {
		if got := reqs[c.req].ToolResult(c.id); !strings.HasPrefix(got, "Error: ") || !strings.Contains(got, c.result) {
			t.Errorf("%s: want the tool's refusal (%q), got %q", c.id, c.result, got)
		}
	}
	if len(*asked) != 1 || !strings.Contains(reqs[4].ToolResult("c5"), "denied") {
		t.Errorf("want only the edit that would apply asked about (and denied), got %d approvals %+v, and c5 read %q",
			len(*asked), *asked, reqs[4].ToolResult("c5"))
	}
	b, _ := os.ReadFile(heard)
	for _, id := range []string{"c1", "c2", "c4"} {
		if strings.Contains(string(b), `"`+id+`"`) {
			t.Errorf("want no PreToolUse hook run for %s, which its tool refused first; the hook read:\n%s", id, b)
		}
	}
	for _, id := range []string{"c3", "c5"} {
		if !strings.Contains(string(b), `"`+id+`"`) {
			t.Errorf("want the PreToolUse hook run for %s; it read:\n%s", id, b)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(cwd, "a.txt")); string(got) != "one\n" {
		t.Errorf("want a.txt unchanged, got %q", got)
	}
}
