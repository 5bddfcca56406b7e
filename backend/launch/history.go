package launch

import (
	"context"
	"slices"

	"github.com/tack-agent/tack/backend/session"
)

// Reading other sessions for PromptHistory stops at the newest
// historySessions logs, or once historyBytes of logs were read, so a
// search fills in quickly in a workspace with a long past.
const (
	historySessions = 50
	historyBytes    = 32 << 20
)

// PromptHistory is the prompts of this workspace's other sessions, newest
// session first and newest prompt first within each, for a search across
// sessions (Ctrl+R). It reads their logs without taking their locks, so a
// session open in another process is read as far as it was written; logs
// that cannot be read are skipped.
func (s *Session) PromptHistory(ctx context.Context) []string {
	list, err := session.List(s.Home, s.Cwd, false)
	if err != nil {
		return nil
	}
	self := s.Agent.SessionID()
	var out []string
	read, budget := 0, int64(historyBytes)
	for _, sum := range list {
		if read == historySessions || ctx.Err() != nil {
			break
		}
		if sum.ID == self || sum.Err != nil || sum.Path == "" || sum.Size > budget {
			continue
		}
		read++
		budget -= sum.Size
		p, err := session.ReadProjection(sum.Path)
		if err != nil {
			continue
		}
		prompts := slices.Clone(p.Prompts())
		slices.Reverse(prompts)
		out = append(out, prompts...)
	}
	return out
}
