package launch

import (
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/customcmd"
	"github.com/tack-agent/tack/backend/skills"
	"github.com/tack-agent/tack/backend/tools"
)

// addUserCommands registers the user's own slash commands (Markdown files
// in the project's and the user's command folders) and the skills'
// commands after every built-in, which they never replace: each skill as
// /NAME, as Claude Code invokes it, where no command has that name, and
// as /skill:NAME, listed only where /NAME is another command's.
// Files that cannot be used become notices.
func (s *Session) addUserCommands(o Options) {
	cmds, problems := customcmd.Load(append(customcmd.Dirs(o.Home, o.getenv("HOME"), config.CodexHome(o.getenv), s.Cwd), pluginCommandDirs(s.plugins)...))
	problems = append(problems, customcmd.Register(s.Commands, cmds, s.promptShell)...)
	for _, c := range s.Skills.Commands() {
		plain := c
		plain.Name = strings.TrimPrefix(c.Name, skills.CommandPrefix)
		if _, taken := s.Commands.Find("", plain.Name); !taken && s.Commands.Register(plain) == nil {
			c.Hidden = true // listed as /NAME, as in Claude Code
		}
		if err := s.Commands.Register(c); err != nil {
			problems = append(problems, err.Error())
		}
	}
	for _, p := range problems {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: p})
	}
}

// loadSkills finds the session's skills and, when there are any, adds the
// skill tool that loads them. It returns the SKILL.md files it skipped.
func (s *Session) loadSkills(o Options, registry *tools.Registry) []string {
	catalog, problems := skills.Load(append(skills.Dirs(o.Home, o.getenv("HOME"), config.CodexHome(o.getenv), s.Cwd), pluginSkillDirs(s.plugins)...))
	s.Skills = catalog
	if len(catalog.Skills) > 0 {
		registry.Add(skills.NewTool(catalog))
	}
	return problems
}
