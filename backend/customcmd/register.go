package customcmd

import (
	"context"
	"fmt"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
)

// Sender is an agent that takes a turn with options (*agent.Agent).
type Sender interface {
	SendWith(text string, o agent.TurnOptions)
}

// Register adds cmds to reg after the built-ins. A command whose name is
// taken is not registered: a built-in is never shadowed. Each refusal is
// returned, to be told to the user at start.
func Register(reg *commands.Registry, cmds []Command) []string {
	var problems []string
	for _, c := range cmds {
		if _, taken := reg.Find("", c.Name); taken {
			problems = append(problems, fmt.Sprintf("%s: /%s is a built-in command, which custom commands do not replace; rename the file", c.Path, c.Name))
			continue
		}
		if err := reg.Register(c.command()); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", c.Path, err))
		}
	}
	return problems
}

// command is c as a registry command: it submits the expanded prompt as
// the user's next message (queued behind a running turn), on the
// command's model and with its allowed tools.
func (c Command) command() commands.Command {
	return commands.Command{
		Name: c.Name, Description: c.Description, Source: c.Source,
		Input: commands.Input{Hint: c.ArgumentHint}, WhileRunning: true,
		Handler: func(_ context.Context, inv commands.Invocation) commands.Result {
			s, ok := inv.Agent.(Sender)
			if !ok {
				return commands.Failf("/%s needs an agent that takes messages.", c.Name)
			}
			s.SendWith(c.Expand(inv.RawInput), agent.TurnOptions{Model: c.Model, AllowedTools: c.AllowedTools})
			return commands.Succeed("")
		},
	}
}
