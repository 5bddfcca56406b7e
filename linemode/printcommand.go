package linemode

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/textfmt"
)

// Print mode runs a task that names a slash command as the command, as
// `claude -p "/review 42"` does: a custom command or a skill sends its
// prompt and the turn it starts is the task's; a built-in that answers by
// itself (/status, /mcp, /diff) is a result of no turns. A task that starts
// with a slash but names no command fails, rather than reach the model.

// commandAgent is the agent a command runs against in print mode. It notes
// whether the command sent the model a message, so that the printer knows
// a turn follows, and gives that turn print mode's options (its tool flags
// and --max-turns) under the command's own model and allowed tools.
type commandAgent struct {
	*agent.Agent
	turn agent.TurnOptions
	sent atomic.Bool // the handler runs on a goroutine of its own
}

// SendExpanded sends text for a turn with the command's options within
// print mode's.
func (c *commandAgent) SendExpanded(typed, text string, o agent.TurnOptions) {
	c.sent.Store(true)
	c.Agent.SendExpanded(typed, text, within(c.turn, o))
}

// SendWith, Send and Steer send text as SendExpanded does: between print
// mode's tasks the agent is idle, so steering starts the turn too.
func (c *commandAgent) SendWith(text string, o agent.TurnOptions) { c.SendExpanded("", text, o) }

// SendDeferred is the agent's, with the command's turn options inside
// print mode's.
func (c *commandAgent) SendDeferred(typed string, expand func(context.Context) (string, error), o agent.TurnOptions) {
	c.sent.Store(true)
	c.Agent.SendDeferred(typed, expand, within(c.turn, o))
}
func (c *commandAgent) Send(text string)  { c.SendExpanded("", text, agent.TurnOptions{}) }
func (c *commandAgent) Steer(text string) { c.SendExpanded("", text, agent.TurnOptions{}) }

// within is a command's turn options inside print mode's: the command's
// model, and its allowed tools beside print mode's; print mode's refused
// tools and step limit stay.
func within(print, command agent.TurnOptions) agent.TurnOptions {
	o := print
	if command.Model != "" {
		o.Model = command.Model
	}
	o.AllowedTools = append(slices.Clone(print.AllowedTools), command.AllowedTools...)
	return o
}

// command runs task as a slash command. turn is false when the command
// started no turn: res is then the task's result.
func (p *printer) command(ctx context.Context, task string) (res PrintResult, turn bool) {
	ag := &commandAgent{Agent: p.ag, turn: p.o.Turn}
	exec, found := p.s.Commands.Execute(ctx, ag, task, nil)
	if name, _, _ := commands.Parse(task); !found && strings.HasPrefix(name, "mcp__") && p.s.MCP != nil {
		// An MCP server's prompt is a command once the server is ready
		// and has listed its prompts, which a task given at start comes
		// before.
		p.s.MCP.SettlePrompts(ctx)
		exec, found = p.s.Commands.Execute(ctx, ag, task, nil)
	}
	if !found {
		return p.commandResult(commands.Fail(commands.UnknownMessage(strings.TrimSpace(task), p.s.Commands.List(p.ag.SessionID())))), false
	}
	text, exit := commandText(exec.Result)
	if ag.sent.Load() && exec.Result.Kind != commands.Error {
		if text != "" {
			fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.SanitizeLine(text))
		}
		return PrintResult{}, true
	}
	p.exit = exit
	return p.commandResult(commands.Result{Kind: exec.Result.Kind, Text: text}), false
}

// commandResult is the result line of a command that ran no turn.
func (p *printer) commandResult(r commands.Result) PrintResult {
	res := PrintResult{
		Type: "result", Subtype: subtypeSuccess, SessionID: p.ag.SessionID(), Result: r.Text,
		Denials: []Denial{}, ModelUsage: map[string]modelUsage{}, StopReason: string(session.StopCompleted), UUID: newUUID(),
	}
	if r.Kind == commands.Error {
		res.IsError, res.Subtype = true, subtypeFailed
		res.StopReason, res.Errors = string(session.StopError), []string{r.Text}
		fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.SanitizeLine(r.Text))
	}
	return res
}

// Texts for command actions print mode cannot perform.
const (
	printSwitchText = "Print mode cannot switch sessions: run tack -p --resume %s with the task."
	printNewText    = "Print mode cannot start another session: run tack -p again."
	printClearText  = "Nothing cleared: print mode has no view to clear; the session history is unchanged."
)

// commandText is what a command's result says in print mode, cards
// included, and whether it asked to exit. /copy's text is the result
// itself: print mode's output is where a script takes it from.
func commandText(r commands.Result) (text string, exit bool) {
	text = r.Text
	switch act := r.Action.(type) {
	case commands.ActionExit:
		exit = true
	case commands.ActionHelp:
		text = act.Text
	case commands.ActionResume:
		text = fmt.Sprintf(printSwitchText, act.ID)
	case commands.ActionNewSession:
		text = printNewText
	case commands.ActionClear:
		text = printClearText
	case commands.ActionCopy:
		text = act.Text
	case commands.ActionOpenDetails:
		if text == "" {
			text = detailsUsageText
		}
	case commands.ActionRewound:
		if act.Prompt != "" {
			text += "\nThe prompt of that turn: " + act.Prompt
		}
	}
	for _, c := range r.Cards {
		text += "\n" + strings.Join(cardLines(c, ""), "\n")
	}
	return strings.TrimPrefix(text, "\n"), exit
}
