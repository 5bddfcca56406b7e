package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
)

// Compactor is an agent that can summarise its history on demand.
type Compactor interface {
	Compact(ctx context.Context, instructions string) (agent.CompactResult, error)
}

// CompactCommand is /compact [instructions]: summarise the history now,
// while idle, with what the user wants the summary to keep, as in Claude
// Code ("/compact keep the API decisions").
func CompactCommand() Command {
	return Command{
		Name: "compact", Description: "Summarise the history to free context", Input: Input{Hint: "[what to keep]"},
		Handler: func(ctx context.Context, inv Invocation) Result {
			c, ok := inv.Agent.(Compactor)
			if !ok {
				return Fail("/compact needs an agent that can compact its history.")
			}
			res, err := c.Compact(ctx, strings.TrimSpace(inv.RawInput))
			switch {
			case errors.Is(err, agent.ErrNothingToCompact):
				return Succeed("No compactable history yet.")
			case err != nil:
				return Failf("Compaction failed: %v", err)
			}
			return Succeed(fmt.Sprintf("Compacted %d history items (~%s tokens).", res.Items, grouped(res.Tokens)))
		},
	}
}
