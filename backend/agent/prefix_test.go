package agent_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestStepRequestsShareTheirPrefix pins what keeps DeepSeek's prompt cache
// hitting: each step's request repeats the previous one byte for byte —
// system prompt, tools, and every earlier message — and only appends.
func TestStepRequestsShareTheirPrefix(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.Reasoning("one", 2), llmtest.ToolCall("c1", "echo", `{"n":1}`, 2), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Reasoning("two", 2), llmtest.ToolCall("c2", "echo", `{"n":2}`, 2), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("three"),
	}, echoTool())
	f.runTurn("go")
	reqs := f.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("want 3 step requests, got %d", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		prev, next := reqs[i-1], reqs[i]
		if !bytes.Equal(rawField(t, prev.Body, "tools"), rawField(t, next.Body, "tools")) {
			t.Fatalf("step %d: tools differ from step %d", i+1, i)
		}
		pm, nm := rawMessages(t, prev.Body), rawMessages(t, next.Body)
		if len(nm) <= len(pm) || !reflect.DeepEqual(nm[:len(pm)], pm) {
			t.Fatalf("step %d: the messages of step %d are not its byte-identical prefix", i+1, i)
		}
	}
}

func rawField(t *testing.T, body []byte, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

func rawMessages(t *testing.T, body []byte) []string {
	t.Helper()
	var ms []json.RawMessage
	if err := json.Unmarshal(rawField(t, body, "messages"), &ms); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}
