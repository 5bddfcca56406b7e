package commands

import (
	"context"
	"fmt"

	"github.com/tack-agent/tack/backend/agent"
)

// SendPrompt is the handler's end for a command that hands the model a
// prompt made by prompt, as the user's message with o: at once on an idle
// agent, else queued behind the running turn and made when its own turn
// starts (so what it reads, such as git diff, sees what that turn did).
// The transcript shows what the user typed.
func SendPrompt(ctx context.Context, inv Invocation, o agent.TurnOptions, prompt func(context.Context) (string, error)) Result {
	if d, ok := inv.Agent.(Deferrer); ok && inv.Agent.Status() != agent.StatusIdle {
		d.SendDeferred(inv.Typed(), func(ctx context.Context) (string, error) {
			text, err := prompt(ctx)
			if err != nil {
				return "", fmt.Errorf("/%s did not run: %v", inv.Name, err)
			}
			return text, nil
		}, o)
		return Succeed("")
	}
	s, ok := inv.Agent.(Expander)
	if !ok {
		return Failf("/%s needs an agent that takes messages.", inv.Name)
	}
	text, err := prompt(ctx)
	if err != nil {
		return Failf("/%s did not run: %v", inv.Name, err)
	}
	s.SendExpanded(inv.Typed(), text, o)
	return Succeed("")
}
