package launch

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/trust"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/sandboxhelper"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestMain lets this test binary serve as the fake MCP server and as the
// sandbox helper of the sessions the tests open.
func TestMain(m *testing.M) {
	mcptest.RunIfServer()
	os.Exit(sandboxhelper.Main(m))
}

// fakeServerTOML is an [mcp_servers.NAME] table that starts the fake
// server (this test binary), logging calls to log.
func fakeServerTOML(name, log string, extra ...string) string {
	cmd, args, env := mcptest.Command(append([]string{mcptest.EnvLog + "=" + log}, extra...)...)
	return serverTOML(name, cmd, args, env)
}

// serverTOML is an [mcp_servers.NAME] table that starts cmd with its
// first argument and env.
func serverTOML(name, cmd string, args, env []string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var envTOML []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		envTOML = append(envTOML, k+" = "+q(v))
	}
	return fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\nenv = { %s }\n", name, q(cmd), q(args[0]), strings.Join(envTOML, ", "))
}

// fakeServerJSON is a .mcp.json entry for the fake server.
func fakeServerJSON(log string) map[string]any {
	cmd, args, env := mcptest.Command(mcptest.EnvLog + "=" + log)
	envMap := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		envMap[k] = v
	}
	return map[string]any{"command": cmd, "args": args, "env": envMap}
}

func openMCP(t *testing.T, home, cwd, mode string, llm *llmtest.Server) *Session {
	t.Helper()
	return openEnv(t, home, cwd, mode, llm, nil)
}

// openEnv opens a session as openMCP does, with more variables in its
// environment (HOME, CODEX_HOME).
func openEnv(t *testing.T, home, cwd, mode string, llm *llmtest.Server, more map[string]string) *Session {
	t.Helper()
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
	maps.Copy(env, more)
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: mode, Version: "test"})
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

func runTurn(t *testing.T, s *Session, prompt string) {
	t.Helper()
	s.Agent.Send(prompt)
	testkit.Settle(t, s.Agent)
}

// runCommand runs a slash command that starts a turn, and waits for the
// turn to end.
func runCommand(t *testing.T, s *Session, line string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if exec, ok := s.Commands.Execute(ctx, s.Agent, line, nil); !ok || exec.Result.Kind != "success" {
		t.Fatalf("%s: %+v (found %v)", line, exec, ok)
	}
	if err := s.Agent.WhenIdle(ctx); err != nil {
		t.Fatalf("turn did not end: %v", err)
	}
}

// requests are the requests llm got, which must be n.
func requests(t *testing.T, llm *llmtest.Server, n int) []llmtest.Request {
	t.Helper()
	reqs := llm.Requests()
	if len(reqs) != n {
		t.Fatalf("want %d requests, got %d (violations %v)", n, len(reqs), llm.Violations())
	}
	return reqs
}

// lastMessage is the message req ends with: what the model was asked.
func lastMessage(req llmtest.Request) llmtest.Message {
	return req.Messages[len(req.Messages)-1]
}

func TestMCPServerFromConfigOffersToolsAndAnswersCalls(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(fakeServerTOML("fake", log)+"trusted = true\n"), 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__fake__echo", `{"text":"hi"}`, 2)),
		llmtest.ReplyText("The server said hi."),
	)
	s := openMCP(t, home, cwd, "ask", llm)
	runTurn(t, s, "Use the echo tool.")
	reqs := requests(t, llm, 2)
	var echo *llmtest.Tool
	for i, tl := range reqs[0].Tools {
		if tl.Function.Name == "mcp__fake__echo" {
			echo = &reqs[0].Tools[i]
		}
	}
	if echo == nil {
		t.Fatalf("the first request does not offer the server's tools: %v", reqs[0].ToolNames())
	}
	if !strings.Contains(string(echo.Function.Parameters), `"text"`) || echo.Function.Description != "Echo the text back." {
		t.Errorf("echo offered as %+v", echo.Function)
	}
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), `"text":"hi"`) {
		t.Errorf("the call did not reach the server: %q", calls)
	}
	if got := reqs[1].ToolResult("call_1"); got != "echo: hi" {
		t.Errorf("the next request carries %q as the result, want the server's answer", got)
	}
	if strings.Join(reqs[0].ToolNames(), ",") != strings.Join(reqs[1].ToolNames(), ",") {
		t.Errorf("the tool list changed between steps: %v vs %v", reqs[0].ToolNames(), reqs[1].ToolNames())
	}
}

