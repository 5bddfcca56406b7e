package agent_test

import (
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestThinkingTurnedOnAfterAStepWithoutIt: the first step runs with effort
// off and makes a tool call without reasoning; the next turn runs with
// effort high, and its request must still satisfy DeepSeek's rule that
// every tool-call message carries non-empty reasoning_content (pi#8779),
// which the fake server enforces.
func TestThinkingTurnedOnAfterAStepWithoutIt(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "echo", `{"x":1}`, 2)),
		llmtest.ReplyText("Echoed."),
		llmtest.Reply(llmtest.Reasoning("Now with thought.", 4), llmtest.Text("Done.", 0)),
	}, echoTool())
	if err := f.agent.SetModel("deepseek-flash", llm.EffortOff); err != nil {
		t.Fatal(err)
	}
	f.runTurn("first")
	if err := f.agent.SetModel("deepseek-flash", llm.EffortHigh); err != nil {
		t.Fatal(err)
	}
	f.runTurn("second")
	f.srv.AssertConsumed(t)
	reqs := f.srv.Requests()
	if len(reqs) != 3 || reqs[0].Thinking == nil || reqs[0].Thinking.Type != "disabled" || reqs[2].Thinking == nil || reqs[2].Thinking.Type != "enabled" {
		t.Fatalf("want thinking off for the first turn and on for the second, got %d requests", len(reqs))
	}
	for _, m := range reqs[2].Messages {
		if len(m.ToolCalls) > 0 && m.ReasoningContent == "" {
			t.Errorf("want the tool-call message padded with reasoning_content, got %+v", m)
		}
	}
}
