package agent

import (
	"context"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// Aside makes a request beside the session's steps (a title, a summary, a
// prompt hook's judgement) and returns the answer. What it used is logged
// as session.SideUsage, so the session's totals and cost count it as
// Claude Code's and the provider's bills do. The error of a request that
// could not start is returned as the provider gave it.
func (a *Agent) Aside(ctx context.Context, req llm.Request) (llm.Message, error) {
	s, err := a.cfg.Provider.Stream(ctx, req)
	if err != nil {
		return llm.Message{}, err
	}
	acc, err := llm.Collect(s)
	if u, ok := acc.Usage(); ok {
		m, _ := a.cfg.Catalog.Lookup(req.Model)
		_, _ = a.record(session.SideUsage{Purpose: req.Purpose, Model: req.Model, Usage: u, Cost: m.Cost(u, a.cfg.Now())})
	}
	return acc.Message(), err
}
