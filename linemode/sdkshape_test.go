package linemode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// sdkRequired are the fields the Claude Agent SDK's published types mark
// required (sdk.d.ts of @anthropic-ai/claude-agent-sdk 0.3.328:
// SDKSystemMessage, SDKAssistantMessage and its Messages API BetaMessage,
// SDKUserMessage, SDKResultSuccess and SDKResultError), by line type and
// subtype. A consumer typed against them reads each of these. Left out:
// the ones tack has no true value for (apiKeySource and
// claude_code_version of init; container, context_management, diagnostics
// and stop_details of a message, all null-able).
var sdkRequired = map[string][]string{
	"system/init": {"type", "subtype", "cwd", "session_id", "tools", "mcp_servers", "model", "permissionMode",
		"slash_commands", "output_style", "skills", "plugins", "uuid"},
	"assistant":         {"type", "message", "parent_tool_use_id", "uuid", "session_id"},
	"assistant/message": {"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"},
	"user":              {"type", "message", "parent_tool_use_id", "session_id"},
	"user/message":      {"role", "content"},
	"result/success": {"type", "subtype", "duration_ms", "duration_api_ms", "is_error", "num_turns", "result",
		"stop_reason", "total_cost_usd", "usage", "modelUsage", "permission_denials", "uuid", "session_id"},
	"result/error": {"type", "subtype", "duration_ms", "duration_api_ms", "is_error", "num_turns", "stop_reason",
		"total_cost_usd", "usage", "modelUsage", "permission_denials", "errors", "uuid", "session_id"},
	// SDKElicitationCompleteMessage, of 0.3.337, declares these and no
	// more.
	"system/elicitation_complete": {"type", "subtype", "mcp_server_name", "elicitation_id", "uuid", "session_id"},
	"modelUsage": {"inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens",
		"webSearchRequests", "costUSD", "contextWindow", "maxOutputTokens"},
}

// TestStreamJSONHasEveryFieldTheAgentSDKRequires runs a turn with a tool
// call and a turn the model fails, and checks every line against
// sdkRequired.
func TestStreamJSONHasEveryFieldTheAgentSDKRequires(t *testing.T) {
	s, _, _ := streamSession(t, append(toolTurn(), llmtest.HTTPError(400, "the request is malformed"))...)
	in := `{"type":"user","message":{"role":"user","content":"what do the notes say?"}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":"and now?"}}` + "\n"
	var stdout, stderr bytes.Buffer
	Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, In: strings.NewReader(in),
		Stdout: &stdout, Stderr: &stderr})
	seen := map[string]bool{}
	for i, raw := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		var line map[string]any
		if err := json.Unmarshal([]byte(raw), &line); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		kind, _ := line["type"].(string)
		switch kind {
		case "system":
			kind += "/" + fmt.Sprint(line["subtype"])
		case "result":
			kind += "/success"
			if line["subtype"] != "success" {
				kind = "result/error"
			}
			models, _ := line["modelUsage"].(map[string]any)
			for model, u := range models {
				requireFields(t, "modelUsage of "+model, u, sdkRequired["modelUsage"])
			}
		case "assistant", "user":
			requireFields(t, kind+" message", line["message"], sdkRequired[kind+"/message"])
		}
		seen[kind] = true
		requireFields(t, kind, line, sdkRequired[kind])
	}
	for _, kind := range []string{"system/init", "assistant", "user", "result/success", "result/error"} {
		if !seen[kind] {
			t.Errorf("want a %s line, got:\n%s", kind, stdout.String())
		}
	}
}

// requireFields checks that v is an object holding every field of want.
func requireFields(t *testing.T, what string, v any, want []string) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s: want an object, got %v", what, v)
		return
	}
	for _, f := range want {
		if _, ok := obj[f]; !ok {
			t.Errorf("%s: want field %q (the Agent SDK's types require it), got %v", what, f, obj)
		}
	}
}