// answerQuestions answers every question of the broker with choice until
// the test ends, counting them.
func answerQuestions(t *testing.T, b *interact.Broker, choice string) *atomic.Int32 {
	t.Helper()
	asked := new(atomic.Int32)
	interacttest.Serve(t, b, func(r *interact.Request) {
		if len(r.Questions) > 0 {
			asked.Add(1)
			r.Answer([]interact.Answer{{ID: r.Questions[0].ID, Selected: []string{choice}}})
		}
	})
	return asked
}

func TestProjectMCPServersAreApprovedOnceAndRemembered(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	project, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"proj": fakeServerJSON(log)}}, "", "  ")
	os.WriteFile(filepath.Join(cwd, ".mcp.json"), project, 0o600)

	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__proj__echo", `{"text":"from the project"}`, 1)),
		llmtest.ReplyText("ok"),
		llmtest.ReplyText("again"),
	)
	s := openMCP(t, home, cwd, "full-access", llm)
	asked := answerQuestions(t, s.Broker, approveRemember)
	runTurn(t, s, "Use the project's tool.")
	if n := asked.Load(); n != 1 {
		t.Fatalf("asked %d questions, want the one approval", n)
	}
	reqs := llm.Requests()
	if got := reqs[1].ToolResult("call_1"); got != "echo: from the project" {
		t.Fatalf("result read by the model: %q (tools offered %v)", got, reqs[0].ToolNames())
	}
	s.Close()

	s2 := openMCP(t, home, cwd, "full-access", llm)
	asked2 := answerQuestions(t, s2.Broker, approveNo)
	runTurn(t, s2, "Again.")
	if asked2.Load() != 0 {
		t.Errorf("an unchanged, remembered .mcp.json was asked about again")
	}
	if names := llm.Requests()[2].ToolNames(); !strings.Contains(strings.Join(names, ","), "mcp__proj__echo") {
		t.Errorf("the remembered project server's tools are not offered: %v", names)
	}
}

func TestProjectMCPServersWithoutApprovalDoNotStart(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	project, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"proj": fakeServerJSON(log)}})
	os.WriteFile(filepath.Join(cwd, ".mcp.json"), project, 0o600)
	llm := llmtest.New(t, llmtest.ReplyText("no tools"))
	s := openMCP(t, home, cwd, "full-access", llm) // nobody mounted: as in print mode
	runTurn(t, s, "hello")
	if names := llm.Requests()[0].ToolNames(); strings.Contains(strings.Join(names, ","), "mcp__") {
		t.Errorf("unapproved project tools offered: %v", names)
	}
	if !strings.Contains(s.MCP.StatusText(), "proj · not approved") {
		t.Errorf("/mcp says:\n%s", s.MCP.StatusText())
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("the unapproved server ran")
	}
}

