package hooks

import (
	"context"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Subagent is the hooks of one of the session's subagents (the task
// tool's), as Claude Code runs them: the session's tool hooks for its
// calls too (a guard holds for every agent), subagent_start as it starts
// and subagent_stop when it would end, and no user_prompt_submit (its
// prompt is another agent's, not the user's). Its runs are recorded in
// its own log.
type Subagent struct {
	r *Runner
	c caller
}

var _ agent.Hooks = (*Subagent)(nil)

// ForSubagent is the hooks of the subagent whose child session is id, of
// the definition agentType, recording with record; transcript brings its
// Claude Code transcript up to date and returns its path, sent as
// agent_transcript_path, and effort says its reasoning effort.
func (r *Runner) ForSubagent(id string, transcript func() string, agentType string, effort func() llm.Effort, record func(session.Data) error) *Subagent {
	return &Subagent{r: r, c: caller{agentID: id, transcript: transcript, agentType: agentType, effort: effort, record: record}}
}

// BeforeTool runs pre_tool_use for the subagent's call.
func (s *Subagent) BeforeTool(ctx context.Context, turn int, call agent.ToolUse) agent.ToolVerdict {
	return s.r.beforeTool(ctx, s.c, turn, call)
}

// AfterTool runs post_tool_use for the subagent's call.
func (s *Subagent) AfterTool(ctx context.Context, turn int, call agent.ToolUse, result tools.Result) string {
	return s.r.afterTool(ctx, s.c, turn, call, result)
}

// PromptSubmitted runs subagent_start, not user_prompt_submit (the
// subagent's prompt is not the user's): what the hooks print joins its
// prompt.
func (s *Subagent) PromptSubmitted(ctx context.Context, turn int, _ string) (string, string) {
	var extra []string
	for _, res := range s.r.runFor(ctx, s.c, turn, SubagentStart, Input{}, "") {
		if note := res.context(); note != "" {
			extra = append(extra, note)
		}
	}
	return "", strings.Join(extra, "\n")
}

// Compacting runs pre_compact for the subagent's history.
func (s *Subagent) Compacting(ctx context.Context, turn int, trigger, instructions string) string {
	return s.r.compacting(ctx, s.c, turn, trigger, instructions)
}

// Compacted runs post_compact for the subagent's history.
func (s *Subagent) Compacted(_ context.Context, turn int, trigger, summary string) {
	s.r.compacted(s.c, turn, trigger, summary)
}

// TurnFailed runs nothing: the subagent's failure is its task's, which
// the session's agent reads.
func (s *Subagent) TurnFailed(context.Context, int, string, string) {}

// Stopping runs subagent_stop: a hook that blocks keeps the subagent
// going, its reason telling it what to do.
func (s *Subagent) Stopping(ctx context.Context, turn int, again bool, last string) string {
	return s.r.stopping(ctx, s.c, SubagentStop, turn, again, last)
}

// synced is the path transcript returns once it has brought the
// transcript up to date; "" without one.
func synced(transcript func() string) string {
	if transcript == nil {
		return ""
	}
	return transcript()
}
