package linemode

import (
	"math"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// The SDKs' getContextUsage() / get_context_usage() is answered with the
// session's own figures: the conversation's size after a turn is the last
// response's prompt and output, measured against the model's window, and
// every field the SDKs' types require is there. The request is written as
// claude-agent-sdk-python writes it (src/claude_agent_sdk/_internal/
// query.py, get_context_usage: self._send_control_request({"subtype":
// "get_context_usage"})); the TypeScript SDK's getContextUsage(opts) adds
// only its options ("detail").
func TestSDKContextUsageIsTheSessionsOwn(t *testing.T) {
	s, _, _ := streamSession(t, llmtest.Reply(llmtest.Text("Hi.", 2), llmtest.Usage(20000, 2000, 50, 0)))
	run := startSDKRun(t, s)
	before := run.ask(t, "req_1_ffee0011", `{"type":"control_request","request_id":"req_1_ffee0011","request":{"subtype":"get_context_usage"}}`)
	if total := field(before, "totalTokens"); total <= 0 || usedSum(before) != total {
		t.Errorf("before the first turn the context is %v tokens, its categories in use %v", total, usedSum(before))
	}
	run.send(t, `{"type":"user","message":{"role":"user","content":"hello"},"parent_tool_use_id":null,"session_id":""}`)
	testkit.Eventually(t, "the turn's result", func() bool { return run.results() == 1 })
	a := run.ask(t, "req_7_0a1b2c3d", `{"type":"control_request","request_id":"req_7_0a1b2c3d","request":{"subtype":"get_context_usage"}}`)
	if a.Response.Subtype != "success" {
		t.Fatalf("get_context_usage: %+v", a)
	}
	model, _ := s.Agent.Model()
	m, _ := s.Agent.Catalog().Lookup(model)
	want := map[string]float64{
		"totalTokens": 22050, "maxTokens": float64(m.ContextWindow), "rawMaxTokens": float64(m.ContextWindow),
		"percentage": math.Round(22050*1000/float64(m.ContextWindow)) / 10,
	}
	for name, v := range want {
		if got := field(a, name); got != v {
			t.Errorf("%s: want %v, got %v", name, v, got)
		}
	}
	r := a.Response.Response
	if r["model"] != model || r["isAutoCompactEnabled"] != true || field(a, "autoCompactThreshold") <= 0 {
		t.Errorf("want the model %q with its compaction, got %v, %v, %v", model, r["model"], r["isAutoCompactEnabled"], r["autoCompactThreshold"])
	}
	for _, list := range []string{"categories", "memoryFiles", "mcpTools", "agents", "gridRows"} {
		if _, ok := r[list].([]any); !ok {
			t.Errorf("%s is not a list (the SDKs' types require it): %v", list, r[list])
		}
	}
	if sum := usedSum(a); sum != 22050 {
		t.Errorf("the categories in use add up to %v, not to the context's 22050", sum)
	}
	if u, _ := r["apiUsage"].(map[string]any); u["cache_read_input_tokens"] != 20000.0 || u["output_tokens"] != 50.0 {
		t.Errorf("apiUsage is not the last response's: %v", r["apiUsage"])
	}
}

// usedSum adds up the tokens of an answer's categories in use, checking
// that each has the name, tokens and color the SDKs read.
func usedSum(a controlAnswer) float64 {
	categories, _ := a.Response.Response["categories"].([]any)
	sum := 0.0
	for _, c := range categories {
		row, _ := c.(map[string]any)
		name, _ := row["name"].(string)
		tokens, ok := row["tokens"].(float64)
		if _, hasColor := row["color"].(string); name == "" || !ok || !hasColor {
			return -1
		}
		if row["kind"] == "used" {
			sum += tokens
		}
	}
	return sum
}
