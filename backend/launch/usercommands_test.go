package launch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestCustomCommandRunsItsPromptOnItsModelWithItsAllowedTools(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{".claude/commands/git/status.md": "---\ndescription: Show the status\nmodel: deepseek-v4-pro\n" +
		"allowed-tools: Bash(echo:*)\n---\nRun `echo $0` and report on $ARGUMENTS."})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo tracked","description":"Print the word"}`, 1)),
		llmtest.ReplyText("Reported."),
	)
	s := openMCP(t, home, cwd, "ask", llm) // nobody can answer: an ask would be denied
	runCommand(t, s, "/git:status tracked files")
	reqs := requests(t, llm, 2)
	last := lastMessage(reqs[0])
	if last.Role != "user" || last.Content != "Run `echo tracked` and report on tracked files." {
		t.Errorf("the model read %+v", last)
	}
	if reqs[0].Model != "deepseek-v4-pro" {
		t.Errorf("model = %q, want the command's", reqs[0].Model)
	}
	if got := reqs[1].ToolResult("call_1"); !strings.Contains(got, "tracked") || strings.HasPrefix(got, "Error") {
		t.Errorf("the allowed command did not run: %q", got)
	}
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.ApprovalDecided); ok && d.Policy != "allowed-tools" {
			t.Errorf("decided by %+v, want allowed-tools", d)
		}
	}
}

// A command's prompt runs the commands it embeds, as Claude Code's do,
// through the bash tool under the permission mode and the command's
// allowed-tools: in ask mode with nobody to answer, the one they cover
// runs (with the arguments filled in) and the one they do not is refused,
// which fails the command before the model is asked anything.
func TestCustomCommandRunsTheShellCommandsItsPromptEmbeds(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/commands/greet.md": "---\nallowed-tools: Bash(echo:*)\n---\nGreeting: !`echo hello $0`\nReview $ARGUMENTS.",
		".claude/commands/list.md":  "---\nallowed-tools: Bash(echo:*)\n---\nFiles: !`ls`",
	})
	llm := llmtest.New(t, llmtest.ReplyText("Reviewed."))
	s := openMCP(t, home, cwd, "ask", llm)
	runCommand(t, s, "/greet world")
	reqs := requests(t, llm, 1)
	if last := lastMessage(reqs[0]); last.Content != "Greeting: hello world\nReview world." {
		t.Errorf("the model read %q", last.Content)
	}
	wantLoggedAsTyped(t, s, "/greet world")
	exec, _ := s.Commands.Execute(context.Background(), s.Agent, "/list", nil)
	if exec.Result.Kind != "error" || !strings.Contains(exec.Result.Text, "`ls`, which was refused (permission mode ask)") ||
		!strings.Contains(exec.Result.Text, filepath.Join(cwd, ".claude", "commands", "list.md")) {
		t.Errorf("want /list refused, naming its file, got %+v", exec.Result)
	}
	if n := len(llm.Requests()); n != 1 {
		t.Errorf("want no request for the refused command, got %d in all", n)
	}
}

// A command queued behind a running turn runs the shell commands of its
// prompt when its own turn starts: /show sees the file as the running
// turn left it, not as it was when the command was typed.
func TestQueuedCustomCommandRunsItsShellCommandsWhenItsTurnStarts(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/commands/show.md": "---\nallowed-tools: Bash(cat:*)\n---\nNote: !`cat note.txt`",
		"note.txt":                 "before",
	})
	llm := llmtest.New(t, bashCall("call_1", "sleep 0.5; echo after > note.txt"), llmtest.ReplyText("Written."), llmtest.ReplyText("Shown."))
	s := openMCP(t, home, cwd, "auto", llm)
	s.Agent.Send("Write the note.")
	testkit.Eventually(t, "the turn running", func() bool { return s.Agent.Status() == agent.StatusRunning })
	if exec, ok := s.Commands.Execute(context.Background(), s.Agent, "/show", nil); !ok || exec.Result.Kind != "success" {
		t.Fatalf("/show: %+v", exec.Result)
	}
	testkit.Settle(t, s.Agent)
	reqs := requests(t, llm, 3)
	if last := lastMessage(reqs[2]); last.Content != "Note: after" {
		t.Errorf("the queued command's prompt read %q", last.Content)
	}
}

