package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// taskSession opens a full-access DeepSeek session on srv in a workspace
// holding a.go and b.go.
func taskSession(t *testing.T, srv *llmtest.Server) (*Session, string) {
	t.Helper()
	home, cwd := t.TempDir(), t.TempDir()
	for _, f := range []string{"a.go", "b.go"} {
		if err := os.WriteFile(filepath.Join(cwd, f), []byte("package x // "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openTaskSession(t, srv, home, cwd, ""), home
}

func openTaskSession(t *testing.T, srv *llmtest.Server, home, cwd, resume string) *Session {
	t.Helper()
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": srv.URL()}
	s, err := Open(Options{
		Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] },
		PermissionMode: "full-access", Model: "deepseek-flash", Resume: resume,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func twoTasks() llmtest.Response {
	return llmtest.Reply(
		llmtest.ToolCall("task_a", "task", `{"description":"Find A","prompt":"where is A?"}`, 1),
		llmtest.ToolCall("task_b", "task", `{"description":"Find B","prompt":"where is B?"}`, 1),
	)
}

func childEvents(t *testing.T, home, id string) (session.Header, []session.Event) {
	t.Helper()
	path, err := session.Find(home, id)
	if err != nil {
		t.Fatal(err)
	}
	h, evs, err := session.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return h, evs
}

func TestTwoParallelTasksAnswerTheParentFromChildSessions(t *testing.T) {
	srv := llmtest.New(t, twoTasks(), llmtest.ReplyText("A and B are found."))
	srv.Route(llmtest.FirstUserMessage("where is A?"),
		llmtest.Reply(llmtest.ToolCall("a_glob", "glob", `{"pattern":"a*.go"}`, 1), llmtest.Usage(0, 1000, 100, 0)),
		llmtest.Reply(llmtest.Text("A is in a.go.", 0), llmtest.Usage(500, 600, 50, 0)))
	srv.Route(llmtest.FirstUserMessage("where is B?"),
		llmtest.Reply(llmtest.ToolCall("b_read", "read", `{"file_path":"b.go"}`, 1), llmtest.Usage(0, 1000, 100, 0)),
		llmtest.Reply(llmtest.Text("B is in b.go.", 0), llmtest.Usage(500, 600, 50, 0)))
	s, home := taskSession(t, srv)
	s.Agent.Send("find A and B")
	testkit.Settle(t, s.Agent)
	srv.AssertConsumed(t)

	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Messages
	answers := map[string]string{}
	for _, m := range last {
		if m.Role == "tool" {
			answers[m.ToolCallID] = m.Content
		}
	}
	if answers["task_a"] != "A is in a.go." || answers["task_b"] != "B is in b.go." {
		t.Fatalf("want both children's answers in the parent's next request, got %v", answers)
	}

	var children []string
	var childUsage int
	for _, e := range s.Agent.Events() {
		switch d := e.Data.(type) {
		case session.TaskStart:
			children = append(children, d.Child)
		case session.TaskUsage:
			childUsage += d.Usage.Output
		}
	}
	if len(children) != 2 || childUsage != 300 {
		t.Fatalf("want two child sessions and their 300 output tokens in the parent's log, got %v and %d", children, childUsage)
	}
	proj := session.NewProjection(s.Log.Header())
	for _, e := range s.Agent.Events() {
		proj.Apply(e)
	}
	if got := proj.Usage().Sum.Output; got < 300 {
		t.Errorf("want the children's usage rolled into the parent's totals, got %d output tokens", got)
	}
	for _, id := range children {
		h, evs := childEvents(t, home, id)
		if h.Parent != s.Agent.SessionID() || h.Agent != "general" {
			t.Errorf("child %s: want its header to name parent %s and agent general, got %+v", id, s.Agent.SessionID(), h)
		}
		var tools []string
		for _, e := range evs {
			if d, ok := e.Data.(session.ToolResult); ok {
				tools = append(tools, d.Name)
			}
		}
		if len(tools) != 1 || (tools[0] != "glob" && tools[0] != "read") {
			t.Errorf("child %s: want one tool call of its own, got %v", id, tools)
		}
	}
	list, err := session.List(home, s.Cwd, false)
	if err != nil {
		t.Fatal(err)
	}
	parents := 0
	for _, sum := range list {
		if sum.Parent == s.Agent.SessionID() {
			parents++
		}
	}
	if parents != 2 {
		t.Errorf("want both children listed with their parent, got %d of %d sessions", parents, len(list))
	}
}

func TestAChildSessionResumesOnItsOwn(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("task_a", "task", `{"description":"Find A","prompt":"where is A?"}`, 1)),
		llmtest.ReplyText("found"))
	srv.Route(llmtest.FirstUserMessage("where is A?"), llmtest.ReplyText("A is in a.go."), llmtest.ReplyText("It is the only file with A."))
	s, home := taskSession(t, srv)
	s.Agent.Send("find A")
	testkit.Settle(t, s.Agent)
	var child string
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.TaskStart); ok {
			child = d.Child
		}
	}
	resumed := openTaskSession(t, srv, home, s.Cwd, child)
	if resumed.Log.Header().Parent != s.Agent.SessionID() || !resumed.Resumed {
		t.Fatalf("want the child resumed with its parent link, got %+v", resumed.Log.Header())
	}
	resumed.Agent.Send("why there?")
	testkit.Settle(t, resumed.Agent)
	srv.AssertConsumed(t)
	reqs := srv.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if msgs[len(msgs)-1].Content != "why there?" || !slices.ContainsFunc(msgs, func(m llmtest.Message) bool { return m.Content == "A is in a.go." }) {
		t.Fatalf("want the resumed child to continue its own conversation, got %+v", msgs)
	}
}

