package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// sessionFiles lists the files of every session under home.
func sessionFiles(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(home, "sessions"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(home, path)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// --no-session-persistence (the Agent SDKs' persistSession: false) keeps
// nothing of the session once the run ends; with --resume the session
// goes on in a copy, and the original stays as it was.
func TestPrintWithoutSessionPersistenceLeavesNoSession(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("First."), llmtest.ReplyText("Second."), llmtest.ReplyText("Third."))
	home, dir := t.TempDir(), t.TempDir()
	r := startTackIn(t, srv, home, dir, "-p", "one", "--no-session-persistence")
	r.closeStdin()
	r.wantExit(0)
	if got := sessionFiles(t, home); len(got) != 0 {
		t.Errorf("want no session kept, found %q", got)
	}
	const id = "123e4567-e89b-42d3-a456-426614174000"
	r = startTackIn(t, srv, home, dir, "-p", "two", "--session-id", id)
	r.closeStdin()
	r.wantExit(0)
	kept := sessionFiles(t, home)
	before, _ := os.ReadFile(filepath.Join(home, kept[0]))
	r = startTackIn(t, srv, home, dir, "-p", "three", "--resume", id, "--no-session-persistence")
	r.closeStdin()
	r.wantExit(0)
	if msgs := srv.Requests()[2].Messages; !strings.Contains(msgs[len(msgs)-3].Content, "two") {
		t.Errorf("want the resumed run to continue the conversation, sent %+v", msgs)
	}
	after, _ := os.ReadFile(filepath.Join(home, kept[0]))
	if got := sessionFiles(t, home); strings.Join(got, " ") != strings.Join(kept, " ") || string(after) != string(before) {
		t.Errorf("want only the original, unchanged, left: %q (was %q)", got, kept)
	}
}

// --debug writes every event of the session's log to stderr as a JSON
// line, --debug=TYPES those of the types named, --debug-file to a file;
// stdout stays the answer alone.
func TestPrintDebugWritesTheSessionEvents(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("First."), llmtest.ReplyText("Second."))
	home, dir := t.TempDir(), t.TempDir()
	types := func(text string) []string {
		var out []string
		sc := bufio.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			var l struct {
				Type  string
				Event struct{ Type string }
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "session_event" {
				out = append(out, l.Event.Type)
			}
		}
		return out
	}
	r := startTackIn(t, srv, home, dir, "-p", "one", "--debug")
	r.closeStdin()
	r.wantExit(0)
	got := types(r.stderr.String())
	if r.stdout.String() != "First.\n" || len(got) < 4 || got[0] != "turn/start" || got[len(got)-1] != "turn/end" {
		t.Errorf("stdout %q, events on stderr %q", r.stdout.String(), got)
	}
	file := filepath.Join(t.TempDir(), "debug.jsonl")
	r = startTackIn(t, srv, home, dir, "-p", "two", "--debug=turn", "--debug-file", file)
	r.closeStdin()
	r.wantExit(0)
	b, _ := os.ReadFile(file)
	if got := types(string(b)); strings.Join(got, " ") != "turn/start turn/end" || r.stderr.String() != "" {
		t.Errorf("want the turn events alone in the file, got %q (stderr %q)", got, r.stderr.String())
	}
}

