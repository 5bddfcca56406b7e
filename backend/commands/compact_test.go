package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
)

// compactingAgent is a fakeAgent that can compact, and keeps what it
// was asked.
type compactingAgent struct {
	*fakeAgent
	asked []string
}

func (c *compactingAgent) Compact(_ context.Context, instructions string) (agent.CompactResult, error) {
	c.asked = append(c.asked, instructions)
	return agent.CompactResult{Items: 12, Tokens: 48_000}, nil
}

// What follows /compact is what the summary should keep, as in Claude
// Code: "/compact keep the API decisions".
func TestCompactPassesTheUsersInstructions(t *testing.T) {
	c := &compactingAgent{fakeAgent: newFakeAgent("s-1")}
	run := CompactCommand().Handler
	bare := run(context.Background(), Invocation{Name: "compact", Agent: c})
	asked := run(context.Background(), Invocation{Name: "compact", Agent: c, RawInput: "  keep the API decisions "})
	if len(c.asked) != 2 || c.asked[0] != "" || c.asked[1] != "keep the API decisions" {
		t.Fatalf("want no instructions, then the user's trimmed, got %q", c.asked)
	}
	for _, r := range []Result{bare, asked} {
		if r.Kind != Success || r.Text != "Compacted 12 history items (~48,000 tokens)." {
			t.Errorf("want the compaction reported, got %+v", r)
		}
	}
}

// measuredAgent is a fakeAgent whose context holds use.
type measuredAgent struct {
	*fakeAgent
	use agent.ContextUse
}

func (m measuredAgent) ContextUse() agent.ContextUse { return m.use }

// /context shows each part's tokens and share of the window, the MCP
// tools server by server, and when compaction starts.
func TestContextShowsWhatFillsTheWindow(t *testing.T) {
	use := agent.ContextUse{Model: "deepseek-v4-flash", Window: 1_000_000, Threshold: 800_000, Used: 250_000, System: 12_000,
		Tools: []agent.ToolShare{{Name: "bash", Tokens: 3000}, {Name: "mcp__docs__search", Server: "docs", Tokens: 900},
			{Name: "read", Tokens: 2000}, {Name: "mcp__gh__issues", Server: "gh", Tokens: 400}, {Name: "mcp__docs__get", Server: "docs", Tokens: 100}},
		Messages: 231_600}
	r := ContextCommand().Handler(context.Background(), Invocation{Name: "context", Agent: measuredAgent{newFakeAgent("s-1"), use}})
	want := `Context usage

[████░░░░░░░░░░░░] deepseek-v4-flash · 250,000 / 1,000,000 tokens (25%)

System prompt      12,000 tokens    1.2%
System tools        5,000 tokens    0.5%
MCP tools           1,400 tokens    0.1%
  docs              1,000
  gh                  400
Messages          231,600 tokens   23.2%
Free space        750,000 tokens   75.0%

Compacts on its own at 800,000 tokens (80%); /compact [what to keep] frees it now.`
	if r.Kind != Success || r.Text != want {
		t.Fatalf("want\n%s\ngot (%v)\n%s", want, r.Kind, r.Text)
	}
	unknown := ContextCommand().Handler(context.Background(), Invocation{Name: "context",
		Agent: measuredAgent{newFakeAgent("s-1"), agent.ContextUse{Model: "local", Used: 900, System: 100, Messages: 800}}})
	if !strings.Contains(unknown.Text, "local · 900 tokens · capacity unknown") || strings.Contains(unknown.Text, "Free space") {
		t.Errorf("want a model of unknown window measured without shares, got\n%s", unknown.Text)
	}
}