// Claude Code's settings choose among a project's .mcp.json servers: the
// user's own ~/.claude/settings.json approves them by name or all at
// once, as does the entry Claude Code's approval dialog keeps for the
// project in ~/.claude.json, so they start unasked (in print mode too,
// where nobody could be asked); the project's own settings may not
// approve its servers, and disabledMcpjsonServers in any of the files
// keeps one from starting.
func TestClaudeSettingsChooseAProjectsMCPServers(t *testing.T) {
	for _, c := range []struct {
		user, claudeJSON string
		started          []string
	}{
		{`{"enabledMcpjsonServers": ["mine", "off"]}`, "", []string{"mine"}},
		{`{"enableAllProjectMcpServers": true}`, "", []string{"mine", "theirs"}},
		{`{}`, `{"projects": {"CWD": {"enabledMcpjsonServers": ["mine", "off"], "disabledMcpjsonServers": ["theirs"]}}}`, []string{"mine"}},
		{`{"enableAllProjectMcpServers": true}`, `{"projects": {"CWD": {"disabledMcpjsonServers": ["theirs"]}}}`, []string{"mine", "theirs"}},
	} {
		t.Run(c.user+c.claudeJSON, func(t *testing.T) {
			home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
			log := filepath.Join(t.TempDir(), "calls.jsonl")
			servers := map[string]any{"mine": fakeServerJSON(log), "theirs": fakeServerJSON(log), "off": fakeServerJSON(log)}
			project, _ := json.Marshal(map[string]any{"mcpServers": servers})
			os.WriteFile(filepath.Join(cwd, ".mcp.json"), project, 0o600)
			os.MkdirAll(filepath.Join(cwd, ".claude"), 0o755)
			os.WriteFile(filepath.Join(cwd, ".claude", "settings.json"), []byte(`{"enabledMcpjsonServers": ["theirs"]}`), 0o600)
			os.WriteFile(filepath.Join(cwd, ".claude", "settings.local.json"), []byte(`{"disabledMcpjsonServers": ["off"]}`), 0o600)
			os.MkdirAll(filepath.Join(user, ".claude"), 0o755)
			os.WriteFile(filepath.Join(user, ".claude", "settings.json"), []byte(c.user), 0o600)
			if c.claudeJSON != "" {
				os.WriteFile(filepath.Join(user, ".claude.json"), []byte(strings.ReplaceAll(c.claudeJSON, "CWD", cwd)), 0o600)
			}

			llm := llmtest.New(t, llmtest.ReplyText("listed"))
			s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user}) // nobody asked
			runTurn(t, s, "hello")
			var offered []string
			for _, name := range llm.Requests()[0].ToolNames() {
				if server, _, ok := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__"); ok && strings.HasPrefix(name, "mcp__") && !slices.Contains(offered, server) {
					offered = append(offered, server)
				}
			}
			slices.Sort(offered)
			if !slices.Equal(offered, c.started) {
				t.Errorf("tools offered of servers %v, want %v\n/mcp:\n%s", offered, c.started, s.MCP.StatusText())
			}
			if status := s.MCP.StatusText(); strings.Contains(status, "off") {
				t.Errorf("want the disabled server left out, /mcp says:\n%s", status)
			}
		})
	}
}

func TestMCPServerCrashMidCallIsAnErrorResultAndTheSessionGoesOn(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(fakeServerTOML("fake", filepath.Join(t.TempDir(), "log"))), 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__fake__crash", `{}`, 1)),
		llmtest.ReplyText("The server crashed."),
		llmtest.ReplyText("Still here."),
	)
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "Crash it.")
	reqs := llm.Requests()
	if got := reqs[1].ToolResult("call_1"); !strings.HasPrefix(got, "Error: MCP server fake stopped during the call to crash") {
		t.Fatalf("the model read %q", got)
	}
	if names := strings.Join(reqs[1].ToolNames(), ","); strings.Contains(names, "mcp__fake__") {
		t.Errorf("the crashed server's tools are still offered: %s", names)
	}
	runTurn(t, s, "Go on.")
	if n := len(llm.Requests()); n != 3 {
		t.Fatalf("the session did not go on: %d requests", n)
	}
	if end := lastTurnEnd(s); end.Reason != session.StopCompleted {
		t.Errorf("last turn ended %+v", end)
	}
}

func lastTurnEnd(s *Session) session.TurnEnd {
	evs := s.Agent.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		if e, ok := evs[i].Data.(session.TurnEnd); ok {
			return e
		}
	}
	return session.TurnEnd{}
}

