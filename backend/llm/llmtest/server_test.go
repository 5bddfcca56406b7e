package llmtest_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func post(t *testing.T, srv *llmtest.Server, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func wantViolation(t *testing.T, srv *llmtest.Server, fragment string) {
	t.Helper()
	v := srv.Violations()
	if len(v) != 1 || !strings.Contains(v[0], fragment) {
		t.Errorf("want one violation mentioning %q, got %q", fragment, v)
	}
}

func TestOrphanToolResultIsRejectedAndRecorded(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("unused"))
	status, body := post(t, srv, `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_9","content":"x"}]}`)
	if status != 400 || !strings.Contains(body, "orphan tool result") {
		t.Errorf("want HTTP 400 naming the orphan tool result, got %d %s", status, body)
	}
	wantViolation(t, srv, `request 1: message 1: orphan tool result: "call_9"`)
	if srv.Remaining() != 1 {
		t.Errorf("want a rejected request to leave the script untouched, got %d remaining", srv.Remaining())
	}
}

func TestUnansweredToolCallIsRejected(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("unused"))
	post(t, srv, `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"again"}]}`)
	wantViolation(t, srv, "message 2 (user) comes before tool calls c1 are answered")
}

func TestNullAssistantContentIsRejected(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("unused"))
	post(t, srv, `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null},{"role":"user","content":"x"}]}`)
	wantViolation(t, srv, "assistant content is null")
}

// TestReasoningMustBePassedBackAfterReasonedToolCalls replays a reasoned
// tool-call turn through the real client, once faithfully and once with the
// reasoning dropped.
func TestReasoningMustBePassedBackAfterReasonedToolCalls(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.Reasoning("I should list files.", 5), llmtest.ToolCall("call_1", "bash", `{"command":"ls"}`, 2)),
		llmtest.ReplyText("Two files."),
	)
	client := llm.NewClient(llm.ClientConfig{BaseURL: srv.URL()})
	ask := func(msgs []llm.Message) (*llm.Accumulator, error) {
		s, err := client.Stream(context.Background(), llm.Request{Model: "m", Effort: llm.EffortHigh, Messages: msgs})
		if err != nil {
			return nil, err
		}
		return llm.Collect(s)
	}
	history := []llm.Message{{Role: llm.RoleUser, Content: "list"}}
	first, err := ask(history)
	if err != nil {
		t.Fatal(err)
	}
	turn := first.Message()
	result := llm.Message{Role: llm.RoleTool, ToolCallID: "call_1", Content: "a\nb"}

	stripped := turn
	stripped.Reasoning = ""
	if _, err := ask(append(history, stripped, result)); err == nil {
		t.Fatal("want the request without reasoning_content rejected, got success")
	}
	wantViolation(t, srv, "tool call call_1 came with reasoning, want it passed back as reasoning_content")

	if _, err := ask(append(history, turn, result)); err != nil {
		t.Fatalf("want the faithful replay accepted, got %v", err)
	}
	got := srv.Requests()[2].Messages[1]
	if got.ReasoningContent != "I should list files." || got.ToolCalls[0].Function.Arguments != `{"command":"ls"}` {
		t.Errorf("want the recorded request to carry the reasoning and arguments, got %+v", got)
	}
	if len(srv.Violations()) != 1 {
		t.Errorf("want no new violations, got %q", srv.Violations())
	}
	if srv.Remaining() != 0 {
		t.Errorf("want the script consumed, got %d left", srv.Remaining())
	}
}

func TestRequestAfterScriptRunsOutIsAViolationUnlessFallback(t *testing.T) {
	srv := llmtest.New(t)
	if status, _ := post(t, srv, `{"messages":[{"role":"user","content":"hi"}]}`); status != 400 {
		t.Errorf("want 400 after the script ran out, got %d", status)
	}
	wantViolation(t, srv, "the script has run out")

	fb := llmtest.NewServer(nil, llmtest.WithFallback(llmtest.ReplyText("default")))
	defer fb.Close()
	if status, body := post(t, fb, `{"messages":[{"role":"user","content":"hi"}]}`); status != 200 || !strings.Contains(body, `"default"`) {
		t.Errorf("want the fallback reply, got %d %s", status, body)
	}
}

