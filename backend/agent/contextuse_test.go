package agent_test

import (
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// servedTool stands for an MCP server's tool: it names its server.
type servedTool struct{ testTool }

func (servedTool) Server() string { return "docs" }

// ContextUse splits the window into the system prompt, each tool's
// description (an MCP server's named), and the conversation: estimated
// before the first response, the provider's count after it.
func TestContextUseSplitsTheWindow(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.Reply(llmtest.Text("ok", 0), llmtest.Usage(0, 9000, 100, 0))},
		echoTool(), servedTool{testTool{name: "mcp__docs__search"}})
	// testTool's description: its name, "test tool" and {"type":"object"}.
	echo, search := (4+9+17)/4, (17+9+17)/4
	system := len("You are a test.") / 4
	before := f.agent.ContextUse()
	if model, _ := f.agent.Model(); before.Model != model || before.Window < 500_000 || before.Threshold == 0 || before.System != system {
		t.Fatalf("want the default model's window, threshold and the system prompt's size, got %+v", before)
	}
	if len(before.Tools) != 2 || before.Tools[0] != (agent.ToolShare{Name: "echo", Tokens: echo}) || before.Tools[1] != (agent.ToolShare{Name: "mcp__docs__search", Server: "docs", Tokens: search}) {
		t.Fatalf("want each tool's share and the served one's server, got %+v", before.Tools)
	}
	if before.Used != system+echo+search || before.Messages != 0 {
		t.Fatalf("want an empty conversation to hold the system prompt and the tools, got %+v", before)
	}
	f.runTurn("hi")
	after := f.agent.ContextUse()
	if after.Used != 9100 || after.Messages != 9100-system-echo-search || after.Last.Input != 9000 || after.Free() != after.Window-9100 {
		t.Fatalf("want the response's count and the conversation the rest of it, got %+v", after)
	}
}
