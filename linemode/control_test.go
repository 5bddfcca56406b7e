package linemode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// controlAnswer is a control_response line as the Agent SDKs read it.
type controlAnswer struct {
	Type     string `json:"type"`
	Response struct {
		Subtype   string         `json:"subtype"`
		RequestID string         `json:"request_id"`
		Response  map[string]any `json:"response"`
		Error     string         `json:"error"`
	} `json:"response"`
}

// answers are the control responses of out, by request id.
func answers(t *testing.T, out string) map[string]controlAnswer {
	t.Helper()
	got := map[string]controlAnswer{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a controlAnswer
		if json.Unmarshal([]byte(line), &a) == nil && a.Type == "control_response" {
			got[a.Response.RequestID] = a
		}
	}
	return got
}

// An Agent SDK's session as claude-agent-sdk opens it: initialize first,
// then messages, with the mode and model set, and what tack cannot do
// answered with an error rather than silence.
func TestControlRequestsOfTheAgentSDKsAreAnswered(t *testing.T) {
	s, _, _ := streamSession(t, llmtest.ReplyText("Hi."))
	in := strings.Join([]string{
		`{"type":"control_request","request_id":"req_1","request":{"subtype":"initialize","hooks":null}}`,
		`{"type":"control_request","request_id":"req_2","request":{"subtype":"set_permission_mode","mode":"acceptEdits"}}`,
		`{"type":"control_request","request_id":"req_3","request":{"subtype":"set_permission_mode","mode":"yolo"}}`,
		`{"type":"control_request","request_id":"req_4","request":{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0"]}]}}}`,
		// As claude-agent-sdk-python writes it (_internal/query.py, stop_task).
		`{"type":"control_request","request_id":"req_5","request":{"subtype":"stop_task","task_id":"task-abc123"}}`,
		`{"type":"user","message":{"role":"user","content":"hello"},"parent_tool_use_id":null,"session_id":"default"}`,
	}, "\n") + "\n"
	var stdout, stderr bytes.Buffer
	out := Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, In: strings.NewReader(in),
		Stdout: &stdout, Stderr: &stderr})
	if len(out.Results) != 1 || out.Results[0].Result != "Hi." {
		t.Fatalf("want the message answered, got %+v (stderr %q)", out.Results, stderr.String())
	}
	got := answers(t, stdout.String())
	if a := got["req_1"]; a.Response.Subtype != "success" || a.Response.Response["commands"] == nil {
		t.Errorf("initialize: %+v", a)
	}
	if a := got["req_2"]; a.Response.Subtype != "success" || s.Policy.Mode() != "auto" {
		t.Errorf("set_permission_mode acceptEdits: %+v, mode %s", a, s.Policy.Mode())
	}
	if a := got["req_3"]; a.Response.Subtype != "error" || !strings.Contains(a.Response.Error, `"yolo"`) {
		t.Errorf("set_permission_mode yolo: %+v", a)
	}
	// This session was not opened for an SDK (cmd/tack opens those with
	// an MCP relay), so it takes no hooks later.
	if a := got["req_4"]; a.Response.Subtype != "error" || !strings.Contains(a.Response.Error, "takes no hooks after it opened") {
		t.Errorf("initialize with SDK hooks: %+v", a)
	}
	if a := got["req_5"]; a.Response.Subtype != "error" || !strings.Contains(a.Response.Error, "stop_task") || !strings.Contains(a.Response.Error, "interrupt()") {
		t.Errorf("an unsupported request: %+v", a)
	}
}

// An interrupt stops the turn under way, as the SDK's client.interrupt()
// expects; the next message still runs.
func TestControlInterruptStopsTheRunningTurn(t *testing.T) {
	slow := llmtest.Reply(llmtest.Text(strings.Repeat("a long answer ", 200), 1), llmtest.Pace(20*time.Millisecond))
	s, _, _ := streamSession(t, slow, llmtest.ReplyText("Next."))
	r, w := io.Pipe()
	var stdout testkit.Buffer
	done := make(chan PrintOutcome)
	go func() {
		done <- Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, In: r, Stdout: &stdout, Stderr: io.Discard})
	}()
	io.WriteString(w, `{"type":"user","message":{"role":"user","content":"go on"}}`+"\n")
	testkit.Eventually(t, "the turn running", func() bool { return s.Agent.Status() == agent.StatusRunning })
	io.WriteString(w, `{"type":"control_request","request_id":"req_9","request":{"subtype":"interrupt"}}`+"\n")
	testkit.Eventually(t, "the interrupt answered", func() bool { return answers(t, stdout.String())["req_9"].Response.Subtype == "success" })
	io.WriteString(w, `{"type":"user","message":{"role":"user","content":"next"}}`+"\n")
	w.Close()
	select {
	case out := <-done:
		if len(out.Results) != 2 || out.Results[0].StopReason != "aborted" || out.Results[1].StopReason != "completed" {
			t.Errorf("want the first turn aborted and the second completed, got %+v", out.Results)
		}
	case <-time.After(testkit.WaitLimit):
		t.Fatal("print mode did not end")
	}
}