func TestMCPStreamableHTTPServerFromConfig(t *testing.T) {
	fake := mcptest.NewHTTP("")
	ts := httptest.NewServer(fake)
	defer ts.Close()
	home, cwd := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(fmt.Sprintf(
		"[mcp_servers.web]\nurl = %q\nbearer_token_env_var = \"WEB_TOKEN\"\n", ts.URL+"/mcp")), 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__web__echo", `{"text":"over http"}`, 1)),
		llmtest.ReplyText("done"),
	)
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL(), "WEB_TOKEN": "s3cret"}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: "full-access"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runTurn(t, s, "Call it over HTTP.")
	if got := llm.Requests()[1].ToolResult("call_1"); got != "echo: over http" {
		t.Fatalf("the model read %q", got)
	}
	for _, h := range fake.Headers() {
		if h.Get("Authorization") != "Bearer s3cret" {
			t.Fatalf("request without the bearer token: %v", h)
		}
	}
}

func TestMCPCommandListsServersGolden(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	cfg := fakeServerTOML("fake", filepath.Join(t.TempDir(), "log")) +
		"disabled_tools = [\"hang\", \"big\"]\n\n[mcp_servers.missing]\ncommand = \"/nonexistent/mcp-server\"\n\n[mcp_servers.bad]\nargs = [\"x\"]\n"
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600)
	os.WriteFile(filepath.Join(cwd, ".mcp.json"), []byte("{\n  \"mcpServers\": {\n    \"p\": {\"command\": 5}\n  }\n}\n"), 0o600)
	llm := llmtest.New(t, llmtest.ReplyText("ok"))
	s := openMCP(t, home, cwd, "full-access", llm)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.MCP.Settle(ctx)
	exec, ok := s.Commands.Execute(ctx, s.Agent, "/mcp", nil)
	if !ok || exec.Result.Kind != "success" {
		t.Fatalf("/mcp: %+v", exec)
	}
	got := strings.NewReplacer(home, "$TACK_HOME", cwd, "$PROJECT").Replace(exec.Result.Text)
	got = regexp.MustCompile(`cannot start [^:]+: .*`).ReplaceAllString(got, "cannot start /nonexistent/mcp-server: …")
	golden := filepath.Join("testdata", "mcp.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, []byte(got+"\n"), 0o644)
	}
	want, _ := os.ReadFile(golden)
	if got+"\n" != string(want) {
		t.Errorf("/mcp output differs from %s (run with -update):\n%s", golden, got)
	}
	// The files' problems and the failed server were each told once, with
	// their file and line.
	notices := noticesOf(t, s, 3)
	for _, want := range []string{
		"config.toml line 10: mcp_servers.bad: set command",
		".mcp.json line 3: server \"p\": command should be a string",
		"MCP server missing failed to start",
	} {
		if !strings.Contains(notices, want) {
			t.Errorf("notices lack %q:\n%s", want, notices)
		}
	}
}

// noticesOf subscribes and returns the text of the first n notices.
func noticesOf(t *testing.T, s *Session, n int) string {
	t.Helper()
	_, sub := s.Agent.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var texts []string
	for len(texts) < n {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("only %d notices: %q", len(texts), texts)
		}
		for _, e := range evs {
			if n, ok := e.(agent.Notice); ok {
				texts = append(texts, n.Text)
			}
		}
	}
	return strings.Join(texts, "\n")
}

func TestMCPToolListChangeTakesEffectBetweenStepsAndHugeResultsSpill(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(fakeServerTOML("fake", filepath.Join(t.TempDir(), "log"))), 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__fake__change", `{}`, 1)),
		llmtest.Reply(llmtest.ToolCall("call_2", "mcp__fake__echo", `{"text":"x"}`, 1)),
		llmtest.Reply(llmtest.ToolCall("call_3", "mcp__fake__big", `{}`, 1)),
		llmtest.ReplyText("done"),
	)
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "Change the tools, then fetch something big.")
	reqs := requests(t, llm, 4)
	before, after := toolsJSON(reqs[0]), toolsJSON(reqs[2])
	if strings.Contains(before, "mcp__fake__added") || !strings.Contains(after, "mcp__fake__added") {
		t.Fatalf("want the added tool offered after the change only:\n%v\n%v", reqs[0].ToolNames(), reqs[2].ToolNames())
	}
	// The server's notification and its answer race; the list changes at
	// the step boundary after the notification, and the request bytes
	// are otherwise the same from step to step.
	if mid := toolsJSON(reqs[1]); mid != before && mid != after {
		t.Errorf("the tool list changed inside a step: %v", reqs[1].ToolNames())
	}
	if toolsJSON(reqs[3]) != after {
		t.Error("the tool list changed between two steps without a list_changed")
	}
	if want := strings.Replace(strings.Join(reqs[0].ToolNames(), ","), "mcp__fake__big", "mcp__fake__added,mcp__fake__big", 1); strings.Join(reqs[2].ToolNames(), ",") != want {
		t.Errorf("want the same tools in the same order plus the added one, got %v", reqs[2].ToolNames())
	}
	big := reqs[3].ToolResult("call_3")
	if len(big) > 60_000 || !strings.Contains(big, filepath.Join(home, "spill")) {
		t.Errorf("a 200 KB result was not capped and spilled (%d bytes): %.300s", len(big), big)
	}
}