// The user's own instructions follow codex to $CODEX_HOME, as its MCP
// servers, prompts and skills do: ~/.codex is codex's folder only without it.
func TestUserInstructionsFollowCodexHome(t *testing.T) {
	user, cwd, codex := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".codex/AGENTS.md": "rules codex no longer reads"})
	testkit.WriteTree(t, codex, map[string]string{"AGENTS.md": "rules where CODEX_HOME points"})
	llm := llmtest.New(t)
	s := openEnv(t, filepath.Join(user, ".tack"), cwd, "auto", llm, map[string]string{"HOME": user, "CODEX_HOME": codex})
	if sys := s.Agent.System(); !strings.Contains(sys, "rules where CODEX_HOME points") || strings.Contains(sys, "no longer reads") {
		t.Errorf("want the instructions of $CODEX_HOME and not ~/.codex's, got:\n%s", sys)
	}
}

// --agent runs the session as an agent definition, as claude --agent
// does: its prompt opens the system prompt, its tools are the session's
// and its model runs; a name no definition has is refused with the names
// there are.
func TestSessionRunsAsTheAgentNamed(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews changes\n" +
		"tools: Read, Grep\nmodel: deepseek-v4-pro\n---\nYou review code and change nothing."})
	llm := llmtest.New(t, llmtest.ReplyText("Looks fine."))
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
	o := Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test", Agent: "reviewer"}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	runTurn(t, s, "Review the diff.")
	req := llm.Requests()[0]
	if system := req.Messages[0].Content; !strings.HasPrefix(system, "You review code and change nothing.") {
		t.Errorf("the system prompt opens %.80q", system)
	}
	if got := strings.Join(req.ToolNames(), " "); got != "grep read" && got != "read grep" {
		t.Errorf("the session offered %q", got)
	}
	if req.Model != "deepseek-v4-pro" {
		t.Errorf("the request named model %q", req.Model)
	}
	// --tools narrows the agent's tools, as Claude Code's main thread
	// takes the agent's tools of those --tools left.
	o.Tools = []string{"Read", "Bash"}
	narrowed, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(narrowed.Close)
	if got := narrowed.Agent.Tools().Names(); !slices.Equal(got, []string{"read"}) {
		t.Errorf("with --tools Read,Bash the session offered %q, want read alone", got)
	}
	o.Agent = "auditor"
	if _, err := Open(o); err == nil || !strings.Contains(err.Error(), `no agent named "auditor": the agents are general, reviewer`) {
		t.Errorf("want an unknown agent refused with the names, got %v", err)
	}
}

// wantLoggedAsTyped checks that s logged its user messages as line, as
// the user typed it, not as the prompt it became.
func wantLoggedAsTyped(t *testing.T, s *Session, line string) {
	t.Helper()
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.UserMessage); ok && d.Typed != line {
			t.Errorf("want the message logged as typed, %s, got %+v", line, d)
		}
	}
}

