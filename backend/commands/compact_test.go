package commands

import (
	"context"
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