// pageServer is an MCP server made with the go-sdk over streamable HTTP
// whose tool connect asks the user to open a web page (URL mode, id
// el-1), then answers what then answers, given the session and the
// user's action.
func pageServer(t *testing.T, then func(ctx context.Context, ss *sdk.ServerSession, action string) string) string {
	s := sdk.NewServer(&sdk.Implementation{Name: "bank", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "connect", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Mode: elicit.ModeURL, Message: "Let tack read your balance",
				URL: "https://bank.example.com/consent", ElicitationID: "el-1"})
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: then(ctx, req.Session, string(res.Action))}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// bankSession is a print-mode session with the page server at url,
// whose user accepts every page, and a model that calls its tool connect
// and then answers answer.
func bankSession(t *testing.T, url, answer string) *launch.Session {
	config := `{"mcpServers":{"bank":{"type":"http","url":"` + url + `"}}}`
	s, _, _ := streamSessionWith(t, launch.Options{MCPConfigs: []string{config}, Unattended: true,
		Elicit: func(context.Context, elicit.Request) elicit.Result { return elicit.Result{Action: elicit.Accept} }}, nil,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__bank__connect", `{}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText(answer))
	return s
}

// TestStreamJSONSaysWhenAServerIsDoneWithAPage runs a turn whose MCP tool
// sends the user to a web page they accept and then says it is done: the
// stream must carry an elicitation_complete line of exactly the Agent
// SDK's shape, naming the server and the page's id, after the tool call
// and before its result (the server answers only once the line is out).
func TestStreamJSONSaysWhenAServerIsDoneWithAPage(t *testing.T) {
	heard := make(chan struct{})
	// The server says it is done with the page, and answers once the line
	// saying so is out, or after a while.
	url := pageServer(t, func(ctx context.Context, ss *sdk.ServerSession, action string) string {
		if err := ss.NotifyElicitationComplete(ctx, &sdk.ElicitationCompleteParams{ElicitationID: "el-1"}); err != nil {
			return err.Error()
		}
		select {
		case <-heard:
		case <-time.After(10 * time.Second):
		}
		return "connected: " + action
	})
	s := bankSession(t, url, "Connected.")
	r, w := io.Pipe()
	read := make(chan []string)
	go func() {
		var lines []string
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if lines = append(lines, sc.Text()); strings.Contains(sc.Text(), `"elicitation_complete"`) {
				close(heard)
			}
		}
		read <- lines
	}()
	var stderr bytes.Buffer
	out := Print(context.Background(), s, PrintOptions{Task: "connect to the bank", Format: FormatStreamJSON, Stdout: w, Stderr: &stderr,
		Turn: agent.TurnOptions{AllowedTools: []string{"mcp__bank__connect"}}})
	w.Close()
	lines := <-read
	if !out.OK() {
		t.Fatalf("want the turn to complete, got %+v (stderr %q)", out, stderr.String())
	}
	var order []string
	for _, raw := range lines {
		var line map[string]any
		if err := json.Unmarshal([]byte(raw), &line); err != nil {
			t.Fatalf("not JSON: %s", raw)
		}
		order = append(order, fmt.Sprint(line["type"], "/", line["subtype"]))
		if line["subtype"] != "elicitation_complete" {
			continue
		}
		want := sdkRequired["system/elicitation_complete"]
		if keys := slices.Sorted(maps.Keys(line)); !slices.Equal(keys, slices.Sorted(slices.Values(want))) {
			t.Errorf("elicitation_complete has fields %v, want exactly %v", keys, want)
		}
		if line["mcp_server_name"] != "bank" || line["elicitation_id"] != "el-1" || line["session_id"] != s.Agent.SessionID() || line["uuid"] == "" {
			t.Errorf("elicitation_complete = %s, want server bank, page el-1, session %s and a uuid", raw, s.Agent.SessionID())
		}
	}
	want := []string{"system/init", "assistant/<nil>", "system/elicitation_complete", "user/<nil>", "assistant/<nil>", "result/success"}
	if !slices.Equal(order, want) {
		t.Errorf("the stream's lines were %v, want %v", order, want)
	}
}