func TestEscDuringTasksCancelsTheChildren(t *testing.T) {
	srv := llmtest.New(t, twoTasks())
	srv.Route(llmtest.FirstUserMessage("where is A?"), llmtest.Reply(llmtest.Stall()))
	srv.Route(llmtest.FirstUserMessage("where is B?"), llmtest.Reply(llmtest.Stall()))
	s, home := taskSession(t, srv)
	s.Agent.Send("find A and B")
	for range 2 {
		select {
		case <-srv.Stalled():
		case <-time.After(time.Minute):
			t.Fatal("the children never asked the model")
		}
	}
	s.Agent.Cancel()
	testkit.Settle(t, s.Agent)
	var children []string
	for _, e := range s.Agent.Events() {
		switch d := e.Data.(type) {
		case session.TaskStart:
			children = append(children, d.Child)
		case session.ToolResult:
			if !d.IsError || !strings.Contains(d.Text, "cancelled with the turn") {
				t.Errorf("want the task result to say it was cancelled, got %q", d.Text)
			}
		case session.TurnEnd:
			if d.Reason != session.StopAborted {
				t.Errorf("want the parent's turn aborted, got %s", d.Reason)
			}
		}
	}
	for _, id := range children {
		_, evs := childEvents(t, home, id)
		end, ok := evs[len(evs)-1].Data.(session.TurnEnd)
		if !ok || end.Reason != session.StopAborted {
			t.Errorf("child %s: want its turn aborted, got %+v", id, evs[len(evs)-1].Data)
		}
	}
	if len(children) != 2 {
		t.Fatalf("want two children, got %v", children)
	}
}

func TestAnAgentDefinitionRestrictsTheChildsTools(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("task_r", "task", `{"description":"Read it","prompt":"read a.go","agent":"reader"}`, 1)),
		llmtest.ReplyText("ok"))
	srv.Route(llmtest.FirstUserMessage("read a.go"), llmtest.ReplyText("a.go declares package x."))
	home, cwd := t.TempDir(), t.TempDir()
	dir := filepath.Join(cwd, ".claude", "agents")
	os.MkdirAll(dir, 0o755)
	def := "---\nname: reader\ndescription: Reads files\ntools: Read, Grep\nmodel: sonnet\n---\nOnly ever read; quote what you read.\n"
	if err := os.WriteFile(filepath.Join(dir, "reader.md"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openTaskSession(t, srv, home, cwd, "")
	s.Agent.Send("what is in a.go?")
	testkit.Settle(t, s.Agent)
	srv.AssertConsumed(t)
	var child llmtest.Request
	for _, r := range srv.Requests() {
		if llmtest.FirstUserMessage("read a.go")(r) {
			child = r
		}
	}
	names := child.ToolNames()
	slices.Sort(names)
	if !slices.Equal(names, []string{"grep", "read"}) {
		t.Fatalf("want the reader agent to get read and grep only, got %v", names)
	}
	if child.Model != "deepseek-flash" || !strings.Contains(child.Messages[0].Content, "Only ever read; quote what you read.") {
		t.Errorf("want the parent's model and the definition's instructions, got model %q", child.Model)
	}
}

// An agent file that names one of Claude Code's models runs on the
// session's model, and the user is told so once, however many tasks run
// it (agent collections write "model: sonnet" or "Claude Sonnet 4.5").
func TestAnAgentOnClaudesModelRunsOnTheSessionsAndSaysSoOnce(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(
		llmtest.ToolCall("task_a", "task", `{"description":"Read A","prompt":"read a.go","agent":"reader"}`, 1),
		llmtest.ToolCall("task_b", "task", `{"description":"Read B","prompt":"read b.go","agent":"reader"}`, 1)),
		llmtest.ReplyText("ok"))
	srv.Route(llmtest.FirstUserMessage("read a.go"), llmtest.ReplyText("package x."))
	srv.Route(llmtest.FirstUserMessage("read b.go"), llmtest.ReplyText("package x."))
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{".claude/agents/reader.md": "---\nname: reader\ndescription: Reads files\n" +
		"tools: Read\nmodel: Claude Sonnet 4.5\n---\nRead.\n"})
	s := openTaskSession(t, srv, home, cwd, "")
	s.Agent.Send("what is in a.go and b.go?")
	testkit.Settle(t, s.Agent)
	for _, r := range srv.Requests() {
		if r.Model != "deepseek-flash" {
			t.Errorf("a request named model %q, want the session's deepseek-flash", r.Model)
		}
	}
	var told []string
	for _, n := range notices(t, s) {
		if strings.Contains(n, "reader agent names Claude Code's model") {
			told = append(told, n)
		}
	}
	if len(told) != 1 || !strings.Contains(told[0], `"Claude Sonnet 4.5"`) || !strings.Contains(told[0], "deepseek-flash") {
		t.Errorf("want one notice naming the agent's model and the one that runs, got %q", told)
	}
}

