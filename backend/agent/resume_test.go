package agent_test

import (
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

func TestResumedSessionSendsTheIdenticalHistory(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.Reasoning("Let me echo.", 3), llmtest.ToolCall("call_1", "echo", `{"a":1}`, 2), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Reasoning("Done thinking.", 3), llmtest.Text("Echoed.", 2)),
		llmtest.ReplyText("Second answer."),
	}, echoTool())
	f.agent.Send("first")
	f.waitIdle()
	first := f.srv.Requests()[1].Messages

	// A second "process": close everything, reopen the log from disk.
	f.agent.Close()
	if err := f.log.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := session.Open(f.path)
	if err != nil {
		t.Fatal(err)
	}
	f.log = log
	f.agent = f.start(echoTool())
	f.agent.Send("second")
	f.waitIdle()

	reqs := f.srv.Requests()
	second := reqs[len(reqs)-1].Messages
	// The resumed request holds the first process's last request, then its
	// answer, then the new prompt.
	if len(second) != len(first)+2 {
		t.Fatalf("want %d messages, got %d", len(first)+2, len(second))
	}
	if !reflect.DeepEqual(strip(second[:len(first)]), strip(first)) {
		t.Fatalf("resumed history differs\nfirst:  %+v\nsecond: %+v", first, second[:len(first)])
	}
	answer := second[len(first)]
	if answer.Role != "assistant" || answer.Content != "Echoed." || answer.ReasoningContent != "Done thinking." {
		t.Fatalf("want the first answer with its reasoning, got %+v", answer)
	}
	if v := f.srv.Violations(); len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}
}

func strip(ms []llmtest.Message) []llmtest.Message {
	out := make([]llmtest.Message, len(ms))
	for i, m := range ms {
		out[i] = llmtest.Message{Role: m.Role, Content: m.Content, ReasoningContent: m.ReasoningContent, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
	}
	return out
}