// openAsAgent opens a session on llm run as the agent named name.
func openAsAgent(t *testing.T, home, cwd string, llm *llmtest.Server, name string) *Session {
	t.Helper()
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test", Agent: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// The agent a session runs as takes its disallowedTools away from the
// session as it does from a subagent: built-in tools by their Claude Code
// names, an MCP server's by the server's name (the shape of agents that
// inherit every tool but Write and Edit, seen in public .claude/agents).
func TestSessionAsAgentIsNotOfferedItsDisallowedTools(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	testkit.WriteTree(t, home, map[string]string{"config.toml": fakeServerTOML("fake", log) + "trusted = true\n"})
	testkit.WriteTree(t, cwd, map[string]string{".claude/agents/planner.md": "---\nname: planner\ndescription: Plans\n" +
		"disallowedTools: Write, Edit, mcp__fake\n---\nYou plan and change nothing."})
	llm := llmtest.New(t, llmtest.ReplyText("A plan."))
	s := openAsAgent(t, home, cwd, llm, "planner")
	runTurn(t, s, "Plan the change.")
	offered := llm.Requests()[0].ToolNames()
	for _, name := range offered {
		if name == "write" || name == "edit" || strings.HasPrefix(name, "mcp__fake__") {
			t.Errorf("the session offered %s, which its agent disallows: %v", name, offered)
		}
	}
	if !slices.Contains(offered, "read") || !slices.Contains(offered, "bash") {
		t.Errorf("want the tools the agent does not disallow offered, got %v", offered)
	}
}

// The tools list of the agent a session runs as keeps MCP tools to those
// it names, as it keeps a subagent's: a whole server by mcp__jobs__*, one
// tool by its full name, none of a server it does not name (the shapes of
// public .claude/agents files: "tools: Read, Grep, Glob, mcp__jobs__*",
// "mcp__github__issue_read"). A tool that joins later, when a server
// says its list changed, is kept to them too.
func TestSessionAsAgentIsOfferedOnlyTheMCPToolsItsToolsName(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	var servers string
	for _, name := range []string{"jobs", "docs", "other"} {
		servers += fakeServerTOML(name, log) + "trusted = true\n"
	}
	testkit.WriteTree(t, home, map[string]string{"config.toml": servers})
	testkit.WriteTree(t, cwd, map[string]string{".claude/agents/career.md": "---\nname: career\ndescription: Finds jobs\n" +
		"tools: Read, Grep, mcp__jobs__*, mcp__docs__echo, mcp__docs__change\n---\nYou find jobs."})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__jobs__change", `{}`, 1)),
		llmtest.Reply(llmtest.ToolCall("call_2", "mcp__docs__change", `{}`, 1)),
		llmtest.ReplyText("Listed."), llmtest.ReplyText("Still listed."))
	s := openAsAgent(t, home, cwd, llm, "career")
	runTurn(t, s, "Change both lists.")
	testkit.Eventually(t, "both servers' added tools", func() bool {
		var have []string
		for _, tool := range s.MCP.Tools() {
			have = append(have, tool.Spec().Name)
		}
		return slices.Contains(have, "mcp__jobs__added") && slices.Contains(have, "mcp__docs__added")
	})
	runTurn(t, s, "And now?")
	reqs := llm.Requests()
	want := "grep mcp__docs__change mcp__docs__echo mcp__jobs__big mcp__jobs__change mcp__jobs__crash mcp__jobs__echo " +
		"mcp__jobs__fail mcp__jobs__hang mcp__jobs__image read"
	if got := sortedTools(reqs[0]); got != want {
		t.Errorf("the session offered\n%s\nwant\n%s", got, want)
	}
	want = strings.Replace(want, "mcp__jobs__big", "mcp__jobs__added mcp__jobs__big", 1)
	if got := sortedTools(reqs[len(reqs)-1]); got != want {
		t.Errorf("after the lists changed, the session offered\n%s\nwant\n%s", got, want)
	}
	// /mcp lists the servers' tools as the model got them, and the rest
	// apart with what leaves them out.
	var all, offered []string
	for _, tool := range s.MCP.Tools() {
		all = append(all, tool.Spec().Name)
	}
	for _, name := range reqs[len(reqs)-1].ToolNames() {
		if strings.HasPrefix(name, "mcp__") {
			offered = append(offered, name)
		}
	}
	text := mcpStatus(t, s)
	listed, left := mcpListed(text)
	sorted := func(names ...[]string) []string { return slices.Sorted(slices.Values(slices.Concat(names...))) }
	if !slices.Equal(sorted(listed), sorted(offered)) || !slices.Equal(sorted(listed, left), sorted(all)) {
		t.Errorf("/mcp lists the tools %q and leaves out %q; the model got %q of %q:\n%s", listed, left, offered, all, text)
	}
	if !strings.Contains(text, "\nother · ready · stdio · 7 tools, 0 offered\n  not offered (left out by the tools or disallowedTools of the career agent): ") {
		t.Errorf("/mcp does not say the career agent leaves out every tool of other:\n%s", text)
	}
}

// mcpStatus is what /mcp says in s.
func mcpStatus(t *testing.T, s *Session) string {
	t.Helper()
	exec, ok := s.Commands.Execute(context.Background(), s.Agent, "/mcp", nil)
	if !ok || exec.Result.Kind != "success" {
		t.Fatalf("/mcp: %+v (found %v)", exec, ok)
	}
	return exec.Result.Text
}

