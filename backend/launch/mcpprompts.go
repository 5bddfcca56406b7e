package launch

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/customcmd"
	"github.com/tack-agent/tack/backend/mcp"
)

// promptCommands keeps the session's /mcp__<server>__<prompt> commands in
// step with the prompts of its ready MCP servers, as Claude Code offers
// them: added once a server is ready and has listed its prompts, changed
// when it says they changed, gone when it stops, is turned off or
// restarts. A name taken by another command keeps that command.
type promptCommands struct {
	reg *commands.Registry
	m   *mcp.Manager

	mu   sync.Mutex
	have map[string]mcp.Prompt // the commands registered, by name
}

// addPromptCommands offers the MCP servers' prompts as commands, after
// every other command, which they never replace.
func (s *Session) addPromptCommands() {
	if s.MCP == nil {
		return
	}
	p := &promptCommands{reg: s.Commands, m: s.MCP, have: map[string]mcp.Prompt{}}
	s.MCP.WatchPrompts(p.sync)
}

// sync registers the commands of prompts and unregisters those of the
// prompts gone or changed.
func (p *promptCommands) sync(prompts []mcp.Prompt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	want := map[string]mcp.Prompt{}
	var order []string
	for _, pr := range prompts {
		name := PromptCommandName(pr.Server, pr.Name)
		if _, dup := want[name]; !dup {
			want[name] = pr
			order = append(order, name)
		}
	}
	for name, had := range p.have {
		if now, ok := want[name]; !ok || !reflect.DeepEqual(now, had) {
			p.reg.Unregister(name)
			delete(p.have, name)
		}
	}
	for _, name := range order {
		if _, ok := p.have[name]; ok {
			continue
		}
		if _, taken := p.reg.Find("", name); taken {
			continue
		}
		if p.reg.Register(p.command(name, want[name])) == nil {
			p.have[name] = want[name]
		}
	}
}

// PromptCommandName is the command that runs a server's prompt, as Claude
// Code names it: mcp__<server>__<prompt>, lowercase, with what a command
// name cannot hold made '_'.
func PromptCommandName(server, prompt string) string {
	b := []byte(strings.ToLower("mcp__" + server + "__" + prompt))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// command is the prompt pr as the command name: its description or
// title, and a hint of its arguments, <required> and [optional].
func (p *promptCommands) command(name string, pr mcp.Prompt) commands.Command {
	desc := pr.Description
	if desc == "" {
		desc = pr.Title
	}
	if desc == "" {
		desc = fmt.Sprintf("Prompt %s of the MCP server %s", pr.Name, pr.Server)
	}
	return commands.Command{
		Name: name, Description: desc, Source: "MCP", Input: commands.Input{Hint: argumentHint(pr)}, WhileRunning: true,
		Handler: func(ctx context.Context, inv commands.Invocation) commands.Result {
			args, extra, err := promptArguments(pr, inv.RawInput)
			if err != nil {
				return commands.Failf("/%s: %v. Usage: /%s %s", name, err, name, argumentHint(pr))
			}
			return commands.SendPrompt(ctx, inv, agent.TurnOptions{}, func(ctx context.Context) (string, error) {
				text, err := p.m.GetPrompt(ctx, pr.Server, pr.Name, args)
				switch {
				case errors.Is(err, mcp.ErrPromptRefused):
					return "", refusal(err, name, pr)
				case err == nil && extra != "":
					text += "\n\n" + extra
				}
				return text, err
			})
		},
	}
}

// refusal is the server's refusal of the prompt with what to do next:
// most are about the arguments it was given.
func refusal(err error, name string, pr mcp.Prompt) error {
	if len(pr.Arguments) == 0 {
		return fmt.Errorf("%v; set right what the server names, then run /%s again", err, name)
	}
	return fmt.Errorf("%v; check the arguments against its usage, /%s %s", err, name, argumentHint(pr))
}

// argumentHint is how the prompt's arguments are typed: <name> for a
// required one, [name] for an optional one, in the order they are given.
func argumentHint(pr mcp.Prompt) string {
	var parts []string
	for _, a := range pr.Arguments {
		if a.Required {
			parts = append(parts, "<"+a.Name+">")
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// promptArguments maps what the user typed after the command onto the
// prompt's arguments in order, words split as a shell splits them
// (quotes group words), as Claude Code maps them. Words beyond the last
// argument join it, as the shell's read gives the last variable the rest
// of the line; a prompt of no arguments gets the typed text as extra, to
// follow its own text, so nothing typed is lost. A required argument left
// out is an error naming each one missing.
func promptArguments(pr mcp.Prompt, input string) (args map[string]string, extra string, err error) {
	words := customcmd.SplitArgs(input)
	if len(pr.Arguments) == 0 {
		return nil, strings.TrimSpace(input), nil
	}
	if n := len(pr.Arguments); len(words) > n {
		words = append(words[:n-1], strings.Join(words[n-1:], " "))
	}
	args = map[string]string{}
	var missing []string
	for i, a := range pr.Arguments {
		switch {
		case i < len(words):
			args[a.Name] = words[i]
		case a.Required:
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, "", fmt.Errorf("missing the required argument%s %s", plural(len(missing)), strings.Join(missing, ", "))
	}
	return args, "", nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