// calcServer answers the JSON-RPC messages of an in-process MCP server
// as the TypeScript Agent SDK's createSdkMcpServer answered them when it
// drove tack (TestTheTypeScriptAgentSDKServesItsOwnTools): one tool, add.
func calcServer(message json.RawMessage) string {
	var m struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
		Params struct {
			Arguments struct{ A, B int } `json:"arguments"`
		} `json:"params"`
	}
	json.Unmarshal(message, &m)
	if m.ID == nil { // a notification: the SDK answers anything
		return `{"jsonrpc":"2.0","result":{},"id":0}`
	}
	result := `{}`
	switch m.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"calc","version":"1.0.0"}}`
	case "tools/list":
		result = `{"tools":[{"name":"add","description":"Adds two numbers","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#",` +
			`"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]},"execution":{"taskSupport":"forbidden"}}]}`
	case "tools/call":
		result = fmt.Sprintf(`{"content":[{"type":"text","text":"sum=%d"}]}`, m.Params.Arguments.A+m.Params.Arguments.B)
	}
	return `{"jsonrpc":"2.0","id":` + string(*m.ID) + `,"result":` + result + `}`
}

// An Agent SDK names its in-process MCP servers in initialize
// (sdkMcpServers) and answers, for each, the mcp_message requests tack
// writes: the server's tools reach the model and its calls run in the
// SDK's program. Here the test plays the SDK as the real one played it.
// The project's own server (awaiting approval) is in the init line; the
// program's system prompt and agents, sent in initialize too, are the
// session's.
func TestPrintRelaysTheAgentSDKsInProcessServers(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "mcp__calc__add", `{"a":2,"b":3}`, 1)), llmtest.ReplyText("It is 5."))
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{".mcp.json": `{"mcpServers": {"docs": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}`})
	r := startTackIn(t, srv, t.TempDir(), dir, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--allowedTools", "mcp__calc__add")
	r.write(`{"type":"control_request","request_id":"init_1","request":{"subtype":"initialize","sdkMcpServers":["calc"],` +
		`"systemPrompt":["You are a careful calculator."],"appendSystemPrompt":"Answer in one line.",` +
		`"agents":{"auditor":{"description":"Audits sums","prompt":"Check the sum.","tools":["Read"]}}}}` + "\n")
	r.write(`{"type":"user","message":{"role":"user","content":"add 2 and 3"},"parent_tool_use_id":null,"session_id":""}` + "\n")
	playSDK(t, r, func(raw json.RawMessage) string {
		var req struct {
			Subtype    string          `json:"subtype"`
			ServerName string          `json:"server_name"`
			Message    json.RawMessage `json:"message"`
		}
		json.Unmarshal(raw, &req)
		if req.Subtype != "mcp_message" || req.ServerName != "calc" {
			t.Errorf("an unexpected request: %s", raw)
		}
		return `{"mcp_response":` + calcServer(req.Message) + "}"
	})
	r.closeStdin()
	r.wantExit(0)
	// The init line names the servers configured; calc comes later.
	if init, _, _ := strings.Cut(r.stdout.String(), "\n"); !strings.Contains(init, `"mcp_servers":[{"name":"docs","status":"pending"}]`) {
		t.Errorf("init = %s", init)
	}
	if got := srv.Requests()[1].ToolResult("c1"); got != "sum=5" {
		t.Errorf("the SDK's tool answered %q; %s", got, r.output())
	}
	if system := srv.Requests()[0].Messages[0].Content; !strings.HasPrefix(system, "You are a careful calculator.") ||
		!strings.HasSuffix(system, "Answer in one line.") {
		t.Errorf("the program's system prompt is not the request's: %q", system)
	}
	if !slices.ContainsFunc(srv.Requests()[0].Tools, func(tool llmtest.Tool) bool {
		return tool.Function.Name == "task" && strings.Contains(tool.Function.Description, "- auditor: Audits sums")
	}) {
		t.Error("the task tool does not offer the program's agent")
	}
}