func TestStallSignalsAndCloseReleasesIt(t *testing.T) {
	srv := llmtest.NewServer([]llmtest.Response{llmtest.Reply(llmtest.Text("so far", 0), llmtest.Stall())})
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Post(srv.URL()+"/v1/chat/completions", "application/json", strings.NewReader(`{"messages":[]}`))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-srv.Stalled()
	srv.Close()
	<-done
}

func TestScriptFileServesEachKindOfResponse(t *testing.T) {
	dir := t.TempDir()
	script := `{"responses": [
		{"reasoning": "Hmm.", "text": "Hello!", "chunk": 2, "usage": {"hit": 1, "miss": 2, "output": 3, "reasoning": 1}},
		{"tool_calls": [{"id": "call_1", "name": "bash", "arguments": "{\"command\":\"ls\"}"}]},
		{"status": 429, "retry_after": "2"},
		{"text": "partial", "no_done": true},
		{"replay": "` + filepath.ToSlash(mustAbs(t, "../../../testdata/deepseek/deepseek-chat-v31_content-then-tool-call.sse")) + `"}
	]}`
	path := filepath.Join(dir, "script.json")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	responses, err := llmtest.LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, responses...)
	client := llm.NewClient(llm.ClientConfig{BaseURL: srv.URL()})
	var results []string
	for range responses {
		s, err := client.Stream(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: "go"}}})
		if err == nil {
			var acc *llm.Accumulator
			acc, err = llm.Collect(s)
			if err == nil {
				m := acc.Message()
				results = append(results, m.Reasoning+"|"+m.Content+"|"+string(acc.Finish()))
				continue
			}
		}
		results = append(results, err.Error())
	}
	want := []string{
		"Hmm.|Hello!|stop",
		"||tool-calls",
		"rate-limit (HTTP 429): the provider is rate-limiting requests; tack retries automatically, or wait a minute and try again (scripted HTTP 429)",
		"|partial|stop", // a finish reason without [DONE] is a finished answer
		"|I'll check the current weather in Tokyo for you.|tool-calls",
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("\nwant %q\ngot  %q", want, results)
	}
	srv.AssertConsumed(t)
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func TestEmptyAndRepeatedCallIDsAreRejected(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("unused"))
	post(t, srv, `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"","content":"x"}]}`)
	wantViolation(t, srv, "message 1: a tool call has an empty id")
	srv = llmtest.New(t, llmtest.ReplyText("unused"))
	post(t, srv, `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"x"},{"role":"tool","tool_call_id":"c","content":"y"}]}`)
	if v := srv.Violations(); len(v) == 0 || !strings.Contains(v[0], "tool call id c is used twice") {
		t.Errorf("want the repeated id named, got %q", v)
	}
}