// mcpListed is the tools a /mcp listing says are offered and those it
// says are not, by the names the model knows them by.
func mcpListed(text string) (offered, left []string) {
	var server string
	for _, line := range strings.Split(text, "\n") {
		if name, _, ok := strings.Cut(line, " · "); ok && !strings.HasPrefix(line, " ") {
			server = name
		}
		tools, isOffered := strings.CutPrefix(line, "  tools: ")
		_, notOffered, isLeft := strings.Cut(line, "  not offered (")
		if isLeft {
			_, tools, _ = strings.Cut(notOffered, "): ")
		}
		for _, tool := range strings.Split(tools, ", ") {
			switch {
			case isOffered:
				offered = append(offered, mcp.ToolName(server, tool))
			case isLeft:
				left = append(left, mcp.ToolName(server, tool))
			}
		}
	}
	return offered, left
}

// An agent run as the session whose tools name the agents it starts,
// Agent(worker) (the orchestrators of public .claude/agents), is offered
// only those by the task tool, as Claude Code's main thread is; an
// Agent SDK's agents added later are kept to them too. One it names that
// there is none of is told at open, with the agents there are.
func TestSessionAsAgentStartsOnlyTheAgentsItsToolsName(t *testing.T) {
	home, cwd := coordinatorTree(t, "Agent(worker, scout, critic), Read")
	llm := llmtest.New(t, llmtest.ReplyText("Planned."))
	s := openAsAgent(t, home, cwd, llm, "coordinator")
	want := "The coordinator agent names in its Agent(...) agents there are none of: scout, critic; " +
		"the agents are coordinator, general, researcher, worker " +
		"(add the missing ones to .claude/agents or --agents, or take them out of its tools)."
	if got := notices(t, s); !slices.Contains(got, want) {
		t.Errorf("got the notices\n%s\nwant among them\n%s", strings.Join(got, "\n"), want)
	}
	runTurn(t, s, "Plan it.")
	if got := sortedTools(llm.Requests()[0]); got != "read task" {
		t.Errorf("the session offered %s", got)
	}
	s.AddAgents([]subagent.Definition{{Name: "scout", Description: "Scouts"}, {Name: "critic", Description: "Criticises"},
		{Name: "scribe", Description: "Writes"}})
	if got := s.AgentNames(); !slices.Equal(got, []string{"critic", "scout", "worker"}) {
		t.Errorf("the task tool offers the agents %q, want critic, scout and worker", got)
	}
}

// An orchestrator run as the session that names one of Claude Code's
// built-in agents among those it starts ("tools: Agent(Explore, worker,
// test, reviewer), Read, Grep", a main-session coordinator of public
// .claude/agents) starts it: the task tool runs it as tack's general
// agent, as it does for any session.
func TestSessionAsAgentStartsTheClaudeCodeAgentsItsToolsName(t *testing.T) {
	home, cwd := coordinatorTree(t, "Agent(Explore, worker), Read")
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("task_1", "task", `{"description":"Map it","prompt":"map the repository","subagent_type":"Explore"}`, 1)),
		llmtest.ReplyText("Planned."))
	llm.Route(llmtest.FirstUserMessage("map the repository"), llmtest.ReplyText("Mapped: one package."))
	s := openAsAgent(t, home, cwd, llm, "coordinator")
	if got := strings.Join(notices(t, s), "\n"); strings.Contains(got, "Agent(...)") {
		t.Errorf("Explore is told of as an agent there is none of:\n%s", got)
	}
	if got := s.AgentNames(); !slices.Equal(got, []string{"general", "worker"}) {
		t.Errorf("the task tool offers the agents %q, want general (for Explore) and worker", got)
	}
	runTurn(t, s, "Plan it.")
	reqs := llm.Requests()
	if got := reqs[len(reqs)-1].ToolResult("task_1"); !strings.Contains(got, "Mapped: one package.") {
		t.Errorf("the Explore task answered %q", got)
	}
}

// coordinatorTree is a home and a project whose agents are worker,
// researcher and coordinator, which may use tools.
func coordinatorTree(t *testing.T, tools string) (home, cwd string) {
	home, cwd = t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/agents/coordinator.md": "---\nname: coordinator\ndescription: Coordinates\ntools: " + tools + "\n---\nDelegate.",
		".claude/agents/worker.md":      "---\nname: worker\ndescription: Works\n---\nWork.",
		".claude/agents/researcher.md":  "---\nname: researcher\ndescription: Researches\n---\nResearch.",
	})
	return home, cwd
}