// claude -p's --mcp-config adds servers the user named on the command
// line: they start without the project's approval and win over a
// config.toml server of the same name; --strict-mcp-config leaves every
// other server out.
func TestMCPConfigFlagAddsTheUsersServersAndStrictKeepsOnlyThem(t *testing.T) {
	home, cwd, logs := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(fakeServerTOML("cfg", filepath.Join(logs, "cfg"))+
		fakeServerTOML("both", filepath.Join(logs, "both-config"))), 0o600)
	project, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"proj": fakeServerJSON(filepath.Join(logs, "proj"))}})
	os.WriteFile(filepath.Join(cwd, ".mcp.json"), project, 0o600)
	inline, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"flag": fakeServerJSON(filepath.Join(logs, "flag"))}})
	file, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"both": fakeServerJSON(filepath.Join(logs, "both-flag"))}})
	os.WriteFile(filepath.Join(logs, "servers.json"), file, 0o600)
	configs := []string{string(inline), filepath.Join(logs, "servers.json")}

	for _, strict := range []bool{false, true} {
		llm := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("call_1", "mcp__both__echo", `{"text":"hi"}`, 1)), llmtest.ReplyText("ok"))
		env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
		s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, PermissionMode: "full-access",
			MCPConfigs: configs, StrictMCPConfig: strict})
		if err != nil {
			t.Fatal(err)
		}
		runTurn(t, s, "Use the tools.") // nobody answers: the project's server waits for an approval
		offered := strings.Join(llm.Requests()[0].ToolNames(), ",")
		for name, want := range map[string]bool{"mcp__flag__echo": true, "mcp__both__echo": true, "mcp__cfg__echo": !strict, "mcp__proj__echo": false} {
			if strings.Contains(offered, name) != want {
				t.Errorf("strict %v: want %s offered %v, got %s", strict, name, want, offered)
			}
		}
		if calls, _ := os.ReadFile(filepath.Join(logs, "both-flag")); !strings.Contains(string(calls), `"text":"hi"`) {
			t.Errorf("strict %v: the call went to config.toml's server of the name, not --mcp-config's", strict)
		}
		if status := s.MCP.StatusText(); strings.Contains(status, "proj") == strict {
			t.Errorf("strict %v: /mcp says:\n%s", strict, status)
		}
		s.Close()
		os.Remove(filepath.Join(logs, "both-flag"))
	}
}

