package agent_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

func TestResumedSessionSendsTheIdenticalHistory(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.Reasoning("Let me echo.", 3), llmtest.ToolCall("call_1", "echo", `{"a":1}`, 2), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Reasoning("Done thinking.", 3), llmtest.Text("Echoed.", 2)),
		llmtest.ReplyText("Second answer."),
	}, echoTool())
	f.runTurn("first")
	first := f.srv.Requests()[1].Messages

	f.restart(echoTool())
	f.runTurn("second")

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

// restart is a second "process": it closes the agent and the log and
// starts an agent on the log reopened from disk.
func (f *fixture) restart(ts ...tools.Tool) {
	f.t.Helper()
	f.agent.Close()
	if err := f.log.Close(); err != nil {
		f.t.Fatal(err)
	}
	log, err := session.Open(f.path)
	if err != nil {
		f.t.Fatal(err)
	}
	f.log = log
	f.agent = f.start(ts...)
}

func strip(ms []llmtest.Message) []llmtest.Message {
	out := make([]llmtest.Message, len(ms))
	for i, m := range ms {
		out[i] = llmtest.Message{Role: m.Role, Content: m.Content, ReasoningContent: m.ReasoningContent, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
	}
	return out
}

// Gemini's models refuse a request whose earlier tool call lacks the
// thought signature they gave it (extra_content); it goes back in the
// next request and in a resumed session's, read from the log.
func TestResumedSessionSendsBackAServersCallData(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.MustReplay(t, serverFixtures+"gemini-openai-thought-signature.chunks.jsonl"),
		llmtest.ReplyText("Read both."),
		llmtest.ReplyText("Second answer."),
	}, echoTool())
	f.runTurn("first")
	f.restart(echoTool())
	f.runTurn("second")
	const signature = `"extra_content":{"google":{"thought_signature":"CiQB0e2Kb3Rlc3Qtc2lnbmF0dXJlLUE="}}`
	for _, i := range []int{1, 2} {
		if body := string(f.srv.Requests()[i].Body); strings.Count(body, signature) != 1 {
			t.Errorf("request %d: want the first call's signature sent back once, got %s", i, body)
		}
	}
}