// sortedTools are the names of the tools req offers, sorted, one space
// between.
func sortedTools(req llmtest.Request) string {
	names := req.ToolNames()
	slices.Sort(names)
	return strings.Join(names, " ")
}

// A session run as an agent that names one of Claude Code's models runs
// on tack's own model, and says so, as --model sonnet does in print mode.
// Its skills open its work as they do a subagent's, and one there is none
// of is told.
func TestSessionAsAgentRunsTacksModelAndItsSkills(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/agents/writer.md":            "---\nname: writer\ndescription: Writes\nmodel: opus\nskills: [house-style, nowhere]\n---\nYou write.",
		".claude/skills/house-style/SKILL.md": "---\nname: house-style\ndescription: House style\n---\nShort sentences.",
	})
	llm := llmtest.New(t, llmtest.ReplyText("Done."))
	s := openAsAgent(t, home, cwd, llm, "writer")
	runTurn(t, s, "Write it.")
	if model := llm.Requests()[0].Model; model == "opus" || model == "" {
		t.Errorf("the request named model %q, want tack's own", model)
	}
	if got := strings.Join(notices(t, s), "\n"); !strings.Contains(got, `The writer agent names Claude Code's model "opus"`) ||
		!strings.Contains(got, "there are none of here: nowhere") {
		t.Errorf("want a notice that the agent's model does not run and its skill nowhere is missing, got %q", got)
	}
	if system := llm.Requests()[0].Messages[0].Content; !strings.HasPrefix(system, "You write.") || !strings.Contains(system, "Short sentences.") {
		t.Errorf("want the agent's prompt, then its skill, in the system prompt:\n%s", system)
	}
}

// An agent's maxTurns bounds it as a subagent; Claude Code does not
// apply it to the main thread of claude --agent, and neither does tack,
// but says so at open rather than let the file's limit look kept (the
// shape of public agents that set "maxTurns: 30" beside their tools).
func TestSessionAsAgentTellsItsMaxTurnsDoNotBoundIt(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/agents/triage.md": "---\nname: triage\ndescription: Triages\ntools: Read\nmaxTurns: 1\n---\nYou triage.",
		"a.txt":                    "alpha",
	})
	llm := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("call_1", "read", `{"file_path":"a.txt"}`, 1)), llmtest.ReplyText("Triaged."))
	s := openAsAgent(t, home, cwd, llm, "triage")
	runTurn(t, s, "Triage it.")
	want := "The triage agent sets maxTurns: 1, which bounds it as a subagent only: as in Claude Code, the session run as it " +
		"is not bounded (in print mode, --max-turns 1 bounds each turn)."
	if got := notices(t, s); !slices.Contains(got, want) {
		t.Errorf("want the notice %q, got %q", want, got)
	}
	if n := len(llm.Requests()); n != 2 {
		t.Errorf("the turn made %d requests, want both it was given", n)
	}
}

