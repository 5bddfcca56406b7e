package launch

import (
	"context"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools/task"
)

// agentHookTools are what an agent hook's subagent may use: the tools
// that only look. It verifies a condition; it changes nothing.
var agentHookTools = []string{"read", "glob", "grep"}

// agentHookSteps bounds an agent hook's subagent, as Claude Code bounds
// its own at 50 turns.
const agentHookSteps = 50

// verify answers an agent hook's question: a subagent of the session,
// with read-only tools and without thinking, works on user under the
// instructions system, on model ("" for the session's), and its last
// answer is returned.
func (r *taskRunner) verify(ctx context.Context, model, system, user string) (string, error) {
	def := subagent.Definition{Name: "agent-hook", Tools: agentHookTools, Model: model, Prompt: system}
	how := childRun{effort: llm.EffortOff, turn: agent.TurnOptions{MaxSteps: agentHookSteps}}
	out := r.run(ctx, task.Job{Description: "Agent hook", Prompt: user, Agent: def}, how, func(task.Progress) {})
	if out.Err != nil {
		return "", out.Err
	}
	return out.Answer, nil
}
