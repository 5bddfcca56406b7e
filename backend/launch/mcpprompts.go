package launch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/promptargs"
)

// promptCommands keeps the session's /mcp__<server>__<prompt> commands in
// step with the prompts of its ready MCP servers, as Claude Code offers
// them: added once a server is ready and has listed its prompts, changed
// when it says they changed, gone when it stops, is turned off or
// restarts. A name taken by another command keeps that command, and of
// two prompts of one name the first is the command; the user is told of
// each prompt left out so, once.
type promptCommands struct {
	reg *commands.Registry
	m   *mcp.Manager
	// warn tells the user of a prompt left out.
	warn func(string)

	mu   sync.Mutex
	have map[string]mcp.Prompt // the commands registered, by name
	told map[string]bool       // the notes of prompts left out, told
}

// addPromptCommands offers the MCP servers' prompts as commands, after
// every other command, which they never replace.
func (s *Session) addPromptCommands() {
	if s.MCP == nil {
		return
	}
	warn := func(text string) { s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: text}) }
	p := &promptCommands{reg: s.Commands, m: s.MCP, warn: warn, have: map[string]mcp.Prompt{}, told: map[string]bool{}}
	s.MCP.WatchPrompts(p.sync)
}

// sync registers the commands of prompts and unregisters those of the
// prompts gone or changed.
func (p *promptCommands) sync(prompts []mcp.Prompt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	want := map[string]mcp.Prompt{}
	var order []string
	var shadowed serverClashes
	for _, pr := range prompts {
		name := PromptCommandName(pr.Server, pr.Name)
		first, dup := want[name]
		switch {
		case dup && first.Server == pr.Server:
			p.tellOnce(sameServer(name, first, pr))
		case dup:
			shadowed.add(first.Server, pr.Server, name)
		default:
			want[name] = pr
			order = append(order, name)
		}
	}
	for _, c := range shadowed {
		p.tellOnce(c.note())
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
		if other, taken := p.reg.Find("", name); taken {
			p.tellOnce(takenName(name, other, want[name]))
			continue
		}
		if p.reg.Register(p.command(name, want[name])) == nil {
			p.have[name] = want[name]
		}
	}
}

// tellOnce warns the user of note the first time it is made.
func (p *promptCommands) tellOnce(note string) {
	if !p.told[note] {
		p.told[note] = true
		p.warn(note)
	}
}

// serverClashes are the servers whose prompts have the commands of an
// earlier server's, as when one server is configured twice under names
// that differ in case or punctuation (github and GitHub): one note a
// pair of servers, naming the commands, in the order they were met.
type serverClashes []serverClash

type serverClash struct {
	first, later string
	names        []string
}

func (cs *serverClashes) add(first, later, name string) {
	for i := range *cs {
		if c := &(*cs)[i]; c.first == first && c.later == later {
			if !slices.Contains(c.names, name) {
				c.names = append(c.names, name)
			}
			return
		}
	}
	*cs = append(*cs, serverClash{first: first, later: later, names: []string{name}})
}

func (c serverClash) note() string {
	return fmt.Sprintf("The MCP servers %s and %s both have prompts that are /%s: those commands run %s's; "+
		"to run %s's too, give that server another name in your MCP configuration",
		c.first, c.later, strings.Join(c.names, ", /"), c.first, c.later)
}

// sameServer is the note of later, a prompt of the server first is of,
// whose command name, name, is first's too.
func sameServer(name string, first, later mcp.Prompt) string {
	return fmt.Sprintf("The MCP server %s offers the prompts %q and %q, which are both /%s: the command runs %q, "+
		"and %q has none (ask the server's authors to name them apart)", first.Server, first.Name, later.Name, name, first.Name, later.Name)
}

// takenName is the note of pr, a prompt whose command name, name, another
// command has.
func takenName(name string, other commands.Command, pr mcp.Prompt) string {
	return fmt.Sprintf("The MCP prompt %q of %s would be /%s, which is a command already (%s), kept as it is; "+
		"to run the prompt, give its server another name in your MCP configuration", pr.Name, pr.Server, name, cmp.Or(other.Source, "built-in"))
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
	words := promptargs.SplitArgs(input)
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