// Claude Code's "agent" setting runs sessions as that agent, the
// project's local file over the user's; one that names no definition is
// a notice, and the session runs as tack.
func TestSettingsAgentRunsTheSessionAsIt(t *testing.T) {
	home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/agents/reviewer.md":  "---\nname: reviewer\ndescription: Reviews\n---\nYou review code.",
		".claude/agents/writer.md":    "---\nname: writer\ndescription: Writes\n---\nYou write docs.",
		".claude/settings.local.json": `{"agent": "writer"}`,
	})
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"agent": "reviewer"}`})
	llm := llmtest.New(t, llmtest.ReplyText("Ok."), llmtest.ReplyText("Ok."))
	open := func() *Session {
		env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}
		s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	runTurn(t, open(), "Go.")
	if system := llm.Requests()[0].Messages[0].Content; !strings.HasPrefix(system, "You write docs.") {
		t.Errorf("the system prompt opens %.60q", system)
	}
	testkit.WriteTree(t, cwd, map[string]string{".claude/settings.local.json": `{"agent": "nobody"}`})
	s := open()
	runTurn(t, s, "Go.")
	if system := llm.Requests()[1].Messages[0].Content; !strings.HasPrefix(system, "You are tack") {
		t.Errorf("the system prompt opens %.60q", system)
	}
	want := `.claude/settings.local.json: agent "nobody" is no agent definition of .claude/agents, ~/.claude/agents or a plugin; the session runs as tack itself`
	if got := notices(t, s); !slices.Contains(got, want) {
		t.Errorf("want the notice %q, got %q", want, got)
	}
}

// goSDKPromptServer is the go-sdk's own MCP server over streamable HTTP,
// as the .mcp.json entry named gh (of the shape --mcp-config takes),
// offering the prompt pr_review (pr required, a number; focus optional)
// and broken, which it refuses.
func goSDKPromptServer(t *testing.T) (*sdk.Server, string) {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "gh", Version: "1"}, nil)
	srv.AddPrompt(&sdk.Prompt{Name: "pr_review", Description: "Review a pull request",
		Arguments: []*sdk.PromptArgument{{Name: "pr", Required: true}, {Name: "focus"}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			a := req.Params.Arguments
			if strings.Trim(a["pr"], "0123456789") != "" {
				return nil, fmt.Errorf("pr is a number")
			}
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user",
				Content: &sdk.TextContent{Text: fmt.Sprintf("Review PR %s focusing on %q.", a["pr"], a["focus"])}}}}, nil
		})
	srv.AddPrompt(&sdk.Prompt{Name: "broken"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return nil, fmt.Errorf("no repository configured")
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return srv, fmt.Sprintf(`{"mcpServers": {"gh": {"type": "http", "url": %q}}}`, ts.URL)
}

// waitCommands waits until the session's commands named mcp__gh__* are
// want.
func waitCommands(t *testing.T, s *Session, want ...string) {
	t.Helper()
	have := func() []string {
		var out []string
		for _, c := range s.Commands.List("") {
			if strings.HasPrefix(c.Name, "mcp__gh__") {
				out = append(out, c.Name)
			}
		}
		return out
	}
	testkit.Eventually(t, fmt.Sprintf("the commands %v", want), func() bool { return slices.Equal(have(), want) },
		func() string { return fmt.Sprint(have()) })
}

// An MCP server's prompts are slash commands once it is ready, as in
// Claude Code: the arguments typed after one fill the prompt's in order
// (quotes group words), and its text is the user's message to the model,
// shown as typed; one without a required argument is refused with the
// usage, and one the server refuses says so, neither asking the model.
// The commands follow the server's list_changed and leave with it.
func TestMCPPromptsRunAsSlashCommands(t *testing.T) {
	srv, config := goSDKPromptServer(t)
	llm := llmtest.New(t, llmtest.ReplyText("Reviewed."))
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL()}
	s, err := Open(Options{Home: t.TempDir(), Cwd: t.TempDir(), Getenv: func(k string) string { return env[k] }, MCPConfigs: []string{config}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	waitCommands(t, s, "mcp__gh__broken", "mcp__gh__pr_review")
	cmd, _ := s.Commands.Find("", "mcp__gh__pr_review")
	if cmd.Summary() != "Review a pull request (MCP)" || cmd.Input.Hint != "<pr> [focus]" {
		t.Errorf("the command reads %q with the hint %q", cmd.Summary(), cmd.Input.Hint)
	}
	for _, c := range []struct{ line, start, end string }{
		{"/mcp__gh__pr_review", "/mcp__gh__pr_review: missing the required argument pr. Usage: /mcp__gh__pr_review <pr> [focus]", ""},
		{"/mcp__gh__pr_review abc", "/mcp__gh__pr_review did not run: MCP server gh refused its prompt pr_review: ",
			"pr is a number; check the arguments against its usage, /mcp__gh__pr_review <pr> [focus]"},
		{"/mcp__gh__broken", "/mcp__gh__broken did not run: MCP server gh refused its prompt broken: ",
			"no repository configured; set right what the server names, then run /mcp__gh__broken again"},
	} {
		exec, _ := s.Commands.Execute(context.Background(), s.Agent, c.line, nil)
		if r := exec.Result; r.Kind != "error" || !strings.HasPrefix(r.Text, c.start) || !strings.HasSuffix(r.Text, c.end) {
			t.Errorf("%s: %+v, want an error from %q to %q", c.line, r, c.start, c.end)
		}
	}
	runCommand(t, s, `/mcp__gh__pr_review 456 "tests first"`)
	reqs := requests(t, llm, 1)
	if last := lastMessage(reqs[0]); last.Role != "user" || last.Content != `Review PR 456 focusing on "tests first".` {
		t.Errorf("the model read %+v", last)
	}
	wantLoggedAsTyped(t, s, `/mcp__gh__pr_review 456 "tests first"`)
	srv.AddPrompt(&sdk.Prompt{Name: "Triage Issue"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{}, nil
	})
	srv.RemovePrompts("broken")
	waitCommands(t, s, "mcp__gh__pr_review", "mcp__gh__triage_issue")
	if err := s.MCP.SetEnabled("gh", false); err != nil {
		t.Fatal(err)
	}
	waitCommands(t, s)
}

// Of MCP prompts that would be one slash command, the first is it and the
// user is told of the others, once, by a note naming both: the same
// server configured twice under names that differ in case (gh in one
// file, GH in another), two prompts of one server whose names differ in
// case and spaces, and a prompt whose command a command file of the
// user's already is.
func TestMCPPromptsOfOneCommandNameAreToldOfOnce(t *testing.T) {
	srv, _ := goSDKPromptServer(t)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	open := func(servers string, files map[string]string) *Session {
		cwd := t.TempDir()
		testkit.WriteTree(t, cwd, files)
		env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llmtest.New(t).URL()}
		s, err := Open(Options{Home: t.TempDir(), Cwd: cwd, Getenv: func(k string) string { return env[k] },
			MCPConfigs: []string{strings.ReplaceAll(servers, "URL", ts.URL)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	twice := open(`{"mcpServers": {"gh": {"type": "http", "url": "URL"}, "GH": {"type": "http", "url": "URL"}}}`, nil)
	waitCommands(t, twice, "mcp__gh__broken", "mcp__gh__pr_review")
	testkit.Eventually(t, "the note of the servers", func() bool { return len(promptNotes(t, twice)) > 0 })
	want := []string{"The MCP servers GH and gh both have prompts that are /mcp__gh__broken, /mcp__gh__pr_review: " +
		"those commands run GH's; to run gh's too, give that server another name in your MCP configuration"}
	if got := promptNotes(t, twice); !slices.Equal(got, want) {
		t.Errorf("got the notes\n%s\nwant\n%s", strings.Join(got, "\n"), want[0])
	}

	srv.AddPrompt(&sdk.Prompt{Name: "PR Review"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{}, nil
	})
	s := open(`{"mcpServers": {"gh": {"type": "http", "url": "URL"}}}`,
		map[string]string{".claude/commands/mcp__gh__broken.md": "---\ndescription: Mine\n---\nFix what is broken."})
	waitCommands(t, s, "mcp__gh__broken", "mcp__gh__pr_review")
	if cmd, _ := s.Commands.Find("", "mcp__gh__broken"); cmd.Source != "project" {
		t.Errorf("the user's command gave way to %+v", cmd)
	}
	// A change to the list lists them all again; what was told is not
	// told again.
	srv.AddPrompt(&sdk.Prompt{Name: "triage"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{}, nil
	})
	waitCommands(t, s, "mcp__gh__broken", "mcp__gh__pr_review", "mcp__gh__triage")
	want = []string{
		`The MCP server gh offers the prompts "PR Review" and "pr_review", which are both /mcp__gh__pr_review: ` +
			`the command runs "PR Review", and "pr_review" has none (ask the server's authors to name them apart)`,
		`The MCP prompt "broken" of gh would be /mcp__gh__broken, which is a command already (project), kept as it is; ` +
			`to run the prompt, give its server another name in your MCP configuration`,
	}
	if got := promptNotes(t, s); !slices.Equal(got, want) {
		t.Errorf("got the notes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// promptNotes are the notices of s that tell of MCP prompts.
func promptNotes(t *testing.T, s *Session) []string {
	t.Helper()
	var out []string
	for _, n := range notices(t, s) {
		if strings.HasPrefix(n, "The MCP ") {
			out = append(out, n)
		}
	}
	return out
}
