package customcmd

import (
	"context"
	"fmt"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
)

// Register adds cmds to reg after the built-ins. A command whose name is
// taken is not registered: a built-in is never shadowed. Each refusal is
// returned, to be told to the user at start. shell runs the commands a
// prompt embeds; without one they stay in the prompt as written.
func Register(reg *commands.Registry, cmds []Command, shell Shell) []string {
	var problems []string
	for _, c := range cmds {
		if _, taken := reg.Find("", c.Name); taken {
			problems = append(problems, fmt.Sprintf("%s: /%s is a built-in command, which custom commands do not replace; rename the file", c.Path, c.Name))
			continue
		}
		if err := reg.Register(c.command(shell)); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", c.Path, err))
		}
	}
	return problems
}

// command is c as a registry command: it submits the expanded prompt as
// the user's next message, on the command's model and with its allowed
// tools. Queued behind a running turn, the prompt is expanded when its
// turn starts, so the commands it embeds (git diff) see what that turn
// changed.
func (c Command) command(shell Shell) commands.Command {
	return commands.Command{
		Name: c.Name, Description: c.Description, Source: c.Source,
		Input: commands.Input{Hint: c.ArgumentHint}, WhileRunning: true,
		Handler: func(ctx context.Context, inv commands.Invocation) commands.Result {
			return commands.SendPrompt(ctx, inv, agent.TurnOptions{Model: c.Model, AllowedTools: c.AllowedTools},
				func(ctx context.Context) (string, error) { return c.prompt(ctx, inv.RawInput, shell) })
		},
	}
}

// prompt is the prompt c sends for input, with what the commands it
// embeds printed in their place. They run as the model's commands do,
// under the permission mode and c's allowed-tools, which Claude Code's
// files give them (allowed-tools: Bash(git status:*)).
func (c Command) prompt(ctx context.Context, input string, shell Shell) (string, error) {
	if shell == nil {
		return c.Expand(input), nil
	}
	return c.expand(input, func(command string) (string, error) {
		out, err := shell(ctx, command, c.AllowedTools)
		if err != nil {
			return "", fmt.Errorf("its prompt runs `%s`, which %v; a Bash entry that covers it in the allowed-tools of %s "+
				"lets it run without asking", command, err, c.Path)
		}
		return out, nil
	})
}