// TestShapesReachTheClientAsTheyWouldFromOtherServers runs each shape
// part of the fake through the real client.
func TestShapesReachTheClientAsTheyWouldFromOtherServers(t *testing.T) {
	tests := []struct {
		name string
		resp llmtest.Response
		want string // reasoning|text|calls|finish, or the error
	}{
		{"ollama reasoning field", llmtest.Reply(llmtest.ReasoningField("We need", 3), llmtest.Text("OK", 0)), "We need|OK||stop"},
		{"vllm both reasoning fields", llmtest.Reply(llmtest.ReasoningBoth("Think", 2), llmtest.Text("2", 0)), "Think|2||stop"},
		{"mistral content parts", llmtest.Reply(llmtest.ContentParts("hm", "3"), llmtest.Text("91", 0)), "hm|391||stop"},
		{"calls without ids restarting at index 0", llmtest.Reply(llmtest.ToolCallAt(0, "", "read", `{"path":"a"}`), llmtest.ToolCallAt(0, "", "read", `{"path":"b"}`)),
			`||read{"path":"a"} read{"path":"b"}|tool-calls`},
		{"a new id at a used index", llmtest.Reply(llmtest.ToolCallAt(0, "x", "bash", `{}`), llmtest.ToolCallAt(0, "y", "bash", `{}`)), `||bash{} bash{}|tool-calls`},
		{"error object after text", llmtest.Reply(llmtest.Text("partial", 0), llmtest.ErrorObject("boom")),
			"server: the provider reported an error mid-stream; tack retries automatically, or try again later (boom)"},
		{"one id on two calls, an empty one on a third", llmtest.Reply(llmtest.ToolCallAt(0, "c", "glob", `{"a":1}`), llmtest.ToolCallAt(1, "c", "glob", `{"b":2}`), llmtest.ToolCallAt(2, "", "glob", `{}`)),
			`||glob{"a":1} glob{"b":2} glob{}|tool-calls`},
		{"calls from index 1", llmtest.Reply(llmtest.ToolCallAt(1, "t1", "read", `{"p":1}`)), `||read{"p":1}|tool-calls`},
		{"capacity finish", llmtest.Reply(llmtest.Text("half", 0), llmtest.Finish("insufficient_system_resource")),
			"server: the provider ran out of capacity mid-answer (insufficient_system_resource); tack retries automatically, or try again later"},
		{"unknown finish reason", llmtest.Reply(llmtest.Text("done", 0), llmtest.Finish("eos")), "|done||stop"},
		{"bad usage", llmtest.Reply(llmtest.Text("done", 0), llmtest.RawUsage(`{"prompt_tokens":-5}`)), "|done||stop"},
		{"closed before the finish", llmtest.Reply(llmtest.Text("half", 0), llmtest.EndWithoutFinish()),
			"stream-closed: the provider closed the stream before it finished (no [DONE]); tack retries automatically, or try again"},
		{"CR line endings", llmtest.CRLineEndings(llmtest.Reply(llmtest.Reasoning("r", 0), llmtest.Text("t", 0))), "r|t||stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.resp)
			client := llm.NewClient(llm.ClientConfig{BaseURL: srv.URL()})
			s, err := client.Stream(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: "go"}}})
			if err != nil {
				t.Fatal(err)
			}
			acc, err := llm.Collect(s)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				m := acc.Message()
				var calls []string
				ids := map[string]bool{}
				for _, c := range m.ToolCalls {
					calls = append(calls, c.Name+c.Arguments)
					if c.ID == "" || ids[c.ID] {
						t.Errorf("want every call its own id, got %+v", m.ToolCalls)
					}
					ids[c.ID] = true
				}
				got = m.Reasoning + "|" + m.Content + "|" + strings.Join(calls, " ") + "|" + string(acc.Finish())
			}
			if got != tt.want {
				t.Errorf("\nwant %s\ngot  %s", tt.want, got)
			}
		})
	}
}

func TestRulesRefuseInTheServersOwnShape(t *testing.T) {
	for _, tt := range []struct {
		rules, body, want string
	}{
		{"openai", `{"model":"gpt-5.4","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled"}}`,
			`{"error":{"code":null,"message":"Unrecognized request argument supplied: thinking","param":null,"type":"invalid_request_error"}}`},
		{"openai", `{"model":"gpt-5.4","messages":[{"role":"assistant","content":"","reasoning_content":"x"}]}`,
			`"message":"Additional properties are not allowed ('reasoning_content' was unexpected) - 'messages.0'"`},
		{"openai", `{"model":"gpt-5.4","max_tokens":10,"messages":[]}`, `Use 'max_completion_tokens' instead.`},
		{"sglang", `{"model":"m","reasoning_effort":"max","messages":[]}`, `"object":"error"`},
		{"vllm:100", `{"model":"m","max_tokens":100,"messages":[{"role":"user","content":"hello"}]}`,
			`However, you requested 106 tokens (6 in the messages, 100 in the completion)`},
	} {
		r, err := llmtest.ParseRules(tt.rules)
		if err != nil {
			t.Fatal(err)
		}
		srv := llmtest.NewServer([]llmtest.Response{llmtest.ReplyText("ok")}, llmtest.WithRules(r))
		resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(body), tt.want) || len(srv.Violations()) == 0 || srv.Remaining() != 1 {
			t.Errorf("%s %s: want 400 with %s, a violation and the script kept, got %d %s %q", tt.rules, tt.body, tt.want, resp.StatusCode, body, srv.Violations())
		}
	}
	if _, err := llmtest.ParseRules("vllm"); err == nil || !strings.Contains(err.Error(), "vllm:32768") {
		t.Errorf("want vllm without a window refused with an example, got %v", err)
	}
}