// Claude Code's agent files preload skills into the agent and bound its
// turns; tack does both. Their permissionMode and hooks it does not apply,
// and a skill there is none of it cannot load: the user is told once.
func TestAnAgentsSkillsAndMaxTurnsApplyAndTheRestIsTold(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("task_c", "task", `{"description":"Check","prompt":"check a.go","agent":"checker"}`, 1)),
		llmtest.ReplyText("ok"))
	srv.Route(llmtest.FirstUserMessage("check a.go"), llmtest.Reply(
		llmtest.Text("Reading a.go first.", 0), llmtest.ToolCall("read_1", "read", `{"file_path":"a.go"}`, 1)))
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		"a.go": "package x\n",
		".claude/agents/checker.md": "---\nname: checker\ndescription: Checks\ntools: Read\nmaxTurns: 1\n" +
			"skills:\n  - go-style\n  - nowhere\npermissionMode: acceptEdits\n" +
			"hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo done\n---\nCheck.\n",
		".claude/skills/go-style/SKILL.md": "---\nname: go-style\ndescription: Go style\n---\nWrap errors with context.",
	})
	s := openTaskSession(t, srv, home, cwd, "")
	s.Agent.Send("is a.go fine?")
	testkit.Settle(t, s.Agent)
	var child, last llmtest.Request
	children := 0
	for _, r := range srv.Requests() {
		if llmtest.FirstUserMessage("check a.go")(r) && len(r.Messages) == 2 {
			child = r
		}
		if r.ToolResult("task_c") != "" {
			last = r
		}
		if strings.Contains(r.Messages[0].Content, "subagent") {
			children++
		}
	}
	if children != 1 {
		t.Errorf("want maxTurns: 1 to stop the child after one request, it made %d", children)
	}
	if !strings.Contains(child.Messages[0].Content, `<skill name="go-style">`) || !strings.Contains(child.Messages[0].Content, "Wrap errors with context.") {
		t.Errorf("want the go-style skill in the child's system prompt, got:\n%s", child.Messages[0].Content)
	}
	if got := last.ToolResult("task_c"); !strings.Contains(got, "Reading a.go first.") || !strings.Contains(got, "maxTurns limit of 1") {
		t.Errorf("want the child's answer so far, said to be partial, got %q", got)
	}
	note := strings.Join(notices(t, s), "\n")
	for _, want := range []string{"The checker agent sets permissionMode and hooks, which tack does not apply", "nowhere"} {
		if !strings.Contains(note, want) {
			t.Errorf("notices lack %q:\n%s", want, note)
		}
	}
}

// A model trained on Claude Code calls its Agent tool by that name, with
// the effort the user asked for: the task tool runs it, the child at that
// effort, while the parent keeps its own.
func TestClaudeCodesAgentCallRunsAChildAtItsEffort(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("agent_a", "Agent", `{"description":"Find A","prompt":"where is A?","subagent_type":"Explore","effort":"low"}`, 1)),
		llmtest.ReplyText("A is found."))
	srv.Route(llmtest.FirstUserMessage("where is A?"), llmtest.ReplyText("A is in a.go."))
	s, _ := taskSession(t, srv)
	s.Agent.Send("find A")
	testkit.Settle(t, s.Agent)
	srv.AssertConsumed(t)
	efforts := map[string]string{}
	for _, r := range srv.Requests() {
		efforts[lastMessage(r).Content] = r.ReasoningEffort
	}
	if efforts["where is A?"] != "low" || efforts["find A"] != "high" {
		t.Fatalf("want the child at low effort and the parent at high, got %v", efforts)
	}
}