// An .mcp.json entry of type "sse" reaches a server of the older HTTP+SSE
// transport: here the MCP Go SDK's own SSE handler, not tack's fake.
func TestMCPServerOverTheOldSSETransport(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "adder", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "add", Description: "Add two numbers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in struct{ X, Y int }) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.X + in.Y)}}}, nil, nil
		})
	ts := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__adder__add", `{"X":2,"Y":3}`, 1)),
		llmtest.ReplyText("5"),
	)
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL()}
	config := fmt.Sprintf(`{"mcpServers": {"adder": {"type": "sse", "url": %q}}}`, ts.URL)
	s, err := Open(Options{Home: t.TempDir(), Cwd: t.TempDir(), Getenv: func(k string) string { return env[k] },
		PermissionMode: "full-access", MCPConfigs: []string{config}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runTurn(t, s, "Add 2 and 3.")
	if got := llm.Requests()[1].ToolResult("call_1"); got != "5" {
		t.Fatalf("the model read %q (tools offered %v)", got, llm.Requests()[0].ToolNames())
	}
	if status := s.MCP.StatusText(); !strings.Contains(status, "sse") {
		t.Errorf("/mcp does not say the transport:\n%s", status)
	}
}

// The servers `claude mcp add` kept in ~/.claude.json, the user's and the
// project's local ones (the local one winning), are offered at the first
// step, though the file is read only once the servers start; one that a
// config.toml server of its name shadows is left out, with a notice.
func TestClaudeCodeUserServersFromClaudeJSONAreOffered(t *testing.T) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(fakeServerTOML("shadowed", log)+"trusted = true\n"), 0o600)
	claudeJSON, _ := json.Marshal(map[string]any{
		"numStartups": 3,
		"mcpServers":  map[string]any{"fake": map[string]any{"command": "/no/such/server"}, "shadowed": fakeServerJSON(log)},
		"projects": map[string]any{
			cwd:          map[string]any{"history": []any{}, "mcpServers": map[string]any{"fake": fakeServerJSON(log)}},
			"/elsewhere": map[string]any{"mcpServers": map[string]any{"other": fakeServerJSON(log)}},
		},
	})
	os.WriteFile(filepath.Join(userHome, ".claude.json"), claudeJSON, 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__fake__echo", `{"text":"hi"}`, 2)),
		llmtest.ReplyText("The server said hi."),
	)
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": userHome})
	runTurn(t, s, "Use the echo tool.")
	reqs := llm.Requests()
	names := strings.Join(reqs[0].ToolNames(), " ")
	if !strings.Contains(names, "mcp__fake__echo") || strings.Contains(names, "mcp__other__") {
		t.Fatalf("the first request offers %s", names)
	}
	if got := reqs[1].ToolResult("call_1"); got != "echo: hi" {
		t.Errorf("the call of the local server answered %q", got)
	}
	shadowed := false
	for _, n := range notices(t, s) {
		shadowed = shadowed || strings.Contains(n, `server "shadowed" is also in config.toml, which wins`)
	}
	if !shadowed {
		t.Errorf("want a notice that config.toml's server wins, got %q", notices(t, s))
	}
}

// The MCP servers of codex's config.toml ($CODEX_HOME, here) are the
// user's own and start unasked; the rest of the file is codex's alone.
func TestCodexServersFromCodexConfigAreOffered(t *testing.T) {
	home, cwd, codex := t.TempDir(), t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	os.WriteFile(filepath.Join(codex, "config.toml"), []byte("model = \"gpt-5-codex\"\napproval_policy = \"never\"\n\n"+
		fakeServerTOML("fake", log)+"trusted = true\n\n[profiles.fast]\nmodel = \"o4-mini\"\n"), 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__fake__echo", `{"text":"hi"}`, 2)),
		llmtest.ReplyText("The server said hi."),
	)
	s := openEnv(t, home, cwd, "auto", llm, map[string]string{"CODEX_HOME": codex})
	runTurn(t, s, "Use the echo tool.")
	if got := llm.Requests()[1].ToolResult("call_1"); got != "echo: hi" {
		t.Errorf("the call of codex's server answered %q", got)
	}
}

// A local-scope server of ~/.claude.json wins over the project's
// .mcp.json server of its name, as in Claude Code, whether the project's
// servers were approved before or not: the user's own server runs, and
// nobody is asked about the project's, which is said.
func TestLocalScopeServerWinsOverTheProjects(t *testing.T) {
	for _, approved := range []bool{false, true} {
		t.Run(fmt.Sprint("approved=", approved), func(t *testing.T) { localScopeWins(t, approved) })
	}
}