// TestStreamJSONSaysWhenAServerIsDoneWithAPageBetweenTurns has the
// server say it is done with the page only after the turn that opened it
// has ended, as a page the user finishes in their own time does: with
// stream input the elicitation_complete line must come while tack waits
// for the next message (an Agent SDK program may wait on it before it
// sends one), and one said as stdin ends must come before the stream
// ends.
func TestStreamJSONSaysWhenAServerIsDoneWithAPageBetweenTurns(t *testing.T) {
	done := make(chan string)
	url := pageServer(t, func(_ context.Context, ss *sdk.ServerSession, _ string) string {
		go func() {
			for id := range done {
				_ = ss.NotifyElicitationComplete(context.Background(), &sdk.ElicitationCompleteParams{ElicitationID: id})
			}
		}()
		return "finish on the page"
	})
	ses := bankSession(t, url, "Finish on the page.")
	inR, inW := io.Pipe()
	// The second page is done as stdin ends, after the last turn.
	in := eofReader{inR, func() {
		ses.Agent.Notify(agent.Notice{Text: "bank is done", PageDone: &elicit.Done{Server: "bank", ElicitationID: "el-2"}})
	}}
	outR, outW := io.Pipe()
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	ended := make(chan PrintOutcome)
	go func() {
		out := Print(context.Background(), ses, PrintOptions{Format: FormatStreamJSON, StreamInput: true, In: &in,
			Stdout: outW, Stderr: io.Discard, Turn: agent.TurnOptions{AllowedTools: []string{"mcp__bank__connect"}}})
		outW.Close()
		ended <- out
	}()
	next := func(want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended before a line with %s", want)
				}
				if strings.Contains(line, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no line with %s came while tack waited for the next message", want)
			}
		}
	}
	fmt.Fprintln(inW, `{"type":"user","message":{"role":"user","content":"connect to the bank"}}`)
	next(`"type":"result"`)
	done <- "el-1"
	next(`"elicitation_id":"el-1"`)
	close(done)
	inW.Close()
	next(`"elicitation_id":"el-2"`)
	if out := <-ended; !out.OK() {
		t.Errorf("want the turn to complete, got %+v", out)
	}
}

// TestPrintKeepsWhatCameAfterATurnsEnd: a notice that came in the same
// batch of events as the turn's end, after it, is said between turns,
// not dropped with the batch.
func TestPrintKeepsWhatCameAfterATurnsEnd(t *testing.T) {
	ses, _, _ := streamSession(t)
	var stdout, stderr bytes.Buffer
	p := &printer{o: PrintOptions{Format: FormatStreamJSON, Stdout: &stdout, Stderr: &stderr}, ag: ses.Agent,
		sub: agent.NewSubscription(), t: &turnRun{turn: 1}}
	p.sub.Push(agent.Logged{Event: session.Event{Seq: 1, Data: session.TurnEnd{Turn: 1, Reason: session.StopCompleted}}})
	p.sub.Push(agent.Notice{Text: "bank is done", PageDone: &elicit.Done{Server: "bank", ElicitationID: "el-1"}})
	if end := p.follow(context.Background()); end.Reason != session.StopCompleted {
		t.Fatalf("want the turn's end, got %+v", end)
	}
	p.between(p.sub.Take())
	if !strings.Contains(stderr.String(), "tack: bank is done") || !strings.Contains(stdout.String(), `"elicitation_id":"el-1"`) {
		t.Errorf("want the notice said after the turn, got stderr %q, stdout %q", stderr.String(), stdout.String())
	}
}

// eofReader reads r and calls atEOF once, when r has ended, before it
// says so.
type eofReader struct {
	r     io.Reader
	atEOF func()
}

func (e *eofReader) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	if err == io.EOF && e.atEOF != nil {
		e.atEOF()
		e.atEOF = nil
	}
	return n, err
}

// `tack -p "/mcp__server__prompt args"` runs the server's prompt, as
// claude -p does, although the task comes before the server is ready and
// has listed its prompts: print mode waits for them before it calls the
// command unknown.
func TestPrintModeRunsAnMCPPromptGivenAsTheTask(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "gh", Version: "1"}, nil)
	s.AddPrompt(&sdk.Prompt{Name: "review", Arguments: []*sdk.PromptArgument{{Name: "pr", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "Review pull request " + req.Params.Arguments["pr"]}}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	config := `{"mcpServers":{"gh":{"type":"http","url":"` + ts.URL + `"}}}`
	ses, _, srv := streamSessionWith(t, launch.Options{MCPConfigs: []string{config}, Unattended: true}, nil, llmtest.ReplyText("Reviewed."))
	var stdout, stderr bytes.Buffer
	out := Print(context.Background(), ses, PrintOptions{Task: "/mcp__gh__review 456", Format: FormatText, Stdout: &stdout, Stderr: &stderr})
	if !out.OK() || strings.TrimSpace(stdout.String()) != "Reviewed." {
		t.Fatalf("want the prompt's turn answered, got %+v, stdout %q, stderr %q", out, stdout.String(), stderr.String())
	}
	var sent bool
	for _, m := range srv.Requests()[0].Messages {
		sent = sent || m.Role == "user" && strings.Contains(m.Content, "Review pull request 456")
	}
	if !sent {
		t.Errorf("want the prompt's text sent as the user's message, got %+v", srv.Requests()[0].Messages)
	}
}
