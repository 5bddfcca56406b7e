package session

import (
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/llm"
)

// bytesPerToken is the estimate of context size where no provider count
// applies. Bytes rather than runes: CJK text runs nearer one token per
// character, which bytes/4 approximates better than runes/4.
const bytesPerToken = 4

// Totals is the usage of a session so far.
type Totals struct {
	Sum       llm.Usage // all assistant messages, subagents' steps and side requests
	Last      llm.Usage // the last assistant message
	Turns     int
	Steps     int
	ToolCalls int // dispatched calls (tool/call events)
	// Messages counts the model-visible messages logged: prompts and
	// other user messages, steering, assistant messages and tool results.
	// Replacements (compaction summaries, pruned results) are not new
	// messages; rewound ones stay counted, as rewound turns do in Turns.
	Messages int
}

// usageQuarter is the span usage is summed over: prices that change with
// the hour (off-peak rates) are the same all through a quarter hour of
// UTC, in every time zone.
const usageQuarter = 15 * time.Minute

// ModelUsage is the usage of one model in the quarter hour that starts
// at From: of the session's steps that named it, of its subagents' steps
// (task/usage) and of its side requests (usage/side).
type ModelUsage struct {
	Model string
	From  time.Time
	Usage llm.Usage
}

// addUsage counts u, made at u.From, in the entry of its model and
// quarter hour. Times only grow, so that entry is among the last if at
// all.
func (p *Projection) addUsage(u ModelUsage) {
	u.From = u.From.Truncate(usageQuarter)
	i := len(p.byModel) - 1
	for ; i >= 0 && !p.byModel[i].From.Before(u.From); i-- {
		if m := p.byModel[i]; m.Model == u.Model && m.From.Equal(u.From) {
			p.byModel[i].Usage = m.Usage.Add(u.Usage)
			return
		}
	}
	u.Model = strings.Clone(u.Model)
	p.byModel = append(p.byModel, u)
}

// Usage is the token usage and counts so far.
func (p *Projection) Usage() Totals { return p.totals }

// UsageByModel splits the usage of the session by the model each step
// named ("" for messages without a step/start) and by quarter hour, in
// the order it was made.
func (p *Projection) UsageByModel() []ModelUsage { return slices.Clone(p.byModel) }

// LastRequest is the usage of the last assistant message while it still
// tells what the context holds: ok is false before the first response,
// and after a replacement (a compaction, pruned results) rewrote history
// until the next response, as Claude Code's current_usage is null after
// /compact.
func (p *Projection) LastRequest() (u llm.Usage, ok bool) {
	if !p.sawAssistant || p.replaced {
		return llm.Usage{}, false
	}
	return p.totals.Last, true
}

// ContextTokens estimates the size of the next request's conversation: the
// last response's prompt plus output, plus about a token per 4 bytes of
// what was appended since. Before any response, or after a replacement
// rewrote history, it estimates the whole surface.
func (p *Projection) ContextTokens() int {
	if !p.sawAssistant || p.replaced {
		return p.surfaceBytes / bytesPerToken
	}
	return p.totals.Last.Prompt() + p.totals.Last.Output + p.afterLast/bytesPerToken
}
