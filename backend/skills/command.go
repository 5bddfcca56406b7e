package skills

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/frontmatter"
	"github.com/tack-agent/tack/backend/promptargs"
	"github.com/tack-agent/tack/backend/session"
)

// CommandPrefix starts the name of a skill's command: /skill:NAME.
const CommandPrefix = "skill:"

// Commands are the /skill:NAME [instructions] commands of the skills the
// user may invoke. Each sends the skill with the instructions as the
// user's next message.
func (c *Catalog) Commands() []commands.Command {
	var out []commands.Command
	for _, s := range c.Skills {
		if !s.UserInvocable {
			continue
		}
		out = append(out, commands.Command{
			Name: CommandPrefix + s.Name, Description: s.Description, Source: s.Source + " skill",
			Input: commands.Input{Hint: "[instructions]"}, WhileRunning: true,
			Handler: func(_ context.Context, inv commands.Invocation) commands.Result {
				sub, ok := inv.Agent.(commands.Expander)
				if !ok {
					return commands.Failf("/%s needs an agent that takes messages.", inv.Name)
				}
				msg, err := s.Message(inv.RawInput)
				if err != nil {
					return commands.Failf("Cannot load skill %s: %v", s.Name, err)
				}
				sub.SendExpanded(inv.Typed(), msg, agent.TurnOptions{})
				return commands.Succeed("")
			},
		})
	}
	return out
}

// Message is the user message /NAME (or /skill:NAME) sends: the skill in
// a <skill> element that says where its files are, its placeholders
// filled with the instructions as Claude Code fills a skill's ($ARGUMENTS,
// $0…, $NAME), or the instructions after it where it takes none.
func (s Skill) Message(instructions string) (string, error) {
	var f front
	doc, err := frontmatter.ReadFile(s.Path(), maxFileSize, &f)
	if err != nil {
		return "", err
	}
	args := promptargs.NewFiller(promptargs.ClaudeDialect, instructions, promptargs.Names(f.Arguments))
	var body strings.Builder
	args.Fill(&body, strings.TrimSpace(doc.Body))
	msg := fmt.Sprintf("<skill name=%q>\nReferences in this skill are relative to %s.\n\n%s\n</skill>", s.Name, s.Dir, body.String())
	return args.Unused(msg), nil
}

// Status is the /status section: the skills loaded in the session (by the
// skill tool or /skill:NAME), then every skill there is.
func (c *Catalog) Status(events []session.Event) string {
	if len(c.Skills) == 0 {
		return "none (add SKILL.md folders to .tack/skills, .claude/skills or $TACK_HOME/skills)"
	}
	loaded := c.Loaded(events)
	var names []string
	for _, s := range c.Skills {
		names = append(names, s.Name)
	}
	text := "loaded: none"
	if len(loaded) > 0 {
		text = "loaded: " + strings.Join(loaded, ", ")
	}
	return text + "\navailable: " + strings.Join(names, ", ")
}

// LoadTypes are the types of the events Status reads, those that load
// skills: a call of the skill tool and a /skill:NAME command; none when
// there are no skills to load.
func (c *Catalog) LoadTypes() []string {
	if len(c.Skills) == 0 {
		return nil
	}
	return []string{session.ToolCall{}.EventType(), session.CommandRun{}.EventType()}
}

// Loaded lists, in first-use order, the skills a session's events loaded:
// by the skill tool, /skill:NAME or /NAME.
func (c *Catalog) Loaded(events []session.Event) []string {
	var out []string
	add := func(n string) {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, e := range events {
		switch d := e.Data.(type) {
		case session.ToolCall:
			if d.Name == ToolName {
				var a args
				if json.Unmarshal([]byte(d.Arguments), &a) == nil {
					add(strings.TrimSpace(a.Name))
				}
			}
		case session.CommandRun:
			if name, ok := strings.CutPrefix(d.Name, CommandPrefix); ok {
				add(name)
			} else if _, ok := c.Find(d.Name); ok {
				add(d.Name)
			}
		}
	}
	return out
}
