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
	Compact(ctx context.Context) (agent.CompactResult, error)
}

// CompactCommand is /compact: summarise the older history now, while idle.
func CompactCommand() Command {
	return Command{
		Name: "compact", Description: "Summarise the older history to free context",
		Handler: func(ctx context.Context, inv Invocation) Result {
			if strings.TrimSpace(inv.RawInput) != "" {
				return Fail("Usage: /compact (no arguments)")
			}
			c, ok := inv.Agent.(Compactor)
			if !ok {
				return Fail("/compact needs an agent that can compact its history.")
			}
			res, err := c.Compact(ctx)
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