func localScopeWins(t *testing.T, approved bool) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	theirs, mine := filepath.Join(t.TempDir(), "theirs.jsonl"), filepath.Join(t.TempDir(), "mine.jsonl")
	project, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"docs": fakeServerJSON(theirs)}})
	os.WriteFile(filepath.Join(cwd, ".mcp.json"), project, 0o600)
	if approved {
		if err := trust.Open(home).Trust(cwd, mcp.ProjectFile, trust.Digest(project)); err != nil {
			t.Fatal(err)
		}
	}
	claudeJSON, _ := json.Marshal(map[string]any{"projects": map[string]any{cwd: map[string]any{"mcpServers": map[string]any{"docs": fakeServerJSON(mine)}}}})
	os.WriteFile(filepath.Join(userHome, ".claude.json"), claudeJSON, 0o600)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__docs__echo", `{"text":"hi"}`, 2)),
		llmtest.ReplyText("Done."),
	)
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": userHome})
	var asked []string
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		asked = append(asked, fmt.Sprint(r.Questions))
		r.Decide(interact.Decision{Verdict: interact.Deny})
	})
	runTurn(t, s, "Use the docs.")
	if got := llm.Requests()[1].ToolResult("call_1"); got != "echo: hi" {
		t.Errorf("the call answered %q", got)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the local-scope server did not take the call: %v", err)
	}
	if _, err := os.Stat(theirs); err == nil || len(asked) > 0 {
		t.Errorf("the project's server ran or was asked about (%q)", asked)
	}
	want := `.mcp.json: server "docs" is also in ` + filepath.Join(userHome, ".claude.json")
	found := false
	for _, n := range notices(t, s) {
		found = found || strings.Contains(n, want) && strings.Contains(n, "(local scope), which wins")
	}
	if !found {
		t.Errorf("want a notice naming the local server, got %q", notices(t, s))
	}
}

// /bashes shows the user the background tasks the model started, with
// their state and latest output, shows one task's output, and stops one,
// which the model is told at its next request.
func TestBashesListsShowsAndStopsTheBackgroundTasks(t *testing.T) {
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo serving on 8080; sleep 60","description":"Serve the docs","run_in_background":true}`, 1)),
		llmtest.ReplyText("The docs are being served."),
		llmtest.ReplyText("Noted."),
	)
	s := openMCP(t, t.TempDir(), t.TempDir(), "full-access", llm)
	runTurn(t, s, "Serve the docs.")
	command := func(line string) commands.Result {
		exec, ok := s.Commands.Execute(context.Background(), s.Agent, line, nil)
		if !ok {
			t.Fatalf("%s is no command", line)
		}
		return exec.Result
	}
	testkit.Eventually(t, "the task's output in /bashes", func() bool { return strings.Contains(command("/bashes").Text, "> serving on 8080") })
	list := command("/bashes").Text
	for _, want := range []string{"Background tasks (1)", "bash-1 · running for ", "echo serving on 8080; sleep 60", "Serve the docs"} {
		if !strings.Contains(list, want) {
			t.Errorf("want %q in /bashes, got:\n%s", want, list)
		}
	}
	if out := command("/bashes bash-1"); out.Kind != commands.Success || !strings.Contains(out.Text, "serving on 8080") {
		t.Errorf("/bashes bash-1: %+v", out)
	}
	if res := command("/bashes kill bash-1"); res.Kind != commands.Success {
		t.Fatalf("/bashes kill bash-1: %+v", res)
	}
	if list := command("/bashes").Text; !strings.Contains(list, "bash-1 · stopped after ") {
		t.Errorf("want the task shown stopped, got:\n%s", list)
	}
	if res := command("/bashes kill bash-9"); res.Kind != commands.Error || !strings.Contains(res.Text, "/bashes lists the tasks") {
		t.Errorf("/bashes kill bash-9: %+v", res)
	}
	runTurn(t, s, "Go on.")
	var told bool
	for _, m := range llm.Requests()[2].Messages {
		told = told || strings.Contains(m.Content, "the user stopped background task bash-1 (Serve the docs)")
	}
	if !told {
		t.Errorf("want the model told the user stopped the task, got %+v", llm.Requests()[2].Messages)
	}
}
