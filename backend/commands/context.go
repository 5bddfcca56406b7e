package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
)

// ContextMeter is an agent that measures what fills its context window.
type ContextMeter interface {
	ContextUse() agent.ContextUse
}

// ContextCommand is /context: what fills the context window, part by
// part, as Claude Code's /context shows it.
func ContextCommand() Command {
	return Command{
		Name: "context", Description: "Show what fills the context window", WhileRunning: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			m, ok := inv.Agent.(ContextMeter)
			if !ok {
				return Fail("/context needs an agent that measures its context.")
			}
			return Succeed(contextCard(m.ContextUse()))
		},
	}
}

// contextCard is the /context text: the total against the window with a
// meter, a row a part with its share, the MCP servers' tools by server,
// and when compaction starts.
func contextCard(u agent.ContextUse) string {
	var b strings.Builder
	b.WriteString("Context usage\n\n")
	share := func(n int) string {
		if u.Window <= 0 {
			return ""
		}
		return fmt.Sprintf("%5.1f%%", float64(n)*100/float64(u.Window))
	}
	if u.Window > 0 {
		ratio := float64(u.Used) / float64(u.Window)
		fmt.Fprintf(&b, "%s %s · %s / %s tokens (%d%%)\n\n", meter(ratio), u.Model, grouped(u.Used), grouped(u.Window), percent(ratio))
	} else {
		fmt.Fprintf(&b, "%s · %s tokens · capacity unknown\n\n", u.Model, grouped(u.Used))
	}
	row := func(name string, n int) { fmt.Fprintf(&b, "%-15s%10s tokens  %s\n", name, grouped(n), share(n)) }
	row("System prompt", u.System)
	row("System tools", u.ToolTokens(false))
	if served := u.ToolTokens(true); served > 0 {
		row("MCP tools", served)
		for _, s := range serverShares(u.Tools) {
			fmt.Fprintf(&b, "  %-13s%10s\n", s.Name, grouped(s.Tokens))
		}
	}
	row("Messages", u.Messages)
	if u.Window > 0 {
		row("Free space", u.Free())
	}
	b.WriteString("\n")
	if u.Threshold > 0 && u.Window > 0 {
		fmt.Fprintf(&b, "Compacts on its own at %s tokens (%d%%); /compact [what to keep] frees it now.",
			grouped(u.Threshold), percent(float64(u.Threshold)/float64(u.Window)))
	} else {
		b.WriteString("/compact [what to keep] frees it.")
	}
	return b.String()
}

// serverShares sums the MCP tools' descriptions by server, in the order
// the servers' tools come.
func serverShares(tools []agent.ToolShare) []agent.ToolShare {
	var out []agent.ToolShare
	for _, t := range tools {
		if t.Server == "" {
			continue
		}
		i := len(out) - 1
		for i >= 0 && out[i].Name != t.Server {
			i--
		}
		if i < 0 {
			out = append(out, agent.ToolShare{Name: t.Server})
			i = len(out) - 1
		}
		out[i].Tokens += t.Tokens
	}
	return out
}