// sdkClient stands for an Agent SDK's can_use_tool callback: it reads
// stdout as print mode writes it and answers each can_use_tool request on
// stdin, allowing commands that say yes.
type sdkClient struct {
	testkit.Buffer
	stdin *io.PipeWriter
	asked []string
}

func (c *sdkClient) Write(b []byte) (int, error) {
	var m struct {
		Type      string `json:"type"`
		RequestID string `json:"request_id"`
		Request   struct {
			Subtype  string `json:"subtype"`
			ToolName string `json:"tool_name"`
			Input    struct {
				Command string `json:"command"`
			} `json:"input"`
		} `json:"request"`
	}
	if json.Unmarshal(b, &m) == nil && m.Type == "control_request" && m.Request.Subtype == "can_use_tool" {
		c.asked = append(c.asked, m.Request.ToolName+" "+m.Request.Input.Command)
		answer := `{"behavior":"deny","message":"not now"}`
		if strings.Contains(m.Request.Input.Command, "yes") {
			answer = `{"behavior":"allow","updatedInput":{}}`
		}
		go io.WriteString(c.stdin, `{"type":"control_response","response":{"subtype":"success","request_id":"`+m.RequestID+`","response":`+answer+"}}\n")
	}
	return c.Buffer.Write(b)
}

// With --permission-prompt-tool stdio the SDK's can_use_tool decides what
// the mode would ask about: its allow runs the command, its deny is the
// reason the model reads, and not a failure of the run.
func TestSDKDecidesApprovalsOverTheControlProtocol(t *testing.T) {
	s, _, srv := streamSession(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo yes","description":"Say yes"}`, 1),
			llmtest.ToolCall("call_2", "bash", `{"command":"echo no","description":"Say no"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Done."))
	s.Policy.SetMode(permission.Ask)
	r, w := io.Pipe()
	client := &sdkClient{stdin: w}
	done := make(chan PrintOutcome)
	go func() {
		done <- Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, SDKApprovals: true,
			In: r, Stdout: client, Stderr: io.Discard})
	}()
	io.WriteString(w, `{"type":"user","message":{"role":"user","content":"say things"}}`+"\n")
	testkit.Eventually(t, "the turn's result", func() bool { return strings.Contains(client.String(), `"type":"result"`) })
	w.Close()
	if out := <-done; !out.OK() {
		t.Errorf("the SDK's own denial failed the run (the SDK takes a failing exit for a crash): %+v", out)
	}
	if got := srv.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "yes") {
		t.Errorf("the allowed command gave %q", got)
	}
	if got := srv.Requests()[1].ToolResult("call_2"); !strings.Contains(got, "not now") {
		t.Errorf("the denied command gave %q", got)
	}
	if strings.Join(client.asked, "; ") != "Bash echo yes; Bash echo no" && strings.Join(client.asked, "; ") != "Bash echo no; Bash echo yes" {
		t.Errorf("the SDK was asked %q", client.asked)
	}
}

// The SDK's mcpServerStatus(), reconnectMcpServer() and
// setMaxThinkingTokens() are answered: the servers and their state, a
// server the session lacks named, thinking off for a budget of 0 and
// back on for another.
func TestSDKQueriesOfServersAndThinkingAreAnswered(t *testing.T) {
	s, _, _ := streamSession(t, llmtest.ReplyText("Hi."))
	run := func(lines ...string) map[string]controlAnswer {
		var stdout, stderr bytes.Buffer
		Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true,
			In: strings.NewReader(strings.Join(lines, "\n") + "\n"), Stdout: &stdout, Stderr: &stderr})
		return answers(t, stdout.String())
	}
	got := run(`{"type":"control_request","request_id":"s","request":{"subtype":"mcp_status"}}`,
		`{"type":"control_request","request_id":"r","request":{"subtype":"mcp_reconnect","serverName":"docs"}}`,
		`{"type":"control_request","request_id":"t","request":{"subtype":"set_max_thinking_tokens","max_thinking_tokens":0}}`)
	if a := got["s"]; a.Response.Subtype != "success" || fmt.Sprint(a.Response.Response["mcpServers"]) != "[]" {
		t.Errorf("mcp_status: %+v", a)
	}
	if a := got["r"]; a.Response.Subtype != "error" || !strings.Contains(a.Response.Error, "no MCP servers") {
		t.Errorf("mcp_reconnect: %+v", a)
	}
	if _, effort := s.Agent.Model(); got["t"].Response.Subtype != "success" || effort != "off" {
		t.Errorf("set_max_thinking_tokens 0: %+v, effort %s", got["t"], effort)
	}
	run(`{"type":"control_request","request_id":"t2","request":{"subtype":"set_max_thinking_tokens","max_thinking_tokens":8000}}`)
	if _, effort := s.Agent.Model(); effort == "off" {
		t.Error("a budget above 0 left thinking off")
	}
}