// An Agent SDK names a program's hooks in initialize and tack calls them
// back (hook_callback) with what a hook command would read: a PreToolUse
// callback that denies, as the SDK's examples do, keeps the command from
// running, and its reason is what the model reads.
func TestPrintCallsBackTheAgentSDKsHooks(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"rm -rf build","description":"Clean"}`, 1)),
		llmtest.ReplyText("I will not."))
	dir := t.TempDir()
	r := startTackIn(t, srv, t.TempDir(), dir, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
		"--permission-mode", "bypassPermissions")
	r.write(`{"type":"control_request","request_id":"init_1","request":{"subtype":"initialize",` +
		`"hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0"],"timeout":30}],"Unknown":[{"hookCallbackIds":["hook_1"]}]}}}` + "\n")
	r.write(`{"type":"user","message":{"role":"user","content":"clean up"},"parent_tool_use_id":null,"session_id":""}` + "\n")
	var asked []string
	playSDK(t, r, func(raw json.RawMessage) string {
		var q struct {
			Subtype    string `json:"subtype"`
			CallbackID string `json:"callback_id"`
			ToolUseID  string `json:"tool_use_id"`
			Input      struct {
				Event     string                   `json:"hook_event_name"`
				ToolName  string                   `json:"tool_name"`
				ToolInput struct{ Command string } `json:"tool_input"`
			} `json:"input"`
		}
		json.Unmarshal(raw, &q)
		asked = append(asked, fmt.Sprintf("%s %s %s %s %s %s", q.Subtype, q.CallbackID, q.ToolUseID, q.Input.Event, q.Input.ToolName, q.Input.ToolInput.Command))
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Deleting build is not allowed"}}`
	})
	r.closeStdin()
	r.wantExit(0) // the program's own denial: an SDK takes a failing status for a crash
	if want := "hook_callback hook_0 c1 PreToolUse Bash rm -rf build"; strings.Join(asked, "|") != want {
		t.Errorf("tack asked %q, want %q", asked, want)
	}
	if got := srv.Requests()[1].ToolResult("c1"); !strings.Contains(got, "Deleting build is not allowed") {
		t.Errorf("the model read %q", got)
	}
	if !strings.Contains(r.stderr.String(), "the Agent SDK's Unknown hook: Unknown is not a hook event tack has") {
		t.Errorf("stderr = %q", r.stderr.String())
	}
}

// playSDK plays an Agent SDK until the turn's result is written: it
// answers each control request tack writes with the response answer
// gives for the request object.
func playSDK(t *testing.T, r *process, answer func(request json.RawMessage) string) {
	t.Helper()
	answered := map[string]bool{}
	testkit.Eventually(t, "the turn's result", func() bool {
		for _, line := range strings.Split(r.stdout.String(), "\n") {
			var m struct {
				Type      string          `json:"type"`
				RequestID string          `json:"request_id"`
				Request   json.RawMessage `json:"request"`
			}
			if json.Unmarshal([]byte(line), &m) != nil || m.Type != "control_request" || answered[m.RequestID] {
				continue
			}
			answered[m.RequestID] = true
			r.write(`{"type":"control_response","response":{"subtype":"success","request_id":"` + m.RequestID +
				`","response":` + answer(m.Request) + "}}\n")
		}
		return strings.Contains(r.stdout.String(), `"type":"result"`)
	}, r.output)
}

// Once stdin has ended nothing can answer a request to the SDK: a
// can_use_tool asked then is denied at once, saying why, and the run
// ends instead of waiting for an answer that cannot come.
func TestPrintFailsSDKRequestsOnceStdinEnds(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"touch x","description":"Touch"}`, 1)),
		llmtest.ReplyText("Could not."))
	r := startTack(t, srv, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
		"--permission-prompt-tool", "stdio", "--permission-mode", "default")
	r.write(`{"type":"user","message":{"role":"user","content":"touch x"},"parent_tool_use_id":null,"session_id":""}` + "\n")
	r.closeStdin()
	r.wantExit(0)
	if got := srv.Requests()[1].ToolResult("c1"); !strings.Contains(got, "stream ended before it answered") {
		t.Errorf("the model read %q", got)
	}
}

// The init line lists the plugins the session loaded and the agents the
// task tool offers, as claude's does.
func TestPrintInitListsPluginsAndAgents(t *testing.T) {
	kit := filepath.Join(t.TempDir(), "kit")
	testkit.WriteTree(t, kit, map[string]string{".claude-plugin/plugin.json": `{"name": "reviewkit"}`,
		"agents/critic.md": "---\nname: critic\ndescription: Finds faults\n---\nFind faults."})
	r := startTack(t, answerServer(t), "-p", "x", "--output-format", "stream-json", "--plugin-dir", kit)
	r.closeStdin()
	r.wantExit(0)
	init, _, _ := strings.Cut(r.stdout.String(), "\n")
	want := `"plugins":[{"name":"reviewkit","path":"` + kit + `"}],"agents":["general","reviewkit:critic"]`
	if !strings.Contains(init, want) {
		t.Errorf("init = %s\nwant it to hold %s", init, want)
	}
}
